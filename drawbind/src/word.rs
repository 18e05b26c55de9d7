//! Guest words: the one place that says how a traced word
//! ([`analysis::source::Word`]) becomes a value for a draw.
//!
//! The facts every host-side consumer shares live here (and in
//! [`crate::vsharp`] for the descriptor fields): guest addresses are 48 bits
//! ([`ADDRESS_MASK`]), a 64-bit pointer is its two halves plus the traced
//! constant ([`pointer()`]), a scalar load reads the dword at the pointer plus
//! its offset with the low two bits ignored ([`dword_address`]),
//! `s_buffer_load` reads 0 outside its descriptor's range check
//! ([`buffer_word_address`]), and a code word is a half of the shader's
//! guest address plus an offset ([`code_word`]).
//!
//! [`BindPlan`](crate::BindPlan), the CLI and the translator's manifest use
//! these. The reference interpreter (`interp`) keeps its own copy on
//! purpose: it is the oracle that checks them.

use crate::vsharp::VSharp;
pub use crate::vsharp::ADDRESS_MASK;
use crate::GuestMemory;
use analysis::source::Word;
use analysis::trace::ShaderTrace;

/// How deep [`eval`] follows pointers and descriptors through other traced
/// words before giving up (a trace's pointers form a DAG, but a malformed
/// one must not recurse forever).
pub const MAX_DEPTH: u32 = 8;

/// The guest address of byte `byte_offset` past `ptr`: the sum wraps at
/// 2⁶⁴ and is truncated to 48 bits (RADV's `0xffff8000_xxxxxxxx` pointers
/// address guest `0x8000_xxxxxxxx`).
#[inline]
pub const fn address(ptr: u64, byte_offset: u32) -> u64 {
    ptr.wrapping_add(byte_offset as u64) & ADDRESS_MASK
}

/// The guest address of the dword a scalar load reads at `byte_offset`
/// past `ptr`: [`address`] with the low two bits cleared (scalar loads
/// ignore them).
#[inline]
pub const fn dword_address(ptr: u64, byte_offset: u32) -> u64 {
    address(ptr, byte_offset) & !3
}

/// A traced pointer's 64-bit value from its halves and its constant
/// ([`analysis::source::Ptr::add`], wrapping).
#[inline]
pub const fn pointer(lo: u32, hi: u32, add: u64) -> u64 {
    (((hi as u64) << 32) | lo as u64).wrapping_add(add)
}

/// A traced pointer with a per-draw table index
/// ([`analysis::source::Ptr::index`]): [`pointer()`] plus the index's byte
/// offset `(w · scale + offset) mod 2³²` for the index word's value `w`,
/// zero-extended (the SMEM `soffset` is an unsigned 32-bit SGPR), wrapping
/// at 2⁶⁴ like the rest of the sum.
#[inline]
pub const fn indexed_pointer(ptr: u64, index: analysis::source::TableIndex, w: u32) -> u64 {
    ptr.wrapping_add(index.eval(w) as u64)
}

/// The byte offset of a per-draw table slot, `(w · scale + offset) mod
/// 2³²`, as the translation computes an SMEM offset (`imm + soffset`, 32
/// bits): the translator's `WordExpr::IndexedTableWord` and the hosts that
/// place or read such a word use this one rule.
#[inline]
pub const fn slot_offset(w: u32, scale: u32, offset: u32) -> u32 {
    w.wrapping_mul(scale).wrapping_add(offset)
}

/// A half of a code address ([`Word::Code`]): `code_addr + offset`, its high
/// 32 bits when `hi`, else its low 32 bits.
#[inline]
pub const fn code_word(code_addr: u64, offset: u32, hi: bool) -> u32 {
    let a = code_addr.wrapping_add(offset as u64);
    if hi {
        (a >> 32) as u32
    } else {
        a as u32
    }
}

/// The bytes `s_buffer_load` may read through a descriptor: `num_records`
/// bytes when the stride is 0, else `num_records × stride`.
#[inline]
pub const fn buffer_load_limit(v: &VSharp) -> u64 {
    if v.stride == 0 {
        v.num_records as u64
    } else {
        v.num_records as u64 * v.stride as u64
    }
}

/// The guest address of the dword `s_buffer_load` reads at `byte_offset`
/// through the descriptor, or `None` when its range check fails
/// (`byte_offset + 4 >` [`buffer_load_limit`]), in which case the load
/// reads 0 and touches no memory.
#[inline]
pub const fn buffer_word_address(v: &VSharp, byte_offset: u32) -> Option<u64> {
    if byte_offset as u64 + 4 > buffer_load_limit(v) {
        None
    } else {
        Some(dword_address(v.base, byte_offset))
    }
}

