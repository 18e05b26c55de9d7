//! Reference interpreter for RDNA2 (gfx10) vertex shaders, a draw driver,
//! and the soundness oracle that checks drawbind's narrowed ranges against
//! the bytes a draw really fetches.
//!
//! - [`Program`]: code decoded once for execution.
//! - [`Wave`]: one wave's registers, with definedness (see [`wave`]).
//! - [`run_wave`]: execute one wave until `s_endpgm` or `s_barrier`;
//!   [`run_workgroup`] runs the waves of a workgroup over a shared LDS.
//! - [`Observations`]: buffer accesses, exports, messages, findings.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod driver;
mod exec;
pub mod float;
mod format;
pub mod memory;
mod memops;
mod ops;
mod program;
mod sdwa;
pub mod record;
mod valu;
pub mod wave;
mod workgroup;

pub use check::{check_draw, Binding, BindingCheck, DrawCheck, Violation, ViolationKind};
pub use driver::{run_draw, Draw, DrawConfig, DrawError, DrawRun, PrimLayout, WaveInfo};
pub use exec::{run_wave, Env, Limits, Observations};
pub use memops::Vsharp;
pub use memory::{Lds, Memory};
pub use program::Program;
pub use record::{AccessKind, BufferFetch, Export, Finding, InterpError, Message};
pub use wave::{FpMode, Status, Wave};
pub use workgroup::run_workgroup;
