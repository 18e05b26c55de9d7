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

/// How a SOPK/SOPP 16-bit immediate is decoded and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simm16Kind {
    /// The encoding has no immediate field (SOP1, SOP2, SOPC), or the
    /// instruction ignores it.
    None,
    /// No operand: LLVM decodes the instruction only when simm16 is 0
    /// (`s_barrier`, `s_code_end`, ...).
    Zero,
    /// A plain number: decimal up to 64, hex above (`s_nop`, `s_setprio`).
    Imm,
    /// Always hex (`s_movk_i32 s0, 0x8000`, `s_clause 0x1`).
    Hex,
    /// A branch offset in dwords from the next instruction, printed as an
    /// unsigned decimal (the operand holds the signed value).
    Branch,
    /// `s_endpgm`: nothing when 0, decimal otherwise.
    Endpgm,
    /// `s_waitcnt`: `vmcnt(N) expcnt(N) lgkmcnt(N)`.
    Waitcnt,
    /// `sendmsg(MSG, OP, STREAM)`.
    SendMsg,
    /// `hwreg(REG, OFFSET, WIDTH)`.
    Hwreg,
    /// `s_waitcnt_depctr` counters (the field set differs by target).
    DepCtr,
    /// `s_version` (`UC_VERSION_*` names and flag bits).
    Version,
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
    /// How the 16-bit immediate is decoded and printed.
    pub imm: Simm16Kind,
    /// The immediate operand ([`crate::Operand::Imm`]) is the sign-extended
    /// field (branch offsets, `s_movk_i32`, `s_addk_i32`, `s_cmpk_*_i32`
    /// ...); otherwise it is the zero-extended field.
    pub imm_signed: bool,
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