/// Evaluate a traced word for one draw.
///
/// - [`Word::UserData`]: word `k` of `user_data`;
/// - [`Word::Const`]: the constant;
/// - [`Word::TableWord`]: the dword a scalar load reads through the traced
///   pointer ([`pointer()`], [`dword_address`]);
/// - [`Word::BufferWord`]: the dword `s_buffer_load` reads through the
///   traced descriptor ([`buffer_word_address`]; 0 when out of range);
/// - [`Word::Code`]: [`code_word`] of `code_addr`, the guest address of the
///   shader's first byte (for the tools, [`crate::draws::DrawsFile::code_addr`],
///   by default [`crate::draws::DEFAULT_CODE_ADDR`]).
///
/// `None` when the word is [`Word::Unknown`], a user-data word is missing,
/// guest memory has no dword where one is read, a pointer or descriptor is
/// not in the trace, a code word is asked for without `code_addr`, or the
/// words nest deeper than [`MAX_DEPTH`].
pub fn eval<M: GuestMemory + ?Sized>(
    trace: &ShaderTrace,
    word: Word,
    user_data: &[u32],
    memory: &M,
    code_addr: Option<u64>,
) -> Option<u32> {
    Eval {
        trace,
        user_data,
        memory,
        code_addr,
    }
    .word(word, 0)
}

/// Evaluate a traced descriptor's four words for one draw ([`eval`] of
/// each) and decode them; `None` when the trace has no such descriptor or a
/// word cannot be evaluated.
pub fn eval_descriptor<M: GuestMemory + ?Sized>(
    trace: &ShaderTrace,
    descriptor: usize,
    user_data: &[u32],
    memory: &M,
    code_addr: Option<u64>,
) -> Option<VSharp> {
    Eval {
        trace,
        user_data,
        memory,
        code_addr,
    }
    .descriptor(descriptor, 0)
}

struct Eval<'a, M: ?Sized> {
    trace: &'a ShaderTrace,
    user_data: &'a [u32],
    memory: &'a M,
    code_addr: Option<u64>,
}

