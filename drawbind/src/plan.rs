//! Per-shader bind plans and the per-draw bind.
//!
//! [`BindPlan::new`] turns a [`ShaderTrace`] into flat arrays once per
//! shader; [`BindPlan::bind`] runs on every draw, reads only the plan, the
//! draw, the user data and guest memory, and allocates nothing.
//!
//! # Draw semantics
//!
//! A draw's ids are the values the hardware writes into the ABI's id VGPRs.
//! For RADV they do not include the base vertex or start instance: the shader
//! adds those user-data words itself (`index = v5 + ud1`), and the trace
//! records that as an [`IndexBound`] with an added word.
//!
//! - An auto draw `{first_vertex, vertex_count}` gives the vertex-id VGPR
//!   the values `first_vertex ..= first_vertex + vertex_count − 1`. When the
//!   draw lists split chunks `(first, count)`, the chunks replace that pair:
//!   the ids are the union of `first ..= first + count − 1` over the chunks,
//!   so the last id is the end of the last (highest) non-empty chunk.
//! - Instance ids are `0 ..= instance_count − 1`, for auto and indexed draws.
//! - An indexed draw's vertex ids are its index values (restart values
//!   skipped) plus the hardware's base vertex, mod 2³². `bind` does not read
//!   the index buffer: the draw carries the scanned [`IndexRange`] (see
//!   [`crate::index`]), so the vertex ids lie in
//!   `min + base ..= max + base` when that addition wraps no id or every id.
//!
//! # Baseline (the D733 rules)
//!
//! The baseline is what the hardware's range check lets any draw reach. It
//! depends on the descriptor's class ([`Class`]) and on the accesses' reach:
//! the end of the widest access inside a record, `soffset + offset + bytes`
//! over the descriptor's accesses with a constant soffset and no VGPR offset.
//!
//! - **Structured** (stride > 0, OOB_SELECT 1): records `0 ..= N − 1` pass
//!   the check, so the range is
//!   `[base, base + (N − 1)·stride + max(stride, reach))`; with `N = 0`
//!   nothing passes and the range is empty (`size = 0`).
//! - **Structured with offset** (OOB_SELECT 0): the in-record offset is also
//!   checked (`offset ≥ stride` is out of range, per Mesa's description of
//!   the field). An access whose immediate offset is `≥ stride` therefore
//!   never reads memory and does not count towards the reach; an access with
//!   a VGPR offset reaches at most `soffset + stride − 1 + bytes`. An access
//!   with a non-zero constant soffset is not dropped (whether soffset is part
//!   of the check is not settled), so its whole reach counts.
//! - **Raw** (stride 0 or OOB_SELECT 3): `num_records` counts bytes:
//!   `[base, base + N + soffset)` with the largest constant soffset.
//! - **Unchecked** (OOB_SELECT 2) and **not a buffer** (TYPE ≠ 0): what the
//!   descriptor declares, the structured formula when stride > 0 and
//!   OOB_SELECT ≠ 3, else the raw one. The hardware does not bound these.
//! - **Swizzled**: the structured formula with `N` rounded up to whole
//!   index-stride blocks (swizzled records are laid out in blocks of 8–64).
//! - **ADD_TID_ENABLE**: the structured formula (the thread id is added to
//!   the index before the check).
//! - **VGPR offset** (offen) or **non-constant soffset**: the formula of the
//!   class, with the reach of the other accesses. For OOB_SELECT 0 offen is
//!   bounded as above; otherwise the hardware does not bound these offsets
//!   and the baseline is the declared extent.
//!
//! All arithmetic is on u64 from 32-, 14- and 48-bit fields, so it cannot
//! overflow; it is saturating anyway.
//!
//! # Narrowing (the D879 rule)
//!
//! Only a structured descriptor (class `Structured`, no VGPR offset, constant
//! soffsets) with an index bound `id + word` is narrowed, in a vertex or
//! primitive shader, on a draw with lanes:
//! `last = min(last_id + word, N − 1)` and the range is
//! `[base, base + last·stride + max(stride, reach))`. It never ends past the
//! baseline, because `last ≤ N − 1`. The baseline is kept, with the reason
//! in [`Reason`], for: non-vertex stages, no traced index bound, accesses
//! that disagree, an untraced added word, every class but `Structured`, VGPR
//! offsets, non-constant soffsets, `N = 0`, a zero-count draw (no lanes run;
//! an empty range would be sound too, but the rule keeps the baseline; an
//! indexed draw whose indices are all restart values is one), a vertex-id
//! bound on an indexed draw whose index range is unknown, a base vertex
//! that wraps some but not all of the draw's indices past 32 bits, and `last_id + word`
//! past 32 bits (the shader's 32-bit add wraps). When the draw reaches record `N − 1`
//! anyway the result is the baseline with reason [`Reason::Capped`].
//!
//! An instance-id bound is narrowed on indexed draws too: instance ids do not
//! come from the index buffer.

use crate::draws::DrawSpec;
use crate::index::{IndexBuffer, IndexError, IndexRange};
use crate::memory::GuestMemory;
use crate::vsharp::{Class, OobSelect, VSharp, ADDRESS_MASK};
use crate::word;
use analysis::source::{Id, PtrId, Word};
use analysis::trace::{DescId, IndexBound, ShaderTrace};
use core::fmt;
use isa::Stage;

mod faults;
#[cfg(feature = "testing")]
pub use faults::BindFaults;
#[cfg(not(feature = "testing"))]
pub(crate) use faults::BindFaults;

/// The most pointers a plan can resolve per draw (they live on the stack).
pub const MAX_POINTERS: usize = 16;

/// The most untraced-access bases a plan evaluates per draw (they live on
/// the stack); with more, no descriptor is narrowed.
pub const MAX_ALIASES: usize = 8;

