//! VOP3P: the mixed-precision fused multiply-adds (`v_fma_mix_f32`,
//! `v_fma_mixlo_f16`, `v_fma_mixhi_f16`). Each source is an f32, or (with
//! its `op_sel_hi` bit) an f16 from the half `op_sel` picks, widened
//! exactly; `neg`/`abs` (`neg_hi`) apply to the widened value; the fma is
//! f32, clamped in f32, and the `lo`/`hi` forms round it to f16 (nearest
//! even) into one half of the destination, keeping the other half.
//! `v_dot4_u32_u8`/`v_dot4_i32_i8` (`v_dot2_u32_u16`/`v_dot2_i32_i16`) sum
//! four byte (two half) products and the third source, wrapping, exactly in
//! 32-bit integers (`clamp` refused). The
//! packed 16-bit operations (`v_pk_*`) compute each result half from the
//! source halves `op_sel` (low result) and `op_sel_hi` (high result) pick,
//! f16 ones negated by `neg_lo`/`neg_hi`, with `half.rs`'s exact f16
//! arithmetic; an inline constant is its value in the low half (0 above).
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
            op::V_DOT4_U32_U8 | op::V_DOT4_I32_I8 | op::V_DOT2_U32_U16 | op::V_DOT2_I32_I16 => {
                self.dot(code, inst);
                return;
            }
            _ if packed_op(code).is_some() => {
                self.packed(code, inst);
                return;
            }
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
        let srcs = super::srcs_of(inst);
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
                self.merge16(old, h, hi)
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

/// The packed 16-bit operations, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pk {
    F(Bin),
    Fma,
    I(Bin),
    Mad,
    Shift(Bin),
}

fn packed_op(code: Opcode) -> Option<(Pk, bool)> {
    // (kind, signed)
    Some(match code {
        op::V_PK_ADD_F16 => (Pk::F(Bin::FAdd), false),
        op::V_PK_MUL_F16 => (Pk::F(Bin::FMul), false),
        op::V_PK_MAX_F16 => (Pk::F(Bin::FMax), false),
        op::V_PK_MIN_F16 => (Pk::F(Bin::FMin), false),
        op::V_PK_FMA_F16 => (Pk::Fma, false),
        op::V_PK_ADD_U16 | op::V_PK_ADD_I16 => (Pk::I(Bin::Add), false),
        op::V_PK_SUB_U16 | op::V_PK_SUB_I16 => (Pk::I(Bin::Sub), false),
        op::V_PK_MUL_LO_U16 => (Pk::I(Bin::Mul), false),
        op::V_PK_MAX_U16 => (Pk::I(Bin::UMax), false),
        op::V_PK_MIN_U16 => (Pk::I(Bin::UMin), false),
        op::V_PK_MAX_I16 => (Pk::I(Bin::SMax), true),
        op::V_PK_MIN_I16 => (Pk::I(Bin::SMin), true),
        op::V_PK_MAD_U16 => (Pk::Mad, false),
        op::V_PK_MAD_I16 => (Pk::Mad, true),
        op::V_PK_LSHLREV_B16 => (Pk::Shift(Bin::Shl), false),
        op::V_PK_LSHRREV_B16 => (Pk::Shift(Bin::ShrL), false),
        op::V_PK_ASHRREV_I16 => (Pk::Shift(Bin::ShrA), true),
        _ => return None,
    })
}

