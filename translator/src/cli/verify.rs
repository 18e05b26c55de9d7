//! `shaderlift verify` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Check a shader's bind ranges against the reference interpreter.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift verify`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("verify"))
}
