//! The vector ALU: every encoding (`_e32`, `_e64`, SDWA, DPP16, DPP8,
//! VOP3P) through one per-lane evaluator.
//!
//! Operand roles come from `isa`'s slots: the first written VGPR is the
//! destination, a written scalar slot is the scalar destination (carry-out,
//! compare result, `v_readlane`), read slots typed [`ValType::Mask`] are the
//! lane-mask input (carry-in, `v_cndmask` selector), every other read slot
//! is a source in order. Lane masks are one SGPR in wave32 and a pair in
//! wave64, whatever count the decoder gave.

use crate::exec::{Exec, VCC};
use crate::float as f;
use crate::ops::{CmpOp, CmpTy, FCmp, PkOp, VOp};
use crate::record::InterpError;
use crate::salu::icmp;
use crate::wave::{Wave, S32, S64};
use isa::family::vop_ext::{Dpp16Mods, Dpp8Mods, DstUnused, SdwaMods};
use isa::operand::EXEC_LO;
use isa::{Family, Instruction, Modifiers, OpMods, OpSpace, Operand, Slot, ValType};

/// Where a source's bits come from.
#[derive(Clone, Copy, Debug)]
enum Base {
    /// A VGPR.
    V(usize),
    /// A uniform 32-bit value.
    S(S32),
}

/// One resolved source operand.
#[derive(Clone, Copy, Debug)]
struct VSrc {
    base: Base,
    /// 16-bit operand: which half.
    half: Option<bool>,
    /// SDWA select (0..=3 bytes, 4/5 words, 6 dword) and sign extension.
    sel: u8,
    sext: bool,
    /// Apply |x| then -x on the sign bit (bit 31, or 15 for 16-bit).
    abs: bool,
    neg: bool,
}

impl VSrc {
    /// The raw 32 bits in `lane` and their defined bytes.
    #[inline]
    fn raw(&self, w: &Wave, lane: usize) -> (u32, u8) {
        match self.base {
            Base::V(r) => w.read_v(r, lane),
            Base::S(s) => {
                let mut m = 0u8;
                for b in 0..4 {
                    if (s.def >> (8 * b)) & 0xff == 0xff {
                        m |= 1 << b;
                    }
                }
                (s.v, m)
            }
        }
    }

    /// The 32-bit value in `lane` and whether the bits it uses are defined.
    #[inline]
    fn get(&self, w: &Wave, lane: usize) -> (u32, bool) {
        let (v, m) = self.raw(w, lane);
        let (dl, dh) = (m & 3 == 3, m & 0xc == 0xc);
        let (mut x, def, sign) = if let Some(hi) = self.half {
            if hi {
                (v >> 16, dh, 15)
            } else {
                (v & 0xffff, dl, 15)
            }
        } else {
            match self.sel {
                0..=3 => {
                    let b = (v >> (8 * self.sel)) & 0xff;
                    let b = if self.sext {
                        b as u8 as i8 as i32 as u32
                    } else {
                        b
                    };
                    (b, (m >> self.sel) & 1 == 1, 31)
                }
                4 | 5 => {
                    let h = if self.sel == 4 { v & 0xffff } else { v >> 16 };
                    let h = if self.sext {
                        h as u16 as i16 as i32 as u32
                    } else {
                        h
                    };
                    (h, if self.sel == 4 { dl } else { dh }, 31)
                }
                _ => (v, dl && dh, 31),
            }
        };
        if self.abs {
            x &= !(1 << sign);
        }
        if self.neg {
            x ^= 1 << sign;
        }
        (x, def)
    }
}

/// The destination of a vector result.
#[derive(Clone, Copy, Debug)]
struct VDst {
    reg: usize,
    /// 16-bit destination: which half is written (the other is kept).
    half: Option<bool>,
    /// SDWA destination select and unused-bits mode.
    sdwa: Option<(u8, u8)>,
}

impl VDst {
    /// Write a whole value with per-byte definedness (moves and lane
    /// shuffles keep a partly defined dword partly defined).
    #[inline]
    fn put_bytes(&self, w: &mut Wave, lane: usize, v: u32, mask: u8) {
        if self.half.is_none() && matches!(self.sdwa, None | Some((6, _))) {
            w.write_v(self.reg, lane, v, mask);
        } else {
            self.put(w, lane, v, mask == 0xf);
        }
    }

    #[inline]
    fn put(&self, w: &mut Wave, lane: usize, v: u32, def: bool) {
        if let Some(hi) = self.half {
            if hi {
                w.write_v_hi16(self.reg, lane, v as u16, def);
            } else {
                w.write_v_lo16(self.reg, lane, v as u16, def);
            }
            return;
        }
        match self.sdwa {
            None | Some((6, _)) => w.write_v(self.reg, lane, v, if def { 0xf } else { 0 }),
            Some((sel, unused)) => {
                let (old, om) = w.read_v(self.reg, lane);
                let (shift, bits) = match sel {
                    0..=3 => (8 * sel as u32, 8u32),
                    4 | 5 => (16 * (sel as u32 - 4), 16),
                    _ => (0, 32),
                };
                let field = ((1u64 << bits) - 1) as u32;
                let part = (v & field) << shift;
                let mask = field << shift;
                let rest = match unused {
                    // UNUSED_PRESERVE
                    2 => old & !mask,
                    // UNUSED_SEXT: the bits above the field copy its top bit.
                    1 => {
                        let top = (v >> (bits - 1)) & 1;
                        let above = if shift + bits >= 32 {
                            0
                        } else {
                            u32::MAX << (shift + bits)
                        };
                        if top == 1 {
                            above
                        } else {
                            0
                        }
                    }
                    // UNUSED_PAD
                    _ => 0,
                };
                let val = part | rest;
                // Per byte: the field's bytes are as defined as the result;
                // the other bytes keep their old definedness (PRESERVE), are
                // constant (PAD) or follow the result (SEXT).
                let mut m = 0u8;
                for b in 0..4u32 {
                    let byte_mask = 0xffu32 << (8 * b);
                    let field_ok = mask & byte_mask == 0 || def;
                    let rest_ok = !mask & byte_mask == 0
                        || match unused {
                            2 => (om >> b) & 1 == 1,
                            1 => def,
                            _ => true,
                        };
                    if field_ok && rest_ok {
                        m |= 1 << b;
                    }
                }
                w.write_v(self.reg, lane, val, m);
            }
        }
    }
}

