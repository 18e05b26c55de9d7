//! Vector-ALU semantics, bit-exact, on the instructions the corpus shaders
//! use (and their neighbours). Each case runs one instruction in wave64 over
//! lanes 0..=3 with inputs in v0..v2 and s0..s3; the expected values are
//! worked out by hand in the comments. llvm-mc-19 encodings.

mod common;

use common::{run1, Mem};
use interp::Wave;

const S_ENDPGM: u32 = 0xbf81_0000;

/// Lane inputs: v0 floats, v1 floats, v2 floats.
const A: [f32; 4] = [1.5, -2.0, 3.0e-39, 2.5]; // lane 2: a denormal
const B: [f32; 4] = [2.0, 0.5, 1.0, -4.0];
const C: [f32; 4] = [0.25, 8.0, 1.0, 1.0];

fn wave(v0: [u32; 4], v1: [u32; 4], v2: [u32; 4], s: [u32; 4]) -> Wave {
    let mut w = Wave::new(true);
    w.set_exec(0b1111);
    for l in 0..4 {
        w.set_vgpr(0, l, v0[l as usize]);
        w.set_vgpr(1, l, v1[l as usize]);
        w.set_vgpr(2, l, v2[l as usize]);
    }
    for (i, x) in s.iter().enumerate() {
        w.set_sgpr(i as u16, *x);
    }
    w
}

