//! A default scene for any traced vertex shader: user data, guest memory
//! and a standard set of draws, derived from the trace alone.
//!
//! `shaderlift corpus` (and `verify`/`bind` without a DRAWS.json) need
//! something to draw. The trace says where every descriptor word comes
//! from, so the scene can lay memory out the way the shader expects:
//!
//! - every traced pointer gets a table of its own (4 KiB apart from
//!   [`TABLES`] upward in its low 32 bits; a constant high half such as
//!   RADV's `0xffff8000` is honoured, so the table lands where the shader
//!   will read it), and user-data words or table words that form the pointer
//!   are written accordingly;
//! - every descriptor whose four words are four consecutive table dwords (or
//!   four consecutive user-data words) gets a buffer resource: structured
//!   (OOB_SELECT 1) with the stride its widest indexed access needs and
//!   ring-like `num_records` reaching the end of a 64 MiB window when the
//!   shader indexes it, raw (64 KiB) otherwise;
//! - the windows are procedural: every dword reads as a finite float derived
//!   from its address, so any record a draw can fetch is mapped;
//! - a user-data word added to an id gets a small non-zero value (7 for a
//!   vertex id, 2 for an instance id), so the `+ word` rules are exercised;
//!   other words are 0.
//!
//! The draws are [`standard_draws`]: an auto draw, a split draw, an
//! instanced draw and an indexed draw, whose 16-bit index buffer
//! ([`cube_index_words`]) the scene writes at [`INDEX_BUFFER`].
//!
//! [`synthesize_with`] lays the same scene out under another
//! [`SceneLayout`]: [`SceneLayout::COMPUTE`] (a compute dispatch's inputs)
//! keeps every table and window within a few MiB of RADV's `0xffff8000`
//! high half (the dispatch binds one window over all of it), gives the
//! windows small-integer dwords (every result exact, every count small)
//! and fills the tables reached through 64-bit user pointers (buffer
//! device addresses) with pointers into the windows.

use analysis::source::{Id, IndexSource, Ptr, Word};
use analysis::trace::ShaderTrace;
use drawbind::draws::{Addr, DrawSpec, DrawsFile, MemoryBlock, Word32};
use drawbind::{GuestMemory, IndexFormat};
use isa::Abi;
use std::collections::BTreeMap;

/// Low 32 bits of the first table the scene places.
pub const TABLES: u32 = 0x0010_0000;
/// First procedural data window.
pub const DATA: u64 = 0x1_0000_0000;
/// Size of each descriptor's data window: the ring a vertex buffer's
/// records reach the end of.
pub const WINDOW: u64 = 1 << 20;
/// How much of each window [`Scene::to_draws_file`] writes out: enough for
/// the records the standard draws fetch.
pub const MATERIALIZED: u64 = 64 << 10;

/// Where and how a scene is laid out ([`synthesize_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneLayout {
    /// First data window (48-bit).
    pub data: u64,
    /// Bytes per data window.
    pub window: u64,
    /// Bytes of each window [`Scene::to_draws_file`] writes out.
    pub materialized: u64,
    /// What the windows' dwords hold.
    pub values: Values,
    /// The high half given to a pointer whose high word the scene chooses
    /// (a user-data or table word).
    pub pointer_hi: u32,
    /// Fill the unassigned dwords of a table reached through a pointer
    /// whose high half the scene chose (a 64-bit user pointer, not RADV's
    /// constant-high descriptor sets) with pointers into the windows, this
    /// many bytes of the table.
    pub pointer_fill: u32,
    /// Write the standard draws and their index buffer.
    pub draws: bool,
    /// The user-data words the layout leaves free hold 2..=8 (word `k`
    /// holds `k % 7 + 2`) instead of 0.
    pub small_free_words: bool,
}

/// What a scene's data windows hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Finite floats in [-1.5, 1.5), every fourth near 1 (positions).
    Floats,
    /// Integers 1..=16 (counts, indices, and floats every consumer flushes
    /// alike).
    SmallIntegers,
    /// Integers 1..=16 in the windows only scalar loads read (uniform
    /// constants: counts, flags), floats 1.0..=16.0 in the others (data
    /// the shader computes with, exactly while sums and products stay
    /// small).
    Mixed,
}

