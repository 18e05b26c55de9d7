//! `shaderlift run` of NGG shaders as a compute pass on lavapipe
//! (`translator::translate_ngg`, `cli/src/run/ngg.rs`): every exported
//! position, parameter, primitive (with its null bit) and each subgroup's
//! alloc counts equal the interpreter's over several draws, and a broken
//! lowering turns the check red.
//!
//! One Vulkan device serves the whole test binary. Without Vulkan the tests
//! print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::ngg::{execute, execute_translation, NggRunReport};
use translator::wave::ComputeFaults;
use vkharness::Harness;

fn root() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/..")
}

fn capture(name: &str) -> Capture {
    Capture::open(
        format!("{}/corpus/radv/{name}", root()),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn draws(name: &str) -> drawbind::draws::DrawsFile {
    let path = format!("{}/cli/tests/draws/{name}.json", root());
    drawbind::draws::DrawsFile::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn harness() -> Option<&'static Harness> {
    match Harness::shared() {
        Ok(h) => Some(h),
        Err(e) => {
            assert!(
                std::env::var_os("SHADERLIFT_REQUIRE_VULKAN").is_none(),
                "no Vulkan device: {e}"
            );
            eprintln!("note: no Vulkan device ({e}); skipped");
            None
        }
    }
}

fn assert_identical(shader: &str, r: &NggRunReport) {
    eprint!("{shader}:\n{}", r.text());
    assert!(r.draws.len() >= 2, "{shader}: {} draws ran", r.draws.len());
    for d in &r.draws {
        assert!(d.words > 0, "{shader} draw {}: nothing compared", d.index);
        assert!(d.primitives > 0, "{shader} draw {}: no primitive", d.index);
        assert_eq!(
            (d.mismatches, d.undefined, d.findings),
            (0, 0, 0),
            "{shader} draw {}: {:?}",
            d.index,
            d.first_mismatches
        );
    }
}

#[test]
fn passthrough_ngg_shaders_as_a_compute_pass_export_the_interpreters_words() {
    let Some(h) = harness() else { return };
    for (shader, file) in [
        ("cube", "cube"),
        ("cube-w32", "cube"),
        ("instanced", "instanced"),
        ("instanced-w32", "instanced"),
    ] {
        let c = capture(shader);
        let r = execute(&c, &draws(file), h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_identical(shader, &r);
    }
}

/// Translate `c` as an NGG compute pass with `faults` and run it.
fn run_broken(h: &Harness, c: &Capture, file: &str, faults: ComputeFaults) -> NggRunReport {
    let input = c.shader_input();
    let entry = translator::ngg_entry_of(&input);
    let opts = translator::Options {
        precise: true,
        ..Default::default()
    };
    let tr = translator::translate_ngg_with_faults(&input, &entry, &opts, faults).unwrap();
    execute_translation(c, &draws(file), h, &tr).unwrap()
}

#[test]
fn culling_shaders_export_the_interpreters_words_and_cull_decisions() {
    let Some(h) = harness() else { return };
    for (shader, file) in [
        ("cube-nggc", "cube-nggc"),
        ("cube-nggc-w32", "cube-nggc"),
        ("instanced-nggc", "instanced-nggc"),
        ("instanced-nggc-w32", "instanced-nggc"),
    ] {
        let c = capture(shader);
        let r = execute(&c, &draws(file), h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_identical(shader, &r);
        assert_eq!(r.draws.len(), 3, "{shader}: every draw of the file runs");
        // The scene culls some primitives and keeps others.
        let culled: u64 = r.draws.iter().map(|d| d.culled).sum();
        let prims: u64 = r.draws.iter().map(|d| d.primitives).sum();
        assert!(
            culled > 0 && culled < prims,
            "{shader}: {culled}/{prims} culled"
        );
    }
}

#[test]
fn a_broken_mbcnt_turns_the_culling_run_red() {
    let Some(h) = harness() else { return };
    let faults = ComputeFaults {
        mbcnt_at_or_below: true,
        ..Default::default()
    };
    for shader in ["cube-nggc", "cube-nggc-w32"] {
        let r = run_broken(h, &capture(shader), "cube-nggc", faults);
        eprint!("{shader} (mbcnt at or below):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the broken mbcnt went unnoticed"
        );
    }
}

#[test]
fn a_wrong_ngg_entry_state_turns_the_ngg_pass_run_red() {
    let Some(h) = harness() else { return };
    let faults = ComputeFaults {
        ngg_vertex_ids_shifted: true,
        ..Default::default()
    };
    for shader in ["cube", "cube-w32"] {
        let r = run_broken(h, &capture(shader), "cube", faults);
        eprint!("{shader} (vertex ids shifted):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the broken entry state went unnoticed"
        );
    }
}
