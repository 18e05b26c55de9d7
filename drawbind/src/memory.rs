//! Guest memory as the per-draw path and the cache see it.

use std::collections::HashMap;

/// log2 of the page size that [`GuestMemory::page_generation`] counts in.
pub const PAGE_SHIFT: u32 = 12;
/// The page size that [`GuestMemory::page_generation`] counts in: 4 KiB.
pub const PAGE_SIZE: u64 = 1 << PAGE_SHIFT;

/// Guest GPU memory, implemented by the emulator.
///
/// Addresses are 48-bit GPU virtual addresses: `drawbind` truncates the
/// 64-bit pointers a shader forms to 48 bits before asking (a canonical
/// 64-bit pointer's high 16 bits only repeat bit 47), so RADV's 32-bit
/// table pointers, `0xffff8000_xxxxxxxx` in SGPRs, read guest address
/// `0x8000_xxxxxxxx`.
pub trait GuestMemory {
    /// The little-endian dword at `addr` (any alignment), or `None` when any
    /// of its four bytes is not mapped.
    fn read_u32(&self, addr: u64) -> Option<u32>;

    /// The four little-endian dwords at `addr` (a whole buffer descriptor),
    /// or `None` when any byte is not mapped. The default makes four
    /// [`GuestMemory::read_u32`] calls; override it when one lookup can
    /// serve all 16 bytes.
    fn read_u32x4(&self, addr: u64) -> Option<[u32; 4]> {
        Some([
            self.read_u32(addr)?,
            self.read_u32(addr.wrapping_add(4))?,
            self.read_u32(addr.wrapping_add(8))?,
            self.read_u32(addr.wrapping_add(12))?,
        ])
    }

    /// Fill `out` with the bytes at `addr`; false when any is not mapped.
    ///
    /// The default uses [`GuestMemory::view`] when it lends the bytes, else
    /// reads dword by dword with [`GuestMemory::read_u32`]; a partial last
    /// dword is read as the dword that ends where the range ends, so no byte
    /// outside the range is needed (for ranges of 4 bytes or more).
    fn read_bytes(&self, addr: u64, out: &mut [u8]) -> bool {
        if let Some(v) = self.view(addr, out.len() as u64) {
            out.copy_from_slice(v);
            return true;
        }
        let len = out.len();
        let mut i = 0usize;
        while i + 4 <= len {
            let Some(w) = self.read_u32(addr.wrapping_add(i as u64)) else {
                return false;
            };
            out[i..i + 4].copy_from_slice(&w.to_le_bytes());
            i += 4;
        }
        let rest = len - i;
        if rest > 0 {
            if len >= 4 {
                let Some(w) = self.read_u32(addr.wrapping_add(len as u64 - 4)) else {
                    return false;
                };
                out[len - 4..].copy_from_slice(&w.to_le_bytes());
            } else if let Some(w) = self.read_u32(addr) {
                // Shorter than a dword: the dword starting at the range...
                out.copy_from_slice(&w.to_le_bytes()[..len]);
            } else if let Some(w) = self.read_u32(addr.wrapping_add(len as u64).wrapping_sub(4)) {
                // ...or the one ending where the range ends...
                out.copy_from_slice(&w.to_le_bytes()[4 - len..]);
            } else {
                // ...or the aligned dword holding the whole range.
                let at = (addr & 3) as usize;
                if at + len > 4 {
                    return false;
                }
                let Some(w) = self.read_u32(addr & !3) else {
                    return false;
                };
                out.copy_from_slice(&w.to_le_bytes()[at..at + len]);
            }
        }
        true
    }

    /// A direct view of `len` bytes at `addr`, when the memory can lend one
    /// (lets the cache hash guest bytes without copying them). Default: `None`.
    fn view(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let _ = (addr, len);
        None
    }

    /// The write generation of a [`PAGE_SIZE`] page (`page` = address >>
    /// [`PAGE_SHIFT`]): a number that changes whenever any byte of the page
    /// may have been written. `None` when the memory does not track writes;
    /// the cache then proves hits by hashing. Default: `None`.
    fn page_generation(&self, page: u64) -> Option<u64> {
        let _ = page;
        None
    }

    /// A number that changes whenever any byte of `len` bytes at `addr` may
    /// have been written; `None` when writes are not tracked. Caches that
    /// reuse work done on guest bytes ([`IndexRangeCache`]) compare it
    /// before falling back to hashing the bytes.
    ///
    /// The default sums the [`GuestMemory::page_generation`]s of the pages
    /// the range touches (generations only grow, so the sum changes when
    /// any of them does): its cost grows with the range. An emulator that
    /// tracks writes per region should answer in constant time.
    ///
    /// [`IndexRangeCache`]: crate::index::IndexRangeCache
    fn range_generation(&self, addr: u64, len: u64) -> Option<u64> {
        if len == 0 {
            return Some(0);
        }
        let first = addr >> PAGE_SHIFT;
        let last = addr.saturating_add(len - 1) >> PAGE_SHIFT;
        let mut sum = 0u64;
        for p in first..=last {
            sum = sum.wrapping_add(self.page_generation(p)?);
        }
        Some(sum)
    }
}

