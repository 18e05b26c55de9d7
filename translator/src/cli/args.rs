//! Arguments shared by every subcommand that reads a shader.

use super::CliError;
use corpus::{Capture, CaptureOptions, WaveSize};
use isa::{Abi, Stage, Target};
use std::path::PathBuf;

/// Which shader to read, and how to interpret it.
///
/// Flatten into a subcommand's `Args` with `#[command(flatten)]`.
#[derive(Debug, Clone, clap::Args)]
pub struct CaptureArgs {
    /// The capture: a directory with code.bin + meta.json, an ELF capture or
    /// AMDGPU code object, or raw code (a .bin file, or any file with --raw).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Read FILE as raw code bytes, whatever its name or content.
    #[arg(long)]
    pub raw: bool,

    /// GPU target: gfx1030 (default), gfx1013 or gfx1010. Overrides the
    /// capture's own.
    #[arg(long, value_name = "GPU")]
    pub target: Option<Target>,

    /// Hardware stage: ngg (default), vs (legacy-vs), ps or cs. Overrides
    /// the capture's own; without --abi the stage's default ABI is used.
    #[arg(long)]
    pub stage: Option<Stage>,

    /// Entry-register ABI preset: ngg (user data from s8, vertex id v5,
    /// instance id v8), legacy-vs (s2, v0, v3), ps or cs (s2).
    #[arg(long, value_name = "PRESET", value_parser = parse_abi)]
    pub abi: Option<Abi>,

    /// Lanes per wave: 32 or 64 (default 64).
    #[arg(long, value_name = "LANES")]
    pub wave: Option<WaveSize>,

    /// Custom ABI: the SGPR holding user-data word 0 (like s8).
    #[arg(long, value_name = "SGPR", value_parser = parse_sgpr)]
    pub user_data_sgpr: Option<u8>,

    /// Custom ABI: the VGPR holding the vertex id (like v5).
    #[arg(long, value_name = "VGPR", value_parser = parse_vgpr)]
    pub vertex_id_vgpr: Option<u8>,

    /// Custom ABI: the VGPR holding the instance id (like v8).
    #[arg(long, value_name = "VGPR", value_parser = parse_vgpr)]
    pub instance_id_vgpr: Option<u8>,
}

pub(crate) fn parse_abi(s: &str) -> Result<Abi, String> {
    corpus::abi_preset(s)
        .ok_or_else(|| format!("unknown ABI preset `{s}` (expected ngg, legacy-vs, ps or cs)"))
}

fn parse_sgpr(s: &str) -> Result<u8, String> {
    corpus::meta::parse_reg(s, false)
}

fn parse_vgpr(s: &str) -> Result<u8, String> {
    corpus::meta::parse_reg(s, true)
}

impl CaptureArgs {
    /// The flags as [`CaptureOptions`].
    pub fn options(&self) -> CaptureOptions {
        CaptureOptions {
            raw: self.raw,
            target: self.target,
            stage: self.stage,
            abi: self.abi,
            wave_size: self.wave,
            user_data_sgpr: self.user_data_sgpr,
            vertex_id_vgpr: self.vertex_id_vgpr,
            instance_id_vgpr: self.instance_id_vgpr,
        }
    }

    /// Read the capture, printing its notes on stderr.
    pub fn open(&self) -> Result<Capture, CliError> {
        let capture = Capture::open(&self.file, &self.options())?;
        for note in &capture.notes {
            eprintln!("shaderlift: note: {}: {note}", self.file.display());
        }
        Ok(capture)
    }
}
