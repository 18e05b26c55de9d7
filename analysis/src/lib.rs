//! Control flow, register-source tracing and the reference interpreter.
//!
//! - [`source`]: the abstract sources of SGPR words and VGPR indices.
//! - [`trace`]: the tracing result, [`trace::ShaderTrace`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod source;
pub mod trace;
