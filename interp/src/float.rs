//! IEEE single-precision arithmetic the way the VALU does it.
//!
//! - Rounding is round-to-nearest-even (the only mode RADV programs).
//! - With f32 denormal flushing on ([`crate::FpMode::RADV`]), denormal
//!   inputs read as signed zero and denormal results become signed zero.
//!   A result is flushed when the correctly rounded (gradually
//!   underflowed) value is below the smallest normal.
//! - `v_fma_f32`/`v_fmac_f32` are fused (one rounding); `v_mad_f32`/
//!   `v_mac_f32` round the product first.
//! - `v_rcp_f32`, `v_sqrt_f32`, `v_rsq_f32`, `v_exp_f32`, `v_log_f32`,
//!   `v_sin_f32`, `v_cos_f32` give the correctly rounded result through the
//!   fixed f64 sequences of [`crate::precise`], the ones the translator's
//!   precise mode emits (so both agree bit for bit on every host). The
//!   hardware is accurate to about 1 ulp, so a result may differ from a
//!   real GPU by an ulp or so. Nothing in a buffer address depends on them
//!   in the corpus.
//! - min/max (IEEE mode off, as for graphics shaders): a NaN operand loses
//!   to a number; `-0 < +0`.
//! - NaN results are the default quiet NaN `0x7fc00000`, payloads are not
//!   propagated.

use crate::precise;

/// The canonical quiet NaN.
pub const QNAN: u32 = 0x7fc0_0000;

#[inline]
fn is_denorm(b: u32) -> bool {
    b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0
}

/// Flush a denormal to signed zero when `flush`.
#[inline]
pub fn ftz(b: u32, flush: bool) -> u32 {
    if flush && is_denorm(b) {
        b & 0x8000_0000
    } else {
        b
    }
}

#[inline]
fn inp(b: u32, flush: bool) -> f32 {
    f32::from_bits(ftz(b, flush))
}

#[inline]
fn out(x: f32, flush: bool) -> u32 {
    if x.is_nan() {
        return QNAN;
    }
    ftz(x.to_bits(), flush)
}

/// `a + b`.
pub fn add(a: u32, b: u32, flush: bool) -> u32 {
    out(inp(a, flush) + inp(b, flush), flush)
}

/// `a * b`.
pub fn mul(a: u32, b: u32, flush: bool) -> u32 {
    out(inp(a, flush) * inp(b, flush), flush)
}

/// `v_mul_legacy_f32`: like `mul` but `0 * anything` (inf, NaN) is 0.
pub fn mul_legacy(a: u32, b: u32, flush: bool) -> u32 {
    let (x, y) = (inp(a, flush), inp(b, flush));
    if x == 0.0 || y == 0.0 {
        return 0;
    }
    out(x * y, flush)
}

/// Fused `a * b + c`.
pub fn fma(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    out(inp(a, flush).mul_add(inp(b, flush), inp(c, flush)), flush)
}

/// `v_fma_legacy_f32`: fused, but `0 * anything` contributes 0.
pub fn fma_legacy(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    let (x, y, z) = (inp(a, flush), inp(b, flush), inp(c, flush));
    if x == 0.0 || y == 0.0 {
        return out(z + 0.0, flush);
    }
    out(x.mul_add(y, z), flush)
}

/// Unfused `a * b + c` (the product is rounded, and flushed, first).
pub fn mad(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    let p = f32::from_bits(out(inp(a, flush) * inp(b, flush), flush));
    out(p + inp(c, flush), flush)
}

/// `v_mad_legacy_f32`: unfused, `0 * anything` is 0.
pub fn mad_legacy(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    let p = mul_legacy(a, b, flush);
    add(p, c, flush)
}

fn min_f(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        return y;
    }
    if y.is_nan() {
        return x;
    }
    if x < y {
        x
    } else if y < x {
        y
    } else if x.is_sign_negative() {
        x
    } else {
        y
    }
}

fn max_f(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        return y;
    }
    if y.is_nan() {
        return x;
    }
    if x > y {
        x
    } else if y > x {
        y
    } else if x.is_sign_positive() {
        x
    } else {
        y
    }
}

/// `v_min_f32`.
pub fn min(a: u32, b: u32, flush: bool) -> u32 {
    out(min_f(inp(a, flush), inp(b, flush)), flush)
}

/// `v_max_f32`.
pub fn max(a: u32, b: u32, flush: bool) -> u32 {
    out(max_f(inp(a, flush), inp(b, flush)), flush)
}

