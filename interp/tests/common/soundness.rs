//! Random draws over the RADV corpus vertex shaders, for the soundness
//! tests: a guest memory that answers every vertex-data address, and a
//! generator of draws, user data and descriptors.
#![allow(dead_code)]

use super::scene::{vsharp, SET0, TABLE, UBO};
use drawbind::draws::DrawSpec;
use drawbind::GuestMemory;
use std::collections::HashMap;

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn float(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.below(1 << 20) as f32 / (1 << 20) as f32)
    }
}

/// Start of the vertex-data region: every dword from here to the end of the
/// 48-bit space reads as a finite float derived from its address.
pub const DATA: u64 = 0x1_0000_0000;

/// Memory: explicit dwords (tables, UBO) plus procedural vertex data.
#[derive(Default, Clone)]
pub struct ProcMem {
    pub words: HashMap<u64, u32>,
}

impl ProcMem {
    pub fn write(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.words.insert(addr + 4 * i as u64, *w);
        }
    }
    fn dword(&self, a: u64) -> Option<u32> {
        if let Some(w) = self.words.get(&a) {
            return Some(*w);
        }
        if a >= DATA {
            // A float in [-1.5, 1.5) with a few bits of the address; w-like
            // components (every 4th dword) near 1.
            let h = (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as u32;
            let x = (h % 3000) as f32 / 1000.0 - 1.5;
            let x = if (a / 4) % 4 == 3 { 1.0 + x / 8.0 } else { x };
            return Some(x.to_bits());
        }
        None
    }
}

