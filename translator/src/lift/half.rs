//! 16-bit vector ALU: compares of f16/i16/u16 (and `v_cmp_class_*`),
//! the f16 arithmetic of VOP1/VOP2/VOP3 and `v_pk_fmac_f16`; and the
//! compares of 64-bit types (i64/u64 on word pairs, f64 by the IEEE order
//! of its bits: no f64 arithmetic is involved).
//!
//! A 16-bit operand is the low half of its register (VOP3 `op_sel`: the
//! high half); an f16 inline constant is its f16 value. f16 values widen
//! exactly to f32 (`format::small_float`; f16 denormals are f32 normals, so
//! the f32 flush never touches them). A 16-bit result goes to the low half
//! of the destination (VOP3 `op_sel` bit 3: the high half) and the other
//! half keeps its bits, as the interpreter's `write_v_lo16`/`hi16`.
//! Arithmetic is exact, then rounded once to f16 (nearest even):
//! add/sub/mul are rounded to f32 first, which is innocuous (24 ≥ 2·11 + 2
//! bits); the fma's f32 sum is made round-to-odd with its exact error
//! (TwoSum), so the f16 rounding of it is the fused result's.

use super::format::{f32_to_f16, small_float};
use super::Lifter;
use crate::ir::{Bin, FCmp, ICmp, Ty, Un, Value};
use crate::Form;
use isa::operand::{inline_b32, inline_f16};
use isa::{
    op, CmpCond, Compare, Instruction, Modifiers, NumTy, OpMods, Opcode, Operand, Slot, ValType,
};

/// Whether `half.rs` translates this vector-ALU opcode (`support::valu`
/// lists the same; its test
/// `classification_lists_exactly_the_opcodes_the_handlers_match` keeps
/// the two lists equal).
pub(super) fn is_half(code: Opcode) -> bool {
    match code {
        op::V_ADD_F16
        | op::V_SUB_F16
        | op::V_SUBREV_F16
        | op::V_MUL_F16
        | op::V_FMA_F16
        | op::V_FMAC_F16
        | op::V_MAX_F16
        | op::V_MIN_F16
        | op::V_CVT_F16_F32
        | op::V_CVT_F32_F16
        | op::V_PACK_B32_F16
        | op::V_PK_FMAC_F16 => true,
        _ => code.facts().cmp.is_some_and(compare16_lifted),
    }
}

/// A compare `half.rs` translates: every f16, i16 and u16 condition, and
/// `class` of f16 and f32.
pub(super) fn compare16_lifted(c: Compare) -> bool {
    match c.ty {
        NumTy::F16 | NumTy::F64 => true,
        NumTy::I16 | NumTy::U16 | NumTy::I64 | NumTy::U64 => !matches!(c.cond, CmpCond::Class),
        NumTy::F32 => c.cond == CmpCond::Class,
        _ => false,
    }
}

fn is16(t: ValType) -> bool {
    matches!(t, ValType::B16 | ValType::F16)
}

