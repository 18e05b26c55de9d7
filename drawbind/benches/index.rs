//! Index-buffer scans: `scan_copy` of a 4 MiB 16-bit index buffer against a
//! plain `copy_from_slice` of the same bytes (the baseline, measured in the
//! same run), the scan alone, and `IndexRangeCache` hits.
//!
//! After divan's report, `main` times scan+copy and the plain copy again,
//! interleaved, and prints throughputs and their ratio from the same run.

use divan::{black_box, Bencher};
use drawbind::index::{scan, scan_copy, IndexRangeCache};
use drawbind::{GuestMemory, IndexBuffer, IndexFormat, SparseMemory};
use std::time::Instant;

/// 4 MiB of 16-bit indices: 2 Mi indices, quads over 0..60000 with a
/// restart value now and then.
fn indices() -> Vec<u8> {
    (0..(2u32 << 20))
        .flat_map(|i| {
            let v = if i % 997 == 0 {
                0xffff
            } else {
                (i / 6 * 4 + [0, 1, 2, 0, 2, 3][(i % 6) as usize]) % 60_000
            };
            (v as u16).to_le_bytes()
        })
        .collect()
}

#[divan::bench]
fn copy_from_slice_4mib(b: Bencher) {
    let src = indices();
    let mut dst = vec![0u8; src.len()];
    b.counter(divan::counter::BytesCount::new(src.len()))
        .bench_local(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&dst);
        });
}

#[divan::bench(args = [None, Some(0xffff)])]
fn scan_copy_u16_4mib(b: Bencher, restart: Option<u32>) {
    let src = indices();
    let mut dst = vec![0u8; src.len()];
    b.counter(divan::counter::BytesCount::new(src.len()))
        .bench_local(|| {
            black_box(scan_copy(
                black_box(&src),
                &mut dst,
                IndexFormat::U16,
                restart,
            ))
        });
}

#[divan::bench]
fn scan_only_u16_4mib(b: Bencher) {
    let src = indices();
    b.counter(divan::counter::BytesCount::new(src.len()))
        .bench_local(|| black_box(scan(black_box(&src), IndexFormat::U16, Some(0xffff))));
}

/// Guest memory that tracks writes per mapped region, as an emulator's
/// buffer tracking does: one generation answers for any range inside it.
struct RegionMemory {
    inner: SparseMemory,
    generation: u64,
}

impl GuestMemory for RegionMemory {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        self.inner.read_u32(addr)
    }
    fn view(&self, addr: u64, len: u64) -> Option<&[u8]> {
        self.inner.view(addr, len)
    }
    fn range_generation(&self, _addr: u64, _len: u64) -> Option<u64> {
        Some(self.generation)
    }
}

const IB: IndexBuffer = IndexBuffer {
    addr: 0x8000_0010_0000,
    format: IndexFormat::U16,
    count: 2 << 20,
    first_index: 0,
};

fn guest() -> SparseMemory {
    let mut m = SparseMemory::with_generations();
    m.write_bytes(IB.addr, &indices());
    m
}

/// A hit proven by a region generation: the cost per indexed draw once the
/// index buffer was scanned.
#[divan::bench]
fn cached_hit_region_generation(b: Bencher) {
    let mem = RegionMemory {
        inner: guest(),
        generation: 7,
    };
    let mut cache = IndexRangeCache::default();
    cache.range(&mem, &IB, Some(0xffff)).unwrap();
    b.bench_local(|| black_box(cache.range(&mem, black_box(&IB), Some(0xffff))));
}

/// A hit proven by the default `range_generation`, which sums the page
/// generations of the 1024 pages the buffer covers.
#[divan::bench]
fn cached_hit_page_generations_4mib(b: Bencher) {
    let mem = guest();
    let mut cache = IndexRangeCache::default();
    cache.range(&mem, &IB, Some(0xffff)).unwrap();
    b.bench_local(|| black_box(cache.range(&mem, black_box(&IB), Some(0xffff))));
}

/// Median GB/s of interleaved samples of two operations on 4 MiB.
fn interleaved(mut a: impl FnMut(), mut b: impl FnMut(), bytes: usize) -> (f64, f64) {
    const SAMPLES: usize = 101;
    let mut ta = Vec::with_capacity(SAMPLES);
    let mut tb = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t = Instant::now();
        a();
        ta.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        b();
        tb.push(t.elapsed().as_secs_f64());
    }
    ta.sort_by(f64::total_cmp);
    tb.sort_by(f64::total_cmp);
    let gbs = |s: f64| bytes as f64 / s / 1e9;
    (gbs(ta[SAMPLES / 2]), gbs(tb[SAMPLES / 2]))
}

fn main() {
    divan::main();
    let src = indices();
    let mut d1 = vec![0u8; src.len()];
    let mut d2 = vec![0u8; src.len()];
    for restart in [None, Some(0xffff)] {
        let (scan_gbs, copy_gbs) = interleaved(
            || {
                black_box(scan_copy(
                    black_box(&src),
                    &mut d1,
                    IndexFormat::U16,
                    restart,
                ))
                .ok();
            },
            || {
                d2.copy_from_slice(black_box(&src));
                black_box(&d2);
            },
            src.len(),
        );
        println!(
            "4 MiB u16, restart {restart:?}, median of 101 interleaved samples: scan+copy \
             {scan_gbs:.1} GB/s, copy_from_slice {copy_gbs:.1} GB/s, ratio {:.2}",
            scan_gbs / copy_gbs
        );
    }
}
