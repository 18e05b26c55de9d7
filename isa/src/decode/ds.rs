//! DS decoding.
//!
//! LLVM encodes the fields an opcode does not use as zero and rejects the
//! word when one is not; the generated table says which fields each
//! opcode uses and which bits LLVM ignores instead.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::ds::{self, DsGds, DsMods, DsOffset};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Operand, Slot, VGPR_BASE};

/// `count` VGPRs from the 8-bit register field `field`, or `None` when the
/// range would run past `v255` (LLVM rejects such encodings).
pub(crate) fn vgpr_range(field: u32, count: u8) -> Option<Operand> {
    let field = field & 0xff;
    if field + count as u32 > 256 {
        return None;
    }
    Some(Operand::Reg {
        code: VGPR_BASE + field as u16,
        count,
    })
}

const FAM: Family = Family::Ds;

fn invalid(why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family: FAM, why }
}

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = (d0 >> 18) & 0xff;
    let info = match ds::info(op as u16) {
        Some(i) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: FAM,
                opcode: op as u16,
                target,
            })
        }
    };
    let d1 = w.get(1)?;
    let gds = d0 & (1 << 17) != 0;
    match (info.gds, gds) {
        (DsGds::Always, false) => return Err(invalid("gds bit must be set")),
        (DsGds::Never, true) => return Err(invalid("gds bit must be clear")),
        _ => {}
    }
    // Bits that must be zero: the offset bytes of opcodes without an
    // offset, bit 16, and the register fields no operand uses (less what
    // LLVM ignores).
    let mut zero0 = 1u32 << 16;
    if info.offset == DsOffset::None {
        zero0 |= 0xffff;
    }
    let mut zero1 = !0u32;
    for s in info.slots {
        zero1 &= !(0xff << s.fld.shift());
    }
    if d0 & zero0 & !info.dont_care[0] != 0 || d1 & zero1 & !info.dont_care[1] != 0 {
        return Err(invalid("unused field is not zero"));
    }
    let operands = &mut out.operands;
    operands.clear();
    for s in info.slots {
        let field = d1 >> s.fld.shift();
        let op = vgpr_range(field, s.width).ok_or(invalid("register range past v255"))?;
        operands.push(Slot {
            op,
            access: s.access,
            ty: s.ty,
            mods: Default::default(),
        });
    }
    let mods = DsMods {
        offset0: if info.offset == DsOffset::None {
            0
        } else {
            d0 as u8
        },
        offset1: if info.offset == DsOffset::None {
            0
        } else {
            (d0 >> 8) as u8
        },
        gds: match info.gds {
            DsGds::Flag => gds,
            DsGds::Always => true,
            DsGds::Never | DsGds::Ignored => false,
        },
    };
    {
        out.opcode = Opcode::new(OpSpace::Ds, op as u16);
        out.family = FAM;
        out.len = 8;
        out.mods = Modifiers::Ds(mods);
        Ok(())
    }
}