fn fl(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Run `insn` (one or two dwords) and return register `reg` of lanes 0..=3.
fn one(insn: &[u32], w: &mut Wave, reg: u8) -> [u32; 4] {
    let mut prog = insn.to_vec();
    prog.push(S_ENDPGM);
    run1(&prog, w, &Mem::default()).unwrap();
    let mut out = [0; 4];
    for l in 0..4 {
        let (v, def) = w.vgpr(reg, l);
        assert!(def, "v{reg} lane {l} undefined");
        out[l as usize] = v;
    }
    out
}

fn float_case(insn: &[u32], reg: u8, s: [u32; 4], want: [u32; 4]) {
    let mut w = wave(fl(A), fl(B), fl(C), s);
    assert_eq!(one(insn, &mut w, reg), want, "{insn:08x?}");
}

#[test]
fn float_arithmetic_flushes_f32_denormals_and_rounds_to_nearest_even() {
    // v_fma_f32 v3, v0, -v1, v2: 1.5·−2+0.25, −2·−0.5+8, 0·−1+1 (flushed), 2.5·4+1
    float_case(
        &[0xd54b_0003, 0x440a_0300],
        3,
        [0; 4],
        fl([-2.75, 9.0, 1.0, 11.0]),
    );
    // v_mul_f32 v3, v0, v1
    float_case(&[0x1006_0300], 3, [0; 4], fl([3.0, -1.0, 0.0, -10.0]));
    // v_sub_f32 v5, v0, v1
    float_case(&[0x080a_0300], 5, [0; 4], fl([-0.5, -2.5, -1.0, 6.5]));
    // v_rcp_f32 v4, v0: 1/1.5 rounds to 0x3f2aaaab; 1/+0 = +inf; 1/2.5 = 0x3ecccccd
    float_case(
        &[0x7e08_5500],
        4,
        [0; 4],
        [0x3f2a_aaab, (-0.5f32).to_bits(), 0x7f80_0000, 0x3ecc_cccd],
    );
    // v_rndne_f32 v5, v0: ties to even: 1.5 → 2, 2.5 → 2
    float_case(&[0x7e0a_4700], 5, [0; 4], fl([2.0, -2.0, 0.0, 2.0]));
    // v_ldexp_f32 v6, v0, s1 (s1 = 3)
    float_case(
        &[0xd762_0006, 0x0000_0300],
        6,
        [0, 3, 0, 0],
        fl([12.0, -16.0, 0.0, 20.0]),
    );
    // v_min3_f32 / v_max3_f32 v0, v1, v2
    float_case(
        &[0xd551_0007, 0x040a_0300],
        7,
        [0; 4],
        fl([0.25, -2.0, 0.0, -4.0]),
    );
    float_case(
        &[0xd554_0008, 0x040a_0300],
        8,
        [0; 4],
        fl([2.0, 8.0, 1.0, 2.5]),
    );
    // v_mul_f32 clamp: to [0, 1]; mul:2 doubles the result
    float_case(
        &[0xd508_800f, 0x0002_0300],
        15,
        [0; 4],
        fl([1.0, 0.0, 0.0, 0.0]),
    );
    float_case(
        &[0xd508_0010, 0x0802_0300],
        16,
        [0; 4],
        fl([6.0, -2.0, 0.0, -20.0]),
    );
    // v_fmac_f32 v3, s0, v1 with v3 = 1.0 first: s0 = 0.5
    let mut w = wave(fl(A), fl(B), fl(C), [0.5f32.to_bits(), 0, 0, 0]);
    for l in 0..4 {
        w.set_vgpr(3, l, 1.0f32.to_bits());
    }
    assert_eq!(one(&[0x5606_0200], &mut w, 3), fl([2.0, 1.25, 1.5, -1.0]));
}

#[test]
fn conversions_pack_and_round_as_the_isa_says() {
    // v_cvt_pkrtz_f16_f32 v9, v0, v1: lane 0: f16(1.5)=0x3e00, f16(2)=0x4000
    let mut w = wave(
        fl([1.5, 65520.0, 1.0 + 1.0 / 1024.0 + 1.0 / 4096.0, -0.0]),
        fl(B),
        fl(C),
        [0; 4],
    );
    let v = one(&[0x5e12_0300], &mut w, 9);
    assert_eq!(v[0], 0x4000_3e00);
    assert_eq!(
        v[1] & 0xffff,
        0x7bff,
        "65520 truncates to the largest finite f16"
    );
    assert_eq!(v[2] & 0xffff, 0x3c01, "round toward zero drops the 2^-12");
    assert_eq!(v[3] & 0xffff, 0x8000);
    // v_cvt_f16_f32 v13, v0 rounds to nearest even: 65520 → inf; keeps v13's high half
    let mut w = wave(
        fl([1.5, 65520.0, 1.0 + 1.0 / 1024.0 + 1.0 / 4096.0, -0.0]),
        fl(B),
        fl(C),
        [0; 4],
    );
    for l in 0..4 {
        w.set_vgpr(13, l, 0xabcd_0000);
    }
    assert_eq!(
        one(&[0x7e1a_1500], &mut w, 13),
        [0xabcd_3e00, 0xabcd_7c00, 0xabcd_3c01, 0xabcd_8000]
    );
    // v_cvt_f32_i32 v6, v1 and v_cvt_i32_f32 v7, v0 (truncate, saturate)
    let w = || {
        wave(
            fl([1.9, -2.9, 3.0e9, f32::NAN]),
            [7, u32::MAX, 0, 1 << 31],
            [0; 4],
            [0; 4],
        )
    };
    assert_eq!(
        one(&[0x7e0c_0b01], &mut w(), 6),
        fl([7.0, -1.0, 0.0, -2147483648.0])
    );
    assert_eq!(
        one(&[0x7e0e_1100], &mut w(), 7),
        [1, -2i32 as u32, i32::MAX as u32, 0]
    );
}

#[test]
fn integer_ops_of_the_culling_shaders() {
    let v0 = [3, 0x0001_0002, 0xffff_ffff, 0x8000_0001];
    let v1 = [5, 16, 20, 0];
    let v2 = [100, 0, 1, 0xffff_fff0];
    let run = |insn: &[u32], reg: u8, s: [u32; 4]| one(insn, &mut wave(v0, v1, v2, s), reg);
    // v_lshl_or_b32 v8, v0, 10, v1
    assert_eq!(
        run(&[0xd76f_0008, 0x0405_1500], 8, [0; 4]),
        [3 << 10 | 5, 0x0400_0800 | 16, 0xffff_fc00 | 20, 0x0000_0400]
    );
    // v_lshl_add_u32 v9, s0, 6, v1 (s0 = 2)
    assert_eq!(
        run(&[0xd746_0009, 0x0405_0c00], 9, [2, 0, 0, 0]),
        [133, 144, 148, 128]
    );
    // v_mul_lo_u32 v10, 28, v1
    assert_eq!(
        run(&[0xd569_000a, 0x0002_029c], 10, [0; 4]),
        [140, 448, 560, 0]
    );
    // v_lshrrev_b32_e64 v11, v1, 0x1010101 (shift by v1 & 31)
    assert_eq!(
        run(&[0xd516_000b, 0x0001_ff01, 0x0101_0101], 11, [0; 4]),
        [0x0008_0808, 0x101, 0x10, 0x0101_0101]
    );
    // v_mad_i32_i24 v20, v19, -4, 16 with v19 = v0 → use v0: re-encode src0 = v0
    // (0xd5420014 0x02418900): 16 − 4·sext24(v0)
    assert_eq!(
        run(&[0xd542_0014, 0x0241_8900], 20, [0; 4]),
        [4, (16 - 4 * 0x1_0002i32) as u32, 20, (16 - 4i32) as u32]
    );
    // v_bcnt_u32_b32 v12, v0, 0
    assert_eq!(run(&[0xd764_000c, 0x0001_0100], 12, [0; 4]), [2, 2, 32, 2]);
    // v_add_nc_u32 clamp saturates
    assert_eq!(
        run(&[0xd525_800e, 0x0002_0300], 14, [0; 4]),
        [8, 0x0001_0012, u32::MAX, 0x8000_0001]
    );
    // v_dot4_u32_u8 v10, v0, v1, v2: bytes of v0·v1 + v2
    let d = |a: u32, b: u32, c: u32| -> u32 {
        (0..4)
            .map(|i| ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff))
            .sum::<u32>()
            .wrapping_add(c)
    };
    assert_eq!(
        run(&[0xcc17_400a, 0x1c0a_0300], 10, [0; 4]),
        [
            d(3, 5, 100),
            d(0x0001_0002, 16, 0),
            d(0xffff_ffff, 20, 1),
            d(0x8000_0001, 0, 0xffff_fff0)
        ]
    );
    // v_bfrev_b32 v21, 1
    assert_eq!(run(&[0x7e2a_7081], 21, [0; 4]), [1 << 31; 4]);
}

