//! Typed buffer fetches: gfx10 unified buffer formats to 32-bit VGPR values.
//!
//! The format's layout comes from its name in `isa` (`BUF_FMT_2_10_10_10_SNORM`):
//! component widths in bits from the most significant bits down (X, the
//! first component, is last: `2_10_10_10` is Vulkan's `A2B10G10R10` with X
//! in bits 0..10, `10_11_11` is `B10G11R11` with X in bits 0..11), then the
//! numeric format. Missing components read as 0, 0, 0, 1 (1.0 for the
//! float, normalised and scaled formats).

use crate::float::f16_to_f32;
use isa::family::buf::format_name;

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

/// A parsed format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// Component widths (0 = absent).
    pub(crate) bits: [u8; 4],
    pub(crate) count: usize,
    pub(crate) num: Num,
}

impl Format {
    /// Parse a format number; `None` for invalid or reserved numbers.
    pub(crate) fn of(fmt: u8) -> Option<Format> {
        let name = format_name(fmt)?.strip_prefix("BUF_FMT_")?;
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
        let mut bits = [0u8; 4];
        if parts.is_empty() || parts.len() > 4 {
            return None;
        }
        // Names list components from the most significant bits down (the
        // packed formats: `2_10_10_10` is Vulkan's A2B10G10R10, x in bits
        // 0..10); found by the typed-format differential test and by the
        // source-level oracle (`shaderlift oracle`).
        parts.reverse();
        for (i, p) in parts.iter().enumerate() {
            bits[i] = p.parse().ok()?;
        }
        Some(Format {
            bits,
            count: parts.len(),
            num,
        })
    }

    /// Bytes of one element.
    pub(crate) fn bytes(&self) -> usize {
        self.bits.iter().map(|&b| b as usize).sum::<usize>() / 8
    }

    /// The value 1 in this format's result type.
    pub(crate) fn one(&self) -> u32 {
        match self.num {
            Num::Uint | Num::Sint => 1,
            _ => 0x3f80_0000,
        }
    }

    /// Convert one element (little-endian bytes) to four 32-bit values.
    pub(crate) fn convert(&self, bytes: &[u8]) -> [u32; 4] {
        let mut raw = 0u128;
        for (i, b) in bytes.iter().enumerate().take(16) {
            raw |= (*b as u128) << (8 * i);
        }
        let mut out = [0, 0, 0, self.one()];
        let mut pos = 0u32;
        for (i, o) in out.iter_mut().enumerate().take(self.count) {
            let n = self.bits[i] as u32;
            let x = ((raw >> pos) & ((1u128 << n) - 1)) as u64;
            pos += n;
            *o = self.component(x, n);
        }
        out
    }

