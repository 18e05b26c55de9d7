//! `shaderlift translate`: a captured vertex shader to SPIR-V plus its
//! layout manifest.
//!
//! Writes `OUT.spv` (default: the capture's name with `.spv`, in the
//! current directory) and `OUT.spv.json`, the manifest. `--wgsl` also
//! prints naga's WGSL of the module on stdout, for reading. When the
//! shader cannot be translated, every unsupported construct is listed on
//! stderr with its pc, and the exit code is 1.

use super::error::output_result;
use super::{CaptureArgs, CliError};
use crate::{translate, Options, ShaderInput, TranslateError};
use std::io::Write;
use std::path::PathBuf;

/// Translate a vertex shader to SPIR-V 1.3 and write its layout manifest.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// Output file (default: NAME.spv); the manifest goes to OUT.json.
    #[arg(short = 'o', long = "output", value_name = "OUT.spv")]
    pub output: Option<PathBuf>,

    /// Compile in the narrowed-binding guards and the violation counter.
    #[arg(long)]
    pub checked: bool,

    /// Also store every export of every vertex in a test-output buffer.
    #[arg(long)]
    pub test_outputs: bool,

    /// Print naga's WGSL of the module on stdout.
    #[arg(long)]
    pub wgsl: bool,

    /// Print the translator's IR (after its passes) on stdout, even when
    /// the shader cannot be translated.
    #[arg(long)]
    pub ir: bool,
}

/// Run `shaderlift translate`.
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open()?;
    let input = ShaderInput::from_capture(&capture);
    let trace = crate::trace_for(&input);
    if args.checked && trace.is_none() {
        eprintln!("shaderlift: note: no trace available; --checked guards need traced descriptors");
    }
    let opts = Options {
        checked: args.checked,
        test_outputs: args.test_outputs,
        validate: true,
    };
    if args.ir {
        let f = crate::translate_ir(&input, trace.as_ref(), &opts);
        output_result(std::io::stdout().lock().write_all(f.to_string().as_bytes()))?;
    }
    let t = match translate(&input, trace.as_ref(), &opts) {
        Ok(t) => t,
        Err(TranslateError::Unsupported(list)) => {
            return Err(CliError::Input(format!(
                "{}: cannot translate: {list}",
                capture.path.display()
            )))
        }
        Err(e) => return Err(CliError::Input(format!("{}: {e}", capture.path.display()))),
    };
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.spv", capture.name)));
    let bytes: Vec<u8> = t.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&out, bytes)
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", out.display())))?;
    let mut mpath = out.clone().into_os_string();
    mpath.push(".json");
    let mpath = PathBuf::from(mpath);
    std::fs::write(&mpath, t.manifest.to_json() + "\n")
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", mpath.display())))?;
    eprintln!(
        "shaderlift: wrote {} ({} bytes) and {}",
        out.display(),
        t.spirv.len() * 4,
        mpath.display()
    );
    if args.wgsl {
        let w = crate::to_wgsl(&t.spirv).map_err(CliError::Input)?;
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        output_result(lock.write_all(w.as_bytes()))?;
    }
    Ok(())
}
