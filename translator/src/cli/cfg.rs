//! `shaderlift cfg` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Print a shader's control-flow graph.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift cfg`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("cfg"))
}
