//! [`Instruction`]s back to bytes.
//!
//! `encode(&decode(b)?)` reproduces `b` except for the don't-care bits
//! LLVM ignores when decoding; [`dont_care_mask`] names them per family so
//! round-trip tests can mask them. Each family has a module of its own.

mod buf;
mod ds;
mod exp;
mod flat;
mod mimg;
mod smem;
mod sop;
mod vintrp;
mod vop;
mod vop_ext;

use crate::inst::{Family, Instruction};
use crate::target::Target;

/// Why an instruction cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The opcode has no encoding in this family on this target.
    #[error("{opcode} has no {family} encoding on {target}")]
    NoEncoding {
        /// Mnemonic.
        opcode: &'static str,
        /// The requested family.
        family: Family,
        /// The target.
        target: Target,
    },
    /// An operand does not fit the field it goes into.
    #[error("{opcode}: operand {index} does not fit: {why}")]
    BadOperand {
        /// Mnemonic.
        opcode: &'static str,
        /// Operand position.
        index: usize,
        /// Why.
        why: &'static str,
    },
    /// The operand list does not match the opcode's signature.
    #[error("{opcode}: expected {expected} operands, got {got}")]
    OperandCount {
        /// Mnemonic.
        opcode: &'static str,
        /// Expected count.
        expected: usize,
        /// Actual count.
        got: usize,
    },
    /// The modifiers do not belong to the family.
    #[error("{opcode}: modifiers do not match family {family}")]
    BadModifiers {
        /// Mnemonic.
        opcode: &'static str,
        /// The family.
        family: Family,
    },
}

/// Encoded bytes of one instruction (no heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    bytes: [u8; 20],
    len: u8,
}

impl Encoded {
    pub(crate) fn new() -> Encoded {
        Encoded {
            bytes: [0; 20],
            len: 0,
        }
    }
    pub(crate) fn push(&mut self, dword: u32) {
        let o = self.len as usize;
        if o + 4 <= 20 {
            self.bytes[o..o + 4].copy_from_slice(&dword.to_le_bytes());
            self.len += 4;
        }
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// True when nothing was encoded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Encode one instruction for `target`.
pub fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::encode(inst, target)
        }
        Family::Smem => smem::encode(inst, target),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::encode(inst, target)
        }
        Family::Dpp16 | Family::Dpp8 | Family::Sdwa => vop_ext::encode(inst, target),
        Family::Vintrp => vintrp::encode(inst, target),
        Family::Ds => ds::encode(inst, target),
        Family::Mubuf | Family::Mtbuf => buf::encode(inst, target),
        Family::Mimg => mimg::encode(inst, target),
        Family::Flat => flat::encode(inst, target),
        Family::Exp => exp::encode(inst, target),
    }
}

/// The bits LLVM ignores when decoding an instruction of this family, per
/// dword of the encoding (literal dwords are never masked). Round-trip
/// tests compare `encode(decode(b))` with `b` under this mask.
pub fn dont_care_mask(inst: &Instruction, target: Target) -> [u32; 5] {
    let _ = target;
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::dont_care(inst)
        }
        Family::Smem => smem::dont_care(inst),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::dont_care(inst)
        }
        Family::Dpp16 | Family::Dpp8 | Family::Sdwa => vop_ext::dont_care(inst),
        Family::Vintrp => vintrp::DONT_CARE,
        Family::Ds => ds::dont_care(inst),
        Family::Mubuf | Family::Mtbuf => buf::dont_care(inst),
        Family::Mimg => mimg::dont_care(inst),
        Family::Flat => flat::dont_care(inst),
        Family::Exp => exp::dont_care(inst),
    }
}
