//! `shaderlift run` on pixel shaders (lavapipe): the translated fragment
//! shader's exports equal the interpreter's for every pixel of the exact-
//! barycentric scene (`shaderlift_cli::run::fragment`), and each negative
//! control turns the comparison red: barycentrics swapped in the
//! reference (interpolation), the discard dropped (`PsFaults::drop_discard`),
//! DPP `quad_perm` reading the horizontal neighbour
//! (`PsFaults::quad_lane_flipped`), on `fwidth` and on the pixel coordinates
//! (which checks the device's quads pixel by pixel), and a block argument that
//! known branch conditions select away on one edge dropped on every edge
//! (`PsFaults::known_argument_every_edge`), and 16-bit interpolation
//! reading the other half of the parameter words
//! (`PsFaults::interp16_other_half`), and the VRS rate bits of the
//! `ancillary` entry VGPR with their axes swapped
//! (`PsFaults::shading_rate_axes_swapped`), raw barycentric entry
//! VGPRs reading the other weight of their pair
//! (`PsFaults::raw_barycentrics_swapped`), and EXEC raises in a
//! discard's region checked against the EXEC before the discard
//! (`PsFaults::discard_branch_exec_before`).
//!
//! Without Vulkan the tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::fragment::{execute_fragment, FragmentOptions, EXTENT};
use shaderlift_cli::run::{text_report, RunReport};
use vkharness::Harness;

fn open(path: &str) -> Capture {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    Capture::open(format!("{root}/{path}"), &CaptureOptions::default()).unwrap()
}

fn run(h: &Harness, path: &str, opts: &FragmentOptions) -> RunReport {
    let r = execute_fragment(&open(path), h, opts)
        .and_then(|o| o.report())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    eprint!("{path}:\n{}", text_report(&r));
    r
}

/// The circle shader's inlined push constants: resolution 16×16, centre
/// (0, 0), colour (0.25, 0.5, 0.75): the pixels within 0.2 of the
/// centre are kept, the others discarded.
fn circle_user_data() -> Vec<u32> {
    [16.0f32, 16.0, 0.0, 0.0, 0.25, 0.5, 0.75]
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

const PIXELS: u64 = (EXTENT * EXTENT) as u64;

/// `path` matches on every word of the default scene, and `broken` turns
/// it red (`what` names the broken rule); the broken run's report.
fn clean_then_red(h: &Harness, path: &str, broken: &FragmentOptions, what: &str) -> RunReport {
    assert_every_word_matches(&run(h, path, &FragmentOptions::default()));
    let r = run(h, path, broken);
    assert!(r.mismatches > 0, "{path}: {what} went unnoticed");
    r
}

/// On the host's word for an unmasked per-lane table index
/// (`trust_lane_table_slots`): `path` runs clean, and with `faults` red.
fn trusted_clean_then_red(
    h: &Harness,
    path: &str,
    faults: translator::Faults,
    what: &str,
) -> RunReport {
    let trusted = FragmentOptions {
        trust_lane_table_slots: true,
        ..Default::default()
    };
    assert_every_word_matches(&run(h, path, &trusted));
    let broken = FragmentOptions {
        translator_faults: faults,
        ..trusted
    };
    let r = run(h, path, &broken);
    assert!(r.mismatches > 0, "{path}: {what} went unnoticed");
    r
}

/// Every pixel's four mrt0 words compared, all equal.
fn assert_every_word_matches(r: &RunReport) {
    assert_eq!(r.words, 4 * PIXELS, "every pixel's four mrt0 words");
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{:?}",
        r.draws[0].first_mismatches
    );
}

#[test]
fn fragment_color_interpolates_and_exports_exactly_what_the_interpreter_does() {
    let Some(h) = Harness::shared_or_skip("fragment_color") else {
        return;
    };
    let r = run(h, "corpus/radv/fragment-color", &FragmentOptions::default());
    assert_eq!(r.vertices, PIXELS);
    assert_eq!(r.words, 4 * PIXELS, "every pixel's four mrt0 words");
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{:?}",
        r.draws[0].first_mismatches
    );
}

