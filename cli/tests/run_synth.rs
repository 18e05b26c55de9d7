//! `shaderlift run` of compute shaders on synthesized dispatches
//! (`run::synth`) and of whole capture trees (`run::tree`), on lavapipe:
//! the bundled compute shaders and the buffer-device-address fixtures write
//! exactly the interpreter's words from inputs laid out from their traces
//! alone; a reference that computes from skewed inputs (a fault in the
//! comparison) turns the runs red; the bundled corpus runs as a tree with
//! every entry clean.
//!
//! One Vulkan device serves the whole test binary. Without Vulkan the tests
//! print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::dispatch::{self, DispatchFaults, DispatchRunReport};
use shaderlift_cli::run::synth;
use shaderlift_cli::run::tree::{self, Inputs, Outcome};
use vkharness::Harness;

fn root() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/..")
}

fn open(rel: &str) -> Capture {
    Capture::open(format!("{}/{rel}", root()), &CaptureOptions::default()).unwrap()
}

/// The bundled compute shaders and the fixtures whose inputs the synthesis
/// must find by itself (a 64-bit user pointer offset by the workgroup id).
const SHADERS: [&str; 6] = [
    "corpus/radv/compute",
    "corpus/radv/compute-w32",
    "cli/tests/dispatch/bda-update-vbo",
    "cli/tests/dispatch/bda-update-vbo-w32",
    "cli/tests/dispatch/device-fault-update-vbo",
    "cli/tests/dispatch/device-fault-update-vbo-w32",
];

fn assert_clean(shader: &str, r: &DispatchRunReport) {
    eprint!("{shader}:\n{}", r.text());
    assert!(r.dispatches.len() >= 2, "{shader}");
    assert!(r.words > 0, "{shader}: nothing compared");
    for d in &r.dispatches {
        assert_eq!(
            (d.mismatches, d.findings),
            (0, 0),
            "{shader} dispatch {}: {:?}",
            d.index,
            d.first_mismatches
        );
    }
}

#[test]
fn compute_shaders_write_the_interpreters_words_on_synthesized_dispatches() {
    let Some(h) = Harness::shared_or_skip(
        "compute_shaders_write_the_interpreters_words_on_synthesized_dispatches",
    ) else {
        return;
    };
    for shader in SHADERS {
        let (_, r) = synth::execute(&open(shader), h, DispatchFaults::default())
            .unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_clean(shader, &r);
    }
}

#[test]
fn a_reference_run_on_skewed_user_data_turns_the_synthesized_runs_red() {
    let Some(h) = Harness::shared_or_skip(
        "a_reference_run_on_skewed_user_data_turns_the_synthesized_runs_red",
    ) else {
        return;
    };
    let faults = DispatchFaults {
        skew_reference_user_data: true,
        ..DispatchFaults::default()
    };
    for shader in SHADERS {
        let (_, r) =
            synth::execute(&open(shader), h, faults).unwrap_or_else(|e| panic!("{shader}: {e}"));
        eprintln!(
            "{shader} (skewed reference): {} mismatches, {} findings",
            r.mismatches, r.findings
        );
        assert!(
            r.mismatches + r.findings as u64 > 0,
            "{shader}: the fault went unnoticed"
        );
    }
}

/// Fixtures with images (copies of developer-set captures): an image load
/// and a store of all four components (wave64 and wave32), a storage
/// buffer read with a store whose dmask leaves the alpha out, and a
/// sample (float push constants: the float retry) with a store.
const IMAGE_SHADERS: [&str; 4] = [
    "cli/tests/dispatch/game-of-life-mutate",
    "cli/tests/dispatch/game-of-life-mutate-w32",
    "cli/tests/dispatch/blob-image-store",
    "cli/tests/dispatch/threshold-sample-store",
];

/// Per dispatch: (image words compared, mismatches, findings).
fn image_counts(r: &DispatchRunReport) -> Vec<(u64, u64, usize)> {
    r.dispatches
        .iter()
        .map(|d| (d.image_words, d.mismatches, d.findings))
        .collect()
}

