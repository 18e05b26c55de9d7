//! SMEM facts: modifier fields.

/// SMEM fields that are not operands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmemMods {
    /// The 21-bit signed immediate offset.
    pub offset: i32,
    /// Globally coherent.
    pub glc: bool,
    /// Device-level coherent.
    pub dlc: bool,
}