/// One draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Draw<'a> {
    /// A non-indexed draw.
    Auto {
        /// The first value of the vertex-id VGPR.
        first_vertex: u32,
        /// Vertices (ignored when `chunks` is not empty).
        vertex_count: u32,
        /// Instances.
        instance_count: u32,
        /// The hardware chunks of a split draw, `(first, count)` in
        /// vertex-id VGPR values; empty for an unsplit draw.
        chunks: &'a [(u32, u32)],
    },
    /// An indexed draw. Each index that is not the restart value gives a
    /// lane the vertex id `index + base_vertex` (mod 2³²) in the vertex-id
    /// VGPR.
    Indexed {
        /// The index buffer (its `count` is the draw's index count).
        index_buffer: IndexBuffer,
        /// What the **hardware** adds to each index before it reaches the
        /// vertex-id VGPR (gfx10's `VGT_INDX_OFFSET`). RADV leaves it 0 and
        /// passes Vulkan's `vertexOffset` in user data, which the shader
        /// adds itself (the trace's added word): do not count it twice.
        base_vertex: i32,
        /// The primitive-restart value, when restart is on.
        restart: Option<u32>,
        /// Instances.
        instance_count: u32,
        /// The range of the index values, from [`crate::index`]'s scans
        /// (the caller's; `bind` never reads the index buffer). With
        /// [`IndexRange::Unknown`] vertex-id bindings keep the baseline.
        indices: IndexRange,
    },
}

impl Draw<'_> {
    /// An unsplit auto draw.
    pub const fn auto(first_vertex: u32, vertex_count: u32, instance_count: u32) -> Draw<'static> {
        Draw::Auto {
            first_vertex,
            vertex_count,
            instance_count,
            chunks: &[],
        }
    }

    /// An indexed draw without base vertex or restart, its indices not
    /// yet scanned.
    pub const fn indexed(index_buffer: IndexBuffer, instance_count: u32) -> Draw<'static> {
        Draw::Indexed {
            index_buffer,
            base_vertex: 0,
            restart: None,
            instance_count,
            indices: IndexRange::Unknown,
        }
    }
}

/// Why a range is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Reason {
    /// Narrowed to the draw's last record.
    Narrowed,
    /// The draw reaches record `N − 1`: the range is the baseline.
    Capped,
    /// The baseline rules were asked for ([`BindPlan::bind_baseline`]).
    #[default]
    BaselineRules,
    /// The shader is not a vertex or primitive shader.
    NotVertexStage,
    /// The trace has no index bound for the descriptor.
    NoIndexBound,
    /// The descriptor's indexed accesses use different indices.
    AccessesDisagree,
    /// The bound's added word could not be traced.
    AddedWordUntraced,
    /// TYPE ≠ 0.
    NotBuffer,
    /// OOB_SELECT 2.
    Unchecked,
    /// Stride 0 or OOB_SELECT 3.
    Raw,
    /// SWIZZLE_ENABLE.
    Swizzled,
    /// ADD_TID_ENABLE.
    AddTid,
    /// An access adds a VGPR byte offset (offen).
    VgprOffset,
    /// An access's soffset is not a constant.
    DynamicSoffset,
    /// `num_records` is 0: nothing is in range, the range is empty.
    NoRecords,
    /// The draw runs no lanes (a zero vertex, index or instance count).
    ZeroCount,
    /// An indexed draw whose index range is unknown (not scanned).
    IndexedDraw,
    /// The last id plus the added word passes 32 bits, or the narrowed
    /// range would end past the 48-bit guest address space.
    Wrap,
    /// The index bound goes through LDS ([`analysis::trace::LdsContract`])
    /// and the caller has not declared that it initialises the contract's
    /// LDS cells ([`BindPlan::honour_lds_init`]).
    LdsContract,
    /// An access whose descriptor is not traced has, on this draw, the
    /// same base as this descriptor
    /// ([`analysis::trace::BufferAccess::untraced_base`]), or such a base
    /// cannot be evaluated: it may fetch this buffer with any index.
    UntracedAlias,
}

impl Reason {
    /// Short name, as the CLI prints it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Narrowed => "narrowed",
            Reason::Capped => "capped",
            Reason::BaselineRules => "baseline-rules",
            Reason::NotVertexStage => "not-vertex-stage",
            Reason::NoIndexBound => "no-index-bound",
            Reason::AccessesDisagree => "accesses-disagree",
            Reason::AddedWordUntraced => "added-word-untraced",
            Reason::NotBuffer => "not-a-buffer",
            Reason::Unchecked => "unchecked",
            Reason::Raw => "raw",
            Reason::Swizzled => "swizzled",
            Reason::AddTid => "add-tid",
            Reason::VgprOffset => "vgpr-offset",
            Reason::DynamicSoffset => "dynamic-soffset",
            Reason::NoRecords => "no-records",
            Reason::ZeroCount => "zero-count",
            Reason::IndexedDraw => "indexed-draw",
            Reason::Wrap => "wrap",
            Reason::LdsContract => "lds-contract",
            Reason::UntracedAlias => "untraced-alias",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A cache key: a guest byte range. Built from guest values only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BufferKey {
    /// Guest base address.
    pub base: u64,
    /// Bytes.
    pub size: u64,
}

impl BufferKey {
    /// One past the last byte (saturating).
    pub const fn end(&self) -> u64 {
        self.base.saturating_add(self.size)
    }
    /// True when `other` lies inside `self`.
    pub const fn contains(&self, other: &BufferKey) -> bool {
        other.base >= self.base && other.end() <= self.end()
    }
}

/// The bytes one descriptor binds for one draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BindRange {
    /// The descriptor.
    pub descriptor: DescId,
    /// Guest base address (the descriptor's base).
    pub base: u64,
    /// Bytes from the base.
    pub size: u64,
    /// The narrowing rule set the end (false when the baseline is kept).
    pub narrowed: bool,
    /// Why.
    pub reason: Reason,
}

impl BindRange {
    /// A placeholder to fill output buffers with.
    pub const EMPTY: BindRange = BindRange {
        descriptor: DescId(0),
        base: 0,
        size: 0,
        narrowed: false,
        reason: Reason::BaselineRules,
    };
    /// The cache key.
    pub const fn key(&self) -> BufferKey {
        BufferKey {
            base: self.base,
            size: self.size,
        }
    }
    /// One past the last byte.
    pub const fn end(&self) -> u64 {
        self.base.saturating_add(self.size)
    }
}

impl Default for BindRange {
    fn default() -> Self {
        BindRange::EMPTY
    }
}

