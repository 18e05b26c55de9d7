//! Compute shaders: what a lane can compute from its own position in the
//! wave, with no other lane's value. The host invocation's flat local
//! index gives the guest lane (`index mod lanes`; a workgroup packs its
//! invocations into waves in order), so `v_mbcnt_lo/hi` of a uniform word
//! and a uniform word read as a lane mask (this lane's bit of it) are
//! exact. Reading a lane mask as a word (a ballot), `v_readlane`,
//! `v_readfirstlane` of a non-uniform VGPR, DPP and LDS still need the
//! other lanes and stay refused.

use super::Lifter;
use crate::ir::{Bin, ICmp, Input, LaneOp, Load, Un, Value};
use crate::Form;
use isa::{op, Instruction, Modifiers, OpMods, Opcode, Operand};

impl Lifter<'_> {
    /// This lane's number in its wave (compute shaders only).
    pub(super) fn lane_id(&mut self) -> Value {
        let index = self.b.input(Input::LocalIndex);
        let m = self.const_u32(if self.o.wave64 { 63 } else { 31 });
        self.b.bin(Bin::And, index, m)
    }

    /// Whether the compute workgroup ends mid-wave (its last wave has
    /// fewer lanes than the wave size).
    pub(super) fn partial_wave(&self) -> bool {
        let lanes = if self.o.wave64 { 64 } else { 32 };
        self.o
            .compute
            .is_some_and(|c| c.invocations().is_none_or(|n| n % lanes != 0))
    }

    /// The low or high word of the wave's mask of `bit` (a ballot).
    pub(super) fn ballot(&mut self, bit: Value, hi: bool) -> Value {
        if self.b.func.konst(bit) == Some(0) {
            return self.const_u32(0);
        }
        if hi && !self.o.wave64 {
            return self.const_u32(0);
        }
        self.b
            .load(Load::Lanes(self.pc, LaneOp::Ballot { bit, hi }))
    }

    /// Whether any lane of the wave has `bit` set (Bool).
    pub(super) fn any_lane_of(&mut self, bit: Value) -> Value {
        let lo = self.ballot(bit, false);
        let w = if self.o.wave64 {
            let hi = self.ballot(bit, true);
            self.b.bin(Bin::Or, lo, hi)
        } else {
            lo
        };
        let zero = self.const_u32(0);
        self.b.icmp(ICmp::Ne, w, zero)
    }

    /// This lane's bit of the mask whose low word is `lo` and high word `hi`
    /// (wave32: `lo` alone).
    pub(super) fn lane_bit_of_words(&mut self, lo: Value, hi: Option<Value>) -> Value {
        let lane = self.lane_id();
        let k31 = self.const_u32(31);
        let sh = self.b.bin(Bin::And, lane, k31);
        let word = match hi {
            Some(hi) if self.o.wave64 => {
                let k32 = self.const_u32(32);
                let upper = self.b.icmp(ICmp::ULe, k32, lane);
                self.b.select(upper, hi, lo)
            }
            _ => lo,
        };
        let w = self.b.bin(Bin::ShrL, word, sh);
        let one = self.const_u32(1);
        let bit = self.b.bin(Bin::And, w, one);
        let zero = self.const_u32(0);
        self.b.icmp(ICmp::Ne, bit, zero)
    }

    /// `v_mbcnt_lo_u32_b32`/`v_mbcnt_hi_u32_b32` in a compute shader: the
    /// bits of `src0` at lanes below this one (in the low or high half of
    /// the wave) plus `src1`. Returns false for anything else.
    pub(super) fn lane_op(&mut self, code: Opcode, inst: &Instruction) -> bool {
        let hi = match code {
            op::V_MBCNT_LO_U32_B32 => false,
            op::V_MBCNT_HI_U32_B32 => true,
            op::V_READFIRSTLANE_B32 | op::V_READLANE_B32 => return self.read_lane(code, inst),
            op::V_WRITELANE_B32 => return self.write_lane(inst),
            op::V_PERMLANE16_B32 | op::V_PERMLANEX16_B32 => {
                return self.permlane16(inst, code == op::V_PERMLANEX16_B32)
            }
            _ => return false,
        };
        if let Modifiers::Vop3(m) = inst.mods {
            if m.omod != 0 || m.opsel_dst || m.clamp {
                self.problem(Form::Vop3Modifier);
                return true;
            }
        }
        let (defs, srcs) = super::defs_and_srcs(inst);
        let (Some(dst), [s0, s1, ..]) = (defs.first(), srcs.as_slice()) else {
            self.problem(Form::Vop3Modifier);
            return true;
        };
        let a = self.src(s0);
        let b = self.src(s1);
        let lane = self.lane_id();
        let k31 = self.const_u32(31);
        let k32 = self.const_u32(32);
        let one = self.const_u32(1);
        let zero = self.const_u32(0);
        let ones = self.const_u32(u32::MAX);
        let upper = self.b.icmp(ICmp::ULe, k32, lane);
        let pos = self.b.bin(Bin::And, lane, k31);
        let bit = self.b.bin(Bin::Shl, one, pos);
        let below = self.b.bin(Bin::Sub, bit, one);
        // The negative control's broken rule: lanes at or below.
        let below = if self.o.faults.mbcnt_at_or_below {
            self.b.bin(Bin::Or, below, bit)
        } else {
            below
        };
        // The lanes counted in this half: all of the low half for an upper
        // lane, none of the high half for a lower one.
        let mask = match hi {
            false => self.b.select(upper, ones, below),
            true => self.b.select(upper, below, zero),
        };
        let counted = self.b.bin(Bin::And, a, mask);
        let n = self.b.un(Un::CountOnes, counted);
        let r = self.b.add(n, b);
        self.write_v(dst, 0, r);
        true
    }

    /// `v_readfirstlane_b32`/`v_readlane_b32` of a value that may differ
    /// between lanes (a uniform one is the VALU lifter's plain copy).
    fn read_lane(&mut self, code: Opcode, inst: &Instruction) -> bool {
        let plain = match inst.mods {
            Modifiers::None => true,
            Modifiers::Vop3(m) => m == isa::family::vop::Vop3Mods::default(),
            _ => false,
        };
        if !plain {
            return false;
        }
        let (defs, srcs) = super::defs_and_srcs(inst);
        let (Some(dst), Some(s0)) = (defs.first(), srcs.first()) else {
            return false;
        };
        let value = self.src(s0);
        if self.uniform(value) {
            return false;
        }
        let r = if code == op::V_READFIRSTLANE_B32 {
            let active = self.active();
            self.b
                .load(Load::Lanes(self.pc, LaneOp::ReadFirst { value, active }))
        } else {
            let Some(s1) = srcs.get(1) else {
                return false;
            };
            let lane = self.src(s1);
            self.b
                .load(Load::Lanes(self.pc, LaneOp::ReadLane { value, lane }))
        };
        self.write_v(dst, 0, r);
        true
    }

    /// `v_writelane_b32 vD, s0, s1`: lane `s1 mod lanes` of vD takes the
    /// uniform `s0`, whatever EXEC says; the other lanes keep vD. Only this
    /// lane's number is needed.
    fn write_lane(&mut self, inst: &Instruction) -> bool {
        if !matches!(inst.mods, Modifiers::None | Modifiers::Vop3(_)) {
            return false;
        }
        if let Modifiers::Vop3(m) = inst.mods {
            if m.omod != 0 || m.opsel_dst || m.clamp {
                return false;
            }
        }
        let ops = inst.operands.as_slice();
        let Some(dst) = ops.iter().find(|s| s.is_def()).copied() else {
            return false;
        };
        let srcs = super::srcs_of(inst);
        let (Some(s0), Some(s1)) = (srcs.first(), srcs.get(1)) else {
            return false;
        };
        let isa::Operand::Reg { code, .. } = dst.op else {
            return false;
        };
        let Some(r) = (code as usize).checked_sub(256).filter(|&r| r < 256) else {
            return false;
        };
        let value = self.src(s0);
        let sel = self.src(s1);
        let mask = self.const_u32(if self.o.wave64 { 63 } else { 31 });
        let target = self.b.bin(Bin::And, sel, mask);
        let lane = self.lane_id();
        let mine = self.b.icmp(ICmp::Eq, lane, target);
        let old = self.st.v[r];
        self.st.v[r] = self.b.select(mine, value, old);
        true
    }

    /// `v_permlane16_b32`/`v_permlanex16_b32 vD, s0, s1, s2`: lane `i` of
    /// each row of 16 takes `s0` from lane `row + sel(i)` of its own row (x:
    /// of the other row of its 32), `sel(i)` the nibble `i mod 16` of
    /// `{s2, s1}`. A source lane EXEC has off gives the old `vD` (`0` with
    /// `bound_ctrl`, op_sel bit 1), unless `fetch_inactive` (op_sel bit 0)
    /// reads it anyway.
    fn permlane16(&mut self, inst: &Instruction, x: bool) -> bool {
        let plain = match inst.mods {
            Modifiers::Vop3(m) => !m.clamp && m.omod == 0 && !m.opsel_dst,
            Modifiers::None => true,
            _ => false,
        };
        if !plain {
            return false;
        }
        let ops = inst.operands.as_slice();
        let Some(dst) = ops.iter().find(|s| s.is_def()).copied() else {
            return false;
        };
        let srcs = super::srcs_of(inst);
        let [s0, s1, s2, ..] = srcs.as_slice() else {
            return false;
        };
        let Operand::Reg { code, .. } = dst.op else {
            return false;
        };
        let Some(r) = (code as usize).checked_sub(256).filter(|&r| r < 256) else {
            return false;
        };
        let fi = s0.mods.contains(OpMods::OP_SEL);
        let bc = s1.mods.contains(OpMods::OP_SEL);
        let value = self.src(s0);
        let lo = self.src(s1);
        let hi = self.src(s2);
        let lanes = if self.o.wave64 { 64 } else { 32 };
        let lane = self.lane_id();
        let k15 = self.const_u32(15);
        let k4 = self.const_u32(4);
        let k8 = self.const_u32(8);
        let nib = self.b.bin(Bin::And, lane, k15);
        let not15 = self.const_u32(!15);
        let mut row = self.b.bin(Bin::And, lane, not15);
        if x {
            let k16 = self.const_u32(16);
            let m = self.const_u32(lanes - 1);
            let t = self.b.bin(Bin::Xor, row, k16);
            row = self.b.bin(Bin::And, t, m);
        }
        let upper = self.b.icmp(ICmp::ULe, k8, nib);
        let word = self.b.select(upper, hi, lo);
        let k7 = self.const_u32(7);
        let n = self.b.bin(Bin::And, nib, k7);
        let sh = self.b.bin(Bin::Mul, n, k4);
        let t = self.b.bin(Bin::ShrL, word, sh);
        let sel = self.b.bin(Bin::And, t, k15);
        let from = self.b.add(row, sel);
        let got = self
            .b
            .load(Load::Lanes(self.pc, LaneOp::ReadLane { value, lane: from }));
        let result = if fi {
            got
        } else {
            let act = self.active();
            let a = self.b.un(Un::BoolToU32, act);
            let src_on = self.b.load(Load::Lanes(
                self.pc,
                LaneOp::ReadLane {
                    value: a,
                    lane: from,
                },
            ));
            let zero = self.const_u32(0);
            let on = self.b.icmp(ICmp::Ne, src_on, zero);
            let off = if bc { zero } else { self.st.v[r] };
            self.b.select(on, got, off)
        };
        self.write_v(&dst, 0, result);
        true
    }
}
