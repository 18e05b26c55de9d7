//! Draw streams replayed through the reference cache, once with the
//! baseline rules and once with the narrowed rules, in one process.
//!
//! # The mesa-ring scenario ([`mesa_ring`])
//!
//! Models the stream that motivated D879: a driver (Mesa's upload
//! allocator) streams every draw's vertices into a 4 MiB upload ring.
//!
//! - Each frame has [`RING_FRAME_DRAWS`] draws of the `cube` shader with
//!   36, 72, 24, 36 and 108 vertices in turn (32-byte records, first vertex 0,
//!   one instance, base vertex 0).
//! - Each draw writes its vertices at the next ring offset (256-byte
//!   aligned), then its 16-byte vertex-buffer table. The table's descriptor
//!   starts at the draw's vertices and its records reach the end of the
//!   ring (`num_records = (ring end − base) / 32`), OOB_SELECT 1, as RADV
//!   sizes a binding by what is left of its buffer.
//! - A frame's uploads are reserved when it starts: a frame that does not fit
//!   in what is left of the ring starts again at offset 0. The frames repeat
//!   (frame `f` writes the same bytes as frame 0), so the ring's content
//!   repeats every ring cycle.
//! - User data is `[table pointer, base vertex 0, set-0 pointer]`; set 0
//!   holds the shader's uniform buffer (written once, outside the ring).
//! - The first wrap ends the first ring cycle; `steady_*` counts the draws
//!   after it.
//!
//! # The mesa-ring-indexed scenario ([`mesa_ring_indexed`])
//!
//! The same ring, with indexed draws as Mesa streams them: each draw
//! writes its unique vertices (two thirds of its index count: quads of four
//! vertices drawn as two triangles), then its 16-bit index buffer (restart
//! off), then its table, each 256-byte aligned. The descriptor's records
//! still reach the end of the ring. The index buffer is fetched through
//! the cache on every run (the emulator uploads it whatever the rules);
//! only the third run ([`Rules::NarrowedScan`]) scans it, through an
//! [`IndexRangeCache`], so vertex-id bindings narrow to the largest index.
//!
//! # Stream files (JSON lines)
//!
//! One JSON object per line, `kind` first; blank lines and lines starting
//! with `#` are skipped. Addresses and words are numbers or `"0x…"` strings.
//!
//! | kind | fields | meaning |
//! |---|---|---|
//! | `map` | `addr`, `bytes` | map zeroed guest memory |
//! | `write` | `addr`, `words` | the CPU writes dwords (bumps page write generations; maps as needed) |
//! | `draw` | `user_data`, `draw` | bind one draw; `draw` is a DRAWS.json draw object |
//! | `steady` | – | the steady-state counters start after this line |
//!
//! Without a `steady` line the steady counters equal the totals.
//!
//! Memory tracks page write generations, so the cache proves hits by
//! generations when a range's pages were not written since it was proven,
//! and by hashing otherwise. `seconds` is the time spent in `bind` and in the
//! cache, not in the simulated CPU writes.

use crate::cache::{BufferCache, CacheError, Telemetry, DEFAULT_CAPACITY};
use crate::draws::{Addr, DrawSpec, Word32};
use crate::index::{IndexError, IndexFormat, IndexRangeCache};
use crate::memory::SparseMemory;
use crate::plan::{BindError, BindPlan, BindRange, BufferKey, Draw};
use crate::vsharp::{encode_linear, OobSelect};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// One step of a draw stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Map zeroed memory.
    Map {
        /// Address.
        addr: Addr,
        /// Bytes.
        bytes: u64,
    },
    /// A CPU write.
    Write {
        /// Address.
        addr: Addr,
        /// Dwords.
        words: Vec<Word32>,
    },
    /// A draw.
    Draw {
        /// User-data words.
        user_data: Vec<Word32>,
        /// The draw.
        draw: DrawSpec,
    },
    /// Steady-state counting starts here.
    Steady,
}

/// Which rules bind the draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// [`BindPlan::bind_baseline`].
    Baseline,
    /// [`BindPlan::bind`], index buffers not scanned (indexed draws keep the
    /// baseline for vertex-id bindings).
    Narrowed,
    /// [`BindPlan::bind`] with each indexed draw's index range from an
    /// [`IndexRangeCache`].
    NarrowedScan,
}

