//! VOP1, VOP2, VOPC (`_e32`), VOP3 and VOP3P decoding.
//!
//! One table lookup by (target, native opcode) gives the instruction and its
//! form; the form's slot list says which field holds each operand and how
//! wide it is, and its bit roles say what each modifier bit does. DPP16,
//! DPP8 and SDWA words (src0 = 0xFA, 0xE9/0xEA, 0xF9) are not decoded
//! here yet.

use super::ext_plan;
use super::vop_plan::{self, Plan};
use super::{DecodeErrorKind, Mode, Words};
use crate::family::vop::{target_index, Fld, Role, Vop3Mods, Vop3pMods, VopForm, VopInfo, VopSlot};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{OpMods, Operand, Slot, ValType, VCC_LO};
use crate::tables::{vop as t, vop3p as tp};
use crate::target::Target;

#[inline]
fn row(table: &'static [VopInfo], p: Option<&u16>) -> Option<&'static VopInfo> {
    table.get(*p? as usize)
}

/// [`decode_vop_short`]'s encodings (the dispatch's lookup tells them
/// apart by bits 31:25).
pub(crate) const SHORT_VOP2: u8 = 0;
pub(crate) const SHORT_VOPC: u8 = 1;
pub(crate) const SHORT_VOP1: u8 = 2;

#[inline(always)]
pub(crate) fn decode_vop_short<const KIND: u8>(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    decode_short::<KIND>(w, d0, target, mode.wave64, out)
}

#[inline(always)]
fn decode_short<const KIND: u8>(
    w: Words<'_>,
    d0: u32,
    target: Target,
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let ti = target_index(target);
    let (family, op, p) = match KIND {
        SHORT_VOPC => {
            let op = (d0 >> 17) & 0xff;
            (
                Family::Vopc,
                op,
                t::MAP_VOPC.get(ti).and_then(|m| m.get(op as usize)),
            )
        }
        SHORT_VOP1 => {
            let op = (d0 >> 9) & 0xff;
            (
                Family::Vop1,
                op,
                t::MAP_VOP1.get(ti).and_then(|m| m.get(op as usize)),
            )
        }
        _ => {
            let op = d0 >> 25;
            (
                Family::Vop2,
                op,
                t::MAP_VOP2.get(ti).and_then(|m| m.get(op as usize)),
            )
        }
    };
    // DPP and SDWA are selected by src0; they are decoded elsewhere.
    let ext = match d0 & 0x1ff {
        0xf9 => Some(Family::Sdwa),
        0xfa => Some(Family::Dpp16),
        0xe9 | 0xea => Some(Family::Dpp8),
        _ => None,
    };
    let unknown = |family| DecodeErrorKind::UnknownOpcode {
        family,
        opcode: op as u16,
        target,
    };
    if let Some(f) = ext {
        // The form's plan first, by the row index the map gave.
        if let Some(plan) = p.and_then(|&pi| ext_plan::row_plan(pi, f)) {
            if ext_plan::run(plan, f, w, d0, wave64, target.bit(), out) {
                out.opcode = plan.opcode;
                out.family = f;
                return Ok(());
            }
        }
        let mode = Mode { target, wave64 };
        if let Some(r) = super::vop_ext::decode(w, d0, f, row(&t::VOP, p), mode, out) {
            return r;
        }
        // No such form: LLVM decodes the word as the `_e32` instruction,
        // which only works when that ignores src0 (`v_nop`).
        let info = row(&t::VOP, p).ok_or(unknown(f))?;
        let form = info.e32.as_ref().ok_or(unknown(f))?;
        return decode_form::<false>(w, info, form, OpSpace::Vop, [d0, 0], wave64, out)
            .map_err(|_| unknown(f));
    }
    // The plan first: a form with a plan exists, so the table row and
    // form are only looked up when the plan does not cover the bits.
    if let Some(&pi) = p {
        if let (Some(plan), Some(info)) = (
            PLANS_VOP[wave64 as usize].get(pi as usize),
            t::VOP.get(pi as usize),
        ) {
            if vop_plan::run::<false>(&plan[0], &info.e32, w, [d0, 0], out) {
                return Ok(());
            }
        }
    }
    let info = row(&t::VOP, p).ok_or(unknown(family))?;
    let form = info.e32.as_ref().ok_or(unknown(family))?;
    decode_form::<false>(w, info, form, OpSpace::Vop, [d0, 0], wave64, out)
}

#[inline(always)]
pub(crate) fn decode_vop3(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    decode_3(w, d0, target, mode.wave64, out)
}

#[inline(always)]
fn decode_3(
    w: Words<'_>,
    d0: u32,
    target: Target,
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let op = (d0 >> 16) & 0x3ff;
    let p = t::MAP_VOP3
        .get(target_index(target))
        .and_then(|m| m.get(op as usize));
    let unknown = DecodeErrorKind::UnknownOpcode {
        family: Family::Vop3,
        opcode: op as u16,
        target,
    };
    // The plan first (see `decode_short`); a planned form reads its
    // second dword, so a truncation there is reported as before.
    if let Some(&pi) = p {
        if let (Some(plan), Some(info)) = (
            PLANS_VOP[wave64 as usize].get(pi as usize),
            t::VOP.get(pi as usize),
        ) {
            if plan[1].has_plan() {
                let d1 = w.get(1)?;
                if vop_plan::run::<true>(&plan[1], &info.e64, w, [d0, d1], out) {
                    return Ok(());
                }
            }
        }
    }
    let info = row(&t::VOP, p).ok_or(unknown)?;
    let form = info.e64.as_ref().ok_or(unknown)?;
    let d1 = w.get(1)?;
    decode_form::<true>(w, info, form, OpSpace::Vop, [d0, d1], wave64, out)
}

pub(crate) fn decode_vop3p(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = (d0 >> 16) & 0x7f;
    let p = tp::MAP_VOP3P
        .get(target_index(target))
        .and_then(|m| m.get(op as usize));
    let unknown = DecodeErrorKind::UnknownOpcode {
        family: Family::Vop3p,
        opcode: op as u16,
        target,
    };
    let info = row(&tp::VOP3P, p).ok_or(unknown)?;
    let form = info.e64.as_ref().ok_or(unknown)?;
    let d1 = w.get(1)?;
    if let Some(plan) = p.and_then(|&p| PLANS_VOP3P.get(p as usize)) {
        if vop_plan::run::<true>(plan, &info.e64, w, [d0, d1], out) {
            return Ok(());
        }
    }
    decode_form::<true>(w, info, form, OpSpace::Vop3p, [d0, d1], false, out)
}

/// [`Plan`]s of every row of the VOP table: `[e32, e64]`, for wave32
/// code and for wave64 code.
static PLANS_VOP: [[[Plan; 2]; t::VOP.len()]; 2] = {
    let mut plans = [[[Plan::NONE; 2]; t::VOP.len()]; 2];
    let mut w = 0;
    while w < 2 {
        let mut i = 0;
        while i < t::VOP.len() {
            let info = &t::VOP[i];
            plans[w][i] = [
                Plan::of(info, &info.e32, OpSpace::Vop, false, w == 1),
                Plan::of(info, &info.e64, OpSpace::Vop, true, w == 1),
            ];
            i += 1;
        }
        w += 1;
    }
    plans
};

/// [`Plan`]s of the VOP3P table's forms.
static PLANS_VOP3P: [Plan; tp::VOP3P.len()] = {
    let mut plans = [Plan::NONE; tp::VOP3P.len()];
    let mut i = 0;
    while i < plans.len() {
        let info = &tp::VOP3P[i];
        plans[i] = Plan::of(info, &info.e64, OpSpace::Vop3p, true, false);
        i += 1;
    }
    plans
};

/// An [`DecodeErrorKind::InvalidField`] (kept out of the hot paths).
#[cold]
#[inline(never)]
fn invalid(family: Family, why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family, why }
}