#[test]
fn swapped_barycentrics_in_the_reference_turn_the_comparison_red() {
    let Some(h) = Harness::shared_or_skip("swapped_barycentrics") else {
        return;
    };
    let opts = FragmentOptions {
        swap_ij_in_reference: true,
        ..Default::default()
    };
    let r = run(h, "corpus/radv/fragment-color", &opts);
    // Off the diagonal every pixel's i and j differ, and so does every
    // channel (its deltas towards vertices 1 and 2 differ).
    assert!(
        r.mismatches >= 4 * (PIXELS - EXTENT as u64),
        "{} mismatches",
        r.mismatches
    );
}

#[test]
fn discarded_pixels_export_nothing_on_either_side() {
    let Some(h) = Harness::shared_or_skip("discard") else {
        return;
    };
    let opts = FragmentOptions {
        user_data: Some(circle_user_data()),
        ..Default::default()
    };
    let r = run(h, "cli/tests/fixtures/ps-discard", &opts);
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{:?}",
        r.draws[0].first_mismatches
    );
    assert_eq!(r.words, 4 * PIXELS);
    // Negative control: with the discard dropped the discarded pixels are
    // written too.
    let broken = FragmentOptions {
        drop_discard: true,
        ..opts
    };
    let r = run(h, "cli/tests/fixtures/ps-discard", &broken);
    assert!(r.mismatches > 0, "dropping the discard went unnoticed");
    assert!(
        r.mismatches < 4 * PIXELS,
        "some pixels must be kept: {} mismatches",
        r.mismatches
    );
}

#[test]
fn a_sampled_texture_reaches_the_exports_exactly_and_flipped_rows_turn_it_red() {
    let Some(h) = Harness::shared_or_skip("images") else {
        return;
    };
    // texture(base_color_texture, in_uv) × factors: nearest texels of the
    // scene image (run::images), a quarter texel from every border.
    let path = "translator/tests/fixtures/images/base-frag";
    // Negative control: the interpreter's texture with its rows reversed.
    let broken = FragmentOptions {
        flip_texel_rows_in_reference: true,
        ..Default::default()
    };
    clean_then_red(h, path, &broken, "flipped texel rows");
}

#[test]
fn uniform_words_read_through_table_descriptors_reach_both_sides_and_a_changed_word_turns_red() {
    let Some(h) = Harness::shared_or_skip("uniform_words") else {
        return;
    };
    // Push-constant words the translation reads through a V# in a
    // user-data table (a UBO), and an image: the scene gives the table, the
    // V#, the buffer words and the texels (run::images).
    let path = "translator/tests/fixtures/images/postprocessing-chromatic-aberration-frag";
    let r = run(h, path, &FragmentOptions::default());
    assert!(r.words > 0);
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{:?}",
        r.draws[0].first_mismatches
    );
    let broken = FragmentOptions {
        perturb_data_words_in_reference: true,
        ..Default::default()
    };
    let r = run(h, path, &broken);
    assert!(r.mismatches > 0, "a changed uniform word went unnoticed");
}

/// Run `path` with the default scene and check that every word compared
/// equal and none was left undefined.
fn run_clean(h: &Harness, path: &str) -> RunReport {
    let r = run(h, path, &FragmentOptions::default());
    assert!(r.words > 0, "{path}: nothing compared");
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{path}: {:?}",
        r.draws[0].first_mismatches
    );
    r
}

/// The default scene, translated with `faults`.
fn with_faults(faults: translator::Faults) -> FragmentOptions {
    FragmentOptions {
        translator_faults: faults,
        ..Default::default()
    }
}

#[test]
fn descriptors_at_a_per_draw_table_index_bind_the_slot_the_draw_selects_and_the_next_slot_turns_red(
) {
    let Some(h) = Harness::shared_or_skip("indexed_descriptors") else {
        return;
    };
    // A T# at `table(ud0) + ud2·64` (a push-constant index), and an S# at
    // `table(ud0) + (UBO word << 4) + 0x60`: the scene gives each index
    // the value 1 and writes a decoy descriptor (the T# one texel row
    // further) in the slots before and after it (run::images).
    let path = "translator/tests/fixtures/images/descriptor-indexing-update-after-bind-quads-frag";
    run_clean(h, path);
    run_clean(
        h,
        "translator/tests/fixtures/images/texture-mipmap-generation-texture-frag",
    );
    // Negative control: the translation resolves the index one slot
    // further (`Faults::indexed_table_off_by_one`): the scene, built from
    // that manifest, puts the descriptor one slot further too, so the
    // interpreter (reading the draw's slot) samples a decoy.
    let broken = with_faults(translator::Faults {
        indexed_table_off_by_one: true,
        ..Default::default()
    });
    let r = run(h, path, &broken);
    assert!(r.mismatches > 0, "the neighbouring slot went unnoticed");
}