impl Exec<'_, '_> {
    /// A compare of 64-bit sources (`v_cmp*_{i,u,f}64`, `v_cmp*_class_f64`):
    /// each source a VGPR pair or a uniform 64-bit value, `|x|`/`-x` on an
    /// f64's bit 63; f64 denormals are compared as they are.
    fn compare64(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: VOp,
        exec: u64,
    ) -> Result<(), InterpError> {
        let mut sdst: Option<&Slot> = None;
        let mut srcs: Vec<&Slot> = Vec::new();
        for slot in inst.operands.iter() {
            if slot.is_def() {
                if !matches!(slot.op, Operand::Reg { code, .. } if code >= 256) {
                    sdst = Some(slot);
                }
            } else if slot.is_use() && slot.ty != ValType::Mask {
                srcs.push(slot);
            }
        }
        let (Some(a), Some(b)) = (srcs.first().copied(), srcs.get(1).copied()) else {
            return Err(self.unsupported("a 64-bit compare without two sources"));
        };
        // (VGPR pair, uniform value) per source.
        let read = |e: &Self, s: &Slot| -> Result<(Option<usize>, S64), InterpError> {
            Ok(match s.op {
                Operand::Reg { code, .. } if code >= 256 => {
                    (Some((code - 256) as usize), S64::known(0))
                }
                _ => (None, e.s64(w, s)?),
            })
        };
        let (ra, ua) = read(self, a)?;
        let class = matches!(op, VOp::CmpClass { .. });
        // The class mask is a 32-bit source, read per lane below.
        let (rb, ub) = if class {
            (None, S64::known(0))
        } else {
            read(self, b)?
        };
        let mask_src = if class {
            Some(self.vsrc(w, b, inst, 1)?)
        } else {
            None
        };
        let lane64 = |r: Option<usize>, u: S64, lane: usize| -> (u64, bool) {
            match r {
                Some(r) => {
                    let (lo, lm) = w.read_v(r, lane);
                    let (hi, hm) = w.read_v(r + 1, lane);
                    (lo as u64 | (hi as u64) << 32, lm == 0xf && hm == 0xf)
                }
                None => (u.v, u.def == u64::MAX),
            }
        };
        let mods = |s: &Slot, x: u64| -> u64 {
            if s.ty != ValType::F64 {
                return x;
            }
            let x = if s.mods.contains(OpMods::ABS) {
                x & !(1 << 63)
            } else {
                x
            };
            if s.mods.contains(OpMods::NEG) {
                x ^ (1 << 63)
            } else {
                x
            }
        };
        let mut res = S64 {
            v: 0,
            def: u64::MAX,
        };
        for lane in bits(exec) {
            let (x, dx) = lane64(ra, ua, lane);
            let x = mods(a, x);
            let (r, d) = match op {
                VOp::CmpClass { .. } => {
                    let (m, dm) = mask_src.map_or((0, false), |s| s.get(w, lane));
                    (class64(x) & m != 0, dx && dm)
                }
                VOp::Cmp {
                    op: CmpOp::I(ic),
                    ty,
                    ..
                } => {
                    let (y, dy) = lane64(rb, ub, lane);
                    (icmp(ic, x, y, ty), dx && dy)
                }
                VOp::Cmp {
                    op: CmpOp::F(fc), ..
                } => {
                    let (y, dy) = lane64(rb, ub, lane);
                    let y = mods(b, y);
                    (fcmp64(fc, f64::from_bits(x), f64::from_bits(y)), dx && dy)
                }
                _ => return Err(self.unsupported("not a 64-bit compare")),
            };
            if r {
                res.v |= 1 << lane;
            }
            if !d {
                res.def &= !(1 << lane);
            }
        }
        let x = matches!(op, VOp::Cmp { x: true, .. } | VOp::CmpClass { x: true, .. });
        self.write_compare(w, sdst, res, x);
        Ok(())
    }

    /// `v_lshlrev_b64 vD[2], amount, value[2]` and its right-shift
    /// siblings: the value shifted by the amount's low 6 bits. A result is
    /// defined only where the amount and all eight value bytes are.
    fn shift64(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        dir: crate::ops::Shift64,
        exec: u64,
    ) -> Result<(), InterpError> {
        use crate::ops::Shift64;
        let ops = inst.operands.as_slice();
        let (Some(dst), Some(amount), Some(value)) = (ops.first(), ops.get(1), ops.get(2)) else {
            return Err(self.unsupported("64-bit shift without its operands"));
        };
        let Operand::Reg { code: d, .. } = dst.op else {
            return Err(self.unsupported("64-bit shift without a VGPR destination"));
        };
        if d < 256 || !dst.is_def() {
            return Err(self.unsupported("64-bit shift without a VGPR destination"));
        }
        let d = (d - 256) as usize;
        let amount = self.vsrc(w, amount, inst, 0)?;
        // The 64-bit source: a VGPR pair, or a uniform 64-bit scalar value.
        let (vreg, uniform) = match value.op {
            Operand::Reg { code, .. } if code >= 256 => {
                (Some((code - 256) as usize), S64::known(0))
            }
            _ => (None, self.s64(w, value)?),
        };
        for lane in bits(exec) {
            let (n, n_def) = amount.get(w, lane);
            let (v, v_def) = match vreg {
                Some(r) => {
                    let (lo, lm) = w.read_v(r, lane);
                    let (hi, hm) = w.read_v(r + 1, lane);
                    (lo as u64 | (hi as u64) << 32, lm == 0xf && hm == 0xf)
                }
                None => (uniform.v, uniform.def == u64::MAX),
            };
            let n = n & 63;
            let r = match dir {
                Shift64::Left => v << n,
                Shift64::Logical => v >> n,
                Shift64::Arithmetic => ((v as i64) >> n) as u64,
            };
            let def = if n_def && v_def { 0xf } else { 0 };
            w.write_v(d, lane, r as u32, def);
            w.write_v(d + 1, lane, (r >> 32) as u32, def);
        }
        Ok(())
    }
}

fn is16(ty: ValType) -> bool {
    matches!(ty, ValType::B16 | ValType::F16)
}

impl Exec<'_, '_> {
    fn vsrc(
        &self,
        w: &Wave,
        slot: &Slot,
        inst: &Instruction,
        index: usize,
    ) -> Result<VSrc, InterpError> {
        if matches!(slot.ty, ValType::B64 | ValType::F64) {
            return Err(self.unsupported("64-bit vector operands are not modelled"));
        }
        let base = match slot.op {
            Operand::Reg { code, .. } if code >= 256 => Base::V((code - 256) as usize),
            _ => Base::S(self.s32(w, slot)?),
        };
        let packed = inst.family == Family::Vop3p;
        let mut src = VSrc {
            base,
            half: None,
            sel: 6,
            sext: false,
            abs: !packed && slot.mods.contains(OpMods::ABS),
            neg: !packed && slot.mods.contains(OpMods::NEG),
        };
        if is16(slot.ty) && !packed {
            src.half = Some(slot.mods.contains(OpMods::OP_SEL));
        }
        if let Modifiers::Sdwa(m) = inst.mods {
            src.sel = match index {
                0 => m.src0_sel.bits() as u8,
                1 => m.src1_sel.bits() as u8,
                _ => 6,
            };
            src.sext = slot.mods.contains(OpMods::SEXT);
            if src.half.is_some() && src.sel != 6 {
                // SDWA selects replace the 16-bit half rule.
                src.half = None;
            }
        }
        Ok(src)
    }