/// One run's figures; the keys `shaderlift replay --json` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ReplayStats {
    /// Cache hits.
    pub hits: u64,
    /// Cache misses.
    pub misses: u64,
    /// Hits after the steady mark.
    pub steady_hits: u64,
    /// Misses after the steady mark.
    pub steady_misses: u64,
    /// Bytes copied.
    pub bytes_copied: u64,
    /// Bytes hashed.
    pub bytes_hashed: u64,
    /// Distinct keys.
    pub distinct_keys: u64,
    /// Index-range lookups answered from the index cache (generation or
    /// hash proof).
    pub index_hits: u64,
    /// Index buffers scanned.
    pub index_misses: u64,
    /// Index bytes scanned or hashed by the index cache.
    pub index_bytes: u64,
    /// Seconds in bind + cache.
    pub seconds: f64,
}

impl ReplayStats {
    /// Guest bytes the run moved: copied and hashed by the buffer cache, and
    /// scanned or hashed by the index cache.
    pub fn bytes_moved(&self) -> u64 {
        self.bytes_copied + self.bytes_hashed + self.index_bytes
    }
}

/// The three runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Comparison {
    /// Baseline rules.
    pub baseline: ReplayStats,
    /// Narrowed rules, index buffers not scanned.
    pub narrowed: ReplayStats,
    /// Narrowed rules with index buffers scanned (equal to `narrowed` on
    /// streams without indexed draws, but for the time).
    pub narrowed_scan: ReplayStats,
}

/// A replay failure, naming the event.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// bind failed.
    #[error("event {event} (draw {draw}): {source}")]
    Bind {
        /// Event index.
        event: usize,
        /// Draw index.
        draw: u64,
        /// The error.
        source: BindError,
    },
    /// An index buffer could not be scanned.
    #[error("event {event} (draw {draw}): {source}")]
    Index {
        /// Event index.
        event: usize,
        /// Draw index.
        draw: u64,
        /// The error.
        source: IndexError,
    },
    /// The cache failed.
    #[error("event {event} (draw {draw}): {source}")]
    Cache {
        /// Event index.
        event: usize,
        /// Draw index.
        draw: u64,
        /// The error.
        source: CacheError,
    },
    /// A `map` or `write` guest memory refuses (past the end of the address
    /// space, or past [`crate::MAX_MAPPED_BYTES`]).
    #[error("event {event}: {source}")]
    Memory {
        /// Event index.
        event: usize,
        /// The error.
        source: crate::MemoryError,
    },
    /// A stream line that cannot be parsed.
    #[error("stream line {line}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Reading or writing the stream.
    #[error("stream: {0}")]
    Io(#[from] std::io::Error),
}

/// Replays events with one set of rules.
#[derive(Debug)]
pub struct Replayer<'p> {
    plan: &'p BindPlan,
    rules: Rules,
    memory: SparseMemory,
    cache: BufferCache,
    indices: IndexRangeCache,
    out: Vec<BindRange>,
    user_data: Vec<u32>,
    steady_from: Option<Telemetry>,
    time: Duration,
    events: usize,
    draws: u64,
}

