//! `shaderlift replay` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Replay recorded draws through the reference buffer cache.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift replay`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("replay"))
}
