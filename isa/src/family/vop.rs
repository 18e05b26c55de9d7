//! Vector-ALU facts: modifier fields for VOP3, VOP3P, DPP16, DPP8 and SDWA.
//!
//! Per-operand modifiers (neg, abs, sext, op_sel bits) live in each
//! operand's [`crate::OpMods`]; the fields here are instruction-wide.

/// VOP3 instruction-wide fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vop3Mods {
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// `op_sel` bit for the destination (bit 3 of the field).
    pub opsel_dst: bool,
}

/// VOP3P instruction-wide fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vop3pMods {
    /// Clamp the result.
    pub clamp: bool,
}

/// DPP16 fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dpp16Mods {
    /// `dpp_ctrl` (9 bits).
    pub ctrl: u16,
    /// `row_mask`.
    pub row_mask: u8,
    /// `bank_mask`.
    pub bank_mask: u8,
    /// `bound_ctrl:1` (write 0 for invalid source lanes).
    pub bound_ctrl: bool,
    /// `fi:1` (fetch inactive lanes).
    pub fi: bool,
}

/// DPP8 fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dpp8Mods {
    /// Eight 3-bit lane selects, lane 0 in the low bits.
    pub sel: u32,
    /// `fi:1` (encoded as src0 = 0xEA instead of 0xE9).
    pub fi: bool,
}

/// SDWA fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SdwaMods {
    /// Destination select (0..=6: BYTE_0..3, WORD_0..1, DWORD).
    pub dst_sel: u8,
    /// Destination unused bits: 0 pad, 1 sext, 2 preserve.
    pub dst_unused: u8,
    /// Clamp.
    pub clamp: bool,
    /// Output modifier.
    pub omod: u8,
    /// Source 0 select.
    pub src0_sel: u8,
    /// Source 1 select.
    pub src1_sel: u8,
}