    fn component(&self, x: u64, n: u32) -> u32 {
        let signed = || -> i64 {
            let s = 64 - n;
            ((x << s) as i64) >> s
        };
        match self.num {
            Num::Unorm => {
                let max = ((1u64 << n) - 1) as f64;
                ((x as f64 / max) as f32).to_bits()
            }
            Num::Snorm => {
                let max = ((1u64 << (n - 1)) - 1) as f64;
                ((signed() as f64 / max).max(-1.0) as f32).to_bits()
            }
            Num::Uscaled => (x as f32).to_bits(),
            Num::Sscaled => (signed() as f32).to_bits(),
            Num::Uint => x as u32,
            Num::Sint => signed() as i32 as u32,
            Num::Float => match n {
                32 => x as u32,
                16 => f16_to_f32(x as u16),
                11 => small_float(x as u32, 6),
                10 => small_float(x as u32, 5),
                _ => 0,
            },
        }
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `m` mantissa bits
/// (the 11- and 10-bit packed float formats), to f32 bits.
fn small_float(x: u32, m: u32) -> u32 {
    let e = (x >> m) & 0x1f;
    let man = x & ((1 << m) - 1);
    if e == 0x1f {
        return 0x7f80_0000 | if man != 0 { 0x40_0000 } else { 0 };
    }
    if e == 0 {
        // Denormal: man * 2^(-14 - m), exact in f32.
        return ((man as f32) * 2f32.powi(-14 - m as i32)).to_bits();
    }
    ((e + 112) << 23) | (man << (23 - m))
}

/// Apply a descriptor's DST_SEL (0 → 0, 1 → one, 4..=7 → x..w, others 0).
pub(crate) fn dst_sel(v: [u32; 4], sel: [u8; 4], one: u32) -> [u32; 4] {
    let mut out = [0u32; 4];
    for i in 0..4 {
        out[i] = match sel[i] {
            1 => one,
            s @ 4..=7 => v[(s - 4) as usize],
            _ => 0,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_parse_into_widths_and_numeric_types() {
        let f = Format::of(77).unwrap(); // 32_32_32_32_FLOAT
        assert_eq!((f.bits, f.count, f.num), ([32, 32, 32, 32], 4, Num::Float));
        assert_eq!(f.bytes(), 16);
        let f = Format::of(56).unwrap(); // 8_8_8_8_UNORM
        assert_eq!((f.bits, f.num, f.bytes()), ([8, 8, 8, 8], Num::Unorm, 4));
        assert_eq!(Format::of(0), None);
        assert_eq!(Format::of(100), None);
    }

    #[test]
    fn packed_formats_take_x_from_the_low_bits() {
        let find = |name: &str| {
            (0..=127u8)
                .find(|&n| format_name(n) == Some(name))
                .and_then(Format::of)
                .unwrap()
        };
        // Vulkan A2B10G10R10_SNORM_PACK32: R in bits 0..10, A in 30..32.
        let f = find("BUF_FMT_2_10_10_10_SNORM");
        let w: u32 = 511 | (0x200 << 10) | (1 << 20) | (1 << 30);
        assert_eq!(
            f.convert(&w.to_le_bytes()),
            [
                1.0f32.to_bits(),
                (-1.0f32).to_bits(),
                (1.0f32 / 511.0).to_bits(),
                1.0f32.to_bits()
            ]
        );
        // B10G11R11_UFLOAT: R (11 bits) in bits 0..11; 1.0 is 0x3c0 in an
        // 11-bit float (exponent 15, mantissa 0).
        let f = find("BUF_FMT_10_11_11_FLOAT");
        assert_eq!(f.bits[..3], [11, 11, 10]);
        assert_eq!(f.convert(&0x3c0u32.to_le_bytes())[0], 1.0f32.to_bits());
    }

    #[test]
    fn components_convert_and_missing_ones_default_to_0001() {
        let unorm = Format::of(56).unwrap();
        let v = unorm.convert(&[0, 255, 128, 64]);
        assert_eq!(v[0], 0.0f32.to_bits());
        assert_eq!(v[1], 1.0f32.to_bits());
        assert_eq!(v[2], (128.0f32 / 255.0).to_bits());
        let f = Format::of(74).unwrap(); // 32_32_32_FLOAT
        let bytes: Vec<u8> = [1.5f32, 2.0, -3.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            f.convert(&bytes),
            [
                1.5f32.to_bits(),
                2.0f32.to_bits(),
                (-3.0f32).to_bits(),
                1.0f32.to_bits()
            ]
        );
        let sint = Format::of(6).unwrap(); // 8_SINT
        assert_eq!(sint.convert(&[0xff]), [u32::MAX, 0, 0, 1]);
        let snorm = Format::of(2).unwrap(); // 8_SNORM
        assert_eq!(
            snorm.convert(&[0x80])[0],
            (-1.0f32).to_bits(),
            "-128 clamps to -1"
        );
    }

    #[test]
    fn packed_formats_put_the_first_component_in_the_low_bits() {
        let f = Format::of(51).unwrap(); // 2_10_10_10_SNORM
        assert_eq!(f.bits, [10, 10, 10, 2]);
        // x = 0x3ff (-1), y = 0x1ff (511 -> 1), z = 0x200 (-512 -> -1), w = 1.
        let raw: u32 = 0x3ff | (0x1ff << 10) | (0x200 << 20) | (1 << 30);
        let v = f.convert(&raw.to_le_bytes());
        assert_eq!(v[0], (-1.0f32 / 511.0).to_bits());
        assert_eq!(v[1], 1.0f32.to_bits());
        assert_eq!(v[2], (-1.0f32).to_bits());
        assert_eq!(v[3], 1.0f32.to_bits());
        let f = Format::of(36).unwrap(); // 10_11_11_FLOAT
        assert_eq!(f.bits, [11, 11, 10, 0]);
        // x = 1.0 in the 11-bit float (exponent 15, no mantissa) at bit 0.
        assert_eq!(f.convert(&(15u32 << 6).to_le_bytes())[0], 1.0f32.to_bits());
    }

    #[test]
    fn dst_sel_swizzles_and_fills() {
        let v = [1, 2, 3, 4];
        assert_eq!(dst_sel(v, [6, 5, 4, 1], 9), [3, 2, 1, 9]);
        assert_eq!(dst_sel(v, [0, 7, 2, 4], 9), [0, 4, 0, 1]);
    }
}
