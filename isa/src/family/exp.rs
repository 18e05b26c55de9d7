//! EXP facts.

/// EXP fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExpMods {
    /// Export target (0..=7 mrt, 8 mrtz, 9 null, 12..=15 pos, 20 prim, 32..=63 param).
    pub target: u8,
    /// Enable mask, one bit per source.
    pub en: u8,
    /// Compressed (16-bit) data.
    pub compr: bool,
    /// Last export of this kind.
    pub done: bool,
    /// Valid mask.
    pub vm: bool,
}
