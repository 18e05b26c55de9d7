//! The walk over the analysis CFG's blocks in reverse postorder, and the
//! joins: registers that disagree where edges meet become block
//! parameters.
//!
//! The blocks come from [`analysis::cfg::Cfg`], one decode and one graph
//! for the tracer and the translator. The lifter follows its own edges
//! between them (`Exit`): `s_endpgm`/`s_code_end`, `s_branch` and the six
//! `s_cbranch_*` it translates end a block as the graph says, while every
//! other block end the graph has (an instruction it does not follow, such
//! as `s_setpc_b64`, `s_call_b64`, `s_cbranch_cdbg*` or `s_endpgm_saved`)
//! is lifted as an instruction, which refuses it, and the walk goes on at
//! the next block: a failing translation lists what follows such an
//! instruction too. So a lifter block is a run of the CFG's blocks: one
//! block and those after it that only the lifter goes straight on into and
//! no translated branch targets (almost always the block alone). The runs
//! keep the IR's blocks, and the pcs its messages name, what they were
//! before the lifter used the analysis CFG.

use super::state::{reg_name, Half, Sgpr, State};
use super::Lifter;
use crate::ir::{Block, Edge, Term, Ty, Value};
use crate::{Construct, Control};
use analysis::cfg::{Cfg, Cond, EdgeKind, Program, Terminator};
use isa::{op, BranchCond, Flow, Instruction, Opcode, Operand, ValType};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EdgeSlot {
    Jump,
    Then,
    Else,
}

/// A loop head's parameters: register slot and mask half (`None`: a word).
pub(super) type ParamKinds = Vec<(usize, Option<Half>)>;

/// How the lifter leaves a block (targets are block numbers: of the CFG's
/// blocks, then of the lifter's runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// `s_endpgm` or `s_code_end`: the program ends.
    Return,
    /// `s_branch` to the block of its taken edge (`None`: the target is
    /// outside the code or inside an instruction).
    Jump(Option<usize>),
    /// `s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz`: to the taken edge's
    /// block or the next one.
    Cond(Option<usize>),
    /// Anything else: the last instruction is lifted like the others and
    /// the walk goes on at the next block.
    Fall,
}

/// A conditional branch the lifter follows (not the debugger ones).
pub(super) fn is_cbranch(code: Opcode) -> bool {
    matches!(
        code.facts().flow,
        Some(Flow::Branch(
            BranchCond::Scc0
                | BranchCond::Scc1
                | BranchCond::Vccz
                | BranchCond::Vccnz
                | BranchCond::Execz
                | BranchCond::Execnz
        ))
    )
}

/// Ends the program for the lifter: `s_endpgm` or `s_code_end`.
pub(super) fn is_end(code: Opcode) -> bool {
    code == op::S_ENDPGM || code == op::S_CODE_END
}

/// The lifter's exit from block `n`.
fn exit_of(program: &Program, cfg: &Cfg, n: NodeIndex) -> Exit {
    let blk = cfg.block(n);
    let taken = || {
        cfg.graph
            .edges(n)
            .find(|e| e.weight().kind == EdgeKind::Taken)
            .map(|e| e.target().index())
    };
    match blk.term {
        Terminator::End => {
            let last = &program.lines[blk.lines.end as usize - 1];
            match &last.inst {
                Ok(i) if is_end(i.opcode) => Exit::Return,
                _ => Exit::Fall,
            }
        }
        Terminator::Branch { .. } => Exit::Jump(taken()),
        Terminator::CondBranch { cond, .. } if cond != Cond::Debug => Exit::Cond(taken()),
        _ => Exit::Fall,
    }
}

