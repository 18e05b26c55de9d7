//! The result of register-source tracing.
//!
//! A [`ShaderTrace`] lists every buffer access (MUBUF/MTBUF), the distinct
//! descriptors they go through (identified by the sources of their four
//! words, never by the registers they sat in), and for each descriptor its
//! index bound: the one `VertexId`/`InstanceId`/`IdPlus` source that every
//! indexed access through it agrees on, or the reason there is none.
//!
//! [`trace_code`] / [`trace_program`] fill these in; `drawbind` consumes
//! them. What a bound promises, and how the tracer keeps the promise (the
//! exec-mask model in particular), is written down in ARCHITECTURE.md
//! ("analysis: what the trace promises"). The algorithm is a forward
//! fixpoint over the [`crate::cfg::Cfg`] in reverse postorder:
//!
//! - scalar registers hold [`Word`]s (user data, constants, table words,
//!   buffer words), pointer halves, the entry `merged_wave_info` and copies
//!   of exec masks;
//! - VGPRs hold an id, an id plus a word, or unknown (with the reason),
//!   layered by the exec state they were written under;
//! - exec is a state in a tree of known containment;
//! - joins keep what all paths agree on; loops widen after a few rounds.

use crate::source::{Id, IndexSource, Namer, Ptr, Word};
use serde::{Deserialize, Serialize};

/// Index of a descriptor in [`ShaderTrace::descriptors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DescId(pub u16);

/// Load, store or atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    /// Reads memory.
    Load,
    /// Writes memory.
    Store,
    /// Reads and writes memory.
    Atomic,
}

/// One MUBUF/MTBUF instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferAccess {
    /// Byte offset of the instruction in the code.
    pub pc: u32,
    /// Mnemonic (e.g. `buffer_load_dwordx4`).
    pub opcode: String,
    /// Load/store/atomic.
    pub kind: AccessKind,
    /// The descriptor, or `None` when its words are not all traced.
    pub descriptor: Option<DescId>,
    /// The VGPR address supplies a record index.
    pub idxen: bool,
    /// The VGPR address supplies a byte offset.
    pub offen: bool,
    /// The index source when `idxen` (else `None`).
    pub index: Option<IndexSource>,
    /// Why the index is `Unknown`, when it is (e.g. "index from LDS").
    pub index_note: Option<String>,
    /// The index was read back from LDS: `index` holds only under this
    /// contract (see [`LdsContract`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through_lds: Option<LdsContract>,
    /// The instruction's immediate byte offset.
    pub imm_offset: u32,
    /// Source of the SGPR byte offset (`Const(0)` for an inline 0).
    pub soffset: Word,
    /// Bytes accessed per lane (per record, starting at the offset).
    pub bytes: u32,
    /// When `descriptor` is `None` but the descriptor's base words (words
    /// 0 and 1) are traced: those two words. Such an access does not make the
    /// trace incomplete; it may alias only a descriptor whose base (at run
    /// time) equals the base these words give, and a consumer that narrows
    /// must keep the baseline for such a descriptor on such a draw
    /// (`drawbind::BindPlan` does: `Reason::UntracedAlias`). Without it an
    /// untraced access unbinds every descriptor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untraced_base: Option<[Word; 2]>,
}

/// A set of LDS dword cells: the 4 bytes at every byte address
/// `offset + k · stride` (k ≥ 0; `stride` 0: the one cell at `offset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LdsClass {
    /// Bytes between cells (0: one cell), at least 4 otherwise.
    pub stride: u32,
    /// The first cell's byte address (`< stride` unless `stride` is 0).
    pub offset: u32,
}

impl LdsClass {
    /// The cells' byte addresses below `size` (the workgroup's LDS size)
    /// whose 4 bytes fit below it.
    pub fn cells(self, size: u32) -> impl Iterator<Item = u32> {
        let step = if self.stride == 0 {
            size.max(1)
        } else {
            self.stride
        };
        let end = size.saturating_sub(3);
        (0u32..)
            .map_while(move |k| {
                let a = (self.offset as u64) + (k as u64) * (step as u64);
                (a < end as u64).then_some(a as u32)
            })
            .take(if self.stride == 0 { 1 } else { usize::MAX })
    }
}

