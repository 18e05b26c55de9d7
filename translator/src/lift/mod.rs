//! From decoded instructions to IR.
//!
//! The lifter builds a block graph from the code (branch targets and the
//! instructions after branches start blocks), then walks it in reverse
//! postorder, running each block symbolically over a register state: every
//! SGPR, VGPR and SCC holds an IR value. Joins turn disagreeing registers
//! into block parameters. The [`crate::ir::Builder`] folds constants as it
//! goes, so a conditional branch whose condition is constant for the chosen
//! system-SGPR values keeps only its live edge, and blocks no live edge
//! reaches are never lifted.
//!
//! # Lanes
//!
//! One host invocation is one guest lane. An SGPR holds either a uniform
//! word or a lane mask; a lane mask is held as this lane's bit (a Bool), in
//! both registers of a wave64 pair. EXEC is such a mask: VALU writes become
//! `select(active, new, old)`, VOPC results are `active && cmp`. Converting
//! a uniform word to a lane bit is exact only for 0 and all-ones, and
//! reading a lane mask as a word needs every lane's bit; both are recorded
//! as unsupported values (an error only if the value is used).
//!
//! `s_cbranch_execz`/`execnz` on a per-lane EXEC becomes a per-lane branch
//! ("this lane is inactive"): exact for VGPRs, exports and loads, because an
//! inactive lane's state does not change inside the skipped region. Scalar
//! registers written inside such a region and read after it are the one
//! thing this cannot know (the hardware ran the region if any lane was
//! active); `crate::passes` rejects them when they are live.

use crate::ir::{
    Bin, Block, BufferAccess, Builder, Edge, Effect, ExportTarget, FCmp, ICmp, Input, Load, Source,
    Term, Tri, Ty, Un, Unsupported, Value,
};
use crate::manifest::{Dropped, SystemSgpr};
use analysis::trace::ShaderTrace;
use isa::family::buf::BufMods;
use isa::operand::{inline_b32, inline_b64};
use isa::{
    Abi, Decoder, Family, Formatter, Instruction, Modifiers, OpMods, OpSpace, Operand, Slot, Stage,
    Target, ValType,
};
use std::collections::{HashMap, HashSet};

/// What the lifter needs to know about the shader.
#[derive(Clone, Copy, Debug)]
pub struct LiftOptions {
    /// Decoding target.
    pub target: Target,
    /// Guest stage.
    pub stage: Stage,
    /// Entry ABI.
    pub abi: Abi,
    /// 64 lanes per wave (else 32).
    pub wave64: bool,
    /// Emit `--checked` guards.
    pub checked: bool,
}

/// The lifted function and what was found on the way.
#[derive(Debug)]
pub struct Lifted {
    /// The IR.
    pub b: Builder,
    /// Constructs that cannot be translated, whatever is used later.
    pub problems: Vec<Unsupported>,
    /// Instructions deliberately left out.
    pub dropped: Vec<Dropped>,
    /// System-SGPR values assumed.
    pub system_sgprs: Vec<SystemSgpr>,
    /// Blocks ending in a per-lane (exec) branch, with the branch's pc.
    pub divergent: HashMap<Block, u32>,
    /// Block parameters that hold scalar state (SGPRs, SCC), with the
    /// register's name.
    pub scalar_params: HashMap<Value, String>,
    /// Blocks with an instruction that may turn on lanes EXEC had off,
    /// with its pc.
    pub raises_exec: HashMap<Block, u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Half {
    Lo,
    Hi,
    Full,
}

/// One SGPR: a uniform word, or (this lane's bit of) a lane mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum S {
    W(Value),
    M(Value, Half),
}

#[derive(Clone, Debug)]
struct State {
    s: Vec<S>,
    v: Vec<Value>,
    scc: Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot2 {
    Jump,
    Then,
    Else,
}

struct StaticBlock {
    start: usize,
    end: usize,
    succ: Vec<usize>,
}

struct Lifter<'a> {
    b: Builder,
    o: LiftOptions,
    fmt: Formatter,
    trace: Option<&'a ShaderTrace>,
    st: State,
    pc: u32,
    text: String,
    text_valid: bool,
    cur: Option<Instruction>,
    problems: Vec<Unsupported>,
    dropped: Vec<Dropped>,
    divergent: HashMap<Block, u32>,
    scalar_params: HashMap<Value, String>,
    raises_exec: HashMap<Block, u32>,
    /// The unsupported values entry VGPRs the ABI does not define start as.
    undefined: HashSet<Value>,
}

/// Values of the NGG system SGPRs: a full wave of vertices and primitives,
/// wave 0 of its threadgroup.
fn ngg_system_sgprs(abi: &Abi, wave64: bool) -> Vec<SystemSgpr> {
    let lanes: u32 = if wave64 { 64 } else { 32 };
    let mut out = Vec::new();
    if let Some(r) = abi.gs_tg_info_sgpr {
        out.push(SystemSgpr {
            sgpr: format!("s{r}"),
            name: "gs_tg_info".into(),
            value: (lanes << 12) | (lanes << 22),
            meaning: format!(
                "{lanes} vertices (bits 12..20) and {lanes} primitives (bits 22..30) in the threadgroup"
            ),
        });
    }
    if let Some(r) = abi.merged_wave_info_sgpr {
        out.push(SystemSgpr {
            sgpr: format!("s{r}"),
            name: "merged_wave_info".into(),
            value: lanes | (lanes << 8),
            meaning: format!(
                "a full wave: {lanes} vertex lanes (bits 0..6), {lanes} primitive lanes (bits 8..14), wave 0 (bits 24..27); every host invocation is a vertex lane"
            ),
        });
    }
    out
}

/// Lift `code`.
pub fn lift(code: &[u8], trace: Option<&ShaderTrace>, o: LiftOptions) -> Lifted {
    let mut b = Builder::new();
    let fmt = Formatter::new(o.target);
    let zero = b.u32(0);
    let fls = b.bool(false);
    let tru = b.bool(true);
    let mut st = State {
        s: vec![S::W(zero); 128],
        v: vec![zero; 256],
        scc: fls,
    };
    for k in 0..o.abi.user_data_count {
        let r = o.abi.user_data_sgpr as usize + k as usize;
        if r < 106 {
            let src = b.func.source(Source::UserData(k));
            st.s[r] = S::W(b.input(Input::Param(src)));
        }
    }
    let system_sgprs = if o.stage == Stage::Ngg {
        ngg_system_sgprs(&o.abi, o.wave64)
    } else {
        Vec::new()
    };
    for s in &system_sgprs {
        if let Ok(r) = s.sgpr[1..].parse::<usize>() {
            st.s[r] = S::W(b.u32(s.value));
        }
    }
    if o.wave64 {
        st.s[126] = S::M(tru, Half::Lo);
        st.s[127] = S::M(tru, Half::Hi);
    } else {
        st.s[126] = S::M(tru, Half::Full);
    }
    if let Some(v) = o.abi.vertex_id_vgpr {
        st.v[v as usize] = b.input(Input::VertexId);
    }
    if let Some(v) = o.abi.instance_id_vgpr {
        st.v[v as usize] = b.input(Input::InstanceId);
    }
    let mut l = Lifter {
        b,
        o,
        fmt,
        trace,
        st,
        pc: 0,
        text: String::new(),
        text_valid: true,
        cur: None,
        problems: Vec::new(),
        dropped: Vec::new(),
        divergent: HashMap::new(),
        scalar_params: HashMap::new(),
        raises_exec: HashMap::new(),
        undefined: HashSet::new(),
    };
    l.run(code);
    Lifted {
        b: l.b,
        problems: l.problems,
        dropped: l.dropped,
        system_sgprs,
        divergent: l.divergent,
        scalar_params: l.scalar_params,
        raises_exec: l.raises_exec,
    }
}

/// A loop head's parameters: register slot and mask half (`None`: a word).
type ParamKinds = Vec<(usize, Option<Half>)>;

type Decoded = Vec<(u32, Result<Instruction, isa::DecodeError>)>;

fn branch_target(pc: u32, inst: &Instruction) -> Option<i64> {
    match inst.operands.first().map(|s| s.op) {
        Some(Operand::Imm(off)) => Some(pc as i64 + 4 + 4 * off as i64),
        _ => None,
    }
}

fn is_cbranch(name: &str) -> bool {
    matches!(
        name,
        "s_cbranch_scc0"
            | "s_cbranch_scc1"
            | "s_cbranch_vccz"
            | "s_cbranch_vccnz"
            | "s_cbranch_execz"
            | "s_cbranch_execnz"
    )
}