    pub(crate) fn valu(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: VOp,
    ) -> Result<(), InterpError> {
        if op == VOp::Nop {
            return Ok(());
        }
        let exec = self.active(w)?;
        if let VOp::Shift64(dir) = op {
            return self.shift64(w, inst, dir, exec);
        }
        if let VOp::Cmp {
            ty: CmpTy::I64 | CmpTy::U64 | CmpTy::F64,
            ..
        }
        | VOp::CmpClass { ty: CmpTy::F64, .. } = op
        {
            return self.compare64(w, inst, op, exec);
        }
        let mut vdefs: [Option<&Slot>; 2] = [None, None];
        let mut sdst: Option<&Slot> = None;
        let mut srcs: [Option<VSrc>; 3] = [None; 3];
        let mut n = 0usize;
        let mut mask_in: Option<S64> = None;
        for slot in inst.operands.iter() {
            if slot.is_def() {
                match slot.op {
                    Operand::Reg { code, .. } if code >= 256 => {
                        if vdefs[0].is_none() {
                            vdefs[0] = Some(slot);
                        } else {
                            vdefs[1] = Some(slot);
                        }
                    }
                    Operand::Reg { .. } => sdst = Some(slot),
                    _ => {}
                }
                continue;
            }
            if !slot.is_use() {
                continue;
            }
            if slot.ty == ValType::Mask {
                mask_in = Some(self.smask(w, slot)?);
                continue;
            }
            if n == 3 {
                return Err(self.unsupported("more than three sources"));
            }
            srcs[n] = Some(self.vsrc(w, slot, inst, n)?);
            n += 1;
        }
        let src = |i: usize| -> Result<VSrc, InterpError> {
            srcs[i].ok_or_else(|| self.unsupported(format!("missing source {i}")))
        };
        let (clamp, omod) = match inst.mods {
            Modifiers::Vop3(m) => (m.clamp, m.omod),
            Modifiers::Vop3p(m) => (m.clamp, 0),
            Modifiers::Sdwa(m) => (m.clamp, m.omod),
            _ => (false, 0),
        };
        let flush = w.fp.flush_f32;
        let lanes = w.lanes() as usize;

        // ---- ops with their own shape --------------------------------
        match op {
            VOp::Readlane | VOp::Readfirstlane => {
                let s0 = src(0)?;
                let (lane, lane_ok) = if op == VOp::Readlane {
                    let sel = src(1)?.get(w, 0);
                    ((sel.0 as usize) & (lanes - 1), sel.1)
                } else {
                    (
                        if exec == 0 {
                            0
                        } else {
                            exec.trailing_zeros() as usize
                        },
                        true,
                    )
                };
                let (v, m) = s0.raw(w, lane);
                let mut def = 0u64;
                for b in 0..4 {
                    if lane_ok && (m >> b) & 1 == 1 {
                        def |= 0xff << (8 * b);
                    }
                }
                let Some(dst) = sdst else {
                    return Err(self.unsupported("no scalar destination"));
                };
                self.sdst(w, dst, S64 { v: v as u64, def }, false);
                return Ok(());
            }
            VOp::Writelane => {
                let (v, d) = src(0)?.get(w, 0);
                let (sel, sd) = src(1)?.get(w, 0);
                let Some(dst) = vdefs[0] else {
                    return Err(self.unsupported("no destination"));
                };
                let reg = vreg(dst);
                if !sd {
                    // An undefined lane select: some lane of the wave gets an
                    // undefined value; forget them all.
                    for l in 0..lanes {
                        w.forget_v(reg, l);
                    }
                } else {
                    w.write_v(
                        reg,
                        (sel as usize) & (lanes - 1),
                        v,
                        if d { 0xf } else { 0 },
                    );
                }
                return Ok(());
            }
            VOp::Swap => {
                let (Some(a), Some(b)) = (vdefs[0], vdefs[1]) else {
                    return Err(self.unsupported("v_swap needs two registers"));
                };
                let (ra, rb) = (vreg(a), vreg(b));
                for lane in bits(exec) {
                    let (va, am) = w.read_v(ra, lane);
                    let (vb, bm) = w.read_v(rb, lane);
                    w.write_v(ra, lane, vb, bm);
                    w.write_v(rb, lane, va, am);
                }
                return Ok(());
            }
            VOp::Permlane16 { x } => {
                let s0 = src(0)?;
                let (s1, d1) = src(1)?.get(w, 0);
                let (s2, d2) = src(2)?.get(w, 0);
                let fi = inst
                    .operands
                    .iter()
                    .filter(|s| s.is_use())
                    .nth(0)
                    .is_some_and(|s| s.mods.contains(OpMods::OP_SEL));
                let bc = inst
                    .operands
                    .iter()
                    .filter(|s| s.is_use())
                    .nth(1)
                    .is_some_and(|s| s.mods.contains(OpMods::OP_SEL));
                let sel = s1 as u64 | (s2 as u64) << 32;
                let dst =
                    vdst_of(vdefs[0], inst).ok_or_else(|| self.unsupported("no destination"))?;
                let mut out = [(0u32, 0u8, false); 64];
                for lane in bits(exec) {
                    let row = lane & !15;
                    let row = if x { (row ^ 16) & (lanes - 1) } else { row };
                    let from = row + ((sel >> (4 * (lane % 16))) & 0xf) as usize;
                    if exec & (1 << from) == 0 && !fi {
                        out[lane] = if bc { (0, 0xf, false) } else { (0, 0, true) };
                        continue;
                    }
                    let (v, m) = s0.raw(w, from);
                    out[lane] = (v, if d1 && d2 { m } else { 0 }, false);
                }
                for lane in bits(exec) {
                    let (v, m, skip) = out[lane];
                    if !skip {
                        dst.put_bytes(w, lane, v, m);
                    }
                }
                return Ok(());
            }
            VOp::Pk(pk) => {
                let dst = vdefs[0].ok_or_else(|| self.unsupported("no destination"))?;
                let reg = vreg(dst);
                if clamp {
                    return Err(self.unsupported("clamp on packed 16-bit math"));
                }
                let used: Vec<&Slot> = inst
                    .operands
                    .iter()
                    .filter(|s| s.is_use() && !s.is_def())
                    .collect();
                let float = matches!(pk, PkOp::F(_));
                let n = match pk {
                    PkOp::F(f::F16Op::Fma) | PkOp::MadU | PkOp::MadI => 3,
                    _ => 2,
                };
                if used.len() < n {
                    return Err(self.unsupported("packed operation without its sources"));
                }
                // Each result half reads one half of each source (the one
                // its op_sel/op_sel_hi bit picks), so each is as defined as
                // the halves it reads: a register only half written (a
                // 16-bit result beside an undefined half) still gives the
                // halves that do not read the undefined one.
                let mut out = [(0u32, 0u8); 64];
                for lane in bits(exec) {
                    let mut r = 0u32;
                    let mut bytes = 0u8;
                    for k in 0..2 {
                        let mut x = [0u32; 3];
                        let mut def = true;
                        for (i, slot) in used.iter().take(n).enumerate() {
                            let (raw, m) = src(i)?.raw(w, lane);
                            let sel = slot.mods.contains(if k == 0 {
                                OpMods::OP_SEL
                            } else {
                                OpMods::OP_SEL_HI
                            });
                            def &= match slot.op {
                                Operand::Inline(_) => true,
                                _ if sel => m & 0xc == 0xc,
                                _ => m & 0x3 == 0x3,
                            };
                            // An inline constant is its 16-bit value in the
                            // low half, 0 above.
                            let word = match slot.op {
                                Operand::Inline(c) => {
                                    if float {
                                        isa::operand::inline_f16(c).unwrap_or(0) as u32
                                    } else {
                                        isa::operand::inline_b32(c).unwrap_or(0) & 0xffff
                                    }
                                }
                                _ => raw,
                            };
                            let h = if sel { word >> 16 } else { word & 0xffff };
                            let neg = slot.mods.contains(if k == 0 {
                                OpMods::NEG
                            } else {
                                OpMods::NEG_HI
                            });
                            x[i] = if neg && float { h ^ 0x8000 } else { h };
                        }
                        let sx = |v: u32| v as u16 as i16 as i32;
                        let h = match pk {
                            PkOp::F(o) => {
                                f::f16_op(o, x[0] as u16, x[1] as u16, x[2] as u16) as u32
                            }
                            PkOp::Add => x[0].wrapping_add(x[1]),
                            PkOp::Sub => x[0].wrapping_sub(x[1]),
                            PkOp::MulLo => x[0].wrapping_mul(x[1]),
                            PkOp::MaxU => x[0].max(x[1]),
                            PkOp::MinU => x[0].min(x[1]),
                            PkOp::MaxI => sx(x[0]).max(sx(x[1])) as u32,
                            PkOp::MinI => sx(x[0]).min(sx(x[1])) as u32,
                            PkOp::MadU | PkOp::MadI => x[0].wrapping_mul(x[1]).wrapping_add(x[2]),
                            PkOp::Lshl => x[1] << (x[0] & 15),
                            PkOp::Lshr => x[1] >> (x[0] & 15),
                            PkOp::Ashr => (sx(x[1]) >> (x[0] & 15)) as u32,
                        };
                        r |= (h & 0xffff) << (16 * k);
                        if def {
                            bytes |= 0x3 << (2 * k);
                        }
                    }
                    out[lane] = (r, bytes);
                }
                for lane in bits(exec) {
                    let (v, m) = out[lane];
                    w.write_v(reg, lane, v, m);
                }
                return Ok(());
            }
            VOp::FmaMix { half } => {
                let dst = vdefs[0].ok_or_else(|| self.unsupported("no destination"))?;
                let reg = vreg(dst);
                let mut used = inst.operands.iter().filter(|s| s.is_use() && !s.is_def());
                let slots: [Option<&Slot>; 3] = [used.next(), used.next(), used.next()];
                let mut out = [(0u32, 0u8); 64];
                for lane in bits(exec) {
                    let mut x = [0u32; 3];
                    let mut def = true;
                    for (i, slot) in slots.iter().enumerate() {
                        let Some(slot) = slot else {
                            return Err(self.unsupported("v_fma_mix needs three sources"));
                        };
                        let (raw, d) = src(i)?.get(w, lane);
                        def &= d;
                        x[i] = mix_source(slot, raw);
                    }
                    let r = f::fma(x[0], x[1], x[2], flush);
                    let r = f::omod_clamp(r, 0, clamp, flush);
                    out[lane] = match half {
                        None => (r, if def { 0xf } else { 0 }),
                        Some(hi) => {
                            // Clamped in f32 above: [0, 1] rounds into [0, 1].
                            let h = f::f32_to_f16(r, false) as u32;
                            let m = if def { 0x3 } else { 0 };
                            if hi {
                                (h << 16, m << 2)
                            } else {
                                (h, m)
                            }
                        }
                    };
                }
                for lane in bits(exec) {
                    let (v, m) = out[lane];
                    match half {
                        None => w.write_v(reg, lane, v, m),
                        Some(hi) => {
                            // The other half keeps its bytes (and their
                            // definedness).
                            let (old, old_m) = w.read_v(reg, lane);
                            let keep: u32 = if hi { 0x0000_ffff } else { 0xffff_0000 };
                            let keep_m: u8 = if hi { 0x3 } else { 0xc };
                            w.write_v(reg, lane, (old & keep) | v, (old_m & keep_m) | m);
                        }
                    }
                }
                return Ok(());
            }
            VOp::Cmp { op: c, ty, x } => {
                let a = src(0)?;
                let b = src(1)?;
                let mut res = S64 {
                    v: 0,
                    def: u64::MAX,
                };
                for lane in bits(exec) {
                    let (va, da) = a.get(w, lane);
                    let (vb, db) = b.get(w, lane);
                    let r = match c {
                        CmpOp::I(ic) => icmp(ic, va as u64, vb as u64, ty),
                        CmpOp::F(fc) => fcmp(fc, va, vb, ty, flush),
                    };
                    if r {
                        res.v |= 1 << lane;
                    }
                    if !(da && db) {
                        res.def &= !(1 << lane);
                    }
                }
                self.write_compare(w, sdst, res, x);
                return Ok(());
            }
            VOp::CmpClass { ty, x } => {
                let a = src(0)?;
                let b = src(1)?;
                let mut res = S64 {
                    v: 0,
                    def: u64::MAX,
                };
                for lane in bits(exec) {
                    let (va, da) = a.get(w, lane);
                    let (vb, db) = b.get(w, lane);
                    let bits32 = if ty == CmpTy::F16 {
                        f::f16_to_f32(va as u16)
                    } else {
                        va
                    };
                    if class_bit(bits32, ty == CmpTy::F16, va as u16) & vb != 0 {
                        res.v |= 1 << lane;
                    }
                    if !(da && db) {
                        res.def &= !(1 << lane);
                    }
                }
                self.write_compare(w, sdst, res, x);
                return Ok(());
            }
            VOp::AddCo | VOp::SubCo | VOp::SubrevCo | VOp::AddCi | VOp::SubCi | VOp::SubrevCi => {
                let a = src(0)?;
                let b = src(1)?;
                let cin = if matches!(op, VOp::AddCi | VOp::SubCi | VOp::SubrevCi) {
                    Some(match mask_in {
                        Some(m) => m,
                        None => w.read_mask(VCC),
                    })
                } else {
                    None
                };
                let dst =
                    vdst_of(vdefs[0], inst).ok_or_else(|| self.unsupported("no destination"))?;
                let mut carry = S64 {
                    v: 0,
                    def: u64::MAX,
                };
                for lane in bits(exec) {
                    let (va, da) = a.get(w, lane);
                    let (vb, db) = b.get(w, lane);
                    let (ci, dc) = match cin {
                        Some(m) => ((m.v >> lane) & 1, (m.def >> lane) & 1 == 1),
                        None => (0, true),
                    };
                    let (x, y) = if matches!(op, VOp::SubrevCo | VOp::SubrevCi) {
                        (vb, va)
                    } else {
                        (va, vb)
                    };
                    let (r, c) = if matches!(op, VOp::AddCo | VOp::AddCi) {
                        let s = x as u64 + y as u64 + ci;
                        (s as u32, s >> 32 != 0)
                    } else {
                        let s = (x as u64).wrapping_sub(y as u64).wrapping_sub(ci);
                        (s as u32, y as u64 + ci > x as u64)
                    };
                    let r = if clamp && c {
                        if matches!(op, VOp::AddCo | VOp::AddCi) {
                            u32::MAX
                        } else {
                            0
                        }
                    } else {
                        r
                    };
                    let d = da && db && dc;
                    dst.put(w, lane, r, d);
                    if c {
                        carry.v |= 1 << lane;
                    }
                    if !d {
                        carry.def &= !(1 << lane);
                    }
                }
                match sdst {
                    Some(s) => self.smask_dst(w, s, carry),
                    None => w.write_mask(VCC, carry),
                }
                return Ok(());
            }
            _ => {}
        }

        // ---- the generic per-lane ops ----------------------------------
        let dst =
            vdst_of(vdefs[0], inst).ok_or_else(|| self.unsupported("no vector destination"))?;
        let float_dst = vdefs[0].is_some_and(|s| s.ty == ValType::F32);
        if clamp && !float_dst && !int_clamps(op) {
            return Err(self.unsupported("clamp on this integer operation is not modelled"));
        }
        if omod != 0 && !float_dst {
            return Err(self.unsupported("omod on a non-float result"));
        }
        let mask = if op == VOp::Cndmask {
            Some(match mask_in {
                Some(m) => m,
                None => w.read_mask(VCC),
            })
        } else {
            None
        };
        let reads_dst = matches!(
            op,
            VOp::Fmac | VOp::FmacLegacy | VOp::Mac | VOp::MacLegacy | VOp::FmacF16 | VOp::PkFmacF16
        );
        let dpp = dpp_of(inst);
        let mut results = [(0u32, false, false); 64];
        let mut bytes_of: [Option<u8>; 64] = [None; 64];
        for lane in bits(exec) {
            // DPP: src0 comes from another lane, or the lane is not written.
            let mut from0 = lane;
            let mut zero0 = false;
            if let Some(d) = dpp {
                match d.source(lane, lanes, exec) {
                    DppLane::From(l) => from0 = l,
                    DppLane::Zero => zero0 = true,
                    DppLane::Skip => {
                        results[lane] = (0, false, true);
                        continue;
                    }
                }
            }
            let mut def = true;
            let mut rd = |i: usize, l: usize| -> u32 {
                match srcs[i] {
                    Some(s) => {
                        let (v, d) = s.get(w, l);
                        def &= d;
                        v
                    }
                    None => 0,
                }
            };
            if op == VOp::Mov
                && !zero0
                && srcs[0].is_some_and(|s| !s.abs && !s.neg && s.sel == 6 && s.half.is_none())
                && !clamp
                && omod == 0
            {
                let (v, m) = srcs[0].map(|s| s.raw(w, from0)).unwrap_or((0, 0));
                results[lane] = (v, m == 0xf, false);
                bytes_of[lane] = Some(m);
                continue;
            }
            let (a, b, c) = if matches!(op, VOp::Dot4U8 | VOp::Dot4I8) && !zero0 {
                // A byte product is defined when both bytes are, or when
                // either is a defined zero (a dword only partly written,
                // dotted with a mask that is zero there, is still exact).
                let (Some(s0), Some(s1), Some(s2)) = (srcs[0], srcs[1], srcs[2]) else {
                    return Err(self.unsupported("dot4 needs three sources"));
                };
                let (a, am) = s0.raw(w, from0);
                let (b, bm) = s1.raw(w, lane);
                let (c, cd) = s2.get(w, lane);
                def &= cd;
                for i in 0..4 {
                    let (ad, bd) = ((am >> i) & 1 == 1, (bm >> i) & 1 == 1);
                    let az = ad && (a >> (8 * i)) & 0xff == 0;
                    let bz = bd && (b >> (8 * i)) & 0xff == 0;
                    def &= (ad && bd) || az || bz;
                }
                (a, b, c)
            } else {
                let a = if zero0 { 0 } else { rd(0, from0) };
                (a, rd(1, lane), rd(2, lane))
            };
            let old = if reads_dst {
                let (v, m) = w.read_v(dst.reg, lane);
                def &= m == 0xf;
                // v_fmac_f16 accumulates into the half it writes.
                if op == VOp::FmacF16 && dst.half == Some(true) {
                    v >> 16
                } else {
                    v
                }
            } else {
                0
            };
            let m = match mask {
                Some(m) => {
                    def &= (m.def >> lane) & 1 == 1;
                    (m.v >> lane) & 1 == 1
                }
                None => false,
            };
            let r = match eval(op, a, b, c, old, lane as u32, m, flush, clamp) {
                Some(r) => r,
                None => return Err(self.unsupported("operation not modelled")),
            };
            let r = if float_dst && (clamp || omod != 0) {
                f::omod_clamp(r, omod, clamp, flush)
            } else {
                r
            };
            results[lane] = (r, def, false);
        }
        for lane in bits(exec) {
            let (r, d, skip) = results[lane];
            if skip {
                continue;
            }
            match bytes_of[lane] {
                Some(m) => dst.put_bytes(w, lane, r, m),
                None => dst.put(w, lane, r, d),
            }
        }
        Ok(())
    }