/// `v_min3_f32`.
pub fn min3(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    out(
        min_f(min_f(inp(a, flush), inp(b, flush)), inp(c, flush)),
        flush,
    )
}

/// `v_max3_f32`.
pub fn max3(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    out(
        max_f(max_f(inp(a, flush), inp(b, flush)), inp(c, flush)),
        flush,
    )
}

/// `v_med3_f32` (with a NaN operand: the min3, as the ISA documents).
pub fn med3(a: u32, b: u32, c: u32, flush: bool) -> u32 {
    let (x, y, z) = (inp(a, flush), inp(b, flush), inp(c, flush));
    if x.is_nan() || y.is_nan() || z.is_nan() {
        return out(min_f(min_f(x, y), z), flush);
    }
    out(max_f(min_f(x, y), min_f(max_f(x, y), z)), flush)
}

/// Which cube face the direction `(x, y, z)` points at, and the face's
/// coordinates: `[id, sc, tc, ma]` as f32 bits, for `v_cubeid_f32`,
/// `v_cubesc_f32`, `v_cubetc_f32` and `v_cubema_f32` (the same selection
/// for all four, as LLVM 19's constant folder of `llvm.amdgcn.cube*`
/// states it): the major axis is z when `|z| ≥ |x|` and `|z| ≥ |y|`, else
/// y when `|y| ≥ |x|`, else x (a NaN compares false); a face is the
/// negative one when its axis is negative and not zero (`-0` is the
/// positive face). `ma` is twice the major-axis value (one rounding).
/// Inputs are flushed as every f32 operation flushes them.
pub fn cube(x: u32, y: u32, z: u32, flush: bool) -> [u32; 4] {
    let (x, y, z) = (inp(x, flush), inp(y, flush), inp(z, flush));
    let neg = |v: f32| v < 0.0;
    let (id, ma, sc, tc) = if z.abs() >= x.abs() && z.abs() >= y.abs() {
        if neg(z) {
            (5.0, z, -x, -y)
        } else {
            (4.0, z, x, -y)
        }
    } else if y.abs() >= x.abs() {
        if neg(y) {
            (3.0, y, x, -z)
        } else {
            (2.0, y, x, z)
        }
    } else if neg(x) {
        (1.0, x, z, -y)
    } else {
        (0.0, x, -z, -y)
    };
    let f32b = |v: f32| out(v, flush);
    [f32b(id), f32b(sc), f32b(tc), f32b(ma + ma)]
}

/// `v_ldexp_f32`: `a * 2^n`, one rounding.
pub fn ldexp(a: u32, n: i32, flush: bool) -> u32 {
    let x = inp(a, flush);
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return out(x, flush);
    }
    // Exact in f64 for |n| <= 400, then one rounding to f32.
    let n = n.clamp(-400, 400);
    let r = (x as f64) * 2f64.powi(n);
    out(r as f32, flush)
}

/// `v_rcp_f32`, correctly rounded ([`crate::precise`]; the hardware is
/// within 1 ulp).
pub fn rcp(a: u32, flush: bool) -> u32 {
    out(precise::rcp(inp(a, flush)), flush)
}

/// `v_rsq_f32`, correctly rounded.
pub fn rsq(a: u32, flush: bool) -> u32 {
    out(precise::rsq(inp(a, flush)), flush)
}

/// `v_sqrt_f32`, correctly rounded.
pub fn sqrt(a: u32, flush: bool) -> u32 {
    out(precise::sqrt(inp(a, flush)), flush)
}

/// `v_exp_f32`: `2^x`, correctly rounded.
pub fn exp2(a: u32, flush: bool) -> u32 {
    out(precise::exp2(inp(a, flush)), flush)
}

/// `v_log_f32`: `log2(x)`, correctly rounded.
pub fn log2(a: u32, flush: bool) -> u32 {
    out(precise::log2(inp(a, flush)), flush)
}

/// `v_sin_f32`: the argument is in revolutions (`sin(2π x)`), correctly
/// rounded.
pub fn sin(a: u32, flush: bool) -> u32 {
    out(precise::sin_rev(inp(a, flush)), flush)
}

/// `v_cos_f32`: the argument is in revolutions, correctly rounded.
pub fn cos(a: u32, flush: bool) -> u32 {
    out(precise::cos_rev(inp(a, flush)), flush)
}