/// What a word is, in an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordRole {
    /// Dword `word` (0..=3) of a descriptor.
    Descriptor {
        /// The descriptor.
        desc: DescId,
        /// Which dword.
        word: u8,
    },
    /// The word added to the id in a descriptor's index bound.
    AddedWord {
        /// The descriptor.
        desc: DescId,
    },
    /// Base word `word` (0 or 1) of the `n`th untraced access with a traced
    /// base.
    UntracedBase {
        /// Which untraced base.
        n: u8,
        /// Which dword.
        word: u8,
    },
    /// The word of a traced pointer's per-draw table index.
    TableIndex {
        /// The pointer.
        ptr: PtrId,
    },
    /// A half of a traced pointer.
    Pointer {
        /// The pointer.
        ptr: PtrId,
        /// The high half.
        high: bool,
    },
}

impl fmt::Display for WordRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WordRole::Descriptor { desc, word } => {
                write!(f, "word {word} of descriptor {}", desc.0)
            }
            WordRole::AddedWord { desc } => {
                write!(f, "the added index word of descriptor {}", desc.0)
            }
            WordRole::UntracedBase { n, word } => {
                write!(f, "word {word} of untraced access base {n}")
            }
            WordRole::TableIndex { ptr } => {
                write!(f, "the table index word of pointer {}", ptr.0)
            }
            WordRole::Pointer { ptr, high } => write!(
                f,
                "the {} half of pointer {}",
                if high { "high" } else { "low" },
                ptr.0
            ),
        }
    }
}

/// A per-draw failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// `out` is shorter than [`BindPlan::len`].
    #[error("the output buffer holds {got} ranges but the plan writes {needed}")]
    OutputTooSmall {
        /// Ranges the plan writes.
        needed: usize,
        /// Ranges the buffer holds.
        got: usize,
    },
    /// A user-data word past the end of `user_data`.
    #[error("{role} is user-data word {k}, but only {len} user-data words were given")]
    MissingUserData {
        /// The word.
        k: u8,
        /// Words given.
        len: usize,
        /// What needed it.
        role: WordRole,
    },
    /// Guest memory that cannot be read.
    #[error("guest memory at {addr:#x} cannot be read ({role})")]
    Unreadable {
        /// The dword's address.
        addr: u64,
        /// What needed it.
        role: WordRole,
    },
    /// A word is a code address (`s_getpc_b64`), and the plan was not told
    /// where the code lives.
    #[error("{role} is an address in the shader's code (s_getpc_b64), but the plan has no code address (BindPlan::with_code_address)")]
    NoCodeAddress {
        /// What needed it.
        role: WordRole,
    },
}

/// A trace the plan cannot be built from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// A descriptor word is `Unknown`.
    #[error("word {word} of descriptor {} is not traced", desc.0)]
    UnknownWord {
        /// The descriptor.
        desc: DescId,
        /// Which dword.
        word: u8,
    },
    /// A pointer id past the trace's pointer table.
    #[error("pointer {} is not in the trace's pointer table ({len} entries)", ptr.0)]
    DanglingPointer {
        /// The pointer.
        ptr: PtrId,
        /// Table length.
        len: usize,
    },
    /// A pointer half is `Unknown`.
    #[error("the {} half of pointer {} is not traced", if *high { "high" } else { "low" }, ptr.0)]
    UnknownPointerHalf {
        /// The pointer.
        ptr: PtrId,
        /// The high half.
        high: bool,
    },
    /// A pointer's per-draw table index names a word the plan cannot
    /// evaluate.
    #[error("the table index of pointer {} is not a word the plan evaluates", ptr.0)]
    UnknownTableIndex {
        /// The pointer.
        ptr: PtrId,
    },
    /// A pointer loaded through itself.
    #[error("pointer {} is loaded through itself", ptr.0)]
    PointerCycle {
        /// The pointer.
        ptr: PtrId,
    },
    /// More than [`MAX_POINTERS`] pointers.
    #[error("the descriptors need {count} pointers; a plan resolves at most {MAX_POINTERS}")]
    TooManyPointers {
        /// Pointers needed.
        count: usize,
    },
}

/// How to get one word at draw time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// User-data word k.
    Ud(u8),
    /// A constant.
    Const(u32),
    /// The dword at resolved pointer `slot` + `offset`.
    Table { slot: u8, offset: u32 },
    /// A half of the code address plus `offset` ([`Word::Code`]); becomes
    /// a constant once the plan knows where the code lives
    /// ([`BindPlan::with_code_address`]).
    Code { offset: u32, hi: bool },
}

impl Step {
    /// The step with code addresses resolved for code at `code`.
    fn at_code(self, code: u64) -> Step {
        match self {
            Step::Code { offset, hi } => Step::Const(word::code_word(code, offset, hi)),
            s => s,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct PtrPlan {
    id: PtrId,
    lo: Step,
    hi: Step,
    add: u64,
    /// A per-draw table index: its word and the affine map
    /// ([`analysis::source::TableIndex`]).
    index: Option<(Step, analysis::source::TableIndex)>,
}

/// Static facts about one access, for the OOB_SELECT 0 reach.
#[derive(Clone, Copy, Debug)]
struct AccessFacts {
    offen: bool,
    soffset: u64,
    imm: u64,
    bytes: u64,
}

/// Everything `bind` needs about one descriptor.
#[derive(Clone, Copy, Debug)]
struct DescPlan {
    id: DescId,
    words: [Step; 4],
    /// All four words are consecutive dwords of one table: (slot, offset).
    table4: Option<(u8, u32)>,
    /// The id of the index bound (None: no usable bound).
    bound: Option<Id>,
    /// The added word (`Const(0)` when there is none).
    plus: Step,
    /// A reason from the shader alone to keep the baseline.
    keep: Option<Reason>,
    /// The bound holds only under an LDS initialisation contract.
    lds: bool,
    /// Some access has a VGPR offset.
    offen: bool,
    /// Some access has a non-constant soffset.
    dyn_soffset: bool,
    /// max(soffset + imm + bytes) over accesses without offen and with a
    /// constant soffset.
    reach: u64,
    /// The largest constant soffset.
    max_soffset: u64,
    /// This descriptor's accesses in `BindPlan::accesses`.
    first_access: u32,
    access_count: u32,
}

/// The per-shader plan; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct BindPlan {
    stage: Stage,
    ptrs: Vec<PtrPlan>,
    descs: Vec<DescPlan>,
    accesses: Vec<AccessFacts>,
    faults: BindFaults,
    /// The caller initialises the LDS cells of the trace's contracts.
    honour_lds: bool,
    /// The base words (0 and 1) of the accesses whose descriptor is not
    /// traced ([`analysis::trace::BufferAccess::untraced_base`]).
    aliases: Vec<[Step; 2]>,
    /// Some untraced access's base cannot be evaluated (or there are more
    /// than [`MAX_ALIASES`]): no descriptor is narrowed.
    alias_any: bool,
}

/// One descriptor of a plan, as [`BindPlan::entries`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanEntry {
    /// The descriptor.
    pub descriptor: DescId,
    /// The id its index is bound by, if usable.
    pub bound: Option<Id>,
    /// A reason from the shader alone to keep the baseline.
    pub keep: Option<Reason>,
    /// The widest constant access reach inside a record.
    pub reach: u64,
}

/// Names of deliberately broken rules. Only test builds can switch one on
/// (per test thread), so each rule's test proves it fails when its rule is
/// broken; in other builds [`sabotaged`] is constant `false`.
pub(crate) mod sab {
    pub const NO_CAP: u32 = 1 << 0;
    pub const NO_WRAP_CHECK: u32 = 1 << 1;
    pub const IGNORE_INDEXED: u32 = 1 << 2;
    pub const IGNORE_PLUS: u32 = 1 << 3;
    pub const IGNORE_CHUNKS: u32 = 1 << 4;
    pub const NO_REACH: u32 = 1 << 5;
    pub const NARROW_ANY_CLASS: u32 = 1 << 6;
    pub const IGNORE_DISAGREE: u32 = 1 << 7;
    pub const NO_ZERO_CHECK: u32 = 1 << 8;
    pub const INSTANCE_AS_VERTEX: u32 = 1 << 9;
    pub const IGNORE_STAGE: u32 = 1 << 10;
    pub const OOB0_KEEPS_ALL: u32 = 1 << 11;
    pub const STRIDE0_AS_BYTES: u32 = 1 << 12;
    pub const IGNORE_LDS_CONTRACT: u32 = 1 << 13;