#[test]
fn compute_shaders_with_images_write_the_interpreters_texels_on_synthesized_dispatches() {
    let Some(h) = Harness::shared_or_skip(
        "compute_shaders_with_images_write_the_interpreters_texels_on_synthesized_dispatches",
    ) else {
        return;
    };
    for shader in IMAGE_SHADERS {
        let (_, r) = synth::execute(&open(shader), h, DispatchFaults::default())
            .unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_clean(shader, &r);
        // Every invocation of the 8×8 workgroups stores one texel of 16
        // bytes inside the 16×16 image: 64 · 4 dwords per workgroup.
        let want: Vec<(u64, u64, usize)> = r
            .dispatches
            .iter()
            .map(|d| (256 * d.groups.iter().product::<u32>() as u64, 0, 0))
            .collect();
        assert_eq!(image_counts(&r), want, "{shader}");
    }
}

#[test]
fn image_stores_placed_one_texel_right_turn_the_image_runs_red() {
    let Some(h) =
        Harness::shared_or_skip("image_stores_placed_one_texel_right_turn_the_image_runs_red")
    else {
        return;
    };
    let faults = DispatchFaults {
        image_stores_one_texel_right: true,
        ..DispatchFaults::default()
    };
    for shader in IMAGE_SHADERS {
        let (_, r) =
            synth::execute(&open(shader), h, faults).unwrap_or_else(|e| panic!("{shader}: {e}"));
        eprintln!("{shader} (texel shifted): {}", r.text());
        for d in &r.dispatches {
            assert!(d.mismatches > 0, "{shader} dispatch {}: unnoticed", d.index);
        }
    }
}

#[test]
fn a_translation_with_reversed_image_components_turns_the_image_runs_red() {
    let Some(h) = Harness::shared_or_skip(
        "a_translation_with_reversed_image_components_turns_the_image_runs_red",
    ) else {
        return;
    };
    // The game-of-life shader loads a texel and stores it back with all four
    // components (a reversal on both sides cancels out), and the reversal
    // does not show on the blob shader's synthesized inputs; the threshold
    // shader samples three distinct components and stores them with an
    // alpha of 1.
    for shader in &IMAGE_SHADERS[3..] {
        let c = open(shader);
        let opts = translator::Options {
            precise: true,
            faults: translator::Faults {
                image_dmask_reversed: true,
                ..translator::Faults::default()
            },
            ..translator::Options::default()
        };
        let tr =
            translator::translate_compute(&c.shader_input(), &c.compute_entry().unwrap(), &opts)
                .unwrap();
        // The inputs the sound run chose (the float retry).
        let ((file, groups), clean) = synth::execute(&c, h, DispatchFaults::default()).unwrap();
        assert_clean(shader, &clean);
        let r = dispatch::execute_translation(&c, &file, &groups, h, &tr).unwrap();
        eprintln!("{shader} (reversed dmask): {}", r.text());
        assert!(r.mismatches > 0, "{shader}: the fault went unnoticed");
    }
}

#[test]
fn a_loop_counted_by_a_float_window_word_is_retried_on_integer_windows() {
    let Some(h) = Harness::shared_or_skip(
        "a_loop_counted_by_a_float_window_word_is_retried_on_integer_windows",
    ) else {
        return;
    };
    let c = open("cli/tests/dispatch/shading-rate-loop");
    // Its loop bounds are storage-buffer words a vector load reads: floats
    // 1.0..=16.0 in the first inputs, about 10^9 iterations as integers.
    let (file, groups) = synth::synthesize(&c).unwrap();
    match dispatch::execute(&c, &file, &groups, h) {
        Err(shaderlift_cli::CliError::NotRun(why)) => assert!(why.contains("step bound"), "{why}"),
        other => panic!("expected the step bound: {other:?}"),
    }
    let (inputs, r) = synth::execute(&c, h, DispatchFaults::default()).unwrap();
    assert_eq!(inputs, synth::synthesize_integer_windows(&c).unwrap());
    assert_clean("shading-rate-loop", &r);
    assert!(
        r.dispatches.iter().all(|d| d.image_words > 0),
        "{}",
        r.text()
    );
}