#[test]
fn descriptors_at_a_per_lane_table_slot_sample_the_slot_each_lane_selects_and_the_next_slot_turns_red(
) {
    let Some(h) = Harness::shared_or_skip("lane_table_descriptors") else {
        return;
    };
    // `texture(textures[in_texture_index], uv)` with a flat index: RADV
    // reads the T# and S# at `table(ud0) + v_readfirstlane(index·0x60)`.
    // The translation samples each of the first slots (one image binding
    // each, distinct texels in the scene) and every lane takes its own
    // slot's result; the scene gives the flat index the value 1. The index
    // is not masked, so the expansion stands on the host's word
    // (`trust_lane_table_slots`).
    let path = "translator/tests/fixtures/images/multi-draw-indirect-multi-draw-indirect-frag";
    // Negative control: slot j's operation reads slot j + 1's descriptor
    // (`Faults::lane_table_off_by_one`).
    let faults = translator::Faults {
        lane_table_off_by_one: true,
        ..Default::default()
    };
    trusted_clean_then_red(h, path, faults, "the neighbouring slot");
}

#[test]
fn a_waterfall_loop_runs_its_body_once_per_lane_with_its_own_index_and_a_skipped_body_turns_red() {
    let Some(h) = Harness::shared_or_skip("waterfall") else {
        return;
    };
    // `texture(nonuniformEXT(sampler2D(Textures[in_texture_index], ..)))`:
    // ACO's waterfall loop (v_readfirstlane of the flat index, v_cmpx_eq,
    // the T# load at `table + s·64` and the sample, s_andn2 of the done
    // lanes, loop while any is left). The translation runs the body once
    // per lane with its own index (`lift/waterfall.rs`), a per-lane table
    // slot; the interpreter runs the loop. On the host's word for the
    // unmasked index (`trust_lane_table_slots`).
    let path = "translator/tests/fixtures/images/descriptor-indexing-nonuniform-quads-frag";
    // Negative control: the lane never matches the loop's value, so its
    // body runs with EXEC off and the sample is lost
    // (`Faults::waterfall_never_matches`): 768 of 1024 words.
    let faults = translator::Faults {
        waterfall_never_matches: true,
        ..Default::default()
    };
    let r = trusted_clean_then_red(h, path, faults, "a lane that skipped its body");
    eprintln!(
        "waterfall_never_matches: {} of {} words mismatch",
        r.mismatches, r.words
    );
}

/// By default an index the shader does not bound reads a host descriptor
/// array of `LANE_ARRAY_ELEMENTS` table slots, each element sampled with a
/// constant index (core Vulkan: this lavapipe, Mesa 22.3, has neither
/// `shaderSampledImageArrayDynamicIndexing` nor descriptor indexing) and
/// each lane keeping its own slot's result; the scene gives every slot its
/// own texels and the flat index the value 1. Negative control: the lane's
/// slot one further (`Faults::lane_table_off_by_one`).
#[test]
fn an_unbounded_per_lane_table_slot_reads_a_constant_indexed_descriptor_array_and_the_next_slot_turns_red(
) {
    let Some(h) = Harness::shared_or_skip("lane_table_arrays") else {
        return;
    };
    let path = "translator/tests/fixtures/images/multi-draw-indirect-multi-draw-indirect-frag";
    let broken = FragmentOptions {
        translator_faults: translator::Faults {
            lane_table_off_by_one: true,
            ..Default::default()
        },
        ..Default::default()
    };
    clean_then_red(h, path, &broken, "the neighbouring slot");
}