#[test]
fn lane_operations_read_other_lanes() {
    // v_mbcnt_lo/hi over every lane: each lane's id.
    let prog = [
        0xd765_000b,
        0x0001_00c1, // v_mbcnt_lo_u32_b32 v11, -1, 0
        0xd766_000b,
        0x0002_16c1, // v_mbcnt_hi_u32_b32 v11, -1, v11
        S_ENDPGM,
    ];
    let mut w = Wave::new(true);
    run1(&prog, &mut w, &Mem::default()).unwrap();
    for l in [0, 1, 31, 32, 63] {
        assert_eq!(w.vgpr(11, l), (l, true));
    }
    // v_permlane16_b32 v12, v0, s2, s3: lane l of a row reads lane sel[l].
    let mut w = Wave::new(true);
    for l in 0..64 {
        w.set_vgpr(0, l, 1000 + l);
    }
    w.set_sgpr(2, 0x0765_4321); // lanes 0..7 read 1, 2, ..., 7, 0
    w.set_sgpr(3, 0xfedc_ba98);
    let v = {
        run1(
            &[0xd777_000c, 0x000c_0500, S_ENDPGM],
            &mut w,
            &Mem::default(),
        )
        .unwrap();
        (0..64).map(|l| w.vgpr(12, l).0).collect::<Vec<_>>()
    };
    assert_eq!(&v[0..8], &[1001, 1002, 1003, 1004, 1005, 1006, 1007, 1000]);
    assert_eq!(v[8], 1008);
    assert_eq!(v[16], 1017, "row 1 reads its own lanes");
    // v_readlane_b32 s4, v0, 5 (exec does not matter)
    let mut w = Wave::new(true);
    w.set_exec(1);
    for l in 0..64 {
        w.set_vgpr(0, l, 1000 + l);
    }
    run1(
        &[0xd760_0004, 0x0001_0b00, S_ENDPGM],
        &mut w,
        &Mem::default(),
    )
    .unwrap();
    assert_eq!(w.sgpr(4).v, 1005);
    // v_swap_b32 v13, v14 in the active lanes only
    let mut w = Wave::new(true);
    w.set_exec(0b01);
    for l in 0..2 {
        w.set_vgpr(13, l, 13);
        w.set_vgpr(14, l, 14);
    }
    run1(&[0x7e1a_cb0e, S_ENDPGM], &mut w, &Mem::default()).unwrap();
    assert_eq!(
        (w.vgpr(13, 0).0, w.vgpr(14, 0).0, w.vgpr(13, 1).0),
        (14, 13, 13)
    );
}