    #[cfg(test)]
    thread_local!(static ON: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });

    /// Is `flag` on for this thread?
    #[cfg(test)]
    pub fn on(flag: u32) -> bool {
        ON.with(|c| c.get() & flag != 0)
    }

    /// Run `f` with `flags` switched on.
    #[cfg(test)]
    pub fn with<R>(flags: u32, f: impl FnOnce() -> R) -> R {
        ON.with(|c| c.set(flags));
        let r = f();
        ON.with(|c| c.set(0));
        r
    }
}

#[inline(always)]
fn sabotaged(_flag: u32) -> bool {
    #[cfg(test)]
    {
        sab::on(_flag)
    }
    #[cfg(not(test))]
    {
        false
    }
}

/// Pointer-table resolution order, built by depth-first search.
struct PtrOrder<'t> {
    table: &'t [analysis::source::Ptr],
    /// Slot of each trace pointer, once placed.
    slot: Vec<Option<u8>>,
    visiting: Vec<bool>,
    out: Vec<PtrPlan>,
}

impl PtrOrder<'_> {
    fn word(&mut self, w: Word) -> Result<Option<Step>, PlanError> {
        Ok(match w {
            Word::UserData { k } => Some(Step::Ud(k)),
            Word::Const { value } => Some(Step::Const(value)),
            Word::TableWord { table, byte_offset } => {
                let slot = self.ptr(table)?;
                Some(Step::Table {
                    slot,
                    offset: byte_offset,
                })
            }
            // A dword of a buffer (`s_buffer_load` through a traced
            // descriptor): not evaluated by the plan yet, so treated like an
            // unknown word (the baseline range is kept).
            Word::BufferWord { .. } => None,
            Word::Code { offset, hi } => Some(Step::Code { offset, hi }),
            Word::Unknown => None,
        })
    }

    fn ptr(&mut self, id: PtrId) -> Result<u8, PlanError> {
        let i = id.0 as usize;
        let Some(p) = self.table.get(i).copied() else {
            return Err(PlanError::DanglingPointer {
                ptr: id,
                len: self.table.len(),
            });
        };
        if let Some(s) = self.slot[i] {
            return Ok(s);
        }
        if self.visiting[i] {
            return Err(PlanError::PointerCycle { ptr: id });
        }
        self.visiting[i] = true;
        let lo = self.word(p.lo)?.ok_or(PlanError::UnknownPointerHalf {
            ptr: id,
            high: false,
        })?;
        let hi = self.word(p.hi)?.ok_or(PlanError::UnknownPointerHalf {
            ptr: id,
            high: true,
        })?;
        let index = match p.index {
            None => None,
            Some(ix) => Some((
                self.word(ix.word)?
                    .ok_or(PlanError::UnknownTableIndex { ptr: id })?,
                ix,
            )),
        };
        self.visiting[i] = false;
        if self.out.len() >= MAX_POINTERS {
            return Err(PlanError::TooManyPointers {
                count: self.out.len() + 1,
            });
        }
        let s = self.out.len() as u8;
        self.out.push(PtrPlan {
            id,
            lo,
            hi,
            add: p.add,
            index,
        });
        self.slot[i] = Some(s);
        Ok(s)
    }
}

