//! MUBUF/MTBUF facts.

/// MUBUF and MTBUF fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufMods {
    /// 12-bit unsigned immediate offset.
    pub offset: u16,
    /// The VGPR address supplies a byte offset.
    pub offen: bool,
    /// The VGPR address supplies a record index.
    pub idxen: bool,
    /// Globally coherent (for atomics: return the pre-op value).
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// Load to LDS (MUBUF only).
    pub lds: bool,
    /// Texture fail enable.
    pub tfe: bool,
    /// MTBUF: the 7-bit unified format. Zero for MUBUF.
    pub format: u8,
}
