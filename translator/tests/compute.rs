//! Compute translation: a cross-lane operation (here `s_bcnt1` of a lane
//! mask, a ballot through workgroup memory and barriers) translates in
//! workgroup-uniform control flow and is refused inside a per-lane EXEC
//! region of a workgroup of several waves that share an `s_barrier` or LDS,
//! where not every invocation reaches its barriers (one wave, or whole
//! waves that share nothing, each its own host workgroup: the region is the
//! wave's branch, and it translates), and under a branch on a ballot's
//! result in such a workgroup (the result differs between its waves).

#[path = "support/inputs.rs"]
mod inputs;
#[path = "support/spirv.rs"]
mod spirv_check;

use isa::{Abi, Stage, Target};
use spirv_check::count_ops;
use translator::wave::ComputeEntry;
use translator::{
    translate_compute, Construct, CrossLane, Memory, Options, ShaderInput, TranslateError,
};

const ENTRY: ComputeEntry = ComputeEntry {
    workgroup_size: [64, 1, 1],
    user_sgprs: 2,
    workgroup_id: [false; 3],
    local_id_vgprs: 1,
    tg_size: false,
};

fn translate(code: &[u8]) -> Result<translator::Translation, TranslateError> {
    translate_with(code, &ENTRY)
}

fn translate_with(
    code: &[u8],
    entry: &ComputeEntry,
) -> Result<translator::Translation, TranslateError> {
    let input = inputs::cs(code);
    translate_compute(&input, entry, &Options::default())
}

/// `v_cmp_gt_u32 vcc, s3, v0; s_bcnt1_i32_b64 s4, vcc; v_mov_b32 v1, s4;
/// buffer_store_dword v1, v0, s[8:11], 0 offen; s_endpgm`
const UNIFORM: &[u8] = &[
    0x03, 0x00, 0x88, 0x7d, 0x6a, 0x10, 0x84, 0xbe, 0x04, 0x02, 0x02, 0x7e, 0x00, 0x10, 0x70, 0xe0,
    0x00, 0x01, 0x02, 0x80, 0x00, 0x00, 0x81, 0xbf,
];

/// `v_cmpx_gt_u32 s3, v0; s_cbranch_execz end; s_bcnt1_i32_b64 s4, exec;
/// v_mov_b32 v1, s4; buffer_store_dword v1, v0, s[8:11], 0 offen;
/// end: s_endpgm`
const IN_EXEC_REGION: &[u8] = &[
    0x03, 0x00, 0xa8, 0x7d, 0x04, 0x00, 0x88, 0xbf, 0x7e, 0x10, 0x84, 0xbe, 0x04, 0x02, 0x02, 0x7e,
    0x00, 0x10, 0x70, 0xe0, 0x00, 0x01, 0x02, 0x80, 0x00, 0x00, 0x81, 0xbf,
];

#[test]
fn a_ballot_in_uniform_control_flow_translates_with_barriers() {
    let t = translate(UNIFORM).unwrap_or_else(|e| panic!("{e}"));
    let barriers = count_ops(&t.spirv, spirv::Op::ControlBarrier);
    assert!(barriers >= 3, "{barriers} barriers");
}

/// Two waves per workgroup: the per-lane model, whose exec regions are
/// per-lane selections.
const TWO_WAVES: ComputeEntry = ComputeEntry {
    workgroup_size: [128, 1, 1],
    ..ENTRY
};

/// `s_barrier` followed by [`IN_EXEC_REGION`] (the branch's offset is
/// relative, so it still skips to `s_endpgm`).
fn after_a_barrier(code: &[u8]) -> Vec<u8> {
    let mut v = vec![0x00, 0x00, 0x8a, 0xbf];
    v.extend_from_slice(code);
    v
}

