//! `shaderlift corpus` (placeholder: its owner replaces this file).
//!
//! [`::corpus::find_captures`] lists the captures under a directory and
//! [`::corpus::bundled_root`] is the bundled corpus.

use super::CliError;
use std::path::PathBuf;

/// Run every check on each capture under a directory (default: the
/// bundled RADV corpus).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to search for captures.
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Run `shaderlift corpus`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::NotImplemented("corpus"))
}
