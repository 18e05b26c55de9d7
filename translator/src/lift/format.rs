//! Typed buffer formats and 16-bit float conversions, built from exact
//! integer and float operations of the IR (no device conversion whose
//! rounding Vulkan leaves open).
//!
//! A gfx10 unified buffer format's name lists its component widths from the
//! most significant bits down (`BUF_FMT_2_10_10_10_SNORM` has X in bits
//! 0..10 and W in bits 30..32, the layout of Vulkan's
//! `A2B10G10R10_SNORM_PACK32`); X is the first component in memory.
//! Missing components read as 0, 0, 0 and 1 (1.0 for the float, normalised
//! and scaled formats). The conversions are the interpreter's
//! (`interp/src/format.rs`): UNORM and SNORM divide by `2^n − 1` /
//! `2^(n−1) − 1` rounding to nearest even, SNORM clamps to −1, the 16-, 11-
//! and 10-bit floats convert exactly.

use crate::ir::{Bin, Builder, FCmp, ICmp, Tri, Ty, Un, Value};

/// How a format's components convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

/// A parsed format: component widths, X first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    pub(crate) bits: [u8; 4],
    pub(crate) count: u8,
    pub(crate) num: Num,
}

/// Deliberately wrong conversions, for the negative controls only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FormatFaults {
    /// Read the components in name order (W of `2_10_10_10` in the low
    /// bits), the wrong layout.
    pub(crate) name_order: bool,
    /// Zero-extend signed components instead of sign-extending them.
    pub(crate) no_sign_extension: bool,
}

impl Format {
    /// Parse a format number; `None` for invalid or reserved numbers.
    #[cfg(test)]
    pub(crate) fn of(fmt: u8) -> Option<Format> {
        Self::of_with(fmt, FormatFaults::default())
    }

    pub(crate) fn of_with(fmt: u8, faults: FormatFaults) -> Option<Format> {
        let name = isa::family::buf::format_name(fmt)?.strip_prefix("BUF_FMT_")?;
        let mut parts: Vec<&str> = name.split('_').collect();
        let num = match parts.pop()? {
            "UNORM" => Num::Unorm,
            "SNORM" => Num::Snorm,
            "USCALED" => Num::Uscaled,
            "SSCALED" => Num::Sscaled,
            "UINT" => Num::Uint,
            "SINT" => Num::Sint,
            "FLOAT" => Num::Float,
            _ => return None,
        };
        if parts.is_empty() || parts.len() > 4 {
            return None;
        }
        if !faults.name_order {
            parts.reverse();
        }
        let mut bits = [0u8; 4];
        for (i, p) in parts.iter().enumerate() {
            bits[i] = p.parse().ok()?;
        }
        Some(Format {
            bits,
            count: parts.len() as u8,
            num,
        })
    }

    /// Bytes of one element.
    pub(crate) fn bytes(&self) -> u32 {
        self.bits.iter().map(|&b| b as u32).sum::<u32>() / 8
    }

    /// The value 1 in this format's result type.
    pub(crate) fn one(&self) -> u32 {
        match self.num {
            Num::Uint | Num::Sint => 1,
            _ => 0x3f80_0000,
        }
    }

    /// Convert one element given its dwords (`words[k]` holds bytes
    /// `4k..4k+4`, zero past the element) into the four result values.
    pub(crate) fn convert(
        &self,
        b: &mut Builder,
        words: &[Value],
        faults: FormatFaults,
    ) -> [Value; 4] {
        let zero = b.u32(0);
        let mut out = [zero, zero, zero, b.u32(self.one())];
        let mut pos = 0u32;
        for (o, &n) in out.iter_mut().zip(&self.bits).take(self.count as usize) {
            let n = n as u32;
            let w = words.get((pos / 32) as usize).copied().unwrap_or(zero);
            let x = field(b, w, pos % 32, n, false);
            *o = self.component(b, w, x, pos % 32, n, faults);
            pos += n;
        }
        out
    }