/// The ballot's barriers inside a per-lane region are refused; the
/// workgroup's waves cannot branch separately either, as an `s_barrier`
/// (which they share) keeps them in one host workgroup.
#[test]
fn a_ballot_inside_a_per_lane_exec_region_is_refused() {
    match translate_with(&after_a_barrier(IN_EXEC_REGION), &TWO_WAVES) {
        Err(TranslateError::Unsupported(list)) => {
            assert!(
                list.0.iter().any(|u| u.construct
                    == Construct::CrossLane(CrossLane::DivergentWaveOp)
                    && u.pc == 12),
                "{list}"
            );
        }
        Ok(_) => panic!("translated a barrier that not every invocation reaches"),
        Err(e) => panic!("{e}"),
    }
}

/// Without the `s_barrier` the two waves share nothing but memory: each
/// runs as its own host workgroup, where the region is the wave's branch.
#[test]
fn a_ballot_inside_an_exec_region_of_two_waves_runs_one_wave_per_host_workgroup() {
    let t = translate_with(IN_EXEC_REGION, &TWO_WAVES).unwrap_or_else(|e| panic!("{e}"));
    let d = t.manifest.dispatch.expect("a dispatch section");
    assert_eq!((d.local_size, d.waves_per_group), ([64, 1, 1], 2));
    assert!(count_ops(&t.spirv, spirv::Op::ControlBarrier) >= 2);
}

/// In a workgroup of one wave the per-lane refusal is translated again
/// with the wave's own exec branches: every invocation reaches the region's
/// barriers together, so the ballot and the LDS atomic in it translate.
#[test]
fn exec_regions_of_a_one_wave_workgroup_are_wave_branches() {
    for code in [IN_EXEC_REGION, LDS_ADD_IN_EXEC_REGION] {
        let t = translate(code).unwrap_or_else(|e| panic!("{e}"));
        let barriers = count_ops(&t.spirv, spirv::Op::ControlBarrier);
        assert!(barriers >= 2, "{barriers} barriers");
    }
}

/// `v_cmp_gt_u32 vcc, s3, v0; s_bcnt1_i32_b64 s4, vcc; s_cmp_eq_u32 s4, 0;
/// s_cbranch_scc1 end; s_bcnt1_i32_b64 s5, vcc; v_mov_b32 v1, s5;
/// buffer_store_dword v1, v0, s[8:11], 0 offen; end: s_endpgm`
const AFTER_BALLOT_BRANCH: &[u8] = &[
    0x03, 0x00, 0x88, 0x7d, 0x6a, 0x10, 0x84, 0xbe, 0x04, 0x80, 0x06, 0xbf, 0x04, 0x00, 0x85, 0xbf,
    0x6a, 0x10, 0x85, 0xbe, 0x05, 0x02, 0x02, 0x7e, 0x00, 0x10, 0x70, 0xe0, 0x00, 0x01, 0x02, 0x80,
    0x00, 0x00, 0x81, 0xbf,
];

#[test]
fn a_branch_on_a_ballot_is_uniform_only_in_a_single_wave_workgroup() {
    // 64 invocations, one wave: the branch is the same for all of them.
    translate_with(AFTER_BALLOT_BRANCH, &ENTRY).unwrap_or_else(|e| panic!("{e}"));
    // 128 invocations, two waves that share an `s_barrier` (one host
    // workgroup): each wave may branch its own way, so the second ballot's
    // barriers are refused.
    let two_waves = ComputeEntry {
        workgroup_size: [128, 1, 1],
        ..ENTRY
    };
    match translate_with(&after_a_barrier(AFTER_BALLOT_BRANCH), &two_waves) {
        Err(TranslateError::Unsupported(list)) => {
            assert!(
                list.0.iter().any(|u| u.construct
                    == Construct::CrossLane(CrossLane::DivergentWaveOp)
                    && u.pc == 20),
                "{list}"
            );
        }
        Ok(_) => panic!("translated barriers the waves may not all reach"),
        Err(e) => panic!("{e}"),
    }
}

