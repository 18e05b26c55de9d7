//! Decoding targets.

use core::fmt;
use core::str::FromStr;

/// A GPU target within the gfx10 family.
///
/// gfx10.1 (`gfx1010`, `gfx1013`) keeps a few encodings that gfx10.3 dropped
/// (for example `v_mac_f32`), and gfx10.3 (`gfx1030`) adds a few of its own.
/// `gfx1013` additionally has the ray-tracing image instructions.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// Navi 10 (RDNA1, gfx10.1).
    Gfx1010,
    /// gfx10.1 with the ray-tracing instructions (Cyan Skillfish / PS5-era RDNA1.x).
    Gfx1013,
    /// Navi 21 (RDNA2, gfx10.3). The default.
    #[default]
    Gfx1030,
}

impl Target {
    /// Every supported target, in a stable order.
    pub const ALL: [Target; 3] = [Target::Gfx1010, Target::Gfx1013, Target::Gfx1030];

    /// The LLVM `-mcpu` name.
    pub fn mcpu(self) -> &'static str {
        match self {
            Target::Gfx1010 => "gfx1010",
            Target::Gfx1013 => "gfx1013",
            Target::Gfx1030 => "gfx1030",
        }
    }

    /// This target's bit in generated tables' target masks (bit i is
    /// `isa_gen::TARGETS[i]`: gfx1010, gfx1013, gfx1030).
    pub(crate) fn bit(self) -> u8 {
        match self {
            Target::Gfx1010 => 1,
            Target::Gfx1013 => 2,
            Target::Gfx1030 => 4,
        }
    }

    /// True for gfx10.3 targets.
    pub fn is_gfx103(self) -> bool {
        matches!(self, Target::Gfx1030)
    }

    /// True for gfx10.1 targets.
    pub fn is_gfx101(self) -> bool {
        !self.is_gfx103()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mcpu())
    }
}

/// Error for an unknown target name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}` (expected gfx1010, gfx1013 or gfx1030)")]
pub struct UnknownTarget(pub String);

impl FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "gfx1010" => Ok(Target::Gfx1010),
            "gfx1013" => Ok(Target::Gfx1013),
            "gfx1030" => Ok(Target::Gfx1030),
            other => Err(UnknownTarget(other.to_string())),
        }
    }
}
