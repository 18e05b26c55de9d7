//! `shaderlift trace` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Trace where a shader's buffer descriptors and vertex indices come from.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift trace`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("trace"))
}
