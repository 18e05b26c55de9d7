//! Reference interpreter for RDNA2 (gfx10) vertex shaders, a draw driver,
//! and the soundness oracle that checks drawbind's narrowed ranges against
//! the bytes a draw really fetches.
//!
//! # Layers
//!
//! - [`Program`]: code decoded once (every dword offset) for a target and
//!   wave size.
//! - [`Wave`]: one wave's registers, with definedness (see [`wave`]):
//!   values the hardware never wrote are tracked as undefined, not zero.
//! - [`run_wave`] executes one wave until `s_endpgm` or `s_barrier`;
//!   [`run_workgroup`] runs the waves of a workgroup over one LDS,
//!   switching at barriers. Buffer accesses, exports, messages and
//!   [`Finding`]s (undefined addresses, unmapped reads) go to
//!   [`Observations`]; an unsupported instruction, a runaway loop or
//!   control flow on an undefined value stops the run with an
//!   [`InterpError`] naming the pc and the instruction.
//! - [`driver`]: a whole draw, split into legacy-VS waves or NGG workgroups
//!   with their entry registers (the model is documented there).
//! - [`check`]: one draw's fetches against its bound ranges.
//! - [`verify`]/[`Verifier`]: trace → bind → interpret → check, per draw.
//! - `gen` (feature `testing`): generated fetch-like programs for fuzzing
//!   and the negative controls.
//!
//! # What is modelled
//!
//! The scalar ALU (SOP1/SOP2/SOPK/SOPC), program control and branches
//! (`s_cbranch_*` including execz/vccz), SMEM loads (`s_load_*`,
//! `s_buffer_load_*` with range checks), the vector ALU in every encoding
//! (VOP1/VOP2/VOPC/VOP3/VOP3P, SDWA and DPP operand forms) for the integer
//! and f32 operations shaders use (see [`float`] for the float rules:
//! RADV's f32 denormal flushing, round-to-nearest-even, fused `v_fma`),
//! cross-lane operations (`v_readlane`, `v_writelane`, `v_permlane16`,
//! `v_mbcnt`, `v_swap`), MUBUF/MTBUF loads with the hardware's range checks
//! and format conversion, DS reads, writes and 32-bit atomics, and exports.
//! Stores and buffer atomics are recorded but never change guest memory.
//! Anything else is an [`InterpError::Unsupported`].
//!
//! The oracle shares no code with what it checks (the tracer in `analysis`
//! and the bind rules in `drawbind`) except `isa`'s instruction facts
//! (operand roles, widths, value types) and drawbind's `GuestMemory` trait
//! and DRAWS.json types.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod dispatch;
pub mod driver;
mod exec;
#[cfg(feature = "testing")]
pub mod faults;
pub mod float;
mod format;
#[cfg(any(test, feature = "testing"))]
pub mod gen;
mod global;
pub mod image;
mod memops;
pub mod memory;
mod ops;
pub mod precise;
mod program;
pub mod ps;
pub mod record;
mod salu;
pub mod scene;
mod valu;
mod verify;
pub mod wave;
mod workgroup;

pub use check::{check_draw, Binding, BindingCheck, DrawCheck, Violation, ViolationKind};
pub use dispatch::{run_dispatch, DispatchConfig, DispatchError};
pub use driver::{
    index_buffer_ids, ngg_workgroups, run_draw, Draw, DrawConfig, DrawError, DrawRun, LdsInit,
    PrimLayout, WaveInfo, MAX_LDS_INIT,
};
pub use exec::{run_wave, Env, Limits, Observations, MAX_FINDINGS};
pub use image::{ImageError, Ssharp, Tsharp};
pub use memops::Vsharp;
pub use memory::{GuestMemory, Lds};
pub use program::Program;
pub use record::{AccessKind, BufferFetch, Export, Finding, InterpError, Message, Store};
pub use verify::{verify, DrawReport, Report, Shader, Verifier, VerifyError, VerifyOptions};
pub use wave::{FpMode, Status, Wave};
pub use workgroup::run_workgroup;

/// Whether the interpreter models `op` (anything else stops a wave with an
/// unsupported-instruction error). The same classification the interpreter
/// dispatches on.
pub fn runs(op: isa::Opcode) -> bool {
    !matches!(ops::kind_of(op), ops::Kind::Unsupported(_))
}