#[test]
fn a_user_pointer_offset_by_the_workgroup_id_gets_a_table_of_pointers() {
    for shader in &SHADERS[2..] {
        assert_eq!(synth::user_pointers(&open(shader)), vec![0], "{shader}");
    }
    // The bundled compute shader reads its descriptor set through RADV's
    // 32-bit pointer, which the trace already follows.
    assert!(synth::user_pointers(&open("corpus/radv/compute")).is_empty());
}

#[test]
fn a_flag_that_stores_through_a_wild_address_is_retried_with_zero_free_words() {
    let Some(h) = Harness::shared_or_skip(
        "a_flag_that_stores_through_a_wild_address_is_retried_with_zero_free_words",
    ) else {
        return;
    };
    let c = open("cli/tests/dispatch/device-fault-update-vbo");
    // The first inputs set `trigger_device_fault_invalid_address`: the
    // shader stores a million records past its buffer, outside guest memory.
    let (file, groups) = synth::synthesize(&c).unwrap();
    let r = dispatch::execute(&c, &file, &groups, h).unwrap();
    assert!(
        r.dispatches
            .iter()
            .flat_map(|d| &d.first_mismatches)
            .any(|m| m.device.is_none()),
        "{}",
        r.text()
    );
    let (inputs, r) = synth::execute(&c, h, DispatchFaults::default()).unwrap();
    assert_eq!(inputs, synth::synthesize_zero_free_words(&c).unwrap());
    assert_clean("device-fault-update-vbo", &r);
}

#[test]
fn emitted_dispatches_read_back_as_the_same_inputs() {
    for shader in SHADERS {
        let d = synth::synthesize(&open(shader)).unwrap();
        let text = synth::to_json(&d).to_string();
        let back = dispatch::split(&text).unwrap().expect("dispatches");
        assert_eq!(back, d, "{shader}");
    }
}

#[test]
fn the_bundled_corpus_runs_as_a_tree_with_every_entry_clean() {
    let Some(h) =
        Harness::shared_or_skip("the_bundled_corpus_runs_as_a_tree_with_every_entry_clean")
    else {
        return;
    };
    let dir = format!("{}/corpus/radv", root());
    assert!(tree::is_tree(std::path::Path::new(&dir)));
    let r = tree::run_tree(
        std::path::Path::new(&dir),
        None,
        &CaptureOptions::default(),
        h,
    )
    .unwrap();
    eprint!("{}", r.text());
    let t = &r.totals;
    assert_eq!(t.entries, 13);
    assert_eq!((t.ran, t.clean, t.mismatches, t.failed), (13, 13, 0, 0));
    for e in &r.entries {
        if e.stage == "cs" {
            assert!(
                matches!(
                    e.outcome,
                    Outcome::Ran {
                        inputs: Inputs::Synthesized,
                        ..
                    }
                ),
                "{}: {:?}",
                e.name,
                e.outcome
            );
        }
    }
}

#[test]
fn the_dispatch_fixtures_run_as_a_tree_on_synthesized_inputs_without_mismatches() {
    let Some(h) = Harness::shared_or_skip(
        "the_dispatch_fixtures_run_as_a_tree_on_synthesized_inputs_without_mismatches",
    ) else {
        return;
    };
    let dir = format!("{}/cli/tests/dispatch", root());
    let r = tree::run_tree(
        std::path::Path::new(&dir),
        None,
        &CaptureOptions::default(),
        h,
    )
    .unwrap();
    eprint!("{}", r.text());
    let t = &r.totals;
    // 37 fixtures; the one the translator must refuse (`undef-demanded`, a
    // negative control of run_dispatch.rs) is not run, nor is `no-op`, which
    // has no store. (`exec-raise-unproven-w32`'s two whole waves run one
    // wave per host workgroup.)
    assert_eq!((t.entries, t.ran, t.mismatches, t.failed), (37, 35, 0, 0));
    let refused: Vec<&str> = r
        .entries
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::NotRun { .. }))
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(refused, ["no-op", "undef-demanded"]);
    // `compute-memops(-w32)` reach their global memory through VGPR pairs
    // built from user data: the synthesis lays out the memory they point
    // at (`run::pointers`), so they run clean like every other entry.
    let unclean: Vec<&str> = r
        .entries
        .iter()
        .filter(|e| e.outcome.is_failure())
        .map(|e| e.name.as_str())
        .collect();
    assert!(unclean.is_empty(), "{unclean:?}");
    assert_eq!(t.clean, 35);
}

