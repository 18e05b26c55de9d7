//! EXP decoding. Every first-dword bit pattern with the EXP prefix is an
//! export; bits 25:13 are ignored.

use super::ds::vgpr_range;
use super::{DecodeErrorKind, Mode, Words};
use crate::family::exp::ExpMods;
use crate::inst::{Family, Instruction, Modifiers, Opcode};
use crate::operand::{Access, Operand, Slot, ValType};

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let _target = mode.target;
    let d1 = w.get(1)?;
    let mods = ExpMods {
        target: ((d0 >> 4) & 0x3f) as u8,
        en: (d0 & 0xf) as u8,
        compr: d0 & (1 << 10) != 0,
        done: d0 & (1 << 11) != 0,
        vm: d0 & (1 << 12) != 0,
    };
    let operands = &mut out.operands;
    operands.clear();
    for i in 0..4u32 {
        let slot = if mods.en & (1 << i) != 0 {
            let f = source_field(mods.compr, i);
            // One VGPR never runs past v255.
            let op = vgpr_range(d1 >> (8 * f), 1).unwrap_or(Operand::Off);
            Slot {
                op,
                access: Access::READ,
                ty: if mods.compr {
                    ValType::V2B16
                } else {
                    ValType::Data
                },
                mods: Default::default(),
            }
        } else {
            Slot {
                op: Operand::Off,
                access: Access::empty(),
                ty: ValType::Data,
                mods: Default::default(),
            }
        };
        operands.push(slot);
    }
    {
        out.opcode = Opcode::EXP;
        out.family = Family::Exp;
        out.len = 8;
        out.mods = Modifiers::Exp(mods);
        Ok(())
    }
}

/// Which `vsrc` field printed source `i` comes from: with `compr` the four
/// sources are `vsrc0, vsrc0, vsrc1, vsrc1` (each VGPR holds two packed
/// 16-bit values).
pub(crate) fn source_field(compr: bool, i: u32) -> u32 {
    if compr {
        i / 2
    } else {
        i
    }
}
