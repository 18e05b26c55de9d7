//! How `shaderlift run` compares a device's export words with the
//! interpreter's: bit-exact, or within one unit in the last place when both
//! words are floats.

use serde::Serialize;

/// The verdict on one 32-bit export component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The same bits.
    Exact,
    /// Different bits, but both are finite floats at most one ulp apart
    /// (`+0` and `−0` are one apart), or both are NaNs.
    WithinUlp,
    /// Anything else.
    Mismatch,
}

/// The position of a float's bits on a line where neighbouring floats are
/// neighbouring integers (`−0` just below `+0`).
fn ordered(bits: u32) -> i64 {
    if bits & 0x8000_0000 != 0 {
        -i64::from(bits & 0x7fff_ffff) - 1
    } else {
        i64::from(bits)
    }
}

fn is_nan(bits: u32) -> bool {
    bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x007f_ffff != 0
}

fn is_finite(bits: u32) -> bool {
    bits & 0x7f80_0000 != 0x7f80_0000
}

/// Compare a device word with the interpreter's.
///
/// Export words carry no type, so a word is taken as a float for the
/// tolerance; words within one ulp are counted apart from exact ones so a
/// report shows them (an integer off by one in its low bit would land
/// there).
pub fn compare(device: u32, reference: u32) -> Verdict {
    if device == reference {
        return Verdict::Exact;
    }
    if is_nan(device) && is_nan(reference) {
        return Verdict::WithinUlp;
    }
    if is_finite(device)
        && is_finite(reference)
        && (ordered(device) - ordered(reference)).abs() <= 1
    {
        return Verdict::WithinUlp;
    }
    Verdict::Mismatch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bits_are_exact_and_neighbours_are_within_one_ulp() {
        let one = 1.0f32.to_bits();
        assert_eq!(compare(one, one), Verdict::Exact);
        assert_eq!(compare(one + 1, one), Verdict::WithinUlp);
        assert_eq!(compare(one - 1, one), Verdict::WithinUlp);
        assert_eq!(compare(one + 2, one), Verdict::Mismatch);
        assert_eq!(compare(one - 2, one), Verdict::Mismatch);
    }

    #[test]
    fn signed_zeros_are_one_ulp_apart_and_the_smallest_denormals_two() {
        let pz = 0.0f32.to_bits();
        let nz = (-0.0f32).to_bits();
        assert_eq!(compare(pz, nz), Verdict::WithinUlp);
        assert_eq!(compare(1, pz), Verdict::WithinUlp);
        assert_eq!(compare(1, nz), Verdict::Mismatch);
        assert_eq!(compare(0x8000_0001, 1), Verdict::Mismatch);
    }

    #[test]
    fn neighbours_across_the_sign_and_infinities_are_judged_by_bits() {
        let max = f32::MAX.to_bits();
        let inf = f32::INFINITY.to_bits();
        // Infinity is not a finite neighbour of MAX.
        assert_eq!(compare(inf, max), Verdict::Mismatch);
        assert_eq!(compare(inf, inf), Verdict::Exact);
        assert_eq!(compare(inf, f32::NEG_INFINITY.to_bits()), Verdict::Mismatch);
        assert_eq!(
            compare(1.0f32.to_bits(), (-1.0f32).to_bits()),
            Verdict::Mismatch
        );
    }

    #[test]
    fn any_two_nans_agree_but_a_nan_never_matches_a_number() {
        assert_eq!(compare(0x7fc0_0000, 0xffc0_0001), Verdict::WithinUlp);
        assert_eq!(compare(0x7fc0_0000, 0x7f80_0000), Verdict::Mismatch);
        assert_eq!(compare(0x7fc0_0000, 0), Verdict::Mismatch);
    }
}
