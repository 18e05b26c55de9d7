//! The precise forms of the VALU's approximate operations (`v_rcp_f32`,
//! `v_rsq_f32`, `v_sqrt_f32`, `v_exp_f32`, `v_log_f32`, `v_sin_f32`,
//! `v_cos_f32`): each is a fixed sequence of f64 additions, subtractions,
//! multiplications and exact conversions, then one rounding to f32.
//!
//! The translator's precise mode (`translator::Options::precise`) emits the
//! very same sequence in SPIR-V, using only operations every conforming
//! Vulkan driver rounds correctly (f64 `OpFAdd`/`OpFSub`/`OpFMul` with
//! `NoContraction`, `OpFConvert`, integer conversions and bit operations),
//! so the translation and the interpreter give the same bits on every host.
//! The coefficient tables here and in `translator/src/emit/precise.rs` are
//! the same numbers (a test in `cli/tests` compares them).
//!
//! The result is the correctly rounded f32 value: `rcp`, `sqrt` and `rsq`
//! are checked on every significand of both exponent parities (which
//! covers every input), `exp2`, `log2`, `sin_rev` and `cos_rev` on
//! millions of samples against an independent double-double reference
//! (`tests` below; the exhaustive runs are `--ignored`). Each sequence
//! computes its value with a relative error below 2^-50 before the final
//! rounding.
//!
//! An exact zero result (sin and cos at multiples of a quarter turn,
//! `log2(1)`) gets its sign by rule: `sin(2π(±n)) = ±0`, the others `+0`.
//!
//! Inputs are f32 values as the VALU reads them (denormals already flushed
//! when the float mode says so); the caller flushes the result the same
//! way. NaN results are `f32::NAN`.

/// `2^k` for `k` in `[-252, 254]`, as the product of two f32 powers of two
/// (each built from its bits, so exact).
fn pow2(k: i32) -> (f64, f64) {
    let k1 = k >> 1;
    let k2 = k - k1;
    let p = |k: i32| f32::from_bits(((k + 127) as u32) << 23) as f64;
    (p(k1), p(k2))
}

/// `y * 2^k`, exact while the result is a normal f64.
fn scale(y: f64, k: i32) -> f64 {
    let (a, b) = pow2(k);
    (y * a) * b
}

/// A finite nonzero f32 as `(negative, m, e)`: `|x| = m * 2^(e - 23)`
/// with `2^23 <= m < 2^24` (denormals normalised).
fn split(x: f32) -> (bool, u32, i32) {
    let b = x.to_bits();
    let neg = b & 0x8000_0000 != 0;
    let be = ((b >> 23) & 0xff) as i32;
    let frac = b & 0x007f_ffff;
    if be != 0 {
        (neg, frac | 0x0080_0000, be - 127)
    } else {
        let msb = 31 - frac.leading_zeros() as i32;
        let shift = 23 - msb;
        (neg, frac << shift, -126 - shift)
    }
}

/// `2^-23`, `2^-22` and `2^-24` as f64.
const P_M23: f64 = 1.0 / 8_388_608.0;
const P_M22: f64 = 1.0 / 4_194_304.0;
const P_M24: f64 = 1.0 / 16_777_216.0;

