//! Shader stages and entry-register ABIs.
//!
//! The ABI says which registers hold what when a wave starts: where the
//! user-data words begin, and which VGPRs hold the vertex and instance ids.
//! Two presets match RADV on gfx10.3 (see `corpus/radv/README.md`):
//! [`Abi::ngg`] (also the PS5 convention) and [`Abi::legacy_vs`].

use core::fmt;
use core::str::FromStr;

/// The hardware stage a shader runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// NGG primitive shader (vertex shader merged into the GS stage).
    Ngg,
    /// Legacy hardware vertex shader.
    LegacyVs,
    /// Pixel (fragment) shader.
    Ps,
    /// Compute shader.
    Cs,
}

impl Stage {
    /// Short name: `ngg`, `vs`, `ps`, `cs`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Ngg => "ngg",
            Stage::LegacyVs => "vs",
            Stage::Ps => "ps",
            Stage::Cs => "cs",
        }
    }
    /// True for stages that run vertex work (vertex ids are meaningful).
    pub fn is_vertex(self) -> bool {
        matches!(self, Stage::Ngg | Stage::LegacyVs)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown stage name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown stage `{0}` (expected ngg, vs, ps or cs)")]
pub struct UnknownStage(pub String);

impl FromStr for Stage {
    type Err = UnknownStage;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "ngg" => Stage::Ngg,
            "vs" | "legacy-vs" => Stage::LegacyVs,
            "ps" | "fs" => Stage::Ps,
            "cs" => Stage::Cs,
            other => return Err(UnknownStage(other.to_string())),
        })
    }
}

/// Entry-register assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Abi {
    /// SGPR that holds user-data word 0; word k is in SGPR `user_data_sgpr + k`.
    pub user_data_sgpr: u8,
    /// How many user-data words the hardware loads.
    pub user_data_count: u8,
    /// VGPR holding the vertex id (without base vertex), if any.
    pub vertex_id_vgpr: Option<u8>,
    /// VGPR holding the instance id (without start instance), if any.
    pub instance_id_vgpr: Option<u8>,
    /// SGPR holding NGG `merged_wave_info` (bits 0..=6: vertex count of
    /// this wave), if any.
    pub merged_wave_info_sgpr: Option<u8>,
    /// SGPR holding NGG `gs_tg_info`, if any.
    pub gs_tg_info_sgpr: Option<u8>,
}

impl Abi {
    /// RADV gfx10.3 NGG (and the PS5 convention): user data from `s8`,
    /// vertex id `v5`, instance id `v8`, merged_wave_info `s3`, gs_tg_info `s2`.
    pub const fn ngg() -> Abi {
        Abi {
            user_data_sgpr: 8,
            user_data_count: 32,
            vertex_id_vgpr: Some(5),
            instance_id_vgpr: Some(8),
            merged_wave_info_sgpr: Some(3),
            gs_tg_info_sgpr: Some(2),
        }
    }

    /// RADV gfx10.3 legacy VS: user data from `s2` (after the 64-bit ring
    /// pointer in `s[0:1]`), vertex id `v0`, instance id `v3`.
    pub const fn legacy_vs() -> Abi {
        Abi {
            user_data_sgpr: 2,
            user_data_count: 30,
            vertex_id_vgpr: Some(0),
            instance_id_vgpr: Some(3),
            merged_wave_info_sgpr: None,
            gs_tg_info_sgpr: None,
        }
    }

    /// A stage without vertex inputs (pixel/compute): user data from `s2`.
    pub const fn no_vertex(user_data_sgpr: u8) -> Abi {
        Abi {
            user_data_sgpr,
            user_data_count: 16,
            vertex_id_vgpr: None,
            instance_id_vgpr: None,
            merged_wave_info_sgpr: None,
            gs_tg_info_sgpr: None,
        }
    }

    /// The preset for a name: `ngg`, `legacy-vs`.
    pub fn preset(name: &str) -> Option<Abi> {
        match name {
            "ngg" => Some(Abi::ngg()),
            "legacy-vs" | "vs" => Some(Abi::legacy_vs()),
            _ => None,
        }
    }

    /// The user-data word an SGPR holds at entry, if any.
    pub fn user_data_word(&self, sgpr: u8) -> Option<u8> {
        let k = sgpr.checked_sub(self.user_data_sgpr)?;
        (k < self.user_data_count).then_some(k)
    }
}
