//! Index buffers: the range of vertex indices an indexed draw uses.
//!
//! An indexed draw's vertex ids are its index values (plus the base vertex
//! the hardware adds, see [`Draw::Indexed`](crate::Draw::Indexed)), so a
//! vertex-id binding can only be narrowed when the largest index is known.
//! The emulator copies the index buffer to the host anyway; [`scan_copy`]
//! finds the smallest and largest index in the same pass, and
//! [`IndexRangeCache`] remembers the answer per guest range so an unchanged
//! index buffer is never scanned twice.
//!
//! # Semantics
//!
//! - Index `i` of a draw (`0 ≤ i < count`) is read at
//!   `addr + (first_index + i) · size` (little-endian, `size` = 1, 2 or 4
//!   bytes), a 48-bit guest address. A range that would pass the end of the
//!   48-bit space is an error, never a wrapped read.
//! - **Primitive restart**: with `restart: Some(r)`, an index equal to `r`
//!   (compared as the zero-extended index value) starts a new primitive and
//!   names no vertex, so it is skipped. A restart value the format cannot
//!   hold (`0x1_0000` for 16-bit indices) matches nothing. Without restart
//!   every value is a vertex, all-ones included.
//! - The result is [`IndexRange::Span`] over the indices that name
//!   vertices, [`IndexRange::Empty`] when none does (no count, or only
//!   restart values).
//!
//! Everything here is allocation-free: the scans work on the caller's
//! slices or in fixed stack chunks, and the cache's slots are allocated
//! once, when it is made.

use crate::memory::GuestMemory;
use crate::vsharp::ADDRESS_MASK;
use core::fmt;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The width of one index.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum IndexFormat {
    /// 8-bit indices (gfx10's `VGT_INDEX_8`).
    U8,
    /// 16-bit indices.
    #[default]
    U16,
    /// 32-bit indices.
    U32,
}

impl IndexFormat {
    /// Bytes per index.
    pub const fn bytes(self) -> u64 {
        match self {
            IndexFormat::U8 => 1,
            IndexFormat::U16 => 2,
            IndexFormat::U32 => 4,
        }
    }

    /// The largest index value the format holds.
    pub const fn max_value(self) -> u32 {
        match self {
            IndexFormat::U8 => 0xff,
            IndexFormat::U16 => 0xffff,
            IndexFormat::U32 => u32::MAX,
        }
    }

    /// Short name (`u8`, `u16`, `u32`).
    pub const fn as_str(self) -> &'static str {
        match self {
            IndexFormat::U8 => "u8",
            IndexFormat::U16 => "u16",
            IndexFormat::U32 => "u32",
        }
    }
}

impl fmt::Display for IndexFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An indexed draw's index buffer, in guest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexBuffer {
    /// Guest address of index 0 of the buffer (48-bit).
    pub addr: u64,
    /// Index width.
    pub format: IndexFormat,
    /// Indices the draw reads.
    pub count: u32,
    /// The first index the draw reads.
    pub first_index: u32,
}

impl IndexBuffer {
    /// The guest bytes the draw reads: `(start, length)`, or `None` when
    /// the range passes the end of the 48-bit address space.
    pub const fn byte_range(&self) -> Option<(u64, u64)> {
        let size = self.format.bytes();
        let start = self.addr + self.first_index as u64 * size;
        let len = self.count as u64 * size;
        if self.addr > ADDRESS_MASK || start + len > ADDRESS_MASK + 1 {
            None
        } else {
            Some((start, len))
        }
    }

    /// [`IndexBuffer::byte_range`], or the error that names the buffer.
    pub fn checked_range(&self) -> Result<(u64, u64), IndexError> {
        self.byte_range().ok_or(IndexError::OutOfSpace {
            addr: self.addr,
            format: self.format,
            count: self.count,
            first_index: self.first_index,
        })
    }
}

/// The indices of a draw that name vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IndexRange {
    /// Not known (the index buffer was not scanned): vertex-id bindings of
    /// the draw keep the baseline.
    #[default]
    Unknown,
    /// No index names a vertex: the draw runs no vertex.
    Empty,
    /// The smallest and largest index that names a vertex (the raw index
    /// values, before the draw's base vertex).
    Span {
        /// Smallest.
        min: u32,
        /// Largest.
        max: u32,
    },
}