    fn component(
        &self,
        b: &mut Builder,
        w: Value,
        x: Value,
        at: u32,
        n: u32,
        faults: FormatFaults,
    ) -> Value {
        let signed = |b: &mut Builder| field(b, w, at, n, !faults.no_sign_extension);
        match self.num {
            Num::Uint => x,
            Num::Sint => signed(b),
            Num::Uscaled => {
                let f = b.un(Un::F32FromU32, x);
                b.un(Un::AsU32, f)
            }
            Num::Sscaled => {
                let s = signed(b);
                let f = b.un(Un::F32FromI32, s);
                b.un(Un::AsU32, f)
            }
            Num::Unorm => div_rne(b, x, (1u32 << n) - 1),
            Num::Snorm => {
                let max = (1u32 << (n - 1)) - 1;
                let s = signed(b);
                // |s| / max with s's sign; −2^(n−1) is below −1 and clamps.
                let zero = b.u32(0);
                let neg = b.icmp(ICmp::SLt, s, zero);
                let ns = b.bin(Bin::Sub, zero, s);
                let mag = b.select(neg, ns, s);
                let q = div_rne(b, mag, max.max(1));
                let sign = b.u32(0x8000_0000);
                let nq = b.bin(Bin::Or, q, sign);
                let r = b.select(neg, nq, q);
                let lim = b.u32(max);
                let below = b.icmp(ICmp::ULt, lim, mag);
                let below = b.bin(Bin::BAnd, neg, below);
                let m1 = b.u32((-1.0f32).to_bits());
                b.select(below, m1, r)
            }
            Num::Float => match n {
                32 => x,
                16 => small_float(b, x, 10, true),
                11 => small_float(b, x, 6, false),
                10 => small_float(b, x, 5, false),
                _ => b.u32(0),
            },
        }
    }
}

/// Bits `at..at+n` of `w`, zero- or sign-extended.
fn field(b: &mut Builder, w: Value, at: u32, n: u32, sext: bool) -> Value {
    if n >= 32 {
        return w;
    }
    let l = b.u32(32 - at - n);
    let r = b.u32(32 - n);
    let t = b.bin(Bin::Shl, w, l);
    b.bin(if sext { Bin::ShrA } else { Bin::ShrL }, t, r)
}

/// `x / d` as f32 bits, rounded to nearest (x, d < 2^24, d > 0): a first
/// quotient from the reciprocal, then the neighbour with the smallest exact
/// remainder `|x − c·d|` (an fma).
fn div_rne(b: &mut Builder, x: Value, d: u32) -> Value {
    if d == 1 {
        let f = b.un(Un::F32FromU32, x);
        return b.un(Un::AsU32, f);
    }
    let xf = b.un(Un::F32FromU32, x);
    let k = b.konst(Ty::F32, (1.0f32 / d as f32).to_bits());
    let q = b.bin(Bin::FMul, xf, k);
    let qb = b.un(Un::AsU32, q);
    let df = b.konst(Ty::F32, (d as f32).to_bits());
    let one = b.u32(1);
    let rem = |b: &mut Builder, c: Value| {
        let cf = b.un(Un::AsF32, c);
        let nc = b.un(Un::FNeg, cf);
        let r = b.tri(Tri::Fma, nc, df, xf);
        b.un(Un::FAbs, r)
    };
    let r0 = rem(b, qb);
    let lo = b.bin(Bin::Sub, qb, one);
    let hi = b.add(qb, one);
    let rl = rem(b, lo);
    let rh = rem(b, hi);
    let lt = FCmp(FCmp::LT);
    let use_lo = b.bin(Bin::FCmp(lt), rl, r0);
    let best = b.select(use_lo, lo, qb);
    let rb = b.select(use_lo, rl, r0);
    let use_hi = b.bin(Bin::FCmp(lt), rh, rb);
    let best = b.select(use_hi, hi, best);
    // 0 / d is 0 (and 0 − 1 would be a NaN's bits).
    let zero = b.u32(0);
    let z = b.icmp(ICmp::Eq, x, zero);
    b.select(z, zero, best)
}