/// `v_fract_f32`: `x - floor(x)`, below 1.
pub fn fract(a: u32, flush: bool) -> u32 {
    let x = inp(a, flush);
    if x.is_infinite() || x.is_nan() {
        return QNAN;
    }
    let f = (x - x.floor()).min(f32::from_bits(0x3f7f_ffff));
    out(f, flush)
}

/// Rounding to an integral value: `v_trunc`, `v_ceil`, `v_floor`, `v_rndne`.
pub fn trunc(a: u32, flush: bool) -> u32 {
    out(inp(a, flush).trunc(), flush)
}
/// `v_ceil_f32`.
pub fn ceil(a: u32, flush: bool) -> u32 {
    out(inp(a, flush).ceil(), flush)
}
/// `v_floor_f32`.
pub fn floor(a: u32, flush: bool) -> u32 {
    out(inp(a, flush).floor(), flush)
}
/// `v_rndne_f32`: round half to even.
pub fn rndne(a: u32, flush: bool) -> u32 {
    out(inp(a, flush).round_ties_even(), flush)
}

/// `v_frexp_exp_i32_f32`: the exponent `e` with `x = m * 2^e`, `0.5 <= |m| < 1`;
/// 0 for zero, infinity and NaN.
pub fn frexp_exp(a: u32, flush: bool) -> u32 {
    let x = inp(a, flush);
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let b = x.to_bits();
    let e = ((b >> 23) & 0xff) as i32;
    let e = if e == 0 {
        // Denormal: m * 2^-149 with its top bit at position p.
        let p = 31 - (b & 0x007f_ffff).leading_zeros() as i32;
        p - 149 + 1
    } else {
        e - 127 + 1
    };
    e as u32
}

/// `v_frexp_mant_f32`: the mantissa `m` of [`frexp_exp`]; `x` itself for
/// zero, infinity and NaN.
pub fn frexp_mant(a: u32, flush: bool) -> u32 {
    let x = inp(a, flush);
    if x == 0.0 || !x.is_finite() {
        return out(x, flush);
    }
    let e = frexp_exp(a, flush) as i32;
    out(((x as f64) * 2f64.powi(-e)) as f32, flush)
}

/// Compare helper: the operands as floats after flushing.
pub fn cmp_operands(a: u32, b: u32, flush: bool) -> (f32, f32) {
    (inp(a, flush), inp(b, flush))
}

/// VOP3 output modifier (`omod`: 1 ×2, 2 ×4, 3 ÷2) then `clamp` to [0, 1]
/// (NaN clamps to 0).
pub fn omod_clamp(r: u32, omod: u8, clamp: bool, flush: bool) -> u32 {
    let mut x = f32::from_bits(r);
    let mut bits = r;
    if omod != 0 {
        x = match omod {
            1 => x * 2.0,
            2 => x * 4.0,
            _ => x * 0.5,
        };
        bits = out(x, flush);
        x = f32::from_bits(bits);
    }
    if clamp {
        bits = if x.is_nan() || x <= 0.0 {
            0
        } else if x >= 1.0 {
            0x3f80_0000
        } else {
            bits
        };
    }
    bits
}

/// f16 bits to f32 bits (exact).
pub fn f16_to_f32(h: u16) -> u32 {
    let s = ((h as u32) & 0x8000) << 16;
    let e = ((h >> 10) & 0x1f) as u32;
    let m = (h & 0x3ff) as u32;
    if e == 0x1f {
        return s | 0x7f80_0000 | (m << 13);
    }
    if e == 0 {
        if m == 0 {
            return s;
        }
        // Denormal f16: value m * 2^-24, exact in f32.
        let v = (m as f32) * f32::from_bits(0x3380_0000); // 2^-24
        return s | v.to_bits();
    }
    s | ((e + 112) << 23) | (m << 13)
}