impl Lifter<'_> {
    fn vop3p_parts(&mut self, inst: &Instruction) -> Option<(Slot, Vec<Slot>, bool)> {
        let clamp = matches!(inst.mods, Modifiers::Vop3p(m) if m.clamp);
        let ops = inst.operands.as_slice();
        let dst = ops.iter().find(|s| s.is_def()).copied()?;
        let srcs = super::srcs_of(inst);
        Some((dst, srcs, clamp))
    }

    /// `v_dot4_u32_u8` / `v_dot4_i32_i8` / `v_dot2_u32_u16` /
    /// `v_dot2_i32_i16`: the byte (half) products summed with the third
    /// source, wrapping. `clamp` (saturation) is refused: the differential
    /// test does not run it.
    fn dot(&mut self, code: Opcode, inst: &Instruction) {
        let Some((dst, srcs, clamp)) = self.vop3p_parts(inst) else {
            self.problem(Form::MissingOperand);
            return;
        };
        if clamp {
            self.problem(Form::IntegerClamp);
            return;
        }
        if srcs.len() < 3 || srcs.iter().any(|s| s.mods != OpMods::OP_SEL_HI) {
            self.problem(Form::OperandSelection);
            return;
        }
        let (parts, width) = match code {
            op::V_DOT2_U32_U16 | op::V_DOT2_I32_I16 => (2u32, 16u32),
            _ => (4, 8),
        };
        let signed = matches!(code, op::V_DOT4_I32_I8 | op::V_DOT2_I32_I16)
            || (code == op::V_DOT4_U32_U8 && self.o.alu_faults.dot4_bytes_signed);
        let [a, b, c] = [0, 1, 2].map(|i| {
            let mut s = srcs[i];
            s.mods = OpMods::empty();
            self.src(&s)
        });
        let mut sum = c;
        for k in 0..parts {
            let part = |l: &mut Self, x: Value| {
                let up = l.const_u32(32 - width * (k + 1));
                let t = l.b.bin(Bin::Shl, x, up);
                let down = l.const_u32(32 - width);
                l.b.bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, down)
            };
            let (x, y) = (part(self, a), part(self, b));
            let p = self.b.bin(Bin::Mul, x, y);
            sum = self.b.add(sum, p);
        }
        self.write_v(&dst, 0, sum);
    }

    /// One 16-bit half of a packed source (low bits), for result half `k`.
    fn pk_half(&mut self, s: &Slot, k: usize, float: bool) -> Option<Value> {
        let sel = if k == 0 {
            s.mods.contains(OpMods::OP_SEL)
        } else {
            s.mods.contains(OpMods::OP_SEL_HI) && !self.o.alu_faults.packed_op_sel_hi_ignored
        };
        let neg = s
            .mods
            .contains(if k == 0 { OpMods::NEG } else { OpMods::NEG_HI });
        if s.mods.intersects(OpMods::ABS | OpMods::SEXT) || (neg && !float) {
            return None;
        }
        let v = match s.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            Operand::Reg { code, .. } => self.read_s32(code),
            Operand::Inline(c) if !sel => {
                let x = if float {
                    inline_f16(c)? as u32
                } else {
                    inline_b32(c)? & 0xffff
                };
                self.const_u32(x)
            }
            Operand::Literal(x) => self.const_u32(x),
            _ => return None,
        };
        let v = if sel && !matches!(s.op, Operand::Inline(_)) {
            let s16 = self.const_u32(16);
            self.b.bin(Bin::ShrL, v, s16)
        } else {
            v
        };
        let m = self.const_u32(0xffff);
        let v = self.b.bin(Bin::And, v, m);
        Some(if neg {
            let m = self.const_u32(0x8000);
            self.b.bin(Bin::Xor, v, m)
        } else {
            v
        })
    }

    /// The packed 16-bit operations of `packed_op`.
    fn packed(&mut self, code: Opcode, inst: &Instruction) {
        let Some((kind, signed)) = packed_op(code) else {
            self.problem(Construct::PackedMath);
            return;
        };
        let Some((dst, srcs, clamp)) = self.vop3p_parts(inst) else {
            self.problem(Form::MissingOperand);
            return;
        };
        let n = match kind {
            Pk::Fma | Pk::Mad => 3,
            _ => 2,
        };
        if clamp {
            self.problem(Form::Vop3Modifier);
            return;
        }
        if srcs.len() < n {
            self.problem(Form::MissingOperand);
            return;
        }
        let float = matches!(kind, Pk::F(_) | Pk::Fma);
        let mut out = [Value(0); 2];
        for (k, o) in out.iter_mut().enumerate() {
            let mut x = Vec::new();
            for s in srcs.iter().take(n) {
                match self.pk_half(s, k, float) {
                    Some(v) => x.push(v),
                    None => {
                        self.problem(Form::OperandSelection);
                        return;
                    }
                }
            }
            let sext = |l: &mut Self, v: Value| {
                let s16 = l.const_u32(16);
                let t = l.b.bin(Bin::Shl, v, s16);
                l.b.bin(Bin::ShrA, t, s16)
            };
            *o = match kind {
                Pk::F(b) => self.arith16(b, x[0], x[1]),
                Pk::Fma => self.fma16(x[0], x[1], x[2]),
                Pk::I(b) => {
                    let (a, c) = if signed {
                        (sext(self, x[0]), sext(self, x[1]))
                    } else {
                        (x[0], x[1])
                    };
                    self.b.bin(b, a, c)
                }
                Pk::Mad => {
                    let p = self.b.bin(Bin::Mul, x[0], x[1]);
                    self.b.add(p, x[2])
                }
                Pk::Shift(b) => {
                    // The amount is the first source's low 4 bits.
                    let m15 = self.const_u32(15);
                    let amt = self.b.bin(Bin::And, x[0], m15);
                    let v = if signed { sext(self, x[1]) } else { x[1] };
                    self.b.bin(b, v, amt)
                }
            };
            let m = self.const_u32(0xffff);
            *o = self.b.bin(Bin::And, *o, m);
        }
        let s16 = self.const_u32(16);
        let hi = self.b.bin(Bin::Shl, out[1], s16);
        let r = self.b.bin(Bin::Or, out[0], hi);
        self.write_v(&dst, 0, r);
    }
}