impl<'p> Replayer<'p> {
    /// A replayer with empty memory (tracking write generations) and a
    /// cache of [`DEFAULT_CAPACITY`].
    pub fn new(plan: &'p BindPlan, rules: Rules) -> Replayer<'p> {
        Replayer {
            plan,
            rules,
            memory: SparseMemory::with_generations(),
            cache: BufferCache::new(DEFAULT_CAPACITY),
            indices: IndexRangeCache::default(),
            out: vec![BindRange::EMPTY; plan.len()],
            user_data: Vec::new(),
            steady_from: None,
            time: Duration::ZERO,
            events: 0,
            draws: 0,
        }
    }

    /// Apply one event.
    pub fn apply(&mut self, ev: &Event) -> Result<(), ReplayError> {
        let event = self.events;
        self.events += 1;
        match ev {
            Event::Map { addr, bytes } => self
                .memory
                .try_map(addr.0, *bytes)
                .map_err(|source| ReplayError::Memory { event, source })?,
            Event::Write { addr, words } => {
                let w: Vec<u32> = words.iter().map(|w| w.0).collect();
                self.memory
                    .try_write_words(addr.0, &w)
                    .map_err(|source| ReplayError::Memory { event, source })?;
            }
            Event::Steady => {
                if self.steady_from.is_none() {
                    self.steady_from = Some(self.cache.telemetry());
                }
            }
            Event::Draw { user_data, draw } => {
                let draw_no = self.draws;
                self.draws += 1;
                self.user_data.clear();
                self.user_data.extend(user_data.iter().map(|w| w.0));
                let t0 = Instant::now();
                let mut d = draw.as_draw();
                if let Some((ib, restart)) = draw.index_buffer() {
                    let index_error = |source| ReplayError::Index {
                        event,
                        draw: draw_no,
                        source,
                    };
                    // The index buffer upload, the same under every rule.
                    let (start, len) = ib.checked_range().map_err(index_error)?;
                    let key = BufferKey {
                        base: start,
                        size: len,
                    };
                    self.cache
                        .get(key, &self.memory)
                        .map_err(|source| ReplayError::Cache {
                            event,
                            draw: draw_no,
                            source,
                        })?;
                    if let (Rules::NarrowedScan, Draw::Indexed { indices, .. }) =
                        (self.rules, &mut d)
                    {
                        *indices = self
                            .indices
                            .range(&self.memory, &ib, restart)
                            .map_err(index_error)?;
                    }
                }
                let n = match self.rules {
                    Rules::Baseline => {
                        self.plan
                            .bind_baseline(&self.user_data, &self.memory, &mut self.out)
                    }
                    Rules::Narrowed | Rules::NarrowedScan => {
                        self.plan
                            .bind(&d, &self.user_data, &self.memory, &mut self.out)
                    }
                }
                .map_err(|source| ReplayError::Bind {
                    event,
                    draw: draw_no,
                    source,
                })?;
                for r in &self.out[..n] {
                    self.cache
                        .get(r.key(), &self.memory)
                        .map_err(|source| ReplayError::Cache {
                            event,
                            draw: draw_no,
                            source,
                        })?;
                }
                self.time += t0.elapsed();
            }
        }
        Ok(())
    }

    /// The figures so far.
    pub fn stats(&self) -> ReplayStats {
        let t = self.cache.telemetry();
        let s = self.steady_from.unwrap_or_default();
        let ix = self.indices.telemetry();
        ReplayStats {
            index_hits: ix.hits + ix.hash_hits,
            index_misses: ix.misses,
            index_bytes: ix.bytes_scanned + ix.bytes_hashed,
            hits: t.hits,
            misses: t.misses,
            steady_hits: t.hits - s.hits,
            steady_misses: t.misses - s.misses,
            bytes_copied: t.bytes_copied,
            bytes_hashed: t.bytes_hashed,
            distinct_keys: t.distinct_keys,
            seconds: self.time.as_secs_f64(),
        }
    }

    /// The cache (for its full telemetry).
    pub fn cache(&self) -> &BufferCache {
        &self.cache
    }
}

/// Replay `events` with the three rule sets, baseline first.
pub fn compare(plan: &BindPlan, events: &[Event]) -> Result<Comparison, ReplayError> {
    compare_with(plan, || events.iter().cloned())
}

/// Replay the stream `make` yields, once per rule set (baseline first);
/// `make` must yield the same events each time.
pub fn compare_with<I: Iterator<Item = Event>>(
    plan: &BindPlan,
    make: impl Fn() -> I,
) -> Result<Comparison, ReplayError> {
    let run = |rules| -> Result<ReplayStats, ReplayError> {
        let mut r = Replayer::new(plan, rules);
        for e in make() {
            r.apply(&e)?;
        }
        Ok(r.stats())
    };
    let baseline = run(Rules::Baseline)?;
    let narrowed = run(Rules::Narrowed)?;
    let narrowed_scan = run(Rules::NarrowedScan)?;
    Ok(Comparison {
        baseline,
        narrowed,
        narrowed_scan,
    })
}

/// Read a JSON-lines stream.
pub fn read_stream(input: impl BufRead) -> Result<Vec<Event>, ReplayError> {
    let mut out = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ev = serde_json::from_str(t).map_err(|e| ReplayError::Parse {
            line: i + 1,
            message: e.to_string(),
        })?;
        out.push(ev);
    }
    Ok(out)
}

