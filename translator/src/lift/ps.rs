//! Pixel shaders: the entry VGPRs, parameter interpolation
//! (`v_interp_p1/p2/mov_f32`) and the 16-bit packing of colour exports
//! (`v_cvt_pkrtz_f16_f32`, the halves of a compressed export).
//!
//! # Interpolation
//!
//! The hardware computes `P0 + i·(P1 − P0)` (`v_interp_p1_f32` into a
//! VGPR) and then adds `j·(P2 − P0)` (`v_interp_p2_f32` on that VGPR), with
//! the i and j of one barycentric pair from the entry VGPRs. The host has
//! no such pair: its rasteriser interpolates an input location. So the
//! lifter recognises exactly that dataflow: a `p2` whose destination holds
//! a `p1` of the same attribute channel, where the `p1` read the i and the
//! `p2` reads the j of one pair, is [`Input::Interp`] with that pair's
//! mode (perspective or linear; centre, centroid or sample); the host
//! location is the attribute number. `v_interp_mov_f32 … p0` is the
//! provoking vertex's value, a flat input. The 16-bit forms
//! (`v_interp_p1ll_f16` + `v_interp_p2_f16`, [`Lifter::interp16`]) are
//! recognised the same way, per half of the parameter word. A barycentric
//! VGPR read as a value (e.g. exported where the guest's source leaves a
//! variable unassigned and the register allocator gave it the entry VGPR)
//! is [`Input::Barycentric`]: the host interpolates a helper input whose
//! vertex values are (0, 0), (1, 0), (0, 1), in the pair's mode, which is
//! by definition that pair's (i, j): the weights of vertices 1 and 2 with
//! which the hardware's `P0 + i·(P1 − P0) + j·(P2 − P0)` interpolates.
//! Anything else that touches a half-done `p1` is an unsupported value, an
//! error only if it stays live. The host's interpolation rounds on its own
//! (plane equations on lavapipe), so the values agree exactly only where
//! both computations are exact; `shaderlift run` chooses such scenes.

use super::Lifter;
use crate::ir::{Bin, Input, InterpMode, LaneOp, Load, Ty, Un, Value};
use crate::{CrossLane, Export, Form, Interp};
use isa::{op, Bary, Instruction, Modifiers, Operand, PsInput};
use std::collections::HashMap;

/// What the lifter tracks in a pixel shader.
#[derive(Debug, Default)]
pub(super) struct PsState {
    /// The barycentric entry values: (pair, 0 for i / 1 for j).
    bary: HashMap<Value, (Bary, u8)>,
    /// `v_interp_p1` results: (pair, attribute, channel, the VGPR's value
    /// before it, for inactive lanes, the lane's EXEC bit then).
    p1: HashMap<Value, (Bary, u8, u8, Value, Value)>,
    /// `v_interp_p1ll_f16` results: (pair, attribute, channel, high half,
    /// the lane's EXEC bit then).
    p1_16: HashMap<Value, (Bary, u8, u8, bool, Value)>,
    /// The mode each attribute is interpolated with, and its f16 half
    /// (`None`: the word as f32).
    modes: HashMap<u8, (InterpMode, Option<bool>)>,
    /// SCC as a scalar instruction that wrote EXEC left it ("any lane
    /// on"), with this lane's bit of that EXEC, and the bit EXEC raises in
    /// the region of a branch on it are checked against (the same but
    /// under a fault).
    exec_scc: Option<(Value, Value, Value)>,
    /// The `ancillary` entry VGPR's value (unsupported but for the fields
    /// [`Lifter::ancillary_field`] extracts).
    pub(super) ancillary: Option<Value>,
}