/// Mark the register slots an instruction may write (0..128 scalar codes,
/// 128..384 VGPRs, 384 SCC), from isa's operand roles and implicit flags.
pub(super) fn mark_writes(inst: &Instruction, wave64: bool, w: &mut [bool]) {
    let imp = inst.implicit();
    if imp.contains(isa::Implicit::RELATIVE) {
        w.iter_mut().for_each(|x| *x = true);
        return;
    }
    for s in inst.operands.iter().filter(|s| s.is_def()) {
        if let Operand::Reg { code, count } = s.op {
            let extra = (s.ty == ValType::Mask && wave64 && count == 1) as u16;
            for k in 0..count as u16 + extra {
                let c = (code + k) as usize;
                if c < 128 {
                    w[c] = true;
                } else if (256..512).contains(&c) {
                    w[128 + c - 256] = true;
                }
            }
        }
    }
    if imp.contains(isa::Implicit::WRITE_SCC) {
        w[384] = true;
    }
    if imp.contains(isa::Implicit::WRITE_EXEC) {
        w[126] = true;
        w[127] = true;
    }
    if imp.contains(isa::Implicit::WRITE_VCC) {
        w[106] = true;
        w[107] = true;
    }
    if imp.contains(isa::Implicit::WRITE_M0) {
        w[124] = true;
    }
}

