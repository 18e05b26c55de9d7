//! The `shaderlift` command-line tool. Everything is in the `shaderlift_cli`
//! library (this crate's `src/lib.rs`), one module per subcommand.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    shaderlift_cli::main()
}
