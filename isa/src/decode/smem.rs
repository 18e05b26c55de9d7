//! SMEM decoding. Field layout: see `isa/gen/src/families/smem.rs` and
//! [`crate::family::smem`].

use super::{sext, DecodeErrorKind, Mode, Words};
use crate::family::smem::{self, DataRole, SmemMods};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType};

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = ((d0 >> 18) & 0xff) as u16;
    let info = match smem::info(op) {
        Some(i) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: Family::Smem,
                opcode: op,
                target,
            })
        }
    };
    let d1 = w.get(1)?;
    let glc = info.glc && d0 & (1 << 16) != 0;
    let dlc = info.dlc && d0 & (1 << 14) != 0;
    let sdata = ((d0 >> 6) & 0x7f) as u16;
    let operands = &mut out.operands;
    operands.clear();
    let data_access = match info.data {
        DataRole::None => None,
        DataRole::Load => Some(Access::WRITE),
        DataRole::Store | DataRole::Imm => Some(Access::READ),
        DataRole::Atomic if glc => Some(Access::READ | Access::WRITE),
        DataRole::AtomicCmpswap if glc => Some(Access::READ | Access::WRITE | Access::PARTIAL),
        DataRole::Atomic | DataRole::AtomicCmpswap => Some(Access::READ),
    };
    if let Some(access) = data_access {
        let (op, ty) = if info.data == DataRole::Imm {
            (Operand::Imm(i32::from(sdata)), ValType::B32)
        } else {
            (sreg(sdata, info.data_width)?, ValType::Data)
        };
        operands.push(Slot {
            op,
            access,
            ty,
            mods: OpMods::empty(),
        });
    }
    if info.base_width != 0 {
        let base = sreg(((d0 & 0x3f) << 1) as u16, info.base_width)?;
        operands.push(Slot::use_(base, ValType::Addr));
    }
    let mut offset = 0;
    if info.offset {
        // Every 7-bit code is a valid 32-bit scalar register here.
        let soffset = (d1 >> 25) as u16;
        operands.push(Slot::use_(
            Operand::Reg {
                code: soffset,
                count: 1,
            },
            ValType::B32,
        ));
        offset = sext(d1 & 0x1f_ffff, 21);
    }
    {
        out.opcode = Opcode::new(OpSpace::Smem, op);
        out.family = Family::Smem;
        out.len = 8;
        out.mods = Modifiers::Smem(SmemMods { offset, glc, dlc });
        Ok(())
    }
}

/// The first register code of a `width`-dword scalar register tuple named
/// by a 7-bit field, as LLVM decodes it: SGPR and TTMP tuples are rounded
/// down to their alignment (2 dwords for pairs, 4 for anything wider) and
/// must fit in their file; `vcc`, `null` and `exec` are the only other
/// wide registers. Returns the code the tuple starts at (the same as
/// [`crate::encode`] needs back, up to the rounded-away bits).
pub(crate) fn sreg_tuple(code: u16, width: u8) -> Option<u16> {
    let w = u16::from(width.max(1));
    let align: u16 = match w {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    match code {
        0..=105 => {
            let base = code & !(align - 1);
            (base + w <= 106).then_some(base)
        }
        108..=123 => {
            let t = (code - 108) & !(align - 1);
            (t + w <= 16).then_some(108 + t)
        }
        106 | 125 | 126 => Some(code),
        107 | 124 | 127 if w == 1 => Some(code),
        _ => None,
    }
}

fn sreg(code: u16, width: u8) -> Result<Operand, DecodeErrorKind> {
    match sreg_tuple(code, width) {
        Some(first) => Ok(Operand::Reg {
            code: first,
            count: width,
        }),
        None => Err(DecodeErrorKind::InvalidField {
            family: Family::Smem,
            why: "register field does not name a register of the operand's width",
        }),
    }
}
