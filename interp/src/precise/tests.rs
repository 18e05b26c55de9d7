//! The precise sequences against an independent reference: IEEE f32
//! division and square root for `rcp`/`sqrt`, and double-double
//! evaluations (about 100 bits) rounded once to f32 for the others.
//!
//! The sampled tests run in `cargo test`; the exhaustive and
//! many-million-sample runs are `--ignored`:
//! `cargo test --release -p interp precise -- --ignored --nocapture`.

use super::*;

/// A value `hi + lo` with `|lo| <= ulp(hi)/2`.
#[derive(Clone, Copy, Debug)]
struct Dd(f64, f64);

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    Dd(s, e)
}

fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    Dd(p, a.mul_add(b, -p))
}

impl Dd {
    fn add(self, o: Dd) -> Dd {
        let s = two_sum(self.0, o.0);
        let t = two_sum(self.1, o.1);
        let s = two_sum(s.0, s.1 + t.0);
        two_sum(s.0, s.1 + t.1)
    }
    fn mul(self, o: Dd) -> Dd {
        let p = two_prod(self.0, o.0);
        two_sum(p.0, p.1 + (self.0 * o.1 + self.1 * o.0))
    }
    fn mulf(self, f: f64) -> Dd {
        self.mul(Dd(f, 0.0))
    }
    fn divf(self, f: f64) -> Dd {
        let q1 = self.0 / f;
        let r = self.add(two_prod(q1, f).neg());
        let q2 = r.0 / f;
        two_sum(q1, q2)
    }
    fn neg(self) -> Dd {
        Dd(-self.0, -self.1)
    }
}

const LN2: Dd = Dd(
    f64::from_bits(0x3fe6_2e42_fefa_39ef),
    f64::from_bits(0x3c7a_bc9e_3b39_803f),
);
const TAU: Dd = Dd(
    f64::from_bits(0x4019_21fb_5444_2d18),
    f64::from_bits(0x3cb1_a626_3314_5c07),
);

/// `e^z` for `|z| <= 0.75` (Taylor, 30 terms).
fn dd_exp(z: Dd) -> Dd {
    let mut p = Dd(1.0, 0.0);
    for i in (1..30).rev() {
        p = Dd(1.0, 0.0).add(z.mul(p).divf(i as f64));
    }
    p
}

/// `2^y` for a finite f64 `y` with `|y| < 2^30`, as `(mantissa, k)`:
/// `mantissa * 2^k`.
fn dd_exp2(y: f64) -> (Dd, i32) {
    let k = y.round();
    let f = y - k;
    (dd_exp(LN2.mulf(f)), k as i32)
}

/// `sin(z)` and `cos(z)` for `|z| <= 0.8` (Taylor).
fn dd_sincos(z: Dd) -> (Dd, Dd) {
    let z2 = z.mul(z);
    let mut s = Dd(1.0, 0.0);
    let mut c = Dd(1.0, 0.0);
    for i in (1..16).rev() {
        let i = i as f64;
        s = Dd(1.0, 0.0).add(z2.mul(s).divf((2.0 * i) * (2.0 * i + 1.0)).neg());
        c = Dd(1.0, 0.0).add(z2.mul(c).divf((2.0 * i - 1.0) * (2.0 * i)).neg());
    }
    (z.mul(s), c)
}

fn next_up(c: f32) -> f32 {
    if c == 0.0 {
        f32::from_bits(1)
    } else if c > 0.0 {
        f32::from_bits(c.to_bits() + 1)
    } else {
        f32::from_bits(c.to_bits() - 1)
    }
}

