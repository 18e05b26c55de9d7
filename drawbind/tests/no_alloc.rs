//! `BindPlan::bind` allocates nothing: counted by a global allocator.
//!
//! The binary has no test harness (`harness = false`): libtest's own
//! threads would allocate while the counter runs.

use drawbind::fixtures::instanced_trace;
use drawbind::index::{scan_copy, IndexRangeCache};
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::{BindPlan, BindRange, Draw, IndexBuffer, IndexFormat, IndexRange, SparseMemory};
use isa::Stage;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const IB: IndexBuffer = IndexBuffer {
    addr: 0x30_0000,
    format: IndexFormat::U16,
    count: 36,
    first_index: 2,
};

fn main() {
    bind_allocates_nothing_on_any_path();
    index_scans_and_cache_lookups_allocate_nothing();
    table_indices_and_untraced_aliases_allocate_nothing();
    println!("no_alloc: 3 passed, 0 failed");
}

fn index_scans_and_cache_lookups_allocate_nothing() {
    let mut memory = SparseMemory::with_generations();
    let indices: Vec<u8> = (0..64u16)
        .flat_map(|i| (i * 7 % 50).to_le_bytes())
        .collect();
    memory.write_bytes(IB.addr, &indices);
    let mut cache = IndexRangeCache::new(64);
    let mut dst = vec![0u8; indices.len()];
    let missing = IndexBuffer {
        addr: 0x90_0000,
        ..IB
    };
    let r = Region::new(GLOBAL);
    let mut seen = 0u32;
    for round in 0..100u16 {
        // A miss (rewritten bytes), a generation hit, an unreadable buffer.
        memory.write_bytes(IB.addr + 4, &round.to_le_bytes());
        for ib in [IB, IB, missing] {
            if let Ok(IndexRange::Span { max, .. }) =
                cache.range(&memory, black_box(&ib), Some(0xffff))
            {
                seen = seen.max(max);
            }
        }
        let copied = scan_copy(black_box(&indices), &mut dst, IndexFormat::U16, None);
        black_box(copied).ok();
    }
    let stats = r.change();
    assert!(seen > 0 && cache.telemetry().misses > 0 && cache.telemetry().hits > 0);
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
}

fn bind_allocates_nothing_on_any_path() {
    let plan = BindPlan::new(&instanced_trace(), Stage::Ngg).unwrap();
    let mut memory = SparseMemory::new();
    memory.write_words(
        0x8000_0000_1000,
        &encode_linear(0x10_0000, 12, 100_000, OobSelect::Structured),
    );
    memory.write_words(
        0x8000_0000_1010,
        &encode_linear(0x20_0000, 32, 64, OobSelect::Structured),
    );
    let good = [0x1000u32, 3, 5];
    let unmapped = [0x9000u32, 3, 5];
    let short = [0x1000u32];
    let chunks = [(0u32, 18u32), (18, 18)];
    let draws = [
        Draw::auto(0, 36, 4),
        Draw::Auto {
            first_vertex: 0,
            vertex_count: 36,
            instance_count: 2,
            chunks: &chunks,
        },
        Draw::indexed(IB, 3),
        Draw::Indexed {
            index_buffer: IB,
            base_vertex: -2,
            restart: Some(0xffff),
            instance_count: 2,
            indices: IndexRange::Span { min: 2, max: 40 },
        },
        Draw::auto(0, 0, 1),
        Draw::auto(u32::MAX, 2, 1),
    ];
    let mut out = [BindRange::EMPTY; 2];

    // The counter works: a Vec allocation is seen.
    let region = Region::new(GLOBAL);
    black_box(vec![1u8; 16]);
    assert!(
        region.change().allocations > 0,
        "negative control: the counter saw nothing"
    );

    // Each path on its own, the first call included.
    for d in &draws {
        for ud in [&good[..], &unmapped[..], &short[..]] {
            let r = Region::new(GLOBAL);
            let res = black_box(plan.bind(black_box(d), black_box(ud), &memory, &mut out));
            assert_eq!(
                r.change().allocations,
                0,
                "bind {d:?} with user data {ud:x?}: {res:?}"
            );
            let r = Region::new(GLOBAL);
            let res = black_box(plan.bind_baseline(black_box(ud), &memory, &mut out));
            assert_eq!(
                r.change().allocations,
                0,
                "bind_baseline with user data {ud:x?}: {res:?}"
            );
        }
    }
    let region = Region::new(GLOBAL);
    let mut ok = 0;
    let mut err = 0;
    for _ in 0..1000 {
        for d in &draws {
            for ud in [&good[..], &unmapped[..], &short[..]] {
                match plan.bind(black_box(d), black_box(ud), &memory, &mut out) {
                    Ok(n) => ok += n,
                    Err(e) => {
                        err += {
                            black_box(&e);
                            1
                        }
                    }
                }
                match plan.bind_baseline(black_box(ud), &memory, &mut out) {
                    Ok(n) => ok += n,
                    Err(e) => {
                        err += {
                            black_box(&e);
                            1
                        }
                    }
                }
            }
        }
        // Too small an output buffer.
        err += plan.bind(&draws[0], &good, &memory, &mut out[..1]).is_err() as usize;
    }
    let stats = region.change();
    assert!(ok > 0 && err > 0, "both success and error paths ran");
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
}

