//! Control flow, register-source tracing and the reference interpreter.
//!
//! - [`source`]: the abstract sources of SGPR words and VGPR indices.
//! - [`cfg`]: decoded programs and their control-flow graphs.
//! - [`trace`]: register-source tracing and its result, [`trace::ShaderTrace`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cfg;
pub mod report;
pub mod source;
pub mod trace;
