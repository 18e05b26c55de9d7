//! Abstract register sources: where an SGPR word or a VGPR index comes from.
//!
//! These are the values of the tracer's abstract domain and the vocabulary
//! of [`crate::trace::ShaderTrace`]. Every type here is `Copy`; pointers are
//! interned in the trace's pointer table and named by [`PtrId`], so equal
//! sources compare equal with `==` (identity by source, never by register).

use core::fmt;
use serde::{Deserialize, Serialize};

/// Index of a 64-bit pointer in [`crate::trace::ShaderTrace::pointers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PtrId(pub u16);

/// Where one 32-bit SGPR value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Word {
    /// User-data word `k` (the ABI maps it to SGPR base+k at entry).
    UserData {
        /// Word number.
        k: u8,
    },
    /// A constant.
    Const {
        /// The value.
        value: u32,
    },
    /// A dword loaded by a scalar load from `ptr + byte_offset`.
    TableWord {
        /// The pointer the load went through.
        table: PtrId,
        /// Byte offset from the pointer.
        byte_offset: u32,
    },
    /// A dword loaded by `s_buffer_load_*` at `byte_offset` through a
    /// traced buffer descriptor (for example a uniform-buffer value). The
    /// descriptor is listed in [`crate::trace::ShaderTrace::descriptors`].
    BufferWord {
        /// The descriptor the load went through.
        desc: crate::trace::DescId,
        /// Byte offset from the descriptor's base address.
        byte_offset: u32,
    },
    /// A half of a code address: the guest address of the shader's first
    /// byte plus `offset` (`s_getpc_b64` gives the address of the next
    /// instruction; `s_add_u32`/`s_addc_u32` of constants move it, as a
    /// shader does to reach its constant data after the code). The low half
    /// is `low32(code + offset)`, the high half `high32(code + offset)`.
    Code {
        /// Bytes from the start of the code.
        offset: u32,
        /// The high 32 bits (else the low 32).
        hi: bool,
    },
    /// Anything else.
    Unknown,
}

impl Word {
    /// `Const(v)`.
    pub const fn konst(value: u32) -> Word {
        Word::Const { value }
    }
    /// `UserData(k)`.
    pub const fn ud(k: u8) -> Word {
        Word::UserData { k }
    }
    /// True unless `Unknown`.
    pub fn is_known(&self) -> bool {
        !matches!(self, Word::Unknown)
    }
}

/// A 64-bit pointer: two traced halves plus a byte offset added to them
/// (`s_add_u32`/`s_addc_u32` of a constant), and optionally a byte offset
/// that depends on a traced word (a descriptor table indexed per draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ptr {
    /// Low 32 bits.
    pub lo: Word,
    /// High 32 bits.
    pub hi: Word,
    /// Constant added to the 64-bit value (wrapping).
    pub add: u64,
    /// A per-draw byte offset added after `add` (bindless-style tables:
    /// `s_load_dwordx4 s[..], s[table:table+1], sN` with `sN = udM·16`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<TableIndex>,
}

impl Ptr {
    /// A pointer without a per-draw offset.
    pub const fn new(lo: Word, hi: Word, add: u64) -> Ptr {
        Ptr {
            lo,
            hi,
            add,
            index: None,
        }
    }
}

/// An affine 32-bit byte offset `(word · scale + offset) mod 2³²`, as the
/// shader computes it in one SGPR (`s_lshl_b32`, `s_mul_i32`, `s_add_u32` of
/// constants), zero-extended and added to a 64-bit pointer (the SMEM
/// `soffset` operand): the pointer's value is
/// `(hi:lo) + add + zext32(word · scale + offset)`, wrapping at 2⁶⁴ and
/// truncated to 48 bits like every guest address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TableIndex {
    /// The traced word (user data or a table word; never `Const` or
    /// `Unknown`).
    pub word: Word,
    /// The multiplier (mod 2³²).
    pub scale: u32,
    /// The constant added (mod 2³²).
    pub offset: u32,
}

impl TableIndex {
    /// The byte offset for the word's value `w`: `(w · scale + offset) mod 2³²`.
    #[inline]
    pub const fn eval(self, w: u32) -> u32 {
        w.wrapping_mul(self.scale).wrapping_add(self.offset)
    }
}

/// A vertex-stage id the hardware supplies per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Id {
    /// The vertex id (without base vertex).
    VertexId,
    /// The instance id (without start instance).
    InstanceId,
}

impl Id {
    /// `vertex_id` / `instance_id`.
    pub fn name(self) -> &'static str {
        match self {
            Id::VertexId => "vertex_id",
            Id::InstanceId => "instance_id",
        }
    }
}

/// Where a VGPR value used as a buffer index comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IndexSource {
    /// A bare id.
    Id {
        /// Which id.
        id: Id,
    },
    /// An id plus a uniform word (a traced SGPR source or a constant).
    IdPlus {
        /// Which id.
        id: Id,
        /// The added word.
        word: Word,
    },
    /// Anything else.
    Unknown,
}

/// Names words and pointers the way the CLI and snapshots print them:
/// `ud1`, `0x10`, `table(ud0)+0x8`.
pub struct Namer<'a> {
    /// The trace's pointer table.
    pub pointers: &'a [Ptr],
}

impl Namer<'_> {
    /// Write a word's name.
    pub fn word(&self, w: Word, out: &mut impl fmt::Write) -> fmt::Result {
        match w {
            Word::UserData { k } => write!(out, "ud{k}"),
            Word::Const { value } => write!(out, "{value:#x}"),
            Word::TableWord { table, byte_offset } => {
                out.write_str("table(")?;
                self.ptr(table, out)?;
                write!(out, ")+{byte_offset:#x}")
            }
            Word::BufferWord { desc, byte_offset } => {
                write!(out, "buf(desc{})+{byte_offset:#x}", desc.0)
            }
            Word::Code { offset, hi: false } => write!(out, "code+{offset:#x}"),
            Word::Code { offset, hi: true } => write!(out, "code_hi+{offset:#x}"),
            Word::Unknown => out.write_str("?"),
        }
    }

    /// Write a pointer's name: `ud0` for RADV's 32-bit table pointers (a
    /// user-data low half with the `0xffff8000` high half), otherwise
    /// `ptr(lo, hi)`, with `+0x..` for an added constant.
    pub fn ptr(&self, id: PtrId, out: &mut impl fmt::Write) -> fmt::Result {
        let Some(p) = self.pointers.get(id.0 as usize) else {
            return out.write_str("?");
        };
        if p.hi == Word::konst(0xffff_8000) {
            self.word(p.lo, out)?;
        } else {
            out.write_str("ptr(")?;
            self.word(p.lo, out)?;
            out.write_str(", ")?;
            self.word(p.hi, out)?;
            out.write_str(")")?;
        }
        if p.add != 0 {
            write!(out, "+{:#x}", p.add)?;
        }
        if let Some(ix) = p.index {
            out.write_str("+")?;
            self.word(ix.word, out)?;
            write!(out, "*{:#x}", ix.scale)?;
            if ix.offset != 0 {
                write!(out, "+{:#x}", ix.offset)?;
            }
        }
        Ok(())
    }

    /// A word's name as a `String`.
    pub fn word_string(&self, w: Word) -> String {
        let mut s = String::new();
        let _ = self.word(w, &mut s);
        s
    }
}
