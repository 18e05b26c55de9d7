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
    /// instance id v8), legacy-vs (s2, v0, v3), ps or cs (s2). A preset
    /// belongs to its stage: alone it selects that stage too, and with a
    /// different --stage it is a usage error.
    #[arg(long, value_name = "PRESET", value_parser = parse_abi)]
    pub abi: Option<AbiPreset>,

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

    /// Compute entry (a capture that does not record it, e.g. raw code):
    /// invocations per workgroup, X[,Y[,Z]] (COMPUTE_NUM_THREAD_X/Y/Z).
    /// Needs --workgroup-id-sgpr.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_size3)]
    pub workgroup_size: Option<[u32; 3]>,

    /// Compute entry: the SGPR holding the first workgroup-id component the
    /// hardware loads, which is where the user SGPRs end (like s5).
    #[arg(long, value_name = "SGPR", value_parser = parse_sgpr)]
    pub workgroup_id_sgpr: Option<u8>,

    /// Compute entry: which workgroup-id components the hardware loads, in
    /// consecutive SGPRs (TGID_X/Y/Z_EN): a subset of xyz (default xyz).
    #[arg(long, value_name = "XYZ", value_parser = parse_components)]
    pub workgroup_id: Option<[bool; 3]>,

    /// Compute entry: how many local-id VGPRs the hardware loads, 1..=3
    /// (TIDIG_COMP_CNT + 1; default 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=3))]
    pub local_id_vgprs: Option<u8>,
}

/// The most code bytes `trace`, `cfg`, `bind`, `verify`, `translate`, `run`
/// and `corpus` analyse: 16 MiB (real shaders are kilobytes; the analyses
/// keep per-instruction tables). `disasm` streams and has no limit.
pub const MAX_CODE_BYTES: usize = 16 << 20;

/// The most vertex-shader invocations (vertices × instances, indices ×
/// instances, every split chunk counted) one draw may ask `verify` and
/// `run` for: 2^20. The interpreter runs every one of them.
pub const MAX_DRAW_INVOCATIONS: u64 = 1 << 20;

/// Refuse code larger than [`MAX_CODE_BYTES`] (bad input, exit 1).
pub fn check_code_size(capture: &Capture) -> Result<(), CliError> {
    if capture.code.len() > MAX_CODE_BYTES {
        return Err(CliError::Input(format!(
            "{}: {} code bytes is more than the {} bytes (16 MiB) this subcommand analyses",
            capture.path.display(),
            capture.code.len(),
            MAX_CODE_BYTES
        )));
    }
    Ok(())
}

/// Refuse a draw of more than [`MAX_DRAW_INVOCATIONS`] invocations (bad
/// input, exit 1), before anything is allocated or run for it.
pub fn check_draw_budget(draws: &drawbind::draws::DrawsFile) -> Result<(), CliError> {
    use drawbind::draws::DrawSpec;
    for (i, d) in draws.draws.iter().enumerate() {
        let n = match d {
            DrawSpec::Auto {
                vertex_count,
                instance_count,
                chunks,
                ..
            } => {
                let chunked: u64 = chunks.iter().map(|&(_, c)| u64::from(c)).sum();
                u64::from(*vertex_count).max(chunked) * u64::from(*instance_count)
            }
            DrawSpec::Indexed {
                index_count,
                instance_count,
                ..
            } => u64::from(*index_count) * u64::from(*instance_count),
            // A kind this version does not run: nothing to bound.
            _ => 0,
        };
        if n > MAX_DRAW_INVOCATIONS {
            return Err(CliError::Input(format!(
                "draw {i} asks for {n} vertex invocations, more than the limit of {MAX_DRAW_INVOCATIONS} per draw"
            )));
        }
    }
    Ok(())
}

/// An `--abi` preset: the default entry ABI of one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbiPreset(pub Stage);

impl AbiPreset {
    /// The preset's registers.
    pub fn abi(self) -> Abi {
        corpus::default_abi(self.0)
    }
}