/// `(hi + lo) * 2^k` rounded once to f32 (gradual underflow), and whether
/// it is too close to a midpoint to decide (never seen; counted).
fn round_dd(v: Dd, k: i32) -> (f32, bool) {
    let s = 2f64.powi(k);
    let (hi, lo) = (v.0 * s, v.1 * s);
    let c = hi as f32;
    if c.is_infinite() {
        return (c, false);
    }
    let d = (hi - c as f64) + lo;
    let up = next_up(c);
    let dn = -next_up(-c);
    let half_up = (up as f64 - c as f64) / 2.0;
    let half_dn = (c as f64 - dn as f64) / 2.0;
    let close =
        (d.abs() - half_up).abs() < half_up * 1e-18 || (d.abs() - half_dn).abs() < half_dn * 1e-18;
    if d > half_up {
        (up, close)
    } else if d < -half_dn {
        (dn, close)
    } else {
        (c, close)
    }
}

fn ref_exp2(x: f32) -> (f32, bool) {
    if x.is_nan() {
        return (x, false);
    }
    if x >= 128.0 {
        return (f32::INFINITY, false);
    }
    if x < -160.0 {
        return (0.0, false);
    }
    let (m, k) = dd_exp2(x as f64);
    round_dd(m, k)
}

fn ref_log2(x: f32) -> (f32, bool) {
    if !(x.is_finite() && x > 0.0) {
        return (x.log2(), false);
    }
    let xd = x as f64;
    let y0 = xd.log2();
    // x * 2^-y0 = 1 + r, log2(x) = y0 + log(1 + r)/ln2.
    let (m, k) = dd_exp2(-y0);
    let r = m.mulf(xd * 2f64.powi(k)).add(Dd(-1.0, 0.0));
    let l = r.add(r.mul(r).mulf(-0.5)).add(r.mul(r).mul(r).divf(3.0));
    let c = l.mul(Dd(1.0, 0.0)).divf(LN2.0);
    // divide by ln2 in dd: c / (LN2.0 + LN2.1) ≈ c/LN2.0 * (1 - LN2.1/LN2.0)
    let c = c.add(c.mulf(-LN2.1 / LN2.0));
    round_dd(Dd(y0, 0.0).add(c), 0)
}

fn ref_sincos(x: f32, cos: bool) -> (f32, bool) {
    if !x.is_finite() {
        return (f32::NAN, false);
    }
    if x == 0.0 {
        return (if cos { 1.0 } else { x }, false);
    }
    let xd = x as f64;
    let r = xd - xd.round();
    let q = (r * 4.0).round();
    let t = r - q * 0.25;
    let (s, c) = dd_sincos(TAU.mulf(t));
    let v = match (q as i32 + i32::from(cos)).rem_euclid(4) {
        0 => s,
        1 => c,
        2 => s.neg(),
        _ => c.neg(),
    };
    let (r, close) = round_dd(v, 0);
    // Exact zeros by the documented rule.
    if r == 0.0 && v.0 == 0.0 {
        return (
            if cos {
                0.0
            } else {
                f32::from_bits(x.to_bits() & 0x8000_0000)
            },
            close,
        );
    }
    (r, close)
}

fn ref_rsq(x: f32) -> (f32, bool) {
    if !(x.is_finite() && x > 0.0) {
        return (1.0 / x.sqrt(), false);
    }
    let xd = x as f64;
    let y0 = 1.0 / xd.sqrt();
    // y1 = y0 + y0 (1 - x y0^2) / 2, in dd.
    let e = Dd(1.0, 0.0).add(two_prod(xd, y0).mulf(y0).neg());
    let y = Dd(y0, 0.0).add(e.mulf(y0 * 0.5));
    round_dd(y, 0)
}

/// Equal as results: the same bits, or both NaN; `±0` only with the same
/// sign.
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Check `f` against `reference` on `xs`: panics on the first
/// difference; returns (checked, undecided).
fn check(
    name: &str,
    f: fn(f32) -> f32,
    reference: impl Fn(f32) -> (f32, bool),
    xs: impl Iterator<Item = f32>,
) -> (u64, u64) {
    let (mut n, mut undecided) = (0u64, 0u64);
    for x in xs {
        let (want, close) = reference(x);
        if close {
            if undecided < 3 {
                eprintln!(
                    "{name}: undecided by the reference: {:#010x} ({x:e})",
                    x.to_bits()
                );
            }
            undecided += 1;
            continue;
        }
        let got = f(x);
        assert!(
            same(got, want),
            "{name}({:#010x} = {x:e}): {:#010x} ({got:e}), correctly rounded {:#010x} ({want:e})",
            x.to_bits(),
            got.to_bits(),
            want.to_bits()
        );
        n += 1;
    }
    (n, undecided)
}

