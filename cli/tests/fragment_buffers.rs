//! `shaderlift run` on pixel shaders that read memory through traced buffer
//! descriptors, and on a scene whose first data words compare nothing
//! (lavapipe).
//!
//! - Buffers: the scene lays out the compute dispatches' synthesized inputs
//!   (tables, V#s over windows), the host binds every descriptor at its
//!   bind range, and the exports match the interpreter's on every pixel; the
//!   negative control binds each descriptor's bytes one dword late
//!   (`FragmentOptions::buffers_one_dword_late`) and turns the run red.
//! - A switch word no case tests leaves every export undefined: the scene
//!   runs again with fixed free words, compares every export word, and a
//!   fault in the path it then covers (flipped texel rows in the reference)
//!   turns it red.
//!
//! Without Vulkan the tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::fragment::{execute_fragment, FragmentOptions, EXTENT};
use shaderlift_cli::run::{text_report, RunReport};
use vkharness::Harness;

const PIXELS: u64 = (EXTENT * EXTENT) as u64;

fn run(h: &Harness, path: &str, opts: &FragmentOptions) -> RunReport {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let c = Capture::open(format!("{root}/{path}"), &CaptureOptions::default()).unwrap();
    let r = execute_fragment(&c, h, opts)
        .and_then(|o| o.report())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    eprint!("{path}:\n{}", text_report(&r));
    r
}

/// `words` export words compared, all equal, none undefined.
fn assert_clean(r: &RunReport, path: &str, words: u64) {
    assert_eq!(r.words, words, "{path}: every export word compared");
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{path}: {:?}",
        r.draws[0].first_mismatches
    );
}

/// `path` binds its descriptors and matches on all of `words` export words;
/// its descriptors bound one dword late turn it red.
fn buffers_clean_then_red(h: &Harness, path: &str, words: u64) {
    let r = run(h, path, &FragmentOptions::default());
    assert!(
        !r.draws[0].bindings.is_empty(),
        "{path}: no descriptor bound"
    );
    assert_clean(&r, path, words);
    let late = FragmentOptions {
        buffers_one_dword_late: true,
        ..FragmentOptions::default()
    };
    let r = run(h, path, &late);
    assert!(
        r.mismatches > 0,
        "{path}: a binding one dword late went unnoticed"
    );
}

#[test]
fn a_uniform_block_indexed_by_a_flat_input_is_bound_at_its_range_and_one_dword_late_turns_red() {
    let Some(h) = Harness::shared_or_skip("ps_buffer_flat_index") else {
        return;
    };
    buffers_clean_then_red(h, "cli/tests/fixtures/ps-buffer-flat-index", 4 * PIXELS);
}

#[test]
fn uniform_words_beside_a_sampled_image_reach_both_sides_and_one_dword_late_turns_red() {
    let Some(h) = Harness::shared_or_skip("ps_buffer_uniform_lod") else {
        return;
    };
    buffers_clean_then_red(h, "cli/tests/fixtures/ps-buffer-uniform-lod", 4 * PIXELS);
}

#[test]
fn a_switch_word_no_case_tests_runs_again_on_fixed_words_and_compares_every_export() {
    let Some(h) = Harness::shared_or_skip("ps_switch_word") else {
        return;
    };
    let path = "cli/tests/fixtures/ps-switch-word";
    // Two targets (mrt0, mrt1), four words each, every pixel.
    assert_clean(&run(h, path, &FragmentOptions::default()), path, 8 * PIXELS);
    // The retry covers the texture path: texel rows flipped in the
    // reference show.
    let flipped = FragmentOptions {
        flip_texel_rows_in_reference: true,
        ..FragmentOptions::default()
    };
    let r = run(h, path, &flipped);
    assert!(r.mismatches > 0, "flipped texel rows went unnoticed");
    // Given user data is the caller's: no retry, nothing compared.
    let given = FragmentOptions {
        user_data: Some(vec![0x0010_0000, 0, 0, 0, 5.0f32.to_bits()]),
        ..FragmentOptions::default()
    };
    assert_eq!(run(h, path, &given).words, 0);
}
