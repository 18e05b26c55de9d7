//! The reference buffer cache: host copies of guest ranges, keyed by
//! [`BufferKey`], with telemetry.
//!
//! - **Miss**: the range is copied from guest memory.
//! - **Hit**: the key's entry (or a cached range containing it) still holds
//!   the guest's bytes. That is proven by page write generations when the
//!   memory reports them and none changed since the copy; otherwise by
//!   hashing (xxh3-64) the guest range and comparing with the cached bytes'
//!   hash. A hit proven by hashing refreshes the generations it covers.
//! - A key inside a cached range is a **contained hit** when that range's
//!   bytes over the key are proven unchanged (the most recently used
//!   containing range is the one tried). Proving it by hashing hashes both
//!   the guest bytes and the cached bytes of the key.
//! - Entries are evicted least recently used first once their bytes pass the
//!   capacity; a key larger than the capacity is an error.
//!
//! This is a reference for telemetry and tests, not a tuned cache: a real
//! one tracks dirty pages, merges overlapping ranges and uploads deltas.

use crate::memory::{GuestMemory, PAGE_SHIFT, PAGE_SIZE};
use crate::plan::BufferKey;
use std::collections::{BTreeMap, HashSet};
use xxhash_rust::xxh3::xxh3_64;

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The key's own entry was valid.
    Hit,
    /// A cached range containing the key was valid over the key.
    ContainedHit,
    /// The range was copied.
    Miss,
}

impl Outcome {
    /// Hit or contained hit.
    pub const fn is_hit(self) -> bool {
        !matches!(self, Outcome::Miss)
    }
}

/// Counters since the cache was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Telemetry {
    /// Lookups that were hits (own entry or containing range).
    pub hits: u64,
    /// The part of `hits` served by a containing range.
    pub contained_hits: u64,
    /// Lookups that copied.
    pub misses: u64,
    /// Bytes copied from guest memory.
    pub bytes_copied: u64,
    /// Bytes hashed (guest or cached) to prove hits.
    pub bytes_hashed: u64,
    /// Distinct keys looked up.
    pub distinct_keys: u64,
    /// Entries evicted.
    pub evictions: u64,
}

/// A lookup failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// Some byte of the range is not mapped.
    #[error("guest range {base:#x}..{end:#x} ({size} bytes) cannot be read", end = base.saturating_add(*size))]
    Unreadable {
        /// Range start.
        base: u64,
        /// Range size.
        size: u64,
    },
    /// The range is larger than the cache.
    #[error("a {size}-byte range at {base:#x} does not fit a {capacity}-byte cache")]
    TooLarge {
        /// Range start.
        base: u64,
        /// Range size.
        size: u64,
        /// The cache's capacity.
        capacity: u64,
    },
}

#[derive(Debug)]
struct Entry {
    bytes: Vec<u8>,
    /// xxh3 of `bytes`, computed when first needed.
    hash: Option<u64>,
    /// Generations of pages `first_page(base)..` at the last proof; empty
    /// when the memory does not report them.
    gens: Vec<u64>,
    /// Last use, the key in `BufferCache::lru`.
    tick: u64,
}

/// The reference buffer cache; see the [module docs](self).
#[derive(Debug)]
pub struct BufferCache {
    entries: BTreeMap<BufferKey, Entry>,
    lru: BTreeMap<u64, BufferKey>,
    tick: u64,
    bytes: u64,
    capacity: u64,
    largest: u64,
    seen: HashSet<BufferKey>,
    scratch: Vec<u8>,
    telemetry: Telemetry,
}

/// The default capacity: 256 MiB.
pub const DEFAULT_CAPACITY: u64 = 256 << 20;

impl Default for BufferCache {
    fn default() -> Self {
        BufferCache::new(DEFAULT_CAPACITY)
    }
}

fn snapshot<M: GuestMemory + ?Sized>(key: BufferKey, mem: &M) -> Vec<u64> {
    let first = key.base >> PAGE_SHIFT;
    let last = (key.end().saturating_sub(1)) >> PAGE_SHIFT;
    let mut out = Vec::with_capacity((last - first + 1) as usize);
    for p in first..=last {
        match mem.page_generation(p) {
            Some(g) => out.push(g),
            None => return Vec::new(),
        }
    }
    out
}

