//! RDNA2 shaders to SPIR-V, and the `shaderlift` command-line tool
//! ([`cli`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
