//! A legacy vertex shader whose `s_cbranch_vccz` (pc 0x2fc) tests a VCC
//! made by `v_cmp_lt_f32_e64 vcc, 0, s0` of a uniform operand (pc 0x120):
//! every active lane holds the wave's bit, so the translator takes the wave's
//! branch per lane. The fixture is Vulkan-Samples' dynamic_primitive_clipping
//! vertex shader as RADV/ACO compiled it (`tests/fixtures/
//! primitive-clipping-legacy-vs`); its DRAWS.json (`tests/draws/
//! primitive-clipping.json`, made by `make_clipping.py`) turns the clipping
//! on, and the tests walk `sceneTransformation.x` through every case of the
//! guarded switch. Without Vulkan the tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use drawbind::draws::{DrawsFile, Word32};
use shaderlift_cli::run::{execute, RunOptions, RunReport};
use vkharness::Harness;

/// Byte offset of the `v_cmp_lt_f32_e64 vcc, 0, s0` operand dword.
const CMP_OPERANDS: usize = 0x124;
/// The same compare of `0` and `v1` (inPos.x, different in every lane).
const CMP_PER_LANE: u32 = 0x80 | (0x101 << 9);
/// The UBO word of `sceneTransformation.x` (byte 0xd0) and of
/// `usePrimitiveClipping` (byte 0xd8) in the memory block at index 2.
const SCENE_X: usize = 0xd0 / 4;
const USE_CLIPPING: usize = 0xd8 / 4;

fn root() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"))
}

fn capture() -> Capture {
    Capture::open(
        format!("{}/tests/fixtures/primitive-clipping-legacy-vs", root()),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn draws() -> DrawsFile {
    let path = format!("{}/tests/draws/primitive-clipping.json", root());
    DrawsFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn run(h: &Harness, c: &Capture, file: &DrawsFile, opts: &RunOptions) -> RunReport {
    let report = execute(c, file, opts, h).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    eprint!("{}", shaderlift_cli::run::text_report(&report));
    report
}

#[test]
fn a_vccz_branch_on_a_compare_of_uniform_operands_runs_every_switch_case_exactly() {
    let Some(h) = Harness::shared_or_skip("uniform vcc branch") else {
        return;
    };
    let c = capture();
    let base = draws();
    for (x, clipping) in (0..=9u32).map(|x| (x, 1.0f32)).chain([(3, 0.0)]) {
        let mut file = base.clone();
        file.memory[2].words[SCENE_X] = Word32(x);
        file.memory[2].words[USE_CLIPPING] = Word32(clipping.to_bits());
        let r = run(h, &c, &file, &RunOptions::default());
        assert_eq!(r.draws.len(), 3, "case {x}");
        for d in &r.draws {
            assert_eq!(d.skipped, None, "case {x} draw {}", d.index);
            assert!(d.vertices > 0 && d.words >= 8 * d.vertices, "case {x}");
            assert_eq!(d.undefined, 0, "case {x} draw {}", d.index);
            assert_eq!(
                (d.mismatches, d.within_ulp),
                (0, 0),
                "case {x} draw {}: {:?}",
                d.index,
                d.first_mismatches
            );
        }
    }
}

/// The negative control: the compare made per lane (`v1` instead of `s0`)
/// is refused, and the fault that takes any VCC as this lane's branch turns
/// the run red (lanes whose bit is 0 skip the clipping the wave runs).
#[test]
fn a_vccz_branch_on_a_per_lane_compare_is_refused_and_taking_it_per_lane_mismatches() {
    let mut c = capture();
    c.code[CMP_OPERANDS..CMP_OPERANDS + 4].copy_from_slice(&CMP_PER_LANE.to_le_bytes());
    let input = c.shader_input();
    let err = translator::translate(&input, None, &translator::Options::default())
        .expect_err("a per-lane VCC branch must be refused");
    assert!(
        err.to_string()
            .contains("a branch on whether every lane's VCC bit is 0 needs all lanes"),
        "{err}"
    );
    let Some(h) = Harness::shared_or_skip("per-lane vcc branch") else {
        return;
    };
    let opts = RunOptions {
        translator_faults: translator::Faults {
            vcc_branch_any_mask: true,
            ..Default::default()
        },
        ..RunOptions::default()
    };
    let r = run(h, &c, &draws(), &opts);
    assert!(r.mismatches > 0, "the fault must turn the run red");
}