impl BindPlan {
    /// Build the plan for a shader running as `stage`.
    ///
    /// It lists every descriptor that at least one traced access uses, in
    /// the trace's order.
    pub fn new(trace: &ShaderTrace, stage: Stage) -> Result<BindPlan, PlanError> {
        let mut order = PtrOrder {
            table: &trace.pointers,
            slot: vec![None; trace.pointers.len()],
            visiting: vec![false; trace.pointers.len()],
            out: Vec::new(),
        };
        let mut descs = Vec::new();
        let mut accesses = Vec::new();
        for d in &trace.descriptors {
            let used: Vec<_> = trace
                .accesses
                .iter()
                .filter(|a| a.descriptor == Some(d.id))
                .collect();
            if used.is_empty() {
                continue;
            }
            let mut words = [Step::Const(0); 4];
            for (k, w) in d.words.iter().enumerate() {
                words[k] = order.word(*w)?.ok_or(PlanError::UnknownWord {
                    desc: d.id,
                    word: k as u8,
                })?;
            }
            // Do the indexed accesses agree on one index source?
            let mut agreed: Option<IndexBound> = None;
            let mut untraced = false;
            let mut disagree = false;
            for a in used.iter().filter(|a| a.idxen) {
                match a
                    .index
                    .and_then(|s| IndexBound::from_access(s, a.through_lds))
                {
                    None => untraced = true,
                    Some(b) => match agreed {
                        None => agreed = Some(b),
                        Some(x) => match x.agree(b) {
                            Some(m) => agreed = Some(m),
                            None => disagree = true,
                        },
                    },
                }
            }
            let mut keep = None;
            let mut bound = None;
            let mut lds = false;
            let mut plus = Step::Const(0);
            if !stage.is_vertex() && !sabotaged(sab::IGNORE_STAGE) {
                keep = Some(Reason::NotVertexStage);
            } else if disagree && !sabotaged(sab::IGNORE_DISAGREE) {
                keep = Some(Reason::AccessesDisagree);
            } else if untraced && !sabotaged(sab::IGNORE_DISAGREE) {
                keep = Some(Reason::NoIndexBound);
            } else {
                let trusted = if sabotaged(sab::IGNORE_DISAGREE) {
                    agreed.or(d.bound)
                } else {
                    // The tracer's bound must be the one the accesses agree on.
                    d.bound.filter(|b| Some(*b) == agreed)
                };
                match (trusted, d.bound) {
                    (Some(b), _) => {
                        bound = Some(b.id);
                        lds = b.through_lds.is_some();
                        if let Some(w) = b.plus {
                            // A pointer problem in the added word only loses
                            // the narrowing.
                            let mut probe = PtrOrder {
                                table: order.table,
                                slot: order.slot.clone(),
                                visiting: order.visiting.clone(),
                                out: order.out.clone(),
                            };
                            match probe.word(w) {
                                Ok(Some(s)) => {
                                    plus = s;
                                    order = probe;
                                }
                                _ => {
                                    bound = None;
                                    keep = Some(Reason::AddedWordUntraced);
                                }
                            }
                        }
                    }
                    (None, Some(_)) => keep = Some(Reason::AccessesDisagree),
                    (None, None) => keep = Some(Reason::NoIndexBound),
                }
            }
            let first_access = accesses.len() as u32;
            let mut offen = false;
            let mut dyn_soffset = false;
            let mut reach = 0u64;
            let mut max_soffset = 0u64;
            for a in &used {
                let soffset = match a.soffset {
                    Word::Const { value } => value as u64,
                    _ => {
                        dyn_soffset = true;
                        continue;
                    }
                };
                max_soffset = max_soffset.max(soffset);
                let f = AccessFacts {
                    offen: a.offen,
                    soffset,
                    imm: a.imm_offset as u64,
                    bytes: a.bytes as u64,
                };
                if a.offen {
                    offen = true;
                } else {
                    reach = reach.max(f.soffset + f.imm + f.bytes);
                }
                accesses.push(f);
            }
            let table4 = match words {
                [Step::Table { slot, offset }, Step::Table {
                    slot: s1,
                    offset: o1,
                }, Step::Table {
                    slot: s2,
                    offset: o2,
                }, Step::Table {
                    slot: s3,
                    offset: o3,
                }] if [s1, s2, s3] == [slot; 3]
                    && [o1, o2, o3]
                        == [
                            offset.wrapping_add(4),
                            offset.wrapping_add(8),
                            offset.wrapping_add(12),
                        ] =>
                {
                    Some((slot, offset))
                }
                _ => None,
            };
            descs.push(DescPlan {
                id: d.id,
                table4,
                words,
                bound,
                plus,
                keep,
                lds,
                offen,
                dyn_soffset,
                reach,
                max_soffset,
                first_access,
                access_count: accesses.len() as u32 - first_access,
            });
        }
        // Untraced accesses with traced base words; one with an untraced
        // base word (or a pointer problem) means the trace was incomplete
        // and nothing is narrowed anyway, so it is dropped here.
        let mut aliases: Vec<[Step; 2]> = Vec::new();
        let mut alias_any = false;
        for a in trace.accesses.iter().filter(|a| a.descriptor.is_none()) {
            let Some([lo, hi]) = a.untraced_base else {
                continue;
            };
            let mut probe = PtrOrder {
                table: order.table,
                slot: order.slot.clone(),
                visiting: order.visiting.clone(),
                out: order.out.clone(),
            };
            let pair = match (probe.word(lo), probe.word(hi)) {
                (Ok(Some(l)), Ok(Some(h))) => [l, h],
                // Cannot be evaluated: every descriptor keeps the baseline.
                _ => {
                    alias_any = true;
                    continue;
                }
            };
            order = probe;
            if !aliases.contains(&pair) {
                aliases.push(pair);
            }
        }
        Ok(BindPlan {
            stage,
            ptrs: order.out,
            descs,
            accesses,
            faults: BindFaults::default(),
            honour_lds: false,
            alias_any: alias_any || aliases.len() > MAX_ALIASES,
            aliases,
        })
    }

    /// How many ranges [`BindPlan::bind`] writes.
    pub fn len(&self) -> usize {
        self.descs.len()
    }

    /// True when the shader binds no buffer.
    pub fn is_empty(&self) -> bool {
        self.descs.is_empty()
    }

    /// The stage the plan was built for.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The same plan with deliberately broken rules (tests only, feature
    /// `testing`; see [`BindFaults`]).
    #[cfg(feature = "testing")]
    pub fn with_faults(mut self, faults: BindFaults) -> BindPlan {
        self.faults = faults;
        self
    }

    /// Declare whether the caller honours the trace's LDS contracts
    /// ([`analysis::trace::LdsContract`], listed by
    /// [`ShaderTrace::lds_contracts`]): before each workgroup runs, every
    /// cell of each contract's class holds an id the narrowed range covers
    /// (the draw's first id, or 0). Only then are bounds that go through LDS
    /// narrowed; by default (`false`) such a descriptor keeps the baseline
    /// with [`Reason::LdsContract`]. A plan whose trace has no contract is
    /// unaffected.
    pub fn honour_lds_init(mut self, yes: bool) -> BindPlan {
        self.honour_lds = yes;
        self
    }

    /// [`BindPlan::honour_lds_init`] in place.
    pub fn set_honour_lds_init(&mut self, yes: bool) {
        self.honour_lds = yes;
    }

    /// Whether [`BindPlan::honour_lds_init`] was declared.
    pub fn honours_lds_init(&self) -> bool {
        self.honour_lds
    }