    /// Write a compare's lane mask: to its destination (VCC when the
    /// encoding implies it) and, for `v_cmpx`, to exec.
    fn write_compare(&mut self, w: &mut Wave, sdst: Option<&Slot>, res: S64, x: bool) {
        if x {
            if let Some(s) = sdst {
                self.smask_dst(w, s, res);
            }
            w.write_mask(EXEC_LO, res);
        } else {
            match sdst {
                Some(s) => self.smask_dst(w, s, res),
                None => w.write_mask(VCC, res),
            }
        }
    }
}

/// One `v_fma_mix*` source as f32 bits: with `op_sel_hi` it is the f16 in
/// the half `op_sel` picks (an inline constant is then its f16 value),
/// else the 32-bit value as f32; `neg_hi` (which `isa` reports as `ABS`
/// for these opcodes, as LLVM prints it: `|v1|`) takes the absolute value
/// and `neg_lo` negates, in that order.
fn mix_source(slot: &Slot, raw: u32) -> u32 {
    let x = if slot.mods.contains(OpMods::OP_SEL_HI) {
        let h = match slot.op {
            Operand::Inline(c) => isa::operand::inline_f16(c).unwrap_or(raw as u16),
            _ if slot.mods.contains(OpMods::OP_SEL) => (raw >> 16) as u16,
            _ => raw as u16,
        };
        f::f16_to_f32(h)
    } else {
        raw
    };
    let x = if slot.mods.intersects(OpMods::ABS | OpMods::NEG_HI) {
        x & 0x7fff_ffff
    } else {
        x
    };
    if slot.mods.contains(OpMods::NEG) {
        x ^ 0x8000_0000
    } else {
        x
    }
}

