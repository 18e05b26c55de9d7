//! The scalar ALU: `SOP1`, `SOP2`, `SOPC`, `SOPK` (everything but
//! branches, which the instruction loop in [`crate::exec`] takes, and scalar
//! memory). Instruction *behaviour* is the interpreter's own (it is the
//! oracle); operand roles and widths come from `isa`.

use crate::exec::Exec;
use crate::ops::{BitOp, CmpTy, ICmp, SOp, SaveOp};
use crate::record::InterpError;
use crate::wave::{Wave, S32, S64};
use isa::{Instruction, Slot};

impl Exec<'_, '_> {
    pub(crate) fn salu(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: SOp,
        next: u32,
    ) -> Result<(), InterpError> {
        let ops = &inst.operands;
        let get = |i: usize| -> Result<&Slot, InterpError> {
            ops.get(i)
                .ok_or_else(|| self.unsupported("missing operand"))
        };
        // Fully-defined helper for all-or-nothing results.
        let all = |ok: bool| if ok { u64::MAX } else { 0 };
        match op {
            SOp::Mov { w64 } => {
                let v = if w64 {
                    self.s64(w, get(1)?)?
                } else {
                    S64::from_halves(self.s32(w, get(1)?)?, S32::default())
                };
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Cmov { w64 } | SOp::Cselect { w64 } => {
                // Cmov: scc ? S0 : D.  Cselect: scc ? S0 : S1.
                let (src, other) = if let SOp::Cmov { .. } = op {
                    (self.src(w, get(1)?, w64)?, self.src(w, get(0)?, w64)?)
                } else {
                    (self.src(w, get(1)?, w64)?, self.src(w, get(2)?, w64)?)
                };
                let v = if !w.scc_def {
                    S64 {
                        v: other.v,
                        def: src.def & other.def & !(src.v ^ other.v),
                    }
                } else if w.scc {
                    src
                } else {
                    other
                };
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Movk => {
                let v = self.s32(w, get(1)?)?;
                self.sdst(w, get(0)?, S64::from_halves(v, S32::default()), false);
            }
            SOp::Cmovk => {
                let old = self.s32(w, get(0)?)?;
                let k = self.s32(w, get(1)?)?;
                let v = if !w.scc_def {
                    S32 {
                        v: old.v,
                        def: old.def & !(old.v ^ k.v),
                    }
                } else if w.scc {
                    k
                } else {
                    old
                };
                self.sdst(w, get(0)?, S64::from_halves(v, S32::default()), false);
            }
            SOp::Not { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let v = S64 {
                    v: !a.v & width_mask(w64),
                    def: a.def | !width_mask(w64),
                };
                self.scc_nonzero(w, v, w64);
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Wqm { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let mut r = 0u64;
                for q in 0..(if w64 { 16 } else { 8 }) {
                    if (a.v >> (4 * q)) & 0xf != 0 {
                        r |= 0xf << (4 * q);
                    }
                }
                let v = S64 {
                    v: r,
                    def: all(self.full(a, w64)),
                };
                self.scc_nonzero(w, v, w64);
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Brev { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let v = if w64 {
                    S64 {
                        v: a.v.reverse_bits(),
                        def: a.def.reverse_bits(),
                    }
                } else {
                    S64 {
                        v: (a.v as u32).reverse_bits() as u64,
                        def: (a.def as u32).reverse_bits() as u64,
                    }
                };
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Bcnt { one, w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let x = if one { a.v } else { !a.v & width_mask(w64) };
                let v = S64 {
                    v: x.count_ones() as u64,
                    def: all(self.full(a, w64)),
                };
                self.scc_nonzero(w, v, false);
                self.sdst(w, get(0)?, v, false);
            }
            SOp::Ff { one, w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let x = if one { a.v } else { !a.v & width_mask(w64) };
                let r = if x == 0 { u32::MAX } else { x.trailing_zeros() };
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(self.full(a, w64)),
                    },
                    false,
                );
            }
            SOp::Flbit { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let r = if a.v == 0 {
                    u32::MAX
                } else if w64 {
                    a.v.leading_zeros()
                } else {
                    (a.v as u32).leading_zeros()
                };
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(self.full(a, w64)),
                    },
                    false,
                );
            }
            SOp::FlbitI { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let r = if w64 {
                    let x = a.v as i64;
                    let y = if x < 0 { !x } else { x } as u64;
                    if x == 0 || x == -1 {
                        u32::MAX
                    } else {
                        y.leading_zeros()
                    }
                } else {
                    let x = a.v as u32 as i32;
                    let y = if x < 0 { !x } else { x } as u32;
                    if x == 0 || x == -1 {
                        u32::MAX
                    } else {
                        y.leading_zeros()
                    }
                };
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(self.full(a, w64)),
                    },
                    false,
                );
            }
            SOp::Sext8 | SOp::Sext16 => {
                let a = self.s32(w, get(1)?)?;
                let r = if op == SOp::Sext8 {
                    a.v as u8 as i8 as i32
                } else {
                    a.v as u16 as i16 as i32
                };
                let ok = if op == SOp::Sext8 {
                    a.def & 0xff == 0xff
                } else {
                    a.def & 0xffff == 0xffff
                };
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u32 as u64,
                        def: all(ok),
                    },
                    false,
                );
            }
            SOp::Bitset { one, w64 } => {
                let d = get(0)?;
                let old = self.src(w, d, w64)?;
                let b = self.s32(w, get(1)?)?;
                let bit = b.v & if w64 { 63 } else { 31 };
                let m = 1u64 << bit;
                let v = if b.def & 0x3f == 0x3f {
                    S64 {
                        v: if one { old.v | m } else { old.v & !m },
                        def: old.def | m,
                    }
                } else {
                    S64 { v: old.v, def: 0 }
                };
                self.sdst(w, d, v, w64);
            }
            SOp::Getpc => {
                let code = self.env.code_addr;
                self.sdst(w, get(0)?, S64::known(code.wrapping_add(next as u64)), true);
            }
            SOp::Setpc | SOp::Swappc => {
                let (target_slot, save) = if op == SOp::Setpc {
                    (get(0)?, None)
                } else {
                    (get(1)?, Some(get(0)?))
                };
                let t = self.s64(w, target_slot)?;
                if !t.is_defined() {
                    return Err(self.undefined("the jump target"));
                }
                let code = self.env.code_addr;
                if let Some(s) = save {
                    self.sdst(w, s, S64::known(code.wrapping_add(next as u64)), true);
                }
                // Code addresses count from the code's guest address.
                let target = t.v.wrapping_sub(code);
                w.pc = target as u32;
                if target >> 32 != 0 {
                    return Err(InterpError::PcOutOfCode {
                        pc: target as u32,
                        len: self.env.program.len(),
                    });
                }
            }
            SOp::SaveExec { op: sop, w64 } => {
                let s0 = self.src(w, get(1)?, w64)?;
                let exec = w.exec();
                let e = S64 {
                    v: exec.v,
                    def: exec.def | !width_mask(w64),
                };
                let m = width_mask(w64);
                let not = |x: S64| S64 {
                    v: !x.v & m,
                    def: x.def,
                };
                let new = match sop {
                    SaveOp::And => and(s0, e),
                    SaveOp::Or => or(s0, e),
                    SaveOp::Xor => xor(s0, e),
                    SaveOp::Andn2 | SaveOp::Andn2Wrexec => and(s0, not(e)),
                    SaveOp::Orn2 => or(s0, not(e)),
                    SaveOp::Nand => not(and(s0, e)),
                    SaveOp::Nor => not(or(s0, e)),
                    SaveOp::Xnor => not(xor(s0, e)),
                    SaveOp::Andn1 | SaveOp::Andn1Wrexec => and(not(s0), e),
                    SaveOp::Orn1 => or(not(s0), e),
                };
                let new = S64 {
                    v: new.v & m,
                    def: new.def | !m,
                };
                let saved = if matches!(sop, SaveOp::Andn1Wrexec | SaveOp::Andn2Wrexec) {
                    new
                } else {
                    exec
                };
                self.sdst(w, get(0)?, saved, w64);
                if w64 {
                    w.write_s64(isa::operand::EXEC_LO, new);
                } else {
                    w.write_s32(isa::operand::EXEC_LO, new.lo());
                }
                self.scc_nonzero(w, new, w64);
            }
            SOp::Abs => {
                let a = self.s32(w, get(1)?)?;
                let r = (a.v as i32).wrapping_abs() as u32;
                let v = S64 {
                    v: r as u64,
                    def: all(a.is_defined()),
                };
                self.scc_nonzero(w, v, false);
                self.sdst(w, get(0)?, v, false);
            }
            SOp::Bit { op: b, w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let c = self.src(w, get(2)?, w64)?;
                let m = width_mask(w64);
                let not = |x: S64| S64 {
                    v: !x.v & m,
                    def: x.def,
                };
                let r = match b {
                    BitOp::And => and(a, c),
                    BitOp::Or => or(a, c),
                    BitOp::Xor => xor(a, c),
                    BitOp::Andn2 => and(a, not(c)),
                    BitOp::Orn2 => or(a, not(c)),
                    BitOp::Nand => not(and(a, c)),
                    BitOp::Nor => not(or(a, c)),
                    BitOp::Xnor => not(xor(a, c)),
                };
                let r = S64 {
                    v: r.v & m,
                    def: r.def | !m,
                };
                self.scc_nonzero(w, r, w64);
                self.sdst(w, get(0)?, r, w64);
            }
            SOp::AddU | SOp::SubU | SOp::AddI | SOp::SubI | SOp::Addc | SOp::Subb => {
                let a = self.s32(w, get(1)?)?;
                let b = self.s32(w, get(2)?)?;
                let mut ok = a.is_defined() && b.is_defined();
                let cin = if matches!(op, SOp::Addc | SOp::Subb) {
                    ok &= w.scc_def;
                    w.scc as u64
                } else {
                    0
                };
                let (r, scc) = match op {
                    SOp::AddU | SOp::Addc => {
                        let s = a.v as u64 + b.v as u64 + cin;
                        (s as u32, s >> 32 != 0)
                    }
                    SOp::SubU | SOp::Subb => {
                        let s = (a.v as u64).wrapping_sub(b.v as u64).wrapping_sub(cin);
                        (s as u32, (b.v as u64 + cin) > a.v as u64)
                    }
                    SOp::AddI => {
                        let (r, o) = (a.v as i32).overflowing_add(b.v as i32);
                        (r as u32, o)
                    }
                    _ => {
                        let (r, o) = (a.v as i32).overflowing_sub(b.v as i32);
                        (r as u32, o)
                    }
                };
                self.set_scc(w, scc, ok);
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(ok),
                    },
                    false,
                );
            }
            SOp::Min { signed } | SOp::Max { signed } => {
                let a = self.s32(w, get(1)?)?;
                let b = self.s32(w, get(2)?)?;
                let ok = a.is_defined() && b.is_defined();
                let lt = if signed {
                    (a.v as i32) < (b.v as i32)
                } else {
                    a.v < b.v
                };
                let gt = if signed {
                    (a.v as i32) > (b.v as i32)
                } else {
                    a.v > b.v
                };
                let (r, scc) = if matches!(op, SOp::Min { .. }) {
                    (if lt { a.v } else { b.v }, lt)
                } else {
                    (if gt { a.v } else { b.v }, gt)
                };
                self.set_scc(w, scc, ok);
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(ok),
                    },
                    false,
                );
            }
            SOp::Lshl { w64 } | SOp::Lshr { w64 } | SOp::Ashr { w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let s = self.s32(w, get(2)?)?;
                let sm = if w64 { 63 } else { 31 };
                let sh = s.v & sm;
                let s_ok = s.def & sm == sm;
                let m = width_mask(w64);
                let (v, def) = match op {
                    SOp::Lshl { .. } => ((a.v << sh) & m, ((a.def << sh) | ((1u64 << sh) - 1)) & m),
                    SOp::Lshr { .. } => ((a.v & m) >> sh, (((a.def & m) >> sh) | !(m >> sh)) & m),
                    _ => {
                        let r = if w64 {
                            ((a.v as i64) >> sh) as u64
                        } else {
                            ((a.v as u32 as i32) >> sh) as u32 as u64
                        };
                        let sign_def = a.def & (1u64 << (if w64 { 63 } else { 31 })) != 0;
                        let d = if sign_def {
                            ((a.def & m) >> sh) | (!(m >> sh) & m)
                        } else {
                            (a.def & m) >> sh
                        };
                        (r, d)
                    }
                };
                let r = S64 {
                    v,
                    def: if s_ok { def | !m } else { 0 },
                };
                self.scc_nonzero(w, r, w64);
                self.sdst(w, get(0)?, r, w64);
            }
            SOp::Bfm { w64 } => {
                let a = self.s32(w, get(1)?)?;
                let b = self.s32(w, get(2)?)?;
                let ok = a.is_defined() && b.is_defined();
                let r = if w64 {
                    let n = a.v & 63;
                    (if n == 0 { 0 } else { u64::MAX >> (64 - n) }) << (b.v & 63)
                } else {
                    let n = a.v & 31;
                    (((1u32 << n).wrapping_sub(1)) << (b.v & 31)) as u64
                };
                self.sdst(w, get(0)?, S64 { v: r, def: all(ok) }, w64);
            }
            SOp::MulI32 | SOp::MulHi { .. } | SOp::AbsDiff | SOp::LshlAdd(_) | SOp::Pack { .. } => {
                let a = self.s32(w, get(1)?)?;
                let b = self.s32(w, get(2)?)?;
                let ok = a.is_defined() && b.is_defined();
                let r = match op {
                    SOp::MulI32 => a.v.wrapping_mul(b.v),
                    SOp::MulHi { signed: false } => ((a.v as u64 * b.v as u64) >> 32) as u32,
                    SOp::MulHi { signed: true } => {
                        ((a.v as i32 as i64 * b.v as i32 as i64) >> 32) as u32
                    }
                    SOp::AbsDiff => (a.v as i32).wrapping_sub(b.v as i32).wrapping_abs() as u32,
                    SOp::LshlAdd(n) => {
                        let s = ((a.v as u64) << n) + b.v as u64;
                        self.set_scc(w, s >> 32 != 0, ok);
                        s as u32
                    }
                    SOp::Pack { hi0, hi1 } => {
                        let lo = if hi0 { a.v >> 16 } else { a.v & 0xffff };
                        let hi = if hi1 { b.v >> 16 } else { b.v & 0xffff };
                        lo | hi << 16
                    }
                    _ => unreachable!(),
                };
                if op == SOp::AbsDiff {
                    self.set_scc(w, r != 0, ok);
                }
                self.sdst(
                    w,
                    get(0)?,
                    S64 {
                        v: r as u64,
                        def: all(ok),
                    },
                    false,
                );
            }
            SOp::Bfe { signed, w64 } => {
                let a = self.src(w, get(1)?, w64)?;
                let b = self.s32(w, get(2)?)?;
                let ok = self.full(a, w64) && b.is_defined();
                let off = b.v & if w64 { 63 } else { 31 };
                let width = (b.v >> 16) & 0x7f;
                let bits = if w64 { 64 } else { 32 };
                let r = if width == 0 {
                    0
                } else if signed && width >= bits {
                    // The field reaches past the top bit: the sign copies
                    // beyond it are part of the field (an arithmetic
                    // shift), as LLVM folds it and the hardware does.
                    if w64 {
                        ((a.v as i64) >> off) as u64
                    } else {
                        u64::from(((a.v as u32 as i32) >> off) as u32)
                    }
                } else {
                    let x = (a.v & width_mask(w64)) >> off;
                    let wd = width.min(bits);
                    let x = if wd >= 64 { x } else { x & ((1u64 << wd) - 1) };
                    if signed && wd < bits {
                        let s = 64 - wd;
                        (((x << s) as i64) >> s) as u64 & width_mask(w64)
                    } else {
                        x
                    }
                };
                let v = S64 { v: r, def: all(ok) };
                self.scc_nonzero(w, v, w64);
                self.sdst(w, get(0)?, v, w64);
            }
            SOp::Addk | SOp::Mulk => {
                let d = get(0)?;
                let a = self.s32(w, d)?;
                let k = self.s32(w, get(1)?)?;
                let ok = a.is_defined();
                let r = if op == SOp::Addk {
                    let (r, o) = (a.v as i32).overflowing_add(k.v as i32);
                    self.set_scc(w, o, ok);
                    r as u32
                } else {
                    a.v.wrapping_mul(k.v)
                };
                self.sdst(
                    w,
                    d,
                    S64 {
                        v: r as u64,
                        def: all(ok),
                    },
                    false,
                );
            }
            SOp::Cmpk { op: c, signed } => {
                let a = self.s32(w, get(0)?)?;
                let k = self.s32(w, get(1)?)?;
                let r = icmp(
                    c,
                    a.v as u64,
                    k.v as u64,
                    if signed { CmpTy::I32 } else { CmpTy::U32 },
                );
                self.set_scc(w, r, a.is_defined());
            }
            SOp::Cmp { op: c, ty } => {
                let w64 = matches!(ty, CmpTy::I64 | CmpTy::U64);
                let a = self.src(w, get(0)?, w64)?;
                let b = self.src(w, get(1)?, w64)?;
                let r = icmp(c, a.v, b.v, ty);
                self.set_scc(w, r, self.full(a, w64) && self.full(b, w64));
            }
            SOp::Bitcmp { one, w64 } => {
                let a = self.src(w, get(0)?, w64)?;
                let b = self.s32(w, get(1)?)?;
                let bit = b.v & if w64 { 63 } else { 31 };
                let v = (a.v >> bit) & 1 == 1;
                let ok = b.def & 0x3f == 0x3f && (a.def >> bit) & 1 == 1;
                self.set_scc(w, v == one, ok);
            }
        }
        Ok(())
    }

    /// A scalar source of 32 or 64 bits as an [`S64`].
    fn src(&self, w: &Wave, slot: &Slot, w64: bool) -> Result<S64, InterpError> {
        if w64 {
            self.s64(w, slot)
        } else {
            let v = self.s32(w, slot)?;
            Ok(S64 {
                v: v.v as u64,
                def: v.def as u64 | 0xffff_ffff_0000_0000,
            })
        }
    }

    fn full(&self, v: S64, w64: bool) -> bool {
        v.def & width_mask(w64) == width_mask(w64)
    }

    /// SCC = result != 0 (defined when the result is known nonzero or fully
    /// defined).
    fn scc_nonzero(&self, w: &mut Wave, r: S64, w64: bool) {
        let m = width_mask(w64);
        if r.v & r.def & m != 0 {
            self.set_scc(w, true, true);
        } else {
            self.set_scc(w, false, r.def & m == m);
        }
    }
}