/// The linear start of the reciprocal iteration on `[1, 2)`: `24/17 - 8/17 s`
/// (relative error at most 1/17).
pub const RCP_START: [f64; 2] = [
    f64::from_bits(0x3ff6_9696_9696_9697),
    f64::from_bits(0x3fde_1e1e_1e1e_1e1e),
];
/// Newton steps of the reciprocal: 1/17 → 2^-65 before rounding.
pub const RCP_STEPS: usize = 4;
/// Newton steps of the reciprocal square root on `[1, 4)` from the chord
/// `1 - (t - 1)/6` (relative error at most 0.19).
pub const RSQ_STEPS: usize = 6;
/// The linear start of `1/b` on `[1.70, 2.42]` in `log2`: `1 - 0.243 b`.
pub const LOG_RCP_START: [f64; 2] = [1.0, 0.243];
/// `ln(2)^i / i!`, `i = 0..=13`: `2^f` for `|f| <= 1/2`.
pub const EXP2_POLY: [f64; 14] = [
    f64::from_bits(0x3ff0_0000_0000_0000),
    f64::from_bits(0x3fe6_2e42_fefa_39ef),
    f64::from_bits(0x3fce_bfbd_ff82_c58f),
    f64::from_bits(0x3fac_6b08_d704_a0c0),
    f64::from_bits(0x3f83_b2ab_6fba_4e77),
    f64::from_bits(0x3f55_d87f_e78a_6731),
    f64::from_bits(0x3f24_3091_2f86_c787),
    f64::from_bits(0x3eef_fcbf_c588_b0c7),
    f64::from_bits(0x3eb6_2c02_23a5_c824),
    f64::from_bits(0x3e7b_5253_d395_e7c4),
    f64::from_bits(0x3e3e_4cf5_158b_8eca),
    f64::from_bits(0x3dfe_8cac_7351_bb25),
    f64::from_bits(0x3dbc_3bd6_50fc_2986),
    f64::from_bits(0x3d78_1619_3166_d0f9),
];
/// `2 / (ln(2) (2i + 1))`, `i = 0..=10`: `log2(s) = u P(u^2)` with
/// `u = (s - 1)/(s + 1)`, `|u| <= 0.1716`.
pub const LOG2_POLY: [f64; 11] = [
    f64::from_bits(0x4007_1547_652b_82fe),
    f64::from_bits(0x3fee_c709_dc3a_03fd),
    f64::from_bits(0x3fe2_776c_50ef_9bfe),
    f64::from_bits(0x3fda_6176_2a7a_ded9),
    f64::from_bits(0x3fd4_84b1_3d7c_02a9),
    f64::from_bits(0x3fd0_c9a8_4994_022d),
    f64::from_bits(0x3fcc_68f5_68d3_1760),
    f64::from_bits(0x3fc8_9f3b_1694_cffe),
    f64::from_bits(0x3fc5_b9ac_9b74_3f0d),
    f64::from_bits(0x3fc3_703c_1f4d_0ffe),
    f64::from_bits(0x3fc1_964e_c6fc_9491),
];
/// `(-1)^i (2π)^(2i+1) / (2i+1)!`, `i = 0..=8`: `sin(2π t)` for
/// `|t| <= 1/8`.
pub const SIN_POLY: [f64; 9] = [
    f64::from_bits(0x4019_21fb_5444_2d18),
    f64::from_bits(0xc044_abbc_e625_be53),
    f64::from_bits(0x4054_66bc_6775_aae2),
    f64::from_bits(0xc053_2d2c_ce62_bd86),
    f64::from_bits(0x4045_0783_487e_e782),
    f64::from_bits(0xc02e_3074_fde8_871f),
    f64::from_bits(0x400e_8f43_4d01_8d63),
    f64::from_bits(0xbfe6_fadb_9f15_5744),
    f64::from_bits(0x3fba_aec3_2af9_3359),
];
/// `(-1)^i (2π)^(2i) / (2i)!`, `i = 0..=9`: `cos(2π t)` for `|t| <= 1/8`.
pub const COS_POLY: [f64; 10] = [
    f64::from_bits(0x3ff0_0000_0000_0000),
    f64::from_bits(0xc033_bd3c_c9be_45de),
    f64::from_bits(0x4050_3c1f_081b_5ac4),
    f64::from_bits(0xc055_5d3c_7e3c_bffa),
    f64::from_bits(0x404e_1f50_6891_babb),
    f64::from_bits(0xc03a_6d1f_2a20_4a8c),
    f64::from_bits(0x401f_9d38_a376_3cc3),
    f64::from_bits(0xbffb_6e24_f44b_128f),
    f64::from_bits(0x3fd2_0c62_c2f2_d7f5),
    f64::from_bits(0xbfa2_a0c5_91af_8314),
];

/// Horner's rule, highest coefficient first: `c[n] x^n + ... + c[0]`.
fn horner(c: &[f64], x: f64) -> f64 {
    let mut p = c[c.len() - 1];
    for &k in c[..c.len() - 1].iter().rev() {
        p = p * x + k;
    }
    p
}

/// `1/x`, correctly rounded.
pub fn rcp(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    if x.is_infinite() {
        return if x < 0.0 { -0.0 } else { 0.0 };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
    }
    let (neg, m, e) = split(x);
    let s = (m as f64) * P_M23;
    let mut y = RCP_START[0] - RCP_START[1] * s;
    for _ in 0..RCP_STEPS {
        let r = 1.0 - s * y;
        y = y + y * r;
    }
    let r = scale(y, -e);
    let r = if neg { -r } else { r };
    r as f32
}