impl SceneLayout {
    /// A vertex shader's scene ([`synthesize`]).
    pub const VERTEX: SceneLayout = SceneLayout {
        data: DATA,
        window: WINDOW,
        materialized: MATERIALIZED,
        values: Values::Floats,
        pointer_hi: 0,
        pointer_fill: 0,
        draws: true,
        small_free_words: false,
    };
    /// A compute dispatch's inputs: windows of 64 KiB from
    /// `0x8000_0100_0000`, next to RADV's tables, [`Values::Mixed`], 64-bit
    /// user pointers high half `0x8000`, their tables' first 256 bytes
    /// pointers into the windows, free user-data words small; no draws.
    pub const COMPUTE: SceneLayout = SceneLayout {
        data: 0x8000_0100_0000,
        window: 64 << 10,
        materialized: 64 << 10,
        values: Values::Mixed,
        pointer_hi: 0x8000,
        pointer_fill: 256,
        draws: false,
        small_free_words: true,
    };
}

/// User data, memory and draws for one shader.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The user-data words.
    pub user_data: Vec<u32>,
    /// Guest memory.
    pub memory: SceneMemory,
    /// The draws.
    pub draws: Vec<DrawSpec>,
}

/// Explicit dwords (tables) plus procedural data windows.
#[derive(Clone, Debug, Default)]
pub struct SceneMemory {
    words: BTreeMap<u64, u32>,
    windows: u64,
    layout: Option<SceneLayout>,
    /// Windows that only scalar loads read ([`Values::Mixed`]).
    scalar_windows: Vec<u64>,
}

impl SceneMemory {
    /// Write dwords at `addr` (48-bit).
    pub fn write(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.words.insert((addr + 4 * i as u64) & ADDR_MASK, *w);
        }
    }

    /// Write bytes at `addr` (48-bit), a dword at a time; a partial last
    /// dword is zero-padded.
    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) {
        let words: Vec<u32> = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(w)
            })
            .collect();
        self.write(addr, &words);
    }

    fn dword(&self, a: u64) -> Option<u32> {
        if let Some(w) = self.words.get(&a) {
            return Some(*w);
        }
        let l = self.layout.unwrap_or(SceneLayout::VERTEX);
        if a < l.data || a >= l.data + self.windows * l.window {
            return None;
        }
        let h = (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as u32;
        Some(match l.values {
            Values::Floats => {
                // A float in [-1.5, 1.5); every fourth dword near 1 (a w).
                let x = (h % 3000) as f32 / 1000.0 - 1.5;
                let x = if (a / 4) % 4 == 3 { 1.0 + x / 8.0 } else { x };
                x.to_bits()
            }
            Values::SmallIntegers => h % 16 + 1,
            Values::Mixed => {
                if self.scalar_windows.contains(&((a - l.data) / l.window)) {
                    h % 16 + 1
                } else {
                    ((h % 16 + 1) as f32).to_bits()
                }
            }
        })
    }
}

const ADDR_MASK: u64 = (1 << 48) - 1;

impl GuestMemory for SceneMemory {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        let addr = addr & ADDR_MASK;
        if addr.is_multiple_of(4) {
            return self.dword(addr);
        }
        let a = addr & !3;
        let s = (addr - a) * 8;
        let lo = self.dword(a)? as u64;
        let hi = self.dword(a + 4)? as u64;
        Some(((lo | hi << 32) >> s) as u32)
    }
}

impl Scene {
    /// The scene as a DRAWS.json document: the table words, and the first
    /// [`MATERIALIZED`] bytes (the layout's [`SceneLayout::materialized`])
    /// of every data window as explicit memory.
    pub fn to_draws_file(&self) -> DrawsFile {
        let l = self.memory.layout.unwrap_or(SceneLayout::VERTEX);
        let mut memory: Vec<MemoryBlock> = self
            .memory
            .words
            .iter()
            .map(|(a, w)| MemoryBlock {
                addr: Addr(*a),
                words: vec![Word32(*w)],
            })
            .collect();
        for i in 0..self.memory.windows {
            let base = l.data + i * l.window;
            let words = (0..l.materialized / 4)
                .map(|k| Word32(self.memory.dword(base + 4 * k).unwrap_or(0)))
                .collect();
            memory.push(MemoryBlock {
                addr: Addr(base),
                words,
            });
        }
        DrawsFile {
            code_addr: None,
            user_data: self.user_data.iter().map(|w| Word32(*w)).collect(),
            memory,
            draws: self.draws.clone(),
        }
    }
}

