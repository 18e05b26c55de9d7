//! The block graph (branch targets and the instructions after branches
//! start blocks), the walk over it in reverse postorder, and the joins:
//! registers that disagree where edges meet become block parameters.

use super::state::{reg_name, Half, Sgpr, State};
use super::Lifter;
use crate::ir::{Block, Edge, Term, Ty, Value};
use isa::{op, BranchCond, Decoder, Flow, Instruction, Opcode, Operand};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EdgeSlot {
    Jump,
    Then,
    Else,
}

pub(super) struct StaticBlock {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) succ: Vec<usize>,
}

/// A loop head's parameters: register slot and mask half (`None`: a word).
pub(super) type ParamKinds = Vec<(usize, Option<Half>)>;

pub(super) type Decoded = Vec<(u32, Result<Instruction, isa::DecodeError>)>;

pub(super) fn branch_target(pc: u32, inst: &Instruction) -> Option<i64> {
    match inst.operands.first().map(|s| s.op) {
        Some(Operand::Imm(off)) => Some(pc as i64 + 4 + 4 * off as i64),
        _ => None,
    }
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
            let extra = isa::lane_mask_pair(s, wave64) as u16;
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
    pub(super) fn run(&mut self, code: &[u8]) {
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
                let code = inst.opcode;
                if code == op::S_BRANCH || is_cbranch(code) {
                    if let Some(t) = branch_target(*pc, inst) {
                        if let Some(&ti) = u32::try_from(t).ok().and_then(|t| index_of.get(&t)) {
                            leader[ti] = true;
                        }
                    }
                    leader[i + 1] = true;
                } else if is_end(code) {
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
                    let code = inst.opcode;
                    let target = || {
                        branch_target(*pc, inst)
                            .and_then(|t| u32::try_from(t).ok())
                            .and_then(|t| index_of.get(&t))
                            .map(|&ti| block_of[ti])
                    };
                    if code == op::S_BRANCH {
                        succ.extend(target());
                    } else if is_cbranch(code) {
                        succ.extend(target());
                        succ.extend(fall);
                    } else if !is_end(code) {
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
        let mut pending: Vec<Vec<(Block, EdgeSlot, State)>> = vec![Vec::new(); blocks.len()];
        let mut ir_of: Vec<Option<Block>> = vec![None; blocks.len()];
        let entry_state = self.st.clone();
        self.b.func.blocks[0].pc = insts[blocks[0].start].0;
        if loop_writes.contains_key(&0) {
            // A loop at the entry: the entry block becomes its preheader.
            self.b.terminate(Term::Jump(Edge {
                block: Block(u32::MAX),
                args: Vec::new(),
            }));
            pending[0].push((Block(0), EdgeSlot::Jump, entry_state.clone()));
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
                        let code = inst.opcode;
                        if idx + 1 == sb.end
                            && (code == op::S_BRANCH || is_cbranch(code) || is_end(code))
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
            let mut edges: Vec<(usize, EdgeSlot)> = Vec::new();
            let mut branch_cond: Option<(Value, bool)> = None;
            if ended {
                self.b.terminate(Term::Return);
            } else if let Some((_, pc, inst)) = term {
                self.pc = pc;
                self.cur = Some(inst);
                self.text_valid = false;
                let code = inst.opcode;
                let target = branch_target(pc, &inst)
                    .and_then(|t| u32::try_from(t).ok())
                    .and_then(|t| index_of.get(&t))
                    .map(|&ti| block_of[ti]);
                if is_end(code) {
                    self.b.terminate(Term::Return);
                } else if target.is_none() {
                    self.problem("the branch target is outside the code or inside an instruction");
                    self.b.terminate(Term::Return);
                } else if code == op::S_BRANCH {
                    edges.push((target.unwrap_or(0), EdgeSlot::Jump));
                } else {
                    let t = target.unwrap_or(0);
                    let (cond, divergent) = self.branch_cond(code);
                    match self.b.func.konst(cond) {
                        Some(c) => {
                            if c != 0 {
                                edges.push((t, EdgeSlot::Jump));
                            } else {
                                match fall {
                                    Some(f) => edges.push((f, EdgeSlot::Jump)),
                                    None => {
                                        self.problem("execution runs past the end of the code");
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
                                self.problem("execution runs past the end of the code");
                                self.b.terminate(Term::Return);
                            }
                        },
                    }
                }
            } else {
                match fall {
                    Some(f) => edges.push((f, EdgeSlot::Jump)),
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
                        for x in &incoming {
                            vs.push(match (x.2.s[r], x.2.s[r + 1]) {
                                (Sgpr::Mask(a, _), _) => a,
                                (Sgpr::Word(lo), Sgpr::Word(hi)) => self.word_to_bit(lo, Some(hi)),
                                (Sgpr::Word(lo), _) => self.word_to_bit(lo, None),
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
                for (i, x) in incoming.iter().enumerate() {
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
