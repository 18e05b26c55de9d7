//! Pixel shaders: interpolation is recognised as dataflow (a `v_interp_p1`
//! on a pair's i, then `v_interp_p2` on its j, one attribute channel); a
//! barycentric VGPR read raw is its pair's helper input, and every broken
//! interpolation is refused with the construct's code `interpolation`.

#[path = "support/inputs.rs"]
mod inputs;

use inputs::{ps, refusals};
use translator::{translate, Options};

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const EXPORT_V3: [u32; 2] = [0xf800_180f, 0x0303_0303]; // exp mrt0 v3, v3, v3, v3 done vm
const END: u32 = 0xbf81_0000;

#[test]
fn a_p1_p2_pair_on_one_barycentric_pair_is_an_interpolated_input() {
    // s_mov_b32 m0, s2; v_interp_p1_f32 v3, v0, attr0.x;
    // v_interp_p2_f32 v3, v1, attr0.x; exp mrt0 v3 x4 done; s_endpgm
    let code = words(&[
        0xbefc_0302,
        0xc80c_0000,
        0xc80d_0001,
        EXPORT_V3[0],
        EXPORT_V3[1],
        END,
    ]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    let m = &t.manifest;
    assert_eq!(m.entry_point, "main (Fragment)");
    assert_eq!(m.inputs.len(), 1);
    assert_eq!(m.inputs[0].location, 0);
    assert_eq!(m.inputs[0].interpolation, "persp_center");
    assert_eq!(m.inputs[0].channels, 1);
    assert_eq!(m.outputs[0].export, "mrt0");
}

#[test]
fn a_p2_without_its_p1_is_refused() {
    let code = words(&[0xbefc_0302, 0xc80d_0001, EXPORT_V3[0], EXPORT_V3[1], END]);
    let r = refusals(&code);
    assert!(
        r.iter()
            .any(|(pc, c, t)| *pc == 4 && *c == "interpolation" && t.contains("v_interp_p2")),
        "{r:?}"
    );
}

#[test]
fn a_p1_whose_source_is_j_is_refused() {
    // v_interp_p1_f32 v3, v1 (j), attr0.x; v_interp_p2_f32 v3, v1, attr0.x
    let code = words(&[
        0xbefc_0302,
        0xc80c_0001,
        0xc80d_0001,
        EXPORT_V3[0],
        EXPORT_V3[1],
        END,
    ]);
    let r = refusals(&code);
    assert!(r.iter().any(|(_, c, _)| *c == "interpolation"), "{r:?}");
}

#[test]
fn barycentrics_used_as_numbers_read_the_pairs_helper_input() {
    // v_add_f32 v2, v0, v1; exp mrt0 v2 x4 done; s_endpgm
    let code = words(&[0x0604_0300, 0xf800_180f, 0x0202_0202, END]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    let i = &t.manifest.inputs;
    assert_eq!(i.len(), 1, "{i:?}");
    assert_eq!(
        (
            i[0].location,
            i[0].interpolation.as_str(),
            i[0].channels,
            i[0].barycentrics
        ),
        (0, "persp_center", 0b11, true)
    );
}

#[test]
fn a_raw_barycentric_helper_sits_after_the_interpolated_attributes() {
    // attr2.x interpolated into v3; exp mrt0 v3, v0 (raw i), v3, v3.
    let code = words(&[
        0xbefc_0302,
        0xc80c_0800,
        0xc80d_0801,
        0xf800_180f,
        0x0303_0003,
        END,
    ]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    let i: Vec<_> = t
        .manifest
        .inputs
        .iter()
        .map(|i| (i.location, i.channels, i.barycentrics))
        .collect();
    assert_eq!(i, vec![(2, 1, false), (3, 0b01, true)]);
}

#[test]
fn a_raw_barycentric_with_no_location_left_for_its_helper_is_refused() {
    // attr31.x interpolated into v3; exp mrt0 v3, v0 (raw i), v3, v3: the
    // helper would need location 32.
    let code = words(&[
        0xbefc_0302,
        0xc80c_7c00,
        0xc80d_7c01,
        0xf800_180f,
        0x0303_0003,
        END,
    ]);
    let r = refusals(&code);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].1, "interpolation");
    assert!(r[0].2.contains("barycentric"), "{r:?}");
}

#[test]
fn a_flat_input_comes_from_v_interp_mov_p0() {
    // v_interp_mov_f32 v3, p0, attr2.y; exp mrt0 v3 x4 done
    let mov = 0xc80e_0000u32 | (3 << 18) | (2 << 10) | (1 << 8) | 2;
    let code = words(&[0xbefc_0302, mov, EXPORT_V3[0], EXPORT_V3[1], END]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    let i = &t.manifest.inputs;
    assert_eq!(
        (i[0].location, i[0].interpolation.as_str(), i[0].channels),
        (2, "flat", 2)
    );
}

/// `s_mov_b32 m0, s2; v_interp_p1/p2_f32 v3, v0/v1, attr0.x`: v3 is an
/// interpolated input.
const INTERP_V3: [u32; 3] = [0xbefc_0302, 0xc80c_0000, 0xc80d_0001];
/// `exp mrt0 v4, v4, v4, v4 done vm`.
const EXPORT_V4: [u32; 2] = [0xf800_180f, 0x0404_0404];
/// `v_sub_f32_dpp v4, v3, v3 quad_perm:[1,1,3,3] row_mask:0xf bank_mask:0xf
/// bound_ctrl:1` (no `fi`: at the entry every lane is on).
const DPP_QUAD: [u32; 2] = [0x0808_06fa, 0xff08_f503];
/// `v_sub_f32_dpp v5, v3, v3 row_shr:1 row_mask:0xf bank_mask:0xf`.
const DPP_ROW_SHR: [u32; 2] = [0x080a_06fa, 0xff01_1103];
/// `v_cmpx_gt_f32 0.5, v3; s_cbranch_execz 3`: a per-lane region over the
/// next three dwords.
const REGION: [u32; 2] = [0x7c28_06f0, 0xbf88_0003];

fn program(parts: &[&[u32]]) -> Vec<u8> {
    words(&parts.concat())
}

/// The words of a SPIR-V module holding instruction `opcode`.
fn has_op(spirv: &[u32], opcode: u32) -> bool {
    let mut i = 5;
    while i < spirv.len() {
        let n = (spirv[i] >> 16) as usize;
        if spirv[i] & 0xffff == opcode {
            return true;
        }
        i += n.max(1);
    }
    false
}

#[test]
fn dpp_quad_perm_reads_the_quad_through_subgroup_shuffles() {
    let code = program(&[&INTERP_V3, &DPP_QUAD, &EXPORT_V4, &[END]]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    // OpGroupNonUniformShuffle.
    assert!(has_op(&t.spirv, 345));
}

#[test]
fn dpp_row_controls_stay_refused() {
    let code = program(&[
        &INTERP_V3,
        &DPP_ROW_SHR,
        &[0xf800_180f, 0x0505_0505],
        &[END],
    ]);
    let r = refusals(&code);
    assert!(
        r.iter()
            .any(|(pc, c, t)| *pc == 12 && *c == "cross-lane" && t.contains("DPP")),
        "{r:?}"
    );
}

#[test]
fn dpp_in_a_per_lane_region_of_a_value_defined_before_it_translates() {
    // v_mov_b32_dpp v4, v3 quad_perm:[0,0,0,0] ... bound_ctrl:1 fi:1
    let dpp = [0x7e08_02fa, 0xff0c_0003];
    let code = program(&[
        &INTERP_V3,
        &REGION,
        &[0x0608_06f2],
        &dpp,
        &EXPORT_V4,
        &[END],
    ]);
    assert_eq!(refusals(&code), Vec::new());
}

#[test]
fn dpp_of_a_value_defined_inside_a_per_lane_region_is_refused() {
    // v_add_f32 v6, 1.0, v3; v_mov_b32_dpp v4, v6 quad_perm:[0,0,0,0] ... fi:1
    let dpp = [0x7e08_02fa, 0xff0c_0006];
    let code = program(&[
        &INTERP_V3,
        &REGION,
        &[0x060c_06f2],
        &dpp,
        &EXPORT_V4,
        &[END],
    ]);
    let r = refusals(&code);
    assert!(
        r.iter()
            .any(|(pc, c, t)| *pc == 24 && *c == "cross-lane" && t.contains("quad permutation")),
        "{r:?}"
    );
}

#[test]
fn a_p2_under_another_exec_than_its_p1_is_refused() {
    // v_interp_p1_f32 v3, v0, attr0.x; (attr1.x into v4);
    // v_cmpx_lt_f32 0, v4 (EXEC shrinks per lane); v_interp_p2_f32 v3, v1,
    // attr0.x: a lane off at the p1 but on at the p2 would read v3's older
    // value, so that pair is not one input.
    let code = words(&[
        0xbefc_0302,
        0xc80c_0000,
        0xc810_0400,
        0xc811_0401,
        0x7c22_0880,
        0xc80d_0001,
        EXPORT_V3[0],
        EXPORT_V3[1],
        END,
    ]);
    let r = refusals(&code);
    assert!(
        r.iter()
            .any(|(pc, c, t)| *pc == 20 && *c == "interpolation" && t.contains("v_interp_p2")),
        "{r:?}"
    );
}
