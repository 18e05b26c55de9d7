//! Decoded programs and their control-flow graphs.
//!
//! [`Program::decode`] turns a code blob into a list of instructions, one per
//! byte offset the linear decoder visits (undecodable dwords included, as
//! errors). [`Cfg::build`] splits that list into basic blocks and links
//! them with the edges of `s_branch`, the `s_cbranch_*` forms and
//! fall-through. What the graph cannot follow (indirect jumps, calls,
//! branches that leave the code or land inside an instruction, falling off
//! the end of the code, undecodable words) is recorded as a [`Problem`]
//! that names the pc; the tracer turns every problem into a reason to trust
//! nothing.

use core::fmt;
use core::ops::Range;
use isa::{BranchCond, DecodeError, Decoder, Implicit, Instruction, Mode, OpSpace, Opcode, Target};
use petgraph::algo::dominators::{self, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{DfsPostOrder, EdgeRef, IntoNeighbors, NodeIndexable, Visitable};

/// One position of the linear decode: an instruction or a decode error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Byte offset in the code.
    pub pc: u32,
    /// Bytes the position covers (the instruction length, or 4 / the tail
    /// length for an undecodable word).
    pub len: u8,
    /// The instruction, or why the bytes do not decode.
    pub inst: Result<Instruction, DecodeError>,
}

/// A decoded code blob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The target the code was decoded for.
    pub target: Target,
    /// The wave size it was decoded for (lane masks are SGPR pairs in
    /// wave64).
    pub wave64: bool,
    /// Length of the code in bytes.
    pub code_len: u32,
    /// Every position of the linear decode, in code order.
    pub lines: Vec<Line>,
}

impl Program {
    /// Decode `code` linearly, as `llvm-objdump` does (one dword is
    /// skipped after an undecodable one), except where the hardware runs
    /// bytes LLVM rejects ([`isa::decode_hardware`]): that instruction is
    /// the line, as long as the hardware's. A bare [`Target`] decodes wave32
    /// code; pass [`Mode::wave64`] for wave64 code.
    pub fn decode(code: &[u8], mode: impl Into<Mode>) -> Program {
        let mode = mode.into();
        let code = &code[..code.len().min(u32::MAX as usize)];
        // Every line covers at least 4 bytes, except a tail of 1..=3, so
        // there are at most `code.len() / 4 + 1` lines: the list never
        // grows past the capacity reserved here. Each line is pushed as a
        // placeholder and decoded in place into its own storage (no copy
        // of a decoded instruction); the placeholder pushed after the last
        // line is popped again.
        let max = code.len() / 4 + 1;
        let placeholder = Line {
            pc: 0,
            len: 0,
            inst: Ok(Instruction::default()),
        };
        let mut lines: Vec<Line> = Vec::with_capacity(max);
        let mut dec = Decoder::new(code, mode);
        while lines.len() < max {
            lines.push(placeholder.clone());
            let Some(line) = lines.last_mut() else { break };
            let r = match &mut line.inst {
                Ok(inst) => dec.next_into(inst),
                Err(_) => None,
            };
            let Some((at, r)) = r else {
                lines.pop();
                break;
            };
            line.pc = at as u32;
            line.len = (dec.offset() - at) as u8;
            if let Err(e) = r {
                // Bytes LLVM rejects that the hardware runs (an SMEM data
                // tuple into VCC): the real instruction, not LLVM's skipped
                // dword and whatever the next dword then decodes as.
                match isa::decode_hardware(&code[at..], mode) {
                    Ok(inst) => {
                        dec.seek(at + inst.len as usize);
                        line.len = inst.len;
                        line.inst = Ok(inst);
                    }
                    Err(_) => line.inst = Err(e),
                }
            }
        }
        Program {
            target: mode.target,
            wave64: mode.wave64,
            code_len: code.len() as u32,
            lines,
        }
    }

    /// The index of the line that starts at `pc`, if one does.
    pub fn line_at(&self, pc: u32) -> Option<usize> {
        self.lines.binary_search_by_key(&pc, |s| s.pc).ok()
    }
}

/// The condition of a conditional branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `s_cbranch_scc0`.
    Scc0,
    /// `s_cbranch_scc1`.
    Scc1,
    /// `s_cbranch_vccz`.
    Vccz,
    /// `s_cbranch_vccnz`.
    Vccnz,
    /// `s_cbranch_execz`: taken when no lane is active.
    Execz,
    /// `s_cbranch_execnz`: taken when some lane is active.
    Execnz,
    /// `s_cbranch_cdbg*`: taken on a debugger condition.
    Debug,
}