/// `(t, e2)` with `|x| = t * 2^e2`, `1 <= t < 4`, `e2` even.
fn even_split(x: f32) -> (f64, i32) {
    let (_, m, e) = split(x);
    if e & 1 != 0 {
        ((m as f64) * P_M22, e - 1)
    } else {
        ((m as f64) * P_M23, e)
    }
}

/// `1/sqrt(t)` for `t` in `[1, 4)`.
fn rsq_core(t: f64) -> f64 {
    let mut y = 1.0 - (t - 1.0) * (1.0 / 6.0);
    for _ in 0..RSQ_STEPS {
        let r = 1.0 - (t * y) * y;
        y = y + (y * 0.5) * r;
    }
    y
}

/// `sqrt(x)`, correctly rounded.
pub fn sqrt(x: f32) -> f32 {
    if x.is_nan() || (x < 0.0) {
        return f32::NAN;
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let (t, e2) = even_split(x);
    let y = rsq_core(t);
    let g = t * y;
    let g = g + (y * 0.5) * (t - g * g);
    scale(g, e2 >> 1) as f32
}

/// `1/sqrt(x)`, correctly rounded.
pub fn rsq(x: f32) -> f32 {
    if x.is_nan() || (x < 0.0) {
        return f32::NAN;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
    }
    if x.is_infinite() {
        return 0.0;
    }
    let (t, e2) = even_split(x);
    scale(rsq_core(t), -(e2 >> 1)) as f32
}

/// `2^x`, correctly rounded.
pub fn exp2(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let xc = (x as f64).clamp(-200.0, 200.0);
    let mut k = xc as i32;
    let mut f = xc - k as f64;
    if f > 0.5 {
        f -= 1.0;
        k += 1;
    }
    if f < -0.5 {
        f += 1.0;
        k -= 1;
    }
    scale(horner(&EXP2_POLY, f), k) as f32
}

/// `log2(x)`, correctly rounded.
pub fn log2(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let (_, m, e) = split(x);
    let (s, e) = if m > 0x00b5_04f3 {
        ((m as f64) * P_M24, e + 1)
    } else {
        ((m as f64) * P_M23, e)
    };
    let a = s - 1.0;
    let b = s + 1.0;
    let mut y = LOG_RCP_START[0] - LOG_RCP_START[1] * b;
    for _ in 0..RCP_STEPS {
        let r = 1.0 - b * y;
        y = y + y * r;
    }
    let u = a * y;
    let l = u * horner(&LOG2_POLY, u * u);
    // log2(1) = +0 by rule (as for sin and cos).
    let r = (e as f64 + l) as f32;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// `sin(2π x)` (`rev_cos`: `cos(2π x)`), correctly rounded.
fn sincos_rev(x: f32, cos: bool) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    let xd = x as f64;
    // From 2^23 on every f32 is an integer: a whole number of turns.
    let xr = if xd.abs() >= 8_388_608.0 { 0.0 } else { xd };
    let k = xr as i32;
    let r = xr - k as f64;
    let half = if r < 0.0 { -0.5 } else { 0.5 };
    let q = (r * 4.0 + half) as i32;
    let t = r - q as f64 * 0.25;
    let t2 = t * t;
    let s = t * horner(&SIN_POLY, t2);
    let c = horner(&COS_POLY, t2);
    let v = match (q + i32::from(cos)) & 3 {
        0 => s,
        1 => c,
        2 => -s,
        _ => -c,
    } as f32;
    // An exact zero gets its sign by rule, not from the sequence (a host
    // compiler may not keep zero signs): sin(2π(±n)) = ±0, cos(2π(n+1/4))
    // = +0.
    if v == 0.0 {
        return if cos {
            0.0
        } else {
            f32::from_bits(x.to_bits() & 0x8000_0000)
        };
    }
    v
}

/// `sin(2π x)`, correctly rounded (`v_sin_f32` takes revolutions).
pub fn sin_rev(x: f32) -> f32 {
    sincos_rev(x, false)
}

/// `cos(2π x)`, correctly rounded.
pub fn cos_rev(x: f32) -> f32 {
    sincos_rev(x, true)
}

#[cfg(test)]
mod tests;
