//! VOP3P: the mixed-precision fused multiply-adds (`v_fma_mix_f32`,
//! `v_fma_mixlo_f16`, `v_fma_mixhi_f16`). Each source is an f32, or (with
//! its `op_sel_hi` bit) an f16 from the half `op_sel` picks, widened
//! exactly; `neg`/`abs` (`neg_hi`) apply to the widened value; the fma is
//! f32, clamped in f32, and the `lo`/`hi` forms round it to f16 (nearest
//! even) into one half of the destination, keeping the other half.
//! The other packed opcodes stay refused.

use super::format::{f32_to_f16, small_float};
use super::Lifter;
use crate::ir::{Bin, Tri, Ty, Un, Value};
use crate::{Construct, Form};
use isa::operand::{inline_b32, inline_f16};
use isa::{op, Instruction, Modifiers, OpMods, Opcode, Operand, Slot};

impl Lifter<'_> {
    pub(super) fn vop3p(&mut self, code: Opcode, inst: &Instruction) {
        let half = match code {
            op::V_FMA_MIX_F32 => None,
            op::V_FMA_MIXLO_F16 => Some(false),
            op::V_FMA_MIXHI_F16 => Some(true),
            _ => {
                self.problem(Construct::PackedMath);
                return;
            }
        };
        let clamp = matches!(inst.mods, Modifiers::Vop3p(m) if m.clamp);
        let ops = inst.operands.as_slice();
        let Some(dst) = ops.iter().find(|s| s.is_def()).copied() else {
            self.problem(Form::MissingOperand);
            return;
        };
        let srcs: Vec<Slot> = ops
            .iter()
            .filter(|s| s.is_use() && !s.is_def())
            .copied()
            .collect();
        if srcs.len() < 3 {
            self.problem(Form::MissingOperand);
            return;
        }
        let mut x = [Value(0); 3];
        for (i, s) in srcs.iter().take(3).enumerate() {
            let Some(v) = self.mix_source(s) else {
                self.problem(Form::UnknownInlineConstant);
                return;
            };
            x[i] = v;
        }
        let [a, b, c] = x.map(|v| self.b.un(Un::AsF32, v));
        let mut r = self.b.tri(Tri::Fma, a, b, c);
        if clamp {
            let z = self.b.konst(Ty::F32, 0);
            let one = self.b.konst(Ty::F32, 1.0f32.to_bits());
            let t = self.b.bin(Bin::FMax, r, z);
            r = self.b.bin(Bin::FMin, t, one);
        }
        // The interpreter's NaN is the positive quiet one (its f16 form
        // 0x7e00), whatever NaN the device makes.
        let nan = self.b.un(Un::IsNan, r);
        let r = self.b.un(Un::AsU32, r);
        let qnan = self.const_u32(0x7fc0_0000);
        let r = self.b.select(nan, qnan, r);
        let value = match half {
            None => r,
            Some(hi) => {
                let h = f32_to_f16(&mut self.b, r, !self.o.alu_faults.mix_round_toward_zero);
                let old = match dst.op {
                    Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
                    _ => self.const_u32(0),
                };
                // An undefined entry value's kept half may be anything.
                let old = if self.undefined.contains(&old) {
                    self.const_u32(0)
                } else {
                    old
                };
                let keep = self.const_u32(if hi { 0xffff } else { 0xffff_0000 });
                let kept = self.b.bin(Bin::And, old, keep);
                let h = if hi {
                    let s16 = self.const_u32(16);
                    self.b.bin(Bin::Shl, h, s16)
                } else {
                    h
                };
                self.b.bin(Bin::Or, kept, h)
            }
        };
        self.write_v(&dst, 0, value);
    }

    /// One `v_fma_mix*` source as f32 bits, with its modifiers.
    fn mix_source(&mut self, s: &Slot) -> Option<Value> {
        let f16 = s.mods.contains(OpMods::OP_SEL_HI);
        let raw = match s.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            Operand::Reg { code, .. } => self.read_s32(code),
            Operand::Inline(c) if f16 => self.const_u32(inline_f16(c)? as u32),
            Operand::Inline(c) => self.const_u32(inline_b32(c)?),
            Operand::Literal(x) => self.const_u32(x),
            Operand::Imm(i) => self.const_u32(i as u32),
            Operand::Off => self.const_u32(0),
        };
        let mut v = if f16 {
            let h = if s.mods.contains(OpMods::OP_SEL) && !matches!(s.op, Operand::Inline(_)) {
                let s16 = self.const_u32(16);
                self.b.bin(Bin::ShrL, raw, s16)
            } else {
                raw
            };
            let m = self.const_u32(0xffff);
            let h = self.b.bin(Bin::And, h, m);
            small_float(&mut self.b, h, 10, true)
        } else {
            raw
        };
        if s.mods.intersects(OpMods::ABS | OpMods::NEG_HI) {
            let m = self.const_u32(0x7fff_ffff);
            v = self.b.bin(Bin::And, v, m);
        }
        if s.mods.contains(OpMods::NEG) {
            let m = self.const_u32(0x8000_0000);
            v = self.b.bin(Bin::Xor, v, m);
        }
        Some(v)
    }
}
