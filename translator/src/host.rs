//! Host glue: what a translated shader's manifest needs from the guest for
//! one draw.
//!
//! A host (an emulator, `shaderlift run`) that runs a [`crate::Translation`]
//! binds one storage buffer per traced descriptor
//! ([`BindingKind::Descriptor`]) and passes each binding's guest base, size
//! and, with `--checked`, its narrowed last record in the push constants
//! ([`crate::manifest::PushKind::BindingBaseLo`] and its siblings). This
//! module computes those guest facts; copying the guest bytes into host
//! buffers stays the caller's job.
//!
//! Once per shader, [`HostBinder::new`] maps every descriptor binding of the
//! [`Manifest`] onto its entry of the shader's [`BindPlan`] (built from the
//! same trace the translation used). Every draw, [`HostBinder::bind_draw`]
//! runs [`BindPlan::bind`] and writes one [`HostBinding`] per descriptor
//! binding, in manifest order; [`HostBinder::window`] gives the fallback
//! window that spans every descriptor's baseline range. Neither allocates:
//! the caller owns the scratch ranges ([`HostBinder::scratch_len`]) and the
//! output ([`HostBinder::len`]). [`guest_reader`] reads guest memory for
//! the manifest's push-constant words.
//!
//! ```
//! use drawbind::{BindPlan, BindRange, Draw, SparseMemory};
//! use translator::host::{HostBinder, HostBinding};
//! use translator::{translate, Options, ShaderInput};
//! # use analysis::trace::{trace_code, TraceConfig};
//! # use isa::{Abi, Stage, Target};
//! # let code = std::fs::read("../corpus/radv/cube/code.bin").unwrap();
//! # let input = ShaderInput { code: &code, target: Target::Gfx1030, stage: Stage::Ngg, abi: Abi::ngg(), wave_size: 64 };
//! # let trace = trace_code(input.code, input.target, &TraceConfig::new(input.stage, input.abi, false));
//! // Once per shader: the trace, the translation with that trace, the plan.
//! let t = translate(&input, Some(&trace), &Options::default()).unwrap();
//! let code_addr = drawbind::draws::DEFAULT_CODE_ADDR;
//! let plan = BindPlan::new(&trace, input.stage).unwrap().with_code_address(code_addr);
//! let binder = HostBinder::new(&t.manifest, trace, plan, Some(code_addr));
//! let mut scratch = vec![BindRange::EMPTY; binder.scratch_len()];
//! let mut out = vec![HostBinding::EMPTY; binder.len()];
//!
//! // Every draw (guest memory and user data are the emulator's).
//! let memory = SparseMemory::new();
//! let user_data = [0u32; 16];
//! let draw = Draw::Auto { first_vertex: 0, vertex_count: 36, instance_count: 1, chunks: &[] };
//! match binder.bind_draw(&draw, &user_data, &memory, &mut scratch, &mut out) {
//!     Ok(n) => {
//!         for b in &out[..n] {
//!             // Copy guest bytes b.base .. b.base + b.size into the buffer
//!             // at binding b.binding; b.range(limit) goes into DrawParams.
//!             let _ = b.range(u64::from(u32::MAX));
//!         }
//!     }
//!     // Here guest memory holds no descriptor: the error names the word.
//!     Err(e) => println!("{e}"),
//! }
//! ```

use crate::manifest::{BindingKind, BindingRange, Manifest};
use analysis::trace::ShaderTrace;
use drawbind::{BindError, BindPlan, BindRange, Draw, GuestMemory, Reason};

/// Why a draw could not be bound for the host.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostBindError {
    /// drawbind could not bind the draw (unreadable memory, missing user
    /// data, a scratch buffer shorter than [`HostBinder::scratch_len`], ...).
    #[error(transparent)]
    Bind(#[from] BindError),
    /// A descriptor binding of the manifest names a descriptor the plan does
    /// not bind (the manifest and the plan come from different traces).
    #[error("binding {binding} ({name}) has no bind range")]
    NoBindRange {
        /// The binding number.
        binding: u32,
        /// The descriptor's source, as the manifest names it.
        name: String,
    },
    /// The output holds fewer entries than [`HostBinder::len`].
    #[error("the output holds {got} host bindings; the manifest has {needed}")]
    OutputTooSmall {
        /// [`HostBinder::len`].
        needed: usize,
        /// The output's length.
        got: usize,
    },
}

