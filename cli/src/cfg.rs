//! `shaderlift cfg`: a shader's control-flow graph, as a block list or as
//! Graphviz dot (`--dot`).

use super::error::output_result;
use super::{CaptureArgs, CliError};
use analysis::cfg::{Cfg, Program};
use std::io::{self, Write};

/// Print a shader's control-flow graph.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// Print Graphviz dot instead of a block list.
    #[arg(long)]
    pub dot: bool,
}

/// Run `shaderlift cfg`.
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open_for_analysis()?;
    let mode = isa::Mode::with_wave_size(capture.target(), capture.wave_size().lanes());
    let program = Program::decode(&capture.code, mode);
    let cfg = Cfg::build(&program);
    let text = if args.dot {
        analysis::report::cfg_dot(&program, &cfg)
    } else {
        analysis::report::cfg_text(&program, &cfg)
    };
    output_result(io::stdout().lock().write_all(text.as_bytes()))
}
