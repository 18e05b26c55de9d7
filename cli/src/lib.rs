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
    let cli = match parse_from(std::env::args_os()) {
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

/// Parse a command line (program name first) as [`Cli::try_parse_from`]
/// does, with one shortcut: `shaderlift disasm ...` is first tried by a
/// parser that knows only that subcommand. Building every subcommand's
/// arguments is a measurable part of listing a short shader (about
/// 0.3 M instructions and 40 page faults of heap); anything the shortcut
/// does not accept (help, version, usage errors) goes to the full parser,
/// so what is printed and what is parsed is the same either way (test
/// `disasm_shortcut_parses_as_the_full_parser`).
pub fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if args.get(1).is_some_and(|a| a == "disasm") {
        if let Ok(only) = DisasmOnly::try_parse_from(&args) {
            let DisasmCommand::Disasm(a) = only.command;
            return Ok(Cli {
                command: Command::Disasm(a),
            });
        }
    }
    Cli::try_parse_from(args)
}

/// [`Cli`] with the `disasm` subcommand only (see [`parse_from`]).
#[derive(Debug, Parser)]
#[command(name = "shaderlift", version, propagate_version = true)]
struct DisasmOnly {
    #[command(subcommand)]
    command: DisasmCommand,
}

/// [`Command`]'s `disasm` alone.
#[derive(Debug, Subcommand)]
enum DisasmCommand {
    Disasm(disasm::Args),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a parser made of a command line, comparable across parsers.
    fn parsed(r: Result<Cli, clap::Error>) -> String {
        match r {
            Ok(cli) => format!("ok {cli:?}"),
            Err(e) => format!("err {:?} {}", e.kind(), e.render()),
        }
    }

    #[test]
    fn disasm_shortcut_parses_as_the_full_parser() {
        let lines: &[&[&str]] = &[
            &["shaderlift", "disasm", "x.bin"],
            &["shaderlift", "disasm", "--raw", "--wave", "32", "x.bin"],
            &[
                "shaderlift",
                "disasm",
                "--json",
                "--wave",
                "64",
                "--target",
                "gfx1013",
                "x",
            ],
            &[
                "shaderlift",
                "disasm",
                "--stage",
                "ps",
                "--workgroup-size",
                "8,8,1",
                "x",
            ],
            &["shaderlift", "disasm", "--local-id-vgprs", "2", "x"],
            // Errors, help and version: the full parser's answer.
            &["shaderlift", "disasm"],
            &["shaderlift", "disasm", "--wave", "48", "x"],
            &["shaderlift", "disasm", "--local-id-vgprs", "4", "x"],
            &["shaderlift", "disasm", "--no-such-flag", "x"],
            &["shaderlift", "disasm", "--help"],
            &["shaderlift", "disasm", "--version"],
            &["shaderlift", "disasm", "x", "y"],
            &["shaderlift", "trace", "x"],
            &["shaderlift", "--help"],
        ];
        for line in lines {
            let full = parsed(Cli::try_parse_from(*line));
            assert_eq!(parsed(parse_from(*line)), full, "{line:?}");
        }
        // The shortcut parser really takes the successful lines, and the
        // comparison sees a flag: a parse without `--raw` compares unequal.
        assert!(DisasmOnly::try_parse_from(lines[1]).is_ok());
        assert_ne!(
            parsed(parse_from([
                "shaderlift",
                "disasm",
                "--wave",
                "32",
                "x.bin"
            ])),
            parsed(Cli::try_parse_from(lines[1])),
        );
    }
}