/// A float with a 5-bit exponent (bias 15), `m` mantissa bits and (with
/// `sign`) a sign bit above them, to f32 bits. NaNs: the f16 keeps its
/// payload, the unsigned 10/11-bit floats give the quiet NaN.
pub(crate) fn small_float(b: &mut Builder, x: Value, m: u32, sign: bool) -> Value {
    let zero = b.u32(0);
    let s = if sign {
        let sb = b.u32(1 << (m + 5));
        let t = b.bin(Bin::And, x, sb);
        let sh = b.u32(31 - (m + 5));
        b.bin(Bin::Shl, t, sh)
    } else {
        zero
    };
    let ms = b.u32(m);
    let e0 = b.bin(Bin::ShrL, x, ms);
    let m1f = b.u32(0x1f);
    let e = b.bin(Bin::And, e0, m1f);
    let mm = b.u32((1 << m) - 1);
    let man = b.bin(Bin::And, x, mm);
    let up = b.u32(23 - m);
    let man_hi = b.bin(Bin::Shl, man, up);
    // Normal: ((e + 112) << 23) | man << (23 − m).
    let k112 = b.u32(112);
    let eb = b.add(e, k112);
    let s23 = b.u32(23);
    let eb = b.bin(Bin::Shl, eb, s23);
    let normal = b.bin(Bin::Or, eb, man_hi);
    // Infinity / NaN.
    let inf = b.u32(0x7f80_0000);
    let special = if sign {
        b.bin(Bin::Or, inf, man_hi)
    } else {
        let qn = b.u32(0x7fc0_0000);
        let nan = b.icmp(ICmp::Ne, man, zero);
        b.select(nan, qn, inf)
    };
    // Denormal: man · 2^(−14 − m), exact and normal in f32.
    let mf = b.un(Un::F32FromU32, man);
    let scale = b.konst(Ty::F32, 2f32.powi(-14 - m as i32).to_bits());
    let den = b.bin(Bin::FMul, mf, scale);
    let den = b.un(Un::AsU32, den);
    let is_den = b.icmp(ICmp::Eq, e, zero);
    let is_special = b.icmp(ICmp::Eq, e, m1f);
    let r = b.select(is_den, den, normal);
    let r = b.select(is_special, special, r);
    b.bin(Bin::Or, r, s)
}