    /// Some descriptor's bound needs an LDS contract to narrow.
    pub fn needs_lds_init(&self) -> bool {
        self.descs.iter().any(|d| d.lds)
    }

    /// The plan for the shader's code at guest address `code` (the address
    /// of its first byte, where `s_getpc_b64` counts from): words the trace
    /// names as code addresses ([`Word::Code`], constant data after the
    /// code) become constants. Without it, a plan with such words fails
    /// every bind with [`BindError::NoCodeAddress`].
    pub fn with_code_address(mut self, code: u64) -> BindPlan {
        self.set_code_address(code);
        self
    }

    /// [`BindPlan::with_code_address`] in place.
    pub fn set_code_address(&mut self, code: u64) {
        for p in &mut self.ptrs {
            p.lo = p.lo.at_code(code);
            p.hi = p.hi.at_code(code);
            if let Some((w, _)) = &mut p.index {
                *w = w.at_code(code);
            }
        }
        for d in &mut self.descs {
            for w in &mut d.words {
                *w = w.at_code(code);
            }
            d.plus = d.plus.at_code(code);
        }
        for a in &mut self.aliases {
            for w in a.iter_mut() {
                *w = w.at_code(code);
            }
        }
    }

    /// True when some word is a code address not yet resolved by
    /// [`BindPlan::with_code_address`].
    pub fn needs_code_address(&self) -> bool {
        let code = |s: &Step| matches!(s, Step::Code { .. });
        self.ptrs
            .iter()
            .any(|p| code(&p.lo) || code(&p.hi) || p.index.is_some_and(|(w, _)| code(&w)))
            || self
                .descs
                .iter()
                .any(|d| d.words.iter().any(code) || code(&d.plus))
    }

    /// The faults the plan was built with ([`BindFaults::default`] unless
    /// [`BindPlan::with_faults`] set some; feature `testing`).
    #[cfg(feature = "testing")]
    pub fn faults(&self) -> BindFaults {
        self.faults
    }

