//! VOP1, VOP2, VOPC (`_e32`), VOP3 and VOP3P decoding.
//!
//! One table lookup by (target, native opcode) gives the instruction and its
//! form; the form's slot list says which field holds each operand and how
//! wide it is, and its bit roles say what each modifier bit does. DPP16,
//! DPP8 and SDWA words (src0 = 0xFA, 0xE9/0xEA, 0xF9) are not decoded
//! here yet.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::vop::{
    bit_position, target_index, Fld, Role, Vop3Mods, Vop3pMods, VopForm, VopInfo,
};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{OpMods, Operand, Slot, ValType, VCC_LO, VGPR_BASE};
use crate::tables::{vop as t, vop3p as tp};
use crate::target::Target;

#[inline]
fn row(table: &'static [VopInfo], p: Option<&u16>) -> Option<&'static VopInfo> {
    table.get(*p? as usize)
}

pub(crate) fn decode_vop_short(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    decode_short(w, d0, target, mode.wave64, out)
}

fn decode_short(
    w: Words<'_>,
    d0: u32,
    target: Target,
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let ti = target_index(target);
    let (family, op, p) = match d0 >> 25 {
        0x3e => {
            let op = (d0 >> 17) & 0xff;
            (
                Family::Vopc,
                op,
                t::MAP_VOPC.get(ti).and_then(|m| m.get(op as usize)),
            )
        }
        0x3f => {
            let op = (d0 >> 9) & 0xff;
            (
                Family::Vop1,
                op,
                t::MAP_VOP1.get(ti).and_then(|m| m.get(op as usize)),
            )
        }
        op => (
            Family::Vop2,
            op,
            t::MAP_VOP2.get(ti).and_then(|m| m.get(op as usize)),
        ),
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
        let mode = Mode { target, wave64 };
        if let Some(r) = super::vop_ext::decode(w, d0, f, family, op as u16, mode, out) {
            return r;
        }
        // No such form: LLVM decodes the word as the `_e32` instruction,
        // which only works when that ignores src0 (`v_nop`).
        let info = row(&t::VOP, p).ok_or(unknown(f))?;
        let form = info.e32.as_ref().ok_or(unknown(f))?;
        return decode_form(w, info, form, OpSpace::Vop, [d0, 0], wave64, out)
            .map_err(|_| unknown(f));
    }
    let info = row(&t::VOP, p).ok_or(unknown(family))?;
    let form = info.e32.as_ref().ok_or(unknown(family))?;
    decode_form(w, info, form, OpSpace::Vop, [d0, 0], wave64, out)
}

pub(crate) fn decode_vop3(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    decode_3(w, d0, target, mode.wave64, out)
}

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
    let info = row(&t::VOP, p).ok_or(unknown)?;
    let form = info.e64.as_ref().ok_or(unknown)?;
    let d1 = w.get(1)?;
    decode_form(w, info, form, OpSpace::Vop, [d0, d1], wave64, out)
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
    decode_form(w, info, form, OpSpace::Vop3p, [d0, d1], false, out)
}

/// Decoding state shared by the operands of one instruction.
struct Cx<'a> {
    w: Words<'a>,
    family: Family,
    /// Dword index of a literal.
    lit_at: usize,
    lit: Option<u32>,
    len: u8,
}

impl Cx<'_> {
    fn invalid(&self, why: &'static str) -> DecodeErrorKind {
        DecodeErrorKind::InvalidField {
            family: self.family,
            why,
        }
    }

    fn literal(&mut self) -> Result<Operand, DecodeErrorKind> {
        let v = match self.lit {
            Some(v) => v,
            None => {
                let v = self.w.get(self.lit_at)?;
                self.lit = Some(v);
                self.len += 4;
                v
            }
        };
        Ok(Operand::Literal(v))
    }

    /// `count` VGPRs from `v{n}`; ranges may not run past v255.
    #[inline]
    fn vgpr(&self, n: u32, count: u8) -> Result<Operand, DecodeErrorKind> {
        if n + count as u32 > 256 {
            return Err(self.invalid("VGPR range past v255"));
        }
        Ok(Operand::Reg {
            code: VGPR_BASE + n as u16,
            count,
        })
    }

    /// A source-operand code (9 bits; scalar destinations use the low 8
    /// or 7) for an operand `count` registers wide, as LLVM decodes it.
    #[inline]
    fn src(&mut self, code: u32, count: u8) -> Result<Operand, DecodeErrorKind> {
        let c = code as u16;
        if code >= 256 {
            return self.vgpr(code - 256, count);
        }
        match (c, count) {
            (128..=208 | 240..=248, _) => Ok(Operand::Inline(c as u8)),
            (255, _) => self.literal(),
            (0..=127 | 235..=239 | 251..=254, 1) => Ok(Operand::Reg { code: c, count: 1 }),
            // Wider operands: SGPR and TTMP ranges are aligned (LLVM drops
            // the low bits), and only some special registers have a wide
            // form.
            (0..=105 | 108..=123, 2) => Ok(Operand::Reg {
                code: c & !1,
                count: 2,
            }),
            (106 | 125 | 126 | 235..=239 | 251..=253, 2) => Ok(Operand::Reg { code: c, count: 2 }),
            (0..=103, 4) | (108..=123, 4) => Ok(Operand::Reg {
                code: c & !3,
                count: 4,
            }),
            _ => Err(self.invalid("register cannot be used at this width")),
        }
    }
}

