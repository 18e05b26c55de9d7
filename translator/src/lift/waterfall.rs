//! The waterfall loop: how ACO runs an instruction whose scalar operand is
//! a per-lane value (a `nonuniformEXT` descriptor index).
//!
//! ```text
//! H: v_readfirstlane_b32 s, vX          ; one active lane's value
//!    s_mov_b64 saved, exec              ; the lanes still to do
//!    v_cmpx_eq_u32 s, vX                ; EXEC: the lanes with that value
//!    s_cbranch_execz L
//! B: ...body, reading s...              ; once per distinct value
//!    s_andn2_b64 saved, saved, exec     ; those lanes are done
//!    s_cbranch_scc0 X                   ; none left: leave
//! L: s_mov_b64 exec, saved
//!    s_branch H
//! ```
//!
//! Its meaning is that every active lane runs the body once, with `s`
//! equal to its own `vX`: a lane is active in exactly one iteration (the
//! one whose value is its own), nothing in `H` writes a VGPR, and the body
//! writes no EXEC, so each lane's VGPRs after the loop are what that one
//! iteration made of them. The lifter therefore lifts it as straight-line
//! code in the lane's view: `s` is this lane's `vX`, the compare keeps
//! EXEC (the lane matches itself), `H`'s `execz` edge is never taken (the
//! lane `readfirstlane` picked is always in the group) and the body's
//! `scc0` edge always is (the lane is done after its iteration); `L` is
//! never reached. An inactive lane runs the body with its EXEC bit off, so
//! it changes nothing, as on the hardware.
//!
//! What the hardware does not share with that view is the scalar state the
//! loop leaves: after it, an SGPR the loop wrote holds the *last*
//! iteration's value (another lane's), and EXEC the last group. So at the
//! exit every such register whose value is not the same in every lane and
//! every iteration becomes an unsupported value
//! ([`crate::CrossLane::WaterfallExit`], an error only if it is read);
//! `saved` and SCC are 0 there (the exit is taken when no lane is left).
//!
//! Recognised only in this exact shape (the four runs `H`, `B`, `L` and
//! the exit; `B` one block without control flow or EXEC writes), without
//! loop-carried scalar state (a scalar register the body or head reads
//! before writing it in the same iteration must not be written in the
//! loop), outside compute shaders (whose lanes see each other, and which
//! run such loops as the wave's own), and in pixel shaders only when `vX`
//! is the same for a whole primitive (built from flat inputs and uniform
//! words): the quads of one primitive then sit in one group, so implicit
//! derivatives in the body read the lanes they read on the hardware.

use super::blocks::mark_writes;
use analysis::cfg::Line;
use isa::{op, Instruction, Modifiers, Operand, Slot};

/// One recognised waterfall loop (runs are the lifter's block numbers).
#[derive(Clone, Debug)]
pub(super) struct Waterfall {
    /// The head run `H`.
    pub head: usize,
    /// The body run `B` (ends in the `scc0` exit).
    pub body: usize,
    /// pc of `v_readfirstlane_b32 s, vX`.
    pub read_pc: u32,
    /// `s` (scalar code).
    pub sdst: u16,
    /// `vX` (VGPR number).
    pub vgpr: u16,
    /// pc of the `v_cmpx_eq` of `s` and `vX`.
    pub match_pc: u32,
    /// `saved` (scalar code of the lane mask, a pair in wave64).
    pub saved: u16,
    /// Register slots the loop writes (as [`mark_writes`] marks them).
    pub writes: Vec<bool>,
}

fn reg(s: &Slot) -> Option<(u16, u8)> {
    match s.op {
        Operand::Reg { code, count } if s.mods.is_empty() => Some((code, count)),
        _ => None,
    }
}

fn srcs(i: &Instruction) -> Vec<Slot> {
    i.operands
        .iter()
        .filter(|s| s.is_use() && !s.is_def())
        .copied()
        .collect()
}