impl IndexRange {
    /// The union of two results (`Unknown` wins).
    pub const fn union(self, other: IndexRange) -> IndexRange {
        match (self, other) {
            (IndexRange::Unknown, _) | (_, IndexRange::Unknown) => IndexRange::Unknown,
            (IndexRange::Empty, x) | (x, IndexRange::Empty) => x,
            (IndexRange::Span { min: a, max: b }, IndexRange::Span { min: c, max: d }) => {
                IndexRange::Span {
                    min: if a < c { a } else { c },
                    max: if b > d { b } else { d },
                }
            }
        }
    }
}

/// An index buffer that cannot be scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// The draw's index range passes the end of the 48-bit address space.
    #[error("index buffer at {addr:#x}: {count} {format} indices from index {first_index} pass the end of the 48-bit address space")]
    OutOfSpace {
        /// The buffer's address.
        addr: u64,
        /// Index width.
        format: IndexFormat,
        /// Indices.
        count: u32,
        /// First index.
        first_index: u32,
    },
    /// Some index byte is not mapped.
    #[error("index buffer: the {len} bytes at {addr:#x} (indices {first}..) cannot be read")]
    Unreadable {
        /// Start of the unreadable chunk.
        addr: u64,
        /// Its length.
        len: u64,
        /// The draw-relative number of its first index.
        first: u64,
    },
    /// The source and destination of a copy differ in length.
    #[error("index copy: source has {src} bytes, destination {dst}")]
    LengthMismatch {
        /// Source bytes.
        src: usize,
        /// Destination bytes.
        dst: usize,
    },
}

/// Lanes per scan step; wide enough for the compiler to use full vector
/// registers for every index width.
const LANES: usize = 32;

/// Running minimum and maximum of the indices that name vertices.
#[derive(Clone, Copy)]
struct MinMax {
    min: u32,
    max: u32,
    any: bool,
}

impl MinMax {
    const NONE: MinMax = MinMax {
        min: u32::MAX,
        max: 0,
        any: false,
    };

    fn result(self) -> IndexRange {
        if self.any {
            IndexRange::Span {
                min: self.min,
                max: self.max,
            }
        } else {
            IndexRange::Empty
        }
    }
}

/// Generates the scanner of one index width: per-lane running minimum,
/// maximum and "some lane named a vertex" across chunks of [`LANES`]
/// indices (vertical operations the compiler turns into vector
/// instructions), folded across lanes once at the end.
macro_rules! scanner {
    ($name:ident, $t:ty, $n:literal) => {
        /// Scan `src` (whole indices) into `acc`, copying to `dst` when given.
        #[inline]
        fn $name(src: &[u8], mut dst: Option<&mut [u8]>, restart: Option<u32>, acc: &mut MinMax) {
            const STEP: usize = LANES * $n;
            #[inline(always)]
            fn load(c: &[u8]) -> [$t; LANES] {
                let mut v = [0 as $t; LANES];
                for (x, b) in v.iter_mut().zip(c.chunks_exact($n)) {
                    *x = <$t>::from_le_bytes(b.try_into().unwrap_or([0; $n]));
                }
                v
            }
            let mut lo = [<$t>::MAX; LANES];
            let mut hi = [<$t>::MIN; LANES];
            // Per lane: all-ones once the lane saw an index naming a vertex.
            let mut alive = [0 as $t; LANES];
            // A restart value the format cannot hold matches nothing.
            let skip = restart.and_then(|r| <$t>::try_from(r).ok());
            let mut chunks = src.chunks_exact(STEP);
            let mut at = 0usize;
            match skip {
                None => {
                    for c in &mut chunks {
                        if let Some(d) = dst.as_deref_mut() {
                            d[at..at + STEP].copy_from_slice(c);
                        }
                        at += STEP;
                        let v = load(c);
                        for i in 0..LANES {
                            lo[i] = lo[i].min(v[i]);
                            hi[i] = hi[i].max(v[i]);
                        }
                    }
                    if at > 0 {
                        alive = [<$t>::MAX; LANES];
                    }
                }
                Some(r) if r == <$t>::MAX => {
                    // The usual restart value, all-ones, is already neutral
                    // for the minimum; for the maximum, fold `x + 1`
                    // (wrapping), which sends it to 0, neutral there, and
                    // keeps every other value in order. A lane whose
                    // maximum stays 0 saw only restart values.
                    let mut hi1 = [0 as $t; LANES];
                    for c in &mut chunks {
                        if let Some(d) = dst.as_deref_mut() {
                            d[at..at + STEP].copy_from_slice(c);
                        }
                        at += STEP;
                        let v = load(c);
                        for i in 0..LANES {
                            lo[i] = lo[i].min(v[i]);
                            hi1[i] = hi1[i].max(v[i].wrapping_add(1));
                        }
                    }
                    for i in 0..LANES {
                        if hi1[i] != 0 {
                            hi[i] = hi1[i] - 1;
                            alive[i] = <$t>::MAX;
                        }
                    }
                }
                Some(r) => {
                    for c in &mut chunks {
                        if let Some(d) = dst.as_deref_mut() {
                            d[at..at + STEP].copy_from_slice(c);
                        }
                        at += STEP;
                        let v = load(c);
                        // A restart lane gets the all-ones mask `m`, which
                        // turns it into the neutral element of each fold.
                        for i in 0..LANES {
                            let m = ((v[i] == r) as $t).wrapping_neg();
                            lo[i] = lo[i].min(v[i] | m);
                            hi[i] = hi[i].max(v[i] & !m);
                            alive[i] |= !m;
                        }
                    }
                }
            }
            let tail = chunks.remainder();
            if let Some(d) = dst.as_deref_mut() {
                d[at..at + tail.len()].copy_from_slice(tail);
            }
            for (i, b) in tail.chunks_exact($n).enumerate() {
                let x = <$t>::from_le_bytes(b.try_into().unwrap_or([0; $n]));
                if Some(x) != skip {
                    lo[i] = lo[i].min(x);
                    hi[i] = hi[i].max(x);
                    alive[i] = <$t>::MAX;
                }
            }
            for i in 0..LANES {
                if alive[i] != 0 {
                    acc.min = acc.min.min(lo[i] as u32);
                    acc.max = acc.max.max(hi[i] as u32);
                    acc.any = true;
                }
            }
        }
    };
}

