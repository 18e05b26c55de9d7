//! Compute shaders: what a lane can compute from its own position in the
//! wave, with no other lane's value. The host invocation's flat local
//! index gives the guest lane (`index mod lanes`; a workgroup packs its
//! invocations into waves in order), so `v_mbcnt_lo/hi` of a uniform word
//! and a uniform word read as a lane mask (this lane's bit of it) are
//! exact. Reading a lane mask as a word (a ballot), `v_readlane`,
//! `v_readfirstlane` of a non-uniform VGPR, DPP and LDS still need the
//! other lanes and stay refused.

use super::Lifter;
use crate::ir::{Bin, ICmp, Input, Un, Value};
use crate::Form;
use isa::{op, Instruction, Modifiers, Opcode, Slot};

impl Lifter<'_> {
    /// This lane's number in its wave (compute shaders only).
    pub(super) fn lane_id(&mut self) -> Value {
        let index = self.b.input(Input::LocalIndex);
        let m = self.const_u32(if self.o.wave64 { 63 } else { 31 });
        self.b.bin(Bin::And, index, m)
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
            _ => return false,
        };
        if let Modifiers::Vop3(m) = inst.mods {
            if m.omod != 0 || m.opsel_dst || m.clamp {
                self.problem(Form::Vop3Modifier);
                return true;
            }
        }
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops
            .iter()
            .filter(|s| s.is_use() && !s.is_def())
            .copied()
            .collect();
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
}
