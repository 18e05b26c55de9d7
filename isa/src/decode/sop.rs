//! SOP1, SOP2, SOPK, SOPC and SOPP decoding.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::sop::{Simm16Kind, SopFld, SopInfo};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Operand, Slot, ValType};
use crate::tables::sop as t;
use crate::target::Target;

#[inline(always)]
pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    // The plan first; what it does not cover, the generic decoder decodes
    // or names the error of.
    if super::sop_plan::run(w, d0, mode.target.bit(), out) {
        return Ok(());
    }
    decode_generic(w, d0, mode.target, out)
}

/// [`decode`] slot by slot from the table row: every instruction.
#[inline(never)]
pub(crate) fn decode_generic(
    w: Words<'_>,
    d0: u32,
    target: Target,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let (family, space, op, table): (Family, OpSpace, u32, &[Option<SopInfo>]) = match d0 >> 23 {
        0x17d => (Family::Sop1, OpSpace::Sop1, (d0 >> 8) & 0xff, &t::SOP1),
        0x17e => (Family::Sopc, OpSpace::Sopc, (d0 >> 16) & 0x7f, &t::SOPC),
        0x17f => (Family::Sopp, OpSpace::Sopp, (d0 >> 16) & 0x7f, &t::SOPP),
        _ if d0 >> 28 == 0b1011 => (Family::Sopk, OpSpace::Sopk, (d0 >> 23) & 0x1f, &t::SOPK),
        _ => (Family::Sop2, OpSpace::Sop2, (d0 >> 23) & 0x7f, &t::SOP2),
    };
    let info = match table.get(op as usize) {
        Some(Some(i)) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family,
                opcode: op as u16,
                target,
            })
        }
    };
    let simm16 = (d0 & 0xffff) as u16;
    if info.imm == Simm16Kind::Zero && simm16 != 0 {
        // LLVM decodes operand-less SOPP instructions only with simm16 = 0.
        return Err(DecodeErrorKind::InvalidField {
            family,
            why: "immediate must be zero",
        });
    }
    let operands = &mut out.operands;
    operands.clear();
    let mut len = 4u8;
    for s in info.slots {
        let ty = if s.f64 || s.width == 2 {
            ValType::B64
        } else {
            ValType::B32
        };
        let op = match s.fld {
            SopFld::Simm16 if info.imm_signed => Operand::Imm(simm16 as i16 as i32),
            SopFld::Simm16 => Operand::Imm(simm16 as i32),
            fld => {
                // The field's position is looked up rather than matched:
                // matched, LLVM decodes every field before the loop.
                let (shift, mask) = FIELDS[fld as usize];
                let code = (d0 >> shift) & mask as u32;
                if fld == SopFld::Sdst {
                    scalar_dst(code, s.width, family)?
                } else {
                    scalar_src(code, s.width, family, w, &mut len)?
                }
            }
        };
        operands.push(Slot {
            op,
            access: s.access,
            ty,
            mods: Default::default(),
        });
    }
    if info.literal {
        // s_setreg_imm32_b32: the literal is the value to write.
        let lit = w.get(1)?;
        len = 8;
        operands.push(Slot::use_(Operand::Literal(lit), ValType::B32));
    }
    let mods = match family {
        Family::Sopk | Family::Sopp => Modifiers::Simm16(simm16),
        _ => Modifiers::None,
    };
    {
        out.opcode = Opcode::new(space, op as u16);
        out.family = family;
        out.len = len;
        out.mods = mods;
        Ok(())
    }
}

/// (shift, mask) of each register field, by `SopFld as usize`.
static FIELDS: [(u8, u8); 4] = {
    let mut t = [(0, 0); 4];
    t[SopFld::Sdst as usize] = (16, 0x7f);
    t[SopFld::Ssrc0 as usize] = (0, 0xff);
    t[SopFld::Ssrc1 as usize] = (8, 0xff);
    t
};

/// A 7-bit scalar destination field.
fn scalar_dst(code: u32, width: u8, family: Family) -> Result<Operand, DecodeErrorKind> {
    let code = code as u16;
    if width == 2 {
        return scalar_pair(code, family);
    }
    Ok(Operand::Reg { code, count: 1 })
}

/// A 64-bit scalar register operand: SGPRs and TTMPs are rounded down to an
/// even register (the hardware ignores the low bit; LLVM prints the
/// rounded pair), `vcc`, `exec` and `null` are valid, other codes are not.
fn scalar_pair(code: u16, family: Family) -> Result<Operand, DecodeErrorKind> {
    match code {
        0..=105 | 108..=123 => Ok(Operand::Reg {
            code: code & !1,
            count: 2,
        }),
        106 | 125 | 126 => Ok(Operand::Reg { code, count: 2 }),
        _ => Err(DecodeErrorKind::InvalidField {
            family,
            why: "register cannot hold a 64-bit value",
        }),
    }
}

/// An 8-bit scalar source field (also reads the literal when it is 255).
pub(crate) fn scalar_src(
    code: u32,
    width: u8,
    family: Family,
    w: Words<'_>,
    len: &mut u8,
) -> Result<Operand, DecodeErrorKind> {
    let code = code as u16;
    match code {
        0..=127 if width == 2 => scalar_pair(code, family),
        0..=127 => Ok(Operand::Reg { code, count: 1 }),
        128..=208 | 240..=248 => Ok(Operand::Inline(code as u8)),
        235..=239 | 251..=253 => Ok(Operand::Reg { code, count: width }),
        254 if width == 1 => Ok(Operand::Reg { code, count: 1 }),
        255 => {
            let v = w.get(1)?;
            *len = 8;
            Ok(Operand::Literal(v))
        }
        _ => Err(DecodeErrorKind::InvalidField {
            family,
            why: "reserved source operand code",
        }),
    }
}