/// Without descriptor arrays (`Options::lane_table_arrays` off) and without
/// the host's word, an index the shader does not bound is refused.
#[test]
fn an_unbounded_per_lane_table_slot_is_refused_without_arrays_or_the_hosts_word() {
    let path = "translator/tests/fixtures/images/multi-draw-indirect-multi-draw-indirect-frag";
    let c = open(path);
    let opts = translator::Options {
        lane_table_arrays: false,
        ..Default::default()
    };
    let err = translator::translate(&c.shader_input(), None, &opts)
        .expect_err("an unproved slot translated");
    let translator::TranslateError::Unsupported(list) = err else {
        panic!("{err}");
    };
    assert!(
        list.0.iter().any(|u| matches!(
            u.construct,
            translator::Construct::Image(translator::Image::UnprovedTableSlot { slots: 8 })
        )),
        "{list:?}"
    );
}

/// The run checks the interpreter's reads of a descriptor array's table
/// against the slots the scene bound: a read of a slot past them makes the
/// run "not covered", a read inside passes.
#[test]
fn a_descriptor_array_read_past_the_bound_slots_is_not_covered() {
    use shaderlift_cli::run::images::{scene, uncovered_slot_reads};
    let c = open("translator/tests/fixtures/images/multi-draw-indirect-multi-draw-indirect-frag");
    let input = c.shader_input();
    let t = translator::translate(
        &input,
        translator::trace_for(&input).as_ref(),
        &translator::Options {
            test_outputs: true,
            ..Default::default()
        },
    )
    .unwrap();
    let m = &t.manifest;
    let b = &m.images[0];
    let arr = b.array.as_ref().expect("a descriptor array");
    let user: Vec<u32> = (0..c.abi().user_data_count)
        .map(|k| u32::from(k) + 1)
        .collect();
    let s = scene(m, &c.code, c.target(), &user, Default::default()).unwrap();
    let translator::manifest::WordExpr::TableWord { lo, hi, offset } = &b.texture[0] else {
        panic!("{:?}", b.texture[0]);
    };
    let no_memory = &mut |_| None;
    let (lo, hi) = (
        lo.eval(&s.user_data, no_memory).unwrap(),
        hi.eval(&s.user_data, no_memory).unwrap(),
    );
    let table = drawbind::word::dword_address(drawbind::word::pointer(lo, hi, 0), *offset);
    let pc = arr.loads[0];
    let reads = |slot: u32| {
        let mut obs = interp::Observations::default();
        obs.pointer_loads
            .push((pc, table + u64::from(slot * arr.scale), 32));
        uncovered_slot_reads(m, &s.user_data, &s.memory, &obs)
    };
    assert_eq!(reads(arr.elements - 1), None);
    let why = reads(arr.elements).expect("a read past the bound slots passed");
    assert!(why.contains("outside"), "{why}");
}

#[test]
fn the_tfe_status_dword_is_resident_on_both_sides_and_a_nonresident_status_turns_red() {
    let Some(h) = Harness::shared_or_skip("image_status") else {
        return;
    };
    // image_sample … tfe; exp mrt0 with the status dword (as f32) as w.
    let path = "cli/tests/fixtures/ps-image-status";
    let r = run_clean(h, path);
    assert_eq!(r.words, 4 * PIXELS);
    let broken = with_faults(translator::Faults {
        image_status_nonresident: true,
        ..Default::default()
    });
    let r = run(h, path, &broken);
    assert_eq!(r.mismatches, PIXELS, "one status word per pixel");
}

#[test]
fn quad_permutations_read_the_quad_lanes_the_interpreter_reads_and_a_flipped_neighbour_turns_red() {
    let Some(h) = Harness::shared_or_skip("quad_perm") else {
        return;
    };
    // fwidth() as ACO lowers it: DPP quad_perm:[0,0,0,0], [1,1,1,1] and
    // [2,2,2,2] inside a per-lane (v_cmpx) region.
    let path = "cli/tests/fixtures/ps-derivatives";
    // Negative control: the horizontal neighbour of the named lane.
    let broken = FragmentOptions {
        quad_lane_flipped: true,
        ..Default::default()
    };
    clean_then_red(h, path, &broken, "a flipped quad lane");
    // Negative control of the block arguments known branch conditions select
    // away (the barycentric VGPR the v_cmpx region overwrites): dropped on
    // every edge, also where the region's value is chosen.
    let broken = FragmentOptions {
        known_argument_every_edge: true,
        ..Default::default()
    };
    let r = run(h, path, &broken);
    assert!(
        r.mismatches > 0,
        "arguments dropped on every edge went unnoticed"
    );
}

