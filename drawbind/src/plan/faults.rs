//! Deliberately broken narrowing rules for the negative controls. The type
//! is public only with the `testing` feature; without it every plan has the
//! default (no fault) and nothing outside the crate can name it.

use crate::index::IndexBuffer;

/// Deliberately broken narrowing rules, **for tests only**: the soundness
/// oracle's negative controls (`interp`) switch one on to prove the check
/// turns red when that rule is broken. All off by default; a plan with no
/// fault set behaves exactly as one built without this (the per-draw cost
/// is one predictable branch per rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BindFaults {
    /// Ignore a split draw's chunks: take the vertex ids from
    /// `first_vertex`/`vertex_count` even when chunks are given.
    pub forget_chunks: bool,
    /// Forget the instance count: narrow instance-id bindings as if only
    /// instance 0 ran.
    pub forget_instance_ids: bool,
    /// Skip the `records − 1` cap: narrow past the last record.
    pub skip_cap: bool,
    /// Narrow vertex-id bindings of indexed draws by the smallest index
    /// instead of the largest.
    pub use_min_index: bool,
    /// [`BindFaults::scan_input`]: scan the index buffer from index 0,
    /// ignoring the draw's first index.
    pub scan_from_zero: bool,
    /// [`BindFaults::scan_input`]: skip the format's all-ones value as a
    /// restart index even when the draw has restart off.
    pub restart_always: bool,
    /// Narrow a descriptor even when an untraced access has its base on
    /// this draw ([`crate::Reason::UntracedAlias`] is never given).
    pub ignore_untraced_alias: bool,
}

impl BindFaults {
    /// The index buffer and restart value a caller's scan should use under
    /// these faults (unchanged when none is set). Callers that scan index
    /// buffers for [`crate::Draw::Indexed`] in tests pass their inputs through this.
    pub fn scan_input(&self, ib: IndexBuffer, restart: Option<u32>) -> (IndexBuffer, Option<u32>) {
        let ib = if self.scan_from_zero {
            IndexBuffer {
                first_index: 0,
                ..ib
            }
        } else {
            ib
        };
        let restart = if self.restart_always {
            restart.or(Some(ib.format.max_value()))
        } else {
            restart
        };
        (ib, restart)
    }
}