/// f32 bits to f16 bits (in the low 16 bits), rounding to nearest even;
/// f32 denormals become signed zeros, NaNs the quiet NaN, overflow infinity
/// (the interpreter's `float::f32_to_f16`).
pub(crate) fn f32_to_f16(b: &mut Builder, x: Value, round: bool) -> Value {
    let zero = b.u32(0);
    let one = b.u32(1);
    let s16 = b.u32(16);
    let t = b.bin(Bin::ShrL, x, s16);
    let k8000 = b.u32(0x8000);
    let s = b.bin(Bin::And, t, k8000);
    let s23 = b.u32(23);
    let e0 = b.bin(Bin::ShrL, x, s23);
    let kff = b.u32(0xff);
    let e = b.bin(Bin::And, e0, kff);
    let mmask = b.u32(0x7f_ffff);
    let m = b.bin(Bin::And, x, mmask);
    let implicit = b.u32(0x80_0000);
    let sig = b.bin(Bin::Or, m, implicit);
    // shift = 13 for normal results (e ≥ 113), 126 − e for denormal ones.
    let k113 = b.u32(113);
    let normal = b.icmp(ICmp::ULe, k113, e);
    let k126 = b.u32(126);
    let dshift = b.bin(Bin::Sub, k126, e);
    let k13 = b.u32(13);
    let shift = b.select(normal, k13, dshift);
    let q = b.bin(Bin::ShrL, sig, shift);
    let bit = b.bin(Bin::Shl, one, shift);
    let rmask = b.bin(Bin::Sub, bit, one);
    let rem = b.bin(Bin::And, sig, rmask);
    let sm1 = b.bin(Bin::Sub, shift, one);
    let half = b.bin(Bin::Shl, one, sm1);
    let gt = b.icmp(ICmp::ULt, half, rem);
    let eq = b.icmp(ICmp::Eq, rem, half);
    let odd = b.bin(Bin::And, q, one);
    let odd = b.icmp(ICmp::Ne, odd, zero);
    let tie = b.bin(Bin::BAnd, eq, odd);
    let up = b.bin(Bin::BOr, gt, tie);
    let inc = if round { b.un(Un::BoolToU32, up) } else { zero };
    let q = b.add(q, inc);
    // Normal: (he << 10) + q − 0x400 (a carry out of the mantissa bumps the
    // exponent), at most infinity.
    let k112 = b.u32(112);
    let he = b.bin(Bin::Sub, e, k112);
    let s10 = b.u32(10);
    let heb = b.bin(Bin::Shl, he, s10);
    let k400 = b.u32(0x400);
    let nb = b.add(heb, q);
    let nb = b.bin(Bin::Sub, nb, k400);
    let inf = b.u32(0x7c00);
    let nb = b.bin(Bin::UMin, nb, inf);
    let mag = b.select(normal, nb, q);
    // e < 101: below half the smallest denormal.
    let k101 = b.u32(101);
    let tiny = b.icmp(ICmp::ULt, e, k101);
    let mag = b.select(tiny, zero, mag);
    // e = 255: infinity or NaN; e ≥ 143 already saturated above.
    let nan = b.icmp(ICmp::Ne, m, zero);
    let k7e = b.u32(0x7e00);
    let special = b.select(nan, k7e, inf);
    let is_special = b.icmp(ICmp::Eq, e, kff);
    let mag = b.select(is_special, special, mag);
    b.bin(Bin::Or, mag, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference conversions (written independently of the IR form).
    fn reference(f: &Format, raw: u128) -> [u32; 4] {
        let mut out = [0, 0, 0, f.one()];
        let mut pos = 0;
        for (i, o) in out.iter_mut().enumerate().take(f.count as usize) {
            let n = f.bits[i] as u32;
            let x = ((raw >> pos) & ((1u128 << n) - 1)) as u64;
            pos += n;
            let sx = ((x << (64 - n)) as i64) >> (64 - n);
            *o = match f.num {
                Num::Unorm => ((x as f64 / ((1u64 << n) - 1) as f64) as f32).to_bits(),
                Num::Snorm => {
                    ((sx as f64 / ((1u64 << (n - 1)) - 1) as f64).max(-1.0) as f32).to_bits()
                }
                Num::Uscaled => (x as f32).to_bits(),
                Num::Sscaled => (sx as f32).to_bits(),
                Num::Uint => x as u32,
                Num::Sint => sx as i32 as u32,
                Num::Float => match n {
                    32 => x as u32,
                    16 => ref_small(x as u32, 10, true),
                    11 => ref_small(x as u32, 6, false),
                    _ => ref_small(x as u32, 5, false),
                },
            };
        }
        out
    }

    fn ref_small(x: u32, m: u32, sign: bool) -> u32 {
        let s = if sign { ((x >> (m + 5)) & 1) << 31 } else { 0 };
        let e = (x >> m) & 0x1f;
        let man = x & ((1 << m) - 1);
        let mag = if e == 0x1f {
            if sign {
                0x7f80_0000 | (man << (23 - m))
            } else if man != 0 {
                0x7fc0_0000
            } else {
                0x7f80_0000
            }
        } else if e == 0 {
            ((man as f64 * 2f64.powi(-14 - m as i32)) as f32).to_bits()
        } else {
            ((e + 112) << 23) | (man << (23 - m))
        };
        s | mag
    }

    fn folded(f: &Format, raw: u128, faults: FormatFaults) -> [u32; 4] {
        let mut b = Builder::new();
        let words: Vec<Value> = (0..4).map(|k| b.u32((raw >> (32 * k)) as u32)).collect();
        let v = f.convert(&mut b, &words, faults);
        v.map(|x| b.func.konst(x).expect("a constant element folds"))
    }

    /// Samples of every bit pattern of an element: all of them for
    /// one-byte elements, otherwise random ones and every component's extremes
    /// otherwise.
    fn samples(f: &Format) -> Vec<u128> {
        let total = f.bytes() * 8;
        if total <= 8 {
            return (0..1u128 << total).collect();
        }
        let all = if total >= 128 {
            u128::MAX
        } else {
            (1u128 << total) - 1
        };
        let mut v = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1500 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let r = (seed as u128) | ((seed.rotate_left(29) as u128) << 64);
            v.push(r & all);
        }
        // Each component at 0, 1, max, the sign bit, sign bit + 1.
        let mut pos = 0;
        for i in 0..f.count as usize {
            let n = f.bits[i] as u32;
            for x in [0u128, 1, (1 << n) - 1, 1 << (n - 1), (1 << (n - 1)) + 1] {
                v.push(x << pos);
            }
            pos += n;
        }
        v
    }

    fn formats() -> impl Iterator<Item = (u8, Format)> {
        (0..=127u8).filter_map(|n| Format::of(n).map(|f| (n, f)))
    }

    #[test]
    fn every_buffer_format_converts_as_the_reference() {
        let mut checked = 0;
        for (n, f) in formats() {
            for raw in samples(&f) {
                assert_eq!(
                    folded(&f, raw, FormatFaults::default()),
                    reference(&f, raw),
                    "format {n} ({:?}) element {raw:#x}",
                    isa::family::buf::format_name(n)
                );
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn packed_formats_put_x_in_the_low_bits() {
        // 2_10_10_10_SNORM (A2B10G10R10): x = 0x3ff (−1 → −1/511), w = 1.
        let f = Format::of(51).unwrap();
        assert_eq!(
            isa::family::buf::format_name(51),
            Some("BUF_FMT_2_10_10_10_SNORM")
        );
        assert_eq!(f.bits, [10, 10, 10, 2]);
        let v = folded(&f, 0x4000_03ff, FormatFaults::default());
        assert_eq!(v[0], (-1.0f32 / 511.0).to_bits());
        assert_eq!(v[3], 1.0f32.to_bits());
        // 10_11_11_FLOAT (R11G11B10): x is the 11 low bits.
        let f = Format::of(36).unwrap();
        assert_eq!(
            isa::family::buf::format_name(36),
            Some("BUF_FMT_10_11_11_FLOAT")
        );
        assert_eq!(f.bits, [11, 11, 10, 0]);
    }

    /// Negative controls: each broken rule changes some element of the
    /// formats that have the thing it breaks.
    #[test]
    fn broken_layout_or_sign_extension_is_caught() {
        let differs = |n: u8, faults: FormatFaults| {
            let good = Format::of(n).unwrap();
            let bad = Format::of_with(n, faults).unwrap();
            samples(&good)
                .into_iter()
                .any(|raw| folded(&bad, raw, faults) != reference(&good, raw))
        };
        let name_order = FormatFaults {
            name_order: true,
            ..FormatFaults::default()
        };
        let no_sext = FormatFaults {
            no_sign_extension: true,
            ..FormatFaults::default()
        };
        assert!(differs(51, name_order), "2_10_10_10_SNORM in name order");
        assert!(differs(36, name_order), "10_11_11_FLOAT in name order");
        assert!(differs(51, no_sext), "2_10_10_10_SNORM zero-extended");
        assert!(differs(6, no_sext), "8_SINT zero-extended");
    }

    #[test]
    fn f16_round_trips_and_f32_rounds_to_nearest_even() {
        let mut b = Builder::new();
        for h in 0..=0xffffu32 {
            let x = b.u32(h);
            let f = small_float(&mut b, x, 10, true);
            let fb = b.func.konst(f).unwrap();
            assert_eq!(fb, ref_small(h, 10, true), "{h:#x}");
            let back = f32_to_f16(&mut b, f, true);
            let e = (h >> 10) & 0x1f;
            let want = if e == 0x1f && h & 0x3ff != 0 {
                (h & 0x8000) | 0x7e00
            } else {
                h
            };
            assert_eq!(b.func.konst(back), Some(want), "{h:#x}");
        }
        let cases = [
            (1.0f32, 0x3c00),
            (65504.0, 0x7bff),
            (65520.0, 0x7c00),
            (1.0 + 1.0 / 2048.0, 0x3c00), // tie to even (down)
            (1.0 + 3.0 / 2048.0, 0x3c02), // tie to even (up)
            (2f32.powi(-25), 0),          // half the smallest denormal: even
            (2f32.powi(-25) * 1.5, 1),    // above half
            (2f32.powi(-14) * (1.0 - 2f32.powi(-12)), 0x400), // rounds up to the smallest normal
            (f32::from_bits(1), 0),       // f32 denormal
            (-0.0, 0x8000),
            (f32::INFINITY, 0x7c00),
            (1e10, 0x7c00),
        ];
        for (x, want) in cases {
            let v = b.u32(x.to_bits());
            let r = f32_to_f16(&mut b, v, true);
            assert_eq!(b.func.konst(r), Some(want), "{x:e}");
        }
    }
}