/// An index that went through LDS: the shader wrote the id (+ word) to the
/// cells of `class` and read it back. The bound holds only if no read can
/// see a cell of the class that no write of the workgroup reached, which
/// the guest does not promise: whoever runs the shader must first fill
/// every cell of the class with an id the bound covers (the draw's first
/// id; 0 also does, as the range starts at record 0) before the first
/// barrier (`requires_init`). A consumer that does not do that must not
/// narrow by this bound (`drawbind::BindPlan::honour_lds_init`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LdsContract {
    /// The cells the index is read from.
    pub class: LdsClass,
    /// The cells must be initialised before the workgroup runs (always
    /// true today: the tracer cannot prove every read cell was written).
    pub requires_init: bool,
}

/// The agreed index source of a descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IndexBound {
    /// Which id.
    pub id: Id,
    /// The added word, if any.
    pub plus: Option<Word>,
    /// The index went through LDS: the bound holds only under this
    /// contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through_lds: Option<LdsContract>,
}

impl IndexBound {
    /// From an index source (not through LDS); `None` for `Unknown`.
    pub fn from_source(s: IndexSource) -> Option<IndexBound> {
        IndexBound::from_access(s, None)
    }
    /// The bound two accesses agree on: the same id and word, and at most
    /// one LDS contract between them (an access that indexes by the id
    /// directly agrees with one that reads it back from LDS; the bound
    /// keeps the contract). `None` when they disagree.
    pub fn agree(self, other: IndexBound) -> Option<IndexBound> {
        if self.id != other.id || self.plus != other.plus {
            return None;
        }
        let through_lds = match (self.through_lds, other.through_lds) {
            (Some(a), Some(b)) if a != b => return None,
            (a, b) => a.or(b),
        };
        Some(IndexBound {
            through_lds,
            ..self
        })
    }
    /// From an access's index source and its LDS contract; `None` for
    /// `Unknown`.
    pub fn from_access(s: IndexSource, through_lds: Option<LdsContract>) -> Option<IndexBound> {
        match s {
            IndexSource::Id { id } => Some(IndexBound {
                id,
                plus: None,
                through_lds,
            }),
            IndexSource::IdPlus { id, word } => Some(IndexBound {
                id,
                plus: Some(word),
                through_lds,
            }),
            IndexSource::Unknown => None,
        }
    }
}

/// A buffer descriptor (V#), identified by the sources of its four words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    /// Its id in the trace.
    pub id: DescId,
    /// Sources of words 0..=3.
    pub words: [Word; 4],
    /// The agreed index bound, or `None`.
    pub bound: Option<IndexBound>,
    /// Why `bound` is `None` (its `Display` text, e.g. "pc 0x4fc: index
    /// from LDS (pc 0x430: ds_read_b32)", is what the trace report prints;
    /// [`Unbound::code`] a short class).
    pub reason: Option<Unbound>,
    /// pcs of the accesses through this descriptor.
    pub accesses: Vec<u32>,
}

/// Everything the tracer found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShaderTrace {
    /// Interned pointers that `Word::TableWord` refers to.
    pub pointers: Vec<Ptr>,
    /// Distinct descriptors.
    pub descriptors: Vec<Descriptor>,
    /// Every buffer access, in code order.
    pub accesses: Vec<BufferAccess>,
    /// Notes about the shader as a whole (for example "not a vertex stage",
    /// "pc 0x40: s_setpc_b64 to an unknown target").
    pub notes: Vec<String>,
}