impl BufferCache {
    /// A cache holding at most `capacity` bytes of copies.
    pub fn new(capacity: u64) -> BufferCache {
        BufferCache {
            entries: BTreeMap::new(),
            lru: BTreeMap::new(),
            tick: 0,
            bytes: 0,
            capacity,
            largest: 0,
            seen: HashSet::new(),
            scratch: Vec::new(),
            telemetry: Telemetry::default(),
        }
    }

    /// The counters.
    pub fn telemetry(&self) -> Telemetry {
        self.telemetry
    }

    /// Bytes held in copies.
    pub fn held_bytes(&self) -> u64 {
        self.bytes
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The host bytes for `key` as last proven: from its own entry or from
    /// a containing one. Does not prove anything; call [`BufferCache::get`]
    /// first.
    pub fn host_bytes(&self, key: BufferKey) -> Option<&[u8]> {
        if key.size == 0 {
            return Some(&[]);
        }
        if let Some(e) = self.entries.get(&key) {
            return Some(&e.bytes);
        }
        let c = self.container(key)?;
        let e = self.entries.get(&c)?;
        let o = (key.base - c.base) as usize;
        e.bytes.get(o..o + key.size as usize)
    }

    /// Look `key` up, proving a hit or copying on a miss.
    pub fn get<M: GuestMemory + ?Sized>(
        &mut self,
        key: BufferKey,
        mem: &M,
    ) -> Result<Outcome, CacheError> {
        if self.seen.insert(key) {
            self.telemetry.distinct_keys += 1;
        }
        if key.size == 0 {
            self.telemetry.hits += 1;
            return Ok(Outcome::Hit);
        }
        if key.size > self.capacity || key.base.checked_add(key.size).is_none() {
            return Err(CacheError::TooLarge {
                base: key.base,
                size: key.size,
                capacity: self.capacity,
            });
        }
        self.tick += 1;
        let tick = self.tick;
        if self.entries.contains_key(&key) {
            let outcome = self.revalidate(key, mem)?;
            self.touch(key, tick);
            return Ok(outcome);
        }
        if let Some(c) = self.container(key) {
            if self.prove_contained(c, key, mem)? {
                self.touch(c, tick);
                self.telemetry.hits += 1;
                self.telemetry.contained_hits += 1;
                return Ok(Outcome::ContainedHit);
            }
        }
        // Miss: copy.
        let mut bytes = vec![0u8; key.size as usize];
        if !mem.read_bytes(key.base, &mut bytes) {
            return Err(CacheError::Unreadable {
                base: key.base,
                size: key.size,
            });
        }
        self.telemetry.misses += 1;
        self.telemetry.bytes_copied += key.size;
        while self.bytes + key.size > self.capacity {
            let Some((_, k)) = self.lru.pop_first() else {
                break;
            };
            if let Some(e) = self.entries.remove(&k) {
                self.bytes -= e.bytes.len() as u64;
                self.telemetry.evictions += 1;
            }
        }
        let gens = snapshot(key, mem);
        self.entries.insert(
            key,
            Entry {
                bytes,
                hash: None,
                gens,
                tick,
            },
        );
        self.lru.insert(tick, key);
        self.bytes += key.size;
        self.largest = self.largest.max(key.size);
        Ok(Outcome::Miss)
    }

    fn touch(&mut self, key: BufferKey, tick: u64) {
        if let Some(e) = self.entries.get_mut(&key) {
            self.lru.remove(&e.tick);
            e.tick = tick;
            self.lru.insert(tick, key);
        }
    }

    /// The most recently used cached range that strictly contains `key`.
    fn container(&self, key: BufferKey) -> Option<BufferKey> {
        let lowest = key.end().saturating_sub(self.largest);
        if lowest > key.base {
            return None; // no entry is large enough
        }
        let lo = BufferKey {
            base: lowest,
            size: 0,
        };
        let hi = BufferKey {
            base: key.base,
            size: u64::MAX,
        };
        self.entries
            .range(lo..=hi)
            .filter(|(k, _)| **k != key && k.contains(&key))
            .max_by_key(|(_, e)| e.tick)
            .map(|(k, _)| *k)
    }

    /// Pages of `sub` unchanged since `entry` (at `ekey`) was proven?
    fn gens_unchanged<M: GuestMemory + ?Sized>(
        ekey: BufferKey,
        gens: &[u64],
        sub: BufferKey,
        mem: &M,
    ) -> bool {
        if gens.is_empty() {
            return false;
        }
        let base_page = ekey.base >> PAGE_SHIFT;
        let first = sub.base >> PAGE_SHIFT;
        let last = (sub.end() - 1) >> PAGE_SHIFT;
        (first..=last).all(|p| {
            let Some(&g) = gens.get((p - base_page) as usize) else {
                return false;
            };
            mem.page_generation(p) == Some(g)
        })
    }

    /// Hash the guest bytes of `key` (counted).
    fn hash_guest<M: GuestMemory + ?Sized>(
        &mut self,
        key: BufferKey,
        mem: &M,
    ) -> Result<u64, CacheError> {
        self.telemetry.bytes_hashed += key.size;
        if let Some(v) = mem.view(key.base, key.size) {
            return Ok(xxh3_64(v));
        }
        self.scratch.resize(key.size as usize, 0);
        if !mem.read_bytes(key.base, &mut self.scratch) {
            return Err(CacheError::Unreadable {
                base: key.base,
                size: key.size,
            });
        }
        Ok(xxh3_64(&self.scratch))
    }

    fn revalidate<M: GuestMemory + ?Sized>(
        &mut self,
        key: BufferKey,
        mem: &M,
    ) -> Result<Outcome, CacheError> {
        let unchanged = match self.entries.get(&key) {
            Some(e) => Self::gens_unchanged(key, &e.gens, key, mem),
            None => false,
        };
        if unchanged {
            self.telemetry.hits += 1;
            return Ok(Outcome::Hit);
        }
        let guest = self.hash_guest(key, mem)?;
        let Some(e) = self.entries.get_mut(&key) else {
            return Ok(Outcome::Miss);
        };
        let cached = match e.hash {
            Some(h) => h,
            None => {
                self.telemetry.bytes_hashed += key.size;
                let h = xxh3_64(&e.bytes);
                e.hash = Some(h);
                h
            }
        };
        if cached == guest {
            e.gens = snapshot(key, mem);
            self.telemetry.hits += 1;
            return Ok(Outcome::Hit);
        }
        // Changed: copy the new bytes into the entry.
        if !mem.read_bytes(key.base, &mut e.bytes) {
            return Err(CacheError::Unreadable {
                base: key.base,
                size: key.size,
            });
        }
        e.hash = Some(guest);
        e.gens = snapshot(key, mem);
        self.telemetry.misses += 1;
        self.telemetry.bytes_copied += key.size;
        Ok(Outcome::Miss)
    }

    fn prove_contained<M: GuestMemory + ?Sized>(
        &mut self,
        c: BufferKey,
        key: BufferKey,
        mem: &M,
    ) -> Result<bool, CacheError> {
        let Some(e) = self.entries.get(&c) else {
            return Ok(false);
        };
        if Self::gens_unchanged(c, &e.gens, key, mem) {
            return Ok(true);
        }
        let guest = self.hash_guest(key, mem)?;
        let Some(e) = self.entries.get_mut(&c) else {
            return Ok(false);
        };
        let o = (key.base - c.base) as usize;
        let Some(sub) = e.bytes.get(o..o + key.size as usize) else {
            return Ok(false);
        };
        self.telemetry.bytes_hashed += key.size;
        if xxh3_64(sub) != guest {
            return Ok(false);
        }
        // Refresh the generations of the pages whose cached bytes all lie
        // inside the proven key.
        if !e.gens.is_empty() {
            let base_page = c.base >> PAGE_SHIFT;
            let first = key.base >> PAGE_SHIFT;
            let last = (key.end() - 1) >> PAGE_SHIFT;
            for p in first..=last {
                let held_lo = (p << PAGE_SHIFT).max(c.base);
                let held_hi = ((p << PAGE_SHIFT) + PAGE_SIZE).min(c.end());
                if held_lo >= key.base && held_hi <= key.end() {
                    if let (Some(slot), Some(g)) = (
                        e.gens.get_mut((p - base_page) as usize),
                        mem.page_generation(p),
                    ) {
                        *slot = g;
                    }
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::SparseMemory;

    fn key(base: u64, size: u64) -> BufferKey {
        BufferKey { base, size }
    }

    #[test]
    fn miss_copies_then_unchanged_pages_prove_a_hit_without_hashing() {
        let mut m = SparseMemory::with_generations();
        m.write_bytes(0x1000, &[7; 0x100]);
        let mut c = BufferCache::default();
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Miss));
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Hit));
        let t = c.telemetry();
        assert_eq!(
            (
                t.hits,
                t.misses,
                t.bytes_copied,
                t.bytes_hashed,
                t.distinct_keys
            ),
            (1, 1, 0x100, 0, 1)
        );
        assert_eq!(c.host_bytes(key(0x1000, 0x100)), Some(&[7u8; 0x100][..]));
    }

    #[test]
    fn without_generations_a_hit_is_proven_by_hashing() {
        let mut m = SparseMemory::new();
        m.write_bytes(0x1000, &[7; 0x100]);
        let mut c = BufferCache::default();
        c.get(key(0x1000, 0x100), &m).unwrap();
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Hit));
        // First proof hashes the guest bytes and the cached copy.
        assert_eq!(c.telemetry().bytes_hashed, 0x200);
        c.get(key(0x1000, 0x100), &m).unwrap();
        assert_eq!(c.telemetry().bytes_hashed, 0x300, "the copy's hash is kept");
    }

    #[test]
    fn a_rewrite_with_the_same_bytes_is_a_hit_and_different_bytes_a_miss() {
        let mut m = SparseMemory::with_generations();
        m.write_bytes(0x1000, &[7; 0x100]);
        let mut c = BufferCache::default();
        c.get(key(0x1000, 0x100), &m).unwrap();
        m.write_bytes(0x1010, &[7; 4]);
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Hit));
        // The hashed hit refreshed the generations: no hashing now.
        let hashed = c.telemetry().bytes_hashed;
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Hit));
        assert_eq!(c.telemetry().bytes_hashed, hashed);
        m.write_bytes(0x1010, &[8; 4]);
        assert_eq!(c.get(key(0x1000, 0x100), &m), Ok(Outcome::Miss));
        assert_eq!(c.host_bytes(key(0x1000, 0x100)).unwrap()[0x10], 8);
        assert_eq!(c.telemetry().bytes_copied, 0x200);
    }

    #[test]
    fn a_key_inside_a_cached_range_is_a_contained_hit_until_its_bytes_change() {
        let mut m = SparseMemory::with_generations();
        m.write_bytes(0x1000, &[1; 0x3000]);
        let mut c = BufferCache::default();
        c.get(key(0x1000, 0x3000), &m).unwrap();
        assert_eq!(c.get(key(0x2100, 0x10), &m), Ok(Outcome::ContainedHit));
        assert_eq!(c.host_bytes(key(0x2100, 0x10)), Some(&[1u8; 0x10][..]));
        // A write elsewhere in the container does not matter...
        m.write_bytes(0x1000, &[2; 4]);
        assert_eq!(c.get(key(0x2100, 0x10), &m), Ok(Outcome::ContainedHit));
        // ...one inside the key does.
        m.write_bytes(0x2104, &[2; 4]);
        assert_eq!(c.get(key(0x2100, 0x10), &m), Ok(Outcome::Miss));
        let t = c.telemetry();
        assert_eq!(
            (t.hits, t.contained_hits, t.misses, t.distinct_keys),
            (2, 2, 2, 2)
        );
    }

    #[test]
    fn least_recently_used_entries_are_evicted_past_the_capacity() {
        let mut m = SparseMemory::new();
        m.map(0, 0x10000);
        let mut c = BufferCache::new(0x300);
        for b in [0x0, 0x1000, 0x2000] {
            c.get(key(b, 0x100), &m).unwrap();
        }
        c.get(key(0x0, 0x100), &m).unwrap(); // 0x1000 is now the oldest
        c.get(key(0x3000, 0x100), &m).unwrap();
        assert_eq!(c.held_bytes(), 0x300);
        assert!(c.host_bytes(key(0x1000, 0x100)).is_none());
        assert!(c.host_bytes(key(0x0, 0x100)).is_some());
        assert_eq!(c.telemetry().evictions, 1);
        assert!(matches!(
            c.get(key(0, 0x301), &m),
            Err(CacheError::TooLarge { .. })
        ));
    }

    #[test]
    fn unreadable_ranges_and_empty_keys() {
        let m = SparseMemory::new();
        let mut c = BufferCache::default();
        assert_eq!(
            c.get(key(0x5000, 8), &m),
            Err(CacheError::Unreadable {
                base: 0x5000,
                size: 8
            })
        );
        assert_eq!(c.get(key(0x5000, 0), &m), Ok(Outcome::Hit));
        assert_eq!(c.telemetry().distinct_keys, 2);
    }
}