impl Lifter<'_> {
    /// Pixel shaders: the entry VGPRs `SPI_PS_INPUT_ENA` enables.
    pub(super) fn ps_entry_vgprs(&mut self) {
        for (input, first, n) in isa::ps_input_vgprs(self.o.abi.ps_input_ena) {
            for k in 0..n {
                let r = (first + k) as usize;
                if r >= 256 {
                    continue;
                }
                let v = match input {
                    PsInput::Bary(b) if k < 2 => {
                        // Read raw (not by `v_interp`), the weight itself
                        // from the pair's helper input; `v_interp` finds
                        // the pair through `bary` and reads no helper.
                        let which = if self.o.ps_faults.raw_barycentrics_swapped {
                            1 - k
                        } else {
                            k
                        };
                        let v = self.b.input(Input::Barycentric { pair: b, which });
                        self.ps.bary.insert(v, (b, k));
                        v
                    }
                    PsInput::Pos(c @ 0..=1) => self.b.input(Input::FragCoord(c)),
                    PsInput::Ancillary => {
                        let v = self.entry_unsup(Interp::Ancillary, r);
                        self.ps.ancillary = Some(v);
                        v
                    }
                    other => {
                        let name = match other {
                            PsInput::Pos(2) => "frag_pos.z",
                            PsInput::Pos(_) => "frag_pos.w",
                            PsInput::PullModel => "pull_model",
                            PsInput::LineStipple => "line_stipple",
                            PsInput::FrontFace => "front_face",
                            PsInput::SampleCoverage => "sample_coverage",
                            PsInput::PosFixedPt => "pos_fixed_pt",
                            PsInput::Ancillary => "ancillary",
                            PsInput::Bary(_) => "barycentric",
                        };
                        self.entry_unsup(Interp::EntryVgpr(name), r)
                    }
                };
                self.st.v[r] = v;
            }
        }
    }

    /// A field of the `ancillary` entry VGPR, when `code` with sources
    /// `vals` reads only known bits of it: `v_bfe_u32 d, anc, off, w` or
    /// `v_and_b32 d, mask, anc` with constant fields inside the VRS rate
    /// bits 5:2 (`gl_ShadingRateEXT`; ACO unpacks bits 3:2 and 5:4).
    /// Gfx10.3's ancillary word holds more (the sample id in bits 11:8,
    /// the render-target layer above); those stay unsupported, and so
    /// does the word read any other way.
    pub(super) fn ancillary_field(&mut self, code: isa::Opcode, vals: &[Value]) -> Option<Value> {
        let anc = self.ps.ancillary?;
        const RATE: u32 = 0b11_1100;
        let k = |l: &Self, i: usize| vals.get(i).and_then(|&v| l.b.func.konst(v));
        // The rate's bits where the hardware puts them (bits 5:2).
        let rate_at = |l: &mut Self| {
            let mut r = match l.o.shading_rate {
                crate::ShadingRateSource::PushWord => l.b.input(Input::ShadingRate),
                crate::ShadingRateSource::Off => l.const_u32(0),
            };
            if l.o.ps_faults.shading_rate_axes_swapped {
                let (m3, two) = (l.const_u32(3), l.const_u32(2));
                let x = l.b.bin(Bin::And, r, m3);
                let y = l.b.bin(Bin::ShrL, r, two);
                let y = l.b.bin(Bin::And, y, m3);
                let x = l.b.bin(Bin::Shl, x, two);
                r = l.b.bin(Bin::Or, x, y);
            }
            let two = l.const_u32(2);
            l.b.bin(Bin::Shl, r, two)
        };
        match code {
            op::V_BFE_U32 if vals.first() == Some(&anc) => {
                let (off, w) = (k(self, 1)? & 31, k(self, 2)? & 31);
                let mask = ((1u64 << w) - 1) as u32;
                if w == 0 || (mask << off) & !RATE != 0 {
                    return None;
                }
                let r = rate_at(self);
                let (o, m) = (self.const_u32(off), self.const_u32(mask));
                let t = self.b.bin(Bin::ShrL, r, o);
                Some(self.b.bin(Bin::And, t, m))
            }
            op::V_AND_B32 => {
                let mask = match vals {
                    [_, b] if *b == anc => k(self, 0)?,
                    [a, _] if *a == anc => k(self, 1)?,
                    _ => return None,
                };
                if mask & !RATE != 0 {
                    return None;
                }
                let r = rate_at(self);
                let m = self.const_u32(mask);
                Some(self.b.bin(Bin::And, r, m))
            }
            _ => None,
        }
    }

    fn entry_unsup(&mut self, why: Interp, r: usize) -> Value {
        let u = crate::ir::Unsupported {
            pc: 0,
            inst: format!("(entry v{r})"),
            construct: why.into(),
        };
        self.b.unsupported(Ty::U32, u)
    }

    fn vreg(inst: &Instruction, k: usize) -> Option<usize> {
        match inst.operands.get(k)?.op {
            Operand::Reg { code, .. } if (256..512).contains(&code) => Some((code - 256) as usize),
            _ => None,
        }
    }

    /// `v_interp_*` (VINTRP encoding).
    pub(super) fn interp(&mut self, inst: &Instruction) {
        let Modifiers::Vintrp(m) = inst.mods else {
            self.problem(Interp::Form);
            return;
        };
        let Some(dst) = Self::vreg(inst, 0) else {
            self.problem(Interp::Form);
            return;
        };
        match inst.opcode {
            op::V_INTERP_P1_F32_E32 => {
                let Some(src) = Self::vreg(inst, 1) else {
                    self.problem(Interp::Form);
                    return;
                };
                let i = self.st.v[src];
                let prev = self.st.v[dst];
                let v = self.unsup(Ty::U32, Interp::Partial);
                let act = self.active();
                match self.ps.bary.get(&i) {
                    Some(&(b, 0)) => {
                        self.ps.p1.insert(v, (b, m.attr, m.chan, prev, act));
                    }
                    _ => {
                        self.problem(Interp::Unpaired);
                        return;
                    }
                }
                self.st.v[dst] = v;
            }
            op::V_INTERP_P2_F32_E32 => {
                let Some(src) = Self::vreg(inst, 1) else {
                    self.problem(Interp::Form);
                    return;
                };
                let j = self.st.v[src];
                let d = self.st.v[dst];
                // The same EXEC as at the p1 (a lane on now but off then
                // would add to the register's older value).
                let act = self.active();
                let pair = match (self.ps.p1.get(&d), self.ps.bary.get(&j)) {
                    (Some(&(b, attr, chan, prev, a1)), Some(&(bj, 1)))
                        if b == bj && attr == m.attr && chan == m.chan && a1 == act =>
                    {
                        Some((b, prev))
                    }
                    _ => None,
                };
                let Some((b, prev)) = pair else {
                    self.problem(Interp::Unpaired);
                    return;
                };
                let v = self.interp_value(m.attr, m.chan, InterpMode::Bary(b), None);
                self.set_interp(dst, v, prev);
            }
            op::V_INTERP_MOV_F32_E32 => {
                // vsrc is the parameter slot: 0 p10, 1 p20, 2 p0.
                match inst.operands.get(1).map(|s| s.op) {
                    Some(Operand::Imm(2)) => {
                        let prev = self.st.v[dst];
                        let v = self.interp_value(m.attr, m.chan, InterpMode::Flat, None);
                        self.set_interp(dst, v, prev);
                    }
                    _ => self.problem(Interp::MovParam),
                }
            }
            _ => self.problem(Interp::Form),
        }
    }

    /// The host input for channel `chan` of `attr` (`f16`: the half of
    /// the word whose f16 value it is), after checking the attribute is
    /// interpolated one way only; `None` after a conflict (a problem).
    fn interp_value(
        &mut self,
        attr: u8,
        chan: u8,
        mode: InterpMode,
        f16: Option<bool>,
    ) -> Option<Value> {
        match self.ps.modes.get(&attr) {
            Some(&m) if m != (mode, f16) => {
                self.problem(Interp::ModeConflict { attr });
                return None;
            }
            _ => {
                self.ps.modes.insert(attr, (mode, f16));
            }
        }
        Some(self.b.input(Input::Interp {
            attr,
            chan,
            mode,
            f16,
        }))
    }

    /// `v` into `dst` in the active lanes; the others keep `prev`.
    fn set_interp(&mut self, dst: usize, v: Option<Value>, prev: Value) {
        let Some(v) = v else { return };
        let act = self.active();
        self.st.v[dst] = if self.undefined.contains(&prev) {
            v
        } else {
            self.b.select(act, v, prev)
        };
    }

    /// `v_interp_p1ll_f16 d, i, attrN.c [high]` (VOP3): `d` (f32) =
    /// `P10·i + P0` of the f16s in one half of the channel's parameter
    /// words; and `v_interp_p2_f16 d, j, attrN.c, s2 [high]`: the f16
    /// `P20·j + s2` into the low half of `d` (`op_sel` bit 3: the high
    /// half), the other half keeping its bits. A `p2_f16` whose `s2` holds
    /// a `p1ll_f16` of the same attribute channel and half with the i of
    /// the pair whose j it reads, under the same EXEC, is the host's f32
    /// interpolation of that
    /// half's value ([`Input::Interp`] with `f16`), rounded to f16 (nearest
    /// even). Modifiers (`neg`, `abs`, `clamp`, `omod`) are refused, and so
    /// is `v_interp_p1lv_f16` (its P0 comes from a VGPR).
    fn interp16(&mut self, code: isa::Opcode, inst: &Instruction) {
        let Modifiers::Vop3(m) = inst.mods else {
            self.problem(Interp::Form);
            return;
        };
        let ops = inst.operands.as_slice();
        let attr = ops.iter().find_map(|s| match s.op {
            Operand::Imm(a) if s.is_use() => Some(a as u32),
            _ => None,
        });
        let p2 = code == op::V_INTERP_P2_F16;
        let (Some(dst), Some(src), Some(a)) = (Self::vreg(inst, 0), Self::vreg(inst, 1), attr)
        else {
            self.problem(Interp::Form);
            return;
        };
        let plain = ops.iter().all(|s| s.mods.is_empty());
        if m.clamp || m.omod != 0 || (m.opsel_dst && !p2) || !plain {
            self.problem(Interp::Form);
            return;
        }
        let (attr, chan, high) = ((a & 0x3f) as u8, ((a >> 6) & 3) as u8, m.high);
        let bary = self.ps.bary.get(&self.st.v[src]).copied();
        if !p2 {
            let Some((b, 0)) = bary else {
                self.problem(Interp::Unpaired);
                return;
            };
            let v = self.unsup(Ty::U32, Interp::Partial);
            let act = self.active();
            self.ps.p1_16.insert(v, (b, attr, chan, high, act));
            self.st.v[dst] = v;
            return;
        }
        let Some(s2) = Self::vreg(inst, 3) else {
            self.problem(Interp::Form);
            return;
        };
        // The same EXEC as at the p1 (a lane on now but off then would
        // read the register's older value as s2).
        let act = self.active();
        let b = match (self.ps.p1_16.get(&self.st.v[s2]), bary) {
            (Some(&(b, at, ch, hi, a1)), Some((bj, 1)))
                if b == bj && at == attr && ch == chan && hi == high && a1 == act =>
            {
                b
            }
            _ => {
                self.problem(Interp::Unpaired);
                return;
            }
        };
        // Negative control: the other half of the parameter words.
        let half = high ^ self.o.ps_faults.interp16_other_half;
        let Some(v) = self.interp_value(attr, chan, InterpMode::Bary(b), Some(half)) else {
            return;
        };
        let h = self.f32_to_f16(v);
        let old = self.st.v[dst];
        let r = self.merge16(old, h, m.opsel_dst);
        self.set_interp(dst, Some(r), old);
    }

    /// The vector ALU instructions of this file; false for the others.
    pub(super) fn ps_valu(&mut self, code: isa::Opcode, inst: &Instruction) -> bool {
        match code {
            op::V_CVT_PKRTZ_F16_F32 => self.cvt_pkrtz(inst),
            op::V_INTERP_P1LL_F16 | op::V_INTERP_P2_F16 => self.interp16(code, inst),
            _ => return false,
        }
        true
    }

    /// The scalar ALU instructions of this file; false for the others.
    pub(super) fn ps_salu(&mut self, code: isa::Opcode, inst: &Instruction) -> bool {
        match code {
            op::S_WQM_B32 | op::S_WQM_B64 => self.wqm(code, inst),
            _ => return false,
        }
        true
    }

    /// After a scalar instruction: when it wrote EXEC and SCC (a mask
    /// operation on EXEC, as ACO's discard `s_andn2 exec, exec, s` is),
    /// remember that SCC says whether any lane of that EXEC is on.
    pub(super) fn ps_after_salu(
        &mut self,
        inst: &Instruction,
        scc_before: Value,
        exec_before: (super::state::Sgpr, super::state::Sgpr),
    ) {
        let f = inst.opcode.facts();
        // Logic operations writing EXEC and exec updates (saveexec,
        // wrexec) set SCC to "new EXEC != 0"; other writers (adds'
        // carries) do not say that.
        let logic_to_exec = f.logic.is_some()
            && inst
                .operands
                .iter()
                .any(|s| s.is_def() && matches!(s.op, Operand::Reg { code: 126, .. }));
        if logic_to_exec && self.o.ps_faults.drop_discard {
            // Negative control: the EXEC write never happened.
            (self.st.s[126], self.st.s[127]) = exec_before;
            self.st.scc = self.b.bool(true);
            return;
        }
        if (logic_to_exec || f.exec.is_some()) && self.st.scc != scc_before {
            let act = self.active();
            // Negative control: the EXEC the operation replaced stands for
            // the one it wrote where EXEC raises are checked.
            let checked = if self.o.ps_faults.discard_branch_exec_before {
                let now = (self.st.s[126], self.st.s[127]);
                (self.st.s[126], self.st.s[127]) = exec_before;
                let before = self.active();
                (self.st.s[126], self.st.s[127]) = now;
                before
            } else {
                act
            };
            self.ps.exec_scc = Some((self.st.scc, act, checked));
        }
    }

    /// `s_cbranch_scc0/scc1` on the SCC of an EXEC write
    /// ([`Self::ps_after_salu`]): like `s_cbranch_execz/execnz` just after
    /// it, a per-lane branch on this lane's bit (taken by the lanes that
    /// are off for `scc0`). The hardware branches when every lane is off;
    /// a lane that is off follows the branch or skips the code with its
    /// exec bit off, so its VGPRs and exports see the same, as for execz.
    /// `None` when SCC is anything else.
    pub(super) fn exec_scc_branch(&mut self, scc1: bool) -> Option<(Value, bool)> {
        let (scc, act, checked) = self.ps.exec_scc?;
        if scc != self.st.scc || self.o.stage != isa::Stage::Ps {
            return None;
        }
        let div = self.b.func.konst(act).is_none();
        // The lanes inside either side of the region are told apart by
        // `act`, as at `s_cbranch_execz/execnz`: EXEC raises there are
        // checked against it (a discard's region: a raise must not turn a
        // discarded lane back on).
        self.exec_at_branch = Some(checked);
        Some(if scc1 {
            (act, div)
        } else {
            (self.b.un(Un::BNot, act), div)
        })
    }

    /// `s_wqm_b32/b64` of a lane mask (the width of the wave's masks):
    /// exact when every lane's bit is known to be on (a pixel shader's
    /// entry exec, where the host runs every lane of the quad too); any
    /// other mask needs the quad's other lanes.
    fn wqm(&mut self, code: isa::Opcode, inst: &Instruction) {
        let wide = code == op::S_WQM_B64;
        let ops = inst.operands.as_slice();
        let dst = ops.iter().find(|s| s.is_def()).map(|s| s.op);
        let src = ops.iter().find(|s| s.is_use() && !s.is_def()).map(|s| s.op);
        let (Some(Operand::Reg { code: d, .. }), Some(src)) = (dst, src) else {
            self.problem(Form::NotAMask);
            return;
        };
        if wide != self.o.wave64 || !self.is_mask_operand(src) {
            self.problem(Form::NotAMask);
            return;
        }
        let bit = self.mask_operand(src);
        if self.b.func.konst(bit) == Some(1) {
            self.write_mask(d as usize, bit);
            self.st.scc = self.b.bool(true);
        } else {
            let u = self.unsup(Ty::Bool, CrossLane::WholeQuad);
            self.write_mask(d as usize, u);
            self.st.scc = self.unsup(Ty::Bool, CrossLane::WholeQuad);
        }
    }

    /// DPP16 in a pixel shader: the source position of each quad position
    /// when the control is `quad_perm` writing every lane (all rows and
    /// banks enabled) and every source lane is fetched (`fi`, or every lane
    /// known to be on). Then src0 is [`LaneOp::Quad`] of the register and
    /// the instruction is otherwise an ordinary VOP1/VOP2/VOPC. `None` for
    /// any other DPP form (the row shifts, rotations, mirrors, shares,
    /// DPP8, a fetch that depends on other lanes' EXEC bits).
    pub(super) fn dpp_quad(&mut self, inst: &Instruction) -> Option<[u8; 4]> {
        if self.o.stage != isa::Stage::Ps {
            return None;
        }
        let Modifiers::Dpp16(m) = inst.mods else {
            return None;
        };
        let isa::family::vop_ext::DppCtrl::QuadPerm(mut perm) = m.ctrl else {
            return None;
        };
        let rows = if self.o.wave64 { 0xf } else { 0x3 };
        if m.row_mask & rows != rows || m.bank_mask & 0xf != 0xf {
            return None;
        }
        let act = self.active();
        if !m.fi && self.b.func.konst(act) != Some(1) {
            return None;
        }
        if self.o.ps_faults.quad_lane_flipped {
            // Negative control: the horizontal neighbour of the named lane.
            for p in &mut perm {
                *p ^= 1;
            }
        }
        Some(perm.map(|p| p & 3))
    }

    /// The DPP `quad_perm` source operand `s` (a VGPR): the register's value
    /// in the quad lane `perm` names, then `s`'s modifiers and selection.
    pub(super) fn dpp_quad_src(
        &mut self,
        s: &isa::Slot,
        sel: Option<(u32, u32)>,
        perm: [u8; 4],
    ) -> Value {
        let Operand::Reg { code, .. } = s.op else {
            return self.unsup(Ty::U32, CrossLane::Dpp);
        };
        let Some(r) = (code as usize).checked_sub(256).filter(|&r| r < 256) else {
            return self.unsup(Ty::U32, CrossLane::Dpp);
        };
        let old = self.st.v[r];
        // The identity permutation, or a value every lane holds.
        let q = if perm == [0, 1, 2, 3] || self.uniform(old) {
            old
        } else {
            self.b
                .load(Load::Lanes(self.pc, LaneOp::Quad { value: old, perm }))
        };
        self.st.v[r] = q;
        let v = self.src_sel(s, sel);
        self.st.v[r] = old;
        v
    }

    /// `v_cvt_pkrtz_f16_f32` (VOP2, or VOP3 without clamp/omod/op_sel):
    /// both f32 sources rounded toward zero to f16, packed low/high.
    pub(super) fn cvt_pkrtz(&mut self, inst: &Instruction) {
        if let Modifiers::Vop3(m) = inst.mods {
            if m.clamp || m.omod != 0 || m.opsel_dst {
                self.problem(Form::Vop3Modifier);
                return;
            }
        }
        if !matches!(
            inst.family,
            isa::Family::Vop1 | isa::Family::Vop2 | isa::Family::Vop3
        ) {
            self.problem(Form::Vop3Modifier);
            return;
        }
        let ops = inst.operands.as_slice();
        let Some(d) = ops.iter().find(|s| s.is_def()).copied() else {
            self.problem(Form::Vop3Modifier);
            return;
        };
        let srcs: Vec<_> = ops.iter().filter(|s| s.is_use()).copied().collect();
        if srcs.len() != 2 {
            self.problem(Form::Vop3Modifier);
            return;
        }
        let a = self.src(&srcs[0]);
        let b = self.src(&srcs[1]);
        let lo = self.f32_to_f16_rtz(a);
        let hi = self.f32_to_f16_rtz(b);
        let sh = self.const_u32(16);
        let hi = self.b.bin(Bin::Shl, hi, sh);
        let v = self.b.bin(Bin::Or, lo, hi);
        self.write_v(&d, 0, v);
    }

    fn sel_u32(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.b.select(c, a, b)
    }

    /// f32 bits to f16 bits, rounding toward zero (f32 denormals and
    /// anything below the smallest f16 denormal give a signed 0; finite
    /// values past the f16 range give the largest finite f16; NaN gives
    /// the quiet NaN `0x7e00` with the sign).
    pub(super) fn f32_to_f16_rtz(&mut self, x: Value) -> Value {
        let k = |l: &mut Self, c: u32| l.const_u32(c);
        let c16 = k(self, 16);
        let c8000 = k(self, 0x8000);
        let t = self.b.bin(Bin::ShrL, x, c16);
        let s = self.b.bin(Bin::And, t, c8000);
        let c23 = k(self, 23);
        let cff = k(self, 0xff);
        let t = self.b.bin(Bin::ShrL, x, c23);
        let e = self.b.bin(Bin::And, t, cff);
        let cm = k(self, 0x7f_ffff);
        let m = self.b.bin(Bin::And, x, cm);
        // Normal f16: e in 113..=142.
        let c112 = k(self, 112);
        let c10 = k(self, 10);
        let c13 = k(self, 13);
        let eb = self.b.bin(Bin::Sub, e, c112);
        let eb = self.b.bin(Bin::Shl, eb, c10);
        let mh = self.b.bin(Bin::ShrL, m, c13);
        let normal = self.b.bin(Bin::Or, eb, mh);
        // Denormal f16: e in 103..=112: (m | 1<<23) >> (126 - e).
        let c800 = k(self, 0x80_0000);
        let sig = self.b.bin(Bin::Or, m, c800);
        let c126 = k(self, 126);
        let sh = self.b.bin(Bin::Sub, c126, e);
        let den = self.b.bin(Bin::ShrL, sig, sh);
        let zero = k(self, 0);
        let c103 = k(self, 103);
        let c113 = k(self, 113);
        let c143 = k(self, 143);
        let tiny = self.b.bin(Bin::ICmp(crate::ir::ICmp::ULt), e, c103);
        let is_den = self.b.bin(Bin::ICmp(crate::ir::ICmp::ULt), e, c113);
        let big = self.b.bin(Bin::ICmp(crate::ir::ICmp::ULe), c143, e);
        let is_special = self.b.bin(Bin::ICmp(crate::ir::ICmp::Eq), e, cff);
        let m_zero = self.b.bin(Bin::ICmp(crate::ir::ICmp::Eq), m, zero);
        let c7bff = k(self, 0x7bff);
        let c7c00 = k(self, 0x7c00);
        let c7e00 = k(self, 0x7e00);
        let special = self.sel_u32(m_zero, c7c00, c7e00);
        let r = self.sel_u32(big, c7bff, normal);
        let r = self.sel_u32(is_special, special, r);
        let r = self.sel_u32(is_den, den, r);
        let r = self.sel_u32(tiny, zero, r);
        self.b.bin(Bin::Or, s, r)
    }

    /// f16 bits (the low 16 bits of `h`) to f32 bits, exactly.
    pub(super) fn f16_to_f32(&mut self, h: Value) -> Value {
        let k = |l: &mut Self, c: u32| l.const_u32(c);
        let c8000 = k(self, 0x8000);
        let c16 = k(self, 16);
        let t = self.b.bin(Bin::And, h, c8000);
        let s = self.b.bin(Bin::Shl, t, c16);
        let c10 = k(self, 10);
        let c1f = k(self, 0x1f);
        let t = self.b.bin(Bin::ShrL, h, c10);
        let e = self.b.bin(Bin::And, t, c1f);
        let c3ff = k(self, 0x3ff);
        let m = self.b.bin(Bin::And, h, c3ff);
        let c13 = k(self, 13);
        let m13 = self.b.bin(Bin::Shl, m, c13);
        // Normal: (e + 112) << 23 | m << 13.
        let c112 = k(self, 112);
        let c23 = k(self, 23);
        let eb = self.b.bin(Bin::Add, e, c112);
        let eb = self.b.bin(Bin::Shl, eb, c23);
        let normal = self.b.bin(Bin::Or, eb, m13);
        // Inf/NaN.
        let c7f8 = k(self, 0x7f80_0000);
        let special = self.b.bin(Bin::Or, c7f8, m13);
        // Denormal (or zero): m · 2^-24, exact.
        let mf = self.b.un(Un::F32FromU32, m);
        let scale = k(self, 0x3380_0000);
        let scale = self.b.un(Un::AsF32, scale);
        let df = self.b.bin(Bin::FMul, mf, scale);
        let den = self.b.un(Un::AsU32, df);
        let zero = k(self, 0);
        let is_den = self.b.bin(Bin::ICmp(crate::ir::ICmp::Eq), e, zero);
        let is_special = self.b.bin(Bin::ICmp(crate::ir::ICmp::Eq), e, c1f);
        let r = self.sel_u32(is_special, special, normal);
        let r = self.sel_u32(is_den, den, r);
        self.b.bin(Bin::Or, s, r)
    }

    /// The four f32 values of a compressed colour export: `vsrc0` holds
    /// components 0 (low half) and 1, `vsrc1` components 2 and 3 (isa
    /// lists the sources as `vsrc0, vsrc0, vsrc1, vsrc1`, so source c
    /// holds component c).
    pub(super) fn compressed_values(
        &mut self,
        inst: &Instruction,
        en: u8,
    ) -> Option<[Option<Value>; 4]> {
        let mut out = [None; 4];
        for (c, o) in out.iter_mut().enumerate() {
            if en & (1 << c) == 0 {
                continue;
            }
            let Some(r) = Self::vreg(inst, c) else {
                self.problem(Export::Compressed);
                return None;
            };
            let w = self.st.v[r];
            let h = if c % 2 == 1 {
                let c16 = self.const_u32(16);
                self.b.bin(Bin::ShrL, w, c16)
            } else {
                w
            };
            *o = Some(self.f16_to_f32(h));
        }
        Some(out)
    }
}