impl Cond {
    fn name(self) -> &'static str {
        match self {
            Cond::Scc0 => "scc0",
            Cond::Scc1 => "scc1",
            Cond::Vccz => "vccz",
            Cond::Vccnz => "vccnz",
            Cond::Execz => "execz",
            Cond::Execnz => "execnz",
            Cond::Debug => "cdbg",
        }
    }
}

/// How a basic block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terminator {
    /// The next instruction starts another block (a branch target).
    FallThrough,
    /// `s_branch` to `target`.
    Branch {
        /// Byte offset of the target.
        target: u32,
    },
    /// `s_cbranch_*`: to `target` when `cond` holds, else the next block.
    CondBranch {
        /// The condition.
        cond: Cond,
        /// Byte offset of the target.
        target: u32,
    },
    /// `s_endpgm` and its variants: the wave ends.
    End,
    /// Control flow the graph does not follow: `s_setpc_b64`,
    /// `s_swappc_b64`, `s_call_b64`, `s_rfe_b64`, `s_subvector_loop_*`
    /// and any other instruction that changes the pc. Calls (`s_swappc`,
    /// `s_call`) keep a fall-through edge for the return.
    Indirect {
        /// The opcode.
        opcode: Opcode,
    },
    /// The code ends without an `s_endpgm`.
    OffEnd,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Byte offset of the first instruction.
    pub start: u32,
    /// Byte offset just past the last instruction.
    pub end: u32,
    /// Indices into [`Program::lines`].
    pub lines: Range<u32>,
    /// How the block ends.
    pub term: Terminator,
}

/// Which way an edge leaves its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// To the next instruction.
    Fall,
    /// To a branch target.
    Taken,
}

/// A control-flow edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Fall-through or taken.
    pub kind: EdgeKind,
    /// On this edge no lane is active: the taken edge of `s_cbranch_execz`
    /// and the fall-through edge of `s_cbranch_execnz`.
    pub exec_zero: bool,
}

/// Something the graph cannot follow, with the pc that causes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A branch whose target is outside the code.
    TargetOutside {
        /// The branch.
        pc: u32,
        /// The target (may be negative, as a signed value).
        target: i64,
    },
    /// A branch whose target is inside another instruction.
    TargetInsideInstruction {
        /// The branch.
        pc: u32,
        /// The target.
        target: u32,
    },
    /// An instruction that changes the pc in a way the graph does not follow.
    Indirect {
        /// The instruction.
        pc: u32,
        /// Its mnemonic.
        opcode: &'static str,
    },
    /// Bytes that do not decode (the hardware would run something there).
    Undecodable {
        /// The error.
        error: DecodeError,
    },
    /// Execution runs past the end of the code.
    OffEnd {
        /// The last instruction.
        pc: u32,
    },
    /// The code is empty.
    Empty,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TargetOutside { pc, target } => {
                if *target < 0 {
                    write!(
                        f,
                        "pc {pc:#x}: branch target -{:#x} is outside the code",
                        -target
                    )
                } else {
                    write!(
                        f,
                        "pc {pc:#x}: branch target {target:#x} is outside the code"
                    )
                }
            }
            Problem::TargetInsideInstruction { pc, target } => write!(
                f,
                "pc {pc:#x}: branch target {target:#x} is inside an instruction"
            ),
            Problem::Indirect { pc, opcode } => {
                write!(
                    f,
                    "pc {pc:#x}: {opcode} to a target the trace does not follow"
                )
            }
            Problem::Undecodable { error } => write!(f, "undecodable: {error}"),
            Problem::OffEnd { pc } => write!(
                f,
                "pc {pc:#x}: execution runs past the end of the code (no s_endpgm)"
            ),
            Problem::Empty => f.write_str("the code is empty"),
        }
    }
}

/// The control-flow graph of a [`Program`].
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Blocks and edges. Node weights are [`Block`]s, in code order (node
    /// index i is the i-th block by address).
    pub graph: DiGraph<Block, Edge>,
    /// The block at pc 0 (`None` for empty code).
    pub entry: Option<NodeIndex>,
    /// What the graph does not follow, in code order.
    pub problems: Vec<Problem>,
}