fn defs(i: &Instruction) -> Vec<Slot> {
    i.operands.iter().filter(|s| s.is_def()).copied().collect()
}

/// `s_mov dst, src` of registers in the wave's mask width: `(dst, src)`.
fn mask_mov(i: &Instruction, wave64: bool) -> Option<(u16, u16)> {
    let want = if wave64 { op::S_MOV_B64 } else { op::S_MOV_B32 };
    if i.opcode != want {
        return None;
    }
    Some((reg(defs(i).first()?)?.0, reg(srcs(i).first()?)?.0))
}

/// `s_mov dst, exec`: `dst` (an SGPR, a pair's first in wave64).
fn mov_from_exec(i: &Instruction, wave64: bool) -> Option<u16> {
    let (d, s) = mask_mov(i, wave64)?;
    (s == 126 && d < 106 && (!wave64 || d % 2 == 0)).then_some(d)
}

/// `s_mov exec, src`: `src`.
fn mov_to_exec(i: &Instruction, wave64: bool) -> Option<u16> {
    let (d, s) = mask_mov(i, wave64)?;
    (d == 126).then_some(s)
}

/// `s_andn2 saved, saved, exec` (the wave's mask width).
fn clears_done(i: &Instruction, wave64: bool, saved: u16) -> bool {
    let want = if wave64 {
        op::S_ANDN2_B64
    } else {
        op::S_ANDN2_B32
    };
    let s = srcs(i);
    i.opcode == want
        && defs(i).first().and_then(reg).map(|r| r.0) == Some(saved)
        && s.len() == 2
        && reg(&s[0]).map(|r| r.0) == Some(saved)
        && reg(&s[1]).map(|r| r.0) == Some(126)
}

/// `v_cmpx_eq_u32/i32 s, vX` (either order, no modifiers): `(s, X)`.
fn match_compare(i: &Instruction) -> Option<(u16, u16)> {
    if !matches!(i.opcode, op::V_CMPX_EQ_U32 | op::V_CMPX_EQ_I32) {
        return None;
    }
    if !matches!(i.mods, Modifiers::None | Modifiers::Vop3(_)) {
        return None;
    }
    let s = srcs(i);
    if s.len() != 2 {
        return None;
    }
    let (a, _) = reg(&s[0])?;
    let (b, _) = reg(&s[1])?;
    match (a, b) {
        (s, v) | (v, s) if s < 106 && (256..512).contains(&v) => Some((s, v - 256)),
        _ => None,
    }
}

/// The instructions of a run, all decoded.
fn decoded(lines: &[Line]) -> Option<Vec<(u32, Instruction)>> {
    lines
        .iter()
        .map(|l| l.inst.ok().map(|i| (l.pc, i)))
        .collect()
}

/// The scalar slots (codes below 128 except EXEC, and SCC as 384) an
/// instruction reads.
fn scalar_reads(i: &Instruction, wave64: bool) -> Vec<usize> {
    let mut out = Vec::new();
    for s in i.operands.iter().filter(|s| s.is_use()) {
        if let Operand::Reg { code, count } = s.op {
            let extra = (s.ty == isa::ValType::Mask && wave64 && count == 1) as u16;
            for k in 0..count as u16 + extra {
                let c = (code + k) as usize;
                if c < 128 && c != 126 && c != 127 {
                    out.push(c);
                }
            }
        }
    }
    let imp = i.implicit();
    if imp.contains(isa::Implicit::READ_SCC) {
        out.push(384);
    }
    if imp.contains(isa::Implicit::READ_VCC) {
        out.extend([106, 107]);
    }
    if imp.contains(isa::Implicit::READ_M0) {
        out.push(124);
    }
    out
}

/// The shape around head run `h`, given each run's lines, its
/// predecessors, its conditional/jump target and fall-through.
pub(super) struct Runs<'a, 'l> {
    pub lines: &'a dyn Fn(usize) -> &'l [Line],
    /// Per run: (taken target, fall-through), as the lifter follows them.
    pub succ: &'a [(Option<usize>, Option<usize>)],
    /// Per run: its predecessors.
    pub preds: &'a [Vec<usize>],
    pub wave64: bool,
}