/// Write a JSON-lines stream.
pub fn write_stream(events: &[Event], mut out: impl Write) -> Result<(), ReplayError> {
    for e in events {
        serde_json::to_writer(&mut out, e).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Size of the mesa-ring upload ring: 4 MiB.
pub const RING_BYTES: u64 = 4 << 20;
/// Guest address of the ring (in RADV's 32-bit address window, so the
/// table pointer is its low half with high half `0xffff8000`).
pub const RING_ADDR: u64 = 0x8000_0010_0000;
/// Draws per frame in the mesa-ring scenario.
pub const RING_FRAME_DRAWS: usize = 850;
/// Vertex counts of consecutive draws.
pub const RING_VERTEX_COUNTS: [u32; 5] = [36, 72, 24, 36, 108];
/// Bytes per vertex record (the `cube` binding's stride).
pub const RING_STRIDE: u32 = 32;

/// The shape of a ring scenario; [`RingConfig::MESA`] is `mesa-ring`,
/// [`RingConfig::MESA_INDEXED`] `mesa-ring-indexed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingConfig {
    /// Ring size in bytes.
    pub ring_bytes: u64,
    /// Ring guest address (its low 32 bits are the table pointers).
    pub ring_addr: u64,
    /// Draws per frame.
    pub frame_draws: usize,
    /// Indexed draws: each draw also streams a 16-bit index buffer.
    pub indexed: bool,
}

impl RingConfig {
    /// The mesa-ring scenario: a 4 MiB ring, 850 draws per frame.
    pub const MESA: RingConfig = RingConfig {
        ring_bytes: RING_BYTES,
        ring_addr: RING_ADDR,
        frame_draws: RING_FRAME_DRAWS,
        indexed: false,
    };

    /// The mesa-ring-indexed scenario: the same ring and frames, indexed.
    pub const MESA_INDEXED: RingConfig = RingConfig {
        indexed: true,
        ..RingConfig::MESA
    };

    /// Vertices draw `j` of a frame writes, and its index count (0 for
    /// auto draws).
    fn draw_shape(&self, j: usize) -> (u32, u32) {
        let n = RING_VERTEX_COUNTS[j % RING_VERTEX_COUNTS.len()];
        if self.indexed {
            (n / 6 * 4, n)
        } else {
            (n, 0)
        }
    }

    /// Guest address of descriptor set 0 (64 KiB below the ring).
    pub fn set0_addr(&self) -> u64 {
        self.ring_addr - 0x1_0000
    }

    /// Ring bytes one draw `j` of a frame takes: vertices, indices and
    /// table, each 256-byte aligned.
    fn draw_bytes(&self, j: usize) -> u64 {
        let (vc, ic) = self.draw_shape(j);
        align(vc as u64 * RING_STRIDE as u64, 256) + align(ic as u64 * 2, 256) + 256
    }

    /// Ring bytes one frame takes.
    pub fn frame_bytes(&self) -> u64 {
        (0..self.frame_draws).map(|j| self.draw_bytes(j)).sum()
    }

    /// The stream with `draws` draws for the `cube` shader (user data
    /// `[table pointer, base vertex, set-0 pointer]`).
    pub fn events(&self, draws: usize) -> Vec<Event> {
        self.stream(draws).collect()
    }

    /// The same stream, generated lazily.
    pub fn stream(&self, draws: usize) -> RingStream {
        RingStream {
            cfg: *self,
            frame_bytes: self.frame_bytes(),
            draws,
            n: 0,
            offset: 0,
            wrapped: false,
            pending: std::collections::VecDeque::new(),
            started: false,
        }
    }
}

/// The lazily generated events of a ring scenario.
#[derive(Clone, Debug)]
pub struct RingStream {
    cfg: RingConfig,
    frame_bytes: u64,
    draws: usize,
    n: usize,
    offset: u64,
    wrapped: bool,
    pending: std::collections::VecDeque<Event>,
    started: bool,
}

impl RingStream {
    /// Queue the events of draw `self.n`.
    fn draw_events(&mut self) {
        let cfg = self.cfg;
        let j = self.n % cfg.frame_draws.max(1);
        if j == 0 && self.offset + self.frame_bytes > cfg.ring_bytes {
            self.offset = 0;
            if !self.wrapped {
                self.wrapped = true;
                self.pending.push_back(Event::Steady);
            }
        }
        let (vc, ic) = cfg.draw_shape(j);
        let data = cfg.ring_addr + self.offset;
        // Deterministic vertex bytes, the same in every frame.
        let words: Vec<Word32> = (0..vc * RING_STRIDE / 4)
            .map(|k| Word32((j as u32 + 1).wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b)))
            .collect();
        self.pending.push_back(Event::Write {
            addr: Addr(data),
            words,
        });
        let indices = data + align(vc as u64 * RING_STRIDE as u64, 256);
        if ic > 0 {
            // Quads of four vertices as two triangles, two indices a dword.
            let idx: Vec<u32> = (0..ic)
                .map(|i| {
                    let (q, k) = (i / 6, i % 6);
                    4 * q + [0, 1, 2, 0, 2, 3][k as usize]
                })
                .collect();
            let words = idx
                .chunks(2)
                .map(|p| Word32(p[0] | p.get(1).copied().unwrap_or(0) << 16))
                .collect();
            self.pending.push_back(Event::Write {
                addr: Addr(indices),
                words,
            });
        }
        let table = indices + align(ic as u64 * 2, 256);
        let records = ((cfg.ring_addr + cfg.ring_bytes - data) / RING_STRIDE as u64) as u32;
        let v = encode_linear(data, RING_STRIDE, records, OobSelect::Structured);
        self.pending.push_back(Event::Write {
            addr: Addr(table),
            words: v.map(Word32).to_vec(),
        });
        self.pending.push_back(Event::Draw {
            user_data: vec![
                Word32(table as u32),
                Word32(0),
                Word32(cfg.set0_addr() as u32),
            ],
            draw: if ic > 0 {
                DrawSpec::Indexed {
                    index_count: ic,
                    instance_count: 1,
                    first_index: 0,
                    index_addr: Some(Addr(indices)),
                    index_format: Some(IndexFormat::U16),
                    base_vertex: 0,
                    restart: None,
                }
            } else {
                DrawSpec::Auto {
                    first_vertex: 0,
                    vertex_count: vc,
                    instance_count: 1,
                    chunks: Vec::new(),
                }
            },
        });
        self.offset += cfg.draw_bytes(j);
        self.n += 1;
    }
}

