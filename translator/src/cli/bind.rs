//! `shaderlift bind` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Compute the buffer bind ranges of a draw.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift bind`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("bind"))
}
