//! Per-draw buffer bind ranges narrowed to the records a draw can index,
//! buffer cache keys, a reference buffer cache and the ring replay.
//!
//! - [`plan`]: [`BindPlan`] (once per shader) and [`BindPlan::bind`] (every
//!   draw, no allocation): the draw semantics, the baseline (D733) and the
//!   narrowing (D879) rules are documented there.
//! - [`vsharp`]: the gfx10 buffer resource fields and range-check classes.
//! - [`word`]: guest words: the 48-bit address rule and the evaluation of
//!   a traced word for a draw ([`word::eval`]), shared by every consumer.
//! - [`memory`]: the [`GuestMemory`] trait the emulator implements.
//! - [`index`]: index-buffer scans (fused with the copy) and the
//!   [`IndexRangeCache`], for narrowing indexed draws.
//! - [`cache`]: [`BufferCache`], the reference cache, and its telemetry.
//! - [`draws`]: the DRAWS.json format shared by `bind`, `verify` and `run`.
//! - [`replay`]: draw streams (the mesa-ring scenario, JSON lines) replayed
//!   through the cache with the baseline and the narrowed rules.
//! - `fixtures` (feature `testing`, for tests): hand-built traces of the
//!   corpus shaders; with the same feature, `BindFaults` and
//!   `BindPlan::with_faults`, the deliberately broken rules of the
//!   negative controls.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cache;
pub mod draws;
#[cfg(any(test, feature = "testing"))]
pub mod fixtures;
pub mod index;
pub mod memory;
pub mod plan;
pub mod replay;
pub mod vsharp;
pub mod word;

pub use cache::{BufferCache, CacheError, Outcome, Telemetry};
pub use index::{IndexBuffer, IndexError, IndexFormat, IndexRange, IndexRangeCache};
pub use memory::{GuestMemory, MemoryError, SparseMemory, MAX_MAPPED_BYTES, PAGE_SHIFT, PAGE_SIZE};
#[cfg(feature = "testing")]
pub use plan::BindFaults;
pub use plan::{BindError, BindPlan, BindRange, BufferKey, Draw, PlanError, Reason, WordRole};
pub use vsharp::{Class, OobSelect, VSharp};
