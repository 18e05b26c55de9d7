//! Loops with several exits or back edges (`structure::normalize_loops`):
//! the hand-assembled compute fixtures of `cli/tests/dispatch/loop-*` (a
//! break in the middle, two exits to different targets, a `continue`, a
//! break from an inner loop to after the outer one, a `while` whose exit is
//! at its head, a break inside an `if` with code after it, a ballot count
//! in a loop with two exits) translate, naga
//! and spirv-val accept them, and their IR
//! after the rewrite is pinned. (`cli/tests/run_dispatch.rs` runs them on
//! lavapipe against the interpreter, with the wrong-selector negative
//! control.) An irreducible graph and, in a workgroup of several waves the
//! last of which is partial, a per-lane loop exit are typed refusals; in a
//! workgroup of one wave, or of whole waves each run as its own host
//! workgroup, a per-lane loop exit translates with the wave's own exec
//! branches.

#[path = "support/inputs.rs"]
mod inputs;
#[path = "support/spirv.rs"]
mod spirv_check;

use spirv_check::{count_ops, spirv_val};
use std::path::Path;
use translator::structure::StructureError;
use translator::wave::ComputeEntry;
use translator::{translate_compute, Construct, Control, Options, TranslateError};

const SHAPES: &[(&str, usize)] = &[
    ("loop-break", 1),
    ("loop-exits", 1),
    ("loop-continue", 1),
    ("loop-nested", 2),
    ("loop-while", 1),
    ("loop-if-break", 1),
    ("loop-ballot", 1),
];

fn fixture(name: &str) -> corpus::Capture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("cli/tests/dispatch")
        .join(name);
    corpus::Capture::open(&dir, &Default::default()).expect("open fixture")
}