impl Iterator for RingStream {
    type Item = Event;
    fn next(&mut self) -> Option<Event> {
        if !self.started {
            self.started = true;
            // Descriptor set 0 (user-data word 2): a 256-byte uniform buffer
            // (stride 0, OOB_SELECT 3, as RADV fills UBO descriptors),
            // written once, below the ring.
            let set0 = self.cfg.set0_addr();
            let ubo = encode_linear(set0 + 0x100, 0, 256, OobSelect::Raw);
            self.pending.push_back(Event::Write {
                addr: Addr(set0),
                words: ubo.map(Word32).to_vec(),
            });
            // The uniform buffer itself: an identity MVP, then zeros.
            let mvp = (0..64u32).map(|k| {
                let identity = k < 16 && k % 5 == 0;
                Word32(if identity { 0x3f80_0000 } else { 0 })
            });
            self.pending.push_back(Event::Write {
                addr: Addr(set0 + 0x100),
                words: mvp.collect(),
            });
            return Some(Event::Map {
                addr: Addr(self.cfg.ring_addr),
                bytes: self.cfg.ring_bytes,
            });
        }
        if self.pending.is_empty() && self.n < self.draws {
            self.draw_events();
        }
        self.pending.pop_front()
    }
}

fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// The mesa-ring stream ([`RingConfig::MESA`]) with `draws` draws.
pub fn mesa_ring(draws: usize) -> Vec<Event> {
    RingConfig::MESA.events(draws)
}