/// What an instruction does to control flow.
#[derive(Clone, Copy)]
enum Flow {
    Next,
    Branch(i64),
    Cond(Cond, i64),
    End,
    Indirect { returns: bool },
}

fn flow(pc: u32, inst: &Instruction) -> Flow {
    // Only scalar program-control, SOP1 (s_setpc, ...) and SOPK (s_call,
    // ...) instructions change the pc or end the program.
    if !matches!(
        inst.opcode.space(),
        OpSpace::Sopp | OpSpace::Sop1 | OpSpace::Sopk
    ) {
        return Flow::Next;
    }
    let imp = inst.implicit();
    if imp.contains(Implicit::END) {
        return Flow::End;
    }
    if !imp.contains(Implicit::BRANCH) {
        return Flow::Next;
    }
    let target = || {
        let simm = match inst.mods {
            isa::Modifiers::Simm16(v) => v as i16 as i64,
            _ => 0,
        };
        pc as i64 + 4 + simm * 4
    };
    if inst.opcode.space() == OpSpace::Sopp {
        // The condition is isa's fact about the opcode (one table for every
        // consumer), not a list kept here.
        let cond = match inst.opcode.facts().flow {
            Some(isa::Flow::Branch(c)) => match c {
                BranchCond::Always => return Flow::Branch(target()),
                BranchCond::Scc0 => Cond::Scc0,
                BranchCond::Scc1 => Cond::Scc1,
                BranchCond::Vccz => Cond::Vccz,
                BranchCond::Vccnz => Cond::Vccnz,
                BranchCond::Execz => Cond::Execz,
                BranchCond::Execnz => Cond::Execnz,
                BranchCond::Debug => Cond::Debug,
            },
            _ => return Flow::Indirect { returns: false },
        };
        return Flow::Cond(cond, target());
    }
    let returns = inst.opcode == Opcode::S_SWAPPC_B64 || inst.opcode == Opcode::S_CALL_B64;
    Flow::Indirect { returns }
}

