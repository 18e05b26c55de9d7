//! Which id (+ word) an LDS read returns.
//!
//! The engine names every dword an LDS read returns by its *read class*:
//! the set of byte addresses the read may use, as a [`Num`] (bounds and a
//! congruence, the same for every lane). It also records every LDS write the
//! fixpoint reached, in pieces of at most 4 bytes with the address set and,
//! for whole dwords, the value. A read class *holds a source* when every
//! write that can touch any of its bytes is a whole dword at exactly the
//! read's address (never a partial overlap) and stores that one source,
//! `id` or `id + word`; a write the tracer cannot place (unknown address,
//! atomics, GDS, a buffer load into LDS) touches every class.
//!
//! This is flow-insensitive: any write anywhere in the shader, by any wave
//! of the workgroup, may be what a read sees. What it cannot show is that
//! the read cell was written at all: the cell may hold what the previous
//! workgroup left there. Hence the contract ([`LdsContract`]): the cells of
//! the class are initialised with an id the bound covers before the
//! workgroup runs. Reads at or past the LDS allocation return 0, and 0 is
//! covered too (a narrowed range always starts at record 0, and `0 + word`
//! is at most `last id + word`, which the plan computes without wrapping).

use super::domain::{Num, VVal, Why, WhyKind};
use super::engine::LdsWrite;
use crate::trace::{LdsClass, LdsContract};

/// How a write's bytes can meet a read's dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Meet {
    /// They never share a byte.
    Apart,
    /// Whenever they share a byte, the write is the read's whole dword.
    Exact,
    /// They may share some bytes but not all.
    Partial,
}

/// Address sets spanning at most this many bytes are enumerated.
const SMALL: u32 = 64;