impl GuestMemory for ProcMem {
    fn read_u32(&self, addr: u64) -> Option<u32> {
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

/// What a corpus shader reads: its bindings and user-data layout.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Strides of the vertex bindings (table slots 0, 1, ...).
    pub strides: &'static [u32],
    /// User-data word of the set-0 pointer.
    pub set0_word: usize,
    /// The shader has the start-instance word (ud2).
    pub start_instance: bool,
    /// Culling words follow the set-0 pointer.
    pub culling: bool,
}

impl Layout {
    pub fn of(name: &str) -> Layout {
        let inst = name.starts_with("instanced");
        let culling = name.contains("nggc");
        if inst {
            Layout {
                strides: &[12, 32],
                set0_word: 3,
                start_instance: true,
                culling,
            }
        } else {
            Layout {
                strides: &[32],
                set0_word: 2,
                start_instance: false,
                culling,
            }
        }
    }
}

/// One random case: memory, user data and a draw.
pub struct Case {
    pub mem: ProcMem,
    pub user_data: Vec<u32>,
    pub draw: DrawSpec,
    pub group_prims: u32,
}

/// A random draw of a shader with `layout`.
pub fn case(rng: &mut Rng, layout: Layout) -> Case {
    let mut mem = ProcMem::default();
    // MVP: random small entries; w row keeps w near 1.
    let mut mvp = [0f32; 16];
    for (i, m) in mvp.iter_mut().enumerate() {
        *m = if i % 5 == 0 {
            rng.float(0.5, 1.5)
        } else {
            rng.float(-0.5, 0.5)
        };
    }
    mvp[15] = rng.float(1.5, 3.0);
    mem.write(UBO, &mvp.map(f32::to_bits));
    mem.write(SET0, &vsharp(UBO, 0, 64, 3));
    // Draw.
    let big_ids = rng.chance(3);
    let vertex_count = match rng.below(10) {
        0 => 0,
        1..=6 => rng.range(1, 60) as u32,
        _ => rng.range(60, 200) as u32,
    };
    let first_vertex = if big_ids {
        u32::MAX - rng.below(300) as u32
    } else if rng.chance(50) {
        rng.below(16) as u32
    } else {
        rng.below(5000) as u32
    };
    let instance_count = if layout.start_instance {
        match rng.below(10) {
            0 => 0,
            1..=4 => 1,
            _ => rng.range(2, 4) as u32,
        }
    } else if rng.chance(10) {
        rng.range(0, 2) as u32
    } else {
        1
    };
    let chunks = if rng.chance(25) {
        let n = rng.range(1, 4);
        (0..n)
            .map(|_| {
                let f = if big_ids {
                    u32::MAX - rng.below(300) as u32
                } else {
                    rng.below(5000) as u32
                };
                let c = rng.below(90) as u32;
                (f, c.min(u32::MAX - f))
            })
            .collect()
    } else {
        Vec::new()
    };
    let vertex_count = vertex_count.min(u32::MAX - first_vertex);
    let draw = DrawSpec::Auto {
        first_vertex,
        vertex_count,
        instance_count,
        chunks: chunks.clone(),
    };
    // The highest vertex and instance ids of the draw.
    let last_vertex = if chunks.is_empty() {
        (vertex_count > 0).then(|| first_vertex as u64 + vertex_count as u64 - 1)
    } else {
        chunks
            .iter()
            .filter(|c| c.1 > 0)
            .map(|c| c.0 as u64 + c.1 as u64 - 1)
            .max()
    };
    // User data: table, base vertex, [start instance], set 0, [culling].
    let base_vertex = match rng.below(10) {
        0 => 0,
        1 => u32::MAX - rng.below(100) as u32,
        _ => rng.below(3000) as u32,
    };
    let start_instance = rng.below(40) as u32;
    let mut ud = vec![0x1000u32, base_vertex];
    if layout.start_instance {
        ud.push(start_instance);
    }
    ud.push(0x2000);
    if layout.culling {
        let settings = match rng.below(6) {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 8 | 2 | (rng.below(256) as u32) << 24,
            _ => rng.next() as u32,
        };
        ud.push(settings);
        for _ in 0..4 {
            ud.push(rng.float(-300.0, 300.0).to_bits());
        }
    }
    // Descriptors: the records the draw indexes, in ring-like buffers.
    for (slot, &stride) in layout.strides.iter().enumerate() {
        let per_instance = layout.start_instance && slot == 1;
        let last = if per_instance {
            (instance_count > 0).then(|| instance_count as u64 - 1 + start_instance as u64)
        } else {
            last_vertex.map(|l| l + base_vertex as u64)
        };
        let base = DATA + rng.below(1 << 24) * 4;
        let records = match rng.below(8) {
            // A ring: records to the end of a 64 MiB ring.
            0..=2 => ((DATA + (64 << 20) - base) / stride as u64) as u32,
            // Enough for the draw, or a little short (the cap).
            3..=4 => match last {
                Some(l) if l < u32::MAX as u64 => (l + 1).saturating_sub(rng.below(3)) as u32,
                _ => rng.below(1 << 20) as u32,
            },
            5 => rng.below(64) as u32,
            6 => u32::MAX - rng.below(16) as u32,
            _ => rng.below(1 << 20) as u32,
        };
        // Mostly RADV's structured (1); some raw-style or unchecked.
        let oob = match rng.below(20) {
            0 => 0,
            1 => 2,
            2 => 3,
            _ => 1,
        };
        mem.write(
            TABLE + 16 * slot as u64,
            &vsharp(base, stride, records, oob),
        );
    }
    Case {
        mem,
        user_data: ud,
        draw,
        group_prims: rng.range(1, 42) as u32,
    }
}

/// Where [`indexed_case`] writes its index buffer.
pub const INDEX_BUFFER: u64 = 0x40_0000;

/// A random indexed draw of a shader with `layout`: the memory, user data
/// and descriptors of [`case`], and an index buffer of 8-, 16- or 32-bit
/// indices with a random first index, base vertex and restart setting.
///
/// The indices before the first index are 0 and the draw's own indices put
/// their largest value near the end now and then, so a scan that starts at
/// index 0 misses it; without restart, the format's all-ones value appears
/// as an ordinary vertex now and then, so a scan that skips it anyway
/// misses it.
pub fn indexed_case(rng: &mut Rng, layout: Layout) -> Case {
    use drawbind::draws::{Addr, Word32};
    use drawbind::IndexFormat;
    let mut c = case(rng, layout);
    let DrawSpec::Auto { instance_count, .. } = c.draw else {
        unreachable!("case makes auto draws")
    };
    let format = match rng.below(10) {
        0 => IndexFormat::U8,
        1..=6 => IndexFormat::U16,
        _ => IndexFormat::U32,
    };
    let all_ones = format.max_value();
    let count = match rng.below(10) {
        0 => 0,
        1..=6 => rng.range(1, 60) as u32,
        _ => rng.range(60, 300) as u32,
    };
    let spread = match rng.below(4) {
        0 => 24,
        1 => 1000,
        _ => 5000,
    }
    .min(all_ones as u64);
    let mut values: Vec<u32> = (0..count).map(|_| rng.below(spread + 1) as u32).collect();
    if count > 0 && rng.chance(30) {
        // The largest index last.
        let last = count as usize - 1;
        values[last] = spread as u32 + 1 + rng.below(50) as u32;
        values[last] = values[last].min(all_ones);
    }
    let restart = match rng.below(3) {
        0 => None,
        1 => Some(all_ones),
        _ => Some(rng.below(spread + 1) as u32),
    };
    // Restart values sprinkled in; without restart, all-ones vertices.
    for v in values.iter_mut() {
        if rng.chance(8) {
            *v = restart.unwrap_or(all_ones);
        }
    }
    let first_index = if rng.chance(50) {
        0
    } else {
        rng.range(1, 40) as u32
    };
    let base_vertex = match rng.below(10) {
        0..=5 => 0,
        6 | 7 => rng.below(3000) as i32,
        8 => -(rng.below(30) as i32),
        _ => i32::MAX - rng.below(100) as i32,
    };
    let mut bytes = vec![0u8; (first_index as usize) * format.bytes() as usize];
    for v in &values {
        bytes.extend_from_slice(&v.to_le_bytes()[..format.bytes() as usize]);
    }
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    c.mem.write(INDEX_BUFFER, &words);
    c.draw = DrawSpec::Indexed {
        index_count: count,
        instance_count,
        first_index,
        index_addr: Some(Addr(INDEX_BUFFER)),
        index_format: Some(format),
        base_vertex,
        restart: restart.map(Word32),
    };
    c
}