/// The waterfall loop whose head is run `h`, if it has exactly that shape.
pub(super) fn recognise(r: &Runs<'_, '_>, h: usize) -> Option<Waterfall> {
    let hl = decoded((r.lines)(h))?;
    let (execz_t, b) = r.succ[h];
    let (l, b) = (execz_t?, b?);
    let (hterm_pc, hterm) = *hl.last()?;
    let _ = hterm_pc;
    if hterm.opcode != op::S_CBRANCH_EXECZ || hl.len() != 4 {
        return None;
    }
    // H: readfirstlane, s_mov saved exec, cmpx (the s_mov anywhere before
    // the cmpx: after it, `saved` would be only the matched lanes and the
    // loop would leave after one group).
    let mut read = None;
    let mut saved = None;
    let mut cmp = None;
    for &(pc, i) in &hl[..3] {
        if i.opcode == op::V_READFIRSTLANE_B32 && read.is_none() && cmp.is_none() {
            let (d, _) = reg(defs(&i).first()?)?;
            let (v, _) = reg(srcs(&i).first()?)?;
            if d >= 106 || !(256..512).contains(&v) {
                return None;
            }
            read = Some((pc, d, v - 256));
        } else if let Some(d) =
            mov_from_exec(&i, r.wave64).filter(|_| saved.is_none() && cmp.is_none())
        {
            saved = Some(d);
        } else if let Some(m) = match_compare(&i).filter(|_| cmp.is_none() && read.is_some()) {
            cmp = Some((pc, m));
        } else {
            return None;
        }
    }
    let ((read_pc, sdst, vgpr), saved, (match_pc, (cs, cv))) = (read?, saved?, cmp?);
    let saved_regs = if r.wave64 { 2 } else { 1 };
    if cs != sdst || cv != vgpr || (sdst >= saved && sdst < saved + saved_regs) {
        return None;
    }
    // B: one run, H's fall-through and nothing else's successor, ending in
    // `s_andn2 saved, saved, exec` + `s_cbranch_scc0 X`, falling into L.
    let bl = decoded((r.lines)(b))?;
    if r.preds[b] != [h] || bl.len() < 2 {
        return None;
    }
    let (x, b_fall) = r.succ[b];
    let (x, b_fall) = (x?, b_fall?);
    let (_, bterm) = bl[bl.len() - 1];
    let (_, clear) = bl[bl.len() - 2];
    if bterm.opcode != op::S_CBRANCH_SCC0 || b_fall != l || !clears_done(&clear, r.wave64, saved) {
        return None;
    }
    // L: `s_mov exec, saved` + `s_branch H`, entered from H and B only.
    let ll = decoded((r.lines)(l))?;
    let mut lp = r.preds[l].clone();
    lp.sort_unstable();
    let mut hb = vec![h, b];
    hb.sort_unstable();
    if ll.len() != 2
        || mov_to_exec(&ll[0].1, r.wave64) != Some(saved)
        || ll[1].1.opcode != op::S_BRANCH
        || r.succ[l] != (Some(h), None)
        || lp != hb
        || [h, b, l].contains(&x)
    {
        return None;
    }
    // Loop-carried scalar state, EXEC writes in the body.
    let mut writes = vec![false; 385];
    for (_, i) in hl.iter().chain(&bl).chain(&ll) {
        mark_writes(i, r.wave64, &mut writes);
    }
    let mut now = vec![false; 385];
    let body = &bl[..bl.len() - 2];
    for (k, (_, i)) in hl[..3].iter().chain(body).enumerate() {
        if scalar_reads(i, r.wave64)
            .iter()
            .any(|&c| writes[c] && !now[c])
        {
            return None;
        }
        let mut w = vec![false; 385];
        mark_writes(i, r.wave64, &mut w);
        // Only H's compare writes EXEC; the body keeps the group.
        if k >= 3 && (w[126] || w[127]) {
            return None;
        }
        // The head writes no VGPR (and nothing but s, saved and EXEC).
        if k < 3 && w[128..384].iter().any(|&x| x) {
            return None;
        }
        for (n, x) in now.iter_mut().zip(&w) {
            *n |= x;
        }
    }
    Some(Waterfall {
        head: h,
        body: b,
        read_pc,
        sdst,
        vgpr,
        match_pc,
        saved,
        writes,
    })
}

