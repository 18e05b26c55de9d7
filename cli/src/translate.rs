//! `shaderlift translate`: a captured vertex shader to SPIR-V plus its
//! layout manifest.
//!
//! Writes `OUT.spv` (default: the capture's name with `.spv`, in the
//! current directory) and `OUT.spv.json`, the manifest (or `--manifest
//! FILE`; none when OUT is not a regular file, like `/dev/null`). Both are
//! written to temporary files and renamed only when both were written; an
//! output that is the input is refused (exit 2). `--wgsl` also
//! prints naga's WGSL of the module on stdout, for reading. When the
//! shader cannot be translated, every unsupported construct is listed on
//! stderr with its pc, and the exit code is 1.

use super::error::output_result;
use super::output;
use super::{CaptureArgs, CliError};
use std::io::Write;
use std::path::{Path, PathBuf};
use translator::{translate, Options, TranslateError};

/// Translate a vertex shader to SPIR-V 1.3 and write its layout manifest.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// Output file (default: NAME.spv in the current directory); the
    /// manifest goes to OUT.json when OUT is a regular file.
    #[arg(short = 'o', long = "output", value_name = "OUT.spv")]
    pub output: Option<PathBuf>,

    /// Write the manifest here instead of OUT.json (needed to get one when
    /// -o is not a regular file, like /dev/null or /dev/stdout).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// Compile in the narrowed-binding guards and the violation counter.
    #[arg(long)]
    pub checked: bool,

    /// Also store every export of every vertex in a test-output buffer.
    #[arg(long)]
    pub test_outputs: bool,

    /// Precise mode: v_rcp/v_rsq/v_sqrt/v_exp/v_log/v_sin/v_cos_f32 as f64
    /// sequences giving the correctly rounded result on every conforming
    /// driver (the device needs shaderFloat64). Default: fast mode (the
    /// host's f32 built-ins; error bounds in the README).
    #[arg(long)]
    pub precise: bool,

    /// Trust that every per-lane descriptor table index stays below 8 where
    /// the shader does not prove it (an image read at a per-lane table slot
    /// is then expanded over 8 slots; an index past them would read 0, not
    /// the guest's descriptor). Without it such a shader is refused.
    #[arg(long)]
    pub trust_lane_table_slots: bool,

    /// Print naga's WGSL of the module on stdout.
    #[arg(long)]
    pub wgsl: bool,

    /// Print the translator's IR (after its passes) on stdout, even when
    /// the shader cannot be translated.
    #[arg(long)]
    pub ir: bool,
}

/// A vertex shader: the direct vertex path, or, for an NGG shader it
/// refuses for constructs that need the other lanes (culling shaders), the
/// NGG compute pass ([`translator::translate_ngg`]) when that translates it.
pub fn translate_vertex(
    input: &translator::ShaderInput<'_>,
    trace: Option<&analysis::trace::ShaderTrace>,
    opts: &Options,
) -> Result<translator::Translation, TranslateError> {
    match translate(input, trace, opts) {
        Err(TranslateError::Unsupported(list)) if translator::wants_ngg_pass(input, &list) => {
            let entry = translator::ngg_entry_of(input);
            translator::translate_ngg(input, &entry, opts)
        }
        r => r,
    }
}

/// Run `shaderlift translate`.
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open_for_analysis()?;
    let input = capture.shader_input();
    let trace = translator::trace_for(&input);
    if args.checked && trace.is_none() {
        eprintln!("shaderlift: note: no trace available; --checked guards need traced descriptors");
    }
    let opts = Options {
        checked: args.checked,
        test_outputs: args.test_outputs,
        validate: true,
        precise: args.precise,
        trust_lane_table_slots: args.trust_lane_table_slots,
        shading_rate: Default::default(),
        lane_table_arrays: true,
        faults: Default::default(),
    };
    if args.ir {
        let f = translator::translate_ir(&input, trace.as_ref(), &opts);
        output_result(std::io::stdout().lock().write_all(f.to_string().as_bytes()))?;
    }
    let result = match capture.compute_entry() {
        Some(entry) => translator::translate_compute(&input, &entry, &opts),
        None => translate_vertex(&input, trace.as_ref(), &opts),
    };
    let t = match result {
        Ok(t) => t,
        Err(TranslateError::Unsupported(list)) => {
            return Err(CliError::Input(format!(
                "{}: cannot translate: {list}",
                capture.path.display()
            )))
        }
        Err(e) => return Err(CliError::Input(format!("{}: {e}", capture.path.display()))),
    };
    let (out, what) = match &args.output {
        Some(o) => (o.clone(), "-o"),
        None => (
            PathBuf::from(format!("{}.spv", capture.name)),
            "the default output",
        ),
    };
    // The manifest's default name is derived only from a regular file: a
    // device like /dev/null has no sibling `/dev/null.json` to write.
    let mpath = match &args.manifest {
        Some(m) => Some(m.clone()),
        None if output::is_regular_destination(&out) => {
            let mut m = out.clone().into_os_string();
            m.push(".json");
            Some(PathBuf::from(m))
        }
        None => None,
    };
    // Never overwrite an input: the capture (its files, for a directory).
    let capture_files = output::capture_inputs(&capture.path);
    let inputs: Vec<&Path> = capture_files.iter().map(PathBuf::as_path).collect();
    output::refuse_input(&out, &inputs, what)?;
    if let Some(m) = &mpath {
        output::refuse_input(m, &inputs, "the manifest")?;
    }
    let bytes: Vec<u8> = t.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut staged = output::Staged::new();
    staged.write_bytes(&out, &bytes)?;
    if let Some(m) = &mpath {
        staged.write_bytes(m, (t.manifest.to_json() + "\n").as_bytes())?;
    }
    staged.commit()?;
    match &mpath {
        Some(m) => eprintln!(
            "shaderlift: wrote {} ({} bytes) and {}",
            out.display(),
            t.spirv.len() * 4,
            m.display()
        ),
        None => eprintln!(
            "shaderlift: wrote {} ({} bytes); no manifest (the output is not a regular file: give --manifest FILE)",
            out.display(),
            t.spirv.len() * 4
        ),
    }
    if args.wgsl {
        let w = translator::to_wgsl(&t.spirv).map_err(CliError::Input)?;
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        output_result(lock.write_all(w.as_bytes()))?;
    }
    Ok(())
}