pub(crate) fn parse_abi(s: &str) -> Result<AbiPreset, String> {
    match s.parse::<Stage>() {
        Ok(stage) if corpus::abi_preset(s).is_some() => Ok(AbiPreset(stage)),
        _ => Err(format!(
            "unknown ABI preset `{s}` (expected ngg, legacy-vs, ps or cs)"
        )),
    }
}

/// The one stage and ABI resolution every subcommand uses: an `--abi`
/// preset alone selects its own stage, `--stage` alone selects the stage's
/// default ABI (applied when the capture is read), and a preset of another
/// stage than `--stage` is a usage error.
pub fn resolve_stage_abi(
    stage: Option<Stage>,
    abi: Option<AbiPreset>,
) -> Result<(Option<Stage>, Option<Abi>), CliError> {
    match (stage, abi) {
        (Some(s), Some(p)) if s != p.0 => Err(CliError::Usage(format!(
            "--abi {} is the entry ABI of stage {}, but --stage {s} was given; \
             give one of them, or --stage with the custom register flags",
            p.0.name(),
            p.0
        ))),
        (s, Some(p)) => Ok((Some(s.unwrap_or(p.0)), Some(p.abi()))),
        (s, None) => Ok((s, None)),
    }
}

fn parse_sgpr(s: &str) -> Result<u8, String> {
    corpus::meta::parse_reg(s, false)
}

fn parse_vgpr(s: &str) -> Result<u8, String> {
    corpus::meta::parse_reg(s, true)
}

/// `X[,Y[,Z]]`, each 1..=1024 (missing ones are 1).
fn parse_size3(s: &str) -> Result<[u32; 3], String> {
    let mut out = [1u32; 3];
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: give X, X,Y or X,Y,Z"));
    }
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p
            .trim()
            .parse()
            .map_err(|_| format!("`{p}` is not a number"))?;
        if !(1..=1024).contains(o) {
            return Err(format!("`{p}`: a workgroup dimension is 1..=1024"));
        }
    }
    Ok(out)
}

/// A non-empty subset of `xyz`, in order.
fn parse_components(s: &str) -> Result<[bool; 3], String> {
    let mut out = [false; 3];
    let mut last = None;
    for c in s.chars() {
        let i = match c {
            'x' => 0,
            'y' => 1,
            'z' => 2,
            _ => return Err(format!("`{s}`: only the letters x, y and z, in that order")),
        };
        if last.is_some_and(|l| l >= i) {
            return Err(format!("`{s}`: only the letters x, y and z, in that order"));
        }
        out[i] = true;
        last = Some(i);
    }
    if last.is_none() {
        return Err("name at least one of x, y, z".into());
    }
    Ok(out)
}

impl CaptureArgs {
    /// A capture at `file` with every flag at its default (the capture's
    /// own metadata decides).
    pub fn for_file(file: PathBuf) -> CaptureArgs {
        CaptureArgs {
            file,
            raw: false,
            target: None,
            stage: None,
            abi: None,
            wave: None,
            user_data_sgpr: None,
            vertex_id_vgpr: None,
            instance_id_vgpr: None,
            workgroup_size: None,
            workgroup_id_sgpr: None,
            workgroup_id: None,
            local_id_vgprs: None,
        }
    }

    /// The compute entry the flags describe: `None` without
    /// --workgroup-size; a usage error when it comes without
    /// --workgroup-id-sgpr, or when the other compute flags come alone.
    pub fn compute_entry(&self) -> Result<Option<translator::wave::ComputeEntry>, CliError> {
        let Some(size) = self.workgroup_size else {
            if self.workgroup_id_sgpr.is_some()
                || self.workgroup_id.is_some()
                || self.local_id_vgprs.is_some()
            {
                return Err(CliError::Usage(
                    "the compute entry flags need --workgroup-size".into(),
                ));
            }
            return Ok(None);
        };
        let Some(first) = self.workgroup_id_sgpr else {
            return Err(CliError::Usage(
                "--workgroup-size needs --workgroup-id-sgpr (where the user SGPRs end)".into(),
            ));
        };
        Ok(Some(translator::wave::ComputeEntry {
            workgroup_size: size,
            user_sgprs: first,
            workgroup_id: self.workgroup_id.unwrap_or([true; 3]),
            local_id_vgprs: self.local_id_vgprs.unwrap_or(3),
            tg_size: false,
        }))
    }