impl<M: GuestMemory + ?Sized> Eval<'_, M> {
    fn word(&self, w: Word, depth: u32) -> Option<u32> {
        match w {
            Word::UserData { k } => self.user_data.get(k as usize).copied(),
            Word::Const { value } => Some(value),
            Word::TableWord { table, byte_offset } => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                let p = self.trace.pointers.get(table.0 as usize)?;
                let lo = self.word(p.lo, depth + 1)?;
                let hi = self.word(p.hi, depth + 1)?;
                let mut ptr = pointer(lo, hi, p.add);
                if let Some(ix) = p.index {
                    ptr = indexed_pointer(ptr, ix, self.word(ix.word, depth + 1)?);
                }
                self.memory.read_u32(dword_address(ptr, byte_offset))
            }
            Word::BufferWord { desc, byte_offset } => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                let v = self.descriptor(desc.0 as usize, depth + 1)?;
                match buffer_word_address(&v, byte_offset) {
                    Some(a) => self.memory.read_u32(a),
                    None => Some(0),
                }
            }
            Word::Code { offset, hi } => Some(code_word(self.code_addr?, offset, hi)),
            Word::Unknown => None,
        }
    }

    fn descriptor(&self, i: usize, depth: u32) -> Option<VSharp> {
        let d = self.trace.descriptors.get(i)?;
        let mut w = [0u32; 4];
        for (slot, x) in w.iter_mut().zip(d.words) {
            *slot = self.word(x, depth)?;
        }
        Some(VSharp::decode(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vsharp::{encode_linear, OobSelect};
    use crate::SparseMemory;
    use analysis::source::{Ptr, PtrId};
    use analysis::trace::{DescId, Descriptor};

    /// A trace with pointer 0 = user data 0..1 + 0x10, and descriptor 0 read
    /// from that table at byte 0.
    fn trace() -> ShaderTrace {
        let mut t = ShaderTrace::default();
        t.pointers.push(Ptr {
            lo: Word::UserData { k: 0 },
            hi: Word::UserData { k: 1 },
            add: 0x10,
            index: None,
        });
        let words = [0, 4, 8, 12].map(|o| Word::TableWord {
            table: PtrId(0),
            byte_offset: o,
        });
        t.descriptors.push(Descriptor {
            id: DescId(0),
            words,
            bound: None,
            reason: None,
            accesses: Vec::new(),
        });
        t
    }

    fn memory() -> SparseMemory {
        let mut m = SparseMemory::new();
        // The table, at the 48-bit address the pointer truncates to.
        m.write_words(
            0x8000_0000_1010,
            &encode_linear(0x9000, 0, 8, OobSelect::Raw),
        );
        m.write_words(0x9000, &[11, 22, 33]);
        m
    }

    const UD: [u32; 2] = [0x1000, 0xffff_8000];

    #[test]
    fn eval_follows_pointers_and_descriptors() {
        let (t, m) = (trace(), memory());
        let ev = |w| eval(&t, w, &UD, &m, None);
        assert_eq!(ev(Word::UserData { k: 1 }), Some(0xffff_8000));
        assert_eq!(ev(Word::Const { value: 7 }), Some(7));
        // Low bits of the table offset are ignored, as scalar loads do.
        let table = |byte_offset| Word::TableWord {
            table: PtrId(0),
            byte_offset,
        };
        assert_eq!(ev(table(0)), Some(0x9000));
        assert_eq!(ev(table(10)), Some(8));
        let buffer = |byte_offset| Word::BufferWord {
            desc: DescId(0),
            byte_offset,
        };
        assert_eq!(ev(buffer(4)), Some(22));
        // Stride 0: num_records counts bytes; a dword past byte 8 reads 0
        // without touching memory.
        assert_eq!(ev(buffer(8)), Some(0));
        let v = eval_descriptor(&t, 0, &UD, &m, None).unwrap();
        assert_eq!((v.base, v.num_records), (0x9000, 8));
    }

    #[test]
    fn eval_of_code_words_needs_the_code_address() {
        let (t, m) = (trace(), memory());
        let lo = Word::Code {
            offset: 0x104,
            hi: false,
        };
        let hi = Word::Code {
            offset: 0x104,
            hi: true,
        };
        assert_eq!(eval(&t, lo, &UD, &m, None), None);
        let code = crate::draws::DEFAULT_CODE_ADDR;
        assert_eq!(eval(&t, lo, &UD, &m, Some(code)), Some(0x104));
        assert_eq!(eval(&t, hi, &UD, &m, Some(code)), Some(0x7000));
        assert_eq!(code_word(0xffff_ffff, 1, true), 1);
    }

    #[test]
    fn eval_refuses_what_it_cannot_read() {
        let (t, m) = (trace(), memory());
        let ev = |w, ud: &[u32]| eval(&t, w, ud, &m, None);
        let table = Word::TableWord {
            table: PtrId(0),
            byte_offset: 0,
        };
        assert_eq!(ev(Word::Unknown, &UD), None);
        // Missing user data, unmapped memory, a dangling pointer.
        assert_eq!(ev(Word::UserData { k: 2 }, &UD), None);
        assert_eq!(ev(table, &UD[..1]), None);
        assert_eq!(ev(table, &[0x5000, 0]), None);
        let dangling = Word::TableWord {
            table: PtrId(1),
            byte_offset: 0,
        };
        assert_eq!(ev(dangling, &UD), None);
        assert_eq!(eval_descriptor(&t, 1, &UD, &m, None), None);
    }

    #[test]
    fn eval_stops_at_a_pointer_cycle() {
        let mut t = ShaderTrace::default();
        let me = Word::TableWord {
            table: PtrId(0),
            byte_offset: 0,
        };
        t.pointers.push(Ptr {
            lo: me,
            hi: Word::Const { value: 0 },
            add: 0,
            index: None,
        });
        let mut m = SparseMemory::new();
        m.write_words(0, &[0]);
        assert_eq!(eval(&t, me, &[], &m, None), None);
    }

    #[test]
    fn addresses_wrap_at_48_bits() {
        assert_eq!(address(ADDRESS_MASK, 1), 0);
        assert_eq!(dword_address(0xffff_8000_0000_1003, 4), 0x8000_0000_1004);
        assert_eq!(pointer(0x10, 0xffff_8000, 0x10), 0xffff_8000_0000_0020);
        let v = VSharp::decode(encode_linear(0x100, 16, 2, OobSelect::Structured));
        assert_eq!(buffer_load_limit(&v), 32);
        assert_eq!(buffer_word_address(&v, 28), Some(0x11c));
        assert_eq!(buffer_word_address(&v, 29), None);
    }
}