#[test]
fn masks_compares_carries_and_selects() {
    let v0 = fl([-1.0, 2.0, -0.0, f32::NAN]);
    // v_cmp_gt_f32_e64 s[8:9], 0, v0: 0 > v0; inactive lanes are 0
    let mut w = wave(v0, [0; 4], [0; 4], [0; 4]);
    run1(
        &[0xd404_0008, 0x0002_0080, S_ENDPGM],
        &mut w,
        &Mem::default(),
    )
    .unwrap();
    assert_eq!(w.sgpr(8).v, 0b0001);
    assert_eq!(w.sgpr(9).v, 0);
    // v_cndmask_b32_e64 v15, v0, -v0, s[6:7] with s6 = 0b0101
    let mut w = wave(v0, [0; 4], [0; 4], [0; 4]);
    w.set_sgpr(6, 0b0101);
    w.set_sgpr(7, 0);
    let r = one(&[0xd501_000f, 0x401a_0100], &mut w, 15);
    assert_eq!(
        r,
        [1.0f32.to_bits(), 2.0f32.to_bits(), 0.0f32.to_bits(), v0[3]]
    );
    // v_add_co_u32 v23, vcc, v0, v1 then v_add_co_ci_u32 v24, vcc, 0, v1, vcc
    let mut w = wave(
        [u32::MAX, 1, 0x8000_0000, 7],
        [1, 2, 0x8000_0000, 0],
        [0; 4],
        [0; 4],
    );
    let prog = [0xd70f_6a17, 0x0002_0300, 0x5030_0280, S_ENDPGM];
    run1(&prog, &mut w, &Mem::default()).unwrap();
    assert_eq!(
        (0..4).map(|l| w.vgpr(23, l).0).collect::<Vec<_>>(),
        [0, 3, 0, 7]
    );
    assert_eq!(
        (0..4).map(|l| w.vgpr(24, l).0).collect::<Vec<_>>(),
        [2, 2, 0x8000_0001, 0]
    );
    // v_cmp_ne_i16 vcc, 0, v0 reads the low halves only
    let mut w = wave(
        [0x0001_0000, 0x0000_0001, 0xffff_0000, 0xffff],
        [0; 4],
        [0; 4],
        [0; 4],
    );
    run1(&[0x7d1a_0080, S_ENDPGM], &mut w, &Mem::default()).unwrap();
    assert_eq!(w.vcc().v, 0b1010);
    // v_cmpx_gt_i32_e32 s10, v19: exec = lanes where s10 > v19
    let mut w = wave([0; 4], [0; 4], [0; 4], [0; 4]);
    for l in 0..4 {
        w.set_vgpr(19, l, l);
    }
    w.set_sgpr(10, 2);
    run1(&[0x7d28_260a, S_ENDPGM], &mut w, &Mem::default()).unwrap();
    assert_eq!(w.exec().v, 0b0011);
}

#[test]
fn sdwa_selects_sources_and_places_results() {
    let v0 = [0x0003_0002, 0x1234_5678, 0xffff_0001, 7];
    let v1 = [0xaaaa_bbbb, 1, 2, 3];
    let run = |insn: &[u32], reg: u8, init: u32| {
        let mut w = wave(v0, v1, [0; 4], [0; 4]);
        for l in 0..4 {
            w.set_vgpr(reg, l, init);
        }
        one(insn, &mut w, reg)
    };
    // v_mul_u32_u24_sdwa v16, 28, v0 src1_sel:WORD_1
    assert_eq!(
        run(&[0x1620_00f9, 0x0586_069c], 16, 0),
        [84, 28 * 0x1234, 28 * 0xffff, 0]
    );
    // v_lshlrev_b32_sdwa v18, 10, v0 src1_sel:WORD_1
    assert_eq!(
        run(&[0x3424_00f9, 0x0586_068a], 18, 0),
        [3 << 10, 0x1234 << 10, 0xffff << 10, 0]
    );
    // v_or_b32_sdwa v17, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1
    //   = (byte1(v0) | v1) into the high half, the low half kept
    assert_eq!(
        run(&[0x3822_02f9, 0x0601_1500], 17, 0x0000_cafe),
        [0xbbbb_cafe, 0x0057_cafe, 0x0002_cafe, 0x0003_cafe]
    );
}