/// Pixel shaders: move every quad operation ([`LaneOp::Quad`]) to just
/// after the definition of the value it reads (the start of the entry block
/// for a constant or an input, of the block for a block parameter). The
/// value is one SSA value, so every lane of the quad holds it from its
/// definition on: reading it there gives what the hardware's DPP reads
/// later, also where the DPP sits in a per-lane region some of the quad's
/// lanes skip on the host (the hardware's lanes with EXEC off still hold
/// the register, and `fi` fetches it). Uses stay dominated (the definition
/// dominates the old place). Whether the new place is quad-uniform is
/// checked afterwards ([`crate::wave::uniform::check`]).
pub(crate) fn hoist_quads(f: &mut crate::ir::Func) {
    use crate::ir::{Block, Op};
    let quads: Vec<(Value, Value)> = (0..f.insts.len())
        .filter_map(|i| match f.insts[i].op {
            Op::Load(l) => match f.loads[l as usize] {
                Load::Lanes(_, LaneOp::Quad { value, .. }) => Some((Value(i as u32), value)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let find = |f: &crate::ir::Func, v: Value| -> Option<(usize, usize)> {
        f.blocks
            .iter()
            .enumerate()
            .find_map(|(b, d)| d.insts.iter().position(|&x| x == v).map(|i| (b, i)))
    };
    for (q, value) in quads {
        let at = match f.inst(value).op {
            Op::Const(_) | Op::Input(_) => Some((0, 0)),
            Op::BlockParam(Block(b), _) => Some((b as usize, 0)),
            _ => find(f, value).map(|(b, i)| (b, i + 1)),
        };
        let (Some((to, idx)), Some((from, old))) = (at, find(f, q)) else {
            continue;
        };
        f.blocks[from].insts.remove(old);
        let idx = if from == to && old < idx {
            idx - 1
        } else {
            idx
        };
        f.blocks[to].insts.insert(idx, q);
    }
}