/// One descriptor binding of a draw: the guest range to copy into the
/// storage buffer at `binding`, and the values its push constants take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostBinding {
    /// Binding number in set 0 (the manifest's).
    pub binding: u32,
    /// The traced descriptor it holds.
    pub descriptor: u16,
    /// Guest address of the first byte (the descriptor's base).
    pub base: u64,
    /// Bytes drawbind bound (narrowed or baseline), before any host limit.
    pub size: u64,
    /// drawbind narrowed the range.
    pub narrowed: bool,
    /// Why the range ends where it does.
    pub reason: Reason,
    /// The descriptor's stride for this draw (0 when its words cannot be
    /// evaluated).
    pub stride: u32,
    /// The narrowed last record (`None` when not narrowed): the range ends
    /// at the end of this record, or where the widest access of that record
    /// ends when it reaches past the stride. The `--checked` guard allows
    /// records up to it.
    pub last_record: Option<u32>,
}

impl HostBinding {
    /// A placeholder to fill output buffers with.
    pub const EMPTY: HostBinding = HostBinding {
        binding: 0,
        descriptor: 0,
        base: 0,
        size: 0,
        narrowed: false,
        reason: Reason::BaselineRules,
        stride: 0,
        last_record: None,
    };

    /// The binding's entry of [`crate::manifest::DrawParams::bindings`]
    /// when the host binds at most `max_size` bytes (its storage-buffer
    /// limit; reads past them go to the window): the size is capped at
    /// `max_size` and at `u32::MAX`, and the last record is `u32::MAX` when
    /// the range is not narrowed.
    pub fn range(&self, max_size: u64) -> BindingRange {
        BindingRange {
            binding: self.binding,
            base: self.base,
            size: self.size.min(max_size).min(u64::from(u32::MAX)) as u32,
            last_record: self.last_record.unwrap_or(u32::MAX),
        }
    }
}

impl Default for HostBinding {
    fn default() -> Self {
        HostBinding::EMPTY
    }
}

/// The fallback window of a draw: guest bytes spanning every descriptor's
/// baseline range, so reads past a narrowed binding land there as the
/// baseline would have read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostWindow {
    /// Guest address of the first byte (0 when the shader binds nothing).
    pub base: u64,
    /// Bytes, at most the limit asked for.
    pub size: u64,
    /// The baseline ranges span more than the limit; the window covers
    /// only their first `size` bytes.
    pub capped: bool,
}

/// One descriptor binding of the manifest, resolved once per shader.
#[derive(Clone, Debug)]
struct Slot {
    binding: u32,
    descriptor: u16,
    /// Its index in the plan's output (`None`: the plan does not bind it).
    plan_slot: Option<usize>,
    /// The plan entry's widest constant access reach inside a record.
    reach: u64,
    /// The descriptor's source, for the error.
    name: String,
}

/// A translated shader's descriptor bindings, ready to bind every draw; see
/// the [module docs](self).
#[derive(Clone, Debug)]
pub struct HostBinder {
    trace: ShaderTrace,
    plan: BindPlan,
    code_addr: Option<u64>,
    slots: Vec<Slot>,
}

impl HostBinder {
    /// Map the manifest's descriptor bindings onto the plan. `trace` is the
    /// trace the translation and the plan were made from; `plan` is that
    /// trace's [`BindPlan`] (with [`BindPlan::with_code_address`] when the
    /// shader has code-relative words), and `code_addr` that same address
    /// (strides are evaluated through the trace with it).
    pub fn new(
        manifest: &Manifest,
        trace: ShaderTrace,
        plan: BindPlan,
        code_addr: Option<u64>,
    ) -> HostBinder {
        let entries: Vec<_> = plan.entries().collect();
        let slots = manifest
            .bindings
            .iter()
            .filter_map(|b| match &b.kind {
                BindingKind::Descriptor {
                    descriptor, source, ..
                } => {
                    let plan_slot = entries.iter().position(|e| e.descriptor.0 == *descriptor);
                    Some(Slot {
                        binding: b.binding,
                        descriptor: *descriptor,
                        plan_slot,
                        reach: plan_slot.map_or(0, |s| entries[s].reach),
                        name: source.clone(),
                    })
                }
                _ => None,
            })
            .collect();
        HostBinder {
            trace,
            plan,
            code_addr,
            slots,
        }
    }

    /// How many [`HostBinding`]s [`HostBinder::bind_draw`] writes: one per
    /// descriptor binding of the manifest.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when the manifest has no descriptor binding.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// How many [`BindRange`]s the scratch buffer must hold
    /// ([`BindPlan::len`]).
    pub fn scratch_len(&self) -> usize {
        self.plan.len()
    }

    /// The plan.
    pub fn plan(&self) -> &BindPlan {
        &self.plan
    }

    /// The trace.
    pub fn trace(&self) -> &ShaderTrace {
        &self.trace
    }

