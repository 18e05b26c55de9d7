//! `shaderlift run` on lavapipe: the translated corpus vertex shaders give,
//! for every vertex of every draw, exactly the interpreter's exports; the
//! `--checked` guards count nothing for correct narrowed bounds and count
//! violations for bounds one record short.
//!
//! One Vulkan device serves the whole test binary. Without Vulkan the tests
//! print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set (CI sets
//! it). The DRAWS.json files are in `tests/draws/` (made by `make.py`).

use corpus::{Capture, CaptureOptions};
use drawbind::draws::{DrawSpec, DrawsFile, Word32};
use shaderlift_cli::run::{execute, RunOptions, RunReport};
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

fn draws(name: &str) -> DrawsFile {
    let path = format!("{}/cli/tests/draws/{name}.json", root());
    DrawsFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn run(h: &Harness, shader: &str, file: &DrawsFile, opts: &RunOptions) -> RunReport {
    let report =
        execute(&capture(shader), file, opts, h).unwrap_or_else(|e| panic!("{shader}: {e}"));
    eprint!("{shader}:\n{}", shaderlift_cli::run::text_report(&report));
    report
}

/// Every draw ran, compared words, and matched bit for bit.
fn assert_identical(shader: &str, r: &RunReport) {
    assert!(r.draws.len() >= 3, "{shader}: {} draws", r.draws.len());
    for d in &r.draws {
        assert_eq!(d.skipped, None, "{shader} draw {}", d.index);
        assert!(
            d.vertices > 0 && d.words >= 8 * d.vertices,
            "{shader} draw {}: {} words for {} vertices",
            d.index,
            d.words,
            d.vertices
        );
        assert_eq!(d.undefined, 0, "{shader} draw {}", d.index);
        assert_eq!(
            (d.mismatches, d.within_ulp),
            (0, 0),
            "{shader} draw {}: {:?}",
            d.index,
            d.first_mismatches
        );
    }
    assert_eq!(r.mismatches, 0);
}

/// The file has what the issue asks of every shader's draws: a nonzero
/// base-vertex word (user-data word 1), an instanced draw and a split draw.
fn assert_covers_the_required_draws(file: &DrawsFile) {
    assert_ne!(file.user_data[1], Word32(0), "base-vertex word");
    let auto = |f: fn(&DrawSpec) -> bool| file.draws.iter().any(f);
    assert!(auto(
        |d| matches!(d, DrawSpec::Auto { instance_count, .. } if *instance_count > 1)
    ));
    assert!(auto(
        |d| matches!(d, DrawSpec::Auto { chunks, .. } if chunks.len() > 1)
    ));
}

#[test]
fn the_cube_shaders_export_exactly_what_the_interpreter_does_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("cube on lavapipe") else {
        return;
    };
    let file = draws("cube");
    assert_covers_the_required_draws(&file);
    for shader in ["cube", "cube-w32", "cube-legacy-vs"] {
        let r = run(h, shader, &file, &RunOptions::default());
        assert_identical(shader, &r);
        assert_eq!(r.vertices, 36 + 100 + 24 * 3, "{shader}");
    }
}

#[test]
fn the_cube_shaders_match_with_a_zero_base_vertex_word_too() {
    let Some(h) = Harness::shared_or_skip("cube base 0") else {
        return;
    };
    let mut file = draws("cube");
    file.user_data[1] = Word32(0);
    for shader in ["cube", "cube-legacy-vs"] {
        assert_identical(shader, &run(h, shader, &file, &RunOptions::default()));
    }
}

#[test]
fn the_instanced_shaders_export_exactly_what_the_interpreter_does_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("instanced on lavapipe") else {
        return;
    };
    let file = draws("instanced");
    assert_covers_the_required_draws(&file);
    assert_ne!(file.user_data[2], Word32(0), "start-instance word");
    for shader in ["instanced", "instanced-w32", "instanced-legacy-vs"] {
        assert_identical(shader, &run(h, shader, &file, &RunOptions::default()));
    }
}

