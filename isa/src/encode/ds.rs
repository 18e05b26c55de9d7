//! DS encoding.
//!
//! Don't-care bits: bit 16 of the first dword (unused by every opcode);
//! the `gds` bit of `ds_swizzle_b32` and the other opcodes LLVM decodes
//! without looking at it; the offset bytes of `ds_nop`. Each opcode's set
//! is generated into its table row ([`crate::family::ds::DsInfo::dont_care`])
//! from probes of LLVM; every other unused field must be zero.

use super::{EncodeError, Encoded};
use crate::family::ds::{self, DsGds, DsOffset};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::target::Target;

/// Bits LLVM ignores, per dword, for one instruction.
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    match ds::info(inst.opcode.index()) {
        Some(i) => [i.dont_care[0], i.dont_care[1], 0, 0, 0],
        None => [0; 5],
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let info = ds::info(inst.opcode.index())
        .filter(|i| i.targets & target.bit() != 0)
        .ok_or(EncodeError::NoEncoding {
            opcode: name,
            family: inst.family,
            target,
        })?;
    let Modifiers::Ds(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    if inst.operands.len() != info.slots().len() {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: info.slots().len(),
            got: inst.operands.len(),
        });
    }
    let gds = match info.gds {
        DsGds::Flag => m.gds,
        DsGds::Always => true,
        DsGds::Never | DsGds::Ignored => false,
    };
    let offset = if info.offset == DsOffset::None {
        0
    } else {
        m.offset16() as u32
    };
    let d0 = (0x36 << 26) | ((inst.opcode.index() as u32) << 18) | ((gds as u32) << 17) | offset;
    let mut d1 = 0u32;
    for (i, s) in info.slots().iter().enumerate() {
        match inst.operands[i].op {
            Operand::Reg { code, count }
                if code >= VGPR_BASE && count == s.width && code as u32 + count as u32 <= 512 =>
            {
                d1 |= ((code - VGPR_BASE) as u32) << s.fld.shift();
            }
            _ => {
                return Err(EncodeError::BadOperand {
                    opcode: name,
                    index: i,
                    why: "expected a VGPR range of the opcode's width",
                })
            }
        }
    }
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    Ok(e)
}