    /// The flags as [`CaptureOptions`], resolved by [`resolve_stage_abi`];
    /// contradictory flags are a usage error.
    pub fn options(&self) -> Result<CaptureOptions, CliError> {
        let (stage, abi) = resolve_stage_abi(self.stage, self.abi)?;
        if let (Some(v), Some(i)) = (self.vertex_id_vgpr, self.instance_id_vgpr) {
            if v == i {
                return Err(CliError::Usage(format!(
                    "--vertex-id-vgpr and --instance-id-vgpr both name v{v}"
                )));
            }
        }
        Ok(CaptureOptions {
            raw: self.raw,
            target: self.target,
            stage,
            abi,
            wave_size: self.wave,
            user_data_sgpr: self.user_data_sgpr,
            vertex_id_vgpr: self.vertex_id_vgpr,
            instance_id_vgpr: self.instance_id_vgpr,
            only_unrecorded: false,
        })
    }

    /// Read the capture, printing its notes on stderr. Flags that leave an
    /// impossible ABI (one of the id flags landing on the other id's VGPR)
    /// are a usage error.
    pub fn open(&self) -> Result<Capture, CliError> {
        let entry = self.compute_entry()?;
        let capture = Capture::open(&self.file, &self.options()?).map_err(open_error)?;
        self.finish_open(capture, entry)
    }

    /// [`CaptureArgs::open`] for a reader of raw code in pieces (see
    /// [`Capture::open_raw_head`]): the capture holding the first `head`
    /// bytes and the file positioned after them, or `None` when the file
    /// is not raw code.
    pub fn open_raw_head(&self, head: usize) -> Result<Option<(Capture, std::fs::File)>, CliError> {
        let entry = self.compute_entry()?;
        match Capture::open_raw_head(&self.file, &self.options()?, head).map_err(open_error)? {
            Some((capture, file)) => Ok(Some((self.finish_open(capture, entry)?, file))),
            None => Ok(None),
        }
    }

    /// Check the compute entry flags against the capture and print its notes.
    fn finish_open(
        &self,
        mut capture: Capture,
        entry: Option<translator::wave::ComputeEntry>,
    ) -> Result<Capture, CliError> {
        if let Some(entry) = entry {
            if capture.stage() != isa::Stage::Cs {
                return Err(CliError::Usage(format!(
                    "{}: the compute entry flags describe a compute shader, and this is a {} shader",
                    self.file.display(),
                    capture.stage()
                )));
            }
            match capture.meta.compute {
                // The capture's own metadata is not silently overridden.
                Some(own) if own != entry => {
                    return Err(CliError::Usage(format!(
                    "{}: the capture records its compute entry ({own:?}); the flags say {entry:?}",
                    self.file.display()
                )))
                }
                _ => capture.meta.compute = Some(entry),
            }
        }
        for note in &capture.notes {
            eprintln!("shaderlift: note: {}: {note}", self.file.display());
        }
        Ok(capture)
    }

    /// [`CaptureArgs::open`], refusing code past [`MAX_CODE_BYTES`].
    pub fn open_for_analysis(&self) -> Result<Capture, CliError> {
        let capture = self.open()?;
        check_code_size(&capture)?;
        Ok(capture)
    }
}

/// A capture error from opening: impossible options are a usage error.
fn open_error(e: corpus::CaptureError) -> CliError {
    match e {
        e @ corpus::CaptureError::BadOptions { .. } => CliError::Usage(e.to_string()),
        e => e.into(),
    }
}