/// f32 bits to f16 bits, rounding to nearest even (`rtz`: toward zero).
/// f16 denormals are produced (RADV keeps them).
pub fn f32_to_f16(b: u32, rtz: bool) -> u16 {
    let s = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32;
    let m = b & 0x007f_ffff;
    if e == 0xff {
        if m != 0 {
            return s | 0x7e00;
        }
        return s | 0x7c00;
    }
    // Work with the full significand (implicit bit) and an unbiased exponent.
    if e == 0 {
        // f32 denormals are far below half the smallest f16 denormal.
        return s;
    }
    let sig = m | 0x0080_0000; // 24 bits, value sig * 2^(e-127-23)
    let exp = e - 127;
    // Target: f16 normal if exp >= -14, with 10 fraction bits.
    let (shift, he) = if exp >= -14 {
        (13i32, exp + 15)
    } else {
        // Denormal: value = q * 2^-24, q = sig * 2^(exp-23+24).
        (13 + (-14 - exp), 0)
    };
    if shift > 24 + 1 {
        // Below half the smallest denormal: 0 (or the smallest with rounding up never happens).
        return s;
    }
    let q = sig >> shift;
    let rem = sig & ((1u32 << shift) - 1);
    let half = 1u32 << (shift - 1);
    let mut q = q;
    if !rtz && (rem > half || (rem == half && q & 1 == 1)) {
        q += 1;
    }
    // Assemble: for normals q includes the implicit bit (11 bits).
    let bits = if he == 0 {
        // q may have become 0x400 (the smallest normal), which assembles right.
        q
    } else {
        let mut he = he as u32;
        let mut q = q;
        if q >= 0x800 {
            q >>= 1;
            he += 1;
        }
        if he >= 0x1f {
            return if rtz { s | 0x7bff } else { s | 0x7c00 };
        }
        (he << 10) | (q & 0x3ff)
    };
    s | bits as u16
}

/// An f16 as f64 (exact).
pub fn h2d(h: u16) -> f64 {
    f32::from_bits(f16_to_f32(h)) as f64
}

/// f64 to f16 bits, rounding to nearest even from the f64's own bits;
/// every NaN is the quiet NaN 0x7e00 (f16 arithmetic results).
pub fn d2h(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let b = x.to_bits();
    let s = ((b >> 48) & 0x8000) as u16;
    if x.is_infinite() {
        return s | 0x7c00;
    }
    if x == 0.0 {
        return s;
    }
    let e = ((b >> 52) & 0x7ff) as i64;
    if e == 0 {
        // f64 denormals are far below the smallest f16 denormal.
        return s;
    }
    let sig = (b & ((1u64 << 52) - 1)) | (1u64 << 52); // 53 bits
    let exp = e - 1023;
    if exp >= 16 {
        return s | 0x7c00;
    }
    // Keep 11 significant bits (normal), fewer for denormals (ulp 2^-24).
    let shift = if exp >= -14 { 42 } else { 42 + (-14 - exp) };
    if shift > 54 {
        return s;
    }
    let q = sig >> shift;
    let rem = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    let mag = if exp >= -14 {
        // q in [2^10, 2^11]; a carry to 2^11 bumps the exponent.
        let (mut q, mut he) = (q, (exp + 15) as u64);
        if q >= 0x800 {
            q >>= 1;
            he += 1;
        }
        if he >= 0x1f {
            0x7c00
        } else {
            (he << 10) | (q & 0x3ff)
        }
    } else {
        // A denormal; 0x400 (rounded up to the smallest normal) assembles right.
        q
    };
    s | mag as u16
}

/// The f16 operations of `v_*_f16` and `v_pk_*_f16` (exact in f64, one
/// rounding to f16; min/max are IEEE mode's, a NaN result is 0x7e00).
pub fn f16_op(op: F16Op, a: u16, b: u16, c: u16) -> u16 {
    let (x, y, z) = (h2d(a), h2d(b), h2d(c));
    match op {
        F16Op::Add => d2h(x + y),
        F16Op::Sub => d2h(x - y),
        F16Op::Mul => d2h(x * y),
        F16Op::Fma => d2h(x.mul_add(y, z)),
        F16Op::Max | F16Op::Min => {
            let (p, q) = (x as f32, y as f32);
            let r = if op == F16Op::Max {
                max_f(p, q)
            } else {
                min_f(p, q)
            };
            if r.is_nan() {
                0x7e00
            } else {
                f32_to_f16(r.to_bits(), false)
            }
        }
    }
}

