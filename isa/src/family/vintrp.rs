//! VINTRP facts.

/// VINTRP fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VintrpMods {
    /// Attribute number (0..=63).
    pub attr: u8,
    /// Attribute channel (0..=3: x, y, z, w).
    pub chan: u8,
}