impl Lifter<'_> {
    /// A 16-bit source in the low 16 bits of a word (the rest zero),
    /// before `neg`/`abs`; `None` for a form it does not read (a constant's
    /// high half, `sext`, packed selections).
    pub(super) fn src16(&mut self, s: &Slot, hi: bool) -> Option<Value> {
        if s.mods
            .intersects(OpMods::SEXT | OpMods::NEG_HI | OpMods::OP_SEL_HI)
        {
            return None;
        }
        let v = match s.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            Operand::Reg { code, .. } => self.read_s32(code),
            Operand::Inline(c) if !hi => {
                let x = if s.ty == ValType::F16 {
                    inline_f16(c)? as u32
                } else {
                    inline_b32(c)? & 0xffff
                };
                return Some(self.const_u32(x));
            }
            Operand::Literal(x) if !hi => return Some(self.const_u32(x & 0xffff)),
            _ => return None,
        };
        let v = if hi {
            let s16 = self.const_u32(16);
            self.b.bin(Bin::ShrL, v, s16)
        } else {
            v
        };
        let m = self.const_u32(0xffff);
        Some(self.b.bin(Bin::And, v, m))
    }

    /// `|x|` then `-x` on an f16 in the low bits.
    fn neg_abs16(&mut self, s: &Slot, mut x: Value) -> Value {
        if s.mods.contains(OpMods::ABS) {
            let m = self.const_u32(0x7fff);
            x = self.b.bin(Bin::And, x, m);
        }
        if s.mods.contains(OpMods::NEG) {
            let m = self.const_u32(0x8000);
            x = self.b.bin(Bin::Xor, x, m);
        }
        x
    }

    /// A source of a 16-bit-typed slot with its modifiers, or the 32-bit
    /// source of any other slot (f32 class compares, `v_cvt_f16_f32`).
    fn src_any(&mut self, s: &Slot) -> Option<Value> {
        if is16(s.ty) {
            let v = self.src16(s, s.mods.contains(OpMods::OP_SEL))?;
            Some(if s.ty == ValType::F16 {
                self.neg_abs16(s, v)
            } else {
                v
            })
        } else {
            if s.mods
                .intersects(OpMods::OP_SEL | OpMods::OP_SEL_HI | OpMods::NEG_HI | OpMods::SEXT)
            {
                return None;
            }
            Some(self.src(s))
        }
    }

    /// An f16 (low bits) as f32 bits, exactly.
    pub(super) fn widen16(&mut self, h: Value) -> Value {
        small_float(&mut self.b, h, 10, true)
    }

    /// f32 bits to an f16 in the low bits (nearest even; NaN the quiet NaN
    /// with the sign, as the interpreter).
    pub(super) fn f32_to_f16(&mut self, x: Value) -> Value {
        f32_to_f16(&mut self.b, x, true)
    }

    /// The 16-bit instructions of `is_half`.
    pub(super) fn valu16(&mut self, code: Opcode, inst: &Instruction) {
        // SDWA: source selects and the destination field, as the
        // interpreter's (a select other than DWORD replaces the half rule).
        let mut sdwa = None;
        let (clamp, omod, opsel_dst) = match inst.mods {
            Modifiers::Vop3(m) => (m.clamp, m.omod, m.opsel_dst),
            Modifiers::None => (false, 0, false),
            Modifiers::Sdwa(m) if code.facts().cmp.is_none() => {
                if m.clamp || m.omod != 0 {
                    self.problem(Form::SdwaModifier);
                    return;
                }
                let f = Self::sdwa_field;
                sdwa = Some(([f(m.src0_sel), f(m.src1_sel)], f(m.dst_sel), m.dst_unused));
                (false, 0, false)
            }
            _ => {
                // DPP forms and SDWA compares of 16-bit instructions.
                self.problem(Form::OperandSelection);
                return;
            }
        };
        let (defs, srcs) = super::defs_and_srcs(inst);
        if let Some(c) = code.facts().cmp {
            if clamp || omod != 0 {
                self.problem(Form::Vop3Modifier);
                return;
            }
            if srcs.len() < 2 {
                self.problem(Form::CompareOperands);
                return;
            }
            let bit = if matches!(c.ty, NumTy::F64 | NumTy::I64 | NumTy::U64) {
                let a = self.src64v(&srcs[0]);
                let b = if c.cond == CmpCond::Class {
                    self.src_any(&srcs[1]).map(|m| (m, m))
                } else {
                    self.src64v(&srcs[1])
                };
                let (Some(a), Some(b)) = (a, b) else {
                    self.problem(Form::OperandSelection);
                    return;
                };
                self.compare64(c, a, b)
            } else {
                let (Some(a), Some(b)) = (self.src_any(&srcs[0]), self.src_any(&srcs[1])) else {
                    self.problem(Form::OperandSelection);
                    return;
                };
                self.compare16(c, a, b)
            };
            let act = self.active();
            let bit = self.b.bin(Bin::BAnd, act, bit);
            self.write_compare(c.writes_exec, &defs, bit);
            return;
        }
        let Some(dst) = defs.first().copied() else {
            self.problem(Form::MissingOperand);
            return;
        };
        // Output modifiers only on the f32 result of v_cvt_f32_f16; clamp
        // nowhere (the interpreter models neither on 16-bit results).
        if clamp || (omod != 0 && code != op::V_CVT_F32_F16) {
            self.problem(Form::Vop3Modifier);
            return;
        }
        let mut v = Vec::new();
        for (i, s) in srcs.iter().enumerate() {
            let sel = sdwa.and_then(|(sels, ..)| sels.get(i).copied());
            if let Some(field @ (_, w)) = sel.filter(|&(_, w)| w < 32) {
                // The field (zero- or sign-extended); its low bits are
                // the 16-bit operand.
                if s.mods.intersects(OpMods::ABS | OpMods::NEG) || w < 16 && is16(s.ty) {
                    self.problem(Form::OperandSelection);
                    return;
                }
                v.push(self.src_sel(s, Some(field)));
                continue;
            }
            match self.src_any(s) {
                Some(x) => v.push(x),
                None => {
                    self.problem(Form::OperandSelection);
                    return;
                }
            }
        }
        let need = |l: &mut Self, n: usize| {
            if v.len() < n {
                l.problem(Form::MissingOperand);
                false
            } else {
                true
            }
        };
        let old = self.old_dst(&dst);
        let r16 = match code {
            op::V_CVT_F32_F16 => {
                if !need(self, 1) {
                    return;
                }
                let f = self.widen16(v[0]);
                let f = if omod != 0 {
                    let k = match omod {
                        1 => 2.0f32,
                        2 => 4.0,
                        _ => 0.5,
                    };
                    let a = self.b.un(Un::AsF32, f);
                    let k = self.b.konst(Ty::F32, k.to_bits());
                    let t = self.b.bin(Bin::FMul, a, k);
                    self.b.un(Un::AsU32, t)
                } else {
                    f
                };
                let f = match sdwa {
                    Some((_, field, unused)) => self.sdwa_dst(f, Some(&dst), field, unused),
                    None => f,
                };
                self.write_v(&dst, 0, f);
                return;
            }
            _ if sdwa.is_some() && matches!(code, op::V_PACK_B32_F16 | op::V_PK_FMAC_F16) => {
                self.problem(Form::OperandSelection);
                return;
            }
            op::V_PACK_B32_F16 => {
                if !need(self, 2) {
                    return;
                }
                let s16 = self.const_u32(16);
                let h = self.b.bin(Bin::Shl, v[1], s16);
                let r = self.b.bin(Bin::Or, v[0], h);
                self.write_v(&dst, 0, r);
                return;
            }
            op::V_PK_FMAC_F16 => {
                if !need(self, 2) {
                    return;
                }
                // 32-bit operands, two f16 each; the accumulator is the
                // destination.
                let (a, b) = (self.src(&srcs[0]), self.src(&srcs[1]));
                let m = self.const_u32(0xffff);
                let s16 = self.const_u32(16);
                let mut out = [Value(0); 2];
                for (k, o) in out.iter_mut().enumerate() {
                    let pick = |l: &mut Self, x: Value| {
                        let t = if k == 1 {
                            l.b.bin(Bin::ShrL, x, s16)
                        } else {
                            x
                        };
                        l.b.bin(Bin::And, t, m)
                    };
                    let (x, y, z) = (pick(self, a), pick(self, b), pick(self, old));
                    *o = self.fma16(x, y, z);
                }
                let h = self.b.bin(Bin::Shl, out[1], s16);
                let r = self.b.bin(Bin::Or, out[0], h);
                self.write_v(&dst, 0, r);
                return;
            }
            op::V_CVT_F16_F32 => {
                if !need(self, 1) {
                    return;
                }
                let x = self.flush32(v[0]);
                self.f32_to_f16(x)
            }
            op::V_ADD_F16 | op::V_SUB_F16 | op::V_SUBREV_F16 | op::V_MUL_F16 => {
                if !need(self, 2) {
                    return;
                }
                let (x, y) = if code == op::V_SUBREV_F16 {
                    (v[1], v[0])
                } else {
                    (v[0], v[1])
                };
                let bin = match code {
                    op::V_MUL_F16 => Bin::FMul,
                    op::V_ADD_F16 => Bin::FAdd,
                    _ => Bin::FSub,
                };
                self.arith16(bin, x, y)
            }
            op::V_MAX_F16 | op::V_MIN_F16 => {
                if !need(self, 2) {
                    return;
                }
                let bin = if code == op::V_MAX_F16 {
                    Bin::FMax
                } else {
                    Bin::FMin
                };
                self.arith16(bin, v[0], v[1])
            }
            op::V_FMA_F16 | op::V_FMAC_F16 => {
                let c = if code == op::V_FMAC_F16 {
                    if !need(self, 2) {
                        return;
                    }
                    let hi = opsel_dst;
                    self.half_of(old, hi)
                } else {
                    if !need(self, 3) {
                        return;
                    }
                    v[2]
                };
                self.fma16(v[0], v[1], c)
            }
            _ => {
                self.unhandled(crate::OpcodeClass::VectorAlu);
                return;
            }
        };
        // The 16-bit result into one half; the other keeps its bits.
        let r = match sdwa {
            // The 16-bit result, zero-extended, into the field.
            Some((_, field, unused)) => {
                let m = self.const_u32(0xffff);
                let r16 = self.b.bin(Bin::And, r16, m);
                self.sdwa_dst(r16, Some(&dst), field, unused)
            }
            None => self.merge16(old, r16, opsel_dst),
        };
        self.write_v(&dst, 0, r);
    }

    /// The destination register's current word (0 for an undefined entry
    /// value, whose kept half may be anything).
    pub(super) fn old_dst(&mut self, dst: &Slot) -> Value {
        let old = match dst.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            _ => self.const_u32(0),
        };
        if self.undefined.contains(&old) {
            self.const_u32(0)
        } else {
            old
        }
    }

    pub(super) fn half_of(&mut self, w: Value, hi: bool) -> Value {
        let w = if hi {
            let s16 = self.const_u32(16);
            self.b.bin(Bin::ShrL, w, s16)
        } else {
            w
        };
        let m = self.const_u32(0xffff);
        self.b.bin(Bin::And, w, m)
    }

    /// `old` with its low (or high) half replaced by `h`.
    pub(super) fn merge16(&mut self, old: Value, h: Value, hi: bool) -> Value {
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

    /// An f32 denormal (bits) as its signed zero.
    fn flush32(&mut self, x: Value) -> Value {
        let em = self.const_u32(0x7f80_0000);
        let e = self.b.bin(Bin::And, x, em);
        let zero = self.const_u32(0);
        let tiny = self.b.icmp(ICmp::Eq, e, zero);
        let sm = self.const_u32(0x8000_0000);
        let s = self.b.bin(Bin::And, x, sm);
        self.b.select(tiny, s, x)
    }

    /// A two-operand f16 operation: exact widening, one f32 operation
    /// (its rounding is innocuous for add/sub/mul; min/max are exact), one
    /// rounding to f16.
    pub(super) fn arith16(&mut self, bin: Bin, x: Value, y: Value) -> Value {
        let a = self.widen16(x);
        let b = self.widen16(y);
        let (ab, bb) = (a, b);
        let a = self.b.un(Un::AsF32, a);
        let b = self.b.un(Un::AsF32, b);
        let r = match bin {
            Bin::FMax | Bin::FMin => {
                // IEEE mode, exactly: a NaN gives the other operand; equal
                // values (±0) give +0 for max and −0 for min.
                let na = self.b.un(Un::IsNan, a);
                let nb = self.b.un(Un::IsNan, b);
                let lt = self.b.bin(Bin::FCmp(FCmp(FCmp::LT)), a, b);
                let gt = self.b.bin(Bin::FCmp(FCmp(FCmp::GT)), a, b);
                let zero = self.const_u32(0);
                let sm = self.const_u32(0x8000_0000);
                let sa = self.b.bin(Bin::And, ab, sm);
                let a_neg = self.b.icmp(ICmp::Ne, sa, zero);
                let (pick_a, tie_a) = if bin == Bin::FMax {
                    (gt, self.b.un(Un::BNot, a_neg))
                } else {
                    (lt, a_neg)
                };
                let other = if bin == Bin::FMax { lt } else { gt };
                let tie = self.b.select(tie_a, ab, bb);
                let r = self.b.select(other, bb, tie);
                let r = self.b.select(pick_a, ab, r);
                let r = self.b.select(nb, ab, r);
                self.b.select(na, bb, r)
            }
            _ => {
                let r = self.b.bin(bin, a, b);
                self.b.un(Un::AsU32, r)
            }
        };
        self.narrow16(r)
    }

    /// f32 bits to f16 with every NaN the quiet 0x7e00 (host float units
    /// give NaNs of either sign).
    fn narrow16(&mut self, r: Value) -> Value {
        let h = self.f32_to_f16(r);
        let f = self.b.un(Un::AsF32, r);
        let nan = self.b.un(Un::IsNan, f);
        let q = self.const_u32(0x7e00);
        self.b.select(nan, q, h)
    }

    /// `fma(x, y, z)` of three f16 (low bits), rounded once to f16: the
    /// product is exact in f32 (22 bits), the sum `s` is rounded to f32 and
    /// its error `e` is exact (TwoSum); `s` made odd when `e ≠ 0` is the
    /// round-to-odd sum, whose f16 rounding is the fused result.
    pub(super) fn fma16(&mut self, x: Value, y: Value, z: Value) -> Value {
        let a = self.widen16(x);
        let b = self.widen16(y);
        let c = self.widen16(z);
        let [a, b, c] = [a, b, c].map(|v| self.b.un(Un::AsF32, v));
        let p = self.b.bin(Bin::FMul, a, b);
        let s = self.b.bin(Bin::FAdd, p, c);
        // TwoSum: e = (p − (s − bb)) + (c − bb), bb = s − p.
        let bb = self.b.bin(Bin::FSub, s, p);
        let ap = self.b.bin(Bin::FSub, s, bb);
        let da = self.b.bin(Bin::FSub, p, ap);
        let db = self.b.bin(Bin::FSub, c, bb);
        let e = self.b.bin(Bin::FAdd, da, db);
        let sb = self.b.un(Un::AsU32, s);
        let fz = self.b.konst(Ty::F32, 0);
        // e ≠ 0 and not NaN (an infinite or NaN sum keeps `s`).
        let inexact = self.b.bin(Bin::FCmp(FCmp(FCmp::LT | FCmp::GT)), e, fz);
        let inexact = if self.o.alu_faults.f16_fma_double_rounding {
            self.b.bool(false)
        } else {
            inexact
        };
        let one = self.const_u32(1);
        let zero = self.const_u32(0);
        let low = self.b.bin(Bin::And, sb, one);
        let even = self.b.icmp(ICmp::Eq, low, zero);
        // Toward e: the magnitude grows when e has the sign of s.
        let sneg = self.b.bin(Bin::FCmp(FCmp(FCmp::LT)), s, fz);
        let eneg = self.b.bin(Bin::FCmp(FCmp(FCmp::LT)), e, fz);
        let same = self.b.bin(Bin::BXor, sneg, eneg);
        let up = self.b.un(Un::BNot, same);
        let plus = self.b.add(sb, one);
        let minus = self.b.bin(Bin::Sub, sb, one);
        let moved = self.b.select(up, plus, minus);
        let fix = self.b.bin(Bin::BAnd, inexact, even);
        let odd = self.b.select(fix, moved, sb);
        self.narrow16(odd)
    }

    /// The compare of two 16-bit values (low bits) or, for `class`, a
    /// value and its class mask.
    fn compare16(&mut self, c: Compare, a: Value, b: Value) -> Value {
        if c.cond == CmpCond::Class {
            return self.class(a, b, c.ty == NumTy::F16);
        }
        match c.ty {
            NumTy::F16 => {
                let fa = self.widen16(a);
                let fb = self.widen16(b);
                let m = super::valu::fcmp_mask(c.cond).unwrap_or(0);
                let m = if self.o.alu_faults.float_compare_nan_ordered {
                    m & !FCmp::UNORD
                } else {
                    m
                };
                let fa = self.b.un(Un::AsF32, fa);
                let fb = self.b.un(Un::AsF32, fb);
                self.b.bin(Bin::FCmp(FCmp(m)), fa, fb)
            }
            _ => {
                let signed = c.ty == NumTy::I16;
                let (a, b) = if signed {
                    let s16 = self.const_u32(16);
                    let ta = self.b.bin(Bin::Shl, a, s16);
                    let tb = self.b.bin(Bin::Shl, b, s16);
                    (
                        self.b.bin(Bin::ShrA, ta, s16),
                        self.b.bin(Bin::ShrA, tb, s16),
                    )
                } else {
                    (a, b)
                };
                let (lt, le) = if signed {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                match c.cond {
                    CmpCond::Lt => self.b.icmp(lt, a, b),
                    CmpCond::Le => self.b.icmp(le, a, b),
                    CmpCond::Gt => self.b.icmp(lt, b, a),
                    CmpCond::Ge => self.b.icmp(le, b, a),
                    CmpCond::Eq => self.b.icmp(ICmp::Eq, a, b),
                    CmpCond::Ne | CmpCond::Lg => self.b.icmp(ICmp::Ne, a, b),
                    CmpCond::Tru => self.b.bool(true),
                    _ => self.b.bool(false),
                }
            }
        }
    }

    /// `v_cmp_class`: whether `mask` has the bit of `x`'s class (0 sNaN,
    /// 1 qNaN, 2 −inf, 3 −normal, 4 −denormal, 5 −0, 6 +0, 7 +denormal,
    /// 8 +normal, 9 +inf), from the raw bits.
    fn class(&mut self, x: Value, mask: Value, half: bool) -> Value {
        let (mbits, ebits, width) = if half { (10, 5, 16) } else { (23, 8, 32) };
        let k = |l: &mut Self, c: u32| l.const_u32(c);
        let zero = k(self, 0);
        let ms = k(self, mbits);
        let e = self.b.bin(Bin::ShrL, x, ms);
        let em = k(self, (1 << ebits) - 1);
        let e = self.b.bin(Bin::And, e, em);
        let mm = k(self, (1 << mbits) - 1);
        let m = self.b.bin(Bin::And, x, mm);
        let sb = k(self, 1 << (width - 1));
        let sign = self.b.bin(Bin::And, x, sb);
        self.class_of(zero, sign, (e, em), m, (m, 1 << (mbits - 1)), mask)
    }

    /// A 64-bit source as (low, high) words with `|x|`/`-x` on bit 63 of
    /// an f64: a VGPR or SGPR pair, an inline constant (its 64-bit value) or
    /// a literal (the high half of an f64, the low word of an integer).
    fn src64v(&mut self, s: &Slot) -> Option<(Value, Value)> {
        if s.mods
            .intersects(OpMods::OP_SEL | OpMods::OP_SEL_HI | OpMods::NEG_HI | OpMods::SEXT)
        {
            return None;
        }
        let float = s.ty == ValType::F64;
        let (lo, mut hi) = match s.op {
            Operand::Reg { code, .. } if code >= 256 => {
                let r = (code - 256) as usize;
                if r >= 255 {
                    return None;
                }
                (self.st.v[r], self.st.v[r + 1])
            }
            Operand::Reg { code, .. } if code < 127 => {
                (self.read_s32(code), self.read_s32(code + 1))
            }
            Operand::Inline(c) => {
                let x = isa::operand::inline_b64(c)?;
                (self.const_u32(x as u32), self.const_u32((x >> 32) as u32))
            }
            Operand::Literal(x) if float => (self.const_u32(0), self.const_u32(x)),
            Operand::Literal(x) => (self.const_u32(x), self.const_u32(0)),
            _ => return None,
        };
        if !float && s.mods.intersects(OpMods::ABS | OpMods::NEG) {
            return None;
        }
        if s.mods.contains(OpMods::ABS) {
            let m = self.const_u32(0x7fff_ffff);
            hi = self.b.bin(Bin::And, hi, m);
        }
        if s.mods.contains(OpMods::NEG) {
            let m = self.const_u32(0x8000_0000);
            hi = self.b.bin(Bin::Xor, hi, m);
        }
        Some((lo, hi))
    }

    /// `a < b`, `a == b` of two 64-bit integers (word pairs).
    fn lt_eq64(&mut self, a: (Value, Value), b: (Value, Value), signed: bool) -> (Value, Value) {
        let hl = self
            .b
            .icmp(if signed { ICmp::SLt } else { ICmp::ULt }, a.1, b.1);
        let he = self.b.icmp(ICmp::Eq, a.1, b.1);
        let ll = self.b.icmp(ICmp::ULt, a.0, b.0);
        let le = self.b.icmp(ICmp::Eq, a.0, b.0);
        let t = self.b.bin(Bin::BAnd, he, ll);
        let lt = self.b.bin(Bin::BOr, hl, t);
        let eq = self.b.bin(Bin::BAnd, he, le);
        (lt, eq)
    }

    /// Whether an f64 (word pair) is a NaN.
    fn is_nan64(&mut self, x: (Value, Value)) -> Value {
        let m = self.const_u32(0x7fff_ffff);
        let mag = self.b.bin(Bin::And, x.1, m);
        let inf = self.const_u32(0x7ff0_0000);
        let above = self.b.icmp(ICmp::ULt, inf, mag);
        let at = self.b.icmp(ICmp::Eq, mag, inf);
        let zero = self.const_u32(0);
        let lo = self.b.icmp(ICmp::Ne, x.0, zero);
        let t = self.b.bin(Bin::BAnd, at, lo);
        self.b.bin(Bin::BOr, above, t)
    }

    /// A compare of two 64-bit values, or `class` of an f64 (`b.0` the mask).
    fn compare64(&mut self, c: Compare, a: (Value, Value), b: (Value, Value)) -> Value {
        match c.ty {
            NumTy::I64 | NumTy::U64 => {
                let signed = c.ty == NumTy::I64;
                let (lt, eq) = self.lt_eq64(a, b, signed);
                let (gt, _) = self.lt_eq64(b, a, signed);
                match c.cond {
                    CmpCond::Lt => lt,
                    CmpCond::Le => self.b.bin(Bin::BOr, lt, eq),
                    CmpCond::Gt => gt,
                    CmpCond::Ge => self.b.bin(Bin::BOr, gt, eq),
                    CmpCond::Eq => eq,
                    CmpCond::Ne | CmpCond::Lg => self.b.un(Un::BNot, eq),
                    CmpCond::Tru => self.b.bool(true),
                    _ => self.b.bool(false),
                }
            }
            _ if c.cond == CmpCond::Class => self.class64(a, b.0),
            _ => {
                // The IEEE order: both zeros equal; otherwise the bits as
                // sign-magnitude, mapped to an unsigned order (negative:
                // all bits flipped; positive: the sign bit set).
                let un_a = self.is_nan64(a);
                let un_b = self.is_nan64(b);
                let un = self.b.bin(Bin::BOr, un_a, un_b);
                let m = self.const_u32(0x7fff_ffff);
                let zero = self.const_u32(0);
                let ah = self.b.bin(Bin::And, a.1, m);
                let bh = self.b.bin(Bin::And, b.1, m);
                let or = self.b.bin(Bin::Or, ah, bh);
                let or = self.b.bin(Bin::Or, or, a.0);
                let or = self.b.bin(Bin::Or, or, b.0);
                let zeros = self.b.icmp(ICmp::Eq, or, zero);
                let key = |l: &mut Self, x: (Value, Value)| {
                    let s31 = l.const_u32(31);
                    let sign = l.b.bin(Bin::ShrA, x.1, s31);
                    let top = l.const_u32(0x8000_0000);
                    let hi_pos = l.b.bin(Bin::Or, x.1, top);
                    let nh = l.b.un(Un::Not, x.1);
                    let nl = l.b.un(Un::Not, x.0);
                    let zero = l.const_u32(0);
                    let neg = l.b.icmp(ICmp::Ne, sign, zero);
                    (l.b.select(neg, nl, x.0), l.b.select(neg, nh, hi_pos))
                };
                let (ka, kb) = (key(self, a), key(self, b));
                let (lt, eq) = self.lt_eq64(ka, kb, false);
                let (gt, _) = self.lt_eq64(kb, ka, false);
                let nz = self.b.un(Un::BNot, zeros);
                let lt = self.b.bin(Bin::BAnd, lt, nz);
                let gt = self.b.bin(Bin::BAnd, gt, nz);
                let eq = self.b.bin(Bin::BOr, eq, zeros);
                let ord = self.b.un(Un::BNot, un);
                let [lt, eq, gt] = [lt, eq, gt].map(|x| self.b.bin(Bin::BAnd, x, ord));
                let mask = super::valu::fcmp_mask(c.cond).unwrap_or(0);
                let mask = if self.o.alu_faults.float_compare_nan_ordered {
                    mask & !FCmp::UNORD
                } else {
                    mask
                };
                let mut r = self.b.bool(false);
                for (bit, v) in [
                    (FCmp::LT, lt),
                    (FCmp::EQ, eq),
                    (FCmp::GT, gt),
                    (FCmp::UNORD, un),
                ] {
                    if mask & bit != 0 {
                        r = self.b.bin(Bin::BOr, r, v);
                    }
                }
                r
            }
        }
    }

    /// `v_cmp_class_f64`, from the raw bits.
    fn class64(&mut self, x: (Value, Value), mask: Value) -> Value {
        let k = |l: &mut Self, c: u32| l.const_u32(c);
        let zero = k(self, 0);
        let s20 = k(self, 20);
        let e = self.b.bin(Bin::ShrL, x.1, s20);
        let em = k(self, 0x7ff);
        let e = self.b.bin(Bin::And, e, em);
        let mm = k(self, 0xf_ffff);
        let mh = self.b.bin(Bin::And, x.1, mm);
        let mor = self.b.bin(Bin::Or, mh, x.0);
        let sb = k(self, 0x8000_0000);
        let sign = self.b.bin(Bin::And, x.1, sb);
        self.class_of(zero, sign, (e, em), mor, (mh, 0x8_0000), mask)
    }

    /// The common tail of [`Self::class`] and [`Self::class64`]: whether
    /// `mask` has the bit of the class given by the (nonzero when negative)
    /// sign bit, the biased exponent `e` with its all-ones value `em`, the
    /// mantissa `m` (zero only for a zero mantissa) and the quiet bit
    /// `q.1` of `q.0`; `zero` is the constant 0.
    fn class_of(
        &mut self,
        zero: Value,
        sign: Value,
        (e, em): (Value, Value),
        m: Value,
        q: (Value, u32),
        mask: Value,
    ) -> Value {
        let k = |l: &mut Self, c: u32| l.const_u32(c);
        let neg = self.b.icmp(ICmp::Ne, sign, zero);
        let e_all = self.b.icmp(ICmp::Eq, e, em);
        let e_zero = self.b.icmp(ICmp::Eq, e, zero);
        let m_zero = self.b.icmp(ICmp::Eq, m, zero);
        let qb = k(self, q.1);
        let q = self.b.bin(Bin::And, q.0, qb);
        let quiet = self.b.icmp(ICmp::Ne, q, zero);
        let pick = |l: &mut Self, c: Value, n: u32, p: u32| {
            let (n, p) = (l.const_u32(n), l.const_u32(p));
            l.b.select(c, n, p)
        };
        let inf = pick(self, neg, 2, 9);
        let nan = pick(self, quiet, 1, 0);
        let special = self.b.select(m_zero, inf, nan);
        let zer = pick(self, neg, 5, 6);
        let den = pick(self, neg, 4, 7);
        let small = self.b.select(m_zero, zer, den);
        let normal = pick(self, neg, 3, 8);
        let idx = self.b.select(e_zero, small, normal);
        let idx = self.b.select(e_all, special, idx);
        let t = self.b.bin(Bin::ShrL, mask, idx);
        let one = k(self, 1);
        let t = self.b.bin(Bin::And, t, one);
        self.b.icmp(ICmp::Ne, t, zero)
    }
}
