//! EXP encoding.
//!
//! Don't-care bits: bits 25:13 of the first dword, and every `vsrc` field
//! no enabled source reads (with `compr`, `vsrc2` and `vsrc3` are never
//! read; a disabled source's field is ignored).

use super::{EncodeError, Encoded};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::target::Target;

/// Which `vsrc` field printed source `i` comes from (see the decoder).
fn source_field(compr: bool, i: u32) -> u32 {
    if compr {
        i / 2
    } else {
        i
    }
}

/// Bits LLVM ignores, per dword, for one instruction.
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [0x03ff_e000, !0, 0, 0, 0];
    if let Modifiers::Exp(x) = inst.mods {
        for i in 0..4 {
            if x.en & (1 << i) != 0 {
                m[1] &= !(0xff << (8 * source_field(x.compr, i)));
            }
        }
    }
    m
}

pub(crate) fn encode(inst: &Instruction, _target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let Modifiers::Exp(x) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    if inst.operands.len() != 4 {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: 4,
            got: inst.operands.len(),
        });
    }
    let d0 = (0x3e << 26)
        | ((x.vm as u32) << 12)
        | ((x.done as u32) << 11)
        | ((x.compr as u32) << 10)
        | (((x.target & 0x3f) as u32) << 4)
        | (x.en & 0xf) as u32;
    let mut d1 = 0u32;
    for i in 0..4u32 {
        if x.en & (1 << i) == 0 {
            continue;
        }
        match inst.operands[i as usize].op {
            Operand::Reg { code, count: 1 } if (VGPR_BASE..512).contains(&code) => {
                d1 |= ((code - VGPR_BASE) as u32) << (8 * source_field(x.compr, i));
            }
            _ => {
                return Err(EncodeError::BadOperand {
                    opcode: name,
                    index: i as usize,
                    why: "an enabled source must be one VGPR",
                })
            }
        }
    }
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    Ok(e)
}