    /// Bind one draw: [`BindPlan::bind`] into `scratch`, then one
    /// [`HostBinding`] per descriptor binding of the manifest into `out`, in
    /// manifest order; returns [`HostBinder::len`]. Allocates nothing on
    /// success and never panics.
    pub fn bind_draw<M: GuestMemory + ?Sized>(
        &self,
        draw: &Draw<'_>,
        user_data: &[u32],
        memory: &M,
        scratch: &mut [BindRange],
        out: &mut [HostBinding],
    ) -> Result<usize, HostBindError> {
        if out.len() < self.slots.len() {
            return Err(HostBindError::OutputTooSmall {
                needed: self.slots.len(),
                got: out.len(),
            });
        }
        let n = self.plan.bind(draw, user_data, memory, scratch)?;
        for (s, o) in self.slots.iter().zip(out.iter_mut()) {
            let Some(r) = s.plan_slot.filter(|&i| i < n).and_then(|i| scratch.get(i)) else {
                return Err(HostBindError::NoBindRange {
                    binding: s.binding,
                    name: s.name.clone(),
                });
            };
            let stride = drawbind::word::eval_descriptor(
                &self.trace,
                usize::from(s.descriptor),
                user_data,
                memory,
                self.code_addr,
            )
            .map_or(0, |v| v.stride);
            *o = HostBinding {
                binding: s.binding,
                descriptor: s.descriptor,
                base: r.base,
                size: r.size,
                narrowed: r.narrowed,
                reason: r.reason,
                stride,
                last_record: last_record(r, stride, s.reach),
            };
        }
        Ok(self.slots.len())
    }

    /// The fallback window for a draw's user data and memory: from the
    /// lowest base to the highest end of every non-empty descriptor's baseline range
    /// ([`BindPlan::bind_baseline`] into `scratch`), at most `limit` bytes.
    /// Allocates nothing. When the manifest lists
    /// [`Manifest::global_reads`] this span is not enough: the shader reads
    /// through pointers no descriptor bounds, and the caller must widen the
    /// window over every guest byte they may reach.
    pub fn window<M: GuestMemory + ?Sized>(
        &self,
        user_data: &[u32],
        memory: &M,
        scratch: &mut [BindRange],
        limit: u64,
    ) -> Result<HostWindow, HostBindError> {
        let n = self.plan.bind_baseline(user_data, memory, scratch)?;
        // An empty range (a zero descriptor: base 0, no records) reaches no
        // byte; its base must not drag the window away from the data.
        let ranges = || {
            scratch
                .get(..n)
                .unwrap_or(&[])
                .iter()
                .filter(|r| r.size > 0)
        };
        let lo = ranges().map(|r| r.base).min().unwrap_or(0);
        let hi = ranges().map(|r| r.end()).max().unwrap_or(0);
        let size = hi.saturating_sub(lo).min(limit);
        Ok(HostWindow {
            base: lo,
            size,
            capped: hi.saturating_sub(lo) > size,
        })
    }
}

/// The reader [`Manifest::push_words`] and [`Manifest::param_buffer_words`]
/// take, over a [`GuestMemory`]: guest addresses are 48-bit (the pointers
/// RADV builds carry `0xffff8000` in their high half), so each address is
/// masked with [`drawbind::word::ADDRESS_MASK`] before `memory` is asked.
pub fn guest_reader<M: GuestMemory + ?Sized>(memory: &M) -> impl FnMut(u64) -> Option<u32> + '_ {
    move |a| memory.read_u32(a & drawbind::word::ADDRESS_MASK)
}

/// The narrowed last record of a range (`None` when not narrowed): the
/// range ends at the end of record `last`, or where the widest access of
/// that record ends when it reaches past the stride.
fn last_record(range: &BindRange, stride: u32, reach: u64) -> Option<u32> {
    if !range.narrowed || stride == 0 {
        return None;
    }
    let stride = u64::from(stride);
    let tail = reach.max(stride);
    let last = range.size.checked_sub(tail)? / stride;
    u32::try_from(last).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(size: u64, narrowed: bool) -> BindRange {
        BindRange {
            size,
            narrowed,
            ..BindRange::EMPTY
        }
    }

    #[test]
    fn the_last_record_is_where_a_narrowed_range_ends() {
        // 10 records of 16 bytes: the last is record 9.
        assert_eq!(last_record(&range(160, true), 16, 12), Some(9));
        // An access reaching 24 bytes into a 16-byte record.
        assert_eq!(last_record(&range(9 * 16 + 24, true), 16, 24), Some(9));
        assert_eq!(last_record(&range(160, false), 16, 12), None);
        assert_eq!(last_record(&range(160, true), 0, 12), None);
        assert_eq!(last_record(&range(8, true), 16, 12), None);
    }

    #[test]
    fn a_range_is_capped_for_the_host() {
        let b = HostBinding {
            binding: 3,
            base: 0x1000,
            size: 1 << 40,
            last_record: None,
            ..HostBinding::EMPTY
        };
        let r = b.range(256 << 20);
        assert_eq!((r.binding, r.base, r.size), (3, 0x1000, 256 << 20));
        assert_eq!(r.last_record, u32::MAX);
    }
}