fn decode_form(
    w: Words<'_>,
    info: &'static VopInfo,
    form: &'static VopForm,
    space: OpSpace,
    d: [u32; 2],
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let wide = matches!(form.family, Family::Vop3 | Family::Vop3p);
    let mut cx = Cx {
        w,
        family: form.family,
        lit_at: if wide { 2 } else { 1 },
        lit: None,
        len: if wide { 8 } else { 4 },
    };
    if (d[0] & form.fixed[0]) | (d[1] & form.fixed[1]) != 0 {
        return Err(cx.invalid("a bit LLVM requires to be zero is set"));
    }
    let mut vmods = Vop3Mods::default();
    // Built in place: the operand array is the bulk of the instruction.
    let inst = out;
    inst.opcode = Opcode::new(space, info.index);
    inst.family = form.family;
    inst.operands.clear();
    for s in form.slots {
        // Lane masks are one SGPR in wave32 and a pair in wave64.
        let width = if wave64 && s.ty == ValType::Mask {
            2
        } else {
            s.width
        };
        let op = match s.fld {
            Fld::Vdst => {
                let v = if wide {
                    d[0] & 0xff
                } else {
                    (d[0] >> 17) & 0xff
                };
                if s.cls.vgpr {
                    cx.vgpr(v, s.width)?
                } else {
                    cx.src(v, width)?
                }
            }
            Fld::Vsrc1 => cx.vgpr((d[0] >> 9) & 0xff, s.width)?,
            Fld::Src0 => {
                let v = if wide { d[1] & 0x1ff } else { d[0] & 0x1ff };
                cx.src(v, s.width)?
            }
            Fld::Src1 => cx.src((d[1] >> 9) & 0x1ff, width)?,
            Fld::Src2 => cx.src((d[1] >> 18) & 0x1ff, width)?,
            Fld::Sdst => cx.src((d[0] >> 8) & 0x7f, width)?,
            Fld::KLit => cx.literal()?,
            Fld::Vcc => Operand::Reg {
                code: VCC_LO,
                count: width,
            },
            Fld::Attr => {
                vmods.high = d[1] & 0x100 != 0;
                Operand::Imm((d[1] & 0xff) as i32)
            }
            Fld::Param => Operand::Imm(((d[1] >> 9) & 0x1ff) as i32),
        };
        inst.operands.push(Slot {
            op,
            access: s.access,
            ty: s.ty,
            mods: OpMods::empty(),
        });
    }
    // Modifier bits: only when any is set (the common case has none).
    let hi = if form.family == Family::Vop3p {
        0x0380_ff00
    } else {
        0xff00
    };
    let any = (d[0] & hi) | (d[1] & 0xf800_0000);
    if wide && any != 0 {
        for (i, b) in form.bits.iter().enumerate() {
            let (dw, bit) = bit_position(i);
            if (d[dw] >> bit) & 1 == 0 {
                continue;
            }
            let flag = match b.role {
                Role::Fixed => return Err(cx.invalid("a bit LLVM requires to be zero is set")),
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
    }
    inst.mods = match form.family {
        Family::Vop3 => Modifiers::Vop3(vmods),
        Family::Vop3p => Modifiers::Vop3p(Vop3pMods { clamp: vmods.clamp }),
        _ => Modifiers::None,
    };
    inst.len = cx.len;
    Ok(())
}