impl Lifter<'_> {
    pub(super) fn run(&mut self, program: &Program, cfg: &Cfg) {
        let Some(entry) = cfg.entry.filter(|_| !program.lines.is_empty()) else {
            self.text = String::new();
            self.problem(Control::NoCode);
            self.b.terminate(Term::Return);
            return;
        };
        self.undefined_entry_vgprs(program);
        if self.o.stage == isa::Stage::Ps {
            self.ps_entry_vgprs();
        }
        // The lifter's blocks: runs of the CFG's blocks, each starting at
        // the entry, after a block the lifter does not go straight on from,
        // or at a translated branch's target.
        let cfg_exits: Vec<Exit> = cfg
            .graph
            .node_indices()
            .map(|n| exit_of(program, cfg, n))
            .collect();
        let nc = cfg_exits.len();
        let mut leader = vec![false; nc];
        leader[entry.index()] = true;
        for (n, exit) in cfg_exits.iter().enumerate() {
            if let Exit::Jump(Some(t)) | Exit::Cond(Some(t)) = *exit {
                leader[t] = true;
            }
            if *exit != Exit::Fall && n + 1 < nc {
                leader[n + 1] = true;
            }
        }
        // Per run: its first and last CFG block; and each CFG block's run.
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(nc);
        let mut run_of = vec![0usize; nc];
        for n in 0..nc {
            if leader[n] || runs.is_empty() {
                runs.push((n, n));
            }
            if let Some(r) = runs.last_mut() {
                r.1 = n;
            }
            run_of[n] = runs.len() - 1;
        }
        let nb = runs.len();
        let lines = |r: usize| {
            let (first, last) = runs[r];
            let start = cfg.block(NodeIndex::new(first)).lines.start as usize;
            let end = cfg.block(NodeIndex::new(last)).lines.end as usize;
            &program.lines[start..end]
        };
        let start_pc = |r: usize| cfg.block(NodeIndex::new(runs[r].0)).start;
        let exits: Vec<Exit> = runs
            .iter()
            .map(|&(_, last)| match cfg_exits[last] {
                Exit::Jump(t) => Exit::Jump(t.map(|t| run_of[t])),
                Exit::Cond(t) => Exit::Cond(t.map(|t| run_of[t])),
                e => e,
            })
            .collect();
        // The lifter's edges: the exits, the taken edge first (the walk goes
        // into it first).
        let next = |n: usize| (n + 1 < nb).then_some(n + 1);
        let mut flow: DiGraph<(), ()> = DiGraph::with_capacity(nb, 2 * nb);
        for _ in 0..nb {
            flow.add_node(());
        }
        for (n, exit) in exits.iter().enumerate() {
            let (t, f) = match *exit {
                Exit::Return => (None, None),
                Exit::Jump(t) => (t, None),
                Exit::Cond(t) => (t, next(n)),
                Exit::Fall => (None, next(n)),
            };
            for s in [t, f].into_iter().flatten() {
                flow.add_edge(NodeIndex::new(n), NodeIndex::new(s), ());
            }
        }
        let entry = NodeIndex::new(run_of[entry.index()]);
        let (order, rank) = analysis::cfg::reverse_postorder(&flow, entry);
        // Loops: a back edge goes to a block no later in reverse postorder.
        // The registers written anywhere in a loop's body become parameters
        // of its head.
        let mut loop_writes: HashMap<usize, Vec<bool>> = HashMap::new();
        for &b in &order {
            for t in flow.neighbors(b) {
                if rank[t.index()] > rank[b.index()] {
                    continue;
                }
                let mut body = vec![false; nb];
                body[t.index()] = true;
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if !body[x.index()] {
                        body[x.index()] = true;
                        stack.extend(flow.neighbors_directed(x, Direction::Incoming));
                    }
                }
                let w = loop_writes
                    .entry(t.index())
                    .or_insert_with(|| vec![false; 385]);
                for (x, inb) in body.iter().enumerate() {
                    if !inb {
                        continue;
                    }
                    for l in lines(x) {
                        if let Ok(inst) = &l.inst {
                            mark_writes(inst, self.o.wave64, w);
                        }
                    }
                }
            }
        }
        // Waterfall loops are lifted as one pass (`waterfall`): their
        // heads are no loop heads for the walk.
        let mut waterfalls: HashMap<usize, super::waterfall::Waterfall> = HashMap::new();
        let mut waterfall_heads: Vec<usize> = Vec::new();
        if self.o.compute.is_none() && self.o.ngg.is_none() {
            let succ: Vec<(Option<usize>, Option<usize>)> = exits
                .iter()
                .enumerate()
                .map(|(n, e)| match *e {
                    Exit::Return => (None, None),
                    Exit::Jump(t) => (t, None),
                    Exit::Cond(t) => (t, next(n)),
                    Exit::Fall => (None, next(n)),
                })
                .collect();
            let preds: Vec<Vec<usize>> = (0..nb)
                .map(|n| {
                    flow.neighbors_directed(NodeIndex::new(n), Direction::Incoming)
                        .map(|p| p.index())
                        .collect()
                })
                .collect();
            let shape = super::waterfall::Runs {
                lines: &lines,
                succ: &succ,
                preds: &preds,
                wave64: self.o.wave64,
            };
            let mut candidates: Vec<usize> = loop_writes.keys().copied().collect();
            candidates.sort_unstable();
            for h in candidates {
                if let Some(w) = super::waterfall::recognise(&shape, h) {
                    loop_writes.remove(&h);
                    self.waterfall_reads.insert(w.read_pc, (w.sdst, w.vgpr));
                    self.waterfall_matches.insert(w.match_pc);
                    waterfall_heads.push(w.head);
                    waterfalls.insert(w.body, w);
                }
            }
        }
        let mut heads: HashMap<usize, (Block, ParamKinds)> = HashMap::new();
        let mut pending: Vec<Vec<(Block, EdgeSlot, State)>> = vec![Vec::new(); nb];
        let entry_state = self.st.clone();
        self.b.func.blocks[0].pc = start_pc(entry.index());
        let ei = entry.index();
        if loop_writes.contains_key(&ei) {
            // A loop at the entry: the entry block becomes its preheader.
            self.b.terminate(Term::Jump(Edge {
                block: Block(u32::MAX),
                args: Vec::new(),
            }));
            pending[ei].push((Block(0), EdgeSlot::Jump, entry_state.clone()));
        }
        for &node in &order {
            let bi = node.index();
            let incoming = std::mem::take(&mut pending[bi]);
            let blk = if bi == ei && !loop_writes.contains_key(&ei) {
                self.st = entry_state.clone();
                Block(0)
            } else {
                if incoming.is_empty() {
                    continue;
                }
                let blk = self.b.new_block(start_pc(bi));
                match loop_writes.get(&bi) {
                    Some(w) => {
                        let w = w.clone();
                        let kinds = self.merge_forced(blk, incoming, Some(&w));
                        heads.insert(bi, (blk, kinds));
                    }
                    None => self.merge(blk, incoming),
                }
                blk
            };
            self.b.cur = Some(blk);
            // Body: every instruction but a terminator the exit handles.
            let exit = exits[bi];
            let body = lines(bi);
            let lifted = match exit {
                Exit::Fall => body.len(),
                _ => body.len() - 1,
            };
            for l in &body[..lifted] {
                self.pc = l.pc;
                match &l.inst {
                    Err(e) => {
                        self.text = format!("{e}");
                        self.text_valid = true;
                        self.cur = None;
                        self.problem(Construct::Undecodable);
                    }
                    Ok(inst) => {
                        self.cur = Some(*inst);
                        self.text_valid = false;
                        self.inst(inst);
                    }
                }
            }
            if let Some(w) = waterfalls.get(&bi) {
                self.waterfall_exit(w);
            }
            // Terminator.
            let fall = next(bi);
            let mut edges: Vec<(usize, EdgeSlot)> = Vec::new();
            let mut branch_cond: Option<(Value, bool)> = None;
            if let Some(term) = body.get(lifted) {
                let Ok(inst) = term.inst else {
                    // Only a decoded branch or end is a terminator.
                    continue;
                };
                self.pc = term.pc;
                self.cur = Some(inst);
                self.text_valid = false;
                match exit {
                    Exit::Return => self.b.terminate(Term::Return),
                    Exit::Jump(None) | Exit::Cond(None) => {
                        self.problem(Control::BranchTarget);
                        self.b.terminate(Term::Return);
                    }
                    Exit::Jump(Some(t)) => edges.push((t, EdgeSlot::Jump)),
                    Exit::Cond(Some(t)) => {
                        // A waterfall's head never takes its `execz` edge and
                        // its body always leaves (`waterfall`).
                        let (cond, divergent) = if waterfall_heads.contains(&bi) {
                            (self.b.bool(false), false)
                        } else if waterfalls.contains_key(&bi) {
                            (self.b.bool(true), false)
                        } else {
                            self.branch_cond(inst.opcode)
                        };
                        match self.b.func.konst(cond) {
                            Some(c) => {
                                if c != 0 {
                                    edges.push((t, EdgeSlot::Jump));
                                } else {
                                    match fall {
                                        Some(f) => edges.push((f, EdgeSlot::Jump)),
                                        None => {
                                            self.problem(Control::OffEnd);
                                            self.b.terminate(Term::Return);
                                        }
                                    }
                                }
                            }
                            None => match fall {
                                Some(f) if f == t => edges.push((t, EdgeSlot::Jump)),
                                Some(f) => {
                                    edges.push((t, EdgeSlot::Then));
                                    edges.push((f, EdgeSlot::Else));
                                    branch_cond = Some((cond, divergent));
                                }
                                None => {
                                    self.problem(Control::OffEnd);
                                    self.b.terminate(Term::Return);
                                }
                            },
                        }
                    }
                    Exit::Fall => {}
                }
            } else {
                match fall {
                    Some(f) => edges.push((f, EdgeSlot::Jump)),
                    None => {
                        self.problem(Control::OffEndNoEndpgm);
                        self.b.terminate(Term::Return);
                    }
                }
            }
            if !edges.is_empty() {
                let placeholder = |b: Block| Edge {
                    block: b,
                    args: Vec::new(),
                };
                let dummy = Block(u32::MAX);
                let t = match branch_cond {
                    Some((cond, div)) => {
                        if div {
                            self.divergent.insert(blk, self.pc);
                            if let Some(e) = self.exec_at_branch {
                                self.branch_exec.insert(blk, e);
                            }
                        }
                        Term::Branch {
                            cond,
                            then: placeholder(dummy),
                            els: placeholder(dummy),
                        }
                    }
                    None => Term::Jump(placeholder(dummy)),
                };
                self.b.terminate(t);
                for (target, slot) in edges {
                    if rank[target] <= rank[bi] {
                        if let Some((_, true)) = branch_cond {
                            self.problem(Control::PerLaneLoop {
                                head: start_pc(target),
                            });
                        }
                        match heads.get(&target).cloned() {
                            Some((hb, kinds)) => {
                                let args = self.back_edge_args(&kinds);
                                self.set_edge(blk, slot, Edge { block: hb, args });
                            }
                            None => {
                                self.problem(Control::UnreachedLoopHead {
                                    head: start_pc(target),
                                });
                                self.b.terminate(Term::Return);
                                break;
                            }
                        }
                        continue;
                    }
                    pending[target].push((blk, slot, self.st.clone()));
                }
            }
        }
    }

    pub(super) fn set_edge(&mut self, from: Block, slot: EdgeSlot, e: Edge) {
        let t = &mut self.b.func.blocks[from.0 as usize].term;
        match (t, slot) {
            (Term::Jump(x), EdgeSlot::Jump) => *x = e,
            (Term::Branch { then, .. }, EdgeSlot::Then) => *then = e,
            (Term::Branch { els, .. }, EdgeSlot::Else) => *els = e,
            _ => {}
        }
    }

    /// Join the incoming states at `blk`, making block parameters where
    /// they disagree, and patch the predecessors' edges.
    /// Join the incoming states at `blk`, making block parameters where
    /// they disagree or `force` says so (registers a loop writes), and patch
    /// the predecessors' edges. Returns the parameters' register slots
    /// (0..128 SGPRs, 128..384 VGPRs, 384 SCC) and kinds, in order.
    pub(super) fn merge_forced(
        &mut self,
        blk: Block,
        incoming: Vec<(Block, EdgeSlot, State)>,
        force: Option<&[bool]>,
    ) -> Vec<(usize, Option<Half>)> {
        let n = incoming.len();
        let forced = |slot: usize| force.map(|f| f[slot]).unwrap_or(false);
        let mut kinds = Vec::new();
        let mut args: Vec<Vec<Value>> = vec![Vec::new(); n];
        let mut st = incoming[0].2.clone();
        if n > 1 || force.is_some() {
            // SGPRs.
            let mut skip_next = false;
            for r in 0..128 {
                if skip_next {
                    skip_next = false;
                    continue;
                }
                let first = incoming[0].2.s[r];
                if !forced(r) && incoming.iter().all(|x| x.2.s[r] == first) {
                    continue;
                }
                // A wave64 lane mask in a register pair joins as one value.
                if self.o.wave64 && r % 2 == 0 && r + 1 < 128 {
                    let any_pair = incoming.iter().any(|x| {
                        matches!((x.2.s[r], x.2.s[r + 1]),
                            (Sgpr::Mask(a, Half::Lo), Sgpr::Mask(b, Half::Hi)) if a == b)
                    });
                    let all_fit = incoming.iter().all(|x| {
                        matches!((x.2.s[r], x.2.s[r + 1]),
                            (Sgpr::Mask(a, Half::Lo), Sgpr::Mask(b, Half::Hi)) if a == b)
                            || matches!((x.2.s[r], x.2.s[r + 1]), (Sgpr::Word(_), Sgpr::Word(_)))
                    });
                    if any_pair && all_fit {
                        let mut vs = Vec::with_capacity(incoming.len());
                        let cur = self.b.cur;
                        for x in &incoming {
                            // A conversion is computed on its edge's source
                            // block, where the edge's arguments live.
                            self.b.cur = Some(x.0);
                            vs.push(match (x.2.s[r], x.2.s[r + 1]) {
                                (Sgpr::Mask(a, _), _) => a,
                                (Sgpr::Word(lo), Sgpr::Word(hi)) => self.word_to_bit(lo, Some(hi)),
                                (Sgpr::Word(lo), _) => self.word_to_bit(lo, None),
                            });
                        }
                        self.b.cur = cur;
                        let p = self.b.block_param(blk, Ty::Bool);
                        let name = match r {
                            106 => "vcc".to_string(),
                            126 => "exec".to_string(),
                            _ => format!("s[{}:{}]", r, r + 1),
                        };
                        self.scalar_params.insert(p, name);
                        for (i, v) in vs.into_iter().enumerate() {
                            args[i].push(v);
                        }
                        st.s[r] = Sgpr::Mask(p, Half::Lo);
                        st.s[r + 1] = Sgpr::Mask(p, Half::Hi);
                        kinds.push((r, Some(Half::Lo)));
                        skip_next = true;
                        continue;
                    }
                }
                let any_mask = incoming.iter().any(|x| matches!(x.2.s[r], Sgpr::Mask(..)));
                let half = incoming.iter().find_map(|x| match x.2.s[r] {
                    Sgpr::Mask(_, h) => Some(h),
                    _ => None,
                });
                let ty = if any_mask { Ty::Bool } else { Ty::U32 };
                let p = self.b.block_param(blk, ty);
                self.scalar_params.insert(p, reg_name(r));
                let cur = self.b.cur;
                for (i, x) in incoming.iter().enumerate() {
                    // Conversions on the edge's source block (see above).
                    self.b.cur = Some(x.0);
                    let a = match (x.2.s[r], any_mask) {
                        (Sgpr::Word(v), false) => v,
                        (Sgpr::Mask(v, _), true) => v,
                        (Sgpr::Word(v), true) => {
                            if self.o.wave64 {
                                let (lo, hi) = if r % 2 == 0 { (r, r + 1) } else { (r - 1, r) };
                                match (x.2.s[lo], x.2.s.get(hi).copied()) {
                                    (Sgpr::Word(a), Some(Sgpr::Word(b))) => {
                                        self.word_to_bit(a, Some(b))
                                    }
                                    _ => self.word_to_bit(v, None),
                                }
                            } else {
                                self.word_to_bit(v, None)
                            }
                        }
                        (Sgpr::Mask(v, _), false) => v,
                    };
                    args[i].push(a);
                }
                self.b.cur = cur;
                st.s[r] = if any_mask {
                    Sgpr::Mask(p, half.unwrap_or(Half::Full))
                } else {
                    Sgpr::Word(p)
                };
                kinds.push((r, any_mask.then(|| half.unwrap_or(Half::Full))));
            }
            for r in 0..256 {
                let first = incoming[0].2.v[r];
                if !forced(128 + r) && incoming.iter().all(|x| x.2.v[r] == first) {
                    continue;
                }
                let p = self.b.block_param(blk, Ty::U32);
                // An undefined entry value meeting a defined one at a
                // forward join: the lanes on its path hold whatever the
                // hardware left (the interpreter calls them undefined and
                // `run` does not compare them), so 0 is as good a value as
                // any. Where every edge known now carries it (a loop head's
                // entry), it goes along as it is and `undef::settle` decides
                // once the back edges are there.
                let some_defined = incoming.iter().any(|x| !self.undefined.contains(&x.2.v[r]));
                let zero_all = some_defined
                    && self.o.faults.undefined_join_zeroes_defined
                    && incoming.iter().any(|x| self.undefined.contains(&x.2.v[r]));
                for (i, x) in incoming.iter().enumerate() {
                    let a = x.2.v[r];
                    args[i].push(
                        if zero_all || (some_defined && self.undefined.contains(&a)) {
                            self.b.u32(0)
                        } else {
                            a
                        },
                    );
                }
                st.v[r] = p;
                kinds.push((128 + r, None));
            }
            let first = incoming[0].2.scc;
            if forced(384) || !incoming.iter().all(|x| x.2.scc == first) {
                let p = self.b.block_param(blk, Ty::Bool);
                self.scalar_params.insert(p, "scc".into());
                for (i, x) in incoming.iter().enumerate() {
                    args[i].push(x.2.scc);
                }
                st.scc = p;
                kinds.push((384, Some(Half::Full)));
            }
        }
        for (i, (from, slot, _)) in incoming.iter().enumerate() {
            let e = Edge {
                block: blk,
                args: std::mem::take(&mut args[i]),
            };
            self.set_edge(*from, *slot, e);
        }
        self.st = st;
        kinds
    }

    pub(super) fn merge(&mut self, blk: Block, incoming: Vec<(Block, EdgeSlot, State)>) {
        self.merge_forced(blk, incoming, None);
    }

    /// The arguments of a back edge to a loop head: the current state in
    /// the head's parameter kinds.
    pub(super) fn back_edge_args(&mut self, kinds: &[(usize, Option<Half>)]) -> Vec<Value> {
        let mut out = Vec::with_capacity(kinds.len());
        for &(slot, kind) in kinds {
            let v = match slot {
                0..=127 => match (self.st.s[slot], kind) {
                    (Sgpr::Word(v), None) | (Sgpr::Mask(v, _), Some(_)) => v,
                    (Sgpr::Mask(..), None) => self.s_word(slot),
                    (Sgpr::Word(v), Some(_)) => {
                        if self.o.wave64 {
                            let (lo, hi) = if slot % 2 == 0 {
                                (slot, slot + 1)
                            } else {
                                (slot - 1, slot)
                            };
                            match (self.st.s[lo], self.st.s.get(hi).copied()) {
                                (Sgpr::Word(a), Some(Sgpr::Word(b))) => {
                                    self.word_to_bit(a, Some(b))
                                }
                                _ => self.word_to_bit(v, None),
                            }
                        } else {
                            self.word_to_bit(v, None)
                        }
                    }
                },
                128..=383 => self.st.v[slot - 128],
                _ => self.st.scc,
            };
            out.push(v);
        }
        out
    }
}