fn vreg(s: &Slot) -> usize {
    match s.op {
        Operand::Reg { code, .. } => (code as usize).saturating_sub(256),
        _ => 0,
    }
}

fn vdst_of(s: Option<&Slot>, inst: &Instruction) -> Option<VDst> {
    let s = s?;
    let reg = vreg(s);
    let half = if is16(s.ty) && inst.family != Family::Vop3p && inst.opcode.space() == OpSpace::Vop
    {
        Some(match inst.mods {
            Modifiers::Vop3(m) => m.opsel_dst,
            _ => false,
        })
    } else {
        None
    };
    let sdwa = match inst.mods {
        Modifiers::Sdwa(SdwaMods {
            dst_sel,
            dst_unused,
            ..
        }) => {
            // The reserved dst_unused value is treated as preserving, as
            // isa's operand access does.
            let unused = match dst_unused {
                DstUnused::Pad => 0,
                DstUnused::Sext => 1,
                DstUnused::Preserve | DstUnused::Reserved => 2,
            };
            Some((dst_sel.bits() as u8, unused))
        }
        _ => None,
    };
    let half = if sdwa.is_some() { None } else { half };
    Some(VDst { reg, half, sdwa })
}

/// Set bits of a mask, as lane numbers.
#[inline]
pub(crate) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