#[test]
fn every_loop_shape_translates_to_structured_loops_naga_and_spirv_val_accept() {
    for &(name, loops) in SHAPES {
        let c = fixture(name);
        let entry = c.compute_entry().expect("the fixture records its entry");
        // `validate` (the default) runs naga's validator.
        let t = translate_compute(&c.shader_input(), &entry, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(r) = spirv_val("spirv_val_loops", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        let merges = count_ops(&t.spirv, spirv::Op::LoopMerge);
        assert_eq!(merges, loops, "{name}: structured loops");
    }
}

/// The IR after the rewrite: one latch per loop with a selector parameter
/// (0 goes round), the dispatch on it after the loop, and the uses after
/// the loop reading the latch's slots.
#[test]
fn loop_rewrite_ir_snapshots() {
    for &(name, _) in SHAPES {
        let c = fixture(name);
        let entry = c.compute_entry().unwrap();
        let f = translator::translate_compute_ir(&c.shader_input(), &entry, &Options::default());
        insta::assert_snapshot!(format!("{name}.ir"), f.to_string());
    }
}

const ENTRY: ComputeEntry = ComputeEntry {
    workgroup_size: [64, 1, 1],
    user_sgprs: 2,
    workgroup_id: [true, false, false],
    local_id_vgprs: 1,
    tg_size: false,
};

fn refusal(code: &[u8]) -> Vec<Construct> {
    refusal_with(code, &ENTRY)
}

fn refusal_with(code: &[u8], entry: &ComputeEntry) -> Vec<Construct> {
    let input = inputs::cs(code);
    match translate_compute(&input, entry, &Options::default()) {
        Err(TranslateError::Unsupported(l)) => l.0.into_iter().map(|u| u.construct).collect(),
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
}

/// `s_cmp_eq_u32 s2, 0; s_cbranch_scc1 b; a: s_add_u32 s5, s5, 1;
/// s_cmp_lt_u32 s5, 10; s_cbranch_scc0 end; b: s_add_u32 s5, s5, 2;
/// s_cmp_lt_u32 s5, 20; s_cbranch_scc1 a; end: v_mov_b32 v1, s5;
/// buffer_store_dword v1, v0, s[8:11], 0 offen; s_endpgm` (llvm-mc-19
/// `-mcpu=gfx1030 -mattr=+wavefrontsize64`, the .text bytes): the loop
/// a ⇄ b is entered at both blocks.
const IRREDUCIBLE: &[u8] = &[
    0x02, 0x80, 0x06, 0xbf, 0x03, 0x00, 0x85, 0xbf, 0x05, 0x81, 0x05, 0x80, 0x05, 0x8a, 0x0a, 0xbf,
    0x03, 0x00, 0x84, 0xbf, 0x05, 0x82, 0x05, 0x80, 0x05, 0x94, 0x0a, 0xbf, 0xfa, 0xff, 0x85, 0xbf,
    0x05, 0x02, 0x02, 0x7e, 0x00, 0x10, 0x70, 0xe0, 0x00, 0x01, 0x02, 0x80, 0x00, 0x00, 0x81, 0xbf,
];

/// `s_mov_b32 s12, 0; loop: v_cmpx_gt_u32 s12, v0; s_cbranch_execz done;
/// s_add_u32 s12, s12, 1; s_cmp_lt_u32 s12, 8; s_cbranch_scc1 loop;
/// done: v_mov_b32 v1, s12; buffer_store_dword v1, v0, s[8:11], 0 offen;
/// s_endpgm`: each lane would leave on its own EXEC bit while the wave's
/// counter goes on.
const PER_LANE_EXIT: &[u8] = &[
    0x80, 0x03, 0x8c, 0xbe, 0x0c, 0x00, 0xa8, 0x7d, 0x03, 0x00, 0x88, 0xbf, 0x0c, 0x81, 0x0c, 0x80,
    0x0c, 0x88, 0x0a, 0xbf, 0xfb, 0xff, 0x85, 0xbf, 0x0c, 0x02, 0x02, 0x7e, 0x00, 0x10, 0x70, 0xe0,
    0x00, 0x01, 0x02, 0x80, 0x00, 0x00, 0x81, 0xbf,
];

#[test]
fn an_irreducible_loop_is_a_typed_refusal() {
    let r = refusal(IRREDUCIBLE);
    assert!(
        r.iter().any(|c| matches!(
            c,
            Construct::Control(Control::Structure(StructureError::Irreducible {
                pc: 0x14,
                from_pc: 0x8
            }))
        )),
        "{r:?}"
    );
}

/// In a workgroup of several waves whose last one is partial (the
/// per-lane model: one wave per host workgroup needs whole waves).
#[test]
fn a_per_lane_loop_exit_is_a_typed_refusal() {
    let partial = ComputeEntry {
        workgroup_size: [96, 1, 1],
        ..ENTRY
    };
    let r = refusal_with(PER_LANE_EXIT, &partial);
    assert!(
        r.iter().any(|c| matches!(
            c,
            Construct::Control(Control::Structure(StructureError::PerLaneExit {
                pc: 0x8,
                head_pc: 0x4
            }))
        )),
        "{r:?}"
    );
}

/// In a workgroup of two whole waves the same loop translates with each
/// wave its own host workgroup (`wave::Dispatch::waves_per_group`): the
/// module's local size is one wave and the host dispatches twice the
/// guest's groups along x.
#[test]
fn a_per_lane_loop_exit_of_two_whole_waves_runs_one_wave_per_host_workgroup() {
    let two_waves = ComputeEntry {
        workgroup_size: [128, 1, 1],
        ..ENTRY
    };
    let input = inputs::cs(PER_LANE_EXIT);
    let t = translate_compute(&input, &two_waves, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count_ops(&t.spirv, spirv::Op::LoopMerge), 1);
    let d = t.manifest.dispatch.expect("a dispatch section");
    assert_eq!((d.local_size, d.waves_per_group), ([64, 1, 1], 2));
    assert_eq!(d.host_groups([3, 2, 1]), Some([6, 2, 1]));
    assert_eq!(d.host_groups([u32::MAX, 1, 1]), None);
    if let Some(r) = spirv_val("spirv_val_wave_split", "per-lane-exit", &t.spirv) {
        r.unwrap_or_else(|e| panic!("spirv-val: {e}"));
    }
}

/// In a workgroup of one wave the same loop, and ACO's divergent loops of
/// `cli/tests/dispatch/wave-loop-*`, translate with the wave's own exec
/// branches (`LiftOptions::wave_branches`): naga and spirv-val accept them.
#[test]
fn divergent_loops_of_a_one_wave_workgroup_translate_with_wave_branches() {
    let input = inputs::cs(PER_LANE_EXIT);
    let t =
        translate_compute(&input, &ENTRY, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(count_ops(&t.spirv, spirv::Op::LoopMerge), 1);
    for name in ["wave-loop-lanes", "wave-loop-break"] {
        let c = fixture(name);
        let entry = c.compute_entry().unwrap();
        let t = translate_compute(&c.shader_input(), &entry, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(r) = spirv_val("spirv_val_wave_loops", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        assert_eq!(count_ops(&t.spirv, spirv::Op::LoopMerge), 1, "{name}");
    }
}
