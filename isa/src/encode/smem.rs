//! SMEM encoding.
//!
//! Don't-care bits (LLVM decodes the same instruction whatever they hold):
//!
//! - bits 13, 15 and 17 of the first dword and bits 56:53 of the encoding
//!   (21:24 of the second dword): not fields on gfx10;
//! - `glc` (bit 16) and `dlc` (bit 14) on instructions that do not take
//!   them (`s_memtime`, `s_atc_probe`, `s_dcache_*`, ...);
//! - the whole `sdata`, `sbase`, `offset` or `soffset` field when the
//!   instruction has no such operand;
//! - the low bit(s) of an SGPR/TTMP tuple number that LLVM rounds down to
//!   the tuple's alignment: bit 0 of `sdata` for pairs, bits 1:0 for
//!   wider tuples, and bit 0 of `sbase` for buffer descriptors.
//!
//! The encoder writes zeros there.

use super::{EncodeError, Encoded};
use crate::family::smem::{self, DataRole, SmemInfo};
use crate::inst::{Instruction, Modifiers};
use crate::operand::Operand;
use crate::target::Target;

/// Bits 13, 15, 17 of dword 0 and 24:21 of dword 1.
const ALWAYS: [u32; 2] = [(1 << 13) | (1 << 15) | (1 << 17), 0xf << 21];

/// Whether an operand is an SGPR or TTMP tuple (whose alignment bits LLVM
/// drops).
fn is_tuple(op: Option<Operand>) -> bool {
    matches!(op, Some(Operand::Reg { code, .. }) if code < 106 || (108..124).contains(&code))
}

fn alignment_bits(width: u8) -> u32 {
    match width {
        0 | 1 => 0,
        2 => 1,
        _ => 3,
    }
}

/// The don't-care bits of one instruction (see the module docs).
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [ALWAYS[0], ALWAYS[1], 0, 0, 0];
    let Some(info) = smem::info(inst.opcode.index()) else {
        return m;
    };
    if !info.glc {
        m[0] |= 1 << 16;
    }
    if !info.dlc {
        m[0] |= 1 << 14;
    }
    let mut ops = inst.operands.iter().map(|s| s.op);
    if info.data == DataRole::None {
        m[0] |= 0x7f << 6;
    } else {
        let data = ops.next();
        if info.data != DataRole::Imm && is_tuple(data) {
            m[0] |= alignment_bits(info.data_width) << 6;
        }
    }
    if info.base_width == 0 {
        m[0] |= 0x3f;
    } else if info.base_width > 2 && is_tuple(ops.next()) {
        m[0] |= 1;
    }
    if !info.offset {
        m[1] = !0;
    }
    m
}

fn row(inst: &Instruction, target: Target) -> Result<&'static SmemInfo, EncodeError> {
    smem::info(inst.opcode.index())
        .filter(|i| i.targets & target.bit() != 0)
        .ok_or(EncodeError::NoEncoding {
            opcode: inst.opcode.name(),
            family: inst.family,
            target,
        })
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let info = row(inst, target)?;
    let name = inst.opcode.name();
    let Modifiers::Smem(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    let want = usize::from(info.data != DataRole::None)
        + usize::from(info.base_width != 0)
        + usize::from(info.offset);
    if inst.operands.len() != want {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: want,
            got: inst.operands.len(),
        });
    }
    let bad = |index, why| EncodeError::BadOperand {
        opcode: name,
        index,
        why,
    };
    let reg = |index: usize| match inst.operands[index].op {
        Operand::Reg { code, .. } if code < 128 => Ok(u32::from(code)),
        _ => Err(bad(index, "not a scalar register")),
    };
    let mut i = 0;
    let mut sdata = 0;
    if info.data != DataRole::None {
        sdata = match (info.data, inst.operands[0].op) {
            (DataRole::Imm, Operand::Imm(v)) if (0..128).contains(&v) => v as u32,
            (DataRole::Imm, _) => return Err(bad(0, "probe mode must be 0..=127")),
            _ => reg(0)?,
        };
        i += 1;
    }
    let mut sbase = 0;
    if info.base_width != 0 {
        sbase = reg(i)? >> 1;
        i += 1;
    }
    let mut d1 = 0;
    if info.offset {
        if !(-0x10_0000..0x10_0000).contains(&m.offset) {
            return Err(bad(i, "immediate offset does not fit 21 bits"));
        }
        d1 = (reg(i)? << 25) | (m.offset as u32 & 0x1f_ffff);
    }
    let op = u32::from(inst.opcode.index());
    let d0 = (0x3d << 26)
        | (op << 18)
        | (u32::from(m.glc && info.glc) << 16)
        | (u32::from(m.dlc && info.dlc) << 14)
        | (sdata << 6)
        | sbase;
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    Ok(e)
}
