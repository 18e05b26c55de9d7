//! Run a vertex-shader SPIR-V module on a Vulkan device and read its storage
//! buffers back.
//!
//! This is the execution half of `shaderlift run`: the translator turns an
//! RDNA2 vertex shader into SPIR-V whose outputs are also stored, per
//! vertex, into a storage buffer; this crate runs that module for a draw on
//! a real Vulkan driver (Mesa's lavapipe by default) and hands the buffers
//! back for comparison with the reference interpreter.
//!
//! ```no_run
//! use vkharness::{Binding, DeviceChoice, DrawCall, Harness, Interface};
//! # fn main() -> Result<(), vkharness::HarnessError> {
//! # let spirv: Vec<u32> = Vec::new();
//! let harness = Harness::new(DeviceChoice::Default)?;
//! let program = harness.program(&spirv, &Interface {
//!     entry_point: "main".into(),
//!     bindings: vec![0, 1],
//!     push_constant_bytes: 8,
//! })?;
//! let out = program.run(
//!     &DrawCall { vertex_count: 36, instance_count: 1, first_vertex: 0, first_instance: 0 },
//!     &[Binding::input(0, &[0u8; 64]), Binding::output(1, 36 * 16)],
//!     &[0u8; 8],
//! )?;
//! let bytes = out.buffer(1).unwrap();
//! # let _ = bytes; Ok(()) }
//! ```
//!
//! # The pipeline
//!
//! Every program is a graphics pipeline with only a vertex stage, no vertex
//! input, a point-list topology (each vertex is its own primitive, so every
//! vertex of the draw is shaded) and rasterizer discard, inside a render
//! pass without attachments. Resources are storage buffers in descriptor
//! set 0 plus one push-constant range at offset 0, all visible to the
//! vertex stage; the device runs with `vertexPipelineStoresAndAtomics`
//! (required) and `robustBufferAccess` (when the device has it).
//! Vertex, fragment and compute programs may also bind images (combined image
//! samplers and storage images, see [`ImageSlot`] and [`ImageInput`]):
//! optimal-tiled images uploaded by a buffer copy before the run, in
//! `GENERAL` layout, optionally copied back after it. The storage-image
//! without-format features are enabled when the device has them.
//!
//! # Soundness
//!
//! This is the only crate of the workspace with `unsafe` code: every Vulkan
//! call is a foreign call with preconditions the compiler cannot see. Each
//! `unsafe` block is small and says why its preconditions hold. The safe
//! API keeps them for any input:
//! - a SPIR-V module is parsed and validated with naga before the driver
//!   sees it, and its resource interface is checked against the pipeline
//!   layout (only storage buffers in set 0 at declared bindings, a
//!   push-constant block no larger than the declared range, a vertex entry
//!   point of the given name);
//!   naga cannot read combined image samplers, so a module declaring one
//!   gets a structural check of the same interface rules from its SPIR-V
//!   words instead (entry point, set 0 bindings by kind, push-block end);
//! - `robustBufferAccess` is enabled when the device offers it, so an
//!   out-of-range access of a (wrong) shader stays inside its buffer;
//! - a run that does not finish in time poisons the harness instead of
//!   freeing memory the device may still use;
//! - buffers live in host-coherent memory, written before submission and
//!   read after the fence with a host-read barrier.
//!
//! # Cost
//!
//! A [`Harness`] (instance, device, queue, render pass) is made once per
//! process ([`Harness::shared`]) or per tool run. Pipeline layouts are
//! cached per interface shape, so programs with the same bindings share
//! them; one [`VertexProgram`] compiles its pipeline once and runs any
//! number of draws.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod check;
mod common;
mod compute;
mod device;
mod fragment;
mod image;
mod program;
mod source;

pub use compute::{ComputeProgram, MAX_GROUPS};
pub use device::{list_devices, DeviceChoice, DeviceInfo, Harness};
pub use fragment::{FragmentProgram, MAX_EXTENT};
pub use image::{texel_bytes, ImageDim, ImageInput, ImageSlot, ImageSlotKind, SamplerDesc};
pub use program::{Binding, DrawCall, Interface, RunOutput, VertexProgram};
pub use source::{
    DescriptorBuffer, DescriptorDesc, DescriptorKind, SourceInterface, SourceOutput, SourceProgram,
    VertexAttributeDesc, VertexBindingDesc, VertexBuffer, VertexFormat, MAX_SETS,
};

pub use ash::vk;

/// Why the harness could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// The Vulkan loader (`libvulkan.so.1`) could not be loaded.
    #[error("no Vulkan loader: {0} (install libvulkan1 and mesa-vulkan-drivers for lavapipe)")]
    NoLoader(String),
    /// The loader has no physical device at all.
    #[error(
        "the Vulkan loader reports no physical device (install mesa-vulkan-drivers for lavapipe)"
    )]
    NoDevice,
    /// The default choice found no CPU device (lavapipe) among the devices.
    #[error("no CPU (lavapipe) Vulkan device among: {}; pick one with --device N", .available.join(", "))]
    NoCpuDevice {
        /// `index: name` of each device present.
        available: Vec<String>,
    },
    /// `--device N` names a device that does not exist.
    #[error("no Vulkan device {index}: there are {count}: {}", .available.join(", "))]
    DeviceIndex {
        /// The index asked for.
        index: usize,
        /// How many devices there are.
        count: usize,
        /// `index: name` of each device present.
        available: Vec<String>,
    },
    /// The device lacks something the harness needs.
    #[error("Vulkan device `{device}` cannot run the harness: {what}")]
    Unsupported {
        /// The device name.
        device: String,
        /// What it lacks.
        what: String,
    },
    /// A Vulkan call failed.
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan {
        /// The entry point.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
    /// The SPIR-V module or its interface is not acceptable.
    #[error("bad shader: {0}")]
    Shader(String),
    /// The run's inputs do not match the program's interface.
    #[error("bad run input: {0}")]
    Input(String),
    /// The device did not finish a run within the timeout; the harness is
    /// now poisoned (its memory may still be in use by the device).
    #[error("the draw did not finish within {seconds} s; the Vulkan device is abandoned")]
    Timeout {
        /// The timeout.
        seconds: u64,
    },
    /// An earlier run timed out or lost the device; nothing more can run.
    #[error("the Vulkan device was abandoned after an earlier timeout or device loss")]
    Poisoned,
}

impl HarnessError {
    /// True when the error says this machine has no usable Vulkan device
    /// (no loader, no device, no CPU device). Tests skip on these, with a
    /// printed note; every other error is a real failure.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            HarnessError::NoLoader(_) | HarnessError::NoDevice | HarnessError::NoCpuDevice { .. }
        )
    }
}

/// Wrap a Vulkan result with the name of the call that gave it.
fn vkr<T>(call: &'static str, r: Result<T, vk::Result>) -> Result<T, HarnessError> {
    r.map_err(|result| HarnessError::Vulkan { call, result })
}
