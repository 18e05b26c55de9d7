//! MIMG facts.

/// MIMG fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MimgMods {
    /// Component mask.
    pub dmask: u8,
    /// Dimension (0..=7).
    pub dim: u8,
    /// Unnormalized coordinates.
    pub unorm: bool,
    /// Globally coherent.
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// Texture fail enable.
    pub tfe: bool,
    /// LOD warning enable.
    pub lwe: bool,
    /// Array (A16 coordinates).
    pub a16: bool,
    /// 16-bit data.
    pub d16: bool,
    /// Raw bits of the NSA dword count (0 = not NSA).
    pub nsa_dwords: u8,
}
