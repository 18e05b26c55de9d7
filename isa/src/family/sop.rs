//! Scalar-ALU facts (SOP1, SOP2, SOPK, SOPC, SOPP): the table row types the
//! generator fills in, and implicit register accesses.

use crate::operand::{Access, Implicit};

/// Which encoding field an operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SopFld {
    /// `sdst` (bits 22:16).
    Sdst,
    /// `ssrc0` (bits 7:0).
    Ssrc0,
    /// `ssrc1` (bits 15:8).
    Ssrc1,
    /// `simm16` (bits 15:0).
    Simm16,
}

/// One operand of a scalar opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SopSlot {
    /// The field.
    pub fld: SopFld,
    /// Width in dwords.
    pub width: u8,
    /// Constants allowed (otherwise LLVM notes `/*Invalid immediate*/`).
    pub imm_ok: bool,
    /// Constants print as 64-bit floats.
    pub f64: bool,
    /// Read/write.
    pub access: Access,
}

/// A scalar opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SopInfo {
    /// Mnemonic.
    pub name: &'static str,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// A 32-bit literal follows (SOPK `s_setreg_imm32_b32`).
    pub literal: bool,
    /// Implicit accesses.
    pub implicit: Implicit,
    /// Operands in printing order.
    pub slots: &'static [SopSlot],
}

/// Mnemonic of a table row.
pub(crate) fn name(table: &[Option<SopInfo>], index: u16) -> Option<&'static str> {
    table
        .get(index as usize)
        .and_then(|r| r.as_ref())
        .map(|r| r.name)
}