scanner!(scan_u8, u8, 1);
scanner!(scan_u16, u16, 2);
scanner!(scan_u32, u32, 4);

fn scan_into(
    src: &[u8],
    dst: Option<&mut [u8]>,
    format: IndexFormat,
    restart: Option<u32>,
    acc: &mut MinMax,
) {
    // Whole indices only: a trailing partial index is ignored (callers pass
    // whole buffers).
    let whole = src.len() - src.len() % format.bytes() as usize;
    let src = &src[..whole];
    match format {
        IndexFormat::U8 => scan_u8(src, dst, restart, acc),
        IndexFormat::U16 => scan_u16(src, dst, restart, acc),
        IndexFormat::U32 => scan_u32(src, dst, restart, acc),
    }
}

/// The range of the indices in `src` (little-endian, whole indices; a
/// trailing partial index is ignored).
pub fn scan(src: &[u8], format: IndexFormat, restart: Option<u32>) -> IndexRange {
    let mut acc = MinMax::NONE;
    scan_into(src, None, format, restart, &mut acc);
    acc.result()
}

/// Copy `src` to `dst` and return the range of its indices, in one pass.
/// `dst` must have `src`'s length.
pub fn scan_copy(
    src: &[u8],
    dst: &mut [u8],
    format: IndexFormat,
    restart: Option<u32>,
) -> Result<IndexRange, IndexError> {
    if src.len() != dst.len() {
        return Err(IndexError::LengthMismatch {
            src: src.len(),
            dst: dst.len(),
        });
    }
    let mut acc = MinMax::NONE;
    let whole = src.len() - src.len() % format.bytes() as usize;
    dst[whole..].copy_from_slice(&src[whole..]);
    scan_into(src, Some(&mut dst[..whole]), format, restart, &mut acc);
    Ok(acc.result())
}

/// Bytes read per step when guest memory cannot lend a view.
const CHUNK: usize = 4096;

/// Visit the draw's index bytes in order, as one view or in fixed chunks.
fn for_each_chunk<M: GuestMemory + ?Sized>(
    mem: &M,
    ib: &IndexBuffer,
    mut f: impl FnMut(&[u8]),
) -> Result<(), IndexError> {
    let (start, len) = ib.checked_range()?;
    if len == 0 {
        return Ok(());
    }
    if let Some(v) = mem.view(start, len) {
        f(v);
        return Ok(());
    }
    let mut buf = [0u8; CHUNK];
    let mut done = 0u64;
    while done < len {
        let n = (len - done).min(CHUNK as u64) as usize;
        let addr = start + done;
        if !mem.read_bytes(addr, &mut buf[..n]) {
            return Err(IndexError::Unreadable {
                addr,
                len: n as u64,
                first: done / ib.format.bytes(),
            });
        }
        f(&buf[..n]);
        done += n as u64;
    }
    Ok(())
}

