//! `shaderlift translate` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Translate a shader to SPIR-V.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift translate`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("translate"))
}