/// The refusal of `code`: its constructs with their pcs.
fn refusals(r: Result<translator::Translation, TranslateError>) -> Vec<(u32, Construct)> {
    match r {
        Err(TranslateError::Unsupported(list)) => {
            list.0.iter().map(|u| (u.pc, u.construct.clone())).collect()
        }
        Ok(_) => panic!("translated"),
        Err(e) => panic!("{e}"),
    }
}

/// `ds_add_rtn_u32 v1, v0, v0; buffer_store_dword v1, v0, s[8:11], 0 offen;
/// s_endpgm`
const LDS_ADD_RTN: &[u8] = &[
    0x00, 0x00, 0x80, 0xd8, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x70, 0xe0, 0x00, 0x01, 0x02, 0x80,
    0x00, 0x00, 0x81, 0xbf,
];

#[test]
fn a_returning_lds_atomic_is_refused() {
    let r = refusals(translate(LDS_ADD_RTN));
    assert!(
        r.iter()
            .any(|(pc, c)| *pc == 0 && matches!(c, Construct::Memory(Memory::Atomic(_)))),
        "{r:?}"
    );
}

/// `v_cmpx_gt_u32 s3, v0; s_cbranch_execz end; ds_add_u32 v0, v0;
/// end: s_endpgm`
const LDS_ADD_IN_EXEC_REGION: &[u8] = &[
    0x03, 0x00, 0xa8, 0x7d, 0x02, 0x00, 0x88, 0xbf, 0x00, 0x00, 0x00, 0xd8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x81, 0xbf,
];

/// An LDS atomic sits between workgroup barriers, which every invocation
/// must reach.
#[test]
fn an_lds_atomic_inside_a_per_lane_exec_region_is_refused() {
    let r = refusals(translate_with(LDS_ADD_IN_EXEC_REGION, &TWO_WAVES));
    assert!(
        r.iter()
            .any(|(pc, c)| *pc == 8 && *c == Construct::CrossLane(CrossLane::DivergentWaveOp)),
        "{r:?}"
    );
}

/// `v_mov_b32 v2, s0; v_mov_b32 v3, s1; global_load_dword v1, v[2:3], off;
/// exp pos0 v1, v1, v1, v1 done; s_endpgm`
const VS_GLOBAL_LOAD_EXPORT: &[u8] = &[
    0x00, 0x02, 0x04, 0x7e, 0x01, 0x02, 0x06, 0x7e, 0x00, 0x80, 0x30, 0xdc, 0x02, 0x00, 0x7d, 0x01,
    0xcf, 0x08, 0x00, 0xf8, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x81, 0xbf,
];

/// `global_store_dword v[2:3], v1, off; s_endpgm`
const GLOBAL_STORE: &[u8] = &[
    0x00, 0x80, 0x70, 0xdc, 0x02, 0x01, 0x7d, 0x00, 0x00, 0x00, 0x81, 0xbf,
];

fn legacy_vs(code: &[u8]) -> ShaderInput<'_> {
    ShaderInput {
        code,
        target: Target::Gfx1030,
        stage: Stage::LegacyVs,
        abi: Abi::legacy_vs(),
        wave_size: 64,
    }
}

/// A vertex shader's global loads read the window, and the manifest names
/// them (`global_reads`) so the host binds the window over what the
/// pointers reach; its global stores stay refused.
#[test]
fn vertex_global_loads_are_listed_for_the_window_and_stores_are_refused() {
    let t = translator::translate(&legacy_vs(VS_GLOBAL_LOAD_EXPORT), None, &Options::default())
        .expect("a vertex global load translates");
    assert_eq!(t.manifest.global_reads, vec![8]);
    let r = refusals(translator::translate(
        &legacy_vs(GLOBAL_STORE),
        None,
        &Options::default(),
    ));
    assert!(
        r.contains(&(0, Construct::Memory(Memory::GlobalOutsideCompute))),
        "{r:?}"
    );
}
