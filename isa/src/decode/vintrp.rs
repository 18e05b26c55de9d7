//! VINTRP decoding.

use super::ds::vgpr_range;
use super::{DecodeErrorKind, Mode, Words};
use crate::family::vintrp::{VintrpMods, VintrpSrc};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, Operand, Slot, ValType};
use crate::tables::vintrp::VINTRP;

#[inline]
pub(crate) fn decode(
    _w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = (d0 >> 16) & 3;
    let info = match VINTRP.get(op as usize) {
        Some(Some(i)) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: Family::Vintrp,
                opcode: op as u16,
                target,
            })
        }
    };
    let reg = |f: u32| vgpr_range(f, 1).unwrap_or(Operand::Off);
    // Built in place: the operand array is most of the instruction's size.
    let inst = out;
    inst.opcode = Opcode::new(OpSpace::Vintrp, op as u16);
    inst.family = Family::Vintrp;
    inst.len = 4;
    inst.operands.clear();
    inst.mods = Modifiers::Vintrp(VintrpMods {
        attr: ((d0 >> 10) & 0x3f) as u8,
        chan: ((d0 >> 8) & 3) as u8,
    });
    inst.operands.push(Slot {
        op: reg(d0 >> 18),
        access: info.vdst_access,
        ty: ValType::F32,
        mods: Default::default(),
    });
    inst.operands.push(match info.vsrc {
        VintrpSrc::Vgpr => Slot::use_(reg(d0), ValType::F32),
        VintrpSrc::Param => Slot {
            op: Operand::Imm((d0 & 0xff) as i32),
            access: Access::READ,
            ty: ValType::B32,
            mods: Default::default(),
        },
    });
    Ok(())
}