/// A source-operand code (9 bits; scalar destinations use the low 8 or 7)
/// for an operand `count` registers wide, as LLVM decodes it. The literal
/// code gives `Operand::Literal(0)`: the caller reads the literal dword.
#[inline(always)]
pub(super) fn src(code: u32, count: u8, family: Family) -> Result<Operand, DecodeErrorKind> {
    // The common cases first: a VGPR, one scalar register, a constant.
    if code >= 256 {
        let n = code - 256;
        if n + count as u32 > 256 {
            return Err(invalid(family, "VGPR range past v255"));
        }
        return Ok(Operand::Reg {
            code: code as u16,
            count,
        });
    }
    if code < 128 && count == 1 {
        return Ok(Operand::Reg {
            code: code as u16,
            count: 1,
        });
    }
    if matches!(code, 128..=208 | 240..=248) {
        return Ok(Operand::Inline(code as u8));
    }
    src_other(code as u16, count, family)
}

/// [`src`] for the literal, special registers and wide scalar operands.
#[inline(never)]
fn src_other(c: u16, count: u8, family: Family) -> Result<Operand, DecodeErrorKind> {
    match (c, count) {
        (255, _) => Ok(Operand::Literal(0)),
        (0..=127 | 235..=239 | 251..=254, 1) => Ok(Operand::Reg { code: c, count: 1 }),
        // Wider operands: SGPR and TTMP ranges are aligned (LLVM drops the
        // low bits), and only some special registers have a wide form.
        (0..=105 | 108..=123, 2) => Ok(Operand::Reg {
            code: c & !1,
            count: 2,
        }),
        (106 | 125 | 126 | 235..=239 | 251..=253, 2) => Ok(Operand::Reg { code: c, count: 2 }),
        (0..=103, 4) | (108..=123, 4) => Ok(Operand::Reg {
            code: c & !3,
            count: 4,
        }),
        _ => Err(invalid(family, "register cannot be used at this width")),
    }
}