/// Mark the register slots an instruction may write (0..128 scalar codes,
/// 128..384 VGPRs, 384 SCC), from isa's operand roles and implicit flags.
fn mark_writes(inst: &Instruction, wave64: bool, w: &mut [bool]) {
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

fn reg_name(code: usize) -> String {
    match code {
        0..=105 => format!("s{code}"),
        106 => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        108..=123 => format!("ttmp{}", code - 108),
        124 => "m0".into(),
        126 => "exec_lo".into(),
        127 => "exec_hi".into(),
        _ => format!("reg{code}"),
    }
}

impl Lifter<'_> {
    /// The current instruction's text (formatted only when a message needs
    /// it).
    fn txt(&mut self) -> String {
        if !self.text_valid {
            self.text.clear();
            if let Some(i) = self.cur {
                let _ = self.fmt.write(&i, &mut self.text);
            }
            self.text_valid = true;
        }
        self.text.clone()
    }

    fn problem(&mut self, reason: impl Into<String>) {
        let u = Unsupported {
            pc: self.pc,
            inst: self.txt(),
            reason: reason.into(),
        };
        self.problems.push(u.clone());
        // Keep what the instruction reads alive, so the unsupported values
        // it depends on are listed too.
        let mut args = Vec::new();
        if let Some(inst) = self.cur {
            for s in inst.operands.iter().filter(|s| s.is_use()) {
                if let Operand::Reg { code, count } = s.op {
                    for k in 0..count as u16 {
                        let c = (code + k) as usize;
                        if code >= 256 {
                            if let Some(v) = self.st.v.get(c - 256) {
                                args.push(*v);
                            }
                        } else if c < 128 {
                            args.push(match self.st.s[c] {
                                S::W(v) | S::M(v, _) => v,
                            });
                        }
                    }
                }
            }
        }
        self.b.func.unsupported.push(u.clone());
        let index = self.b.func.unsupported.len() as u32 - 1;
        self.b.func.problem_args.insert(index, args);
        self.b.effect(Effect::Problem { index });
        // The VGPRs it writes hold what it computes, which is this same
        // construct (listed once): not the value they had before, and not
        // an undefined entry value.
        if let Some(inst) = self.cur {
            for s in inst.operands.iter().filter(|s| s.is_def()) {
                if let Operand::Reg { code, count } = s.op {
                    for k in 0..count as usize {
                        let r = (code as usize + k).wrapping_sub(256);
                        if code >= 256 && r < 256 {
                            self.st.v[r] = self.b.unsupported(Ty::U32, u.clone());
                        }
                    }
                }
            }
        }
    }
    fn unsup(&mut self, ty: Ty, reason: impl Into<String>) -> Value {
        let u = Unsupported {
            pc: self.pc,
            inst: self.txt(),
            reason: reason.into(),
        };
        self.b.unsupported(ty, u)
    }
    fn u(&mut self, c: u32) -> Value {
        self.b.u32(c)
    }

    /// Every VGPR some instruction reads that the entry ABI does not define
    /// (the ids' VGPRs) starts as an unsupported value, not 0: reading it
    /// before writing it is an error once it is live. Only the registers
    /// the code reads get one, so the common case costs nothing.
    fn undefined_entry_vgprs(&mut self, insts: &Decoded) {
        // The first instruction (in code order) reading each VGPR.
        let mut read: [Option<usize>; 256] = [None; 256];
        for (i, (_, r)) in insts.iter().enumerate() {
            let Ok(inst) = r else { continue };
            for s in inst.operands.iter().filter(|s| s.is_use()) {
                if let Operand::Reg { code, count } = s.op {
                    if code >= 256 {
                        let first = (code - 256) as usize;
                        for r in read.iter_mut().skip(first).take(count as usize) {
                            r.get_or_insert(i);
                        }
                    }
                }
            }
        }
        let abi = self.o.abi;
        let defined = |r: usize| {
            abi.vertex_id_vgpr.map(usize::from) == Some(r)
                || abi.instance_id_vgpr.map(usize::from) == Some(r)
        };
        let mut ids = Vec::new();
        if let Some(v) = abi.vertex_id_vgpr {
            ids.push(format!("v{v} vertex id"));
        }
        if let Some(v) = abi.instance_id_vgpr {
            ids.push(format!("v{v} instance id"));
        }
        let ids = if ids.is_empty() {
            "no VGPR".to_string()
        } else {
            format!("only {}", ids.join(", "))
        };
        for r in (0..256).filter(|&r| !defined(r)) {
            let Some((pc, Ok(reader))) = read[r].map(|i| &insts[i]) else {
                continue;
            };
            let mut text = String::new();
            let _ = self.fmt.write(reader, &mut text);
            let u = Unsupported {
                pc: *pc,
                inst: text,
                reason: format!(
                    "v{r} is read before the shader writes it, and the {} entry ABI defines {ids}: \
                     the translation has no value for it",
                    self.o.stage
                ),
            };
            let v = self.b.unsupported(Ty::U32, u);
            self.st.v[r] = v;
            self.undefined.insert(v);
        }
    }

    fn run(&mut self, code: &[u8]) {
        let mode = isa::Mode::with_wave_size(self.o.target, if self.o.wave64 { 64 } else { 32 });
        let insts: Decoded = Decoder::new(code, mode)
            .map(|(pc, r)| (pc as u32, r))
            .collect();
        if insts.is_empty() {
            self.text = String::new();
            self.problem("the shader has no code");
            self.b.terminate(Term::Return);
            return;
        }
        self.undefined_entry_vgprs(&insts);
        let index_of: HashMap<u32, usize> = insts
            .iter()
            .enumerate()
            .map(|(i, (pc, _))| (*pc, i))
            .collect();
        // Leaders.
        let mut leader = vec![false; insts.len() + 1];
        leader[0] = true;
        for (i, (pc, r)) in insts.iter().enumerate() {
            if let Ok(inst) = r {
                let name = inst.opcode.name();
                if name == "s_branch" || is_cbranch(name) {
                    if let Some(t) = branch_target(*pc, inst) {
                        if let Some(&ti) = u32::try_from(t).ok().and_then(|t| index_of.get(&t)) {
                            leader[ti] = true;
                        }
                    }
                    leader[i + 1] = true;
                } else if name == "s_endpgm" || name == "s_code_end" {
                    leader[i + 1] = true;
                }
            }
        }
        let mut blocks: Vec<StaticBlock> = Vec::new();
        let mut block_of = vec![0usize; insts.len()];
        let mut i = 0;
        while i < insts.len() {
            let start = i;
            i += 1;
            while i < insts.len() && !leader[i] {
                i += 1;
            }
            for bo in block_of.iter_mut().take(i).skip(start) {
                *bo = blocks.len();
            }
            blocks.push(StaticBlock {
                start,
                end: i,
                succ: Vec::new(),
            });
        }
        // Successors (targets resolved; bad targets become problems later).
        for blk in blocks.iter_mut() {
            let last = blk.end - 1;
            let (pc, r) = &insts[last];
            let mut succ = Vec::new();
            let fall = (last + 1 < insts.len()).then(|| block_of[last + 1]);
            match r {
                Ok(inst) => {
                    let name = inst.opcode.name();
                    let target = || {
                        branch_target(*pc, inst)
                            .and_then(|t| u32::try_from(t).ok())
                            .and_then(|t| index_of.get(&t))
                            .map(|&ti| block_of[ti])
                    };
                    if name == "s_branch" {
                        succ.extend(target());
                    } else if is_cbranch(name) {
                        succ.extend(target());
                        succ.extend(fall);
                    } else if name != "s_endpgm" && name != "s_code_end" {
                        succ.extend(fall);
                    }
                }
                Err(_) => succ.extend(fall),
            }
            blk.succ = succ;
        }
        // Reverse postorder.
        let mut order = Vec::new();
        let mut seen = vec![false; blocks.len()];
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (bi, ref mut k)) = stack.last_mut() {
            if *k < blocks[bi].succ.len() {
                let t = blocks[bi].succ[*k];
                *k += 1;
                if !seen[t] {
                    seen[t] = true;
                    stack.push((t, 0));
                }
            } else {
                order.push(bi);
                stack.pop();
            }
        }
        order.reverse();
        let mut rank = vec![usize::MAX; blocks.len()];
        for (r, &bi) in order.iter().enumerate() {
            rank[bi] = r;
        }
        // Loops: a back edge goes to a block no later in reverse postorder.
        // The registers written anywhere in a loop's body become parameters
        // of its head.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (bi, b) in blocks.iter().enumerate() {
            for &t in &b.succ {
                preds[t].push(bi);
            }
        }
        let mut loop_writes: HashMap<usize, Vec<bool>> = HashMap::new();
        for bi in 0..blocks.len() {
            if rank[bi] == usize::MAX {
                continue;
            }
            for &t in &blocks[bi].succ {
                if rank[t] > rank[bi] {
                    continue;
                }
                let mut body = vec![false; blocks.len()];
                body[t] = true;
                let mut stack = vec![bi];
                while let Some(x) = stack.pop() {
                    if !body[x] {
                        body[x] = true;
                        stack.extend(preds[x].iter().copied());
                    }
                }
                let w = loop_writes.entry(t).or_insert_with(|| vec![false; 385]);
                for (x, inb) in body.iter().enumerate() {
                    if !inb {
                        continue;
                    }
                    for (_, r) in &insts[blocks[x].start..blocks[x].end] {
                        if let Ok(inst) = r {
                            mark_writes(inst, self.o.wave64, w);
                        }
                    }
                }
            }
        }
        let mut heads: HashMap<usize, (Block, ParamKinds)> = HashMap::new();
        let mut pending: Vec<Vec<(Block, Slot2, State)>> = vec![Vec::new(); blocks.len()];
        let mut ir_of: Vec<Option<Block>> = vec![None; blocks.len()];
        let entry_state = self.st.clone();
        self.b.func.blocks[0].pc = insts[blocks[0].start].0;
        if loop_writes.contains_key(&0) {
            // A loop at the entry: the entry block becomes its preheader.
            self.b.terminate(Term::Jump(Edge {
                block: Block(u32::MAX),
                args: Vec::new(),
            }));
            pending[0].push((Block(0), Slot2::Jump, entry_state.clone()));
        }
        for &bi in &order {
            let incoming = std::mem::take(&mut pending[bi]);
            let (start_pc, _) = insts[blocks[bi].start];
            let blk = if bi == 0 && !loop_writes.contains_key(&0) {
                self.st = entry_state.clone();
                Block(0)
            } else {
                if incoming.is_empty() {
                    continue;
                }
                let blk = self.b.new_block(start_pc);
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
            ir_of[bi] = Some(blk);
            self.b.cur = Some(blk);
            // Body.
            let sb = &blocks[bi];
            let mut term: Option<(usize, u32, Instruction)> = None;
            let ended = false;
            for (idx, (pc, r)) in insts.iter().enumerate().take(sb.end).skip(sb.start) {
                self.pc = *pc;
                match r {
                    Err(e) => {
                        self.text = format!("{e}");
                        self.text_valid = true;
                        self.cur = None;
                        self.problem("undecodable bytes");
                    }
                    Ok(inst) => {
                        self.cur = Some(*inst);
                        self.text_valid = false;
                        let name = inst.opcode.name();
                        if idx + 1 == sb.end
                            && (name == "s_branch"
                                || is_cbranch(name)
                                || name == "s_endpgm"
                                || name == "s_code_end")
                        {
                            term = Some((idx, *pc, *inst));
                        } else {
                            self.inst(inst);
                        }
                    }
                }
            }
            // Terminator.
            let fall = (sb.end < insts.len()).then(|| block_of[sb.end]);
            let mut edges: Vec<(usize, Slot2)> = Vec::new();
            let mut branch_cond: Option<(Value, bool)> = None;
            if ended {
                self.b.terminate(Term::Return);
            } else if let Some((_, pc, inst)) = term {
                self.pc = pc;
                self.cur = Some(inst);
                self.text_valid = false;
                let name = inst.opcode.name();
                let target = branch_target(pc, &inst)
                    .and_then(|t| u32::try_from(t).ok())
                    .and_then(|t| index_of.get(&t))
                    .map(|&ti| block_of[ti]);
                if name == "s_endpgm" || name == "s_code_end" {
                    self.b.terminate(Term::Return);
                } else if target.is_none() {
                    self.problem("the branch target is outside the code or inside an instruction");
                    self.b.terminate(Term::Return);
                } else if name == "s_branch" {
                    edges.push((target.unwrap_or(0), Slot2::Jump));
                } else {
                    let t = target.unwrap_or(0);
                    let (cond, divergent) = self.branch_cond(name);
                    match self.b.func.konst(cond) {
                        Some(c) => {
                            if c != 0 {
                                edges.push((t, Slot2::Jump));
                            } else {
                                match fall {
                                    Some(f) => edges.push((f, Slot2::Jump)),
                                    None => {
                                        self.problem("execution runs past the end of the code");
                                        self.b.terminate(Term::Return);
                                    }
                                }
                            }
                        }
                        None => match fall {
                            Some(f) if f == t => edges.push((t, Slot2::Jump)),
                            Some(f) => {
                                edges.push((t, Slot2::Then));
                                edges.push((f, Slot2::Else));
                                branch_cond = Some((cond, divergent));
                            }
                            None => {
                                self.problem("execution runs past the end of the code");
                                self.b.terminate(Term::Return);
                            }
                        },
                    }
                }
            } else {
                match fall {
                    Some(f) => edges.push((f, Slot2::Jump)),
                    None => {
                        self.problem("execution runs past the end of the code (no s_endpgm)");
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
                            self.problem(format!(
                                "the loop back to pc {:#x} repeats per lane (its condition depends on EXEC); each lane would stop on its own",
                                insts[blocks[target].start].0
                            ));
                        }
                        match heads.get(&target).cloned() {
                            Some((hb, kinds)) => {
                                let args = self.back_edge_args(&kinds);
                                self.set_edge(blk, slot, Edge { block: hb, args });
                            }
                            None => {
                                self.problem(format!(
                                    "a back edge to pc {:#x} enters a loop head that was never reached",
                                    insts[blocks[target].start].0
                                ));
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
        let _ = ir_of;
    }

    fn set_edge(&mut self, from: Block, slot: Slot2, e: Edge) {
        let t = &mut self.b.func.blocks[from.0 as usize].term;
        match (t, slot) {
            (Term::Jump(x), Slot2::Jump) => *x = e,
            (Term::Branch { then, .. }, Slot2::Then) => *then = e,
            (Term::Branch { els, .. }, Slot2::Else) => *els = e,
            _ => {}
        }
    }

    /// Join the incoming states at `blk`, making block parameters where
    /// they disagree, and patch the predecessors' edges.
    /// Join the incoming states at `blk`, making block parameters where
    /// they disagree or `force` says so (registers a loop writes), and patch
    /// the predecessors' edges. Returns the parameters' register slots
    /// (0..128 SGPRs, 128..384 VGPRs, 384 SCC) and kinds, in order.
    fn merge_forced(
        &mut self,
        blk: Block,
        incoming: Vec<(Block, Slot2, State)>,
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
                            (S::M(a, Half::Lo), S::M(b, Half::Hi)) if a == b)
                    });
                    let all_fit = incoming.iter().all(|x| {
                        matches!((x.2.s[r], x.2.s[r + 1]),
                            (S::M(a, Half::Lo), S::M(b, Half::Hi)) if a == b)
                            || matches!((x.2.s[r], x.2.s[r + 1]), (S::W(_), S::W(_)))
                    });
                    if any_pair && all_fit {
                        let mut vs = Vec::with_capacity(incoming.len());
                        for x in &incoming {
                            vs.push(match (x.2.s[r], x.2.s[r + 1]) {
                                (S::M(a, _), _) => a,
                                (S::W(lo), S::W(hi)) => self.word_to_bit(lo, Some(hi)),
                                (S::W(lo), _) => self.word_to_bit(lo, None),
                            });
                        }
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
                        st.s[r] = S::M(p, Half::Lo);
                        st.s[r + 1] = S::M(p, Half::Hi);
                        kinds.push((r, Some(Half::Lo)));
                        skip_next = true;
                        continue;
                    }
                }
                let any_mask = incoming.iter().any(|x| matches!(x.2.s[r], S::M(..)));
                let half = incoming.iter().find_map(|x| match x.2.s[r] {
                    S::M(_, h) => Some(h),
                    _ => None,
                });
                let ty = if any_mask { Ty::Bool } else { Ty::U32 };
                let p = self.b.block_param(blk, ty);
                self.scalar_params.insert(p, reg_name(r));
                for (i, x) in incoming.iter().enumerate() {
                    let a = match (x.2.s[r], any_mask) {
                        (S::W(v), false) => v,
                        (S::M(v, _), true) => v,
                        (S::W(v), true) => {
                            if self.o.wave64 {
                                let (lo, hi) = if r % 2 == 0 { (r, r + 1) } else { (r - 1, r) };
                                match (x.2.s[lo], x.2.s.get(hi).copied()) {
                                    (S::W(a), Some(S::W(b))) => self.word_to_bit(a, Some(b)),
                                    _ => self.word_to_bit(v, None),
                                }
                            } else {
                                self.word_to_bit(v, None)
                            }
                        }
                        (S::M(v, _), false) => v,
                    };
                    args[i].push(a);
                }
                st.s[r] = if any_mask {
                    S::M(p, half.unwrap_or(Half::Full))
                } else {
                    S::W(p)
                };
                kinds.push((r, any_mask.then(|| half.unwrap_or(Half::Full))));
            }
            for r in 0..256 {
                let first = incoming[0].2.v[r];
                if !forced(128 + r) && incoming.iter().all(|x| x.2.v[r] == first) {
                    continue;
                }
                let p = self.b.block_param(blk, Ty::U32);
                // An undefined entry value meeting a defined one: the lanes
                // on its path hold whatever the hardware left (the
                // interpreter calls them undefined and `run` does not
                // compare them), so 0 is as good a value as any. Only a read
                // that is undefined on every path stays unsupported.
                let some_defined = incoming.iter().any(|x| !self.undefined.contains(&x.2.v[r]));
                for (i, x) in incoming.iter().enumerate() {
                    let a = x.2.v[r];
                    args[i].push(if some_defined && self.undefined.contains(&a) {
                        self.b.u32(0)
                    } else {
                        a
                    });
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

    fn merge(&mut self, blk: Block, incoming: Vec<(Block, Slot2, State)>) {
        self.merge_forced(blk, incoming, None);
    }

    /// The arguments of a back edge to a loop head: the current state in
    /// the head's parameter kinds.
    fn back_edge_args(&mut self, kinds: &[(usize, Option<Half>)]) -> Vec<Value> {
        let mut out = Vec::with_capacity(kinds.len());
        for &(slot, kind) in kinds {
            let v = match slot {
                0..=127 => match (self.st.s[slot], kind) {
                    (S::W(v), None) | (S::M(v, _), Some(_)) => v,
                    (S::M(..), None) => self.s_word(slot),
                    (S::W(v), Some(_)) => {
                        if self.o.wave64 {
                            let (lo, hi) = if slot % 2 == 0 {
                                (slot, slot + 1)
                            } else {
                                (slot - 1, slot)
                            };
                            match (self.st.s[lo], self.st.s.get(hi).copied()) {
                                (S::W(a), Some(S::W(b))) => self.word_to_bit(a, Some(b)),
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

    // ---- register access -------------------------------------------------

    fn word_to_bit(&mut self, v: Value, hi: Option<Value>) -> Value {
        let full = if self.o.wave64 && hi.is_none() {
            // A single word holds half a wave64 mask.
            None
        } else {
            Some(u32::MAX)
        };
        // A word that is all ones or zero by construction
        // (`s_cselect_b64 s[0:1], -1, 0`): the lane bit is the condition.
        if let crate::ir::Op::Tri(Tri::Select, c, a, b) = self.b.func.inst(v).op {
            let same_hi = match hi {
                Some(h) => h == v || self.b.func.inst(h).op == self.b.func.inst(v).op,
                None => !self.o.wave64,
            };
            let (ka, kb) = (self.b.func.konst(a), self.b.func.konst(b));
            if same_hi {
                if let (Some(x @ (0 | u32::MAX)), Some(y @ (0 | u32::MAX))) = (ka, kb) {
                    let (x, y) = (self.b.bool(x != 0), self.b.bool(y != 0));
                    return self.b.select(c, x, y);
                }
            }
        }
        let lo = self.b.func.konst(v);
        let h = match hi {
            Some(h) => self.b.func.konst(h),
            None => Some(if self.o.wave64 { u32::MAX } else { 0 }),
        };
        match (lo, h, full) {
            (Some(0), Some(0), _) => self.b.bool(false),
            (Some(0), _, _) if !self.o.wave64 => self.b.bool(false),
            (Some(u32::MAX), Some(u32::MAX), Some(_)) => self.b.bool(true),
            (Some(u32::MAX), _, Some(_)) if !self.o.wave64 => self.b.bool(true),
            _ => self.unsup(
                Ty::Bool,
                "a lane mask made from a uniform value that is neither 0 nor all ones (each lane's bit depends on its lane number)",
            ),
        }
    }

    fn s_word(&mut self, code: usize) -> Value {
        match self.st.s[code] {
            S::W(v) => v,
            S::M(b, _) => match self.b.func.konst(b) {
                Some(c) => self.u(if c != 0 { u32::MAX } else { 0 }),
                None => self.unsup(
                    Ty::U32,
                    "a lane mask read as a value needs every lane's bit (a ballot across the wave)",
                ),
            },
        }
    }

    /// A 32-bit scalar source register (SGPR, vcc, m0, exec, specials).
    fn read_s32(&mut self, code: u16) -> Value {
        match code {
            0..=124 | 126 | 127 => self.s_word(code as usize),
            125 => self.u(0),
            253 => self.b.un(Un::BoolToU32, self.st.scc),
            251 | 252 => {
                let m = if code == 251 { 106 } else { 126 };
                let bit = self.mask_at(m);
                match self.b.func.konst(bit) {
                    Some(c) => self.u((c == 0) as u32),
                    None => self.unsup(
                        Ty::U32,
                        "src_vccz/src_execz asks whether any lane's bit is set",
                    ),
                }
            }
            _ => self.unsup(Ty::U32, format!("reads special register {code}")),
        }
    }

    /// This lane's bit of the lane mask in register `code` (and `code+1`).
    fn mask_at(&mut self, code: usize) -> Value {
        if self.o.wave64 {
            match (self.st.s[code], self.st.s.get(code + 1).copied()) {
                (S::M(a, Half::Lo), Some(S::M(b, Half::Hi))) if a == b => a,
                (S::W(a), Some(S::W(b))) => {
                    let bit = self.word_to_bit(a, Some(b));
                    // Remember the conversion: one report per write.
                    if code < 127 {
                        self.st.s[code] = S::M(bit, Half::Lo);
                        self.st.s[code + 1] = S::M(bit, Half::Hi);
                    }
                    bit
                }
                (S::M(a, _), _) if self.b.func.konst(a).is_some() => {
                    let lo = self.s_word(code);
                    let hi = self.s_word(code + 1);
                    self.word_to_bit(lo, Some(hi))
                }
                _ => self.unsup(
                    Ty::Bool,
                    "a lane mask whose halves come from different values",
                ),
            }
        } else {
            match self.st.s[code] {
                S::M(a, _) => a,
                S::W(a) => {
                    let bit = self.word_to_bit(a, None);
                    self.st.s[code] = S::M(bit, Half::Full);
                    bit
                }
            }
        }
    }

    fn active(&mut self) -> Value {
        self.mask_at(126)
    }

    fn write_mask(&mut self, code: usize, bit: Value) {
        if code >= 128 || code == 125 {
            return;
        }
        if self.o.wave64 && code < 127 {
            self.st.s[code] = S::M(bit, Half::Lo);
            self.st.s[code + 1] = S::M(bit, Half::Hi);
        } else {
            self.st.s[code] = S::M(bit, Half::Full);
        }
    }

    fn write_s(&mut self, code: u16, v: Value) {
        if (code as usize) < 128 && code != 125 {
            self.st.s[code as usize] = S::W(v);
        }
    }

    /// Is the scalar operand a lane mask (in this wave size)?
    fn is_mask_operand(&self, op: Operand) -> bool {
        match op {
            Operand::Reg { code, .. } if code < 128 => {
                matches!(self.st.s[code as usize], S::M(..))
            }
            _ => false,
        }
    }

    /// A scalar operand as this lane's mask bit.
    fn mask_operand(&mut self, op: Operand) -> Value {
        match op {
            Operand::Reg { code, .. } if code < 128 => self.mask_at(code as usize),
            Operand::Inline(c) => {
                let v = if self.o.wave64 {
                    inline_b64(c).map(|x| (x as u32, (x >> 32) as u32))
                } else {
                    inline_b32(c).map(|x| (x, 0))
                };
                match v {
                    Some((lo, hi)) => {
                        let lo = self.u(lo);
                        let hi = self.u(hi);
                        self.word_to_bit(lo, self.o.wave64.then_some(hi))
                    }
                    None => self.unsup(Ty::Bool, "a float constant used as a lane mask"),
                }
            }
            Operand::Literal(x) => {
                let lo = self.u(x);
                let hi = self.u(0);
                self.word_to_bit(lo, self.o.wave64.then_some(hi))
            }
            _ => self.unsup(Ty::Bool, "this operand cannot be a lane mask"),
        }
    }

    /// A 32-bit source operand (any file), with float modifiers applied.
    fn src(&mut self, s: &Slot) -> Value {
        self.src_sel(s, None)
    }

    /// A source with an SDWA field selection `(offset, width)`: the field,
    /// zero- or (with `sext`) sign-extended, then the float modifiers.
    fn src_sel(&mut self, s: &Slot, sel: Option<(u32, u32)>) -> Value {
        let v = match s.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            Operand::Reg { code, .. } => self.read_s32(code),
            Operand::Inline(c) => match s.ty {
                ValType::F16 | ValType::V2F16 | ValType::F64 | ValType::B64 => {
                    return self.unsup(Ty::U32, "a 16- or 64-bit constant operand")
                }
                _ => match inline_b32(c) {
                    Some(x) => self.u(x),
                    None => return self.unsup(Ty::U32, "an unknown inline constant"),
                },
            },
            Operand::Literal(x) => self.u(x),
            Operand::Imm(i) => self.u(i as u32),
            Operand::Off => self.u(0),
        };
        if s.mods
            .intersects(OpMods::NEG_HI | OpMods::OP_SEL | OpMods::OP_SEL_HI)
            || (s.mods.contains(OpMods::SEXT) && sel.is_none())
        {
            return self.unsup(Ty::U32, "16-bit operand selection (op_sel/sext)");
        }
        let v = match sel {
            Some((off, width)) if width < 32 => {
                let l = self.u(32 - off - width);
                let r = self.u(32 - width);
                let t = self.b.bin(Bin::Shl, v, l);
                let op = if s.mods.contains(OpMods::SEXT) {
                    Bin::ShrA
                } else {
                    Bin::ShrL
                };
                self.b.bin(op, t, r)
            }
            _ => v,
        };
        if s.mods.intersects(OpMods::ABS | OpMods::NEG) {
            let mut x = v;
            if s.mods.contains(OpMods::ABS) {
                let m = self.u(0x7fff_ffff);
                x = self.b.bin(Bin::And, x, m);
            }
            if s.mods.contains(OpMods::NEG) {
                let m = self.u(0x8000_0000);
                x = self.b.bin(Bin::Xor, x, m);
            }
            return x;
        }
        v
    }

    /// Two 32-bit halves of a 64-bit scalar operand.
    fn src64(&mut self, op: Operand) -> (Value, Value) {
        match op {
            Operand::Reg { code, .. } if code < 128 => {
                let lo = self.s_word(code as usize);
                let hi = if code < 127 {
                    self.s_word(code as usize + 1)
                } else {
                    self.u(0)
                };
                (lo, hi)
            }
            Operand::Reg { code, .. } => {
                let lo = self.read_s32(code);
                let hi = self.u(0);
                (lo, hi)
            }
            Operand::Inline(c) => match inline_b64(c) {
                Some(x) => (self.u(x as u32), self.u((x >> 32) as u32)),
                None => (self.u(0), self.u(0)),
            },
            Operand::Literal(x) => (self.u(x), self.u(0)),
            Operand::Imm(i) => (self.u(i as u32), self.u(((i as i64) >> 32) as u32)),
            Operand::Off => (self.u(0), self.u(0)),
        }
    }

    fn write_v(&mut self, slot: &Slot, k: u8, v: Value) {
        if let Operand::Reg { code, .. } = slot.op {
            if code >= 256 {
                let r = (code - 256) as usize + k as usize;
                if r < 256 {
                    let act = self.active();
                    let old = self.st.v[r];
                    // Lanes that keep an undefined entry value may hold
                    // anything, so they may hold the new value too.
                    self.st.v[r] = if self.undefined.contains(&old) {
                        v
                    } else {
                        self.b.select(act, v, old)
                    };
                }
            } else if k == 0 {
                self.write_s(code, v);
            }
        }
    }

    // ---- instructions ---------------------------------------------------

    fn inst(&mut self, inst: &Instruction) {
        let before = (self.st.s[126], self.st.s[127]);
        self.inst_body(inst);
        let after = (self.st.s[126], self.st.s[127]);
        if before != after && self.may_raise(before.0, after.0, after.1) {
            if let Some(b) = self.b.cur {
                self.raises_exec.entry(b).or_insert(self.pc);
            }
        }
    }

    /// Whether a new EXEC may have lanes the old one did not.
    fn may_raise(&self, old: S, new_lo: S, new_hi: S) -> bool {
        let f = &self.b.func;
        let old_bit = match old {
            S::M(b, _) => Some(b),
            S::W(_) => None,
        };
        // An all-ones EXEC cannot be raised.
        match old {
            S::M(b, _) if f.konst(b) == Some(1) => return false,
            S::W(w) if f.konst(w) == Some(u32::MAX) => return false,
            _ => {}
        }
        match new_lo {
            S::M(v, _) => {
                if f.konst(v) == Some(0) || Some(v) == old_bit {
                    return false;
                }
                match (f.inst(v).op, old_bit) {
                    (crate::ir::Op::Bin(Bin::BAnd, x, y), Some(o)) => x != o && y != o,
                    _ => true,
                }
            }
            S::W(w) => {
                let hi_zero = match new_hi {
                    S::W(h) => f.konst(h) == Some(0) || !self.o.wave64,
                    _ => false,
                };
                !(f.konst(w) == Some(0) && hi_zero)
            }
        }
    }

    fn inst_body(&mut self, inst: &Instruction) {
        let name = inst.opcode.name();
        match inst.opcode.space() {
            OpSpace::Sop1 | OpSpace::Sop2 | OpSpace::Sopk | OpSpace::Sopc => self.salu(name, inst),
            OpSpace::Sopp => self.sopp(name, inst),
            OpSpace::Smem => self.smem(name, inst),
            OpSpace::Mubuf | OpSpace::Mtbuf => self.buffer(name, inst),
            OpSpace::Vop => self.valu(name, inst),
            OpSpace::Exp => self.export(inst),
            OpSpace::Ds => self.problem("LDS access: the local data share is shared between lanes, which one host invocation per lane cannot see"),
            OpSpace::Vintrp => self.problem("parameter interpolation (fragment shaders are not translated)"),
            OpSpace::Mimg => self.problem("image instructions are not translated"),
            OpSpace::Flat | OpSpace::Global | OpSpace::Scratch => {
                self.problem("flat/global/scratch memory is not translated")
            }
            OpSpace::Vop3p => self.problem("packed 16-bit math is not translated"),
        }
    }

    fn sopp(&mut self, name: &str, inst: &Instruction) {
        match name {
            "s_nop" | "s_waitcnt" | "s_setprio" | "s_clause" | "s_sleep" | "s_inst_prefetch"
            | "s_icache_inv" | "s_waitcnt_depctr" | "s_ttracedata" | "s_ttracedata_imm"
            | "s_set_gpr_idx_off" => {}
            "s_barrier" => {}
            "s_sendmsg" => {
                let imm = match inst.mods {
                    Modifiers::Simm16(x) => x,
                    _ => 0,
                };
                if imm & 0xf == 9 {
                    let inst = self.txt();
                    self.dropped.push(Dropped {
                        pc: self.pc,
                        inst,
                        reason: "NGG GS_ALLOC_REQ: the host does primitive assembly".into(),
                    });
                } else {
                    self.problem("s_sendmsg other than GS_ALLOC_REQ");
                }
            }
            _ => self.problem("unsupported program-control instruction"),
        }
    }

    fn branch_cond(&mut self, name: &str) -> (Value, bool) {
        match name {
            "s_cbranch_scc1" => (self.st.scc, false),
            "s_cbranch_scc0" => (self.b.un(Un::BNot, self.st.scc), false),
            "s_cbranch_vccz" | "s_cbranch_vccnz" => {
                let z = match (self.st.s[106], self.st.s[107]) {
                    (S::W(lo), S::W(hi)) => {
                        let hi = if self.o.wave64 { hi } else { self.u(0) };
                        let o = self.b.bin(Bin::Or, lo, hi);
                        let zero = self.u(0);
                        self.b.icmp(ICmp::Eq, o, zero)
                    }
                    _ => {
                        let bit = self.mask_at(106);
                        match self.b.func.konst(bit) {
                            Some(c) => self.b.bool(c == 0),
                            None => self.unsup(
                                Ty::Bool,
                                "a branch on whether every lane's VCC bit is 0 needs all lanes",
                            ),
                        }
                    }
                };
                if name == "s_cbranch_vccz" {
                    (z, false)
                } else {
                    (self.b.un(Un::BNot, z), false)
                }
            }
            _ => {
                // execz / execnz: this lane's view.
                let act = self.active();
                let div = self.b.func.konst(act).is_none();
                if name == "s_cbranch_execz" {
                    (self.b.un(Un::BNot, act), div)
                } else {
                    (act, div)
                }
            }
        }
    }

    fn salu(&mut self, name: &str, inst: &Instruction) {
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops.iter().filter(|s| !s.is_def()).copied().collect();
        let dst = defs.first().map(|s| s.op);
        let wide = match dst.or(srcs.first().map(|s| s.op)) {
            Some(Operand::Reg { count, .. }) => count == 2,
            _ => false,
        } || name.ends_with("_b64")
            || name.ends_with("_u64")
            || name.ends_with("_i64");
        let dcode = match dst {
            Some(Operand::Reg { code, .. }) => code,
            _ => 125,
        };
        let s0 = srcs.first().copied();
        let s1 = srcs.get(1).copied();
        let zero = self.u(0);
        // Mask-aware bitwise operations (64-bit in wave64, 32-bit in wave32).
        let bitwise = matches!(
            name.rsplit_once('_').map(|x| x.0).unwrap_or(""),
            "s_and" | "s_or" | "s_xor" | "s_andn2" | "s_orn2" | "s_nand" | "s_nor" | "s_xnor"
        );
        let mask_width = if self.o.wave64 { wide } else { !wide };
        if let Some(base) = name.strip_suffix(if self.o.wave64 {
            "_saveexec_b64"
        } else {
            "_saveexec_b32"
        }) {
            // sdst = exec; exec = op(ssrc, exec); scc = exec != 0
            let Some(s0) = s0 else { return };
            let old = self.active();
            let a = self.mask_operand(s0.op);
            let r = self.bool_op(base.trim_start_matches("s_"), a, old);
            let exec_copy = self.st.s[126];
            let exec_copy_hi = self.st.s[127];
            if dcode < 126 {
                self.st.s[dcode as usize] = exec_copy;
                if self.o.wave64 {
                    self.st.s[dcode as usize + 1] = exec_copy_hi;
                }
            }
            self.write_mask(126, r);
            self.st.scc = self.any_lane(r);
            return;
        }
        if name.contains("_saveexec_") || name.contains("_wrexec_") {
            self.problem("exec-mask operation of the other wave size");
            return;
        }
        if bitwise && mask_width {
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return;
            };
            if self.is_mask_operand(s0.op) || self.is_mask_operand(s1.op) {
                let a = self.mask_operand(s0.op);
                let b = self.mask_operand(s1.op);
                let op = name
                    .trim_start_matches("s_")
                    .rsplit_once('_')
                    .map(|x| x.0)
                    .unwrap_or("");
                let r = self.bool_op(op, a, b);
                self.write_mask(dcode as usize, r);
                self.st.scc = self.any_lane(r);
                return;
            }
        }
        if (name == "s_mov_b64" || name == "s_cmov_b64") && self.o.wave64 {
            let Some(s0) = s0 else { return };
            if name == "s_cmov_b64" {
                let c = self.st.scc;
                if self.b.func.konst(c) == Some(0) {
                    return;
                }
                if self.b.func.konst(c).is_none() {
                    // Fall through to the word form below.
                } else {
                    self.mov64(dcode, s0.op);
                    return;
                }
            } else {
                self.mov64(dcode, s0.op);
                return;
            }
        }
        if name == "s_mov_b32" {
            if let (Some(s0), true) = (s0, dcode < 128) {
                match s0.op {
                    Operand::Reg { code, .. } if code < 128 => {
                        self.st.s[dcode as usize] = self.st.s[code as usize];
                    }
                    _ => {
                        let v = self.src(&s0);
                        self.write_s(dcode, v);
                    }
                }
            }
            return;
        }
        if name == "s_cselect_b64" && self.o.wave64 {
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return;
            };
            if self.is_mask_operand(s0.op) || self.is_mask_operand(s1.op) {
                let a = self.mask_operand(s0.op);
                let b = self.mask_operand(s1.op);
                let r = self.b.select(self.st.scc, a, b);
                self.write_mask(dcode as usize, r);
                return;
            }
        }
        if name == "s_not_b64" || (name == "s_not_b32" && !self.o.wave64) {
            if let Some(s0) = s0 {
                if self.is_mask_operand(s0.op) && mask_width {
                    let a = self.mask_operand(s0.op);
                    let r = self.b.un(Un::BNot, a);
                    self.write_mask(dcode as usize, r);
                    self.st.scc = self.any_lane(r);
                    return;
                }
            }
        }
        if wide {
            self.salu64(name, dcode, s0, s1);
            return;
        }
        // 32-bit scalar ALU on words.
        let a = match s0 {
            Some(s) => self.src(&s),
            None => zero,
        };
        let b = match s1 {
            Some(s) => self.src(&s),
            None => zero,
        };
        let sext16 = |l: &mut Self, s: &Option<Slot>| match s.map(|x| x.op) {
            Some(Operand::Imm(i)) => l.u(i as u32),
            _ => zero,
        };
        let mut scc_nz = false;
        let r: Option<Value> = match name {
            "s_movk_i32" => Some(sext16(self, &s0)),
            "s_cmovk_i32" => {
                let k = sext16(self, &s0);
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, k, old))
            }
            "s_cmov_b32" => {
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, a, old))
            }
            "s_cselect_b32" => Some(self.b.select(self.st.scc, a, b)),
            "s_add_u32" => {
                let r = self.b.add(a, b);
                self.st.scc = self.b.icmp(ICmp::ULt, r, a);
                Some(r)
            }
            "s_sub_u32" => {
                self.st.scc = self.b.icmp(ICmp::ULt, a, b);
                Some(self.b.bin(Bin::Sub, a, b))
            }
            "s_add_i32" | "s_addk_i32" => {
                let (x, y) = if name == "s_addk_i32" {
                    (self.s_word(dcode as usize), sext16(self, &s0))
                } else {
                    (a, b)
                };
                let r = self.b.add(x, y);
                // overflow: sign(x) == sign(y) && sign(r) != sign(x)
                let sx = self.b.bin(Bin::Xor, x, r);
                let sy = self.b.bin(Bin::Xor, y, r);
                let both = self.b.bin(Bin::And, sx, sy);
                let z = self.u(0);
                self.st.scc = self.b.icmp(ICmp::SLt, both, z);
                Some(r)
            }
            "s_sub_i32" => {
                let r = self.b.bin(Bin::Sub, a, b);
                let sx = self.b.bin(Bin::Xor, a, b);
                let sy = self.b.bin(Bin::Xor, a, r);
                let both = self.b.bin(Bin::And, sx, sy);
                let z = self.u(0);
                self.st.scc = self.b.icmp(ICmp::SLt, both, z);
                Some(r)
            }
            "s_addc_u32" => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.add(a, b);
                let r = self.b.add(t, c);
                let c1 = self.b.icmp(ICmp::ULt, t, a);
                let c2 = self.b.icmp(ICmp::ULt, r, t);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            "s_subb_u32" => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.bin(Bin::Sub, a, b);
                let r = self.b.bin(Bin::Sub, t, c);
                let c1 = self.b.icmp(ICmp::ULt, a, b);
                let c2 = self.b.icmp(ICmp::ULt, t, c);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            "s_min_i32" | "s_min_u32" | "s_max_i32" | "s_max_u32" => {
                let signed = name.ends_with("i32");
                let lt = if signed { ICmp::SLt } else { ICmp::ULt };
                let (op, c) = if name.starts_with("s_min") {
                    (
                        if signed { Bin::SMin } else { Bin::UMin },
                        self.b.icmp(lt, a, b),
                    )
                } else {
                    (
                        if signed { Bin::SMax } else { Bin::UMax },
                        self.b.icmp(lt, b, a),
                    )
                };
                self.st.scc = c;
                Some(self.b.bin(op, a, b))
            }
            "s_and_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::And, a, b))
            }
            "s_or_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::Or, a, b))
            }
            "s_xor_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::Xor, a, b))
            }
            "s_andn2_b32" => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::And, a, nb))
            }
            "s_orn2_b32" => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::Or, a, nb))
            }
            "s_nand_b32" | "s_nor_b32" | "s_xnor_b32" => {
                scc_nz = true;
                let op = match name {
                    "s_nand_b32" => Bin::And,
                    "s_nor_b32" => Bin::Or,
                    _ => Bin::Xor,
                };
                let r = self.b.bin(op, a, b);
                Some(self.b.un(Un::Not, r))
            }
            "s_not_b32" => {
                scc_nz = true;
                Some(self.b.un(Un::Not, a))
            }
            "s_lshl_b32" | "s_lshr_b32" | "s_ashr_i32" => {
                scc_nz = true;
                let op = match name {
                    "s_lshl_b32" => Bin::Shl,
                    "s_lshr_b32" => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                Some(self.b.bin(op, a, b))
            }
            "s_lshl1_add_u32" | "s_lshl2_add_u32" | "s_lshl3_add_u32" | "s_lshl4_add_u32" => {
                let n = (name.as_bytes()[6] - b'0') as u32;
                let sh = self.u(n);
                let t = self.b.bin(Bin::Shl, a, sh);
                let r = self.b.add(t, b);
                // carry: bits shifted out or the add's carry
                let back = self.b.bin(Bin::ShrL, t, sh);
                let lost = self.b.icmp(ICmp::Ne, back, a);
                let c = self.b.icmp(ICmp::ULt, r, t);
                self.st.scc = self.b.bin(Bin::BOr, lost, c);
                Some(r)
            }
            "s_mul_i32" | "s_mulk_i32" => {
                if name == "s_mulk_i32" {
                    let x = self.s_word(dcode as usize);
                    let k = sext16(self, &s0);
                    Some(self.b.bin(Bin::Mul, x, k))
                } else {
                    Some(self.b.bin(Bin::Mul, a, b))
                }
            }
            "s_mul_hi_u32" => Some(self.b.bin(Bin::MulHiU, a, b)),
            "s_mul_hi_i32" => Some(self.b.bin(Bin::MulHiI, a, b)),
            "s_bfm_b32" => Some(self.bfm(a, b)),
            "s_bfe_u32" | "s_bfe_i32" => {
                scc_nz = true;
                let m31 = self.u(31);
                let off = self.b.bin(Bin::And, b, m31);
                let s16 = self.u(16);
                let w0 = self.b.bin(Bin::ShrL, b, s16);
                let m7f = self.u(0x7f);
                let w = self.b.bin(Bin::And, w0, m7f);
                Some(self.bfe(a, off, w, name == "s_bfe_i32"))
            }
            "s_brev_b32" => Some(self.b.un(Un::BitReverse, a)),
            "s_bcnt1_i32_b32" | "s_bcnt0_i32_b32" => {
                scc_nz = true;
                let x = if name == "s_bcnt0_i32_b32" {
                    self.b.un(Un::Not, a)
                } else {
                    a
                };
                Some(self.b.un(Un::CountOnes, x))
            }
            "s_sext_i32_i8" | "s_sext_i32_i16" => {
                let n = self.u(if name.ends_with("i8") { 24 } else { 16 });
                let t = self.b.bin(Bin::Shl, a, n);
                Some(self.b.bin(Bin::ShrA, t, n))
            }
            "s_abs_i32" => {
                scc_nz = true;
                let z = self.u(0);
                let neg = self.b.bin(Bin::Sub, z, a);
                let lt = self.b.icmp(ICmp::SLt, a, z);
                Some(self.b.select(lt, neg, a))
            }
            "s_absdiff_i32" => {
                scc_nz = true;
                let d = self.b.bin(Bin::Sub, a, b);
                let nd = self.b.bin(Bin::Sub, b, a);
                let lt = self.b.icmp(ICmp::SLt, a, b);
                Some(self.b.select(lt, nd, d))
            }
            "s_pack_ll_b32_b16" | "s_pack_lh_b32_b16" | "s_pack_hh_b32_b16" => {
                let m = self.u(0xffff);
                let s16 = self.u(16);
                let lo = if name == "s_pack_hh_b32_b16" {
                    self.b.bin(Bin::ShrL, a, s16)
                } else {
                    self.b.bin(Bin::And, a, m)
                };
                let hi = if name == "s_pack_ll_b32_b16" {
                    self.b.bin(Bin::Shl, b, s16)
                } else {
                    let mh = self.u(0xffff_0000);
                    self.b.bin(Bin::And, b, mh)
                };
                Some(self.b.bin(Bin::Or, lo, hi))
            }
            "s_bitset0_b32" | "s_bitset1_b32" => {
                let old = self.s_word(dcode as usize);
                let one = self.u(1);
                let bit = self.b.bin(Bin::Shl, one, a);
                Some(if name == "s_bitset1_b32" {
                    self.b.bin(Bin::Or, old, bit)
                } else {
                    let nb = self.b.un(Un::Not, bit);
                    self.b.bin(Bin::And, old, nb)
                })
            }
            _ if name.starts_with("s_cmp_") || name.starts_with("s_cmpk_") => {
                let b = if name.starts_with("s_cmpk_") {
                    match s1.map(|x| x.op) {
                        Some(Operand::Imm(i)) => self.u(i as u32),
                        _ => b,
                    }
                } else {
                    b
                };
                let rest = name
                    .trim_start_matches("s_cmpk_")
                    .trim_start_matches("s_cmp_");
                let (cond, ty) = rest.split_once('_').unwrap_or(("", ""));
                let signed = ty == "i32";
                if ty == "u64" {
                    self.problem("64-bit scalar compare");
                    return;
                }
                let (lt, le) = if signed {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                self.st.scc = match cond {
                    "eq" => self.b.icmp(ICmp::Eq, a, b),
                    "lg" => self.b.icmp(ICmp::Ne, a, b),
                    "lt" => self.b.icmp(lt, a, b),
                    "le" => self.b.icmp(le, a, b),
                    "gt" => self.b.icmp(lt, b, a),
                    "ge" => self.b.icmp(le, b, a),
                    _ => {
                        self.problem("unknown scalar compare");
                        return;
                    }
                };
                None
            }
            "s_bitcmp0_b32" | "s_bitcmp1_b32" => {
                let t = self.b.bin(Bin::ShrL, a, b);
                let one = self.u(1);
                let bit = self.b.bin(Bin::And, t, one);
                let z = self.u(0);
                self.st.scc = if name == "s_bitcmp1_b32" {
                    self.b.icmp(ICmp::Ne, bit, z)
                } else {
                    self.b.icmp(ICmp::Eq, bit, z)
                };
                None
            }
            "s_version" | "s_nop" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt" | "s_waitcnt_expcnt"
            | "s_waitcnt_lgkmcnt" => None,
            _ => {
                self.problem("unsupported scalar ALU instruction");
                return;
            }
        };
        if let Some(r) = r {
            if scc_nz {
                let z = self.u(0);
                self.st.scc = self.b.icmp(ICmp::Ne, r, z);
            }
            if dcode == 124 || dcode < 128 {
                self.write_s(dcode, r);
            }
        }
    }

    fn mov64(&mut self, dcode: u16, src: Operand) {
        if dcode >= 127 {
            return;
        }
        match src {
            Operand::Reg { code, .. } if code < 127 => {
                self.st.s[dcode as usize] = self.st.s[code as usize];
                self.st.s[dcode as usize + 1] = self.st.s[code as usize + 1];
            }
            op => {
                let (lo, hi) = self.src64(op);
                self.write_s(dcode, lo);
                self.write_s(dcode + 1, hi);
            }
        }
    }

    fn bool_op(&mut self, op: &str, a: Value, b: Value) -> Value {
        match op {
            "and" => self.b.bin(Bin::BAnd, a, b),
            "or" => self.b.bin(Bin::BOr, a, b),
            "xor" => self.b.bin(Bin::BXor, a, b),
            "andn2" => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BAnd, a, nb)
            }
            "orn2" => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BOr, a, nb)
            }
            "andn1" => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BAnd, na, b)
            }
            "orn1" => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BOr, na, b)
            }
            "nand" | "nor" | "xnor" => {
                let r = match op {
                    "nand" => self.b.bin(Bin::BAnd, a, b),
                    "nor" => self.b.bin(Bin::BOr, a, b),
                    _ => self.b.bin(Bin::BXor, a, b),
                };
                self.b.un(Un::BNot, r)
            }
            _ => self.unsup(Ty::Bool, format!("unknown lane-mask operation {op}")),
        }
    }

    /// SCC of a lane-mask result: whether any lane's bit is set.
    fn any_lane(&mut self, r: Value) -> Value {
        match self.b.func.konst(r) {
            Some(c) => self.b.bool(c != 0),
            None => self.unsup(
                Ty::Bool,
                "SCC of a lane-mask operation asks whether any lane's bit is set",
            ),
        }
    }

    fn bfm(&mut self, width: Value, off: Value) -> Value {
        let m31 = self.u(31);
        let w = self.b.bin(Bin::And, width, m31);
        let o = self.b.bin(Bin::And, off, m31);
        let one = self.u(1);
        let t = self.b.bin(Bin::Shl, one, w);
        let mask = self.b.bin(Bin::Sub, t, one);
        self.b.bin(Bin::Shl, mask, o)
    }

    /// Extract `w` bits (0..=127; ≥ 32 means all) from `x >> off`.
    fn bfe(&mut self, x: Value, off: Value, w: Value, signed: bool) -> Value {
        let t = self.b.bin(Bin::ShrL, x, off);
        let z = self.u(0);
        let n32 = self.u(32);
        let wide = self.b.icmp(ICmp::ULe, n32, w);
        let is0 = self.b.icmp(ICmp::Eq, w, z);
        if signed {
            let sh = self.b.bin(Bin::Sub, n32, w);
            let l = self.b.bin(Bin::Shl, t, sh);
            let r = self.b.bin(Bin::ShrA, l, sh);
            let xs = self.b.bin(Bin::ShrA, x, off);
            let r = self.b.select(wide, xs, r);
            self.b.select(is0, z, r)
        } else {
            let one = self.u(1);
            let sh = self.b.bin(Bin::Shl, one, w);
            let m = self.b.bin(Bin::Sub, sh, one);
            let r = self.b.bin(Bin::And, t, m);
            let r = self.b.select(wide, t, r);
            self.b.select(is0, z, r)
        }
    }

    fn salu64(&mut self, name: &str, dcode: u16, s0: Option<Slot>, s1: Option<Slot>) {
        let (al, ah) = match s0 {
            Some(s) => self.src64(s.op),
            None => (self.u(0), self.u(0)),
        };
        let (bl, bh) = match s1 {
            Some(s) => self.src64(s.op),
            None => (self.u(0), self.u(0)),
        };
        let z = self.u(0);
        let pair = |l: &mut Self, op: Bin, inv_b: bool, inv_r: bool| {
            let (x, y) = if inv_b {
                (l.b.un(Un::Not, bl), l.b.un(Un::Not, bh))
            } else {
                (bl, bh)
            };
            let mut lo = l.b.bin(op, al, x);
            let mut hi = l.b.bin(op, ah, y);
            if inv_r {
                lo = l.b.un(Un::Not, lo);
                hi = l.b.un(Un::Not, hi);
            }
            (lo, hi)
        };
        let (lo, hi, scc_nz) = match name {
            "s_mov_b64" => (al, ah, false),
            "s_cmov_b64" => {
                let ol = self.s_word(dcode as usize);
                let oh = self.s_word(dcode as usize + 1);
                let c = self.st.scc;
                (self.b.select(c, al, ol), self.b.select(c, ah, oh), false)
            }
            "s_cselect_b64" => {
                let c = self.st.scc;
                (self.b.select(c, al, bl), self.b.select(c, ah, bh), false)
            }
            "s_and_b64" | "s_or_b64" | "s_xor_b64" | "s_andn2_b64" | "s_orn2_b64"
            | "s_nand_b64" | "s_nor_b64" | "s_xnor_b64" => {
                // (operation, invert the second operand, invert the result)
                let (op, not_b, not_r) = match name {
                    "s_and_b64" => (Bin::And, false, false),
                    "s_or_b64" => (Bin::Or, false, false),
                    "s_xor_b64" => (Bin::Xor, false, false),
                    "s_andn2_b64" => (Bin::And, true, false),
                    "s_orn2_b64" => (Bin::Or, true, false),
                    "s_nand_b64" => (Bin::And, false, true),
                    "s_nor_b64" => (Bin::Or, false, true),
                    _ => (Bin::Xor, false, true),
                };
                let (l, h) = pair(self, op, not_b, not_r);
                (l, h, true)
            }
            "s_not_b64" => (self.b.un(Un::Not, al), self.b.un(Un::Not, ah), true),
            "s_bfm_b64" => {
                // width = s0[5:0], offset = s1[5:0]
                let m63 = self.u(63);
                let w = self.b.bin(Bin::And, al, m63);
                let o = self.b.bin(Bin::And, bl, m63);
                match (self.b.func.konst(w), self.b.func.konst(o)) {
                    (Some(w), Some(o)) => {
                        let m = (((1u128 << w) - 1) << o) as u64;
                        (self.u(m as u32), self.u((m >> 32) as u32), false)
                    }
                    _ => {
                        self.problem("s_bfm_b64 with a non-constant width or offset");
                        return;
                    }
                }
            }
            "s_bcnt1_i32_b64" | "s_bcnt0_i32_b64" => {
                let (x, y) = if name == "s_bcnt0_i32_b64" {
                    (self.b.un(Un::Not, al), self.b.un(Un::Not, ah))
                } else {
                    (al, ah)
                };
                let c0 = self.b.un(Un::CountOnes, x);
                let c1 = self.b.un(Un::CountOnes, y);
                let r = self.b.add(c0, c1);
                self.st.scc = self.b.icmp(ICmp::Ne, r, z);
                self.write_s(dcode, r);
                return;
            }
            "s_cmp_eq_u64" | "s_cmp_lg_u64" => {
                let e0 = self.b.icmp(ICmp::Eq, al, bl);
                let e1 = self.b.icmp(ICmp::Eq, ah, bh);
                let e = self.b.bin(Bin::BAnd, e0, e1);
                self.st.scc = if name == "s_cmp_eq_u64" {
                    e
                } else {
                    self.b.un(Un::BNot, e)
                };
                return;
            }
            "s_bitcmp0_b64" | "s_bitcmp1_b64" => {
                let m63 = self.u(63);
                let n = self.b.bin(Bin::And, bl, m63);
                match self.b.func.konst(n) {
                    Some(n) => {
                        let w = if n >= 32 { ah } else { al };
                        let sh = self.u(n & 31);
                        let t = self.b.bin(Bin::ShrL, w, sh);
                        let one = self.u(1);
                        let bit = self.b.bin(Bin::And, t, one);
                        self.st.scc = if name == "s_bitcmp1_b64" {
                            self.b.icmp(ICmp::Ne, bit, z)
                        } else {
                            self.b.icmp(ICmp::Eq, bit, z)
                        };
                    }
                    None => self.problem("64-bit bit test with a non-constant bit"),
                }
                return;
            }
            "s_lshl_b64" | "s_lshr_b64" | "s_ashr_i64" => {
                let m63 = self.u(63);
                let n = self.b.bin(Bin::And, bl, m63);
                let Some(n) = self.b.func.konst(n) else {
                    self.problem("64-bit shift by a non-constant amount");
                    return;
                };
                let x = (al, ah);
                let (l, h) = match (self.b.func.konst(x.0), self.b.func.konst(x.1)) {
                    (Some(a), Some(b)) => {
                        let v = (a as u64) | ((b as u64) << 32);
                        let r = match name {
                            "s_lshl_b64" => v << n,
                            "s_lshr_b64" => v >> n,
                            _ => ((v as i64) >> n) as u64,
                        };
                        (self.u(r as u32), self.u((r >> 32) as u32))
                    }
                    _ => {
                        self.problem("64-bit shift of a non-constant value");
                        return;
                    }
                };
                let o = self.b.bin(Bin::Or, l, h);
                self.st.scc = self.b.icmp(ICmp::Ne, o, z);
                self.write_s(dcode, l);
                self.write_s(dcode + 1, h);
                return;
            }
            _ => {
                self.problem("unsupported 64-bit scalar instruction");
                return;
            }
        };
        if scc_nz {
            let o = self.b.bin(Bin::Or, lo, hi);
            self.st.scc = self.b.icmp(ICmp::Ne, o, z);
        }
        if dcode < 127 {
            self.write_s(dcode, lo);
            self.write_s(dcode + 1, hi);
        }
    }

    fn smem(&mut self, name: &str, inst: &Instruction) {
        if matches!(
            name,
            "s_dcache_inv" | "s_gl1_inv" | "s_dcache_wb" | "s_dcache_inv_vol"
        ) {
            return;
        }
        let buffer = name.starts_with("s_buffer_load_dword");
        if !(name.starts_with("s_load_dword") || buffer) {
            self.problem("unsupported scalar memory instruction");
            return;
        }
        let Some(addr) = isa::family::smem::SmemAddress::of(inst) else {
            self.problem("scalar load without an address");
            return;
        };
        let Some(&dst) = inst.operands.first() else {
            return;
        };
        let (dcode, count) = match dst.op {
            Operand::Reg { code, count } => (code, count),
            _ => return,
        };
        let soff = match addr.soffset {
            Some(Operand::Reg { code, .. }) => self.read_s32(code),
            Some(Operand::Literal(x)) => self.u(x),
            _ => self.u(0),
        };
        let base_code = match addr.base {
            Operand::Reg { code, .. } => code as usize,
            _ => return,
        };
        let mut words = Vec::with_capacity(count as usize);
        let binding = self.trace.and_then(|t| {
            t.accesses
                .iter()
                .find(|a| a.pc == self.pc)
                .and_then(|a| a.descriptor)
                .map(|d| d.0)
        });
        if buffer {
            let mut desc = [Value(0); 4];
            for (k, d) in desc.iter_mut().enumerate() {
                *d = self.s_word((base_code + k).min(127));
            }
            for k in 0..count {
                let imm = self.u((addr.offset as u32).wrapping_add(4 * k as u32));
                let off = self.b.add(imm, soff);
                words.push(self.b.load(Load::ScalarBuf {
                    pc: self.pc,
                    desc,
                    offset: off,
                    binding,
                }));
            }
        } else {
            let lo = self.s_word(base_code);
            let hi = self.s_word((base_code + 1).min(127));
            for k in 0..count {
                let imm = self.u((addr.offset as u32).wrapping_add(4 * k as u32));
                let off = self.b.add(imm, soff);
                words.push(self.b.load(Load::Scalar {
                    pc: self.pc,
                    lo,
                    hi,
                    offset: off,
                }));
            }
        }
        for (k, w) in words.into_iter().enumerate() {
            self.write_s(dcode + k as u16, w);
        }
    }

    fn buffer(&mut self, name: &str, inst: &Instruction) {
        if name == "buffer_gl0_inv" || name == "buffer_gl1_inv" {
            return;
        }
        let Modifiers::Buf(m) = inst.mods else {
            return;
        };
        let m: BufMods = m;
        if m.lds {
            self.problem("buffer load into LDS");
            return;
        }
        if m.tfe {
            self.problem("buffer access with tfe");
            return;
        }
        let ops = inst.operands.as_slice();
        if ops.len() < 4 {
            self.problem("buffer access without data");
            return;
        }
        let (vdata, vaddr, srsrc, soffset) = (ops[0], ops[1], ops[2], ops[3]);
        // What is loaded: dwords straight, or a sub-dword extension.
        enum Kind {
            Dwords(u8),
            Sub {
                bytes: u8,
                signed: bool,
            },
            Format {
                comps: u8,
                fmt_comps: u8,
                float: bool,
            },
        }
        let kind = match name {
            "buffer_load_dword" => Kind::Dwords(1),
            "buffer_load_dwordx2" => Kind::Dwords(2),
            "buffer_load_dwordx3" => Kind::Dwords(3),
            "buffer_load_dwordx4" => Kind::Dwords(4),
            "buffer_load_ubyte" => Kind::Sub {
                bytes: 1,
                signed: false,
            },
            "buffer_load_sbyte" => Kind::Sub {
                bytes: 1,
                signed: true,
            },
            "buffer_load_ushort" => Kind::Sub {
                bytes: 2,
                signed: false,
            },
            "buffer_load_sshort" => Kind::Sub {
                bytes: 2,
                signed: true,
            },
            _ if name.starts_with("tbuffer_load_format_") && !name.contains("d16") => {
                let comps = name.trim_start_matches("tbuffer_load_format_").len() as u8;
                let fname = isa::family::buf::format_name(m.format).unwrap_or("");
                let parts: Vec<&str> = fname.trim_start_matches("BUF_FMT_").split('_').collect();
                let n32 = parts.iter().filter(|p| **p == "32").count() as u8;
                let tyname = parts.last().copied().unwrap_or("");
                if n32 == 0 || n32 as usize + 1 != parts.len() {
                    self.problem(format!(
                        "typed buffer load with format {fname} (only 32-bit-per-component formats are translated)"
                    ));
                    return;
                }
                Kind::Format {
                    comps,
                    fmt_comps: n32,
                    float: tyname == "FLOAT",
                }
            }
            _ if name.starts_with("buffer_load_format") || name.starts_with("tbuffer_load") => {
                self.problem("format load whose conversion the descriptor decides at run time");
                return;
            }
            _ if name.starts_with("buffer_store") || name.starts_with("tbuffer_store") => {
                self.problem("buffer stores are not translated (vertex shaders only)");
                return;
            }
            _ if name.starts_with("buffer_atomic") => {
                self.problem("buffer atomics are not translated");
                return;
            }
            _ => {
                self.problem("unsupported buffer instruction");
                return;
            }
        };
        let rcode = match srsrc.op {
            Operand::Reg { code, .. } => code as usize,
            _ => return,
        };
        let mut desc = [Value(0); 4];
        for (k, d) in desc.iter_mut().enumerate() {
            *d = self.s_word((rcode + k).min(127));
        }
        let (index, voffset) = match vaddr.op {
            Operand::Reg { code, .. } if code >= 256 => {
                let a = (code - 256) as usize;
                let v0 = self.st.v[a];
                let v1 = self.st.v[(a + 1).min(255)];
                match (m.idxen, m.offen) {
                    (true, true) => (Some(v0), Some(v1)),
                    (true, false) => (Some(v0), None),
                    (false, true) => (None, Some(v0)),
                    _ => (None, None),
                }
            }
            _ => (None, None),
        };
        let soff = self.src(&soffset);
        let binding = self.trace.and_then(|t| {
            t.accesses
                .iter()
                .find(|a| a.pc == self.pc)
                .and_then(|a| a.descriptor)
                .map(|d| d.0)
        });
        let act = self.active();
        if self.o.checked {
            // Without a trace the binding is assigned later (by the
            // descriptor's resolved sources); u16::MAX until then.
            if let Some(ix) = index {
                self.b.effect(Effect::Check {
                    pc: self.pc,
                    binding: binding.unwrap_or(u16::MAX),
                    index: ix,
                    cond: act,
                });
            }
        }
        let pc = self.pc;
        let access = |l: &mut Self, dword: u8| {
            l.b.load(Load::Buffer(BufferAccess {
                pc,
                desc,
                index,
                voffset,
                soffset: soff,
                imm: m.offset as u32,
                dword,
                binding,
            }))
        };
        match kind {
            Kind::Dwords(n) => {
                for k in 0..n {
                    let w = access(self, k);
                    self.write_v(&vdata, k, w);
                }
            }
            Kind::Sub { bytes, signed } => {
                let w = access(self, 0);
                let sh = self.u(32 - 8 * bytes as u32);
                let t = self.b.bin(Bin::Shl, w, sh);
                let r = self
                    .b
                    .bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, sh);
                self.write_v(&vdata, 0, r);
            }
            Kind::Format {
                comps,
                fmt_comps,
                float,
            } => {
                for k in 0..comps {
                    let w = if k < fmt_comps {
                        access(self, k)
                    } else if k == 3 {
                        self.u(if float { 1.0f32.to_bits() } else { 1 })
                    } else {
                        self.u(0)
                    };
                    self.write_v(&vdata, k, w);
                }
            }
        }
    }

    fn export(&mut self, inst: &Instruction) {
        let Modifiers::Exp(m) = inst.mods else {
            return;
        };
        let target = match m.target {
            12..=15 => ExportTarget::Pos(m.target - 12),
            32..=63 => ExportTarget::Param(m.target - 32),
            20 => {
                let inst = self.txt();
                self.dropped.push(Dropped {
                    pc: self.pc,
                    inst,
                    reason: "NGG primitive export: the host does primitive assembly".into(),
                });
                return;
            }
            9 => return,
            0..=8 => {
                self.problem("colour/depth export (fragment shaders are not translated)");
                return;
            }
            _ => {
                self.problem("export to an unsupported target");
                return;
            }
        };
        if m.compr {
            self.problem("compressed (16-bit) export");
            return;
        }
        let mut values = [None; 4];
        for (k, v) in values.iter_mut().enumerate() {
            if m.en & (1 << k) == 0 {
                continue;
            }
            if let Some(s) = inst.operands.get(k) {
                if let Operand::Reg { code, .. } = s.op {
                    if code >= 256 {
                        *v = Some(self.st.v[(code - 256) as usize]);
                    }
                }
            }
        }
        let cond = self.active();
        self.b.effect(Effect::Export {
            pc: self.pc,
            target,
            values,
            cond,
        });
    }

    // ---- vector ALU -------------------------------------------------------

    fn valu(&mut self, name: &str, inst: &Instruction) {
        match inst.family {
            Family::Dpp16 | Family::Dpp8 => {
                self.problem("DPP reads other lanes' registers");
                return;
            }
            _ => {}
        }
        let field = |sel: isa::family::vop_ext::SdwaSel| -> (u32, u32) {
            use isa::family::vop_ext::SdwaSel::*;
            match sel {
                Byte0 => (0, 8),
                Byte1 => (8, 8),
                Byte2 => (16, 8),
                Byte3 => (24, 8),
                Word0 => (0, 16),
                Word1 => (16, 16),
                Dword => (0, 32),
            }
        };
        let mut sdwa: Option<[(u32, u32); 3]> = None;
        if inst.family == Family::Sdwa {
            let Modifiers::Sdwa(m) = inst.mods else {
                self.problem("SDWA without its fields");
                return;
            };
            if m.clamp || m.omod != 0 {
                self.problem("SDWA clamp or output modifier");
                return;
            }
            let dst = field(m.dst_sel);
            if dst.1 < 32 && m.dst_unused != isa::family::vop_ext::DstUnused::Pad {
                self.problem("SDWA destination that keeps or sign-fills the other bits");
                return;
            }
            sdwa = Some([field(m.src0_sel), field(m.src1_sel), dst]);
        }
        let mut clamp = false;
        if let Modifiers::Vop3(m) = inst.mods {
            if m.omod != 0 || m.opsel_dst {
                self.problem("VOP3 output modifier or op_sel");
                return;
            }
            clamp = m.clamp;
        }
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops
            .iter()
            .filter(|s| s.is_use() && !s.is_def())
            .copied()
            .collect();
        // What isa says the instruction touches beyond its operands.
        let imp = inst.implicit();
        if imp.contains(isa::Implicit::RELATIVE) {
            self.problem("reads or writes a register chosen at run time (M0-relative)");
            return;
        }
        if imp.contains(isa::Implicit::LDS) {
            self.problem("reads LDS (src_lds_direct), which is shared between lanes");
            return;
        }
        if imp.contains(isa::Implicit::CROSS_LANE)
            && !matches!(name, "v_readlane_b32" | "v_readfirstlane_b32")
        {
            self.problem("reads or writes other lanes' registers");
            return;
        }
        if defs.iter().any(|d| d.access.contains(isa::Access::PARTIAL)) {
            self.problem("partial register write");
            return;
        }
        // Lane-mask sources (v_cndmask's selector, carry-in).
        let mut vals = Vec::new();
        let mut masks = Vec::new();
        for s in &srcs {
            if s.ty == ValType::Mask {
                masks.push(self.mask_operand(s.op));
            } else {
                let sel = sdwa.and_then(|f| f.get(vals.len()).copied().filter(|_| vals.len() < 2));
                vals.push(self.src_sel(s, sel));
            }
        }
        let x = |i: usize| vals.get(i).copied();
        if let Some(rest) = name
            .strip_prefix("v_cmpx_")
            .or_else(|| name.strip_prefix("v_cmp_"))
            .map(|r| (r, imp.contains(isa::Implicit::WRITE_EXEC)))
        {
            let ((rest, is_x), (Some(a), Some(b))) = (rest, (x(0), x(1))) else {
                self.problem("compare without two operands");
                return;
            };
            let Some(c) = self.compare(rest, a, b) else {
                self.problem("compare of a type other than f32/i32/u32");
                return;
            };
            let act = self.active();
            let bit = self.b.bin(Bin::BAnd, act, c);
            if is_x {
                self.write_mask(126, bit);
            } else {
                let dcode = defs
                    .first()
                    .and_then(|d| match d.op {
                        Operand::Reg { code, .. } => Some(code as usize),
                        _ => None,
                    })
                    .unwrap_or(106);
                self.write_mask(dcode, bit);
            }
            return;
        }
        let f = |l: &mut Self, v: Value| l.b.un(Un::AsF32, v);
        let u = |l: &mut Self, v: Value| l.b.un(Un::AsU32, v);
        let need = |l: &mut Self, n: usize| -> bool {
            if vals.len() < n {
                l.problem("missing operand");
                false
            } else {
                true
            }
        };
        let zero = self.u(0);
        let mut float_result = false;
        let r: Value = match name {
            "v_nop" => return,
            "v_mov_b32" => {
                if !need(self, 1) {
                    return;
                }
                vals[0]
            }
            "v_readfirstlane_b32" | "v_readlane_b32" => {
                // Exact only when the source is the same in every lane.
                if !need(self, 1) {
                    return;
                }
                if self.uniform(vals[0]) {
                    vals[0]
                } else {
                    self.unsup(
                        Ty::U32,
                        "reading one lane's VGPR (readlane) needs the other lanes",
                    )
                }
            }
            "v_cndmask_b32" => {
                if !need(self, 2) || masks.is_empty() {
                    self.problem("v_cndmask without a mask");
                    return;
                }
                self.b.select(masks[0], vals[1], vals[0])
            }
            "v_add_nc_u32" | "v_sub_nc_u32" | "v_subrev_nc_u32" => {
                if !need(self, 2) {
                    return;
                }
                if clamp {
                    self.problem("saturating integer add");
                    return;
                }
                match name {
                    "v_add_nc_u32" => self.b.add(vals[0], vals[1]),
                    "v_sub_nc_u32" => self.b.bin(Bin::Sub, vals[0], vals[1]),
                    _ => self.b.bin(Bin::Sub, vals[1], vals[0]),
                }
            }
            "v_add_co_u32" | "v_sub_co_u32" | "v_subrev_co_u32" | "v_add_co_ci_u32"
            | "v_sub_co_ci_u32" | "v_subrev_co_ci_u32" => {
                if !need(self, 2) || clamp {
                    self.problem("carry arithmetic form");
                    return;
                }
                let (a, b) = if name.starts_with("v_subrev") {
                    (vals[1], vals[0])
                } else {
                    (vals[0], vals[1])
                };
                let cin = if name.contains("_ci_") {
                    match masks.first() {
                        Some(&m) => self.b.un(Un::BoolToU32, m),
                        None => zero,
                    }
                } else {
                    zero
                };
                let (r, carry) = if name.starts_with("v_add") {
                    let t = self.b.add(a, b);
                    let r = self.b.add(t, cin);
                    let c1 = self.b.icmp(ICmp::ULt, t, a);
                    let c2 = self.b.icmp(ICmp::ULt, r, t);
                    (r, self.b.bin(Bin::BOr, c1, c2))
                } else {
                    let t = self.b.bin(Bin::Sub, a, b);
                    let r = self.b.bin(Bin::Sub, t, cin);
                    let c1 = self.b.icmp(ICmp::ULt, a, b);
                    let c2 = self.b.icmp(ICmp::ULt, t, cin);
                    (r, self.b.bin(Bin::BOr, c1, c2))
                };
                // The carry-out mask is the second definition.
                if let Some(cd) = defs.get(1) {
                    if let Operand::Reg { code, .. } = cd.op {
                        let act = self.active();
                        let bit = self.b.bin(Bin::BAnd, act, carry);
                        self.write_mask(code as usize, bit);
                    }
                }
                if let Some(d) = defs.first() {
                    self.write_v(d, 0, r);
                }
                return;
            }
            "v_and_b32" | "v_or_b32" | "v_xor_b32" | "v_xnor_b32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_and_b32" => Bin::And,
                    "v_or_b32" => Bin::Or,
                    _ => Bin::Xor,
                };
                let r = self.b.bin(op, vals[0], vals[1]);
                if name == "v_xnor_b32" {
                    self.b.un(Un::Not, r)
                } else {
                    r
                }
            }
            "v_not_b32" => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::Not, vals[0])
            }
            "v_bfrev_b32" => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::BitReverse, vals[0])
            }
            "v_lshlrev_b32" | "v_lshrrev_b32" | "v_ashrrev_i32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_lshlrev_b32" => Bin::Shl,
                    "v_lshrrev_b32" => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                self.b.bin(op, vals[1], vals[0])
            }
            "v_lshl_add_u32" | "v_add_lshl_u32" | "v_lshl_or_b32" | "v_and_or_b32"
            | "v_or3_b32" | "v_xor3_b32" | "v_add3_u32" | "v_xad_u32" => {
                if !need(self, 3) {
                    return;
                }
                let (a, b, c) = (vals[0], vals[1], vals[2]);
                match name {
                    "v_lshl_add_u32" => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.add(t, c)
                    }
                    "v_add_lshl_u32" => {
                        let t = self.b.add(a, b);
                        self.b.bin(Bin::Shl, t, c)
                    }
                    "v_lshl_or_b32" => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_and_or_b32" => {
                        let t = self.b.bin(Bin::And, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_or3_b32" => {
                        let t = self.b.bin(Bin::Or, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_xor3_b32" => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.bin(Bin::Xor, t, c)
                    }
                    "v_add3_u32" => {
                        let t = self.b.add(a, b);
                        self.b.add(t, c)
                    }
                    _ => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.add(t, c)
                    }
                }
            }
            "v_mul_lo_u32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::Mul, vals[0], vals[1])
            }
            "v_mul_hi_u32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiU, vals[0], vals[1])
            }
            "v_mul_hi_i32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiI, vals[0], vals[1])
            }
            "v_mul_u32_u24" | "v_mul_i32_i24" | "v_mad_u32_u24" | "v_mad_i32_i24"
            | "v_mul_hi_u32_u24" | "v_mul_hi_i32_i24" => {
                let n = if name.starts_with("v_mad") { 3 } else { 2 };
                if !need(self, n) {
                    return;
                }
                let signed = name.contains("i24");
                let e24 = |l: &mut Self, v: Value| {
                    let s8 = l.u(8);
                    let t = l.b.bin(Bin::Shl, v, s8);
                    l.b.bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, s8)
                };
                let a = e24(self, vals[0]);
                let b = e24(self, vals[1]);
                if name.starts_with("v_mul_hi") {
                    self.b
                        .bin(if signed { Bin::MulHiI } else { Bin::MulHiU }, a, b)
                } else {
                    let p = self.b.bin(Bin::Mul, a, b);
                    if n == 3 {
                        self.b.add(p, vals[2])
                    } else {
                        p
                    }
                }
            }
            "v_min_u32" | "v_max_u32" | "v_min_i32" | "v_max_i32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_min_u32" => Bin::UMin,
                    "v_max_u32" => Bin::UMax,
                    "v_min_i32" => Bin::SMin,
                    _ => Bin::SMax,
                };
                self.b.bin(op, vals[0], vals[1])
            }
            "v_min3_u32" | "v_max3_u32" | "v_min3_i32" | "v_max3_i32" => {
                if !need(self, 3) {
                    return;
                }
                let op = match name {
                    "v_min3_u32" => Bin::UMin,
                    "v_max3_u32" => Bin::UMax,
                    "v_min3_i32" => Bin::SMin,
                    _ => Bin::SMax,
                };
                let t = self.b.bin(op, vals[0], vals[1]);
                self.b.bin(op, t, vals[2])
            }
            "v_bfe_u32" | "v_bfe_i32" => {
                if !need(self, 3) {
                    return;
                }
                let m31 = self.u(31);
                let off = self.b.bin(Bin::And, vals[1], m31);
                let w = self.b.bin(Bin::And, vals[2], m31);
                self.bfe(vals[0], off, w, name == "v_bfe_i32")
            }
            "v_bfi_b32" => {
                if !need(self, 3) {
                    return;
                }
                let t = self.b.bin(Bin::And, vals[0], vals[1]);
                let na = self.b.un(Un::Not, vals[0]);
                let e = self.b.bin(Bin::And, na, vals[2]);
                self.b.bin(Bin::Or, t, e)
            }
            "v_bfm_b32" => {
                if !need(self, 2) {
                    return;
                }
                self.bfm(vals[0], vals[1])
            }
            "v_alignbit_b32" | "v_alignbyte_b32" => {
                if !need(self, 3) {
                    return;
                }
                let m31 = self.u(if name == "v_alignbit_b32" { 31 } else { 3 });
                let mut s = self.b.bin(Bin::And, vals[2], m31);
                if name == "v_alignbyte_b32" {
                    let e = self.u(8);
                    s = self.b.bin(Bin::Mul, s, e);
                }
                // ({a, b} >> s)[31:0]
                let lo = self.b.bin(Bin::ShrL, vals[1], s);
                let n32 = self.u(32);
                let rs = self.b.bin(Bin::Sub, n32, s);
                let hi = self.b.bin(Bin::Shl, vals[0], rs);
                let s0 = self.b.icmp(ICmp::Eq, s, zero);
                let hi = self.b.select(s0, zero, hi);
                self.b.bin(Bin::Or, lo, hi)
            }
            "v_bcnt_u32_b32" => {
                if !need(self, 2) {
                    return;
                }
                let c = self.b.un(Un::CountOnes, vals[0]);
                self.b.add(c, vals[1])
            }
            "v_add_f32" | "v_sub_f32" | "v_subrev_f32" | "v_mul_f32" | "v_min_f32"
            | "v_max_f32" | "v_ldexp_f32" => {
                if !need(self, 2) {
                    return;
                }
                float_result = true;
                let a = f(self, vals[0]);
                let b = f(self, vals[1]);
                let r = match name {
                    "v_add_f32" => self.b.bin(Bin::FAdd, a, b),
                    "v_sub_f32" => self.b.bin(Bin::FSub, a, b),
                    "v_subrev_f32" => self.b.bin(Bin::FSub, b, a),
                    "v_mul_f32" => self.b.bin(Bin::FMul, a, b),
                    "v_min_f32" => self.b.bin(Bin::FMin, a, b),
                    "v_max_f32" => self.b.bin(Bin::FMax, a, b),
                    _ => self.b.bin(Bin::Ldexp, a, vals[1]),
                };
                u(self, r)
            }
            "v_min3_f32" | "v_max3_f32" | "v_med3_f32" => {
                if !need(self, 3) {
                    return;
                }
                float_result = true;
                let a = f(self, vals[0]);
                let b = f(self, vals[1]);
                let c = f(self, vals[2]);
                let r = match name {
                    "v_min3_f32" => {
                        let t = self.b.bin(Bin::FMin, a, b);
                        self.b.bin(Bin::FMin, t, c)
                    }
                    "v_max3_f32" => {
                        let t = self.b.bin(Bin::FMax, a, b);
                        self.b.bin(Bin::FMax, t, c)
                    }
                    _ => {
                        let lo = self.b.bin(Bin::FMin, a, b);
                        let hi = self.b.bin(Bin::FMax, a, b);
                        let t = self.b.bin(Bin::FMin, hi, c);
                        self.b.bin(Bin::FMax, lo, t)
                    }
                };
                u(self, r)
            }
            "v_fma_f32" | "v_fmac_f32" | "v_fmaak_f32" | "v_fmamk_f32" | "v_mac_f32"
            | "v_mad_f32" | "v_madak_f32" | "v_madmk_f32" => {
                float_result = true;
                let (a, b, c) = match name {
                    "v_fmac_f32" | "v_mac_f32" => {
                        if !need(self, 2) {
                            return;
                        }
                        let acc = match defs.first().map(|d| d.op) {
                            Some(Operand::Reg { code, .. }) if code >= 256 => {
                                self.st.v[(code - 256) as usize]
                            }
                            _ => zero,
                        };
                        (vals[0], vals[1], acc)
                    }
                    // The operands come in LLVM's print order, which for
                    // the literal forms is the order of the computation:
                    // fmamk/madmk `src0, K, src1` (S0·K + S1), fmaak/madak
                    // `src0, src1, K` (S0·S1 + K).
                    _ => {
                        if !need(self, 3) {
                            return;
                        }
                        (vals[0], vals[1], vals[2])
                    }
                };
                let (a, b, c) = (f(self, a), f(self, b), f(self, c));
                let r = if name.contains("fma") {
                    self.b.tri(Tri::Fma, a, b, c)
                } else {
                    let p = self.b.bin(Bin::FMul, a, b);
                    self.b.bin(Bin::FAdd, p, c)
                };
                u(self, r)
            }
            "v_mul_legacy_f32" => {
                if !need(self, 2) {
                    return;
                }
                float_result = true;
                let a = f(self, vals[0]);
                let b = f(self, vals[1]);
                let p = self.b.bin(Bin::FMul, a, b);
                let fz = self.b.konst(Ty::F32, 0);
                let az = self.b.bin(Bin::FCmp(FCmp(FCmp::EQ)), a, fz);
                let bz = self.b.bin(Bin::FCmp(FCmp(FCmp::EQ)), b, fz);
                let z = self.b.bin(Bin::BOr, az, bz);
                let p = self.b.select(z, fz, p);
                u(self, p)
            }
            "v_rcp_f32" | "v_rsq_f32" | "v_sqrt_f32" | "v_exp_f32" | "v_log_f32" | "v_sin_f32"
            | "v_cos_f32" | "v_floor_f32" | "v_ceil_f32" | "v_trunc_f32" | "v_rndne_f32"
            | "v_fract_f32" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = match name {
                    "v_rcp_f32" => Un::Rcp,
                    "v_rsq_f32" => Un::Rsq,
                    "v_sqrt_f32" => Un::Sqrt,
                    "v_exp_f32" => Un::Exp2,
                    "v_log_f32" => Un::Log2,
                    "v_sin_f32" => Un::SinRev,
                    "v_cos_f32" => Un::CosRev,
                    "v_floor_f32" => Un::Floor,
                    "v_ceil_f32" => Un::Ceil,
                    "v_trunc_f32" => Un::Trunc,
                    "v_rndne_f32" => Un::RoundEven,
                    _ => Un::Fract,
                };
                let a = f(self, vals[0]);
                let r = self.b.un(op, a);
                u(self, r)
            }
            "v_cvt_f32_u32" | "v_cvt_f32_i32" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = if name == "v_cvt_f32_u32" {
                    Un::F32FromU32
                } else {
                    Un::F32FromI32
                };
                let r = self.b.un(op, vals[0]);
                u(self, r)
            }
            "v_cvt_f32_ubyte0" | "v_cvt_f32_ubyte1" | "v_cvt_f32_ubyte2" | "v_cvt_f32_ubyte3" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let k = (name.as_bytes()[name.len() - 1] - b'0') as u32;
                let sh = self.u(8 * k);
                let t = self.b.bin(Bin::ShrL, vals[0], sh);
                let m = self.u(0xff);
                let t = self.b.bin(Bin::And, t, m);
                let r = self.b.un(Un::F32FromU32, t);
                u(self, r)
            }
            "v_cvt_u32_f32" | "v_cvt_i32_f32" | "v_cvt_flr_i32_f32" | "v_cvt_rpi_i32_f32" => {
                if !need(self, 1) {
                    return;
                }
                let mut a = f(self, vals[0]);
                if name == "v_cvt_flr_i32_f32" {
                    a = self.b.un(Un::Floor, a);
                } else if name == "v_cvt_rpi_i32_f32" {
                    let h = self.b.konst(Ty::F32, 0.5f32.to_bits());
                    let t = self.b.bin(Bin::FAdd, a, h);
                    a = self.b.un(Un::Floor, t);
                }
                let op = if name == "v_cvt_u32_f32" {
                    Un::U32FromF32
                } else {
                    Un::I32FromF32
                };
                self.b.un(op, a)
            }
            "v_swap_b32" => {
                let (Some(d0), Some(d1)) = (defs.first(), defs.get(1)) else {
                    self.problem("v_swap without two registers");
                    return;
                };
                let get = |l: &Self, s: &Slot| match s.op {
                    Operand::Reg { code, .. } if code >= 256 => Some(l.st.v[(code - 256) as usize]),
                    _ => None,
                };
                let (Some(a), Some(b)) = (get(self, d0), get(self, d1)) else {
                    return;
                };
                let (d0, d1) = (*d0, *d1);
                self.write_v(&d0, 0, b);
                self.write_v(&d1, 0, a);
                return;
            }
            "v_mbcnt_lo_u32_b32" | "v_mbcnt_hi_u32_b32" => self.unsup(
                Ty::U32,
                "v_mbcnt counts lanes below this one (needs the lane's position in the wave)",
            ),
            "v_writelane_b32" => {
                self.problem("v_writelane writes another lane's register");
                return;
            }
            _ if name.starts_with("v_permlane") || name.starts_with("v_movrel") => {
                self.problem("reads or writes other lanes' registers");
                return;
            }
            _ => {
                self.problem("unsupported vector ALU instruction");
                return;
            }
        };
        let r = if clamp && float_result {
            let a = f(self, r);
            let z = self.b.konst(Ty::F32, 0);
            let one = self.b.konst(Ty::F32, 1.0f32.to_bits());
            let t = self.b.bin(Bin::FMax, a, z);
            let t = self.b.bin(Bin::FMin, t, one);
            u(self, t)
        } else if clamp {
            self.problem("integer clamp");
            return;
        } else {
            r
        };
        let r = match sdwa {
            Some([_, _, (off, width)]) if width < 32 => {
                // UNUSED_PAD: the result's low bits at the field, zeros
                // elsewhere.
                let m = self.u(((1u64 << width) - 1) as u32);
                let t = self.b.bin(Bin::And, r, m);
                let o = self.u(off);
                self.b.bin(Bin::Shl, t, o)
            }
            _ => r,
        };
        if let Some(d) = defs.first() {
            self.write_v(d, 0, r);
        }
    }

    /// Whether a value is the same in every lane: built only from
    /// constants, parameters and scalar loads (not from ids, buffer loads,
    /// lane bits or block parameters).
    fn uniform(&self, v: Value) -> bool {
        use crate::ir::Op;
        let f = &self.b.func;
        let mut stack = vec![v];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match f.inst(x).op {
                Op::Const(_) | Op::Input(Input::Param(_)) => {}
                Op::Input(_) | Op::BlockParam(..) | Op::Unsupported(_) | Op::Effect(_) => {
                    return false
                }
                Op::Load(i) => match f.loads[i as usize] {
                    Load::Scalar { lo, hi, offset, .. } => stack.extend([lo, hi, offset]),
                    Load::ScalarBuf { desc, offset, .. } => {
                        stack.extend(desc);
                        stack.push(offset)
                    }
                    Load::Buffer(_) => return false,
                },
                Op::Un(_, a) => stack.push(a),
                Op::Bin(_, a, b) => stack.extend([a, b]),
                Op::Tri(_, a, b, c) => stack.extend([a, b, c]),
            }
        }
        true
    }

    fn compare(&mut self, rest: &str, a: Value, b: Value) -> Option<Value> {
        let (cond, ty) = rest.rsplit_once('_')?;
        match ty {
            "f32" => {
                let m = match cond {
                    "f" => 0,
                    "lt" => FCmp::LT,
                    "eq" => FCmp::EQ,
                    "le" => FCmp::LT | FCmp::EQ,
                    "gt" => FCmp::GT,
                    "lg" => FCmp::LT | FCmp::GT,
                    "ge" => FCmp::GT | FCmp::EQ,
                    "o" => FCmp::LT | FCmp::EQ | FCmp::GT,
                    "u" => FCmp::UNORD,
                    "nge" => FCmp::LT | FCmp::UNORD,
                    "nlg" => FCmp::EQ | FCmp::UNORD,
                    "ngt" => FCmp::LT | FCmp::EQ | FCmp::UNORD,
                    "nle" => FCmp::GT | FCmp::UNORD,
                    "neq" => FCmp::LT | FCmp::GT | FCmp::UNORD,
                    "nlt" => FCmp::EQ | FCmp::GT | FCmp::UNORD,
                    "tru" => 15,
                    _ => return None,
                };
                let fa = self.b.un(Un::AsF32, a);
                let fb = self.b.un(Un::AsF32, b);
                Some(self.b.bin(Bin::FCmp(FCmp(m)), fa, fb))
            }
            "u32" | "i32" => {
                let s = ty == "i32";
                let (lt, le) = if s {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                Some(match cond {
                    "f" => self.b.bool(false),
                    "t" => self.b.bool(true),
                    "lt" => self.b.icmp(lt, a, b),
                    "le" => self.b.icmp(le, a, b),
                    "gt" => self.b.icmp(lt, b, a),
                    "ge" => self.b.icmp(le, b, a),
                    "eq" => self.b.icmp(ICmp::Eq, a, b),
                    "ne" | "lg" => self.b.icmp(ICmp::Ne, a, b),
                    _ => return None,
                })
            }
            _ => None,
        }
    }
}