#[test]
fn quad_permutations_of_the_pixel_coordinates_give_every_pixel_its_quad_neighbours() {
    let Some(h) = Harness::shared_or_skip("quad_layout") else {
        return;
    };
    // frag_pos.x/y through quad_perm [1,0,3,2], [2,3,0,1], [3,2,1,0] and
    // [0,0,3,1]: every word is a neighbour's coordinate, so this checks the
    // device's quads pixel by pixel.
    let path = "cli/tests/fixtures/ps-quad-layout";
    let broken = FragmentOptions {
        quad_lane_flipped: true,
        ..Default::default()
    };
    let r = clean_then_red(h, path, &broken, "a flipped quad lane");
    // Both x words come from the other column; the y words keep their row.
    assert_eq!(r.mismatches, 2 * PIXELS);
}

#[test]
fn a_loop_counted_by_a_scene_word_runs_again_on_small_integer_words_and_matches() {
    let Some(h) = Harness::shared_or_skip("scene_loop_bound") else {
        return;
    };
    // The light loop's count is a UBO word: the pixel scene's f32 data word
    // is a huge integer, the interpreter reaches its step bound, and the
    // scene is built again with small integer data words (the count 1), on
    // both sides.
    let path = "cli/tests/fixtures/ps-scene-loop-bound";
    let r = run_clean(h, path);
    assert_eq!(r.words, 4 * PIXELS);
}

#[test]
fn cube_samples_read_the_face_the_interpreter_reads_and_a_swapped_face_turns_red() {
    let Some(h) = Harness::shared_or_skip("cube_samples") else {
        return;
    };
    // `texture(samplerCube, d)` and `textureLod(.., -d, 0)` (GLSL, RADV's
    // code): v_cubeid/sc/tc/ma_f32 and image_sample(_lz) dim CUBE. The
    // scene's directions reach the +x, +y, +z faces and their opposites;
    // sample points within 1/256 texel of a texel border (the face
    // diagonals) are not compared.
    for path in [
        "cli/tests/fixtures/ps-cubemap",
        "cli/tests/fixtures/ps-cubemap-w32",
    ] {
        let r = run(h, path, &FragmentOptions::default());
        assert_eq!(r.mismatches, 0, "{path}: {:?}", r.draws[0].first_mismatches);
        assert!(r.words >= 3 * PIXELS, "{path}: most words compared");
        // Negative control: v_cubeid_f32 names the opposite face.
        let broken = with_faults(translator::Faults {
            cube_face_swapped: true,
            ..Default::default()
        });
        let r = run(h, path, &broken);
        assert!(
            r.mismatches > PIXELS,
            "{path}: a swapped cube face went unnoticed"
        );
    }
}

#[test]
fn the_sparse_retry_loop_folds_on_the_resident_status_and_matches_the_interpreter() {
    let Some(h) = Harness::shared_or_skip("sparse_retry") else {
        return;
    };
    // sparseTextureLodARB in a loop retried while the texel is not
    // resident: the status is the constant 0 on both sides, so the loop's
    // "does any lane retry" SCC is the constant 0 (`passes::known`).
    for path in [
        "cli/tests/fixtures/ps-sparse-retry",
        "cli/tests/fixtures/ps-sparse-retry-w32",
    ] {
        let r = run_clean(h, path);
        assert_eq!(r.words, 4 * PIXELS);
    }
    // A loop of the same shape whose continuing lanes differ per pixel
    // (`limit > n` with a per-pixel limit): the mask is not constant, so
    // the SCC is refused ...
    let lanes = "cli/tests/fixtures/ps-lane-loop";
    let e = execute_fragment(&open(lanes), h, &FragmentOptions::default())
        .and_then(|o| o.report())
        .expect_err("a per-lane loop mask is refused");
    assert!(e.to_string().contains("any lane's bit is set"), "{e}");
    // ... and the negative control, which answers "no lane" for any mask,
    // leaves the loop after one round where the interpreter goes on.
    let broken = FragmentOptions {
        any_lane_assumed_none: true,
        ..Default::default()
    };
    let r = run(h, lanes, &broken);
    assert!(
        r.mismatches > 0,
        "an any-lane answer for a per-lane mask went unnoticed"
    );
}

