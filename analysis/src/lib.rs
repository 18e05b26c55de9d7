//! Control flow and register-source tracing (the reference interpreter that
//! checks the tracer is the separate `interp` crate).
//!
//! - [`source`]: the abstract sources of SGPR words and VGPR indices.
//! - [`mod@cfg`]: decoded programs ([`cfg::Program`]) and their control-flow
//!   graphs ([`cfg::Cfg`]).
//! - [`trace`]: register-source tracing ([`trace::trace_code`],
//!   [`trace::trace_program`]) and its result, [`trace::ShaderTrace`].
//! - [`report`]: the JSON, table and Graphviz forms the command line prints.
//!
//! ```
//! use analysis::trace::{trace_code, TraceConfig};
//! // s_endpgm: nothing to trace, and no panic on any input.
//! let t = trace_code(&[0x00, 0x00, 0x81, 0xbf], isa::Target::Gfx1030, &TraceConfig::ngg());
//! assert!(t.descriptors.is_empty());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cfg;
pub mod report;
pub mod source;
pub mod trace;