fn int_clamps(op: VOp) -> bool {
    matches!(
        op,
        VOp::AddNc
            | VOp::SubNc
            | VOp::SubrevNc
            | VOp::Dot4U8
            | VOp::Dot4I8
            | VOp::Dot2U16
            | VOp::Dot2I16
            | VOp::MadU24
            | VOp::MadI24
    )
}

/// The float compare `a <c> b` (f16 operands are widened exactly).
fn fcmp(c: FCmp, a: u32, b: u32, ty: CmpTy, flush: bool) -> bool {
    let (x, y) = match ty {
        CmpTy::F16 => (
            f32::from_bits(f::f16_to_f32(a as u16)),
            f32::from_bits(f::f16_to_f32(b as u16)),
        ),
        _ => f::cmp_operands(a, b, flush),
    };
    holds(c, x.partial_cmp(&y))
}

/// An f64 compare (IEEE: ±0 equal, NaN unordered).
fn fcmp64(c: FCmp, x: f64, y: f64) -> bool {
    holds(c, x.partial_cmp(&y))
}

/// Whether compare `c` holds for operands ordered `o` (`None`: unordered,
/// a NaN operand).
fn holds(c: FCmp, o: Option<core::cmp::Ordering>) -> bool {
    use core::cmp::Ordering::{Equal, Greater, Less};
    let (lt, eq, gt) = (o == Some(Less), o == Some(Equal), o == Some(Greater));
    match c {
        FCmp::F => false,
        FCmp::Tru => true,
        FCmp::Lt => lt,
        FCmp::Eq => eq,
        FCmp::Le => lt || eq,
        FCmp::Gt => gt,
        FCmp::Lg => lt || gt,
        FCmp::Ge => gt || eq,
        FCmp::O => o.is_some(),
        FCmp::U => o.is_none(),
        FCmp::Nge => !(gt || eq),
        FCmp::Nlg => !(lt || gt),
        FCmp::Ngt => !gt,
        FCmp::Nle => !(lt || eq),
        FCmp::Neq => !eq,
        FCmp::Nlt => !lt,
    }
}

/// The `v_cmp_class_f64` bit of an f64's bits (the classes of `class_bit`).
fn class64(b: u64) -> u32 {
    let e = (b >> 52) & 0x7ff;
    let m = b & ((1 << 52) - 1);
    class_of(b >> 63 == 1, e == 0x7ff, e == 0, m == 0, m & (1 << 51) != 0)
}

/// The `v_cmp_class` bit of a value: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class_bit(b32: u32, half: bool, h: u16) -> u32 {
    let (neg, exp_all, exp_zero, mant_zero, quiet) = if half {
        let e = (h >> 10) & 0x1f;
        let m = h & 0x3ff;
        (h & 0x8000 != 0, e == 0x1f, e == 0, m == 0, m & 0x200 != 0)
    } else {
        let e = (b32 >> 23) & 0xff;
        let m = b32 & 0x7f_ffff;
        (
            b32 & 0x8000_0000 != 0,
            e == 0xff,
            e == 0,
            m == 0,
            m & 0x40_0000 != 0,
        )
    };
    class_of(neg, exp_all, exp_zero, mant_zero, quiet)
}

