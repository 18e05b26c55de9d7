//! DS facts.

/// DS fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DsMods {
    /// `offset0` (low byte of the 16-bit offset for single-address ops).
    pub offset0: u8,
    /// `offset1`.
    pub offset1: u8,
    /// Global data share.
    pub gds: bool,
}

impl DsMods {
    /// The 16-bit offset of single-address ops.
    pub fn offset16(&self) -> u16 {
        self.offset0 as u16 | (self.offset1 as u16) << 8
    }
}
