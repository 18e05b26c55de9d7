//! The `shaderlift` command-line tool. Everything is in `translator::cli`.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    translator::cli::main()
}
