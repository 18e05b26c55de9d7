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

/// A byte-granular sparse memory: mapped regions (merged when they touch),
/// optionally with page write generations. For tests, the CLI and replays.
#[derive(Clone, Debug, Default)]
pub struct SparseMemory {
    /// Sorted, disjoint, non-adjacent regions.
    regions: Vec<(u64, Vec<u8>)>,
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
            generations: Some(HashMap::new()),
        }
    }

    /// Map `len` zero bytes at `addr` (already mapped bytes keep their
    /// value). Ranges that would pass the end of the address space are
    /// cut there.
    pub fn map(&mut self, addr: u64, len: u64) {
        let len = len.min(u64::MAX - addr);
        if len == 0 {
            return;
        }
        let end = addr + len;
        if self.find(addr, len).is_some() {
            return;
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
        for (a, b) in &self.regions[first..last] {
            new_start = new_start.min(*a);
            new_end = new_end.max(a + b.len() as u64);
        }
        let mut bytes = vec![0u8; (new_end - new_start) as usize];
        for (a, b) in &self.regions[first..last] {
            let o = (a - new_start) as usize;
            bytes[o..o + b.len()].copy_from_slice(b);
        }
        self.regions
            .splice(first..last, std::iter::once((new_start, bytes)));
    }

    /// Write bytes (mapping them first if needed) and bump the generation
    /// of every page written.
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        self.map(addr, data.len() as u64);
        let i = self.find(addr, data.len() as u64).expect("just mapped");
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
