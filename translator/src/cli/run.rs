//! `shaderlift run` (placeholder: its owner replaces this file).

use super::{CaptureArgs, CliError};

/// Run a translated shader on a software Vulkan device.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,
}

/// Run `shaderlift run`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("run"))
}