#[test]
fn f16_interpolation_rounds_the_named_half_to_f16_and_the_other_half_turns_red() {
    let Some(h) = Harness::shared_or_skip("f16_interp") else {
        return;
    };
    // f16vec3 inputs through v_interp_p1ll_f16 + v_interp_p2_f16 (low
    // halves), the scene's 16-bit attributes holding different values in
    // their two halves.
    let path = "cli/tests/fixtures/ps-f16-interp";
    let broken = FragmentOptions {
        interp16_other_half: true,
        ..Default::default()
    };
    let r = clean_then_red(h, path, &broken, "the other f16 half");
    // Every word holds interpolated f16 colour halves.
    assert_eq!(r.mismatches, 4 * PIXELS);
}

#[test]
fn the_vrs_rate_bits_of_ancillary_match_the_scene_rate_and_swapped_axes_turn_red() {
    let Some(h) = Harness::shared_or_skip("shading_rate") else {
        return;
    };
    // ACO's rate X and Y fields, the masked and the whole field of the
    // `ancillary` VGPR, at the scene's 2x1 rate (push word on the device,
    // `PsConfig::shading_rate` in the interpreter).
    let path = "cli/tests/fixtures/ps-shading-rate";
    let broken = FragmentOptions {
        shading_rate_axes_swapped: true,
        ..Default::default()
    };
    let r = clean_then_red(h, path, &broken, "the rate's axes swapped");
    // 2x1 swapped is 1x2: every word differs, but the rate X and Y words
    // (0 and 1) are one f32 ulp apart, which the comparison lists as
    // "within 1 ulp" rather than as mismatches; the masked and whole
    // fields (0x4 vs 0x10, 1 vs 4) are mismatches.
    assert_eq!(r.mismatches, 2 * PIXELS);
}

#[test]
fn raw_barycentric_vgprs_read_their_helper_inputs_and_swapped_weights_turn_red() {
    let Some(h) = Harness::shared_or_skip("raw_barycentrics") else {
        return;
    };
    // persp_center i and j raw, attr0.x interpolated, linear i − j: the
    // two raw pairs from helper inputs at locations 1 and 2.
    let path = "cli/tests/fixtures/ps-raw-barycentrics";
    let broken = FragmentOptions {
        raw_barycentrics_swapped: true,
        ..Default::default()
    };
    let r = clean_then_red(h, path, &broken, "the raw pair's weights swapped");
    // i = (x + ½)/2E and j = (y + ½)/2E: swapped, words 0, 1 and 3 differ
    // on every pixel but the E on the diagonal (i − j = j − i = +0 there).
    assert_eq!(r.mismatches, 3 * (PIXELS - EXTENT as u64));
}

/// An EXEC raise in a discard's region that turns the discarded lanes back
/// on (`s_mov_b64 exec, saved`) is refused; checked against the EXEC before
/// the discard (`PsFaults::discard_branch_exec_before`) it is accepted, and
/// the pixels the hardware exports again are discarded on the host: red.
#[test]
fn a_raise_reviving_discarded_lanes_is_refused_and_checking_the_exec_before_the_discard_turns_red()
{
    let path = "cli/tests/fixtures/ps-discard-raise";
    let c = open(path);
    let Err(e) = translator::translate(&c.shader_input(), None, &translator::Options::default())
    else {
        panic!("{path}: the raise must be refused");
    };
    assert_eq!(e.to_string().matches("may turn on lanes").count(), 1, "{e}");
    let Some(h) = Harness::shared_or_skip("discard_raise") else {
        return;
    };
    let broken = FragmentOptions {
        user_data: Some(circle_user_data()),
        discard_branch_exec_before: true,
        ..FragmentOptions::default()
    };
    let r = run(h, path, &broken);
    assert!(r.mismatches > 0, "a revived lane went unnoticed");
}