impl Cfg {
    /// Build the graph of `program`.
    pub fn build(program: &Program) -> Cfg {
        let slots = &program.lines;
        let n = slots.len();
        let mut problems = Vec::new();
        if n == 0 {
            return Cfg {
                graph: DiGraph::new(),
                entry: None,
                problems: vec![Problem::Empty],
            };
        }
        // Block leaders, and the lines that change control flow (in code
        // order, with the line a branch goes to).
        let mut jumps: Vec<(usize, Flow, Option<usize>)> = Vec::with_capacity(n / 8 + 4);
        // `LEADER` marks block leaders until the block loop below puts each
        // line's block there.
        const LEADER: u32 = u32::MAX;
        let mut block_of = vec![0u32; n];
        block_of[0] = LEADER;
        // Blocks (one per leader) and conditional branches (a block's second
        // edge), counted as the leaders are marked: the graph's exact size.
        let mut blocks = 1usize;
        let mut conds = 0usize;
        for (i, s) in slots.iter().enumerate() {
            let f = match &s.inst {
                Ok(inst) => flow(s.pc, inst),
                Err(e) => {
                    problems.push(Problem::Undecodable { error: *e });
                    Flow::Next
                }
            };
            let to = match f {
                Flow::Next => continue,
                Flow::Branch(t) | Flow::Cond(_, t) => {
                    conds += usize::from(matches!(f, Flow::Cond(..)));
                    let to = resolve(program, s.pc, t, &mut problems);
                    if let Some(j) = to {
                        blocks += usize::from(block_of[j] != LEADER);
                        block_of[j] = LEADER;
                    }
                    to
                }
                Flow::End => None,
                Flow::Indirect { .. } => {
                    problems.push(Problem::Indirect {
                        pc: s.pc,
                        opcode: s.inst.as_ref().map(|i| i.opcode.name()).unwrap_or("?"),
                    });
                    None
                }
            };
            if i + 1 < n {
                blocks += usize::from(block_of[i + 1] != LEADER);
                block_of[i + 1] = LEADER;
            }
            jumps.push((i, f, to));
        }
        // Blocks; `ends[b]`: block b's last line's flow and target line.
        let mut graph: DiGraph<Block, Edge> = DiGraph::with_capacity(blocks, blocks + conds);
        let mut ends: Vec<(Flow, Option<usize>)> = Vec::with_capacity(blocks);
        let mut next_jump = jumps.iter().peekable();
        let mut start = 0usize;
        for i in 0..n {
            // Line i + 1's mark is still there: it is overwritten next.
            let last = i + 1 == n || block_of[i + 1] == LEADER;
            block_of[i] = graph.node_count() as u32;
            if !last {
                continue;
            }
            let (f, to) = match next_jump.next_if(|j| j.0 == i) {
                Some(&(_, f, to)) => (f, to),
                None => (Flow::Next, None),
            };
            let term = match f {
                Flow::Next if i + 1 == n => Terminator::OffEnd,
                Flow::Next => Terminator::FallThrough,
                Flow::Branch(t) => Terminator::Branch { target: t as u32 },
                Flow::Cond(c, t) => Terminator::CondBranch {
                    cond: c,
                    target: t as u32,
                },
                Flow::End => Terminator::End,
                Flow::Indirect { .. } => Terminator::Indirect {
                    opcode: slots[i]
                        .inst
                        .as_ref()
                        .map(|x| x.opcode)
                        .unwrap_or(Opcode::S_NOP),
                },
            };
            let end_slot = &slots[i];
            graph.add_node(Block {
                start: slots[start].pc,
                end: end_slot.pc + end_slot.len as u32,
                lines: start as u32..(i + 1) as u32,
                term,
            });
            ends.push((f, to));
            start = i + 1;
        }
        // Edges.
        let nb = graph.node_count();
        for (b, &(f, to)) in ends.iter().enumerate() {
            let last = graph[NodeIndex::new(b)].lines.end as usize - 1;
            let next = if b + 1 < nb {
                Some(NodeIndex::new(b + 1))
            } else {
                None
            };
            let pc = slots[last].pc;
            let add = |g: &mut DiGraph<Block, Edge>, to: NodeIndex, kind, exec_zero| {
                g.add_edge(NodeIndex::new(b), to, Edge { kind, exec_zero });
            };
            let target = to.map(|j| NodeIndex::new(block_of[j] as usize));
            match f {
                Flow::Next => match next {
                    Some(nx) => add(&mut graph, nx, EdgeKind::Fall, false),
                    None => problems.push(Problem::OffEnd { pc }),
                },
                Flow::Branch(_) => {
                    if let Some(t) = target {
                        add(&mut graph, t, EdgeKind::Taken, false);
                    }
                }
                Flow::Cond(c, _) => {
                    if let Some(t) = target {
                        add(&mut graph, t, EdgeKind::Taken, c == Cond::Execz);
                    }
                    match next {
                        Some(nx) => add(&mut graph, nx, EdgeKind::Fall, c == Cond::Execnz),
                        None => problems.push(Problem::OffEnd { pc }),
                    }
                }
                Flow::End => {}
                Flow::Indirect { returns } => {
                    if returns {
                        match next {
                            Some(nx) => add(&mut graph, nx, EdgeKind::Fall, false),
                            None => problems.push(Problem::OffEnd { pc }),
                        }
                    }
                }
            }
        }
        problems.sort_by_key(problem_pc);
        Cfg {
            graph,
            entry: Some(NodeIndex::new(0)),
            problems,
        }
    }

    /// The number of blocks.
    pub fn block_count(&self) -> usize {
        self.graph.node_count()
    }

    /// A block by node.
    pub fn block(&self, n: NodeIndex) -> &Block {
        &self.graph[n]
    }

    /// The blocks reachable from the entry in reverse postorder, and each
    /// block's position in that order (`usize::MAX` for blocks not
    /// reached): [`reverse_postorder`] of the graph.
    pub fn reverse_postorder(&self) -> (Vec<NodeIndex>, Vec<usize>) {
        match self.entry {
            Some(e) => reverse_postorder(&self.graph, e),
            None => (Vec::new(), Vec::new()),
        }
    }

    /// Dominators of every reachable block (empty code: `None`).
    pub fn dominators(&self) -> Option<Dominators<NodeIndex>> {
        self.entry.map(|e| dominators::simple_fast(&self.graph, e))
    }

