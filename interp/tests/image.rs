//! Image instructions on hand-built linear T#/S# descriptors: loads,
//! stores, nearest samples, gathers, size queries, and what is refused.
//! llvm-mc-19 encodings (gfx1030) in the comments.

mod common;

use common::{run1, Mem};
use interp::{Finding, Wave};

const S_ENDPGM: u32 = 0xbf81_0000;
const BASE: u64 = 0x1_0000;
const FMT_32X4_FLOAT: u32 = 77;
const FMT_8X4_UNORM: u32 = 56;
const IDENTITY: [u32; 4] = [4, 5, 6, 7];

/// image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
const LOAD: [u32; 2] = [0xf000_1f08, 0x0002_0004];
/// image_load_mip v[0:1], v[4:6], s[8:15] dmask:0xa dim:SQ_RSRC_IMG_2D unorm
const LOAD_MIP_YW: [u32; 2] = [0xf004_1a08, 0x0002_0004];
/// image_sample_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
const SAMPLE_LZ: [u32; 2] = [0xf09c_0f08, 0x0082_0004];
/// image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
const SAMPLE: [u32; 2] = [0xf080_0f08, 0x0082_0004];
/// image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x2 dim:SQ_RSRC_IMG_2D
const GATHER_Y: [u32; 2] = [0xf11c_0208, 0x0082_0004];
/// image_store v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
const STORE: [u32; 2] = [0xf020_1f08, 0x0002_0004];
/// image_store v[0:1], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm d16
const STORE_D16: [u32; 2] = [0xf020_1f08, 0x8002_0004];
/// image_get_resinfo v[0:2], v4, s[8:15] dmask:0xb dim:SQ_RSRC_IMG_2D unorm
const RESINFO_XYW: [u32; 2] = [0xf038_1b08, 0x0002_0004];
/// image_sample_c_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
const SAMPLE_C_LZ: [u32; 2] = [0xf0bc_0108, 0x0082_0004];
/// image_sample_lz_o v[0:3], v[4:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
const SAMPLE_LZ_O: [u32; 2] = [0xf0dc_0f08, 0x0082_0004];

/// A linear 2D T# (8 words) of `w`×`h` texels at [`BASE`].
fn tsharp(format: u32, w: u32, h: u32, sel: [u32; 4], levels: u32) -> [u32; 8] {
    [
        (BASE >> 8) as u32,
        format << 20 | ((w - 1) & 3) << 30,
        ((w - 1) >> 2) | (h - 1) << 14,
        sel[0] | sel[1] << 3 | sel[2] << 6 | sel[3] << 9 | (levels - 1) << 16 | 9 << 28,
        0,
        0,
        0,
        0,
    ]
}

/// An S#: clamp mode for x and y, compare function, point filters.
fn ssharp(clamp: u32, compare: u32) -> [u32; 4] {
    [clamp | clamp << 3 | clamp << 6 | compare << 12, 0, 0, 0]
}

/// 4×4 texels of 32_32_32_32_FLOAT: texel (x, y) = (x, y, 10x + y, -1).
/// Rows are 256 bytes apart (16 texels: the width aligned to 256 bytes).
fn float_image() -> Mem {
    let mut m = Mem::default();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let v = [x as f32, y as f32, (10 * x + y) as f32, -1.0];
            m.write(BASE + 256 * y as u64 + 16 * x as u64, &v.map(f32::to_bits));
        }
    }
    m
}

fn texel(x: u32, y: u32) -> [u32; 4] {
    [x as f32, y as f32, (10 * x + y) as f32, -1.0].map(f32::to_bits)
}

/// A wave32 wave with lanes 0..4 active, v4/v5/v6 per lane, T# in
/// s[8:15] and S# in s[16:19].
fn wave(t: [u32; 8], s: [u32; 4], v4: [u32; 4], v5: [u32; 4], v6: [u32; 4]) -> Wave {
    let mut w = Wave::new(false);
    w.set_exec(0b1111);
    for l in 0..4 {
        w.set_vgpr(4, l, v4[l as usize]);
        w.set_vgpr(5, l, v5[l as usize]);
        w.set_vgpr(6, l, v6[l as usize]);
    }
    for (i, x) in t.iter().enumerate() {
        w.set_sgpr(8 + i as u16, *x);
    }
    for (i, x) in s.iter().enumerate() {
        w.set_sgpr(16 + i as u16, *x);
    }
    w
}

fn regs(w: &Wave, first: u8, n: u8, lane: u32) -> Vec<u32> {
    (first..first + n)
        .map(|r| {
            let (v, d) = w.vgpr(r, lane);
            assert!(d, "v{r} lane {lane} undefined");
            v
        })
        .collect()
}

