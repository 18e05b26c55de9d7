//! What a run observes: buffer accesses, exports, messages, findings; and
//! the errors that stop a run.

use serde::Serialize;

/// Load, store or atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    /// Reads memory.
    Load,
    /// Writes memory (recorded; the guest is never written).
    Store,
    /// Read-modify-write (recorded; the guest is never written).
    Atomic,
}

/// One buffer access by one active lane (or by the wave, for
/// `s_buffer_load_*`): the bytes the hardware touched after its range
/// checks (an out-of-range dword is not an access).
/// A lane whose in-range dwords are not contiguous gives one record per
/// contiguous run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BufferFetch {
    /// Byte offset of the instruction.
    pub pc: u32,
    /// The wave (its number in the run).
    pub wave: u32,
    /// The lane (0 for a scalar access).
    pub lane: u8,
    /// A scalar access (`s_buffer_load_*`), made once for the wave.
    pub scalar: bool,
    /// Load, store or atomic.
    pub kind: AccessKind,
    /// The four descriptor words the instruction used.
    pub descriptor: [u32; 4],
    /// The record index (VGPR index, plus the lane id with ADD_TID), when
    /// `idxen` is set or ADD_TID adds one.
    pub index: Option<u32>,
    /// First byte (48-bit guest address).
    pub addr: u64,
    /// Length in bytes.
    pub len: u32,
}

/// The bytes one lane's buffer store wrote (one piece of at most a dword).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Store {
    /// Byte offset of the instruction.
    pub pc: u32,
    /// The wave.
    pub wave: u32,
    /// The lane.
    pub lane: u8,
    /// First byte (48-bit guest address, after the range check).
    pub addr: u64,
    /// Bytes written (1..=4).
    pub len: u8,
    /// The bytes, little-endian in the low `len` bytes.
    pub value: u32,
    /// Every written byte was defined.
    pub defined: bool,
    /// Written by an atomic whose final value does not depend on the order
    /// of the lanes and workgroups that apply it (add, and, or, xor, min,
    /// max): concurrent writers are not a race.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub order_free: bool,
}

/// One export by one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Export {
    /// Byte offset of the instruction.
    pub pc: u32,
    /// The wave.
    pub wave: u32,
    /// The lane.
    pub lane: u8,
    /// Target id (12..=16 pos, 20 prim, 32..=63 param, ...).
    pub target: u8,
    /// Enable mask.
    pub en: u8,
    /// Compressed (16-bit) data.
    pub compr: bool,
    /// `done` bit.
    pub done: bool,
    /// The four source values (disabled sources are 0).
    pub values: [u32; 4],
    /// Bit i set: source i is enabled and fully defined.
    pub defined: u8,
}

impl Export {
    /// The target's name: `pos0`, `param3`, `prim`, `mrt0`, ...
    pub fn target_name(&self) -> String {
        match self.target {
            t @ 0..=7 => format!("mrt{t}"),
            8 => "mrtz".into(),
            9 => "null".into(),
            t @ 12..=16 => format!("pos{}", t - 12),
            20 => "prim".into(),
            t @ 32..=63 => format!("param{}", t - 32),
            t => format!("target{t}"),
        }
    }
}

/// An `s_sendmsg` (with M0 as it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Message {
    /// Byte offset of the instruction.
    pub pc: u32,
    /// The wave.
    pub wave: u32,
    /// The 16-bit message field.
    pub msg: u16,
    /// M0.
    pub m0: u32,
    /// M0 fully defined.
    pub m0_defined: bool,
}

/// Something worth reporting that did not stop the run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    /// A memory access whose address depends on an undefined value in an
    /// active lane: not performed, not counted as a fetch.
    UndefinedAddress {
        /// Byte offset of the instruction.
        pc: u32,
        /// The wave.
        wave: u32,
        /// The lane (none for scalar accesses).
        lane: Option<u8>,
        /// What was undefined (`index v4`, `descriptor s[4:7]`, ...).
        what: String,
    },
    /// A read of guest memory that is not mapped: the value is undefined.
    Unmapped {
        /// Byte offset of the instruction.
        pc: u32,
        /// The wave.
        wave: u32,
        /// Address.
        addr: u64,
        /// Bytes.
        len: u32,
    },
    /// A buffer access the interpreter does not model the addressing of
    /// (swizzled descriptors): not performed, not counted.
    Unmodelled {
        /// Byte offset of the instruction.
        pc: u32,
        /// The wave.
        wave: u32,
        /// Why.
        what: String,
    },
    /// The run found more than [`crate::MAX_FINDINGS`]; the rest were
    /// counted, not kept, so the draw cannot be called checked.
    Truncated {
        /// Findings counted but not kept.
        dropped: u64,
    },
}

/// Why a run stopped before every wave ended.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InterpError {
    /// An instruction the interpreter does not model.
    #[error("pc {pc:#x}: unsupported instruction `{text}`: {why}")]
    Unsupported {
        /// Byte offset.
        pc: u32,
        /// The instruction's text.
        text: String,
        /// Why.
        why: String,
    },
    /// The bytes at the pc do not decode.
    #[error("pc {pc:#x}: {error}")]
    Undecodable {
        /// Byte offset.
        pc: u32,
        /// The decoder's message.
        error: String,
    },
    /// The pc left the code.
    #[error("pc {pc:#x} is outside the code ({len} bytes)")]
    PcOutOfCode {
        /// The pc.
        pc: u32,
        /// Code length.
        len: u32,
    },
    /// The run's step budget was spent (too much work in one draw or
    /// dispatch: many waves, long loops).
    #[error("wave {wave}: the run's budget of {limit} instructions is spent (pc {pc:#x})")]
    RunStepLimit {
        /// The wave.
        wave: u32,
        /// The budget.
        limit: u64,
        /// Where it was.
        pc: u32,
    },
    /// The step bound was reached (a runaway loop, or a bound too small).
    #[error("wave {wave}: no s_endpgm after {limit} instructions (pc {pc:#x})")]
    StepLimit {
        /// The wave.
        wave: u32,
        /// The bound.
        limit: u64,
        /// Where it was.
        pc: u32,
    },
    /// Control flow depends on an undefined value (a branch condition or
    /// the exec mask).
    #[error("pc {pc:#x}: `{text}`: {what} is undefined")]
    UndefinedControl {
        /// Byte offset.
        pc: u32,
        /// The instruction's text.
        text: String,
        /// What is undefined.
        what: String,
    },
}