/// The `v_cmp_class` bit (see `class_bit`) of a float with sign `neg`, an
/// all-ones or zero exponent, a zero mantissa and the quiet bit set.
fn class_of(neg: bool, exp_all: bool, exp_zero: bool, mant_zero: bool, quiet: bool) -> u32 {
    let bit = if exp_all {
        if mant_zero {
            if neg {
                2
            } else {
                9
            }
        } else if quiet {
            1
        } else {
            0
        }
    } else if exp_zero {
        match (mant_zero, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// The result of a generic op in one lane (`None`: not modelled here).
#[allow(clippy::too_many_arguments)]
fn eval(
    op: VOp,
    a: u32,
    b: u32,
    c: u32,
    old: u32,
    lane: u32,
    m: bool,
    fl: bool,
    clamp: bool,
) -> Option<u32> {
    let u24 = |x: u32| x & 0xff_ffff;
    let i24 = |x: u32| ((x << 8) as i32) >> 8;
    let tm: u64 = (1u64 << lane) - 1;
    Some(match op {
        VOp::Mov => a,
        VOp::Not => !a,
        VOp::Bfrev => a.reverse_bits(),
        VOp::Ffbh => {
            if a == 0 {
                u32::MAX
            } else {
                a.leading_zeros()
            }
        }
        VOp::Ffbl => {
            if a == 0 {
                u32::MAX
            } else {
                a.trailing_zeros()
            }
        }
        VOp::FfbhI => {
            let x = a as i32;
            if x == 0 || x == -1 {
                u32::MAX
            } else {
                (if x < 0 { !a } else { a }).leading_zeros()
            }
        }
        VOp::Bcnt => (a.count_ones()).wrapping_add(b),
        VOp::MbcntLo => (a & tm as u32).count_ones().wrapping_add(b),
        VOp::MbcntHi => (a & (tm >> 32) as u32).count_ones().wrapping_add(b),
        VOp::Cndmask => {
            if m {
                b
            } else {
                a
            }
        }
        VOp::AddNc => {
            let (r, o) = a.overflowing_add(b);
            if clamp && o {
                u32::MAX
            } else {
                r
            }
        }
        VOp::SubNc | VOp::SubrevNc => {
            let (x, y) = if op == VOp::SubNc { (a, b) } else { (b, a) };
            let (r, o) = x.overflowing_sub(y);
            if clamp && o {
                0
            } else {
                r
            }
        }
        VOp::MulU24 => u24(a).wrapping_mul(u24(b)),
        VOp::MulI24 => i24(a).wrapping_mul(i24(b)) as u32,
        VOp::MulHiU24 => ((u24(a) as u64 * u24(b) as u64) >> 32) as u32,
        VOp::MulHiI24 => ((i24(a) as i64 * i24(b) as i64) >> 32) as u32,
        VOp::MulLo => a.wrapping_mul(b),
        VOp::MulHiU32 => ((a as u64 * b as u64) >> 32) as u32,
        VOp::MulHiI32 => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        VOp::MadU24 => {
            let s = u24(a) as u64 * u24(b) as u64 + c as u64;
            if clamp && s > u32::MAX as u64 {
                u32::MAX
            } else {
                s as u32
            }
        }
        VOp::MadI24 => {
            let s = i24(a) as i64 * i24(b) as i64 + c as i32 as i64;
            if clamp {
                s.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
            } else {
                s as u32
            }
        }
        VOp::MinI => (a as i32).min(b as i32) as u32,
        VOp::MaxI => (a as i32).max(b as i32) as u32,
        VOp::MinU => a.min(b),
        VOp::MaxU => a.max(b),
        VOp::Min3I => (a as i32).min(b as i32).min(c as i32) as u32,
        VOp::Max3I => (a as i32).max(b as i32).max(c as i32) as u32,
        VOp::Med3I => {
            let (x, y, z) = (a as i32, b as i32, c as i32);
            x.min(y).max(x.max(y).min(z)) as u32
        }
        VOp::Min3U => a.min(b).min(c),
        VOp::Max3U => a.max(b).max(c),
        VOp::Med3U => a.min(b).max(a.max(b).min(c)),
        VOp::And => a & b,
        VOp::Or => a | b,
        VOp::Xor => a ^ b,
        VOp::Xnor => !(a ^ b),
        VOp::Lshlrev => b << (a & 31),
        VOp::Lshrrev => b >> (a & 31),
        VOp::Ashrrev => ((b as i32) >> (a & 31)) as u32,
        VOp::LshlAdd => (a << (b & 31)).wrapping_add(c),
        VOp::AddLshl => a.wrapping_add(b) << (c & 31),
        VOp::LshlOr => (a << (b & 31)) | c,
        VOp::AndOr => (a & b) | c,
        VOp::Or3 => a | b | c,
        VOp::Xor3 => a ^ b ^ c,
        VOp::Add3 => a.wrapping_add(b).wrapping_add(c),
        VOp::Xad => (a ^ b).wrapping_add(c),
        VOp::BfeU => {
            let off = b & 31;
            let w = c & 31;
            if w == 0 {
                0
            } else {
                (a >> off) & ((1u32 << w) - 1)
            }
        }
        VOp::BfeI => {
            let off = b & 31;
            let w = c & 31;
            if w == 0 {
                0
            } else {
                let x = (a >> off) & ((1u32 << w) - 1);
                (((x << (32 - w)) as i32) >> (32 - w)) as u32
            }
        }
        VOp::Bfi => (a & b) | (!a & c),
        VOp::Bfm => ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31),
        VOp::Alignbit => ((((a as u64) << 32) | b as u64) >> (c & 31)) as u32,
        VOp::Alignbyte => ((((a as u64) << 32) | b as u64) >> (8 * (c & 3))) as u32,
        VOp::Perm => {
            let bytes = ((a as u64) << 32) | b as u64;
            let mut r = 0u32;
            for i in 0..4 {
                let s = (c >> (8 * i)) & 0xff;
                let byte = match s {
                    0..=7 => ((bytes >> (8 * s)) & 0xff) as u32,
                    8..=11 => {
                        // Sign of a 16-bit half, replicated.
                        let src_byte = (s - 8) * 2 + 1;
                        if (bytes >> (8 * src_byte + 7)) & 1 == 1 {
                            0xff
                        } else {
                            0
                        }
                    }
                    12 => 0,
                    _ => 0xff,
                };
                r |= byte << (8 * i);
            }
            r
        }
        VOp::Dot4U8 => {
            let mut s = c as u64;
            for i in 0..4 {
                s += ((a >> (8 * i)) & 0xff) as u64 * ((b >> (8 * i)) & 0xff) as u64;
            }
            if clamp && s > u32::MAX as u64 {
                u32::MAX
            } else {
                s as u32
            }
        }
        VOp::Dot4I8 => {
            let mut s = c as i32 as i64;
            for i in 0..4 {
                s += ((a >> (8 * i)) as u8 as i8 as i64) * ((b >> (8 * i)) as u8 as i8 as i64);
            }
            if clamp {
                s.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
            } else {
                s as u32
            }
        }
        VOp::Dot2U16 => {
            let s = c as u64
                + (a & 0xffff) as u64 * (b & 0xffff) as u64
                + (a >> 16) as u64 * (b >> 16) as u64;
            if clamp && s > u32::MAX as u64 {
                u32::MAX
            } else {
                s as u32
            }
        }
        VOp::Dot2I16 => {
            let h = |x: u32, k: u32| (x >> (16 * k)) as u16 as i16 as i64;
            let s = c as i32 as i64 + h(a, 0) * h(b, 0) + h(a, 1) * h(b, 1);
            if clamp {
                s.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
            } else {
                s as u32
            }
        }
        VOp::AddF => f::add(a, b, fl),
        VOp::SubF => f::add(a, b ^ 0x8000_0000, fl),
        VOp::SubrevF => f::add(b, a ^ 0x8000_0000, fl),
        VOp::MulF => f::mul(a, b, fl),
        VOp::MulLegacyF => f::mul_legacy(a, b, fl),
        VOp::MinF => f::min(a, b, fl),
        VOp::MaxF => f::max(a, b, fl),
        VOp::Min3F => f::min3(a, b, c, fl),
        VOp::Max3F => f::max3(a, b, c, fl),
        VOp::Med3F => f::med3(a, b, c, fl),
        VOp::Cube(k) => f::cube(a, b, c, fl)[k as usize & 3],
        VOp::Fma => f::fma(a, b, c, fl),
        VOp::FmaLegacy => f::fma_legacy(a, b, c, fl),
        #[cfg(feature = "testing")]
        VOp::Fmac if crate::faults::fmac_swapped() => f::fma(a, old, b, fl),
        VOp::Fmac => f::fma(a, b, old, fl),
        VOp::FmacLegacy => f::fma_legacy(a, b, old, fl),
        // LLVM prints fmamk as `src0, K, src1` (D = S0 * K + S1) and
        // fmaak as `src0, src1, K` (D = S0 * S1 + K): both a * b + c.
        VOp::Fmamk => f::fma(a, b, c, fl),
        VOp::Fmaak => f::fma(a, b, c, fl),
        VOp::Mad => f::mad(a, b, c, fl),
        VOp::MadLegacy => f::mad_legacy(a, b, c, fl),
        VOp::Mac => f::mad(a, b, old, fl),
        VOp::MacLegacy => f::mad_legacy(a, b, old, fl),
        VOp::Madmk => f::mad(a, b, c, fl),
        VOp::Madak => f::mad(a, b, c, fl),
        VOp::LdexpF => f::ldexp(a, b as i32, fl),
        VOp::Rcp | VOp::RcpIflag => f::rcp(a, fl),
        VOp::Rsq => f::rsq(a, fl),
        VOp::Sqrt => f::sqrt(a, fl),
        VOp::Exp => f::exp2(a, fl),
        VOp::Log => f::log2(a, fl),
        VOp::Sin => f::sin(a, fl),
        VOp::Cos => f::cos(a, fl),
        VOp::Fract => f::fract(a, fl),
        VOp::Trunc => f::trunc(a, fl),
        VOp::Ceil => f::ceil(a, fl),
        VOp::Floor => f::floor(a, fl),
        VOp::Rndne => f::rndne(a, fl),
        VOp::FrexpExp => f::frexp_exp(a, fl),
        VOp::FrexpMant => f::frexp_mant(a, fl),
        VOp::CvtF32I32 => f::ftz((a as i32 as f32).to_bits(), fl),
        VOp::CvtF32U32 => f::ftz((a as f32).to_bits(), fl),
        VOp::CvtI32F32 => f32::from_bits(f::ftz(a, fl)) as i32 as u32,
        VOp::CvtU32F32 => f32::from_bits(f::ftz(a, fl)) as u32,
        VOp::CvtFlrI32F32 => f32::from_bits(f::ftz(a, fl)).floor() as i32 as u32,
        VOp::CvtRpiI32F32 => (f32::from_bits(f::ftz(a, fl)) + 0.5).floor() as i32 as u32,
        VOp::F16 { op: o, rev } => {
            let (x, y) = if rev { (b, a) } else { (a, b) };
            f::f16_op(o, x as u16, y as u16, c as u16) as u32
        }
        VOp::FmacF16 => f::f16_op(f::F16Op::Fma, a as u16, b as u16, old as u16) as u32,
        VOp::PackB32F16 => (a & 0xffff) | (b << 16),
        VOp::PkFmacF16 => {
            let lo = f::f16_op(f::F16Op::Fma, a as u16, b as u16, old as u16) as u32;
            let hi = f::f16_op(
                f::F16Op::Fma,
                (a >> 16) as u16,
                (b >> 16) as u16,
                (old >> 16) as u16,
            ) as u32;
            lo | hi << 16
        }
        VOp::CvtF16F32 => f::f32_to_f16(f::ftz(a, fl), false) as u32,
        VOp::CvtF32F16 => f::ftz(f::f16_to_f32(a as u16), fl),
        VOp::CvtF32Ubyte(n) => (((a >> (8 * n as u32)) & 0xff) as f32).to_bits(),
        VOp::CvtPkrtz => {
            let lo = f::f32_to_f16(f::ftz(a, fl), true) as u32;
            let hi = f::f32_to_f16(f::ftz(b, fl), true) as u32;
            lo | hi << 16
        }
        VOp::CvtPkU8F32 => {
            let x = f32::from_bits(f::ftz(a, fl));
            let byte = (x.round_ties_even().clamp(0.0, 255.0)) as u32;
            let sh = 8 * (b & 3);
            (c & !(0xff << sh)) | (byte << sh)
        }
        _ => return None,
    })
}

/// How DPP maps a lane to its src0 lane.
#[derive(Clone, Copy, Debug)]
enum Dpp {
    D16(Dpp16Mods),
    D8(Dpp8Mods),
}

#[derive(Clone, Copy, Debug)]
enum DppLane {
    From(usize),
    Zero,
    Skip,
}

fn dpp_of(inst: &Instruction) -> Option<Dpp> {
    match inst.mods {
        Modifiers::Dpp16(m) => Some(Dpp::D16(m)),
        Modifiers::Dpp8(m) => Some(Dpp::D8(m)),
        _ => None,
    }
}

impl Dpp {
    /// Where lane `lane` reads src0 from (`isa`'s lane movement), or that
    /// the lane reads zero (`bound_ctrl`) or is not written.
    fn source(&self, lane: usize, lanes: usize, exec: u64) -> DppLane {
        let (from, fi, bound_ctrl) = match *self {
            Dpp::D8(m) => (Some(m.source_lane(lane as u32)), m.fi, false),
            Dpp::D16(m) => {
                let row = lane / 16;
                let bank = (lane % 16) / 4;
                if m.row_mask & (1 << row) == 0 || m.bank_mask & (1 << bank) == 0 {
                    return DppLane::Skip;
                }
                (m.ctrl.source_lane(lane as u32), m.fi, m.bound_ctrl)
            }
        };
        match from {
            Some(f) if (f as usize) < lanes && (exec & (1 << f) != 0 || fi) => {
                DppLane::From(f as usize)
            }
            _ if bound_ctrl => DppLane::Zero,
            _ => DppLane::Skip,
        }
    }
}
