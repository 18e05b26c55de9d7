//! Tracing the largest corpus shader (`instanced-nggc`, NGG with culling,
//! wave64, about 1.3 KB), against decoding it alone (as wave64 code).
//!
//! Run: `cargo bench -p analysis --bench trace`. Compare the medians of
//! `decode_only` and `decode_cfg_trace` (the whole job from bytes) in the
//! same run; `cfg_and_trace` is the part after decoding. The goal is a
//! median of at most 20 µs for `decode_cfg_trace`.

use analysis::cfg::{Cfg, Program};
use analysis::trace::{trace_code, trace_program, TraceConfig};
use divan::black_box;
use isa::{Decoder, Mode, Target};

fn main() {
    divan::main();
}

fn code() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/radv/instanced-nggc/code.bin"
    );
    std::fs::read(path).expect("corpus/radv/instanced-nggc/code.bin")
}

#[divan::bench]
fn decode_only(b: divan::Bencher) {
    let code = code();
    b.counter(divan::counter::BytesCount::new(code.len()))
        .bench(|| {
            let mut n = 0usize;
            for (_, r) in Decoder::new(black_box(&code), Mode::wave64(Target::Gfx1030)) {
                n += r.is_ok() as usize;
            }
            n
        });
}

#[divan::bench]
fn decode_into_program(b: divan::Bencher) {
    let code = code();
    b.counter(divan::counter::BytesCount::new(code.len()))
        .bench(|| Program::decode(black_box(&code), Mode::wave64(Target::Gfx1030)));
}

#[divan::bench]
fn cfg_and_trace(b: divan::Bencher) {
    let code = code();
    let program = Program::decode(&code, Mode::wave64(Target::Gfx1030));
    let config = TraceConfig::ngg();
    b.counter(divan::counter::BytesCount::new(code.len()))
        .bench(|| {
            let cfg = Cfg::build(black_box(&program));
            trace_program(&program, &cfg, &config)
        });
}

#[divan::bench]
fn decode_cfg_trace(b: divan::Bencher) {
    let code = code();
    let config = TraceConfig::ngg();
    b.counter(divan::counter::BytesCount::new(code.len()))
        .bench(|| trace_code(black_box(&code), Target::Gfx1030, &config));
}
