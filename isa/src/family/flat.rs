//! FLAT/GLOBAL/SCRATCH facts.

/// FLAT, GLOBAL and SCRATCH fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlatMods {
    /// Immediate offset (12-bit; signed for global/scratch).
    pub offset: i16,
    /// Globally coherent.
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// Load to LDS.
    pub lds: bool,
}