fn run(insn: [u32; 2], w: &mut Wave, m: &Mem) -> interp::Observations {
    run1(&[insn[0], insn[1], S_ENDPGM], w, m).unwrap()
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

#[test]
fn image_load_reads_the_linear_texel_and_out_of_range_reads_zero() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [0, 3, 1, 4], [0, 2, 3, 0], [0; 4]);
    let obs = run(LOAD, &mut w, &float_image());
    assert!(obs.findings.is_empty(), "{:?}", obs.findings);
    assert_eq!(regs(&w, 0, 4, 0), texel(0, 0));
    assert_eq!(regs(&w, 0, 4, 1), texel(3, 2));
    assert_eq!(regs(&w, 0, 4, 2), texel(1, 3));
    assert_eq!(regs(&w, 0, 4, 3), [0; 4], "x = 4 is past the width");
}

#[test]
fn dmask_packs_the_selected_components_into_consecutive_registers() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [1, 2, 3, 0], [1, 1, 2, 3], [0, 0, 0, 1]);
    run(LOAD_MIP_YW, &mut w, &float_image());
    assert_eq!(regs(&w, 0, 2, 0), [texel(1, 1)[1], texel(1, 1)[3]]);
    assert_eq!(regs(&w, 0, 2, 2), [texel(3, 2)[1], texel(3, 2)[3]]);
    assert_eq!(
        regs(&w, 0, 2, 3),
        [0, 0],
        "mip 1 of a one-level image reads 0"
    );
}

#[test]
fn dst_sel_swizzles_and_fills_the_texel() {
    // One 8_8_8_8_UNORM texel (r, g, b, a) = (0, 255, 51, 102) read as
    // (b, r, 1, g).
    let t = tsharp(FMT_8X4_UNORM, 1, 1, [6, 4, 1, 5], 1);
    let mut m = Mem::default();
    m.write(BASE, &[0x6633_ff00]);
    let mut w = wave(t, [0; 4], [0; 4], [0; 4], [0; 4]);
    run(LOAD, &mut w, &m);
    assert_eq!(regs(&w, 0, 4, 0), f([0.2, 0.0, 1.0, 1.0]));
}

#[test]
fn a_wrong_dst_sel_turns_the_swizzle_test_red() {
    // Negative control: the same read with DST_SEL ignored gives the
    // unswizzled texel, which the test above would reject.
    let t = tsharp(FMT_8X4_UNORM, 1, 1, [6, 4, 1, 5], 1);
    let mut m = Mem::default();
    m.write(BASE, &[0x6633_ff00]);
    let mut w = wave(t, [0; 4], [0; 4], [0; 4], [0; 4]);
    interp::faults::with_image_dst_sel_ignored(|| run(LOAD, &mut w, &m));
    assert_ne!(regs(&w, 0, 4, 0), f([0.2, 0.0, 1.0, 1.0]));
}

#[test]
fn nearest_sampling_scales_normalized_coordinates_and_applies_the_clamp_mode() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let s = [0.30f32, 0.90, -0.20, 1.30].map(f32::to_bits);
    let tt = [0.10f32, 0.60, 0.40, 0.99].map(f32::to_bits);
    for (mode, want_x) in [(2u32, [1, 3, 0, 3]), (0, [1, 3, 3, 1]), (1, [1, 3, 0, 2])] {
        for insn in [SAMPLE_LZ, SAMPLE] {
            let mut w = wave(t, ssharp(mode, 0), s, tt, [0; 4]);
            let obs = run(insn, &mut w, &float_image());
            assert!(obs.findings.is_empty(), "{:?}", obs.findings);
            for (lane, (&x, y)) in want_x.iter().zip([0, 2, 1, 3]).enumerate() {
                assert_eq!(
                    regs(&w, 0, 4, lane as u32),
                    texel(x, y),
                    "clamp mode {mode} lane {lane}"
                );
            }
        }
    }
}

#[test]
fn sample_offsets_add_whole_texels() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    // offset x = +1, y = -1 (6-bit fields); coordinates in v5, v6.
    let off = 1 | (0x3f << 8);
    let mut w = wave(
        t,
        ssharp(2, 0),
        [off; 4],
        [0.3f32.to_bits(); 4],
        [0.6f32.to_bits(); 4],
    );
    run(SAMPLE_LZ_O, &mut w, &float_image());
    assert_eq!(regs(&w, 0, 4, 0), texel(2, 1));
}

#[test]
fn gather4_returns_the_footprint_in_vulkan_order() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    // u·4 − 0.5 = 1.1 → i0 = 1; v·4 − 0.5 = 2.2 → j0 = 2.
    let mut w = wave(
        t,
        ssharp(2, 0),
        [0.4f32.to_bits(); 4],
        [0.675f32.to_bits(); 4],
        [0; 4],
    );
    run(GATHER_Y, &mut w, &float_image());
    // Component y of (i0, j1), (i1, j1), (i1, j0), (i0, j0) is the row.
    assert_eq!(regs(&w, 0, 4, 0), f([3.0, 3.0, 2.0, 2.0]));
}