/// A seeded stream of f32 bit patterns (xorshift).
fn samples(seed: u64, n: usize) -> impl Iterator<Item = u32> {
    let mut s = seed | 1;
    (0..n).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    })
}

/// Edge inputs: zeros, infinities, NaN, denormals, the extremes, the
/// exact cases (powers of two, integers, quarter turns).
fn edges() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x8000_0001),
        f32::MAX,
        f32::MIN,
        1.0,
        -1.0,
        0.5,
        0.25,
        0.75,
        -0.25,
        2.0,
        3.0,
        127.0,
        127.999_99,
        128.0,
        -126.0,
        -149.0,
        -149.5,
        -150.0,
        -150.5,
        8_388_608.0,
        8_388_607.5,
        16_777_216.0,
        1e-30,
        -1e-30,
    ];
    for k in -149..=127 {
        v.push(2f32.powi(k));
    }
    v
}

fn sampled(n: usize) -> impl Iterator<Item = f32> {
    edges()
        .into_iter()
        .chain(samples(0x5eed_1607, n).map(f32::from_bits))
}

/// Arguments where the functions are not trivially saturated: `|x| < 160`
/// for `exp2`, `|x| < 2^23` (a fractional part) for sin/cos.
fn sampled_range(n: usize, max: f32, seed: u64) -> impl Iterator<Item = f32> {
    samples(seed, n).map(move |b| {
        let x = f32::from_bits(b & 0x7fff_ffff);
        let y = if x.is_finite() { x % max } else { 0.5 };
        if b & 0x8000_0000 != 0 {
            -y
        } else {
            y
        }
    })
}

#[test]
fn rcp_sqrt_rsq_are_correctly_rounded_on_samples_and_edges() {
    check("rcp", rcp, |x| (1.0 / x, false), sampled(200_000));
    check("sqrt", sqrt, |x| (x.sqrt(), false), sampled(200_000));
    check("rsq", rsq, ref_rsq, sampled(200_000));
    assert_eq!(rcp(0.0), f32::INFINITY);
    assert_eq!(rcp(-0.0), f32::NEG_INFINITY);
    assert_eq!(rsq(-0.0), f32::NEG_INFINITY);
    assert!(sqrt(-1.0).is_nan() && rsq(-1.0).is_nan());
    assert_eq!(sqrt(-0.0).to_bits(), 0x8000_0000);
}

#[test]
fn exp2_log2_sin_cos_are_correctly_rounded_on_samples_and_edges() {
    check("exp2", exp2, ref_exp2, sampled(50_000));
    check("exp2", exp2, ref_exp2, sampled_range(50_000, 160.0, 11));
    check(
        "log2",
        log2,
        ref_log2,
        sampled(100_000).filter(|x| *x > 0.0),
    );
    check("sin", sin_rev, |x| ref_sincos(x, false), sampled(50_000));
    check(
        "sin",
        sin_rev,
        |x| ref_sincos(x, false),
        sampled_range(50_000, 4.0, 12),
    );
    check("cos", cos_rev, |x| ref_sincos(x, true), sampled(50_000));
    check(
        "cos",
        cos_rev,
        |x| ref_sincos(x, true),
        sampled_range(50_000, 4.0, 13),
    );
    // The exact cases.
    assert_eq!(exp2(10.0), 1024.0);
    assert_eq!(exp2(-149.0), f32::from_bits(1));
    assert_eq!(log2(1024.0), 10.0);
    assert_eq!(log2(1.0).to_bits(), 0);
    assert_eq!(sin_rev(0.25), 1.0);
    assert_eq!(cos_rev(0.5), -1.0);
    assert_eq!(cos_rev(1e9), 1.0);
    assert_eq!(sin_rev(-1.0).to_bits(), 0x8000_0000);
    assert_eq!(sin_rev(2.5).to_bits(), 0);
    assert_eq!(cos_rev(-0.25).to_bits(), 0);
}