/// lavapipe lowers GLSL.std.450 `Fma` to a multiply and an add (see
/// vkharness's fma fixture); with full-precision inputs only a correctly
/// rounded fused multiply-add matches `v_fmac_f32`/`v_fma_f32`.
#[test]
fn full_precision_transforms_match_to_the_last_bit() {
    let Some(h) = Harness::shared_or_skip("cube inexact") else {
        return;
    };
    let file = draws("cube-inexact");
    for shader in ["cube", "cube-w32", "cube-legacy-vs"] {
        let r = run(h, shader, &file, &RunOptions::default());
        assert_identical(shader, &r);
    }
}

/// Run `shader` with `--checked`, with the right bounds and one record
/// short, and check the violations each draw counts.
fn check_bounds(h: &Harness, shader: &str, file: &DrawsFile, short_violations: &[u32]) {
    let right = run(
        h,
        shader,
        file,
        &RunOptions {
            checked: true,
            one_record_short: false,
            ..RunOptions::default()
        },
    );
    assert_identical(shader, &right);
    let short = run(
        h,
        shader,
        file,
        &RunOptions {
            checked: true,
            one_record_short: true,
            ..RunOptions::default()
        },
    );
    // Reads past a short binding come from the window, as the baseline
    // binding would give them: the exports do not change.
    assert_identical(shader, &short);
    let got: Vec<_> = short.draws.iter().map(|d| d.violations).collect();
    let want: Vec<_> = short_violations.iter().map(|&v| Some(v)).collect();
    assert_eq!(got, want, "{shader}");
    for (ok, bad) in right.draws.iter().zip(&short.draws) {
        assert_eq!(ok.violations, Some(0), "{shader} draw {}", ok.index);
        assert!(!ok.bindings.is_empty());
        for (a, b) in ok.bindings.iter().zip(&bad.bindings) {
            assert_eq!(b.last_record, a.last_record.map(|l| l - 1), "{shader}");
        }
    }
}

#[test]
fn checked_guards_count_nothing_for_correct_bounds_and_every_overrun_of_a_bound_one_record_short() {
    let Some(h) = Harness::shared_or_skip("checked") else {
        return;
    };
    // cube fetches each vertex's record twice (position, colour): a bound
    // one short counts 2 per instance.
    let cube = draws("cube");
    for shader in ["cube", "cube-w32", "cube-legacy-vs"] {
        check_bounds(h, shader, &cube, &[2, 2, 6]);
    }
    // instanced: the last vertex record once per instance, plus every
    // vertex of the last instance twice (offset, colour): 36×4 draw: 4 +
    // 2×36; 10×1: 1 + 2×10; 96×7: 7 + 2×96.
    let instanced = draws("instanced");
    for shader in ["instanced", "instanced-w32", "instanced-legacy-vs"] {
        check_bounds(h, shader, &instanced, &[76, 21, 199]);
    }
}

#[test]
fn without_checked_there_is_no_feedback_buffer_to_read() {
    let Some(h) = Harness::shared_or_skip("unchecked") else {
        return;
    };
    let r = run(h, "cube", &draws("cube"), &RunOptions::default());
    assert!(r.draws.iter().all(|d| d.violations.is_none()));
}

#[test]
fn a_raw_buffer_dword_that_straddles_num_records_reads_zero_as_in_the_interpreter() {
    let Some(h) = Harness::shared_or_skip("raw straddle") else {
        return;
    };
    // The cube's vertex buffer as a raw buffer (OOB_SELECT 3) of 319 bytes:
    // records 0..=8 fit, record 9's last dword (bytes 316..=319) straddles
    // the limit, and the records after it are out of range.
    let path = format!("{}/cli/tests/draws/cube.json", root());
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let vb = v["memory"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|b| b["addr"] == "0x800000001000")
        .expect("the vertex-buffer descriptor");
    vb["words"][2] = serde_json::json!(319);
    vb["words"][3] = serde_json::json!("0x3104bfac");
    let file = DrawsFile::parse(&v.to_string()).unwrap();
    for shader in ["cube", "cube-legacy-vs"] {
        let r = run(h, shader, &file, &RunOptions::default());
        assert!(r.draws.iter().all(|d| d.words > 0), "{shader}");
        assert_eq!(
            r.mismatches,
            0,
            "{shader}: {:?}",
            r.draws
                .iter()
                .map(|d| &d.first_mismatches)
                .collect::<Vec<_>>()
        );
    }
}