/// `u64` mask of a 32- or 64-bit value.
pub(crate) fn width_mask(w64: bool) -> u64 {
    if w64 {
        u64::MAX
    } else {
        u32::MAX as u64
    }
}

/// Bitwise and with per-bit definedness: a defined 0 on either side
/// decides the bit.
pub(crate) fn and(a: S64, b: S64) -> S64 {
    let zero_a = a.def & !a.v;
    let zero_b = b.def & !b.v;
    S64 {
        v: a.v & b.v,
        def: (a.def & b.def) | zero_a | zero_b,
    }
}

/// Bitwise or: a defined 1 on either side decides the bit.
pub(crate) fn or(a: S64, b: S64) -> S64 {
    let one_a = a.def & a.v;
    let one_b = b.def & b.v;
    S64 {
        v: a.v | b.v,
        def: (a.def & b.def) | one_a | one_b,
    }
}

/// Bitwise xor: both bits must be defined.
pub(crate) fn xor(a: S64, b: S64) -> S64 {
    S64 {
        v: a.v ^ b.v,
        def: a.def & b.def,
    }
}

/// Integer compare of two values of `ty`.
pub(crate) fn icmp(c: ICmp, a: u64, b: u64, ty: CmpTy) -> bool {
    use core::cmp::Ordering;
    let ord = match ty {
        CmpTy::I16 => (a as u16 as i16).cmp(&(b as u16 as i16)),
        CmpTy::U16 => (a as u16).cmp(&(b as u16)),
        CmpTy::I32 => (a as u32 as i32).cmp(&(b as u32 as i32)),
        CmpTy::U32 => (a as u32).cmp(&(b as u32)),
        CmpTy::I64 => (a as i64).cmp(&(b as i64)),
        _ => a.cmp(&b),
    };
    match c {
        ICmp::F => false,
        ICmp::T => true,
        ICmp::Lt => ord == Ordering::Less,
        ICmp::Eq => ord == Ordering::Equal,
        ICmp::Le => ord != Ordering::Greater,
        ICmp::Gt => ord == Ordering::Greater,
        ICmp::Ne => ord != Ordering::Equal,
        ICmp::Ge => ord != Ordering::Less,
    }
}
