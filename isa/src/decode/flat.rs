//! FLAT, GLOBAL and SCRATCH decoding.
//!
//! The `seg` field picks the opcode space, the `saddr` field the addressing
//! mode (through the generated per-target `saddr` tables), and the `glc`
//! and `lds` bits whether an atomic returns a value and whether a load
//! writes LDS instead of `vdst`.

use super::ds::vgpr_range;
use super::{sext, DecodeErrorKind, Mode, Words};
use crate::family::flat::{self, FlatAddr, FlatMods, Saddr, SaddrMode};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, Operand, Slot, ValType};

const FAM: Family = Family::Flat;

fn invalid(why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family: FAM, why }
}

/// The opcode space of a `seg` field value.
pub(crate) fn space_of(seg: u32) -> Option<OpSpace> {
    match seg {
        0 => Some(OpSpace::Flat),
        1 => Some(OpSpace::Scratch),
        2 => Some(OpSpace::Global),
        _ => None,
    }
}

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = ((d0 >> 18) & 0x7f) as u16;
    let unknown = DecodeErrorKind::UnknownOpcode {
        family: FAM,
        opcode: op,
        target,
    };
    let Some(space) = space_of((d0 >> 14) & 3) else {
        return Err(unknown);
    };
    let info = match flat::info(space, op) {
        Some(i) if i.targets & target.bit() != 0 => i,
        _ => return Err(unknown),
    };
    let d1 = w.get(1)?;
    if d1 & (1 << 23) != 0 {
        return Err(invalid("bit 55 must be zero"));
    }
    let lds = d0 & (1 << 13) != 0;
    let saddr = flat::saddr(space, target, (d1 >> 16) & 0x7f, lds);
    let mode = match saddr {
        Saddr::Invalid => return Err(invalid("saddr is not a valid register")),
        Saddr::Off => SaddrMode::Off,
        Saddr::St => SaddrMode::St,
        Saddr::Reg { .. } => SaddrMode::Reg,
    };
    let Some(m) = info.modes[mode as usize] else {
        return Err(invalid("addressing mode not available for this opcode"));
    };
    if lds && !info.lds {
        return Err(invalid("lds bit not available for this opcode"));
    }
    let glc = d0 & (1 << 16) != 0;
    let mods = FlatMods {
        offset: if info.signed_offset {
            sext(d0 & 0xfff, 12) as i16
        } else {
            (d0 & 0xfff) as i16
        },
        glc,
        slc: d0 & (1 << 17) != 0,
        dlc: d0 & (1 << 12) != 0,
        lds,
    };
    let range = |field: u32, n: u8| vgpr_range(field, n).ok_or(invalid("register range past v255"));
    let operands = &mut out.operands;
    operands.clear();
    let vdst = if lds || (info.atomic && !glc) {
        0
    } else {
        info.vdst
    };
    if vdst > 0 {
        operands.push(Slot {
            op: range(d1 >> 24, vdst)?,
            access: info.vdst_access,
            ty: ValType::Data,
            mods: Default::default(),
        });
    }
    match m.vaddr {
        FlatAddr::Absent => {}
        FlatAddr::Off => {
            operands.push(off());
        }
        FlatAddr::Reg(n) => {
            operands.push(Slot::use_(range(d1, n)?, ValType::Addr));
        }
    }
    if info.data > 0 {
        operands.push(Slot::use_(range(d1 >> 8, info.data)?, ValType::Data));
    }
    match (m.saddr, saddr) {
        (FlatAddr::Absent, _) => {}
        (FlatAddr::Reg(_), Saddr::Reg { code, count, .. }) => {
            operands.push(Slot::use_(Operand::Reg { code, count }, ValType::Addr));
        }
        _ => {
            operands.push(off());
        }
    }
    {
        out.opcode = Opcode::new(space, op);
        out.family = FAM;
        out.len = 8;
        out.mods = Modifiers::Flat(mods);
        Ok(())
    }
}

/// An unused address operand, printed `off`.
fn off() -> Slot {
    Slot {
        op: Operand::Off,
        access: Access::empty(),
        ty: ValType::Addr,
        mods: Default::default(),
    }
}
