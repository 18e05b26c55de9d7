//! Structured programs from the encoder through translation and naga
//! validation: the translator never panics, and a module it reports as a
//! success is never rejected by naga (`translate` validates every module
//! and reports a rejection as `TranslateError::Naga`).
//!
//! Run: `cargo +nightly fuzz run translate -- -max_total_time=600`
//! (see README). Crashes become cases in
//! `translator/tests/generated_programs.rs`.

#![no_main]

#[path = "../../translator/tests/support/progs.rs"]
mod progs;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum FItem {
    Inst { t: u8, regs: [u8; 6] },
    If { kind: u8, body: Vec<FItem> },
    Loop { n: u8, body: Vec<FItem> },
}

#[derive(Arbitrary, Debug)]
struct Input {
    legacy: bool,
    traced: bool,
    checked: bool,
    test_outputs: bool,
    items: Vec<FItem>,
}

fn conv(items: &[FItem], depth: u32) -> Vec<progs::Item> {
    items
        .iter()
        .map(|i| match i {
            FItem::Inst { t, regs } => progs::Item::Inst { t: *t, regs: *regs },
            FItem::If { kind, body } => progs::Item::If {
                kind: *kind,
                body: if depth < 3 { conv(body, depth + 1) } else { Vec::new() },
            },
            FItem::Loop { n, body } => progs::Item::Loop {
                n: *n,
                body: if depth < 3 { conv(body, depth + 1) } else { Vec::new() },
            },
        })
        .collect()
}

fuzz_target!(|input: Input| {
    let code = progs::build(&conv(&input.items, 0));
    let (stage, abi) = if input.legacy {
        (isa::Stage::LegacyVs, isa::Abi::legacy_vs())
    } else {
        (isa::Stage::Ngg, isa::Abi::ngg())
    };
    let shader = translator::ShaderInput {
        code: &code,
        target: isa::Target::Gfx1030,
        stage,
        abi,
        wave_size: 64,
    };
    let opts = translator::Options {
        checked: input.checked,
        test_outputs: input.test_outputs,
        validate: true,
        precise: false,
        trust_lane_table_slots: false,
        shading_rate: Default::default(),
        lane_table_arrays: false,
        faults: Default::default(),
    };
    let trace = if input.traced {
        translator::trace_for(&shader)
    } else {
        None
    };
    match translator::translate(&shader, trace.as_ref(), &opts) {
        Ok(_) | Err(translator::TranslateError::Unsupported(_)) => {}
        Err(e) => panic!("{e}"),
    }
});