    /// The draw of a DRAWS.json entry as this plan binds it: with its index
    /// range scanned from `memory` when it names an index buffer (else as
    /// [`DrawSpec::as_draw`]). The same as [`DrawSpec::as_draw_scanned`]
    /// except under the test-only faults (feature `testing`), whose broken
    /// scans it applies, so a checker that scans through the plan sees them.
    pub fn scan_draw<'s, M: GuestMemory + ?Sized>(
        &self,
        spec: &'s DrawSpec,
        memory: &M,
    ) -> Result<Draw<'s>, IndexError> {
        spec.scan_with(memory, &self.faults)
    }

    /// The descriptors, in the order `bind` writes them.
    pub fn entries(&self) -> impl Iterator<Item = PlanEntry> + '_ {
        self.descs.iter().map(|d| PlanEntry {
            descriptor: d.id,
            bound: d.bound,
            keep: d.keep,
            reach: d.reach,
        })
    }

    /// Bind one draw with the narrowing rule; writes [`BindPlan::len`]
    /// ranges to `out` and returns that count. Allocates nothing.
    pub fn bind<M: GuestMemory + ?Sized>(
        &self,
        draw: &Draw<'_>,
        user_data: &[u32],
        memory: &M,
        out: &mut [BindRange],
    ) -> Result<usize, BindError> {
        self.run(Some(draw), user_data, memory, out)
    }

    /// Bind with the baseline rules only (no narrowing); same contract as
    /// [`BindPlan::bind`]. Every range has reason [`Reason::BaselineRules`].
    pub fn bind_baseline<M: GuestMemory + ?Sized>(
        &self,
        user_data: &[u32],
        memory: &M,
        out: &mut [BindRange],
    ) -> Result<usize, BindError> {
        self.run(None, user_data, memory, out)
    }

    fn run<M: GuestMemory + ?Sized>(
        &self,
        draw: Option<&Draw<'_>>,
        user_data: &[u32],
        memory: &M,
        out: &mut [BindRange],
    ) -> Result<usize, BindError> {
        let n = self.descs.len();
        if out.len() < n {
            return Err(BindError::OutputTooSmall {
                needed: n,
                got: out.len(),
            });
        }
        let mut ptrs = [0u64; MAX_POINTERS];
        for (i, p) in self.ptrs.iter().enumerate() {
            let lo = resolve(
                p.lo,
                &ptrs,
                user_data,
                memory,
                WordRole::Pointer {
                    ptr: p.id,
                    high: false,
                },
            )?;
            let hi = resolve(
                p.hi,
                &ptrs,
                user_data,
                memory,
                WordRole::Pointer {
                    ptr: p.id,
                    high: true,
                },
            )?;
            let mut value = word::pointer(lo, hi, p.add);
            if let Some((w, ix)) = p.index {
                let w = resolve(
                    w,
                    &ptrs,
                    user_data,
                    memory,
                    WordRole::TableIndex { ptr: p.id },
                )?;
                value = word::indexed_pointer(value, ix, w);
            }
            if let Some(slot) = ptrs.get_mut(i) {
                *slot = value;
            }
        }
        let ids = draw.map(|d| DrawIds::of(d, &self.faults));
        // The bases untraced accesses use on this draw (`None`: one of them
        // cannot be evaluated, so none of the descriptors is narrowed).
        let mut alias_bases = [0u64; MAX_ALIASES];
        let aliases = if self.alias_any {
            None
        } else {
            let mut ok = true;
            for (n, (a, slot)) in self.aliases.iter().zip(alias_bases.iter_mut()).enumerate() {
                let role = |word| WordRole::UntracedBase { n: n as u8, word };
                match (
                    resolve(a[0], &ptrs, user_data, memory, role(0)),
                    resolve(a[1], &ptrs, user_data, memory, role(1)),
                ) {
                    (Ok(lo), Ok(hi)) => *slot = VSharp::decode([lo, hi, 0, 0]).base,
                    _ => ok = false,
                }
            }
            ok.then_some(&alias_bases[..self.aliases.len()])
        };
        for (d, o) in self.descs.iter().zip(out.iter_mut()) {
            let mut w = [0u32; 4];
            let whole = match d.table4 {
                Some((slot, offset)) => {
                    let p = ptrs.get(slot as usize).copied().unwrap_or(0);
                    memory.read_u32x4(word::address(p, offset))
                }
                None => None,
            };
            match whole {
                Some(x) => w = x,
                // Word by word (also to name the word that cannot be read).
                None => {
                    for (k, s) in d.words.iter().enumerate() {
                        w[k] = resolve(
                            *s,
                            &ptrs,
                            user_data,
                            memory,
                            WordRole::Descriptor {
                                desc: d.id,
                                word: k as u8,
                            },
                        )?;
                    }
                }
            }
            let v = VSharp::decode(w);
            *o = match &ids {
                None => {
                    let (size, _) = self.baseline(d, &v);
                    BindRange {
                        descriptor: d.id,
                        base: v.base,
                        size,
                        narrowed: false,
                        reason: Reason::BaselineRules,
                    }
                }
                Some(ids) => {
                    let r = self.decide(d, &v, ids, |s| {
                        resolve(
                            s,
                            &ptrs,
                            user_data,
                            memory,
                            WordRole::AddedWord { desc: d.id },
                        )
                    })?;
                    let aliased = match aliases {
                        None => true,
                        Some(bases) => bases.contains(&v.base),
                    };
                    if r.narrowed && aliased && !self.faults.ignore_untraced_alias {
                        let (size, _) = self.baseline(d, &v);
                        BindRange {
                            descriptor: d.id,
                            base: v.base,
                            size,
                            narrowed: false,
                            reason: Reason::UntracedAlias,
                        }
                    } else {
                        r
                    }
                }
            };
        }
        Ok(n)
    }

    /// The reach inside a record for this descriptor's values, and whether
    /// it is bounded by the hardware.
    #[inline]
    fn reach(&self, d: &DescPlan, v: &VSharp) -> u64 {
        if v.oob_select != OobSelect::StructuredWithOffset
            || v.class() != Class::Structured
            || sabotaged(sab::OOB0_KEEPS_ALL)
        {
            return d.reach;
        }
        let stride = v.stride as u64;
        let start = d.first_access as usize;
        let end = start + d.access_count as usize;
        let mut reach = 0;
        for a in self.accesses.get(start..end).unwrap_or(&[]) {
            if a.offen {
                // offset < stride is checked: the last in-range start is stride − 1.
                reach = reach.max(a.soffset + stride - 1 + a.bytes);
            } else if a.soffset != 0 || a.imm < stride {
                reach = reach.max(a.soffset + a.imm + a.bytes);
            }
        }
        reach
    }

    /// The baseline size and the class.
    #[inline]
    fn baseline(&self, d: &DescPlan, v: &VSharp) -> (u64, Class) {
        let class = v.class();
        let n = v.num_records as u64;
        let stride = v.stride as u64;
        let raw = n.saturating_add(d.max_soffset);
        let size = match class {
            // Stride 0 under OOB_SELECT 0/1 is checked by index, not by
            // bytes: any index below num_records reads at the base, so the
            // widest access (plus a constant soffset) is reachable even
            // past num_records bytes.
            Class::Raw
                if stride == 0
                    && v.oob_select != OobSelect::Raw
                    && n > 0
                    && !sabotaged(sab::STRIDE0_AS_BYTES) =>
            {
                raw.max(d.reach.saturating_add(d.max_soffset))
            }
            Class::Raw => raw,
            Class::NotBuffer | Class::Unchecked => {
                if stride > 0 && v.oob_select != OobSelect::Raw {
                    structured_size(n, stride, d.reach)
                } else {
                    raw
                }
            }
            Class::Swizzled => {
                let block = v.index_stride_records() as u64;
                structured_size(n.div_ceil(block).saturating_mul(block), stride, d.reach)
            }
            Class::AddTid => structured_size(n, stride, d.reach),
            Class::Structured => structured_size(n, stride, self.reach(d, v)),
        };
        (size, class)
    }

    #[inline]
    fn decide(
        &self,
        d: &DescPlan,
        v: &VSharp,
        ids: &DrawIds,
        resolve_plus: impl FnOnce(Step) -> Result<u32, BindError>,
    ) -> Result<BindRange, BindError> {
        let (size, class) = self.baseline(d, v);
        let keep = |reason| BindRange {
            descriptor: d.id,
            base: v.base,
            size,
            narrowed: false,
            reason,
        };
        if let Some(r) = d.keep {
            return Ok(keep(r));
        }
        let class_reason = match class {
            Class::Structured => None,
            Class::NotBuffer => Some(Reason::NotBuffer),
            Class::Unchecked => Some(Reason::Unchecked),
            Class::Raw => Some(Reason::Raw),
            Class::Swizzled => Some(Reason::Swizzled),
            Class::AddTid => Some(Reason::AddTid),
        };
        if let Some(r) = class_reason {
            if !sabotaged(sab::NARROW_ANY_CLASS) || v.stride == 0 {
                return Ok(keep(r));
            }
        }
        if d.offen {
            return Ok(keep(Reason::VgprOffset));
        }
        if d.dyn_soffset {
            return Ok(keep(Reason::DynamicSoffset));
        }
        let n = v.num_records;
        if n == 0 && !sabotaged(sab::NO_ZERO_CHECK) {
            return Ok(keep(Reason::NoRecords));
        }
        let Some(id) = d.bound else {
            return Ok(keep(Reason::NoIndexBound));
        };
        if d.lds && !self.honour_lds && !sabotaged(sab::IGNORE_LDS_CONTRACT) {
            return Ok(keep(Reason::LdsContract));
        }
        let id = if sabotaged(sab::INSTANCE_AS_VERTEX) {
            Id::VertexId
        } else {
            id
        };
        let last_id = match id {
            Id::VertexId => ids.vertex,
            Id::InstanceId => ids.instance,
        };
        let last_id = match last_id {
            IdLast::Last(x) => x,
            IdLast::None => return Ok(keep(Reason::ZeroCount)),
            IdLast::IndexBuffer => return Ok(keep(Reason::IndexedDraw)),
            IdLast::Wrapped => return Ok(keep(Reason::Wrap)),
        };
        let word = if sabotaged(sab::IGNORE_PLUS) {
            0
        } else {
            resolve_plus(d.plus)?
        };
        let last = if sabotaged(sab::NO_WRAP_CHECK) {
            last_id.wrapping_add(word)
        } else {
            match last_id.checked_add(word) {
                Some(x) => x,
                None => return Ok(keep(Reason::Wrap)),
            }
        };
        if last >= n - 1 && !sabotaged(sab::NO_CAP) && !self.faults.skip_cap {
            return Ok(keep(Reason::Capped));
        }
        let stride = v.stride as u64;
        let reach = if sabotaged(sab::NO_REACH) {
            0
        } else {
            self.reach(d, v)
        };
        let narrowed = (last as u64)
            .saturating_mul(stride)
            .saturating_add(stride.max(reach));
        // One address model: guest addresses are 48-bit and the hardware
        // (and the interpreter) wrap past 2^48, so a narrowed range that
        // would cross it is no contiguous guest range; keep the baseline.
        if v.base.saturating_add(narrowed) > ADDRESS_MASK + 1 {
            return Ok(keep(Reason::Wrap));
        }
        Ok(BindRange {
            descriptor: d.id,
            base: v.base,
            size: narrowed,
            narrowed: true,
            reason: Reason::Narrowed,
        })
    }
}