impl<T: GuestMemory + ?Sized> GuestMemory for &T {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        (**self).read_u32(addr)
    }
    fn read_u32x4(&self, addr: u64) -> Option<[u32; 4]> {
        (**self).read_u32x4(addr)
    }
    fn read_bytes(&self, addr: u64, out: &mut [u8]) -> bool {
        (**self).read_bytes(addr, out)
    }
    fn view(&self, addr: u64, len: u64) -> Option<&[u8]> {
        (**self).view(addr, len)
    }
    fn page_generation(&self, page: u64) -> Option<u64> {
        (**self).page_generation(page)
    }
    fn range_generation(&self, addr: u64, len: u64) -> Option<u64> {
        (**self).range_generation(addr, len)
    }
}

/// Memory with nothing mapped.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoMemory;

impl GuestMemory for NoMemory {
    fn read_u32(&self, _addr: u64) -> Option<u32> {
        None
    }
}

/// The most bytes one [`SparseMemory`] maps in all: 1 GiB. [`SparseMemory::try_map`]
/// and [`SparseMemory::try_write_bytes`] refuse a request past it.
pub const MAX_MAPPED_BYTES: u64 = 1 << 30;

/// Why [`SparseMemory`] refused to map or write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    /// The range runs past the end of the 64-bit address space.
    #[error("{len} bytes at {addr:#x} run past the end of the 64-bit address space")]
    PastEnd {
        /// Start.
        addr: u64,
        /// Bytes asked for.
        len: u64,
    },
    /// The memory would map more than [`MAX_MAPPED_BYTES`].
    #[error(
        "mapping {len} bytes at {addr:#x} would map {total} bytes in all, \
         past the limit of {MAX_MAPPED_BYTES} bytes (1 GiB)"
    )]
    TooLarge {
        /// Start.
        addr: u64,
        /// Bytes asked for.
        len: u64,
        /// Bytes mapped in all after the request.
        total: u64,
    },
}

/// A byte-granular sparse memory: mapped regions (merged when they touch),
/// optionally with page write generations. For tests, the CLI and replays.
///
/// At most [`MAX_MAPPED_BYTES`] are mapped. Mapping or writing just past
/// the end of the last region grows it in place, so N adjacent blocks
/// written in ascending order cost time linear in their bytes.
#[derive(Clone, Debug, Default)]
pub struct SparseMemory {
    /// Sorted, disjoint, non-adjacent regions.
    regions: Vec<(u64, Vec<u8>)>,
    /// Bytes mapped in all.
    mapped: u64,
    /// Page write generations when tracked (absent page = generation 0).
    generations: Option<HashMap<u64, u64>>,
}

impl SparseMemory {
    /// Empty memory without write tracking.
    pub fn new() -> SparseMemory {
        SparseMemory::default()
    }

    /// Empty memory that tracks page write generations.
    pub fn with_generations() -> SparseMemory {
        SparseMemory {
            regions: Vec::new(),
            mapped: 0,
            generations: Some(HashMap::new()),
        }
    }

    /// Map `len` zero bytes at `addr` (already mapped bytes keep their
    /// value), for sizes the caller controls: a range that would pass the
    /// end of the address space is cut there, and a request past
    /// [`MAX_MAPPED_BYTES`] leaves the memory unchanged. Input-driven
    /// sizes go through [`SparseMemory::try_map`].
    pub fn map(&mut self, addr: u64, len: u64) {
        let _ = self.try_map(addr, len.min(u64::MAX - addr));
    }

