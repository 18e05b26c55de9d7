//! Scalar-ALU facts (SOP1, SOP2, SOPK, SOPC, SOPP): the table row types the
//! generator fills in, and implicit register accesses.

use crate::operand::Access;
use bitflags::bitflags;

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

bitflags! {
    /// Registers a scalar instruction touches without naming them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ScalarImplicit: u16 {
        /// Reads SCC.
        const READ_SCC = 1;
        /// Writes SCC.
        const WRITE_SCC = 2;
        /// Reads EXEC.
        const READ_EXEC = 4;
        /// Writes EXEC.
        const WRITE_EXEC = 8;
        /// Reads VCC.
        const READ_VCC = 16;
        /// Reads M0.
        const READ_M0 = 32;
        /// Changes the program counter.
        const BRANCH = 64;
    }
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
    pub implicit: ScalarImplicit,
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
