//! Random structured programs (built through `isa::encode`, the same
//! generator as the `translate` fuzz target) never make the translator
//! panic, and every module it reports as a success passes naga (inside
//! `translate`) and spirv-val.

#[path = "support/progs.rs"]
mod progs;
#[path = "support/spirv.rs"]
mod spirv_check;

use translator::{translate, Options, ShaderInput, TranslateError};

fn has_loop(items: &[progs::Item]) -> bool {
    items.iter().any(|i| match i {
        progs::Item::Loop { .. } => true,
        progs::Item::If { body, .. } => has_loop(body),
        progs::Item::Inst { .. } | progs::Item::Exit { .. } => false,
    })
}

/// Whether a loop of the program has a break or continue.
fn has_loop_exit(items: &[progs::Item], in_loop: bool) -> bool {
    items.iter().any(|i| match i {
        progs::Item::Loop { body, .. } => has_loop_exit(body, true),
        progs::Item::If { body, .. } => has_loop_exit(body, in_loop),
        progs::Item::Exit { .. } => in_loop,
        progs::Item::Inst { .. } => false,
    })
}

#[test]
fn generated_programs_translate_or_fail_cleanly_and_successes_validate() {
    let mut rng = progs::Rng(0x5eed_1234_abcd_0001);
    let (mut ok, mut refused, mut checked, mut loops, mut exits) = (0, 0, 0, 0, 0);
    let spirv_val = spirv_check::spirv_val_tool();
    if spirv_val.is_none() {
        eprintln!("note: spirv-val is not installed; only naga checks the generated modules");
    }
    for n in 0..1500 {
        let items = rng.items(0);
        let code = progs::build(&items);
        let abi = if n % 2 == 0 {
            isa::Abi::ngg()
        } else {
            isa::Abi::legacy_vs()
        };
        let input = ShaderInput {
            code: &code,
            target: isa::Target::Gfx1030,
            stage: if n % 2 == 0 {
                isa::Stage::Ngg
            } else {
                isa::Stage::LegacyVs
            },
            abi,
            wave_size: 64,
        };
        let opts = Options {
            checked: n % 3 == 0,
            test_outputs: n % 5 == 0,
            validate: true,
            precise: false,
            trust_lane_table_slots: false,
            shading_rate: Default::default(),
            lane_table_arrays: true,
            faults: Default::default(),
        };
        let trace = if n % 4 == 1 {
            translator::trace_for(&input)
        } else {
            None
        };
        match translate(&input, trace.as_ref(), &opts) {
            Ok(t) => {
                ok += 1;
                loops += has_loop(&items) as u32;
                exits += has_loop_exit(&items, false) as u32;
                if let (true, Some(tool)) = (checked < 300, &spirv_val) {
                    let r =
                        spirv_check::spirv_val_with(tool, "generated", &format!("p{n}"), &t.spirv);
                    checked += 1;
                    r.unwrap_or_else(|e| panic!("program {n}: spirv-val: {e}\n{items:?}"));
                }
            }
            Err(TranslateError::Unsupported(list)) => {
                refused += 1;
                assert!(!list.0.is_empty());
                // Loops with breaks and continues are reducible by
                // construction.
                for u in &list.0 {
                    assert!(
                        !matches!(
                            u.construct,
                            translator::Construct::Control(translator::Control::Structure(
                                translator::structure::StructureError::Irreducible { .. }
                            ))
                        ),
                        "program {n}: {u:?}\n{items:?}"
                    );
                    if std::env::var_os("SHOW_CONTROL").is_some() {
                        if let translator::Construct::Control(c) = &u.construct {
                            eprintln!("program {n}: {c}");
                        }
                    }
                }
            }
            Err(e) => panic!("program {n}: {e}\n{items:?}"),
        }
    }
    eprintln!(
        "{ok} translated ({loops} with loops, {exits} with breaks or continues), {refused} refused, {checked} checked by spirv-val"
    );
    assert!(
        loops >= 20,
        "too few translated programs with loops ({loops})"
    );
    assert!(
        exits >= 20,
        "too few translated programs with breaks or continues ({exits})"
    );
    assert!(
        ok >= 150,
        "too few programs translate ({ok}); the generator or lifter regressed"
    );
    assert!(
        refused >= 150,
        "too few refusals ({refused}); the generator lost its unsupported templates"
    );
}

#[test]
fn random_bytes_translate_or_fail_without_panicking() {
    let mut rng = progs::Rng(0x0bad_c0de_1234_5678);
    for n in 0..3000 {
        let len = (rng.next() % 64) as usize * 4 + (n % 4);
        let code: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        for (stage, abi, wave) in [
            (isa::Stage::Ngg, isa::Abi::ngg(), 64),
            (isa::Stage::LegacyVs, isa::Abi::legacy_vs(), 32),
        ] {
            let input = ShaderInput {
                code: &code,
                target: isa::Target::Gfx1030,
                stage,
                abi,
                wave_size: wave,
            };
            match translate(&input, None, &Options::default()) {
                Ok(_) | Err(TranslateError::Unsupported(_)) => {}
                Err(e) => panic!("blob {n}: {e}"),
            }
        }
    }
}