    /// Map `len` zero bytes at `addr` (already mapped bytes keep their
    /// value); an error, changing nothing, when the range passes the end of
    /// the address space or the memory would map more than
    /// [`MAX_MAPPED_BYTES`].
    pub fn try_map(&mut self, addr: u64, len: u64) -> Result<(), MemoryError> {
        let Some(end) = addr.checked_add(len) else {
            return Err(MemoryError::PastEnd { addr, len });
        };
        if len == 0 || self.find(addr, len).is_some() {
            return Ok(());
        }
        // Regions that overlap or touch [addr, end).
        let first = self
            .regions
            .partition_point(|(a, b)| a + (b.len() as u64) < addr);
        let mut last = first;
        while last < self.regions.len() && self.regions[last].0 <= end {
            last += 1;
        }
        let mut new_start = addr;
        let mut new_end = end;
        let mut old = 0u64;
        for (a, b) in &self.regions[first..last] {
            new_start = new_start.min(*a);
            new_end = new_end.max(a + b.len() as u64);
            old += b.len() as u64;
        }
        let total = self.mapped - old + (new_end - new_start);
        if total > MAX_MAPPED_BYTES {
            return Err(MemoryError::TooLarge { addr, len, total });
        }
        self.mapped = total;
        let size = (new_end - new_start) as usize;
        if first < last && self.regions[first].0 == new_start {
            // Grow the first region in place (amortised: appending adjacent
            // blocks is linear), then copy the later ones in.
            let mut bytes = std::mem::take(&mut self.regions[first].1);
            bytes.resize(size, 0);
            for (a, b) in &self.regions[first + 1..last] {
                let o = (a - new_start) as usize;
                bytes[o..o + b.len()].copy_from_slice(b);
            }
            self.regions[first].1 = bytes;
            self.regions.drain(first + 1..last);
            return Ok(());
        }
        let mut bytes = vec![0u8; size];
        for (a, b) in &self.regions[first..last] {
            let o = (a - new_start) as usize;
            bytes[o..o + b.len()].copy_from_slice(b);
        }
        self.regions
            .splice(first..last, std::iter::once((new_start, bytes)));
        Ok(())
    }

    /// Write bytes (mapping them first if needed) and bump the generation
    /// of every page written, for sizes the caller controls: bytes past the
    /// end of the address space are dropped, and a write that
    /// [`SparseMemory::try_write_bytes`] refuses changes nothing.
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) {
        let n = data
            .len()
            .min((u64::MAX - addr).min(usize::MAX as u64) as usize);
        let _ = self.try_write_bytes(addr, &data[..n]);
    }

    /// Write bytes (mapping them first if needed) and bump the generation
    /// of every page written; an error, changing nothing, when
    /// [`SparseMemory::try_map`] refuses the range.
    pub fn try_write_bytes(&mut self, addr: u64, data: &[u8]) -> Result<(), MemoryError> {
        if data.is_empty() {
            return Ok(());
        }
        self.try_map(addr, data.len() as u64)?;
        let Some(i) = self.find(addr, data.len() as u64) else {
            // try_map maps the whole range or fails; nothing to write.
            return Ok(());
        };
        let (a, b) = &mut self.regions[i];
        let o = (addr - *a) as usize;
        let n = data.len().min(b.len() - o);
        b[o..o + n].copy_from_slice(&data[..n]);
        if let Some(g) = &mut self.generations {
            let first = addr >> PAGE_SHIFT;
            let last = (addr + n as u64 - 1) >> PAGE_SHIFT;
            for p in first..=last {
                *g.entry(p).or_insert(0) += 1;
            }
        }
        Ok(())
    }

    /// [`SparseMemory::try_write_bytes`] of little-endian dwords.
    pub fn try_write_words(&mut self, addr: u64, words: &[u32]) -> Result<(), MemoryError> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.try_write_bytes(addr, &bytes)
    }

    /// Write little-endian dwords.
    pub fn write_words(&mut self, addr: u64, words: &[u32]) {
        let mut bytes = Vec::with_capacity(words.len() * 4);
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        self.write_bytes(addr, &bytes);
    }

    /// Index of the region holding all of `[addr, addr + len)`.
    #[inline]
    fn find(&self, addr: u64, len: u64) -> Option<usize> {
        let i = self
            .regions
            .partition_point(|(a, _)| *a <= addr)
            .checked_sub(1)?;
        let (a, b) = &self.regions[i];
        let end = addr.checked_add(len)?;
        (end <= a + b.len() as u64).then_some(i)
    }

    /// The mapped regions, as (address, length).
    pub fn regions(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.regions.iter().map(|(a, b)| (*a, b.len() as u64))
    }
}

impl GuestMemory for SparseMemory {
    #[inline]
    fn read_u32(&self, addr: u64) -> Option<u32> {
        let v = self.view(addr, 4)?;
        Some(u32::from_le_bytes([v[0], v[1], v[2], v[3]]))
    }

    #[inline]
    fn read_u32x4(&self, addr: u64) -> Option<[u32; 4]> {
        let v = self.view(addr, 16)?;
        let w = |i: usize| u32::from_le_bytes([v[i], v[i + 1], v[i + 2], v[i + 3]]);
        Some([w(0), w(4), w(8), w(12)])
    }

    #[inline]
    fn view(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let i = self.find(addr, len)?;
        let (a, b) = &self.regions[i];
        let o = (addr - a) as usize;
        Some(&b[o..o + len as usize])
    }