impl super::Lifter<'_> {
    /// The head's `v_readfirstlane` (`s` becomes this lane's `vX`) and
    /// `v_cmpx` (EXEC stays: the lane matches itself) of a recognised
    /// waterfall loop; `false` for any other instruction.
    pub(super) fn waterfall_inst(&mut self) -> bool {
        if self.waterfall_matches.contains(&self.pc) {
            if self.o.alu_faults.waterfall_never_matches {
                let off = self.b.bool(false);
                self.write_mask(126, off);
            }
            return true;
        }
        let Some(&(sdst, vgpr)) = self.waterfall_reads.get(&self.pc) else {
            return false;
        };
        let x = self.st.v[vgpr as usize];
        // Quads stay in one group only when the value is one per primitive.
        if self.o.stage == isa::Stage::Ps && !self.primitive_uniform(x) {
            self.problem(crate::CrossLane::WaterfallQuads);
            return true;
        }
        self.write_s(sdst, x);
        true
    }

    /// The registers at the loop's exit: what the loop wrote keeps its
    /// value where that is the same in every lane and iteration; `saved`
    /// and SCC are 0 (the exit is taken when no lane is left); anything
    /// else is the last iteration's on the hardware, an unsupported value
    /// here.
    pub(super) fn waterfall_exit(&mut self, w: &Waterfall) {
        use super::state::{Half, Sgpr};
        let fls = self.b.bool(false);
        let saved = w.saved as usize;
        let saved_end = saved + if self.o.wave64 { 2 } else { 1 };
        for r in (0..128).filter(|&r| w.writes[r]) {
            if (saved..saved_end).contains(&r) {
                let half = match (self.o.wave64, r == saved) {
                    (false, _) => Half::Full,
                    (true, true) => Half::Lo,
                    (true, false) => Half::Hi,
                };
                self.st.s[r] = Sgpr::Mask(fls, half);
                continue;
            }
            self.st.s[r] = match self.st.s[r] {
                Sgpr::Word(v) if r != 126 && r != 127 && self.uniform(v) => Sgpr::Word(v),
                Sgpr::Mask(v, h) if r != 126 && r != 127 && self.b.func.konst(v).is_some() => {
                    Sgpr::Mask(v, h)
                }
                Sgpr::Word(_) => {
                    Sgpr::Word(self.unsup(crate::ir::Ty::U32, crate::CrossLane::WaterfallExit))
                }
                Sgpr::Mask(_, h) => Sgpr::Mask(
                    self.unsup(crate::ir::Ty::Bool, crate::CrossLane::WaterfallExit),
                    h,
                ),
            };
        }
        // A wave64 mask pair must stay one value.
        if self.o.wave64 {
            for r in (0..128).step_by(2) {
                if let (Sgpr::Mask(a, Half::Lo), Sgpr::Mask(b, Half::Hi)) =
                    (self.st.s[r], self.st.s[r + 1])
                {
                    if a != b && (w.writes[r] || w.writes[r + 1]) {
                        let u = self.unsup(crate::ir::Ty::Bool, crate::CrossLane::WaterfallExit);
                        self.st.s[r] = Sgpr::Mask(u, Half::Lo);
                        self.st.s[r + 1] = Sgpr::Mask(u, Half::Hi);
                    }
                }
            }
        }
        self.st.scc = fls;
    }
}
