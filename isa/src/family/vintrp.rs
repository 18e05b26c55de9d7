//! VINTRP facts: the table row type and the instruction modifiers.

use crate::operand::{Access, Implicit};

/// What the `vsrc` field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VintrpSrc {
    /// A VGPR (the i or j barycentric coordinate).
    Vgpr,
    /// An interpolation parameter slot (`v_interp_mov_f32`): 0 `p10`,
    /// 1 `p20`, 2 `p0`; held as `Operand::Imm`.
    Param,
}

/// A VINTRP opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VintrpInfo {
    /// Mnemonic (without `_e32`).
    pub name: &'static str,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// What `vsrc` holds.
    pub vsrc: VintrpSrc,
    /// Access of `vdst` (`v_interp_p2_f32` accumulates into it).
    pub vdst_access: Access,
    /// Implicit accesses (M0: the attribute data's LDS offset).
    pub implicit: Implicit,
}

/// VINTRP fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VintrpMods {
    /// Attribute number (0..=63).
    pub attr: u8,
    /// Attribute channel (0..=3: x, y, z, w).
    pub chan: u8,
}
