//! Pixel shaders: interpolation is recognised as dataflow (a `v_interp_p1`
//! on a pair's i, then `v_interp_p2` on its j, one attribute channel) and
//! everything else touching barycentrics is refused with the construct's
//! code `interpolation`.

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
fn barycentrics_used_as_numbers_are_refused() {
    // v_add_f32 v2, v0, v1; exp mrt0 v2 x4 done; s_endpgm
    let code = words(&[0x0604_0300, 0xf800_180f, 0x0202_0202, END]);
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