/// Where a register field sits in the encoding's first two dwords (as one
/// `u64`, first dword low): (shift, mask), by `[wide as usize][fld as
/// usize]` for a short (`_e32`) or wide (VOP3/VOP3P) encoding. Fields that
/// are not registers have mask 0. A table rather than a `match`: LLVM
/// would otherwise compute every field of every form up front.
static FIELDS: [[(u8, u16); 10]; 2] = {
    let mut t = [[(0, 0); 10]; 2];
    let mut wide = 0;
    while wide < 2 {
        t[wide][Fld::Vdst as usize] = if wide == 1 { (0, 0xff) } else { (17, 0xff) };
        t[wide][Fld::Src0 as usize] = if wide == 1 { (32, 0x1ff) } else { (0, 0x1ff) };
        t[wide][Fld::Vsrc1 as usize] = (9, 0xff);
        t[wide][Fld::Src1 as usize] = (32 + 9, 0x1ff);
        t[wide][Fld::Src2 as usize] = (32 + 18, 0x1ff);
        t[wide][Fld::Sdst as usize] = (8, 0x7f);
        wide += 1;
    }
    t
};

/// The bits of register field `fld` of the encoding `d` (first dword low).
#[inline(always)]
fn field(fld: Fld, wide: bool, d: u64) -> u32 {
    let (shift, mask) = match FIELDS[wide as usize].get(fld as usize) {
        Some(&f) => f,
        None => (0, 0),
    };
    (d >> (shift & 63)) as u32 & mask as u32
}

/// The VOP3/VOP3P modifier bits of an encoding, by
/// [`crate::family::vop::bit_position`]: bit `i` of the result is the bit
/// at position `i` of [`VopForm::bits`].
#[inline(always)]
fn modifier_bits(d: [u32; 2]) -> u32 {
    ((d[0] >> 8) & 0xff) | (((d[1] >> 27) & 0x1f) << 8) | (((d[0] >> 23) & 7) << 13)
}

/// One operand of a form. A literal is `Operand::Literal(0)` (see [`src`]).
#[inline(always)]
fn decode_slot(
    s: &VopSlot,
    d: [u32; 2],
    wide: bool,
    wave64: bool,
    family: Family,
) -> Result<Operand, DecodeErrorKind> {
    // Lane masks are one SGPR in wave32 and a pair in wave64.
    let width = if wave64 && s.ty == ValType::Mask {
        2
    } else {
        s.width
    };
    Ok(match s.fld {
        Fld::KLit => Operand::Literal(0),
        Fld::Vcc => Operand::Reg {
            code: VCC_LO,
            count: width,
        },
        Fld::Attr => Operand::Imm((d[1] & 0xff) as i32),
        Fld::Param => Operand::Imm(((d[1] >> 9) & 0x1ff) as i32),
        fld => {
            // Every register field goes through one path: its bits (a
            // VGPR-only field offset into the VGPR codes), then the
            // source-code rules.
            let raw = field(fld, wide, (d[1] as u64) << 32 | d[0] as u64);
            let vgpr_only = fld == Fld::Vsrc1 || (fld == Fld::Vdst && s.cls.vgpr);
            let (code, count) = if vgpr_only {
                (raw | 256, s.width)
            } else if fld == Fld::Src0 {
                (raw, s.width)
            } else {
                (raw, width)
            };
            src(code, count, family)?
        }
    })
}