    fn page_generation(&self, page: u64) -> Option<u64> {
        self.generations
            .as_ref()
            .map(|g| g.get(&page).copied().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_memory_merges_touching_regions_and_reads_across_them() {
        let mut m = SparseMemory::new();
        m.write_words(0x1000, &[1, 2]);
        m.write_words(0x1008, &[3]);
        m.write_words(0x0ff8, &[9, 10]);
        assert_eq!(m.regions().collect::<Vec<_>>(), vec![(0xff8, 20)]);
        assert_eq!(m.read_u32(0x1004), Some(2));
        assert_eq!(m.read_u32(0x1002), Some(0x0002_0000));
        assert_eq!(m.read_u32(0x1009), None, "straddles the end");
        assert_eq!(m.read_u32(0x0ff4), None);
    }

    #[test]
    fn sparse_memory_bumps_the_generation_of_each_written_page() {
        let mut m = SparseMemory::with_generations();
        m.map(0x0, 0x3000);
        assert_eq!(m.page_generation(1), Some(0));
        m.write_bytes(0x0ffe, &[1, 2, 3, 4]);
        assert_eq!(
            (
                m.page_generation(0),
                m.page_generation(1),
                m.page_generation(2)
            ),
            (Some(1), Some(1), Some(0))
        );
        assert_eq!(SparseMemory::new().page_generation(0), None);
    }

    #[test]
    fn writes_and_maps_past_the_end_of_the_address_space_are_errors_not_panics() {
        let top = 0xffff_ffff_ffff_fffc;
        let mut m = SparseMemory::new();
        assert!(matches!(
            m.try_write_words(top, &[1, 2]),
            Err(MemoryError::PastEnd { .. })
        ));
        assert_eq!(m.regions().count(), 0, "a refused write changes nothing");
        m.write_words(top, &[1, 2]); // the infallible form cuts, never panics
        m.try_write_words(top - 4, &[5]).unwrap();
        assert_eq!(m.read_u32(top - 4), Some(5));
        assert!(matches!(
            m.try_map(0x10, u64::MAX),
            Err(MemoryError::PastEnd { .. })
        ));
        // 2^64 − 1 bytes: refused by the size limit, not a capacity overflow.
        let mut m = SparseMemory::new();
        assert!(matches!(
            m.try_map(0, u64::MAX),
            Err(MemoryError::TooLarge { .. })
        ));
        m.map(0, u64::MAX);
        assert_eq!(m.regions().count(), 0);
        m.try_map(0, MAX_MAPPED_BYTES - 4096)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(m.try_map(1 << 40, 8192).is_err(), "past the limit in all");
    }

    #[test]
    fn appending_adjacent_blocks_takes_linear_time() {
        // 100,000 adjacent 64-byte blocks: copying the whole region per
        // block (the old merge) moves 320 GB; growing in place moves 6.4 MB.
        let t = std::time::Instant::now();
        let mut m = SparseMemory::with_generations();
        for i in 0..100_000u64 {
            m.write_bytes(0x1000 + 64 * i, &[i as u8; 64]);
        }
        assert_eq!(m.regions().collect::<Vec<_>>(), vec![(0x1000, 6_400_000)]);
        assert_eq!(m.read_u32(0x1000 + 64 * 99_999), Some(0x9f9f_9f9f));
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }

    /// Memory that only answers `read_u32`, to exercise the default methods.
    struct WordsOnly(SparseMemory);
    impl GuestMemory for WordsOnly {
        fn read_u32(&self, addr: u64) -> Option<u32> {
            self.0.read_u32(addr)
        }
    }

    #[test]
    fn default_read_bytes_reads_unaligned_tails_without_leaving_the_range() {
        let mut m = SparseMemory::new();
        m.write_bytes(0x100, &[1, 2, 3, 4, 5, 6, 7]);
        let w = WordsOnly(m);
        let mut out = [0u8; 7];
        assert!(w.read_bytes(0x100, &mut out));
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 7]);
        let mut out = [0u8; 8];
        assert!(!w.read_bytes(0x100, &mut out), "one byte past the mapping");
    }

    #[test]
    fn default_read_bytes_reads_a_short_range_inside_one_mapped_dword() {
        // Only the dword at 0x200 is mapped: the dwords starting at 0x201
        // and ending at 0x203 are not, the aligned one holding both is.
        let mut m = SparseMemory::new();
        m.write_bytes(0x200, &[9, 8, 7, 6]);
        let w = WordsOnly(m);
        let mut out = [0u8; 2];
        assert!(w.read_bytes(0x201, &mut out));
        assert_eq!(out, [8, 7]);
        let mut out = [0u8; 3];
        assert!(!w.read_bytes(0x202, &mut out), "one byte past the mapping");
    }
}
