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

fn per_draw_ns(mut f: impl FnMut()) -> f64 {
    const N: u32 = 2_000_000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..N {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / N as f64);
    }
    best
}

fn main() {
    divan::main();
    let s = setup();
    let mut out = [BindRange::EMPTY; 2];
    let n = per_draw_ns(|| {
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
    let b = per_draw_ns(|| {
        s.plan
            .bind_baseline(black_box(&s.user_data), &s.memory, &mut out)
            .unwrap();
        black_box(&out);
    });
    println!("bind, two bindings with table reads: narrowed {n:.1} ns/draw, baseline {b:.1} ns/draw, ratio {:.2}", n / b);
}
