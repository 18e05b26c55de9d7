//! VINTRP encoding. Every bit of the encoding is meaningful (no don't-care
//! bits).

use super::{EncodeError, Encoded};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::tables::vintrp::VINTRP;
use crate::target::Target;

/// Bits LLVM ignores, per dword.
pub(crate) const DONT_CARE: [u32; 5] = [0; 5];

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let op = inst.opcode.index() as u32;
    match VINTRP.get(op as usize) {
        Some(Some(i)) if i.targets & target.bit() != 0 => {}
        _ => {
            return Err(EncodeError::NoEncoding {
                opcode: name,
                family: inst.family,
                target,
            })
        }
    }
    let Modifiers::Vintrp(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    if inst.operands.len() != 2 {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: 2,
            got: inst.operands.len(),
        });
    }
    let bad = |index, why| EncodeError::BadOperand {
        opcode: name,
        index,
        why,
    };
    let vdst = match inst.operands[0].op {
        Operand::Reg { code, count: 1 } if (VGPR_BASE..512).contains(&code) => {
            (code - VGPR_BASE) as u32
        }
        _ => return Err(bad(0, "destination must be one VGPR")),
    };
    let vsrc = match inst.operands[1].op {
        Operand::Reg { code, count: 1 } if (VGPR_BASE..512).contains(&code) => {
            (code - VGPR_BASE) as u32
        }
        Operand::Imm(v) if (0..256).contains(&v) => v as u32,
        _ => return Err(bad(1, "source must be one VGPR or a parameter slot")),
    };
    let d0 = (0x32 << 26)
        | (vdst << 18)
        | (op << 16)
        | (((m.attr & 0x3f) as u32) << 10)
        | (((m.chan & 3) as u32) << 8)
        | vsrc;
    let mut e = Encoded::new();
    e.push(d0);
    Ok(e)
}
