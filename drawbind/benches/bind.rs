//! `bind` per draw for a two-binding plan with table reads (the
//! `instanced` corpus shader), narrowed and baseline rules.
//!
//! After divan's report, `main` times both again in one loop each and
//! prints the narrowed / baseline ratio from the same run.

use divan::{black_box, Bencher};
use drawbind::fixtures::instanced_trace;
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::{BindPlan, BindRange, Draw, SparseMemory};
use isa::Stage;
use std::time::Instant;

struct Setup {
    plan: BindPlan,
    memory: SparseMemory,
    user_data: [u32; 3],
}

fn setup() -> Setup {
    let plan = BindPlan::new(&instanced_trace(), Stage::Ngg).unwrap();
    let mut memory = SparseMemory::new();
    memory.write_words(
        0x8000_0000_1000,
        &encode_linear(0x8000_0010_0000, 12, 349_525, OobSelect::Structured),
    );
    memory.write_words(
        0x8000_0000_1010,
        &encode_linear(0x8000_0050_0000, 32, 4096, OobSelect::Structured),
    );
    Setup {
        plan,
        memory,
        user_data: [0x1000, 100, 7],
    }
}

const DRAW: Draw<'static> = Draw::auto(0, 36, 4);

#[divan::bench]
fn narrowed(b: Bencher) {
    let s = setup();
    let mut out = [BindRange::EMPTY; 2];
    b.bench_local(|| {
        s.plan
            .bind(
                black_box(&DRAW),
                black_box(&s.user_data),
                &s.memory,
                &mut out,
            )
            .unwrap();
        black_box(&out);
    });
}

#[divan::bench]
fn baseline(b: Bencher) {
    let s = setup();
    let mut out = [BindRange::EMPTY; 2];
    b.bench_local(|| {
        s.plan
            .bind_baseline(black_box(&s.user_data), &s.memory, &mut out)
            .unwrap();
        black_box(&out);
    });
}

/// Median ns/draw of short samples, narrowed and baseline interleaved so
/// both see the same machine load.
fn per_draw_ns(mut narrowed: impl FnMut(), mut baseline: impl FnMut()) -> (f64, f64) {
    const SAMPLES: usize = 2001;
    const ITERS: u32 = 2000;
    let mut n = Vec::with_capacity(SAMPLES);
    let mut b = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t = Instant::now();
        for _ in 0..ITERS {
            narrowed();
        }
        n.push(t.elapsed().as_nanos() as f64 / ITERS as f64);
        let t = Instant::now();
        for _ in 0..ITERS {
            baseline();
        }
        b.push(t.elapsed().as_nanos() as f64 / ITERS as f64);
    }
    n.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    (n[SAMPLES / 2], b[SAMPLES / 2])
}

fn main() {
    divan::main();
    let s = setup();
    let mut out_n = [BindRange::EMPTY; 2];
    let mut out_b = [BindRange::EMPTY; 2];
    let (n, b) = per_draw_ns(
        || {
            s.plan
                .bind(
                    black_box(&DRAW),
                    black_box(&s.user_data),
                    &s.memory,
                    &mut out_n,
                )
                .unwrap();
            black_box(&out_n);
        },
        || {
            s.plan
                .bind_baseline(black_box(&s.user_data), &s.memory, &mut out_b)
                .unwrap();
            black_box(&out_b);
        },
    );
    println!(
        "bind, two bindings with table reads (median of 2001 samples): narrowed {n:.1} ns/draw, \
         baseline rules {b:.1} ns/draw, ratio {:.2}",
        n / b
    );
}
