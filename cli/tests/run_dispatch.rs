//! `shaderlift run` of compute shaders on lavapipe: the translated bundled
//! compute shaders, and the RADV fixtures of lane numbers (`v_mbcnt`) and
//! ballots (`v_readfirstlane`, `s_bcnt1` of a mask), write over several
//! dispatches exactly the words the interpreter's buffer stores write; a
//! broken entry lowering (the local ids one VGPR late) and a broken mbcnt
//! (counting the lanes at or below) turn the check red. Loops with several
//! exits or back edges match too, and exits that pick the wrong selector
//! turn the check red. EXEC raises proven inside per-lane exec regions and
//! divergent loops run with the wave's own branches match; accepting an
//! unproven raise or leaving a loop with its first lane turns it red.
//! Workgroups of two whole waves run one wave per host workgroup, each
//! leaving its loop on its own; every host workgroup taken for the first
//! wave turns it red.
//!
//! One Vulkan device serves the whole test binary. Without Vulkan the tests
//! print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set. The
//! DRAWS-like file is `tests/dispatch/compute.json` (a descriptor-set table,
//! a matrix UBO, a source and a destination buffer; three dispatches, the
//! last one with invocations past the push-constant count).

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::dispatch::{execute, execute_translation, split, DispatchRunReport};
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