/// Scan a draw's index buffer in guest memory.
pub fn scan_guest<M: GuestMemory + ?Sized>(
    mem: &M,
    ib: &IndexBuffer,
    restart: Option<u32>,
) -> Result<IndexRange, IndexError> {
    let mut acc = MinMax::NONE;
    for_each_chunk(mem, ib, |c| {
        scan_into(c, None, ib.format, restart, &mut acc)
    })?;
    Ok(acc.result())
}

/// What a cache lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexOutcome {
    /// The slot's range was proven current by the memory's range generation.
    Hit,
    /// The generation changed (or is not tracked) but the bytes hash to the
    /// same value: the range is current.
    HashHit,
    /// The buffer was scanned.
    Miss,
}

/// [`IndexRangeCache`] counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct IndexTelemetry {
    /// Lookups proven by generation.
    pub hits: u64,
    /// Lookups proven by hashing.
    pub hash_hits: u64,
    /// Lookups that scanned.
    pub misses: u64,
    /// Index bytes scanned (misses).
    pub bytes_scanned: u64,
    /// Index bytes hashed (to prove a hit, or to remember a scan).
    pub bytes_hashed: u64,
}

/// What identifies a scan: the draw's guest range, width and restart value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ScanKey {
    start: u64,
    len: u64,
    format: IndexFormat,
    restart: Option<u32>,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: ScanKey,
    range: IndexRange,
    /// xxh3 of the index bytes at the scan.
    hash: u64,
    /// The memory's range generation at the scan or the last proof.
    generation: Option<u64>,
    /// Last use (for replacement within the set).
    used: u64,
}

/// Entries per set.
const WAYS: usize = 4;

/// Scanned index ranges per guest range, proven current before reuse.
///
/// The cache is 4-way set-associative: `slots` entries (a power of two,
/// at least 4) allocated when it is made; a key lives in the set its hash
/// names, and a new key replaces the least recently used entry of the set.
/// A slot's range is reused when the memory's
/// [`range_generation`](GuestMemory::range_generation) of the bytes is the
/// one recorded, or else when the bytes hash (xxh3-64) to the recorded hash.
/// Keys are guest values only (address, length, width, restart value).
#[derive(Clone, Debug)]
pub struct IndexRangeCache {
    slots: Box<[Option<Slot>]>,
    tick: u64,
    telemetry: IndexTelemetry,
}

impl Default for IndexRangeCache {
    fn default() -> Self {
        IndexRangeCache::new(4096)
    }
}

impl IndexRangeCache {
    /// A cache of `slots` entries (rounded up to a power of two, at least
    /// one set of 4).
    pub fn new(slots: usize) -> IndexRangeCache {
        let n = slots.max(WAYS).next_power_of_two();
        IndexRangeCache {
            slots: vec![None; n].into_boxed_slice(),
            tick: 0,
            telemetry: IndexTelemetry::default(),
        }
    }

    /// Counters since the cache was made.
    pub fn telemetry(&self) -> IndexTelemetry {
        self.telemetry
    }

    /// The range of a draw's indices, from the cache when the bytes are
    /// proven unchanged, else scanned from guest memory.
    pub fn range<M: GuestMemory + ?Sized>(
        &mut self,
        mem: &M,
        ib: &IndexBuffer,
        restart: Option<u32>,
    ) -> Result<IndexRange, IndexError> {
        self.lookup(mem, ib, restart).map(|(r, _)| r)
    }

