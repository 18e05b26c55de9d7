//! Guest pointers in synthesized inputs: memory laid out where the
//! shader's 64-bit addresses point.
//!
//! The trace follows descriptors and scalar pointers plus constant offsets;
//! a pointer the shader loads as data (a buffer device address read from a
//! buffer, from user data, or from memory another such pointer reaches) and
//! then offsets per lane is not traced, so the synthesized inputs hold some
//! number there and the interpreter's accesses through it leave guest
//! memory. [`lay_out`] closes that gap by observation: it runs the
//! interpreter on the inputs (a caller's [`Touched`] probe), takes every
//! access outside guest memory (a read that found no mapped dword, a store
//! outside every block), and looks for the pointer each one went through:
//! a pair of user-data words, or two consecutive dwords the run read, whose
//! 64-bit value `V` (48-bit, as the hardware masks it) lies at most
//! [`REACH`] bytes below the address. Each such pair gets a region of its
//! own ([`REGION_BYTES`] or more, after `above`, filled per [`Fill`]) and
//! the region's address written into the pair, in the file itself, so the
//! device and the interpreter read the same bytes. Pointers behind pointers
//! (a table of buffer addresses) take one more round each, up to
//! [`ROUNDS`].
//!
//! Several pairs may hold that value (user-data words that are all 0): each
//! candidate is tried alone and kept only when the accesses it explained
//! leave the wild set and the run then reaches its region; when none is
//! kept the file is unchanged (the run then reports what it reported
//! before: a finding, or a typed "not covered").

use drawbind::draws::{Addr, DrawsFile, MemoryBlock, Word32};
use drawbind::GuestMemory;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Bytes of each region (more when an access reaches further).
pub const REGION_BYTES: u64 = 64 << 10;
/// How far past a pointer an access may lie and still be taken as made
/// through it.
pub const REACH: u64 = 64 << 10;
/// Rounds of probe and layout (levels of pointers behind pointers).
pub const ROUNDS: usize = 4;
/// The most regions one layout places.
pub const MAX_REGIONS: usize = 64;

/// What a region's dwords hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Floats `(1 + k mod 16) / 4` (dword `k`): positions, data a shader
    /// computes with.
    Floats,
    /// Integers `1 + k mod 16`: counts and indices stay small.
    SmallIntegers,
}

impl Fill {
    fn word(self, k: u64) -> u32 {
        let n = (k % 16) as u32 + 1;
        match self {
            Fill::Floats => (n as f32 / 4.0).to_bits(),
            Fill::SmallIntegers => n,
        }
    }
}

/// What one probe run touched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Touched {
    /// Dword addresses read (or stored to) that were mapped.
    pub mapped: BTreeSet<u64>,
    /// Addresses accessed outside guest memory (reads and stores).
    pub wild: BTreeSet<u64>,
}

/// A guest memory that records what is read from it (the probe's view of
/// the inputs).
pub struct Recording<'a> {
    inner: &'a dyn GuestMemory,
    touched: RefCell<Touched>,
}

impl<'a> Recording<'a> {
    /// Record reads of `inner`.
    pub fn new(inner: &'a dyn GuestMemory) -> Recording<'a> {
        Recording {
            inner,
            touched: RefCell::new(Touched::default()),
        }
    }

    /// What was read, and where reads found no memory.
    pub fn into_touched(self) -> Touched {
        self.touched.into_inner()
    }

    /// Note a store at `addr` (outside guest memory when no dword is
    /// mapped there).
    pub fn note_store(&self, addr: u64) {
        let mut t = self.touched.borrow_mut();
        match self.inner.read_u32(addr & !3) {
            Some(_) => t.mapped.insert(addr & MASK & !3),
            None => t.wild.insert(addr & MASK),
        };
    }
}

impl GuestMemory for Recording<'_> {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        let v = self.inner.read_u32(addr);
        let mut t = self.touched.borrow_mut();
        match v {
            Some(_) => {
                t.mapped.insert(addr & MASK & !3);
            }
            None => {
                t.wild.insert(addr & MASK);
            }
        }
        v
    }
}

const MASK: u64 = drawbind::word::ADDRESS_MASK;

/// Where a pointer's two words are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Loc {
    UserData(usize),
    Memory(u64),
}