#[test]
fn run_writes_its_synthesized_dispatches_and_reads_them_back() {
    if Harness::shared_or_skip("run_writes_its_synthesized_dispatches_and_reads_them_back")
        .is_none()
    {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_synth");
    std::fs::create_dir_all(&dir).unwrap();
    let emitted = dir.join("compute.json");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderlift"))
            .current_dir(root())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let e = emitted.to_str().unwrap();
    let first = run(&["run", "corpus/radv/compute", "--emit-dispatch", e]);
    let again = run(&["run", "corpus/radv/compute", "--draws", e]);
    assert_eq!(first, again);
    assert!(first.contains(" 0 mismatches"), "{first}");
    let tree = run(&["run", "corpus/radv", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&tree).unwrap();
    assert_eq!(v["totals"]["mismatches"], 0);
    assert_eq!(v["totals"]["ran"], 13);
}

#[test]
fn emit_dispatch_never_overwrites_the_capture_it_runs() {
    // A copy of the bundled compute capture; the refusal comes before any
    // device is opened, so this needs no Vulkan.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_synth_refuse");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["code.bin", "meta.json"] {
        std::fs::copy(format!("{}/corpus/radv/compute/{f}", root()), dir.join(f)).unwrap();
    }
    let meta = dir.join("meta.json");
    let before = std::fs::read(&meta).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(["run", dir.to_str().unwrap(), "--emit-dispatch"])
        .arg(&meta)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is an input of this command"), "{err}");
    assert_eq!(std::fs::read(&meta).unwrap(), before);
}

#[test]
fn packed_f16_math_on_half_written_registers_is_compared_and_an_op_sel_hi_fault_turns_it_red() {
    let Some(h) = Harness::shared_or_skip(
        "packed_f16_math_on_half_written_registers_is_compared_and_an_op_sel_hi_fault_turns_it_red",
    ) else {
        return;
    };
    // ACO writes the low halves of v4..v8 only (`v_mul_f16`, SDWA word
    // moves) and reads them through packed math that selects those halves
    // (`op_sel_hi:[1,0,1]`): each result half is as defined as the halves
    // it reads, so the d16 image store's texels are defined and compared.
    let shader = "cli/tests/dispatch/fp16-fallback-image-store";
    let c = open(shader);
    let ((file, groups), clean) = synth::execute(&c, h, DispatchFaults::default()).unwrap();
    assert_clean(shader, &clean);
    assert!(
        clean.dispatches.iter().all(|d| d.image_words > 0),
        "{}",
        clean.text()
    );
    // Negative control: packed math that ignores op_sel_hi (the high result
    // half reads the sources' low halves) in the translation.
    let opts = translator::Options {
        precise: true,
        faults: translator::Faults {
            packed_op_sel_hi_ignored: true,
            ..translator::Faults::default()
        },
        ..translator::Options::default()
    };
    let tr = translator::translate_compute(&c.shader_input(), &c.compute_entry().unwrap(), &opts)
        .unwrap();
    let r = dispatch::execute_translation(&c, &file, &groups, h, &tr).unwrap();
    eprintln!("{shader} (op_sel_hi ignored): {}", r.text());
    assert!(r.mismatches > 0, "{shader}: the fault went unnoticed");
}

#[test]
fn a_shader_without_a_store_is_not_run_for_want_of_stores() {
    let no_op = open("cli/tests/dispatch/no-op");
    assert!(!tree::writes_guest_memory(&no_op));
    assert!(tree::writes_guest_memory(&open("corpus/radv/compute")));
    assert!(tree::writes_guest_memory(&open(
        "cli/tests/dispatch/fp16-fallback-image-store"
    )));
    let Some(h) = Harness::shared_or_skip("a_shader_without_a_store_is_not_run_for_want_of_stores")
    else {
        return;
    };
    match tree::run_capture(&no_op, None, h) {
        Outcome::NotRun {
            reason: tree::NotRunReason::NoStores,
            ..
        } => {}
        o => panic!("expected no stores, got {o:?}"),
    }
}