    /// [`IndexRangeCache::range`], also saying how the answer was found.
    pub fn lookup<M: GuestMemory + ?Sized>(
        &mut self,
        mem: &M,
        ib: &IndexBuffer,
        restart: Option<u32>,
    ) -> Result<(IndexRange, IndexOutcome), IndexError> {
        let (start, len) = ib.checked_range()?;
        if len == 0 {
            self.telemetry.hits += 1;
            return Ok((IndexRange::Empty, IndexOutcome::Hit));
        }
        let key = ScanKey {
            start,
            len,
            format: ib.format,
            restart,
        };
        self.tick += 1;
        let set = set_of(&key, self.slots.len() / WAYS) * WAYS;
        let ways = &mut self.slots[set..set + WAYS];
        // The way holding the key, else the one to replace (empty, or least
        // recently used).
        let at = match ways.iter().position(|w| w.is_some_and(|w| w.key == key)) {
            Some(i) => i,
            None => (0..WAYS)
                .min_by_key(|&i| ways[i].map_or(0, |w| w.used))
                .unwrap_or(0),
        };
        let generation = mem.range_generation(start, len);
        if let Some(s) = &mut ways[at] {
            if s.key == key {
                s.used = self.tick;
                if generation.is_some() && s.generation == generation {
                    self.telemetry.hits += 1;
                    return Ok((s.range, IndexOutcome::Hit));
                }
                let mut h = Xxh3::new();
                for_each_chunk(mem, ib, |c| h.update(c))?;
                self.telemetry.bytes_hashed += len;
                if h.digest() == s.hash {
                    s.generation = generation;
                    self.telemetry.hash_hits += 1;
                    return Ok((s.range, IndexOutcome::HashHit));
                }
            }
        }
        let mut acc = MinMax::NONE;
        let mut h = Xxh3::new();
        for_each_chunk(mem, ib, |c| {
            h.update(c);
            scan_into(c, None, ib.format, restart, &mut acc);
        })?;
        self.telemetry.misses += 1;
        self.telemetry.bytes_scanned += len;
        self.telemetry.bytes_hashed += len;
        let range = acc.result();
        self.slots[set + at] = Some(Slot {
            key,
            range,
            hash: h.digest(),
            generation,
            used: self.tick,
        });
        Ok((range, IndexOutcome::Miss))
    }
}