fn fixture(name: &str) -> Capture {
    Capture::open(
        format!("{}/cli/tests/dispatch/{name}", root()),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn dispatch_file(name: &str) -> (drawbind::draws::DrawsFile, Vec<[u32; 3]>) {
    let path = format!("{}/cli/tests/dispatch/{name}.json", root());
    split(&std::fs::read_to_string(&path).unwrap())
        .unwrap()
        .expect("the file has dispatches")
}

fn assert_identical(shader: &str, r: &DispatchRunReport) {
    eprint!("{shader}:\n{}", r.text());
    assert!(r.dispatches.len() >= 3, "{shader}");
    for d in &r.dispatches {
        assert!(
            d.words > 0,
            "{shader} dispatch {}: nothing compared",
            d.index
        );
        assert_eq!(
            (d.mismatches, d.within_ulp, d.undefined, d.findings),
            (0, 0, 0, 0),
            "{shader} dispatch {}: {:?}",
            d.index,
            d.first_mismatches
        );
    }
}

/// Run each of `shaders` over the dispatches of `dispatch_file(file)` and
/// assert that every dispatch writes exactly the interpreter's words.
fn assert_all_identical(h: &Harness, file: &str, shaders: &[(&str, Capture)]) {
    let (file, groups) = dispatch_file(file);
    for (shader, c) in shaders {
        let r = execute(c, &file, &groups, h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_identical(shader, &r);
    }
}

/// Translate `c` with `faults` and run the translation over the dispatches
/// of `dispatch_file(file)`.
fn run_broken(h: &Harness, file: &str, c: &Capture, faults: ComputeFaults) -> DispatchRunReport {
    let (file, groups) = dispatch_file(file);
    let entry = c.compute_entry().unwrap();
    let tr = translator::translate_compute_with_faults(
        &c.shader_input(),
        &entry,
        &translator::Options {
            precise: true,
            ..translator::Options::default()
        },
        faults,
    )
    .unwrap();
    execute_translation(c, &file, &groups, h, &tr).unwrap()
}

/// `(name, capture)` of each fixture name.
fn fixtures(names: &[&'static str]) -> Vec<(&'static str, Capture)> {
    names.iter().map(|&n| (n, fixture(n))).collect()
}

#[test]
fn bundled_compute_shaders_write_the_interpreters_words() {
    let Some(h) = Harness::shared_or_skip("bundled_compute_shaders_write_the_interpreters_words")
    else {
        return;
    };
    let shaders = ["compute", "compute-w32"].map(|n| (n, capture(n)));
    assert_all_identical(h, "compute", &shaders);
}

#[test]
fn local_ids_in_the_wrong_vgpr_are_caught() {
    let Some(h) = Harness::shared_or_skip("local_ids_in_the_wrong_vgpr_are_caught") else {
        return;
    };
    let faults = ComputeFaults {
        local_ids_shifted: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "compute", &capture("compute"), faults);
    eprint!("{}", r.text());
    // Every lane of a workgroup computes the same index.
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

#[test]
fn lane_numbers_from_mbcnt_match_in_partial_and_several_waves() {
    let Some(h) =
        Harness::shared_or_skip("lane_numbers_from_mbcnt_match_in_partial_and_several_waves")
    else {
        return;
    };
    assert_all_identical(
        h,
        "lanes",
        &fixtures(&["compute-lanes", "compute-lanes-w32"]),
    );
}

/// The negative control: an mbcnt that counts the lanes at or
/// below this one (not below) turns the run check red.
#[test]
fn mbcnt_counting_at_or_below_is_caught() {
    let Some(h) = Harness::shared_or_skip("mbcnt_counting_at_or_below_is_caught") else {
        return;
    };
    for shader in ["compute-lanes", "compute-lanes-w32"] {
        let faults = ComputeFaults {
            mbcnt_at_or_below: true,
            ..ComputeFaults::default()
        };
        let r = run_broken(h, "lanes", &fixture(shader), faults);
        eprint!("{shader} (broken mbcnt):\n{}", r.text());
        // Every stored word is off by 1000.
        assert_eq!(r.mismatches, r.words, "{shader}");
        assert!(r.words > 0, "{shader}");
    }
}

/// A ballot (a lane mask read as a word), `s_bcnt1` of it and
/// `v_readfirstlane` of a value that differs between lanes, computed through
/// workgroup memory between barriers.
#[test]
fn ballots_and_readfirstlane_match_through_workgroup_memory() {
    let Some(h) =
        Harness::shared_or_skip("ballots_and_readfirstlane_match_through_workgroup_memory")
    else {
        return;
    };
    assert_all_identical(h, "ballot", &fixtures(&["compute-ballot"]));
}

/// LDS as a workgroup array and `s_barrier`: each invocation writes a cell,
/// then reads cells other waves wrote (two waves in wave64, four in wave32).
#[test]
fn lds_exchanges_between_waves_match() {
    let Some(h) = Harness::shared_or_skip("lds_exchanges_between_waves_match") else {
        return;
    };
    assert_all_identical(
        h,
        "shared",
        &fixtures(&["compute-shared", "compute-shared-w32"]),
    );
}

#[test]
fn lds_reads_without_their_offset_are_caught() {
    let Some(h) = Harness::shared_or_skip("lds_reads_without_their_offset_are_caught") else {
        return;
    };
    let faults = ComputeFaults {
        lds_ignores_offset: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "shared", &fixture("compute-shared"), faults);
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

/// `v_writelane_b32` (a constant lane and lane 63), which needs only each
/// lane's number: a hand-assembled compute capture (`code.s`).
#[test]
fn writelane_matches() {
    let Some(h) = Harness::shared_or_skip("writelane_matches") else {
        return;
    };
    assert_all_identical(h, "writelane", &fixtures(&["compute-writelane"]));
}

/// Global loads and stores (SGPR base + VGPR offset, a VGPR pair, a
/// negative immediate), 32-bit atomics on global memory, on a buffer and on
/// the LDS, byte and short stores (buffer and global, some straddling two
/// dwords, some past a raw buffer's end): a hand-assembled compute capture (`compute-memops/code.s`);
/// every final word of the atomics' targets is compared.
#[test]
fn global_memory_and_atomics_match() {
    let Some(h) = Harness::shared_or_skip("global_memory_and_atomics_match") else {
        return;
    };
    assert_all_identical(
        h,
        "memops",
        &fixtures(&["compute-memops", "compute-memops-w32"]),
    );
}

#[test]
fn atomics_that_overwrite_instead_of_combining_are_caught() {
    let Some(h) = Harness::shared_or_skip("atomics_that_overwrite_instead_of_combining_are_caught")
    else {
        return;
    };
    let faults = ComputeFaults {
        atomic_as_swap: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "memops", &fixture("compute-memops"), faults);
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

#[test]
fn global_accesses_without_their_offset_are_caught() {
    let Some(h) = Harness::shared_or_skip("global_accesses_without_their_offset_are_caught") else {
        return;
    };
    let faults = ComputeFaults {
        global_ignores_offset: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "memops", &fixture("compute-memops"), faults);
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

/// Real shaders (Vulkan-Samples `buffer_device_address` and `device_fault`
/// `update_vbo.comp`, RADV captures from the developer set): a 64-bit
/// pointer read through a push-constant pointer (`s_load_dwordx2`), a
/// 64-bit scalar shift of a non-constant value, `global_store_dwordx2`.
#[test]
fn buffer_reference_shaders_match() {
    let Some(h) = Harness::shared_or_skip("buffer_reference_shaders_match") else {
        return;
    };
    assert_all_identical(
        h,
        "bda",
        &fixtures(&["bda-update-vbo", "bda-update-vbo-w32"]),
    );
    assert_all_identical(
        h,
        "device-fault",
        &fixtures(&["device-fault-update-vbo", "device-fault-update-vbo-w32"]),
    );
}

#[test]
fn byte_and_short_stores_as_whole_dwords_are_caught() {
    let Some(h) = Harness::shared_or_skip("byte_and_short_stores_as_whole_dwords_are_caught")
    else {
        return;
    };
    let faults = ComputeFaults {
        sub_dword_as_dword: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "memops", &fixture("compute-memops"), faults);
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

/// TG_SIZE (waves in the workgroup, this wave's index) in the SGPR after
/// the workgroup id: a hand-assembled compute capture
/// (`compute-tgsize/code.s`), 80 invocations (two waves in wave64, three in
/// wave32, the last one partial).
#[test]
fn tg_size_matches() {
    let Some(h) = Harness::shared_or_skip("tg_size_matches") else {
        return;
    };
    assert_all_identical(
        h,
        "tgsize",
        &fixtures(&["compute-tgsize", "compute-tgsize-w32"]),
    );
}

#[test]
fn tg_size_without_the_wave_index_is_caught() {
    let Some(h) = Harness::shared_or_skip("tg_size_without_the_wave_index_is_caught") else {
        return;
    };
    let faults = ComputeFaults {
        tg_size_wave_zero: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "tgsize", &fixture("compute-tgsize-w32"), faults);
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the broken lowering went unnoticed");
}

/// Loops the structurer rewrites into one latch with an exit selector
/// (hand-assembled, `tests/dispatch/loop-*/code.s`): a break in the middle,
/// two exits to different targets, a `continue`, a break from an inner loop
/// to after the outer one, a `while`, a break inside an `if` with code
/// after it (a SPIR-V continue from inside a selection), a ballot count
/// (workgroup barriers) in a loop with an exit at its head and one in its
/// middle. The trip counts
/// depend on the
/// workgroup id, so the three dispatches take different exits.
#[test]
fn loops_with_several_exits_and_back_edges_match() {
    let Some(h) = Harness::shared_or_skip("loops_with_several_exits_and_back_edges_match") else {
        return;
    };
    assert_all_identical(
        h,
        "loops",
        &fixtures(&[
            "loop-break",
            "loop-exits",
            "loop-continue",
            "loop-nested",
            "loop-while",
            "loop-if-break",
            "loop-ballot",
        ]),
    );
}

/// The negative control: exits that pick their selectors backwards leave
/// to the wrong target (the two-exit loop and the nested break).
#[test]
fn a_reversed_loop_exit_selector_is_caught() {
    let Some(h) = Harness::shared_or_skip("a_reversed_loop_exit_selector_is_caught") else {
        return;
    };
    for shader in ["loop-exits", "loop-nested"] {
        let faults = ComputeFaults {
            loop_exit_selector_reversed: true,
            ..ComputeFaults::default()
        };
        let r = run_broken(h, "loops", &fixture(shader), faults);
        eprint!("{shader} (reversed exit selectors):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the broken selector went unnoticed"
        );
    }
}

/// EXEC raised inside per-lane exec regions, as ACO's if/else does it
/// (`tests/dispatch/exec-raise-else-w32/code.s`, two waves per workgroup: an `else` that turns on
/// `saved & !exec`, a restore of a mask saved inside the region): the
/// translation proves each raise turns on only lanes active at the branch
/// and the run matches the interpreter.
#[test]
fn exec_raises_implied_by_a_saved_mask_match() {
    let Some(h) = Harness::shared_or_skip("exec_raises_implied_by_a_saved_mask_match") else {
        return;
    };
    assert_all_identical(h, "loops", &fixtures(&["exec-raise-else-w32"]));
}

/// The negative control: a raise to a mask saved before the region
/// (`tests/dispatch/exec-raise-unproven-w32/code.s`) is refused by the
/// per-lane model (shown with a workgroup of 48 invocations, whose partial
/// second wave rules out one wave per host workgroup); accepted without the
/// proof, the lanes the hardware turns back on miss their writes and the
/// run turns red. With its own two whole waves, each run as its own host
/// workgroup with the wave's own exec branches, it translates exactly.
#[test]
fn unproven_exec_raises_are_refused_and_accepting_them_is_caught() {
    let c = fixture("exec-raise-unproven-w32");
    let entry = translator::wave::ComputeEntry {
        workgroup_size: [48, 1, 1],
        ..c.compute_entry().unwrap()
    };
    let err =
        translator::translate_compute(&c.shader_input(), &entry, &translator::Options::default())
            .expect_err("an unproven raise is refused");
    let codes = match &err {
        translator::TranslateError::Unsupported(list) => list.codes(),
        e => panic!("{e}"),
    };
    assert_eq!(codes, ["exec-region"], "{err}");
    let Some(h) =
        Harness::shared_or_skip("unproven_exec_raises_are_refused_and_accepting_them_is_caught")
    else {
        return;
    };
    let faults = ComputeFaults {
        unproven_exec_raises: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "loops", &c, faults);
    eprint!("exec-raise-unproven-w32 (accepted):\n{}", r.text());
    assert!(r.mismatches > 0, "the unproven raise went unnoticed");
    assert_all_identical(h, "loops", &[("exec-raise-unproven-w32", c)]);
}

/// Workgroups of two whole waves (`tests/dispatch/wave-split-*`, GLSL built
/// by the RADV corpus tool: 64 invocations in wave32, 128 in wave64) with a
/// loop whose trip count differs per lane and between the waves: each wave
/// leaves it on its own iteration, with its own loop counter (an SGPR) and,
/// in wave64, its own active-lane counts (`s_bcnt1` of EXEC) and first
/// lanes (`v_readfirstlane`). The per-lane model refuses the loop; each wave
/// runs as its own host workgroup with its own exec branches
/// (`wave::Dispatch::waves_per_group` = 2) and writes the interpreter's
/// words over dispatches of 1, 2 and 3 workgroups (the last one partly past
/// the push-constant count).
#[test]
fn waves_of_a_workgroup_leave_a_loop_each_on_its_own_iteration() {
    let shaders = fixtures(&["wave-split-loop-w32", "wave-split-ballot"]);
    for (name, c) in &shaders {
        let entry = c.compute_entry().unwrap();
        let t = translator::translate_compute(
            &c.shader_input(),
            &entry,
            &translator::Options::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = t.manifest.dispatch.expect("a dispatch section");
        assert_eq!(d.waves_per_group, 2, "{name}");
    }
    let Some(h) =
        Harness::shared_or_skip("waves_of_a_workgroup_leave_a_loop_each_on_its_own_iteration")
    else {
        return;
    };
    assert_all_identical(h, "wave-split", &shaders);
}

/// The negative control: every host workgroup taken for the first wave of
/// its guest workgroup (`ComputeFaults::wave_split_wave_zero`) redoes that
/// wave's lanes and leaves the second wave's words unwritten: the run
/// turns red.
#[test]
fn a_wave_split_that_runs_every_wave_as_the_first_is_caught() {
    let Some(h) =
        Harness::shared_or_skip("a_wave_split_that_runs_every_wave_as_the_first_is_caught")
    else {
        return;
    };
    for shader in ["wave-split-loop-w32", "wave-split-ballot"] {
        let faults = ComputeFaults {
            wave_split_wave_zero: true,
            ..ComputeFaults::default()
        };
        let r = run_broken(h, "wave-split", &fixture(shader), faults);
        eprint!("{shader} (every wave the first):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the second wave's lanes went unnoticed"
        );
    }
}

/// Divergent loops in a workgroup of one wave
/// (`tests/dispatch/wave-loop-*/code.s`): lanes leave one by one
/// (`s_andn2_b64 exec, exec, vcc` + `s_cbranch_execz`), a uniform loop has
/// per-lane `continue` regions and breaks collected in a mask, and the
/// wave's iteration count written inside the loop is read after it. The
/// per-lane translation refuses them; with the wave's own exec branches
/// (`LiftOptions::wave_branches`) the loop runs until no lane is active and
/// the run matches the interpreter.
#[test]
fn divergent_loops_run_until_no_lane_is_active() {
    let Some(h) = Harness::shared_or_skip("divergent_loops_run_until_no_lane_is_active") else {
        return;
    };
    assert_all_identical(
        h,
        "loops",
        &fixtures(&["wave-loop-lanes", "wave-loop-break"]),
    );
}

/// The negative control: a wave branch that is taken unless every lane of
/// EXEC is on leaves the loop with its first lane; the run turns red.
#[test]
fn a_loop_that_leaves_with_its_first_lane_is_caught() {
    let Some(h) = Harness::shared_or_skip("a_loop_that_leaves_with_its_first_lane_is_caught")
    else {
        return;
    };
    for shader in ["wave-loop-lanes", "wave-loop-break"] {
        let faults = ComputeFaults {
            wave_branch_all_lanes: true,
            ..ComputeFaults::default()
        };
        let r = run_broken(h, "loops", &fixture(shader), faults);
        eprint!("{shader} (leaves with the first lane):\n{}", r.text());
        assert!(r.mismatches > 0, "{shader}: the early exit went unnoticed");
    }
}

/// Registers undefined on some edges into a join or a loop head
/// (`translator/src/lift/undef.rs`): `undef-join` writes v7 only in the odd
/// lanes' region and reads it in a second region of the same lanes;
/// `undef-loop-head` writes v7 first in a loop's body and v8's low half
/// only (its high half undefined on entry, never read). Both translate and
/// write exactly the interpreter's words, every one of them defined.
#[test]
fn registers_undefined_on_some_paths_match() {
    let Some(h) = Harness::shared_or_skip("registers_undefined_on_some_paths_match") else {
        return;
    };
    assert_all_identical(h, "loops", &fixtures(&["undef-join", "undef-loop-head"]));
}

/// The negative control of the join rule: 0 on the defined edges too
/// leaves the odd lanes' v5 at 0.
#[test]
fn an_undefined_join_that_zeroes_the_defined_value_is_caught() {
    let Some(h) =
        Harness::shared_or_skip("an_undefined_join_that_zeroes_the_defined_value_is_caught")
    else {
        return;
    };
    let faults = ComputeFaults {
        undefined_join_zeroes_defined: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "loops", &fixture("undef-join"), faults);
    eprint!("undef-join (defined edges zeroed):\n{}", r.text());
    assert!(r.mismatches > 0, "the zeroed defined value went unnoticed");
}

/// `undef-demanded` reads v7 in a loop's first iteration, where it is
/// undefined: the translator refuses it, naming the register. The negative control skips
/// the proof: the translation is accepted and its run stores words the
/// interpreter calls undefined.
#[test]
fn an_undefined_value_that_is_demanded_is_refused() {
    let c = fixture("undef-demanded");
    let entry = c.compute_entry().unwrap();
    let opts = translator::Options {
        precise: true,
        ..translator::Options::default()
    };
    let err = translator::translate_compute(&c.shader_input(), &entry, &opts)
        .expect_err("a demanded undefined value must be refused");
    let text = err.to_string();
    assert!(
        text.contains("v7 is read before the shader writes it"),
        "{text}"
    );
    let Some(h) = Harness::shared_or_skip("an_undefined_value_that_is_demanded_is_refused") else {
        return;
    };
    let faults = ComputeFaults {
        undefined_never_demanded: true,
        ..ComputeFaults::default()
    };
    let r = run_broken(h, "loops", &c, faults);
    eprint!("undef-demanded (no proof):\n{}", r.text());
    let undefined: u64 = r.dispatches.iter().map(|d| d.undefined).sum();
    assert!(
        undefined > 0 || r.mismatches > 0,
        "the unproven translation ran green"
    );
}

#[test]
fn a_dispatch_file_gives_an_input_image_and_the_scene_the_missing_output_image() {
    let Some(h) = Harness::shared_or_skip(
        "a_dispatch_file_gives_an_input_image_and_the_scene_the_missing_output_image",
    ) else {
        return;
    };
    // `game-of-life-mutate.json`: the input T# (4×4 texels, 32_32_32_32_FLOAT,
    // some texels black) in the set-1 table; the set-0 table holds no T#, so
    // the run writes the scene's 16×16 output image there.
    let (file, groups) = dispatch_file("game-of-life-mutate");
    let c = fixture("game-of-life-mutate");
    let r = execute(&c, &file, &groups, h).unwrap();
    assert_identical("game-of-life-mutate", &r);
    for d in &r.dispatches {
        assert_eq!(
            d.image_words,
            256 * u64::from(d.groups.iter().product::<u32>())
        );
    }
}