/// How the bytes `[x, x + n)` of a write (`x` in `w`, `n` ≤ 4) can meet the
/// dword `[y, y + 4)` of a read (`y` in `r`).
pub(crate) fn meet(w: Num, n: u32, r: Num) -> Meet {
    let n = n.clamp(1, 4) as i64;
    let (mut any, mut other) = (false, false);
    let mut note = |d: i64| {
        any = true;
        if !(d == 0 && n == 4) {
            other = true;
        }
    };
    if w.hi - w.lo <= SMALL {
        for x in w.lo as i64..=w.hi as i64 {
            if !w.contains(x as u64) {
                continue;
            }
            // y - n < x < y + 4
            for y in (x - 3).max(0)..=x + n - 1 {
                if r.contains(y as u64) {
                    note(x - y);
                }
            }
        }
    } else if r.hi - r.lo <= SMALL {
        for y in r.lo as i64..=r.hi as i64 {
            if !r.contains(y as u64) {
                continue;
            }
            for x in (y - (n - 1)).max(0)..=y + 3 {
                if w.contains(x as u64) {
                    note(x - y);
                }
            }
        }
    } else {
        // Both wide (so neither is exact): the difference x - y is
        // ≡ rw - rr modulo gcd(mw, mr), within the bounds' difference.
        let g = gcd(w.m as i64, r.m as i64).max(1);
        let res = (w.r as i64 - r.r as i64).rem_euclid(g);
        let (dlo, dhi) = (w.lo as i64 - r.hi as i64, w.hi as i64 - r.lo as i64);
        for d in -(n - 1)..=3 {
            if d >= dlo && d <= dhi && d.rem_euclid(g) == res {
                note(d);
            }
        }
    }
    match (any, other) {
        (false, _) => Meet::Apart,
        (true, false) => Meet::Exact,
        (true, true) => Meet::Partial,
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// The source a read class holds (`Id` or `IdPlus`) with its contract, or
/// why it holds none (naming the offending write, or the read).
/// `first_wins` is the test-only fault
/// [`crate::trace::TraceFaults::lds_first_write_wins`].
pub(crate) fn resolve(
    class: Num,
    read_pc: u32,
    writes: &[(u32, LdsWrite)],
    first_wins: bool,
) -> Result<(VVal, LdsContract), Why> {
    let mut src: Option<VVal> = None;
    for &(pc, w) in writes {
        let pieces = match w {
            LdsWrite::NoLanes => continue,
            LdsWrite::Unplaced if first_wins => continue,
            LdsWrite::Unplaced => return Err(Why::new(WhyKind::LdsUnplaced, pc)),
            LdsWrite::Pieces { n, p } => p.into_iter().take(n as usize),
        };
        for piece in pieces {
            match meet(piece.addr, piece.bytes as u32, class) {
                Meet::Apart => {}
                Meet::Partial if first_wins => {}
                Meet::Partial => return Err(Why::new(WhyKind::LdsPartial, pc)),
                Meet::Exact if first_wins && src.is_some() => {}
                Meet::Exact => match (piece.val, src) {
                    (VVal::Id(_) | VVal::IdPlus(..), None) => src = Some(piece.val),
                    (v, Some(s)) if v == s => {}
                    _ => return Err(Why::new(WhyKind::LdsOther, pc)),
                },
            }
        }
    }
    // Cells of one class must not overlap each other (an initialised
    // cell would be half of another).
    if !(class.is_exact() || class.m >= 4) {
        return Err(Why::new(WhyKind::LdsPartial, read_pc));
    }
    let src = src.ok_or(Why::new(WhyKind::LdsUnwritten, read_pc))?;
    let class = if class.is_exact() {
        LdsClass {
            stride: 0,
            offset: class.lo,
        }
    } else {
        LdsClass {
            stride: class.m as u32,
            offset: class.r as u32,
        }
    };
    Ok((
        src,
        LdsContract {
            class,
            requires_init: true,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::super::engine::LdsPiece;
    use super::*;
    use crate::source::{Id, Word};

    fn stride(m: u16, r: u16, lo: u32, hi: u32) -> Num {
        Num { lo, hi, m, r }
    }

    #[test]
    fn dwords_of_one_stride_meet_exactly_or_not_at_all() {
        let read = stride(28, 20, 20, 28_692);
        assert_eq!(meet(stride(28, 20, 20, 7_000_000), 4, read), Meet::Exact);
        for r in [0, 4, 8, 12] {
            assert_eq!(
                meet(stride(28, r, r as u32, 7_000_000), 4, read),
                Meet::Apart
            );
        }
        // Bytes 16 and 17 of each record lie outside 20..24.
        assert_eq!(meet(stride(28, 16, 16, 1 << 20), 1, read), Meet::Apart);
        assert_eq!(meet(stride(28, 17, 17, 1 << 20), 1, read), Meet::Apart);
        // Negative controls: a byte inside, a dword at 18 (overlaps 20..22).
        assert_eq!(meet(stride(28, 21, 21, 1 << 20), 1, read), Meet::Partial);
        assert_eq!(meet(stride(28, 18, 18, 1 << 20), 4, read), Meet::Partial);
        // A byte-wide write of the right dword is partial too.
        assert_eq!(meet(stride(28, 20, 20, 1 << 20), 1, read), Meet::Partial);
    }

    #[test]
    fn a_short_range_is_placed_by_its_residues() {
        // s10 ∈ [0, 15] + 3584 = 28·128: residues 0..15 of 28.
        let read = stride(28, 20, 20, 28_692);
        assert_eq!(meet(Num::range(3584, 3599), 1, read), Meet::Apart);
        // Negative control: five more bytes reach residue 20.
        assert_eq!(meet(Num::range(3584, 3604), 1, read), Meet::Partial);
        // An unknown congruence over a wide range meets everything.
        assert_eq!(meet(Num::range(0, 1 << 20), 4, read), Meet::Partial);
    }

    fn write(pc: u32, addr: Num, bytes: u8, val: VVal) -> (u32, LdsWrite) {
        let none = LdsPiece {
            addr: Num::konst(0),
            bytes: 0,
            val,
        };
        let mut p = [none; 4];
        p[0] = LdsPiece { addr, bytes, val };
        (pc, LdsWrite::Pieces { n: 1, p })
    }

    #[test]
    fn a_class_holds_the_one_source_every_exact_write_stores() {
        let read = stride(28, 20, 20, 28_692);
        let id = VVal::Id(Id::VertexId);
        let w = [
            write(0x10, stride(28, 20, 20, 1 << 20), 4, id),
            write(0x14, stride(28, 0, 0, 1 << 20), 4, VVal::Num(Num::konst(1))),
        ];
        let (src, c) = resolve(read, 0x40, &w, false).unwrap();
        assert_eq!(src, id);
        assert_eq!(
            c.class,
            LdsClass {
                stride: 28,
                offset: 20
            }
        );
        assert!(c.requires_init);
        // Negative controls.
        let other = VVal::IdPlus(Id::VertexId, Word::ud(1));
        let bad = [w[0], write(0x18, stride(28, 20, 20, 1 << 20), 4, other)];
        assert_eq!(
            resolve(read, 0x40, &bad, false).unwrap_err(),
            Why::new(WhyKind::LdsOther, 0x18)
        );
        let bad = [w[0], (0x1c, LdsWrite::Unplaced)];
        assert_eq!(
            resolve(read, 0x40, &bad, false).unwrap_err(),
            Why::new(WhyKind::LdsUnplaced, 0x1c)
        );
        assert_eq!(
            resolve(read, 0x40, &w[1..], false).unwrap_err(),
            Why::new(WhyKind::LdsUnwritten, 0x40)
        );
        // A write with no lane writes nothing.
        let quiet = [w[0], (0x1c, LdsWrite::NoLanes)];
        assert!(resolve(read, 0x40, &quiet, false).is_ok());
    }
}