/// The mesa-ring-indexed stream ([`RingConfig::MESA_INDEXED`]) with `draws`
/// draws.
pub fn mesa_ring_indexed(draws: usize) -> Vec<Event> {
    RingConfig::MESA_INDEXED.events(draws)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::cube_trace;
    use isa::Stage;

    /// A small ring for debug-build tests: 256 KiB, 40 draws per frame
    /// (3 frames per ring).
    const SMALL: RingConfig = RingConfig {
        ring_bytes: 256 << 10,
        ring_addr: RING_ADDR,
        frame_draws: 40,
        indexed: false,
    };

    #[test]
    fn ring_frames_fit_and_the_first_wrap_marks_the_steady_state() {
        let frames = (RING_BYTES / RingConfig::MESA.frame_bytes()) as usize;
        assert_eq!(frames, 2, "two mesa-ring frames per 4 MiB ring");
        let ev = SMALL.events(5 * SMALL.frame_draws);
        let steady = ev.iter().position(|e| *e == Event::Steady).unwrap();
        let draws_before = ev[..steady]
            .iter()
            .filter(|e| matches!(e, Event::Draw { .. }))
            .count();
        assert_eq!(draws_before, 3 * SMALL.frame_draws);
    }

    #[test]
    fn narrowed_ring_replay_hits_after_the_first_cycle_and_moves_far_fewer_bytes() {
        let plan = BindPlan::new(&cube_trace(), Stage::Ngg).unwrap();
        let ev = SMALL.events(7 * SMALL.frame_draws);
        let c = compare(&plan, &ev).unwrap();
        let (b, n) = (c.baseline, c.narrowed);
        assert_eq!(n.steady_misses, 0, "{n:?}");
        assert_eq!(n.steady_hits, 4 * SMALL.frame_draws as u64);
        assert_eq!(n.misses, 3 * SMALL.frame_draws as u64);
        let moved = |s: ReplayStats| s.bytes_copied + s.bytes_hashed;
        assert!(moved(b) > 50 * moved(n), "{b:?} vs {n:?}");
        assert!(b.steady_hits + b.steady_misses == n.steady_hits + n.steady_misses);
    }

    #[test]
    fn indexed_ring_replay_narrows_only_when_the_index_buffers_are_scanned() {
        let plan = BindPlan::new(&cube_trace(), Stage::Ngg).unwrap();
        let cfg = RingConfig {
            indexed: true,
            ..SMALL
        };
        let ev = cfg.events(7 * cfg.frame_draws);
        let c = compare(&plan, &ev).unwrap();
        let (b, n, s) = (c.baseline, c.narrowed, c.narrowed_scan);
        // Without the scan, indexed draws keep the ring-long baseline.
        assert_eq!(n.bytes_moved(), b.bytes_moved(), "{n:?} vs {b:?}");
        assert_eq!(n.index_misses + n.index_hits, 0);
        // With it, the vertex ranges end at the draw's last vertex.
        assert!(b.bytes_moved() > 50 * s.bytes_moved(), "{b:?} vs {s:?}");
        assert_eq!(s.steady_misses, 0, "{s:?}");
        // Every index buffer scanned once per ring position, then proven
        // by hashing (the ring rewrites the same bytes).
        assert_eq!(s.index_misses, 3 * cfg.frame_draws as u64);
        assert_eq!(s.index_hits, 4 * cfg.frame_draws as u64);
    }

    #[test]
    fn a_stream_written_as_json_lines_replays_the_same() {
        let plan = BindPlan::new(&cube_trace(), Stage::Ngg).unwrap();
        let ev = SMALL.events(3 * SMALL.frame_draws + 20);
        let mut text = Vec::new();
        write_stream(&ev, &mut text).unwrap();
        let back = read_stream(&text[..]).unwrap();
        assert_eq!(back, ev);
        let a = compare(&plan, &ev).unwrap();
        let b = compare(&plan, &back).unwrap();
        let strip = |mut s: ReplayStats| {
            s.seconds = 0.0;
            s
        };
        assert_eq!(strip(a.narrowed), strip(b.narrowed));
        assert_eq!(strip(a.baseline), strip(b.baseline));
        assert_eq!(strip(a.narrowed_scan), strip(b.narrowed_scan));
    }

    #[test]
    fn stream_errors_name_the_line() {
        let text = "# comment\n{\"kind\": \"steady\"}\n{\"kind\": \"draw\"}\n";
        let e = read_stream(text.as_bytes()).unwrap_err().to_string();
        assert!(e.starts_with("stream line 3:"), "{e}");
    }
}