#[test]
fn depth_comparison_returns_one_when_the_reference_passes() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    // Texel (1, 0).x = 1.0; compare LESS (ref < texel): 0.5 passes, 1.5 fails.
    let dref = [0.5f32, 1.5, 1.0, -3.0].map(f32::to_bits);
    let mut w = wave(
        t,
        ssharp(2, 1),
        dref,
        [0.3f32.to_bits(); 4],
        [0.1f32.to_bits(); 4],
    );
    run(SAMPLE_C_LZ, &mut w, &float_image());
    let got: Vec<u32> = (0..4).map(|l| regs(&w, 0, 1, l)[0]).collect();
    assert_eq!(got, f([1.0, 0.0, 0.0, 1.0]));
}

#[test]
fn resinfo_packs_width_height_and_levels_by_dmask() {
    let t = tsharp(FMT_32X4_FLOAT, 37, 19, IDENTITY, 3);
    let mut w = wave(t, [0; 4], [0, 1, 2, 3], [0; 4], [0; 4]);
    run(RESINFO_XYW, &mut w, &Mem::default());
    assert_eq!(regs(&w, 0, 3, 0), [37, 19, 3]);
    assert_eq!(regs(&w, 0, 3, 1), [18, 9, 3]);
    assert_eq!(regs(&w, 0, 3, 2), [9, 4, 3]);
    assert_eq!(regs(&w, 0, 3, 3), [0, 0, 0], "past the last level");
}

#[test]
fn image_store_records_the_encoded_texel_bytes() {
    let t = tsharp(FMT_8X4_UNORM, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [1, 2, 4, 0], [2, 0, 0, 3], [0; 4]);
    for l in 0..4 {
        for (r, v) in [0.0f32, 1.0, 0.5, 0.2].iter().enumerate() {
            w.set_vgpr(r as u8, l, v.to_bits());
        }
    }
    let obs = run(STORE, &mut w, &Mem::default());
    // Lane 2 (x = 4) is out of range: dropped.
    let got: Vec<(u8, u64, u32)> = obs
        .stores
        .iter()
        .map(|s| (s.lane, s.addr, s.value))
        .collect();
    // 8-bit rows are 256 texels (256 bytes) apart.
    assert_eq!(
        got,
        [
            (0, BASE + 2 * 256 + 4, 0x3380_ff00),
            (1, BASE + 8, 0x3380_ff00),
            (3, BASE + 3 * 256, 0x3380_ff00)
        ]
    );
}

#[test]
fn a_store_of_fewer_components_than_the_format_writes_zero_for_the_others() {
    // image_store v[0:2], v[4:5], s[8:15] dmask:0x7 into 32_32_32_32_FLOAT:
    // ACO leaves a constant-zero alpha out of the dmask (RADV's
    // `imageStore(.., vec4(rgb, 0.0))`), so the fourth dword is 0.
    const STORE_XYZ: [u32; 2] = [0xf020_1708, 0x0002_0004];
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [1; 4], [2; 4], [0; 4]);
    w.set_exec(1);
    for (r, v) in [0.5f32, 1.0, 2.0].iter().enumerate() {
        w.set_vgpr(r as u8, 0, v.to_bits());
    }
    let obs = run(STORE_XYZ, &mut w, &Mem::default());
    assert!(obs.findings.is_empty(), "{:?}", obs.findings);
    let got: Vec<u32> = obs.stores.iter().map(|s| s.value).collect();
    assert_eq!(got, [0x3f00_0000, 0x3f80_0000, 0x4000_0000, 0]);
}

#[test]
fn a_d16_store_reads_two_f16_components_per_vgpr_low_half_first() {
    // x = 0.5 and y = -1.0 in v0, z = 2^-24 (an f16 denormal) and w = +inf
    // in v1: each f16 widened exactly, then the format's conversion.
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [1; 4], [2; 4], [0; 4]);
    w.set_exec(1);
    w.set_vgpr(0, 0, 0xbc00_3800);
    w.set_vgpr(1, 0, 0x7c00_0001);
    let obs = run(STORE_D16, &mut w, &Mem::default());
    assert!(obs.findings.is_empty(), "{:?}", obs.findings);
    let got: Vec<u32> = obs.stores.iter().map(|s| s.value).collect();
    assert_eq!(got, [0x3f00_0000, 0xbf80_0000, 0x3380_0000, 0x7f80_0000]);
    assert_eq!(obs.stores[0].addr, BASE + 2 * 256 + 16);
    // The same components into 8_8_8_8_UNORM: (0, 1, 0.5, 0.2 as f16).
    let t = tsharp(FMT_8X4_UNORM, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [1; 4], [2; 4], [0; 4]);
    w.set_exec(1);
    w.set_vgpr(0, 0, 0x3c00_0000);
    w.set_vgpr(1, 0, 0x3266_3800);
    let obs = run(STORE_D16, &mut w, &Mem::default());
    let got: Vec<u32> = obs.stores.iter().map(|s| s.value).collect();
    assert_eq!(got, [0x3380_ff00]);
}