/// The standard draws: 36 vertices (12 triangles) auto, the same split into
/// two chunks, 3 instances, and an indexed draw of 36 indices.
pub fn standard_draws() -> Vec<DrawSpec> {
    vec![
        DrawSpec::Auto {
            first_vertex: 0,
            vertex_count: 36,
            instance_count: 1,
            chunks: Vec::new(),
        },
        DrawSpec::Auto {
            first_vertex: 0,
            vertex_count: 36,
            instance_count: 1,
            chunks: vec![(0, 18), (18, 18)],
        },
        DrawSpec::Auto {
            first_vertex: 0,
            vertex_count: 36,
            instance_count: 3,
            chunks: Vec::new(),
        },
        DrawSpec::Indexed {
            index_count: 36,
            instance_count: 1,
            first_index: 0,
            index_addr: Some(Addr(INDEX_BUFFER)),
            index_format: Some(IndexFormat::U16),
            base_vertex: 0,
            restart: None,
        },
    ]
}

/// Where a scene's index buffer lies (48-bit): below the tables and windows.
pub const INDEX_BUFFER: u64 = 0x0800_0000;

/// The standard indexed draw's 36 16-bit indices, two per dword: six quads
/// of four vertices each (`4f, 4f+1, 4f+2, 4f, 4f+2, 4f+3`), so the largest
/// index is 23 while the draw has 36 indices.
pub fn cube_index_words() -> [u32; 18] {
    let mut idx = [0u16; 36];
    for f in 0..6u16 {
        let q = 4 * f;
        idx[6 * f as usize..6 * f as usize + 6].copy_from_slice(&[
            q,
            q + 1,
            q + 2,
            q,
            q + 2,
            q + 3,
        ]);
    }
    core::array::from_fn(|i| idx[2 * i] as u32 | (idx[2 * i + 1] as u32) << 16)
}

/// Values of the words a scene assigns while it lays memory out.
struct Layout {
    user_data: Vec<Option<u32>>,
    /// Resolved 48-bit address of each pointer.
    ptr_addr: Vec<Option<u64>>,
    /// Dwords to write into tables: (pointer, byte offset, value).
    table_words: Vec<(usize, u32, u32)>,
    next_table: u32,
    /// The high half a chosen pointer gets.
    pointer_hi: u32,
    /// Pointers whose high half the scene chose.
    chosen_hi: Vec<usize>,
}

impl Layout {
    /// The value a word will have, if it is fixed already.
    fn value(&self, w: Word) -> Option<u32> {
        match w {
            Word::UserData { k } => self.user_data.get(k as usize).copied().flatten(),
            Word::Const { value } => Some(value),
            Word::TableWord { table, byte_offset } => self
                .table_words
                .iter()
                .find(|(p, o, _)| *p == table.0 as usize && *o == byte_offset)
                .map(|t| t.2),
            _ => None,
        }
    }

    /// Make word `w` hold `v`; false when it cannot (already fixed
    /// differently, or not a word the scene controls).
    fn assign(&mut self, w: Word, v: u32) -> bool {
        if let Some(old) = self.value(w) {
            return old == v;
        }
        match w {
            Word::UserData { k } => match self.user_data.get_mut(k as usize) {
                Some(slot) => {
                    *slot = Some(v);
                    true
                }
                None => false,
            },
            Word::TableWord { table, byte_offset } => {
                if self
                    .ptr_addr
                    .get(table.0 as usize)
                    .copied()
                    .flatten()
                    .is_none()
                {
                    return false;
                }
                self.table_words.push((table.0 as usize, byte_offset, v));
                true
            }
            _ => false,
        }
    }

    /// Place pointer `i` if its halves can be fixed.
    fn place(&mut self, i: usize, p: Ptr) -> bool {
        let lo = match self.value(p.lo) {
            Some(v) => v,
            None => {
                let v = self.next_table;
                if !self.assign(p.lo, v) {
                    return false;
                }
                self.next_table = self.next_table.wrapping_add(0x1000);
                v
            }
        };
        let hi = match self.value(p.hi) {
            Some(v) => v,
            None => {
                if !self.assign(p.hi, self.pointer_hi) {
                    return false;
                }
                self.chosen_hi.push(i);
                self.pointer_hi
            }
        };
        let mut addr = (((hi as u64) << 32) | lo as u64).wrapping_add(p.add);
        if let Some(ix) = p.index {
            // A per-draw table index: give its word a small value (slot 3)
            // unless it has one, and place the table where it then points.
            let w = match self.value(ix.word) {
                Some(v) => v,
                None => {
                    if !self.assign(ix.word, 3) {
                        return false;
                    }
                    3
                }
            };
            addr = addr.wrapping_add(ix.eval(w) as u64);
        }
        let addr = addr & ADDR_MASK;
        self.ptr_addr[i] = Some(addr);
        true
    }
}

