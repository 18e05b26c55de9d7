//! `BindPlan::bind` on arbitrary draws, user data and guest memory, for
//! plans built from the corpus traces (and variants of their accesses).
//!
//! Checks: no panic; no range that overflows u64 or ends past its baseline;
//! a narrowed range is strictly shorter than the baseline; and, for the
//! unmodified corpus traces, every byte a lane-by-lane model fetches lies in
//! the narrowed range.

#![no_main]

use analysis::source::Word;
use analysis::trace::ShaderTrace;
use arbitrary::Arbitrary;
use drawbind::fixtures::{cube_trace, instanced_trace};
use drawbind::vsharp::{Class, OobSelect, VSharp, ADDRESS_MASK};
use drawbind::index;
use drawbind::{BindPlan, BindRange, Draw, GuestMemory, IndexBuffer, IndexFormat, IndexRange, SparseMemory};
use isa::Stage;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct AccessTweak {
    imm_offset: u16,
    bytes: u8,
    offen: bool,
    soffset: Option<u16>,
}

#[derive(Arbitrary, Debug)]
enum FuzzDraw {
    Auto {
        first_vertex: u32,
        vertex_count: u32,
        instance_count: u32,
        chunks: Vec<(u32, u32)>,
    },
    Indexed {
        indices: Vec<u32>,
        base_vertex: i32,
        restart: Option<u32>,
        instance_count: u32,
        /// Pass the scanned range (else `Unknown`).
        scanned: bool,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    instanced: bool,
    stage: u8,
    tweaks: Option<Vec<AccessTweak>>,
    user_data: Vec<u32>,
    /// Written at the table the first user-data word points to.
    descriptors: Vec<[u32; 4]>,
    /// Anything else.
    memory: Vec<(u64, Vec<u32>)>,
    draw: FuzzDraw,
}

fn trace(input: &Input) -> ShaderTrace {
    let mut t = if input.instanced { instanced_trace() } else { cube_trace() };
    if let Some(tw) = &input.tweaks {
        for (a, w) in t.accesses.iter_mut().zip(tw) {
            a.imm_offset = w.imm_offset as u32;
            a.bytes = 1 + (w.bytes % 16) as u32;
            a.offen = w.offen;
            a.soffset = match w.soffset {
                None => Word::konst(0),
                Some(0xffff) => Word::ud(3),
                Some(c) => Word::konst(c as u32),
            };
        }
    }
    t
}

/// Lane by lane, for the unmodified corpus traces: each in-range record's
/// fetched bytes must lie in the range.
fn check_model(t: &ShaderTrace, r: &BindRange, v: &VSharp, ids: &[u32], word: u32) {
    for &id in ids {
        let Some(index) = id.checked_add(word) else { continue };
        if index >= v.num_records {
            continue;
        }
        for a in t.accesses.iter().filter(|a| a.descriptor == Some(r.descriptor)) {
            // OOB_SELECT 0 also drops an in-record offset >= stride.
            if v.oob_select == OobSelect::StructuredWithOffset && a.imm_offset >= v.stride {
                continue;
            }
            let start = v.base + index as u64 * v.stride as u64 + a.imm_offset as u64;
            let end = start + a.bytes as u64;
            assert!(
                r.base <= start && end <= r.end(),
                "{r:?} misses {start:#x}..{end:#x} (id {id}, word {word})"
            );
        }
    }
}

fuzz_target!(|input: Input| {
    let t = trace(&input);
    let stage = match input.stage % 4 {
        0 | 1 => Stage::Ngg,
        2 => Stage::LegacyVs,
        _ => Stage::Cs,
    };
    let plan = BindPlan::new(&t, stage).expect("corpus traces plan");
    let mut memory = SparseMemory::new();
    for (addr, words) in input.memory.iter().take(8) {
        memory.write_words(addr & ADDRESS_MASK, &words[..words.len().min(64)]);
    }
    let table = input
        .user_data
        .first()
        .map(|&p| (0xffff_8000_0000_0000u64 | p as u64) & ADDRESS_MASK);
    if let Some(table) = table {
        for (k, d) in input.descriptors.iter().take(2).enumerate() {
            memory.write_words(table + 16 * k as u64, d);
        }
    }
    let chunks: Vec<(u32, u32)> = match &input.draw {
        FuzzDraw::Auto { chunks, .. } => chunks.clone(),
        _ => Vec::new(),
    };
    let draw = match input.draw {
        FuzzDraw::Auto {
            first_vertex,
            vertex_count,
            instance_count,
            ..
        } => Draw::Auto {
            first_vertex,
            vertex_count,
            instance_count,
            chunks: &chunks,
        },
        FuzzDraw::Indexed {
            ref indices,
            base_vertex,
            restart,
            instance_count,
            scanned,
        } => {
            let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            let index_buffer = IndexBuffer {
                addr: 0x7000_0000,
                format: IndexFormat::U32,
                count: indices.len() as u32,
                first_index: 0,
            };
            Draw::Indexed {
                index_buffer,
                base_vertex,
                restart,
                instance_count,
                indices: if scanned {
                    index::scan(&bytes, IndexFormat::U32, restart)
                } else {
                    IndexRange::Unknown
                },
            }
        }
    };
    let mut out = [BindRange::EMPTY; 4];
    let mut base = [BindRange::EMPTY; 4];
    let got = plan.bind(&draw, &input.user_data, &memory, &mut out);
    let baseline = plan.bind_baseline(&input.user_data, &memory, &mut base);
    let (n, _) = match (got, baseline) {
        (Ok(n), Ok(m)) => {
            assert_eq!(n, m);
            (n, m)
        }
        // The narrowed bind may also read the added words; otherwise both
        // fail alike.
        (Err(_), _) => return,
        (Ok(_), Err(e)) => panic!("baseline failed where bind did not: {e}"),
    };
    assert_eq!(n, plan.len());
    for (r, b) in out[..n].iter().zip(&base[..n]) {
        assert!(r.base.checked_add(r.size).is_some(), "{r:?} overflows");
        assert_eq!(r.base, b.base);
        assert!(r.end() <= b.end(), "{r:?} ends past the baseline {b:?}");
        if r.narrowed {
            assert!(r.size < b.size, "narrowed but not shorter: {r:?} vs {b:?}");
        }
        // The model, for untweaked corpus traces and small draws.
        if input.tweaks.is_none() && r.narrowed {
            let Some(table) = table else { continue };
            let k = r.descriptor.0 as u64;
            let words: Vec<u32> = (0..4)
                .map(|i| memory.read_u32(table + 16 * k + 4 * i).unwrap())
                .collect();
            let v = VSharp::decode([words[0], words[1], words[2], words[3]]);
            assert_eq!(v.class(), Class::Structured);
            let (ids, word): (Vec<u32>, u32) = match (input.instanced, k, &draw) {
                (true, 1, Draw::Auto { instance_count, .. }) | (true, 1, Draw::Indexed { instance_count, .. }) => {
                    let mut ids: Vec<u32> = (0..(*instance_count).min(4096)).collect();
                    ids.extend(instance_count.checked_sub(1));
                    (ids, input.user_data[2])
                }
                (_, _, Draw::Auto { first_vertex, vertex_count, chunks, .. }) => {
                    let mut ids = Vec::new();
                    if chunks.is_empty() {
                        ids.extend((0..(*vertex_count).min(4096)).filter_map(|i| first_vertex.checked_add(i)));
                    } else {
                        for &(f, c) in chunks.iter() {
                            ids.extend((0..c.min(1024)).filter_map(|i| f.checked_add(i)));
                            // The chunk's last id, even when the chunk is long.
                            if c > 0 {
                                ids.extend(f.checked_add(c - 1));
                            }
                        }
                    }
                    if chunks.is_empty() && *vertex_count > 0 {
                        ids.extend(first_vertex.checked_add(vertex_count - 1));
                    }
                    (ids, input.user_data[1])
                }
                (_, _, Draw::Indexed { base_vertex, restart, indices: IndexRange::Span { .. }, .. }) => {
                    let FuzzDraw::Indexed { indices, .. } = &input.draw else { unreachable!() };
                    let ids = indices
                        .iter()
                        .filter(|i| Some(**i) != *restart)
                        .map(|i| i.wrapping_add(*base_vertex as u32))
                        .collect();
                    (ids, input.user_data[1])
                }
                _ => panic!("narrowed a vertex binding on an indexed draw without a scanned range: {r:?}"),
            };
            check_model(&t, r, &v, &ids, word);
        }
    }
});