/// `(records − 1)·stride + max(stride, reach)`, or 0 without records.
#[inline]
fn structured_size(records: u64, stride: u64, reach: u64) -> u64 {
    if records == 0 {
        0
    } else {
        (records - 1)
            .saturating_mul(stride)
            .saturating_add(stride.max(reach))
    }
}

#[inline(always)]
fn resolve<M: GuestMemory + ?Sized>(
    s: Step,
    ptrs: &[u64; MAX_POINTERS],
    user_data: &[u32],
    memory: &M,
    role: WordRole,
) -> Result<u32, BindError> {
    match s {
        Step::Const(v) => Ok(v),
        Step::Ud(k) => user_data
            .get(k as usize)
            .copied()
            .ok_or(BindError::MissingUserData {
                k,
                len: user_data.len(),
                role,
            }),
        Step::Code { .. } => Err(BindError::NoCodeAddress { role }),
        Step::Table { slot, offset } => {
            let p = ptrs.get(slot as usize).copied().unwrap_or(0);
            let addr = word::address(p, offset);
            memory
                .read_u32(addr)
                .ok_or(BindError::Unreadable { addr, role })
        }
    }
}

/// The last id of a draw, per id kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IdLast {
    /// The largest id.
    Last(u32),
    /// No lanes run.
    None,
    /// Ids come from the index buffer.
    IndexBuffer,
    /// The ids themselves pass 32 bits.
    Wrapped,
}

#[derive(Clone, Copy, Debug)]
struct DrawIds {
    vertex: IdLast,
    instance: IdLast,
}

impl DrawIds {
    #[inline]
    fn of(draw: &Draw<'_>, faults: &BindFaults) -> DrawIds {
        let zero_check = !sabotaged(sab::NO_ZERO_CHECK);
        let (vertex, instances) = match *draw {
            Draw::Auto {
                first_vertex,
                vertex_count,
                instance_count,
                chunks,
            } => {
                let vertex =
                    if chunks.is_empty() || sabotaged(sab::IGNORE_CHUNKS) || faults.forget_chunks {
                        last_of(first_vertex, vertex_count, zero_check)
                    } else {
                        let mut last = IdLast::None;
                        for &(first, count) in chunks {
                            last = match (last, last_of(first, count, zero_check)) {
                                (IdLast::Wrapped, _) | (_, IdLast::Wrapped) => IdLast::Wrapped,
                                (IdLast::Last(a), IdLast::Last(b)) => IdLast::Last(a.max(b)),
                                (IdLast::None, x) | (x, IdLast::None) => x,
                                (x, _) => x,
                            };
                        }
                        last
                    };
                (vertex, instance_count)
            }
            Draw::Indexed {
                index_buffer,
                base_vertex,
                instance_count,
                indices,
                ..
            } => {
                let vertex = if index_buffer.count == 0 && zero_check {
                    IdLast::None
                } else if sabotaged(sab::IGNORE_INDEXED) {
                    last_of(0, index_buffer.count, zero_check)
                } else {
                    match indices {
                        IndexRange::Unknown => IdLast::IndexBuffer,
                        IndexRange::Empty if zero_check => IdLast::None,
                        IndexRange::Empty => IdLast::IndexBuffer,
                        IndexRange::Span { min, max } => {
                            indexed_last(min, max, base_vertex, faults.use_min_index)
                        }
                    }
                };
                (vertex, instance_count)
            }
        };
        let instance = match last_of(0, instances, zero_check) {
            IdLast::Last(_) if faults.forget_instance_ids => IdLast::Last(0),
            x => x,
        };
        // No lanes run at all when either count is zero.
        if zero_check && (vertex == IdLast::None || instance == IdLast::None) {
            return DrawIds {
                vertex: IdLast::None,
                instance: IdLast::None,
            };
        }
        DrawIds { vertex, instance }
    }
}

/// The largest vertex id of indices `min ..= max` with `base` added mod
/// 2³²: `max + base` when no id wraps, `max + base ∓ 2³²` when every id
/// wraps the same way, else the ids are not one interval (the baseline is
/// kept).
#[inline]
fn indexed_last(min: u32, max: u32, base: i32, use_min: bool) -> IdLast {
    let top = if use_min { min } else { max };
    if sabotaged(sab::NO_WRAP_CHECK) {
        return IdLast::Last(top.wrapping_add(base as u32));
    }
    const SPAN: i64 = 1 << 32;
    let (lo, hi) = (min as i64 + base as i64, max as i64 + base as i64);
    let shift = if lo >= 0 && hi < SPAN {
        0
    } else if lo >= SPAN {
        -SPAN
    } else if hi < 0 {
        SPAN
    } else {
        return IdLast::Wrapped;
    };
    IdLast::Last((top as i64 + base as i64 + shift) as u32)
}

/// The last of `first ..= first + count − 1`.
#[inline]
fn last_of(first: u32, count: u32, zero_check: bool) -> IdLast {
    if count == 0 && zero_check {
        return IdLast::None;
    }
    if sabotaged(sab::NO_WRAP_CHECK) {
        return IdLast::Last(first.wrapping_add(count.wrapping_sub(1)));
    }
    match first.checked_add(count.wrapping_sub(1)) {
        Some(x) => IdLast::Last(x),
        None => IdLast::Wrapped,
    }
}

#[cfg(test)]
mod tests;