/// A scene for `trace` under `abi` ([`SceneLayout::VERTEX`]).
pub fn synthesize(trace: &ShaderTrace, abi: &Abi) -> Scene {
    synthesize_with(trace, abi, &SceneLayout::VERTEX)
}

/// A scene for `trace` under `abi`, laid out as `layout` says.
pub fn synthesize_with(trace: &ShaderTrace, abi: &Abi, layout: &SceneLayout) -> Scene {
    let mut l = Layout {
        user_data: vec![None; abi.user_data_count as usize],
        ptr_addr: vec![None; trace.pointers.len()],
        table_words: Vec::new(),
        next_table: TABLES,
        pointer_hi: layout.pointer_hi,
        chosen_hi: Vec::new(),
    };
    // Pointers, until no more can be placed (tables inside tables).
    for _ in 0..=trace.pointers.len() {
        let mut progress = false;
        for (i, p) in trace.pointers.iter().enumerate() {
            if l.ptr_addr[i].is_none() && l.place(i, *p) {
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    // Words added to ids.
    for a in &trace.accesses {
        if let Some(IndexSource::IdPlus { id, word }) = a.index {
            let v = if id == Id::InstanceId { 2 } else { 7 };
            let _ = l.assign(word, v);
        }
    }
    // Descriptors.
    let mut windows = 0u64;
    let mut scalar_windows = Vec::new();
    for d in &trace.descriptors {
        let accesses: Vec<_> = trace
            .accesses
            .iter()
            .filter(|a| a.descriptor == Some(d.id))
            .collect();
        let indexed = accesses.iter().any(|a| a.idxen);
        let base = layout.data + windows * layout.window;
        let v = if indexed {
            let reach = accesses
                .iter()
                .map(|a| a.imm_offset.saturating_add(a.bytes))
                .max()
                .unwrap_or(4);
            let stride = reach.div_ceil(4).saturating_mul(4).clamp(4, 0x3ffc);
            let records = (layout.window / stride as u64) as u32;
            vsharp(base, stride, records, 1)
        } else {
            vsharp(base, 0, layout.window.min(64 << 10) as u32, 3)
        };
        let mut ok = true;
        for (w, value) in d.words.iter().zip(v) {
            ok &= l.assign(*w, value);
        }
        if ok {
            if accesses.iter().all(|a| a.opcode.starts_with("s_")) {
                scalar_windows.push(windows);
            }
            windows += 1;
        }
    }
    // Tables of chosen 64-bit pointers: pointers into the windows, 256
    // bytes apart, under what the scene assigned.
    let fill = layout.pointer_fill > 0 && !l.chosen_hi.is_empty();
    if fill {
        windows = windows.max(1);
    }
    let mut memory = SceneMemory {
        words: BTreeMap::new(),
        windows,
        layout: Some(*layout),
        scalar_windows,
    };
    if fill {
        let span = windows * layout.window;
        for (j, p) in l.chosen_hi.iter().enumerate() {
            let Some(Some(addr)) = l.ptr_addr.get(*p) else {
                continue;
            };
            for k in 0..u64::from(layout.pointer_fill / 8) {
                let target = layout.data + ((j as u64 * 16 + k) * 256) % span;
                memory.write(addr + 8 * k, &[target as u32, (target >> 32) as u32]);
            }
        }
    }
    for (p, off, v) in &l.table_words {
        if let Some(Some(addr)) = l.ptr_addr.get(*p) {
            memory.write(addr.wrapping_add(*off as u64), &[*v]);
        }
    }
    if layout.draws {
        memory.write(INDEX_BUFFER, &cube_index_words());
    }
    Scene {
        user_data: l
            .user_data
            .iter()
            .enumerate()
            .map(|(k, w)| match w {
                Some(v) => *v,
                None if layout.small_free_words => k as u32 % 7 + 2,
                None => 0,
            })
            .collect(),
        memory,
        draws: if layout.draws {
            standard_draws()
        } else {
            Vec::new()
        },
    }
}

/// A linear buffer resource (RADV's word 3: XYZW, format 32_32_32_32_FLOAT,
/// resource level 1) with the given OOB_SELECT.
fn vsharp(base: u64, stride: u32, records: u32, oob: u32) -> [u32; 4] {
    drawbind::vsharp::encode_linear(
        base,
        stride,
        records,
        match oob {
            0 => drawbind::vsharp::OobSelect::StructuredWithOffset,
            1 => drawbind::vsharp::OobSelect::Structured,
            2 => drawbind::vsharp::OobSelect::Disabled,
            _ => drawbind::vsharp::OobSelect::Raw,
        },
    )
}
