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
    /// Pixel shaders: the `SPI_PS_INPUT_ENA` bits (RADV sets
    /// `SPI_PS_INPUT_ADDR` equal to it), which say what the entry VGPRs
    /// hold, in bit order from `v0` ([`ps_input_vgprs`]); 0 for other
    /// stages.
    #[serde(default)]
    pub ps_input_ena: u16,
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
            ps_input_ena: 0,
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
            ps_input_ena: 0,
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
            ps_input_ena: 0,
        }
    }

    /// A pixel shader: user data from `s2`, the entry VGPRs given by
    /// `SPI_PS_INPUT_ENA` (`ena`, see [`ps_input_vgprs`]).
    pub const fn pixel(ena: u16) -> Abi {
        let mut a = Abi::no_vertex(2);
        a.ps_input_ena = ena;
        a
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

/// One `SPI_PS_INPUT_ENA` input of a pixel shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PsInput {
    /// Barycentrics (i, j) of an interpolation mode (two VGPRs; the pull
    /// model has three: 1/w, i/w, j/w).
    Bary(Bary),
    /// `PERSP_PULL_MODEL` (three VGPRs).
    PullModel,
    /// Line stipple (one VGPR).
    LineStipple,
    /// `gl_FragCoord` component 0..=3 (x, y, z, w) as a float.
    Pos(u8),
    /// Front face (one VGPR).
    FrontFace,
    /// Ancillary (one VGPR).
    Ancillary,
    /// Sample coverage (one VGPR).
    SampleCoverage,
    /// Fixed-point position (one VGPR).
    PosFixedPt,
}

/// Which barycentrics: perspective or linear, at the sample, the pixel
/// centre or the centroid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bary {
    /// Perspective, per sample.
    PerspSample,
    /// Perspective, pixel centre (the default for `smooth`).
    PerspCenter,
    /// Perspective, centroid.
    PerspCentroid,
    /// Linear (`noperspective`), per sample.
    LinearSample,
    /// Linear, pixel centre.
    LinearCenter,
    /// Linear, centroid.
    LinearCentroid,
}

/// The `SPI_PS_INPUT_ENA` bits in order (bit k = entry `k`), with the
/// VGPRs each enabled input takes (AMD's register reference; RADV's
/// `radv_declare_shader_args` declares them in this order).
pub const PS_INPUTS: [(PsInput, u8); 16] = [
    (PsInput::Bary(Bary::PerspSample), 2),
    (PsInput::Bary(Bary::PerspCenter), 2),
    (PsInput::Bary(Bary::PerspCentroid), 2),
    (PsInput::PullModel, 3),
    (PsInput::Bary(Bary::LinearSample), 2),
    (PsInput::Bary(Bary::LinearCenter), 2),
    (PsInput::Bary(Bary::LinearCentroid), 2),
    (PsInput::LineStipple, 1),
    (PsInput::Pos(0), 1),
    (PsInput::Pos(1), 1),
    (PsInput::Pos(2), 1),
    (PsInput::Pos(3), 1),
    (PsInput::FrontFace, 1),
    (PsInput::Ancillary, 1),
    (PsInput::SampleCoverage, 1),
    (PsInput::PosFixedPt, 1),
];

/// The entry VGPRs of a pixel shader with `SPI_PS_INPUT_ENA` = `ena`
/// (and ADDR = ENA, as RADV programs it): each enabled input with its
/// first VGPR and VGPR count, packed from `v0` in bit order.
pub fn ps_input_vgprs(ena: u16) -> impl Iterator<Item = (PsInput, u8, u8)> {
    let mut next = 0u8;
    PS_INPUTS
        .iter()
        .enumerate()
        .filter(move |(k, _)| ena & (1 << k) != 0)
        .map(move |(_, &(input, n))| {
            let first = next;
            next += n;
            (input, first, n)
        })
}

#[cfg(test)]
mod ps_tests {
    use super::*;

    #[test]
    fn ps_entry_vgprs_pack_enabled_inputs_in_bit_order() {
        // persp_center, frag_pos.x, frag_pos.y, ancillary: the layout the
        // real corpus records for such shaders.
        let v: Vec<_> = ps_input_vgprs(0b10_0011_0000_0010).collect();
        assert_eq!(
            v,
            vec![
                (PsInput::Bary(Bary::PerspCenter), 0, 2),
                (PsInput::Pos(0), 2, 1),
                (PsInput::Pos(1), 3, 1),
                (PsInput::Ancillary, 4, 1),
            ]
        );
    }
}
