//! `shaderlift trace`: where a shader's buffer descriptors and vertex
//! indices come from.
//!
//! The human form is a short table (descriptors with their bounds and
//! reasons, then every buffer access); `--json` prints the object described
//! in [`analysis::report`] (`descriptors[].source/bound/reason/accesses`,
//! `accesses`, `notes`). Bytes that do not decode, branches out of the code
//! and empty code never make it fail: they come out as notes and unbound
//! descriptors.

use super::error::output_result;
use super::{CaptureArgs, CliError};
use analysis::trace::{trace_code, TraceConfig};
use corpus::{Capture, WaveSize};
use std::io::{self, Write};

/// Trace where a shader's buffer descriptors and vertex indices come from.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// Print JSON (stable field names) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Trace a capture with the stage, ABI and wave size it records (after
/// any command-line overrides [`CaptureArgs::open`] applied).
pub fn trace_capture(capture: &Capture) -> analysis::trace::ShaderTrace {
    let config = TraceConfig::new(
        capture.stage(),
        capture.abi(),
        capture.wave_size() == WaveSize::W32,
    );
    trace_code(&capture.code, capture.target(), &config)
}

/// Run `shaderlift trace`.
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open_for_analysis()?;
    let trace = trace_capture(&capture);
    let text = if args.json {
        let mut s = serde_json::to_string_pretty(&analysis::report::trace_json(&trace))
            .map_err(|e| CliError::Input(e.to_string()))?;
        s.push('\n');
        s
    } else {
        analysis::report::trace_table(&trace)
    };
    output_result(io::stdout().lock().write_all(text.as_bytes()))
}