/// Decode `form` (`WIDE`: a VOP3/VOP3P form, else an `_e32` one).
fn decode_form<const WIDE: bool>(
    w: Words<'_>,
    info: &'static VopInfo,
    form: &'static VopForm,
    space: OpSpace,
    d: [u32; 2],
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let family = form.family;
    let wide = WIDE;
    if (d[0] & form.fixed[0]) | (d[1] & form.fixed[1]) != 0 {
        return Err(invalid(family, "a bit LLVM requires to be zero is set"));
    }
    // Built in place: the operand array is the bulk of the instruction.
    let inst = out;
    inst.opcode = Opcode::new(space, info.index);
    inst.family = family;
    // The literal dword (after the encoding) is read once, after the
    // operands; an error in a later operand still reports a missing
    // literal first, as reading it in operand order would.
    let lit_at = if wide { 2 } else { 1 };
    let mut lit = false;
    let mut attr = false;
    let slots = form.slots();
    for (i, s) in slots.iter().enumerate() {
        let op = match decode_slot(s, d, wide, wave64, family) {
            Ok(op) => op,
            Err(e) => {
                if lit {
                    w.get(lit_at)?;
                }
                return Err(e);
            }
        };
        lit |= matches!(op, Operand::Literal(_));
        attr |= s.fld == Fld::Attr;
        inst.operands.set(
            i,
            Slot {
                op,
                access: s.access,
                ty: s.ty,
                mods: OpMods::empty(),
            },
        );
    }
    inst.operands.set_len(slots.len());
    let mut len = lit_at as u8 * 4;
    if lit {
        let v = w.get(lit_at)?;
        for s in inst.operands.iter_mut() {
            if let Operand::Literal(x) = &mut s.op {
                *x = v;
            }
        }
        len += 4;
    }
    let mut vmods = Vop3Mods {
        high: attr && d[1] & 0x100 != 0,
        ..Vop3Mods::default()
    };
    // Modifier bits: only when any is set (the common case has none).
    let hi = if family == Family::Vop3p {
        0x0380_ff00
    } else {
        0xff00
    };
    let any = (d[0] & hi) | (d[1] & 0xf800_0000);
    if wide && any != 0 {
        apply_modifier_bits(form, d, &mut vmods, inst)?;
    }
    inst.mods = match family {
        Family::Vop3 => Modifiers::Vop3(vmods),
        Family::Vop3p => Modifiers::Vop3p(Vop3pMods { clamp: vmods.clamp }),
        _ => Modifiers::None,
    };
    inst.len = len;
    Ok(())
}

/// Apply the set modifier bits of a VOP3/VOP3P form to its operands and
/// instruction fields, in the form's bit order.
pub(super) fn apply_modifier_bits(
    form: &VopForm,
    d: [u32; 2],
    vmods: &mut Vop3Mods,
    inst: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let bits = form.bits();
    let n = bits.len().min(16);
    let mut set = modifier_bits(d) & ((1u32 << n) - 1);
    // Only the set bits, lowest position first (the order of form.bits).
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        let Some(b) = bits.get(i) else {
            break;
        };
        let flag = match b.role {
            Role::Fixed => {
                return Err(invalid(
                    form.family,
                    "a bit LLVM requires to be zero is set",
                ))
            }
            Role::Ignored | Role::Sdst => continue,
            Role::Clamp => {
                vmods.clamp = true;
                continue;
            }
            Role::Omod => {
                vmods.omod |= if i == 8 { 1 } else { 2 };
                continue;
            }
            Role::Abs => OpMods::ABS,
            Role::Neg | Role::NegLo(_) => OpMods::NEG,
            Role::Sext => OpMods::SEXT,
            Role::NegHi(_) => OpMods::NEG_HI,
            Role::OpSel(_) => OpMods::OP_SEL,
            Role::OpSelHi(_) => OpMods::OP_SEL_HI,
        };
        match inst.operands.get_mut(b.slot as usize) {
            Some(s) => s.mods |= flag,
            None if flag == OpMods::OP_SEL => vmods.opsel_dst = true,
            None => {}
        }
    }
    Ok(())
}