/// An f16 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F16Op {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `fma(a, b, c)`.
    Fma,
    /// IEEE-mode maximum.
    Max,
    /// IEEE-mode minimum.
    Min,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_fma_rounds_once() {
        // 1.5 · 683/1024 = 1 + 2^-11, an f16 midpoint; + 2^-24 rounds up.
        assert_eq!(f16_op(F16Op::Fma, 0x3e00, 0x3956, 0x0001), 0x3c01);
        assert_eq!(f16_op(F16Op::Fma, 0x3e00, 0x3956, 0x8001), 0x3c00);
        assert_eq!(f16_op(F16Op::Add, 0x3c00, 0x1000, 0), 0x3c00);
        assert_eq!(d2h(65520.0), 0x7c00);
        assert_eq!(d2h(65519.0), 0x7bff);
        assert_eq!(d2h(2f64.powi(-25)), 0);
        assert_eq!(d2h(2f64.powi(-25) * 1.5), 1);
        assert_eq!(d2h(-2f64.powi(-14)), 0x8400);
    }

    fn b(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn denormals_flush_to_signed_zero_in_and_out() {
        let tiny = 0x0000_0001; // smallest denormal
        assert_eq!(add(tiny, 0, true), 0);
        assert_eq!(add(tiny, 0, false), tiny);
        assert_eq!(mul(b(1e-30), b(1e-10), true), 0, "denormal result flushed");
        assert_eq!(mul(b(-1e-30), b(1e-10), true), 0x8000_0000);
    }

    #[test]
    fn fma_is_fused_and_mad_is_not() {
        // (1 + 2^-23) * (1 - 2^-23) - 1 = -2^-46 exactly; the rounded product is 1.
        let a = b(1.0 + f32::EPSILON);
        let c = b(1.0 - f32::EPSILON);
        assert_eq!(f32::from_bits(fma(a, c, b(-1.0), false)), -(2f32.powi(-46)));
        assert_eq!(mad(a, c, b(-1.0), false), 0);
    }

    #[test]
    fn min_max_prefer_numbers_and_order_signed_zeros() {
        assert_eq!(min(QNAN, b(2.0), true), b(2.0));
        assert_eq!(max(b(3.0), QNAN, true), b(3.0));
        assert_eq!(min(b(0.0), b(-0.0), true), b(-0.0));
        assert_eq!(max(b(-0.0), b(0.0), true), b(0.0));
        assert_eq!(med3(b(5.0), b(1.0), b(3.0), true), b(3.0));
    }

    #[test]
    fn rndne_ldexp_and_rcp_match_ieee() {
        assert_eq!(rndne(b(2.5), true), b(2.0));
        assert_eq!(rndne(b(3.5), true), b(4.0));
        assert_eq!(rndne(b(-0.5), true), b(-0.0));
        assert_eq!(ldexp(b(1.0), 3, true), b(8.0));
        assert_eq!(ldexp(b(1.0), -130, true), 0, "denormal result flushed");
        assert_eq!(
            ldexp(b(1.0), -130, false),
            0x0008_0000,
            "2^-130 is a denormal"
        );
        assert_eq!(ldexp(b(1.5), 200, true), b(f32::INFINITY));
        assert_eq!(rcp(b(4.0), true), b(0.25));
        assert_eq!(rcp(0, true), b(f32::INFINITY));
    }

    #[test]
    fn f16_conversions_round_as_asked() {
        assert_eq!(f32_to_f16(b(1.0), false), 0x3c00);
        assert_eq!(f32_to_f16(b(65504.0), false), 0x7bff);
        assert_eq!(f32_to_f16(b(65520.0), false), 0x7c00, "rounds up to inf");
        assert_eq!(f32_to_f16(b(65520.0), true), 0x7bff, "rtz stays finite");
        // 1 + 2^-11 is halfway between 1 and the next f16: ties to even (1).
        assert_eq!(f32_to_f16(b(1.0 + 2f32.powi(-11)), false), 0x3c00);
        assert_eq!(f32_to_f16(b(1.0 + 3.0 * 2f32.powi(-11)), false), 0x3c02);
        assert_eq!(
            f32_to_f16(b(2f32.powi(-24)), false),
            0x0001,
            "smallest denormal"
        );
        assert_eq!(f32_to_f16(b(-2f32.powi(-14)), false), 0x8400);
        for h in [0x0001u16, 0x03ff, 0x0400, 0x3c00, 0xc000, 0x7bff, 0x7c00] {
            assert_eq!(f32_to_f16(f16_to_f32(h), false), h, "{h:#x}");
        }
    }

    #[test]
    fn frexp_splits_mantissa_and_exponent() {
        assert_eq!(frexp_exp(b(8.0), true) as i32, 4);
        assert_eq!(frexp_mant(b(8.0), true), b(0.5));
        assert_eq!(frexp_exp(b(0.75), true) as i32, 0);
    }
}