impl ShaderTrace {
    /// A namer for this trace's words and pointers.
    pub fn namer(&self) -> Namer<'_> {
        Namer {
            pointers: &self.pointers,
        }
    }

    /// The distinct LDS contracts of the bound descriptors: what a consumer
    /// that narrows by every bound must initialise (see [`LdsContract`]).
    pub fn lds_contracts(&self) -> Vec<LdsContract> {
        let mut out: Vec<LdsContract> = Vec::new();
        for c in self
            .descriptors
            .iter()
            .filter_map(|d| d.bound.and_then(|b| b.through_lds))
        {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The descriptor's source as the CLI prints it: `table(ud0)+0x10` when
    /// its four words are consecutive dwords of one table, `ud4..ud7` for
    /// four consecutive user-data words, else the four word names in
    /// brackets.
    pub fn descriptor_source(&self, d: &Descriptor) -> String {
        let n = self.namer();
        let w = d.words;
        if let Word::TableWord { table, byte_offset } = w[0] {
            let consecutive = (1..4).all(|i| {
                w[i] == Word::TableWord {
                    table,
                    byte_offset: byte_offset.wrapping_add(4 * i as u32),
                }
            });
            if consecutive {
                return n.word_string(w[0]);
            }
        }
        if let Word::UserData { k } = w[0] {
            if (1..4).all(|i| w[i] == Word::ud(k.wrapping_add(i as u8))) {
                return format!("ud{}..ud{}", k, k as u32 + 3);
            }
        }
        format!(
            "[{}, {}, {}, {}]",
            n.word_string(w[0]),
            n.word_string(w[1]),
            n.word_string(w[2]),
            n.word_string(w[3])
        )
    }
}

mod domain;
mod engine;
mod lds;
mod output;
mod reason;
mod rules;
pub use rules::has_rule;

pub use engine::TraceConfig;
#[cfg(not(feature = "testing"))]
use engine::TraceOptions;
#[cfg(feature = "testing")]
pub use engine::{TraceFaults, TraceOptions};
pub use reason::{IndexUnknown, Unbound};

use crate::cfg::{Cfg, Program};

/// Trace a decoded program over its graph.
///
/// Never panics; what the tracer cannot follow is reported in
/// [`ShaderTrace::notes`] and, when it could make a bound wrong, leaves
/// every descriptor unbound with that reason.
pub fn trace_program(program: &Program, cfg: &Cfg, config: &TraceConfig) -> ShaderTrace {
    trace_program_options(program, cfg, config, &TraceOptions::default())
}

/// [`trace_program`] with options (the test-only [`TraceFaults`]; feature
/// `testing`).
#[cfg(feature = "testing")]
pub fn trace_program_with(
    program: &Program,
    cfg: &Cfg,
    config: &TraceConfig,
    options: &TraceOptions,
) -> ShaderTrace {
    trace_program_options(program, cfg, config, options)
}

fn trace_program_options(
    program: &Program,
    cfg: &Cfg,
    config: &TraceConfig,
    options: &TraceOptions,
) -> ShaderTrace {
    let out = engine::Engine::new(program, cfg, *config, options.faults).run();
    output::build(program, cfg, config, out)
}

/// [`trace_code`] with options (the test-only [`TraceFaults`]; feature
/// `testing`).
#[cfg(feature = "testing")]
pub fn trace_with(
    code: &[u8],
    target: isa::Target,
    config: &TraceConfig,
    options: &TraceOptions,
) -> ShaderTrace {
    let program = Program::decode(code, decode_mode(target, config));
    let cfg = Cfg::build(&program);
    trace_program_options(&program, &cfg, config, options)
}

fn decode_mode(target: isa::Target, config: &TraceConfig) -> isa::Mode {
    if config.wave32 {
        isa::Mode::wave32(target)
    } else {
        isa::Mode::wave64(target)
    }
}

/// Decode `code` for `target` and the configuration's wave size, build its
/// graph and trace it.
pub fn trace_code(code: &[u8], target: isa::Target, config: &TraceConfig) -> ShaderTrace {
    let program = Program::decode(code, decode_mode(target, config));
    let cfg = Cfg::build(&program);
    trace_program(&program, &cfg, config)
}
