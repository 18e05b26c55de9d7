//! Translating (not validating) corpus shaders, against decoding the same
//! code in the same run.
//!
//! Run: `cargo bench -p translator --bench translate`. The goal is a
//! median ≤ 1 ms per translation; report it as a ratio to `decode_*` of
//! the same shader.

use std::path::Path;
use translator::{translate, Options};

fn main() {
    divan::main();
}

fn capture(name: &str) -> corpus::Capture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("corpus/radv")
        .join(name);
    corpus::Capture::open(&dir, &Default::default()).unwrap()
}

const NAMES: &[&str] = &["cube", "instanced", "instanced-legacy-vs"];

#[divan::bench(args = NAMES)]
fn translate_only(bencher: divan::Bencher, name: &str) {
    let c = capture(name);
    let input = c.shader_input();
    let opts = Options {
        validate: false,
        faults: Default::default(),
        ..Options::default()
    };
    bencher.bench(|| {
        translate(divan::black_box(&input), None, &opts)
            .unwrap()
            .spirv
            .len()
    });
}

#[divan::bench(args = NAMES)]
fn decode_only(bencher: divan::Bencher, name: &str) {
    let c = capture(name);
    let target = c.target();
    bencher.bench(|| {
        isa::Decoder::new(divan::black_box(&c.code), target)
            .filter(|(_, r)| r.is_ok())
            .count()
    });
}

#[divan::bench(args = NAMES)]
fn translate_and_validate(bencher: divan::Bencher, name: &str) {
    let c = capture(name);
    let input = c.shader_input();
    bencher.bench(|| {
        translate(divan::black_box(&input), None, &Options::default())
            .unwrap()
            .spirv
            .len()
    });
}