#[test]
fn fma_mix_takes_each_source_as_f32_or_the_f16_half_op_sel_picks() {
    // v0: f16 pair (lo 2.0, hi 3.0); v1: f16 pair (lo 0.5, hi −4.0); v2: f32 0.25.
    let run = |insn: &[u32], old_v3: u32| -> [u32; 4] {
        let mut w = wave([0x4200_4000; 4], [0xc400_3800; 4], [0x3e80_0000; 4], [0; 4]);
        for l in 0..4 {
            w.set_vgpr(3, l, old_v3);
        }
        one(insn, &mut w, 3)
    };
    // v_fma_mix_f32 v3, v0, v1, v2 op_sel:[1,0,0] op_sel_hi:[1,1,0]: 3·0.5 + 0.25.
    assert_eq!(run(&[0xcc20_0803, 0x1c0a_0300], 0), [0x3fe0_0000; 4]);
    // v_fma_mixlo_f16 v3, v0, v1, v2 op_sel_hi:[1,1,1]: 2·0.5 + (f16 low half
    // of 0x3e800000 = 0) = 1.0 into the low half; the high half is kept.
    assert_eq!(
        run(&[0xcc21_4003, 0x1c0a_0300], 0xdead_0000),
        [0xdead_3c00; 4]
    );
    // v_fma_mixhi_f16 v3, -v0, |v1|, v2 op_sel:[0,1,0] op_sel_hi:[1,1,0] clamp:
    // −2·|−4| + 0.25 clamps to 0 in the high half; the low half is kept.
    assert_eq!(
        run(&[0xcc22_9203, 0x3c0a_0300], 0xffff_beef),
        [0x0000_beef; 4]
    );
    // v_fma_mix_f32 v3, v0, 1.0, v2 op_sel_hi:[1,1,0]: the inline constant of
    // an f16 source is the f16 1.0: 2·1 + 0.25.
    assert_eq!(run(&[0xcc20_0003, 0x1c09_e500], 0), [0x4010_0000; 4]);
}

/// Register `reg` and `reg + 1` of lanes 0..=3 as 64-bit values.
fn pair(w: &Wave, reg: u8) -> [u64; 4] {
    let mut out = [0; 4];
    for l in 0..4 {
        let (lo, dl) = w.vgpr(reg, l);
        let (hi, dh) = w.vgpr(reg + 1, l);
        assert!(dl && dh, "v[{reg}:{}] lane {l} undefined", reg + 1);
        out[l as usize] = lo as u64 | (hi as u64) << 32;
    }
    out
}

#[test]
fn shifts_of_64_bit_values_use_the_low_6_bits_of_the_amount() {
    // v[0:1] per lane: 0x8000_0001_0000_00ff, -2, 1, 0x0123_4567_89ab_cdef;
    // v2 (amount): 4, 63, 64 (= 0), 36.
    let vals: [u64; 4] = [
        0x8000_0001_0000_00ff,
        (-2i64) as u64,
        1,
        0x0123_4567_89ab_cdef,
    ];
    let amounts = [4u32, 63, 64, 36];
    let setup = || {
        let lo = vals.map(|v| v as u32);
        let hi = vals.map(|v| (v >> 32) as u32);
        wave(
            lo,
            hi,
            amounts,
            [0xdead_beef, 0x1234_5678, 0xffff_fff0, 0x8000_0000],
        )
    };
    let shifted = |f: fn(u64, u32) -> u64| -> [u64; 4] {
        let mut out = [0; 4];
        for l in 0..4 {
            out[l] = f(vals[l], amounts[l] & 63);
        }
        out
    };
    let prog = |w0: u32, w1: u32| [w0, w1, S_ENDPGM];
    for (insn, want) in [
        // v_lshlrev_b64 v[4:5], v2, v[0:1]
        (prog(0xd6ff_0004, 0x0002_0102), shifted(|v, n| v << n)),
        // v_lshrrev_b64 v[4:5], v2, v[0:1]
        (prog(0xd700_0004, 0x0002_0102), shifted(|v, n| v >> n)),
        // v_ashrrev_i64 v[4:5], v2, v[0:1]: the sign fills
        (
            prog(0xd701_0004, 0x0002_0102),
            shifted(|v, n| ((v as i64) >> n) as u64),
        ),
    ] {
        let mut w = setup();
        run1(&insn, &mut w, &Mem::default()).unwrap();
        assert_eq!(pair(&w, 4), want, "{insn:08x?}");
    }
    // v_lshlrev_b64 v[4:5], 36, s[2:3]: a uniform 64-bit source (s2 low, s3 high).
    let mut w = setup();
    run1(
        &[0xd6ff_0004, 0x0000_04a4, S_ENDPGM],
        &mut w,
        &Mem::default(),
    )
    .unwrap();
    let s = 0x8000_0000_ffff_fff0u64;
    assert_eq!(pair(&w, 4), [s << 36; 4]);
    // The arithmetic and logical right shifts differ exactly on negative values.
    assert_ne!(
        shifted(|v, n| v >> n)[1],
        shifted(|v, n| ((v as i64) >> n) as u64)[1]
    );
}

