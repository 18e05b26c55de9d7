//! Encoding (stub: not yet implemented).

use super::{EncodeError, Encoded};
use crate::inst::Instruction;
use crate::target::Target;

/// Bits LLVM ignores, per dword.
pub(crate) const DONT_CARE: [u32; 5] = [0; 5];

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    Err(EncodeError::NoEncoding {
        opcode: inst.opcode.name(),
        family: inst.family,
        target,
    })
}