#[test]
fn what_the_model_does_not_cover_is_a_finding_with_an_undefined_result() {
    // A tiled T# (swizzle mode 9), a bilinear sampler, a border clamp reached.
    let mut tiled = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    tiled[3] |= 9 << 20;
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut bilinear = ssharp(2, 0);
    bilinear[2] |= 1 << 20 | 1 << 22;
    let cases = [
        (tiled, ssharp(2, 0), 0.3f32, "swizzle mode 9"),
        (t, bilinear, 0.3, "bilinear"),
        (t, ssharp(6, 0), 1.5, "border"),
    ];
    for (t, s, u, what) in cases {
        let mut w = wave(t, s, [u.to_bits(); 4], [0.1f32.to_bits(); 4], [0; 4]);
        let obs = run(SAMPLE_LZ, &mut w, &float_image());
        assert!(
            matches!(&obs.findings[..], [Finding::Unmodelled { what: m, .. }] if m.contains(what)),
            "{what}: {:?}",
            obs.findings
        );
        assert!(!w.vgpr(0, 0).1, "{what}: the result is undefined");
    }
    // The same sample with a point filter inside the image is defined (the
    // control).
    let mut w = wave(
        t,
        ssharp(6, 0),
        [0.3f32.to_bits(); 4],
        [0.1f32.to_bits(); 4],
        [0; 4],
    );
    let obs = run(SAMPLE_LZ, &mut w, &float_image());
    assert!(obs.findings.is_empty(), "{:?}", obs.findings);
    assert_eq!(regs(&w, 0, 4, 0), texel(1, 0));
}

#[test]
fn unmapped_texels_and_undefined_coordinates_leave_the_lane_undefined() {
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let mut w = wave(t, [0; 4], [0, 1, 2, 3], [0; 4], [0; 4]);
    let obs = run(LOAD, &mut w, &Mem::default());
    assert!(!w.vgpr(0, 0).1);
    assert!(obs
        .findings
        .iter()
        .all(|f| matches!(f, Finding::Unmapped { .. })));
    let mut w = Wave::new(false);
    w.set_exec(1);
    for (i, x) in t.iter().enumerate() {
        w.set_sgpr(8 + i as u16, *x);
    }
    let obs = run(LOAD, &mut w, &float_image());
    assert!(matches!(
        &obs.findings[..],
        [Finding::UndefinedAddress { lane: Some(0), .. }]
    ));
    assert!(!w.vgpr(0, 0).1);
}

#[test]
fn a_sample_point_near_a_texel_border_has_no_known_texel() {
    // 4 texels: u·4 of 0.25 + 1/2048 lies 1/512 texel past the border
    // x = 1, 0.5 − 1/2048 lies 1/512 texel before x = 2, and u = 0 is on
    // the border x = 0; NaN has no texel at all. v·4 = 0.4 is safe.
    let t = tsharp(FMT_32X4_FLOAT, 4, 4, IDENTITY, 1);
    let near = [0.25 + 1.0 / 2048.0, 0.5 - 1.0 / 2048.0, 0.0, f32::NAN].map(f32::to_bits);
    let mut w = wave(t, ssharp(0, 0), near, [0.1f32.to_bits(); 4], [0; 4]);
    let obs = run(SAMPLE_LZ, &mut w, &float_image());
    assert!(
        matches!(&obs.findings[..], [Finding::Unmodelled { what, .. }] if what.contains("texel border")),
        "{:?}",
        obs.findings
    );
    for lane in 0..4 {
        assert!(!w.vgpr(0, lane).1, "lane {lane}: the result is undefined");
    }
    // 1/64 texel from the borders (u·4 = 1 + 1/64, 2 − 1/64) is far
    // enough: the texels are known (the control).
    let safe = [0.25 + 1.0 / 256.0, 0.5 - 1.0 / 256.0, 0.3, 0.9].map(f32::to_bits);
    let mut w = wave(t, ssharp(0, 0), safe, [0.1f32.to_bits(); 4], [0; 4]);
    let obs = run(SAMPLE_LZ, &mut w, &float_image());
    assert!(obs.findings.is_empty(), "{:?}", obs.findings);
    for (lane, x) in [1, 1, 1, 3].into_iter().enumerate() {
        assert_eq!(regs(&w, 0, 4, lane as u32), texel(x, 0), "lane {lane}");
    }
}