#[test]
fn an_image_read_leaves_its_destination_undefined_and_nothing_else() {
    // image_sample_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
    let sample = [0xf09c_0f08, 0x0082_0004, S_ENDPGM];
    let mut w = wave([1; 4], [2; 4], [3; 4], [0; 4]);
    for l in 0..4 {
        w.set_vgpr(4, l, 7);
        w.set_vgpr(6, l, 9);
    }
    run1(&sample, &mut w, &Mem::default()).unwrap();
    for l in 0..4 {
        for r in 0..4 {
            assert!(!w.vgpr(r, l).1, "v{r} lane {l} should be undefined");
        }
        assert_eq!(w.vgpr(4, l), (7, true), "the coordinates stay");
        assert_eq!(w.vgpr(6, l), (9, true), "registers past the texel stay");
    }
    // A fetch indexed by a texel is a finding, not a fetch of some record
    // the interpreter made up.
    // image_sample_lz v[0:3], …; buffer_load_dword v8, v0, s[0:3], 0 idxen
    let fetch = [0xf09c_0f08, 0x0082_0004, 0xe030_2000, 0x8000_0800, S_ENDPGM];
    let mut w = wave([1; 4], [2; 4], [3; 4], [0x1000, 0, 64, 0x1104_bfac]);
    let obs = run1(&fetch, &mut w, &Mem::default()).unwrap();
    assert!(obs.fetches.is_empty(), "{:?}", obs.fetches);
    assert!(!obs.findings.is_empty(), "an undefined index is a finding");
    // The same fetch with the defined index in v0 is a fetch (the control).
    let mut w = wave([1; 4], [2; 4], [3; 4], [0x1000, 0, 64, 0x1104_bfac]);
    let obs = run1(&fetch[2..], &mut w, &Mem::default()).unwrap();
    assert_eq!(obs.fetches.len(), 4, "{:?}", obs.findings);
}

#[test]
fn a_packed_half_is_defined_when_the_halves_it_reads_are() {
    // v_mul_f16_e32 v3, v0, v1 writes v3's low half only (its high half
    // stays undefined); v_pk_mul_f16 v4, v3, v2 op_sel_hi:[0,1] reads v3's
    // low half for both result halves: v4 = (2·0.5, 2·3) = 0x4600_3c00,
    // defined. v_pk_mul_f16 v5, v3, v2 reads v3's high half for its high
    // result half: v5 is not wholly defined.
    let prog = [
        0x6a06_0300,
        0xcc10_4004,
        0x1002_0503,
        0xcc10_4005,
        0x1802_0503,
        S_ENDPGM,
    ];
    let mut w = Wave::new(true);
    w.set_exec(0b1111);
    for l in 0..4 {
        w.set_vgpr(0, l, 0x0000_3c00);
        w.set_vgpr(1, l, 0x0000_4000);
        w.set_vgpr(2, l, 0x4200_3800);
    }
    run1(&prog, &mut w, &Mem::default()).unwrap();
    for l in 0..4 {
        assert_eq!(w.vgpr(4, l), (0x4600_3c00, true), "lane {l}");
        assert!(!w.vgpr(5, l).1, "v5 lane {l} reads v3's undefined half");
    }
}