    /// The block that contains the instruction at `pc`.
    pub fn block_at(&self, pc: u32) -> Option<NodeIndex> {
        let (mut lo, mut hi) = (0usize, self.graph.node_count());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.graph[NodeIndex::new(mid)].start <= pc {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == 0 {
            return None;
        }
        let n = NodeIndex::new(lo - 1);
        (pc < self.graph[n].end).then_some(n)
    }

    /// Write the graph in Graphviz dot: one box per block with its
    /// instructions (printed by `isa`'s formatter), edges labelled with the
    /// branch condition, `exec=0` on edges where no lane is active.
    pub fn write_dot(&self, program: &Program, out: &mut impl fmt::Write) -> fmt::Result {
        let fmtr = isa::Formatter::new(program.target);
        out.write_str("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n")?;
        for n in self.graph.node_indices() {
            let b = &self.graph[n];
            write!(out, "  b{} [label=\"", n.index())?;
            write!(out, "{:#06x}..{:#06x}\\l", b.start, b.end)?;
            for s in &program.lines[b.lines.start as usize..b.lines.end as usize] {
                let mut line = String::new();
                match &s.inst {
                    Ok(i) => {
                        let _ = fmtr.write(i, &mut line);
                    }
                    Err(e) => line = format!("<{}>", e.kind),
                }
                write!(out, "{:#06x}: {}\\l", s.pc, dot_escape(&line))?;
            }
            match b.term {
                Terminator::Indirect { .. } => out.write_str("(pc not followed)\\l")?,
                Terminator::OffEnd => out.write_str("(runs off the end)\\l")?,
                _ => {}
            }
            out.write_str("\"];\n")?;
        }
        for e in self.graph.edge_references() {
            let from = &self.graph[e.source()];
            let mut label = String::new();
            if let (EdgeKind::Taken, Terminator::CondBranch { cond, .. }) =
                (e.weight().kind, from.term)
            {
                label.push_str(cond.name());
            } else if let (EdgeKind::Fall, Terminator::CondBranch { cond, .. }) =
                (e.weight().kind, from.term)
            {
                label.push('!');
                label.push_str(cond.name());
            }
            if e.weight().exec_zero {
                label.push_str(" exec=0");
            }
            write!(out, "  b{} -> b{}", e.source().index(), e.target().index())?;
            if !label.is_empty() {
                write!(out, " [label=\"{}\"]", label.trim())?;
            }
            out.write_str(";\n")?;
        }
        for p in &self.problems {
            writeln!(out, "  // {}", dot_escape(&p.to_string()))?;
        }
        out.write_str("}\n")
    }
}

/// The nodes of `g` reachable from `entry` in reverse postorder, and each
/// node's position in that order (`usize::MAX` for nodes not reached,
/// indexed by [`NodeIndexable::to_index`]).
///
/// This is petgraph's [`DfsPostOrder`] from `entry`, reversed: the walk
/// goes first into the neighbour petgraph lists last (for a [`DiGraph`],
/// the edge added first; a [`Cfg`]'s taken edge before its fall-through).
/// An edge `a → b` is a back edge of that walk exactly when `b`'s position
/// is not after `a`'s. The tracer and the translator (its block graph and
/// its IR's) both order their walks with it.
pub fn reverse_postorder<G>(g: G, entry: G::NodeId) -> (Vec<G::NodeId>, Vec<usize>)
where
    G: IntoNeighbors + NodeIndexable + Visitable,
{
    let mut dfs = DfsPostOrder::new(g, entry);
    let mut order = Vec::with_capacity(g.node_bound());
    while let Some(n) = dfs.next(g) {
        order.push(n);
    }
    order.reverse();
    let mut pos = vec![usize::MAX; g.node_bound()];
    for (i, &n) in order.iter().enumerate() {
        pos[g.to_index(n)] = i;
    }
    (order, pos)
}

fn problem_pc(p: &Problem) -> u32 {
    match p {
        Problem::TargetOutside { pc, .. }
        | Problem::TargetInsideInstruction { pc, .. }
        | Problem::Indirect { pc, .. }
        | Problem::OffEnd { pc } => *pc,
        Problem::Undecodable { error } => error.offset as u32,
        Problem::Empty => 0,
    }
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The slot index a branch target names, or a problem.
fn resolve(program: &Program, pc: u32, target: i64, problems: &mut Vec<Problem>) -> Option<usize> {
    if target < 0 || target >= program.code_len as i64 {
        problems.push(Problem::TargetOutside { pc, target });
        return None;
    }
    match program.line_at(target as u32) {
        Some(j) => Some(j),
        None => {
            problems.push(Problem::TargetInsideInstruction {
                pc,
                target: target as u32,
            });
            None
        }
    }
}