/// The reference itself: it is not the thing under test agreeing with
/// itself (a reference off by one ulp fails the check).
#[test]
fn a_sequence_one_ulp_off_fails_the_check() {
    fn off(x: f32) -> f32 {
        f32::from_bits(exp2(x).to_bits() ^ 1)
    }
    let r = std::panic::catch_unwind(|| check("exp2-off", off, ref_exp2, [0.3f32].into_iter()));
    assert!(r.is_err());
    let r = std::panic::catch_unwind(|| check("exp2", exp2, ref_exp2, [0.3f32].into_iter()));
    assert!(r.is_ok());
}

/// Every significand of both exponent parities (which covers every
/// input: the results scale exactly with the exponent), plus the
/// underflowing and overflowing exponents of `rcp`.
#[test]
#[ignore = "exhaustive over the significands (release mode: seconds)"]
fn rcp_sqrt_rsq_exhaustive() {
    let sig = |e: u32| (0u32..1 << 23).map(move |m| f32::from_bits(e << 23 | m));
    let mut n = 0;
    for e in [127u32, 128, 1, 2, 253, 254] {
        n += check("rcp", rcp, |x| (1.0 / x, false), sig(e)).0;
        n += check("sqrt", sqrt, |x| (x.sqrt(), false), sig(e)).0;
        n += check("rsq", rsq, ref_rsq, sig(e)).0;
    }
    let den = (1u32..1 << 23).map(f32::from_bits);
    n += check("rcp", rcp, |x| (1.0 / x, false), den.clone()).0;
    n += check("sqrt", sqrt, |x| (x.sqrt(), false), den.clone()).0;
    n += check("rsq", rsq, ref_rsq, den).0;
    eprintln!("rcp/sqrt/rsq: {n} inputs checked, all correctly rounded");
}

#[test]
#[ignore = "tens of millions of samples (release mode: a minute)"]
fn exp2_log2_sin_cos_many_samples() {
    const N: usize = 4_000_000;
    let mut total = (0, 0);
    for (name, r) in [
        (
            "exp2",
            check("exp2", exp2, ref_exp2, sampled_range(N, 160.0, 21)),
        ),
        (
            "log2",
            check("log2", log2, ref_log2, sampled(N).filter(|x| *x > 0.0)),
        ),
        (
            "sin",
            check(
                "sin",
                sin_rev,
                |x| ref_sincos(x, false),
                sampled_range(N, 1.0, 22),
            ),
        ),
        (
            "cos",
            check(
                "cos",
                cos_rev,
                |x| ref_sincos(x, true),
                sampled_range(N, 1.0, 23),
            ),
        ),
        (
            "sin",
            check("sin", sin_rev, |x| ref_sincos(x, false), sampled(N)),
        ),
    ] {
        eprintln!(
            "{name}: {} checked, {} undecided by the reference",
            r.0, r.1
        );
        total.0 += r.0;
        total.1 += r.1;
    }
    // exp2 over every 64th f32 in [-1, 1].
    let all = (0u32..=0x3f80_0000)
        .step_by(64)
        .flat_map(|b| [f32::from_bits(b), -f32::from_bits(b)]);
    let r = check("exp2", exp2, ref_exp2, all);
    eprintln!(
        "exp2 on every 64th f32 of [-1, 1]: {} checked, {} undecided",
        r.0, r.1
    );
    eprintln!(
        "total: {} checked, {} undecided",
        total.0 + r.0,
        total.1 + r.1
    );
}