/// A table at a per-draw offset (ud3 · 16) and an untraced access whose
/// base is ud4/ud5: both are evaluated per draw on the stack.
fn table_indices_and_untraced_aliases_allocate_nothing() {
    use analysis::source::{TableIndex, Word};
    let mut t = instanced_trace();
    t.pointers[0].index = Some(TableIndex {
        word: Word::ud(3),
        scale: 16,
        offset: 0,
    });
    let mut a = t.accesses[0].clone();
    a.pc += 0x100;
    a.descriptor = None;
    a.untraced_base = Some([Word::ud(4), Word::ud(5)]);
    t.accesses.push(a);
    let plan = BindPlan::new(&t, Stage::Ngg).unwrap();
    let mut memory = SparseMemory::new();
    let vb = encode_linear(0x10_0000, 12, 100_000, OobSelect::Structured);
    memory.write_words(0x8000_0000_1020, &vb);
    memory.write_words(
        0x8000_0000_1030,
        &encode_linear(0x20_0000, 32, 64, OobSelect::Structured),
    );
    let aliased = [0x1000u32, 3, 5, 2, vb[0], vb[1]];
    let apart = [0x1000u32, 3, 5, 2, 0x40_0000, 0];
    let missing_index = [0x1000u32, 3, 5];
    let unmapped_slot = [0x1000u32, 3, 5, 0x7000, 0, 0];
    let mut out = [BindRange::EMPTY; 2];
    let draw = Draw::auto(0, 36, 4);
    let mut reasons = Vec::new();
    for ud in [&aliased[..], &apart[..]] {
        plan.bind(&draw, ud, &memory, &mut out).unwrap();
        reasons.push(out[0].reason);
    }
    assert_eq!(
        reasons,
        [drawbind::Reason::UntracedAlias, drawbind::Reason::Narrowed]
    );
    let region = Region::new(GLOBAL);
    let mut ok = 0;
    let mut err = 0;
    for _ in 0..1000 {
        for ud in [
            &aliased[..],
            &apart[..],
            &missing_index[..],
            &unmapped_slot[..],
        ] {
            match plan.bind(black_box(&draw), black_box(ud), &memory, &mut out) {
                Ok(n) => ok += n,
                Err(e) => {
                    black_box(&e);
                    err += 1;
                }
            }
        }
    }
    let stats = region.change();
    assert!(ok > 0 && err > 0, "both success and error paths ran");
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
}