/// Lay out memory where the inputs' pointers point (see the module
/// documentation); `probe` runs the interpreter on a file. Regions start at
/// the first 64 KiB boundary at or above `above`. Returns how many regions
/// the kept layout placed (0: `file` unchanged).
pub fn lay_out(
    file: &mut DrawsFile,
    above: u64,
    fill: Fill,
    mut probe: impl FnMut(&DrawsFile) -> Touched,
) -> usize {
    let mut next = above.div_ceil(ALIGN) * ALIGN;
    let mut bases: BTreeSet<u64> = BTreeSet::new();
    let mut touched = probe(file);
    for _ in 0..ROUNDS {
        if touched.wild.is_empty() {
            break;
        }
        let found = pointers_of(file, &touched, &bases);
        let mut kept = Vec::new();
        for (&loc, (reach, explained)) in found.iter().take(MAX_TRIALS) {
            let mut trial = file.clone();
            let bytes = place(&mut trial, loc, next, *reach, fill);
            let t = probe(&trial);
            // Kept when accesses it explained left the wild set and the
            // run now touches the region: the pair was the pointer (not a
            // word that only moved the accesses elsewhere).
            if explained.iter().any(|w| !t.wild.contains(w))
                && t.mapped.range(next..next + bytes).next().is_some()
            {
                kept.push((loc, *reach));
            }
        }
        if kept.is_empty() || bases.len() + kept.len() > MAX_REGIONS {
            break;
        }
        for (loc, reach) in kept {
            bases.insert(next);
            next += place(file, loc, next, reach, fill);
        }
        touched = probe(file);
    }
    bases.len()
}

const ALIGN: u64 = 64 << 10;
/// The most candidate pairs tried per round.
const MAX_TRIALS: usize = 64;

/// Place a region at `base` for an access `reach` bytes past the pointer
/// at `loc`, and write `base` there; the region's bytes.
fn place(file: &mut DrawsFile, loc: Loc, base: u64, reach: u64, fill: Fill) -> u64 {
    let bytes = REGION_BYTES.max(reach.div_ceil(ALIGN) * ALIGN);
    file.memory.push(MemoryBlock {
        addr: Addr(base),
        words: (0..bytes / 4).map(|k| Word32(fill.word(k))).collect(),
    });
    let (lo, hi) = (base as u32, (base >> 32) as u32);
    match loc {
        Loc::UserData(k) => {
            file.user_data[k] = Word32(lo);
            file.user_data[k + 1] = Word32(hi);
        }
        Loc::Memory(a) => file.memory.push(MemoryBlock {
            addr: Addr(a),
            words: vec![Word32(lo), Word32(hi)],
        }),
    }
    bytes
}

/// The pointer pairs the wild accesses of `t` went through, each with the
/// bytes its region must span and the accesses it explains; pairs already
/// pointing at a region are not candidates.
fn pointers_of(
    file: &DrawsFile,
    t: &Touched,
    bases: &BTreeSet<u64>,
) -> BTreeMap<Loc, (u64, Vec<u64>)> {
    let pointer = |lo: u32, hi: u32| (u64::from(hi) << 32 | u64::from(lo)) & MASK;
    let mut by_value: BTreeMap<u64, Vec<Loc>> = BTreeMap::new();
    let ud = file.user_data();
    for k in 0..ud.len().saturating_sub(1) {
        by_value
            .entry(pointer(ud[k], ud[k + 1]))
            .or_default()
            .push(Loc::UserData(k));
    }
    let mem = file.memory();
    for &a in &t.mapped {
        if !t.mapped.contains(&(a + 4)) {
            continue;
        }
        if let (Some(lo), Some(hi)) = (mem.read_u32(a), mem.read_u32(a + 4)) {
            by_value
                .entry(pointer(lo, hi))
                .or_default()
                .push(Loc::Memory(a));
        }
    }
    let mut found: BTreeMap<Loc, (u64, Vec<u64>)> = BTreeMap::new();
    for &w in &t.wild {
        for (&v, locs) in by_value.range(w.saturating_sub(REACH - 1)..=w) {
            if bases.contains(&v) {
                continue;
            }
            for &l in locs {
                let (reach, explained) = found.entry(l).or_insert((0, Vec::new()));
                *reach = (*reach).max(w - v + 16);
                explained.push(w);
            }
        }
    }
    found
}

/// The end of the highest block of `file` that starts below `limit` (0
/// when none does): where [`lay_out`]'s regions may start.
pub fn blocks_end_below(file: &DrawsFile, limit: u64) -> u64 {
    file.memory
        .iter()
        .filter(|b| b.addr.0 < limit)
        .map(|b| b.addr.0 + 4 * b.words.len() as u64)
        .max()
        .unwrap_or(0)
}
