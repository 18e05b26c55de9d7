//! The error type every subcommand returns.

use std::io;
use std::path::PathBuf;

/// Why a subcommand failed. [`CliError::exit_code`] maps it to the process
/// exit code: 2 for usage errors, 3 for a run that was not run
/// ([`CliError::NotRun`]), 1 for everything else.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// The capture could not be read.
    #[error(transparent)]
    Capture(#[from] corpus::CaptureError),
    /// The code ends inside an instruction (the listing was still printed).
    #[error("{}: the code ends inside an instruction: {error}", path.display())]
    Truncated {
        /// The capture.
        path: PathBuf,
        /// Where, which bytes, and how many were needed.
        error: isa::DecodeError,
    },
    /// Other bad input, described.
    #[error("{0}")]
    Input(String),
    /// Flags that make no sense together (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[source] io::Error),
    /// The checks ran and found failures (the report was printed).
    #[error("{0}")]
    Failed(String),
    /// `shaderlift run`: the shader translates but the run does not cover
    /// what it needs (exit code 3): why, with the shader's name. Nothing
    /// was compared, and nothing failed.
    #[error("not run: {0}")]
    NotRun(String),
    /// The subcommand exists but does nothing yet.
    #[error("`shaderlift {0}` is not implemented yet")]
    NotImplemented(&'static str),
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::NotRun(_) => 3,
            _ => 1,
        }
    }
}

/// Map an output error: a closed pipe (`shaderlift disasm x | head`) is
/// not a failure; anything else is [`CliError::Output`].
pub fn output_result(r: io::Result<()>) -> Result<(), CliError> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Output(e)),
    }
}
