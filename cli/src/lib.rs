//! The `shaderlift` command line (package `shaderlift`, binary
//! `shaderlift`): the host side of the toolkit, composing the library
//! crates (`isa`, `analysis`, `drawbind`, `interp`, `translator`,
//! `vkharness`, `corpus`). The `translator` library does not depend on it.
//!
//! One module per subcommand, each with an `Args` struct (clap derive) and
//! a `run(Args) -> Result<(), CliError>` function. Subcommands that read a
//! shader flatten the shared [`CaptureArgs`] into their `Args`, so every
//! subcommand accepts the same capture forms and flags.
//!
//! Every planned subcommand already has its module, its [`Command`]
//! variant and its dispatch arm; implementing one means editing only its
//! own file.
//!
//! Exit codes: 0 success, 1 bad input (unreadable, empty, truncated or
//! malformed capture) or failure, 2 usage error. No input makes the tool
//! panic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod args;
pub mod error;
pub mod output;

pub mod bind;
pub mod cfg;
pub mod corpus;
pub mod disasm;
pub mod oracle;
pub mod replay;
pub mod run;
pub mod trace;
pub mod translate;
pub mod verify;

pub use args::CaptureArgs;
pub use error::CliError;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// RDNA2 shader toolkit for console-emulator developers.
#[derive(Debug, Parser)]
#[command(name = "shaderlift", version, propagate_version = true)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each one's help text is the doc comment of its `Args`
/// struct, in its own module.
#[derive(Debug, Subcommand)]
#[allow(missing_docs)]
pub enum Command {
    Disasm(disasm::Args),
    Trace(trace::Args),
    Cfg(cfg::Args),
    Bind(bind::Args),
    Replay(replay::Args),
    Verify(verify::Args),
    Translate(translate::Args),
    Run(run::Args),
    Corpus(corpus::Args),
    Oracle(oracle::Args),
}

impl Command {
    /// Run the subcommand.
    pub fn run(self) -> Result<(), CliError> {
        match self {
            Command::Disasm(a) => disasm::run(a),
            Command::Trace(a) => trace::run(a),
            Command::Cfg(a) => cfg::run(a),
            Command::Bind(a) => bind::run(a),
            Command::Replay(a) => replay::run(a),
            Command::Verify(a) => verify::run(a),
            Command::Translate(a) => translate::run(a),
            Command::Run(a) => run::run(a),
            Command::Corpus(a) => corpus::run(a),
            Command::Oracle(a) => oracle::run(a),
        }
    }
}

/// Parse the process arguments, run, and turn the outcome into an exit
/// code (printing any error on stderr).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version print and exit 0; usage errors exit 2.
        Err(e) => e.exit(),
    };
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shaderlift: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
