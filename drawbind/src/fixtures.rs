//! Hand-built traces of corpus shaders: what the tracer reports for
//! `corpus/radv/cube` and `corpus/radv/instanced` (read off their
//! `listing.txt` and `meta.json`). Tests, benchmarks, the fuzz target and the
//! replay use them; the corpus tests compare them with the real tracer.

use analysis::source::{Id, IndexSource, Ptr, PtrId, Word};
use analysis::trace::{AccessKind, BufferAccess, DescId, Descriptor, IndexBound, ShaderTrace};

/// RADV's `address32_hi`: the high half of 32-bit table pointers.
pub const ADDRESS32_HI: u32 = 0xffff_8000;

/// The four words of the descriptor at `table(ptr)+offset`.
pub fn table_words(ptr: PtrId, offset: u32) -> [Word; 4] {
    [0, 4, 8, 12].map(|o| Word::TableWord {
        table: ptr,
        byte_offset: offset + o,
    })
}

/// An idxen load through `desc` with index `id + word`.
pub fn idxen_load(
    pc: u32,
    opcode: &str,
    desc: u16,
    id: Id,
    word: Word,
    imm_offset: u32,
    bytes: u32,
) -> BufferAccess {
    BufferAccess {
        pc,
        opcode: opcode.to_string(),
        kind: AccessKind::Load,
        descriptor: Some(DescId(desc)),
        idxen: true,
        offen: false,
        index: Some(IndexSource::IdPlus { id, word }),
        index_note: None,
        through_lds: None,
        imm_offset,
        soffset: Word::konst(0),
        bytes,
        untraced_base: None,
    }
}

/// RADV's vertex-buffer table pointer: user-data word `k`, high half
/// `0xffff8000`.
pub fn radv_table(k: u8) -> Ptr {
    Ptr {
        lo: Word::ud(k),
        hi: Word::konst(ADDRESS32_HI),
        add: 0,
        index: None,
    }
}

/// `corpus/radv/cube` (NGG): one binding, stride 32, position at 0 and colour
/// at 16 (`buffer_load_dwordx4 … idxen` at 0x78 and 0x80), index
/// `vertex_id + ud1`, table pointer `ud0`.
pub fn cube_trace() -> ShaderTrace {
    let plus = Word::ud(1);
    ShaderTrace {
        pointers: vec![radv_table(0)],
        descriptors: vec![Descriptor {
            id: DescId(0),
            words: table_words(PtrId(0), 0),
            bound: Some(IndexBound {
                id: Id::VertexId,
                plus: Some(plus),
                through_lds: None,
            }),
            reason: None,
            accesses: vec![0x78, 0x80],
        }],
        accesses: vec![
            idxen_load(0x78, "buffer_load_dwordx4", 0, Id::VertexId, plus, 0, 16),
            idxen_load(0x80, "buffer_load_dwordx4", 0, Id::VertexId, plus, 16, 16),
        ],
        notes: vec![],
    }
}

/// `corpus/radv/instanced` (NGG): slot 0x0 (per-vertex vec3, stride 12,
/// `buffer_load_dwordx3` at 0x84, index `vertex_id + ud1`) and slot 0x10
/// (per-instance 2×vec4, stride 32, at 0x90 and 0x98, index
/// `instance_id + ud2`), table pointer `ud0`.
pub fn instanced_trace() -> ShaderTrace {
    let v = Word::ud(1);
    let i = Word::ud(2);
    ShaderTrace {
        pointers: vec![radv_table(0)],
        descriptors: vec![
            Descriptor {
                id: DescId(0),
                words: table_words(PtrId(0), 0),
                bound: Some(IndexBound {
                    id: Id::VertexId,
                    plus: Some(v),
                    through_lds: None,
                }),
                reason: None,
                accesses: vec![0x84],
            },
            Descriptor {
                id: DescId(1),
                words: table_words(PtrId(0), 0x10),
                bound: Some(IndexBound {
                    id: Id::InstanceId,
                    plus: Some(i),
                    through_lds: None,
                }),
                reason: None,
                accesses: vec![0x90, 0x98],
            },
        ],
        accesses: vec![
            idxen_load(0x84, "buffer_load_dwordx3", 0, Id::VertexId, v, 0, 12),
            idxen_load(0x90, "buffer_load_dwordx4", 1, Id::InstanceId, i, 0, 16),
            idxen_load(0x98, "buffer_load_dwordx4", 1, Id::InstanceId, i, 16, 16),
        ],
        notes: vec![],
    }
}
