//! The `shaderlift` command-line tool.

#![forbid(unsafe_code)]

fn main() {
    eprintln!("shaderlift: not yet implemented");
    std::process::exit(2);
}