/// The set of a key: its xxh3 folded to the number of sets.
fn set_of(key: &ScanKey, sets: usize) -> usize {
    let mut b = [0u8; 24];
    b[..8].copy_from_slice(&key.start.to_le_bytes());
    b[8..16].copy_from_slice(&key.len.to_le_bytes());
    b[16] = key.format.bytes() as u8;
    b[17] = key.restart.is_some() as u8;
    b[20..24].copy_from_slice(&key.restart.unwrap_or(0).to_le_bytes());
    (xxh3_64(&b) as usize) & (sets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::SparseMemory;

    fn bytes16(v: &[u16]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// The obvious definition, for comparison.
    fn naive(v: &[u32], restart: Option<u32>) -> IndexRange {
        let live: Vec<u32> = v.iter().copied().filter(|x| Some(*x) != restart).collect();
        match (live.iter().min(), live.iter().max()) {
            (Some(&min), Some(&max)) => IndexRange::Span { min, max },
            _ => IndexRange::Empty,
        }
    }

    #[test]
    fn scans_agree_with_the_plain_definition_for_every_width_length_and_restart() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for format in [IndexFormat::U8, IndexFormat::U16, IndexFormat::U32] {
            for len in [0usize, 1, 2, 31, 32, 33, 64, 100, 257] {
                for restart_kind in 0..4 {
                    let max = format.max_value() as u64;
                    let v: Vec<u32> = (0..len)
                        .map(|_| match next() % 5 {
                            0 => max as u32,
                            _ => (next() % (max + 1)) as u32,
                        })
                        .collect();
                    let restart = match restart_kind {
                        0 => None,
                        1 => Some(max as u32),
                        2 => v.first().copied(),
                        _ => Some(u32::MAX), // wider than u8/u16: matches nothing there
                    };
                    let bytes: Vec<u8> = v
                        .iter()
                        .flat_map(|x| x.to_le_bytes()[..format.bytes() as usize].to_vec())
                        .collect();
                    let effective = restart.filter(|r| *r <= format.max_value());
                    let want = naive(&v, effective);
                    assert_eq!(
                        scan(&bytes, format, restart),
                        want,
                        "{format} {len} {restart:?}"
                    );
                    let mut dst = vec![0u8; bytes.len()];
                    assert_eq!(scan_copy(&bytes, &mut dst, format, restart), Ok(want));
                    assert_eq!(dst, bytes, "the copy is exact");
                }
            }
        }
    }

    #[test]
    fn only_restart_values_or_no_indices_name_no_vertex() {
        let all_restart = bytes16(&[0xffff; 40]);
        assert_eq!(
            scan(&all_restart, IndexFormat::U16, Some(0xffff)),
            IndexRange::Empty
        );
        assert_eq!(scan(&[], IndexFormat::U32, None), IndexRange::Empty);
        assert_eq!(
            scan(&all_restart, IndexFormat::U16, None),
            IndexRange::Span {
                min: 0xffff,
                max: 0xffff
            },
            "without restart, all-ones is a vertex"
        );
    }

    #[test]
    fn a_copy_into_a_buffer_of_another_length_is_an_error() {
        let mut dst = [0u8; 3];
        assert_eq!(
            scan_copy(&[0; 4], &mut dst, IndexFormat::U16, None),
            Err(IndexError::LengthMismatch { src: 4, dst: 3 })
        );
    }

    #[test]
    fn guest_scans_read_from_first_index_and_name_unreadable_bytes() {
        let mut mem = SparseMemory::new();
        mem.write_bytes(0x1000, &bytes16(&[900, 3, 7, 5, 0xffff, 2]));
        let ib = IndexBuffer {
            addr: 0x1000,
            format: IndexFormat::U16,
            count: 5,
            first_index: 1,
        };
        assert_eq!(
            scan_guest(&mem, &ib, Some(0xffff)),
            Ok(IndexRange::Span { min: 2, max: 7 })
        );
        let past = IndexBuffer { count: 6, ..ib };
        assert!(matches!(
            scan_guest(&mem, &past, None),
            Err(IndexError::Unreadable { .. })
        ));
        let wraps = IndexBuffer {
            addr: ADDRESS_MASK - 1,
            count: 2,
            first_index: 0,
            ..ib
        };
        let e = scan_guest(&mem, &wraps, None).unwrap_err();
        assert!(e.to_string().contains("48-bit"), "{e}");
    }

    #[test]
    fn the_cache_reuses_a_range_until_the_bytes_change() {
        let mut mem = SparseMemory::with_generations();
        mem.write_bytes(0x2000, &bytes16(&[1, 2, 3, 40]));
        let ib = IndexBuffer {
            addr: 0x2000,
            format: IndexFormat::U16,
            count: 4,
            first_index: 0,
        };
        let mut c = IndexRangeCache::new(8);
        let span = IndexRange::Span { min: 1, max: 40 };
        assert_eq!(c.lookup(&mem, &ib, None), Ok((span, IndexOutcome::Miss)));
        assert_eq!(c.lookup(&mem, &ib, None), Ok((span, IndexOutcome::Hit)));
        // Rewritten with the same bytes: the generation moved, the hash holds.
        mem.write_bytes(0x2000, &bytes16(&[1, 2, 3, 40]));
        assert_eq!(c.lookup(&mem, &ib, None), Ok((span, IndexOutcome::HashHit)));
        assert_eq!(c.lookup(&mem, &ib, None), Ok((span, IndexOutcome::Hit)));
        // Rewritten with a larger index: scanned again.
        mem.write_bytes(0x2006, &bytes16(&[41]));
        assert_eq!(
            c.lookup(&mem, &ib, None),
            Ok((IndexRange::Span { min: 1, max: 41 }, IndexOutcome::Miss))
        );
        // Another restart value is another key.
        assert_eq!(
            c.lookup(&mem, &ib, Some(41)).map(|r| r.0),
            Ok(IndexRange::Span { min: 1, max: 3 })
        );
        let t = c.telemetry();
        assert_eq!((t.hits, t.hash_hits, t.misses), (2, 1, 3));
    }

    #[test]
    fn without_generations_the_cache_proves_hits_by_hashing() {
        let mut mem = SparseMemory::new();
        mem.write_bytes(0x2000, &bytes16(&[5, 6]));
        let ib = IndexBuffer {
            addr: 0x2000,
            format: IndexFormat::U16,
            count: 2,
            first_index: 0,
        };
        let mut c = IndexRangeCache::new(1);
        assert_eq!(c.lookup(&mem, &ib, None).unwrap().1, IndexOutcome::Miss);
        assert_eq!(c.lookup(&mem, &ib, None).unwrap().1, IndexOutcome::HashHit);
        mem.write_bytes(0x2000, &bytes16(&[9]));
        assert_eq!(
            c.lookup(&mem, &ib, None),
            Ok((IndexRange::Span { min: 6, max: 9 }, IndexOutcome::Miss))
        );
    }
}
