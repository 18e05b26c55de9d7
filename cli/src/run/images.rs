//! Images in `shaderlift run`: the scene's guest memory for a shader's
//! image bindings, and the host side of each binding.
//!
//! # The scene
//!
//! For every image binding of the manifest, the scene chooses the
//! descriptor words and puts them where the trace says the shader reads
//! them: a T# (S#) word read from a table (`table_word` of a user-data
//! pointer and a constant high half) is written into guest memory at that
//! table's address, after the scene gave the pointer's user-data word a
//! table address of its own; a word that is a user-data word directly is
//! that user-data word. A word at a per-draw slot of a table
//! (`indexed_table_word`) is written at the slot its index word selects,
//! the index getting [`SCENE_INDEX`] (a user-data word, or a table or
//! buffer word written where the shader reads it); the slots before and
//! after get decoys (the same words, the T#'s base one texel row further),
//! so reading a neighbouring slot shows. Anything else (a constant
//! descriptor word, a word read through a buffer descriptor, two different
//! values for one word) is "not run" with its reason.
//!
//! A descriptor-array binding (`array`: a T# at a per-lane table slot)
//! gets the array's `elements` descriptors in its table, slot `k` at
//! `k · scale` bytes past slot 0's words, each its own image (texel values
//! of image `128 + elements · binding + k`), and the host binds them all as
//! the array's elements (push word `image_array_slots`); after the run, every
//! read the interpreter made of the table's words must lie in those slots
//! ([`uncovered_slot_reads`]), else the run is not covered.
//!
//! The images the scene makes: linear (swizzle mode 0), one level,
//! `32_32_32_32_FLOAT` (exact values on both sides), [`SIDE`]×[`SIDE`]
//! texels (1D: SIDE×1; 3D and arrays: [`LAYERS`] slices or layers; cubes:
//! six faces, sampled by the translation as a 2D array), row
//! pitch 256 bytes (the width aligned to 256 bytes, so the T# needs no
//! custom pitch), identity DST_SEL; texel (x, y, s) component c holds the
//! integer `4096·(binding + 1) + 4·(256·s + 16·y + x) + c`. Samplers:
//! nearest (point) filters, wrap (repeat) in every axis, normalized
//! coordinates, and the depth comparison LESS when an instruction of the
//! binding compares (`_c`), NEVER (no comparison) otherwise.
//!
//! # The host side
//!
//! Per run, each binding's T# and S# words are evaluated from the
//! manifest's expressions ([`translator::manifest::WordExpr::eval`]) over
//! the scene's user data and memory, and decoded here into a
//! [`vkharness::ImageInput`]: format, view type, extent, the texels copied
//! out of guest memory row by row, and the sampler. This decoding is the
//! host's own (the interpreter, the oracle, decodes descriptors
//! separately in `interp::image`); it accepts what the scene makes and
//! refuses the rest by name.

use drawbind::SparseMemory;
use translator::manifest::{ImageBinding, ImageDim, ImageKind, Manifest, WordExpr};
use vkharness::vk;
use vkharness::{ImageInput, SamplerDesc};

/// Texels per side of a scene image.
pub const SIDE: u32 = 16;
/// Slices of a 3D image, layers of an array.
pub const LAYERS: u32 = 4;
/// The layers of a cube image (one per face).
const CUBE_FACES: u32 = 6;
/// Where the scene's descriptor tables start (guest addresses).
const TABLE_BASE: u32 = 0x0010_0000;
/// Where the scene's texels start.
const TEXEL_BASE: u64 = 0x0100_0000;
/// Where the texels of descriptor-array slots start.
const ARRAY_TEXEL_BASE: u64 = 0x0a00_0000;

/// The image number (texel values) and texel address of slot `k` of
/// descriptor-array binding `n` (of `elements` slots).
fn array_image(n: usize, elements: u32, k: u32) -> (usize, u64) {
    let i = n * elements as usize + k as usize;
    (128 + i, ARRAY_TEXEL_BASE + i as u64 * 0x10_0000)
}

/// A descriptor-array word of slot 0 read `delta` bytes further into its
/// table (another slot's word).
fn slot_word(e: &WordExpr, delta: u32) -> Result<WordExpr, String> {
    match e {
        WordExpr::TableWord { lo, hi, offset } => Ok(WordExpr::TableWord {
            lo: lo.clone(),
            hi: hi.clone(),
            offset: offset.wrapping_add(delta),
        }),
        _ => Err("a descriptor-array word that is not a table word".into()),
    }
}

/// The words of slot `k` of an array binding's T# and S#.
fn slot_words(b: &ImageBinding, k: u32) -> Result<(Vec<WordExpr>, Option<Vec<WordExpr>>), String> {
    let Some(arr) = &b.array else {
        return Ok((b.texture.clone(), b.sampler.clone()));
    };
    let delta = k.wrapping_mul(arr.scale);
    let texture = b
        .texture
        .iter()
        .map(|e| slot_word(e, delta))
        .collect::<Result<_, _>>()?;
    let sampler = match &b.sampler {
        Some(s) if arr.sampler_per_slot => Some(
            s.iter()
                .map(|e| slot_word(e, delta))
                .collect::<Result<_, _>>()?,
        ),
        s => s.clone(),
    };
    Ok((texture, sampler))
}

/// The descriptors bound in each binding: an array's `elements`, all of
/// them slots of the scene's table.
fn descriptors(b: &ImageBinding) -> u32 {
    b.array.as_ref().map_or(1, |a| a.elements)
}

/// (binding, slots bound) of each descriptor-array binding (the draw's
/// `image_array_slots`).
pub fn array_slots(m: &Manifest) -> Vec<(u32, u32)> {
    m.images
        .iter()
        .filter(|b| b.array.is_some())
        .map(|b| (b.binding, descriptors(b)))
        .collect()
}

/// The first read the interpreter made of a descriptor array's table words
/// (`obs.pointer_loads` at the binding's load pcs) outside the slots the
/// scene bound, as a reason the run is not covered.
pub fn uncovered_slot_reads(
    m: &Manifest,
    user_data: &[u32],
    mem: &SparseMemory,
    obs: &interp::Observations,
) -> Option<String> {
    use drawbind::GuestMemory;
    let mut read = |a: u64| mem.read_u32(a);
    for b in &m.images {
        let Some(arr) = &b.array else { continue };
        // Slot 0's word addresses (the T#'s, and the S#'s when per slot).
        let per_slot = b.sampler.iter().flatten().filter(|_| arr.sampler_per_slot);
        let mut words = Vec::new();
        for e in b.texture.iter().chain(per_slot) {
            let WordExpr::TableWord { lo, hi, offset } = e else {
                return Some(format!(
                    "image binding {}: a descriptor-array word that is not a table word",
                    b.binding
                ));
            };
            let (Ok(lo), Ok(hi)) = (lo.eval(user_data, &mut read), hi.eval(user_data, &mut read))
            else {
                return Some(format!(
                    "image binding {}: its table pointer does not evaluate",
                    b.binding
                ));
            };
            words.push(drawbind::word::dword_address(
                drawbind::word::pointer(lo, hi, 0),
                *offset,
            ));
        }
        let bound = |a: u64| {
            words.iter().any(|&w| {
                let d = a.wrapping_sub(w);
                d % u64::from(arr.scale.max(1)) == 0
                    && d / u64::from(arr.scale.max(1)) < u64::from(arr.elements)
            })
        };
        for &(pc, addr, len) in obs
            .pointer_loads
            .iter()
            .filter(|l| arr.loads.contains(&l.0))
        {
            if let Some(a) = (0..u64::from(len / 4))
                .map(|i| addr + 4 * i)
                .find(|&a| !bound(a))
            {
                return Some(format!(
                    "image binding {}: the interpreter read a descriptor word at {a:#x} (pc {pc:#x}) outside the {} table slots the scene bound",
                    b.binding, arr.elements
                ));
            }
        }
    }
    None
}

/// The unified format the scene's images use: 32_32_32_32_FLOAT.
const FMT_RGBA32F: u32 = 77;

/// The guest memory and user data of a scene with images.
#[derive(Debug, Default)]
pub struct ImageScene {
    /// Descriptor tables and texels.
    pub memory: SparseMemory,
    /// The user data, with the table pointers the scene chose.
    pub user_data: Vec<u32>,
    /// The guest addresses of the data words the scene chose (push-constant
    /// words read from tables and buffers).
    pub data_words: Vec<u64>,
}

/// The descriptor words the scene gives binding `n`'s image.
fn tsharp(n: usize, dim: ImageDim) -> Result<[u32; 8], String> {
    tsharp_at(texel_base(n), dim)
}

/// The scene's T# of a `dim` image whose texels start at `base`.
fn tsharp_at(base: u64, dim: ImageDim) -> Result<[u32; 8], String> {
    let (ty, h, depth_field) = match dim {
        ImageDim::D1 => (8, 1, 0),
        ImageDim::D2 => (9, SIDE, 0),
        ImageDim::D3 => (10, SIDE, LAYERS - 1),
        ImageDim::D1Array => (12, 1, LAYERS - 1),
        ImageDim::D2Array => (13, SIDE, LAYERS - 1),
        ImageDim::Cube => (11, SIDE, CUBE_FACES - 1),
        d => return Err(format!("{d:?} images are not run")),
    };
    let w = SIDE - 1;
    Ok([
        (base >> 8) as u32,
        ((base >> 40) as u32 & 0xff) | FMT_RGBA32F << 20 | (w & 3) << 30,
        (w >> 2) | (h - 1) << 14,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | ty << 28,
        depth_field,
        0,
        0,
        0,
    ])
}

fn texel_base(n: usize) -> u64 {
    TEXEL_BASE + n as u64 * 0x10_0000
}

/// The S# of a binding: point filters, wrap, comparison LESS or NEVER.
fn ssharp(compare: bool) -> [u32; 4] {
    [(compare as u32) << 12, 0, 0, 0]
}

/// The texel bytes of binding `n` (`layers` slices of SIDE × `height`,
/// pitch 16 texels = 256 bytes: exactly SIDE, so the rows are packed).
fn texels(n: usize, height: u32, layers: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((SIDE * height * layers * 16) as usize);
    for s in 0..layers {
        for y in 0..height {
            for x in 0..SIDE {
                for c in 0..4 {
                    let v = 4096 * (n as u32 + 1) + 4 * (256 * s + 16 * y + x) + c;
                    out.extend_from_slice(&(v as f32).to_le_bytes());
                }
            }
        }
    }
    out
}

/// Do the instructions at `pcs` compare (`image_sample_c*`,
/// `image_gather4_c*`)?
fn compares(code: &[u8], target: isa::Target, pcs: &[u32]) -> bool {
    pcs.iter().any(|&pc| {
        code.get(pc as usize..)
            .and_then(|b| isa::decode(b, target).ok())
            .and_then(|inst| isa::family::mimg::mimg_info(inst.opcode))
            .is_some_and(|i| {
                let rest = i
                    .name
                    .strip_prefix("image_sample")
                    .or_else(|| i.name.strip_prefix("image_gather4"))
                    .unwrap_or("");
                rest.split('_').any(|t| t == "c")
            })
    })
}

/// Assignments of the scene: user-data words and memory words.
#[derive(Default)]
struct Assign {
    user: Vec<(u8, u32)>,
    mem: Vec<(u64, u32)>,
    data: Vec<u64>,
    next_table: u32,
    /// Buffers made for `buffer_word`s: (descriptor expressions, base).
    buffers: Vec<(Vec<WordExpr>, u64)>,
    /// What the data words hold ([`data_value`]).
    values: DataWords,
}

impl Assign {
    fn user(&mut self, k: u8, v: u32) -> Result<(), String> {
        match self.user.iter().find(|(j, _)| *j == k) {
            Some(&(_, old)) if old != v => Err(format!(
                "user-data word {k} would need two values ({old:#x}, {v:#x})"
            )),
            Some(_) => Ok(()),
            None => {
                self.user.push((k, v));
                Ok(())
            }
        }
    }

    fn word(&mut self, a: u64, v: u32) -> Result<(), String> {
        match self.mem.iter().find(|(b, _)| *b == a) {
            Some(&(_, old)) if old != v => Err(format!(
                "the descriptor word at {a:#x} would need two values ({old:#x}, {v:#x})"
            )),
            Some(_) => Ok(()),
            None => {
                self.mem.push((a, v));
                Ok(())
            }
        }
    }

    /// Make `e` evaluate to `v`.
    fn make(&mut self, e: &WordExpr, v: u32) -> Result<(), String> {
        match e {
            WordExpr::UserData { k } => self.user(*k, v),
            WordExpr::TableWord { lo, hi, offset } => {
                let a = drawbind::word::dword_address(self.table_pointer(lo, hi)?, *offset);
                self.word(a, v)
            }
            WordExpr::IndexedTableWord { .. } => {
                let a = self.indexed_address(e, 0)?;
                self.word(a, v)
            }
            WordExpr::Const { value } if *value == v => Ok(()),
            WordExpr::Const { .. } => Err("a constant descriptor word".into()),
            WordExpr::BufferWord { .. } => {
                Err("a descriptor read through a buffer descriptor".into())
            }
        }
    }

    /// The 64-bit pointer of a table read through `lo` (a user-data word,
    /// given a table of the scene's when it has no value yet) and `hi` (a
    /// constant).
    fn table_pointer(&mut self, lo: &WordExpr, hi: &WordExpr) -> Result<u64, String> {
        let (WordExpr::UserData { k }, WordExpr::Const { value: hi }) = (lo, hi) else {
            return Err(
                "a descriptor read through a pointer that is not a user-data word and a constant"
                    .into(),
            );
        };
        let lo = match self.user.iter().find(|(j, _)| j == k) {
            Some(&(_, p)) => p,
            None => {
                let p = TABLE_BASE + self.next_table * 0x1_0000;
                self.next_table += 1;
                self.user(*k, p)?;
                p
            }
        };
        Ok(drawbind::word::pointer(lo, *hi, 0))
    }

    /// The scene's value of a per-draw table index word (user data, a
    /// table word, a buffer word, a constant): the value it already has,
    /// else [`SCENE_INDEX`], written where the shader reads it.
    fn index_value(&mut self, e: &WordExpr) -> Result<u32, String> {
        match e {
            WordExpr::Const { value } => Ok(*value),
            WordExpr::UserData { k } => match self.user.iter().find(|(j, _)| j == k) {
                Some(&(_, v)) => Ok(v),
                None => {
                    self.user(*k, SCENE_INDEX)?;
                    Ok(SCENE_INDEX)
                }
            },
            WordExpr::TableWord { lo, hi, offset } => {
                let a = drawbind::word::dword_address(self.table_pointer(lo, hi)?, *offset);
                self.mem_value(a)
            }
            WordExpr::BufferWord { desc, offset } => {
                let base = self.buffer(desc)?;
                self.mem_value(base + u64::from(*offset & !3))
            }
            WordExpr::IndexedTableWord { .. } => {
                let a = self.indexed_address(e, 0)?;
                self.mem_value(a)
            }
        }
    }

    /// The scene's word at `a`, or [`SCENE_INDEX`] written there.
    fn mem_value(&mut self, a: u64) -> Result<u32, String> {
        match self.mem.iter().find(|(b, _)| *b == a) {
            Some(&(_, v)) => Ok(v),
            None => {
                self.word(a, SCENE_INDEX)?;
                Ok(SCENE_INDEX)
            }
        }
    }

    /// The guest address an [`WordExpr::IndexedTableWord`] reads with its
    /// index word's scene value plus `delta` (wrapping: `u32::MAX` is −1).
    fn indexed_address(&mut self, e: &WordExpr, delta: u32) -> Result<u64, String> {
        let WordExpr::IndexedTableWord {
            lo,
            hi,
            index,
            scale,
            offset,
        } = e
        else {
            return Err("not an indexed table word".into());
        };
        let p = self.table_pointer(lo, hi)?;
        let i = self.index_value(index)?.wrapping_add(delta);
        Ok(drawbind::word::dword_address(
            p,
            drawbind::word::slot_offset(i, *scale, *offset),
        ))
    }

    /// The base of the scene's raw buffer read through `desc` (made, its
    /// V# written where the descriptor is read, on first use).
    fn buffer(&mut self, desc: &[WordExpr; 4]) -> Result<u64, String> {
        let key: Vec<WordExpr> = desc.to_vec();
        if let Some(&(_, b)) = self.buffers.iter().find(|(k, _)| *k == key) {
            return Ok(b);
        }
        let b = BUFFER_BASE + self.buffers.len() as u64 * 0x1_0000;
        let v = drawbind::vsharp::encode_linear(b, 0, 0x1_0000, drawbind::vsharp::OobSelect::Raw);
        for (d, w) in desc.iter().zip(v) {
            self.make(d, w)?;
        }
        self.buffers.push((key, b));
        Ok(b)
    }

    /// Give a word the shader reads (a push-constant word: user data, a
    /// table word, a word of a buffer whose descriptor is in a table) a
    /// scene value: user data keeps its default; a table word gets
    /// `data_value`; a buffer word gets a raw buffer of the scene (its V#
    /// written where the descriptor is read) holding `data_value` there.
    ///
    /// Descriptors first (`tables` false: buffer words only), then the
    /// plain table words (`tables` true), which keep a value a descriptor
    /// already gave their address (a shader may read a descriptor word as
    /// data, e.g. a buffer's size).
    fn data(&mut self, e: &WordExpr, tables: bool) -> Result<(), String> {
        match e {
            WordExpr::UserData { .. } | WordExpr::Const { .. } => Ok(()),
            WordExpr::TableWord { .. } if !tables => Ok(()),
            WordExpr::TableWord { lo, hi, offset, .. } => {
                if let (WordExpr::UserData { k }, WordExpr::Const { value: hi }) = (&**lo, &**hi) {
                    if let Some(&(_, p)) = self.user.iter().find(|(j, _)| j == k) {
                        let a = drawbind::word::dword_address(
                            drawbind::word::pointer(p, *hi, 0),
                            *offset,
                        );
                        if self.mem.iter().any(|(b, _)| *b == a) {
                            return Ok(());
                        }
                    }
                }
                self.make(e, data_value(*offset, self.values))?;
                if let Some(&(a, _)) = self.mem.last() {
                    self.data.push(a);
                }
                Ok(())
            }
            WordExpr::BufferWord { .. } if tables => Ok(()),
            WordExpr::BufferWord { desc, offset } => {
                let a = self.buffer(desc)? + u64::from(*offset & !3);
                // A word that already has a value (a table index) keeps it.
                if self.mem.iter().any(|(b, _)| *b == a) {
                    return Ok(());
                }
                self.data.push(a);
                self.word(a, data_value(*offset, self.values))
            }
            // Indexed words are read as data only after the images
            // (`tables`), so a descriptor at the same address wins.
            WordExpr::IndexedTableWord { .. } if !tables => Ok(()),
            WordExpr::IndexedTableWord { .. } => {
                let a = self.indexed_address(e, 0)?;
                if self.mem.iter().any(|(b, _)| *b == a) {
                    return Ok(());
                }
                self.data.push(a);
                self.word(a, data_value(0, self.values))
            }
        }
    }
}

/// The value the scene gives a per-draw table index word (a user-data
/// material index, a buffer word scaled into a table offset): 1, so the
/// descriptor sits past slot 0 and a neighbour slot exists on both sides.
pub const SCENE_INDEX: u32 = 1;

/// Where the scene's buffers (read through V#s in tables) start.
const BUFFER_BASE: u64 = 0x0300_0000;

/// What a scene's data words hold ([`data_value`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataWords {
    /// The f32 `(1 + (offset/4 mod 16)) / 16`, in (0, 1], dyadic.
    #[default]
    Floats,
    /// The integer `1 + (offset/4 mod 4)`: the retry of a scene whose words
    /// made a loop too long for the interpreter (a loop count read as an
    /// integer).
    SmallIntegers,
    /// This value in every data word: the retry of a scene whose words left
    /// every export undefined (a flag or switch word no case tests).
    Fixed(u32),
}

/// The value the scene gives a data word at byte `offset` of its table or
/// buffer.
fn data_value(offset: u32, values: DataWords) -> u32 {
    match values {
        DataWords::Floats => ((1 + (offset / 4) % 16) as f32 / 16.0).to_bits(),
        DataWords::SmallIntegers => 1 + (offset / 4) % 4,
        DataWords::Fixed(v) => v,
    }
}

/// Build the scene of `m`'s images over the default `user_data`; `Err`
/// says why the shader cannot be run.
pub fn scene(
    m: &Manifest,
    code: &[u8],
    target: isa::Target,
    user_data: &[u32],
    values: DataWords,
) -> Result<ImageScene, String> {
    let mut a = Assign {
        values,
        ..Assign::default()
    };
    let mut out = ImageScene {
        memory: SparseMemory::new(),
        user_data: user_data.to_vec(),
        data_words: Vec::new(),
    };
    let words: Vec<&WordExpr> = m
        .push_constants
        .iter()
        .chain(&m.param_buffer)
        .filter_map(|w| match &w.kind {
            translator::manifest::PushKind::Word { expr, .. } => Some(expr),
            _ => None,
        })
        .collect();
    // Per-draw table indices first, so they get the scene's index value
    // rather than a data value.
    for b in &m.images {
        for e in b.texture.iter().chain(b.sampler.iter().flatten()) {
            if let WordExpr::IndexedTableWord { index, .. } = e {
                a.index_value(index)?;
            }
        }
    }
    for e in &words {
        a.data(e, false)?;
    }
    // Decoys: the slots before and after an indexed descriptor's hold the
    // same words, except that the T#'s base is one row (256 bytes)
    // further, so a host or interpreter reading a neighbouring slot
    // samples other texels.
    let mut decoys: Vec<(u64, u32)> = Vec::new();
    for (n, b) in m.images.iter().enumerate() {
        if b.array.is_some() {
            let (h, layers) = extent_of(b.dim);
            let compare = compares(code, target, &b.accesses);
            for k in 0..descriptors(b) {
                let (id, base) = array_image(n, descriptors(b), k);
                let (texture, sampler) = slot_words(b, k)?;
                for (e, &v) in texture.iter().zip(&tsharp_at(base, b.dim)?) {
                    a.make(e, v)?;
                }
                for (e, &v) in sampler.iter().flatten().zip(&ssharp(compare)) {
                    a.make(e, v)?;
                }
                out.memory.write_bytes(base, &texels(id, h, layers));
            }
            continue;
        }
        let t = tsharp(n, b.dim)?;
        if b.texture.len() > 8 {
            return Err("a T# of more than 8 words".into());
        }
        for (k, (e, &v)) in b.texture.iter().zip(&t).enumerate() {
            a.make(e, v)?;
            if matches!(e, WordExpr::IndexedTableWord { .. }) {
                let d = if k == 0 { v.wrapping_add(1) } else { v };
                for delta in [1, u32::MAX] {
                    decoys.push((a.indexed_address(e, delta)?, d));
                }
            }
        }
        if let Some(s) = &b.sampler {
            let words = ssharp(compares(code, target, &b.accesses));
            for (e, &v) in s.iter().zip(&words) {
                a.make(e, v)?;
                if matches!(e, WordExpr::IndexedTableWord { .. }) {
                    for delta in [1, u32::MAX] {
                        decoys.push((a.indexed_address(e, delta)?, v));
                    }
                }
            }
        }
        let (h, layers) = extent_of(b.dim);
        // One row more than the image: what a decoy's base reaches.
        let mut bytes = texels(n, h, layers);
        bytes.extend(texels(n + 64, 1, 1));
        out.memory.write_bytes(texel_base(n), &bytes);
    }
    for (addr, v) in decoys {
        if !a.mem.iter().any(|(b, _)| *b == addr) {
            a.mem.push((addr, v));
        }
    }
    for e in &words {
        a.data(e, true)?;
    }
    for &(k, v) in &a.user {
        let k = k as usize;
        if out.user_data.len() <= k {
            return Err(format!("user-data word {k} is past the entry's user data"));
        }
        out.user_data[k] = v;
    }
    for &(addr, v) in &a.mem {
        out.memory.write_words(addr, &[v]);
    }
    out.data_words = a.data;
    Ok(out)
}

fn extent_of(dim: ImageDim) -> (u32, u32) {
    match dim {
        ImageDim::D1 => (1, 1),
        ImageDim::D1Array => (1, LAYERS),
        ImageDim::D3 | ImageDim::D2Array => (SIDE, LAYERS),
        ImageDim::Cube => (SIDE, CUBE_FACES),
        _ => (SIDE, 1),
    }
}

/// The images of a vertex shader's run over a DRAWS.json: the draws'
/// guest memory `mem` and `user_data` hold the T#/S# words the manifest's
/// expressions name. A descriptor the file does not provide (a word
/// unmapped, or every word 0) gets the scene's (a T# with its texels at
/// guest bytes no block of the file maps, an S# with point filters, wrap,
/// and LESS when an instruction of the binding compares), written into
/// `mem` where the shader reads it; this needs each of its words to be a
/// table word of a user-data pointer and a constant high half. The host
/// then decodes every binding's descriptors from `mem`
/// ([`host_images`]). `Err` says why the shader cannot be run.
pub fn draws_images(
    m: &Manifest,
    code: &[u8],
    target: isa::Target,
    user_data: &[u32],
    mem: &mut SparseMemory,
) -> Result<Vec<HostImage>, String> {
    use drawbind::GuestMemory;
    let mut writes: Vec<(u64, u32)> = Vec::new();
    let mut texel_blocks: Vec<(u64, Vec<u8>)> = Vec::new();
    for (n, b) in m.images.iter().enumerate() {
        let provided = |words: &[WordExpr]| -> bool {
            let mut read = |a: u64| mem.read_u32(a);
            let mut any = false;
            for e in words {
                match e.eval(user_data, &mut read) {
                    Ok(v) => any |= v != 0,
                    Err(_) => return false,
                }
            }
            any
        };
        // Where each word of a descriptor the scene writes goes.
        let addresses = |words: &[WordExpr]| -> Result<Vec<u64>, String> {
            words
                .iter()
                .map(|e| match e {
                    WordExpr::TableWord { lo, hi, offset } => match (&**lo, &**hi) {
                        (WordExpr::UserData { k }, WordExpr::Const { value: hi }) => {
                            let Some(&p) = user_data.get(*k as usize) else {
                                return Err(format!("user-data word {k} is not in the file"));
                            };
                            Ok(drawbind::word::dword_address(
                                drawbind::word::pointer(p, *hi, 0),
                                *offset,
                            ))
                        }
                        _ => Err("a descriptor the file does not provide, read through a pointer that is not a user-data word and a constant".into()),
                    },
                    WordExpr::IndexedTableWord { lo, hi, index, scale, offset } => match (&**lo, &**hi) {
                        (WordExpr::UserData { k }, WordExpr::Const { value: hi }) => {
                            let Some(&p) = user_data.get(*k as usize) else {
                                return Err(format!("user-data word {k} is not in the file"));
                            };
                            let i = index
                                .eval(user_data, &mut |a| mem.read_u32(a))
                                .map_err(|e| format!("a table index the file does not provide: {e}"))?;
                            Ok(drawbind::word::dword_address(
                                drawbind::word::pointer(p, *hi, 0),
                                drawbind::word::slot_offset(i, *scale, *offset),
                            ))
                        }
                        _ => Err("a descriptor the file does not provide, read through a pointer that is not a user-data word and a constant".into()),
                    },
                    WordExpr::UserData { k } => Err(format!(
                        "a descriptor the file does not provide in user-data word {k}"
                    )),
                    _ => Err("a descriptor the file does not provide, from a source the scene cannot write (a constant or a buffer word)".into()),
                })
                .collect()
        };
        if !provided(&b.texture) {
            let (h, layers) = extent_of(b.dim);
            let bytes = texels(n, h, layers);
            let base = free_range(mem, &texel_blocks, bytes.len() as u64)
                .ok_or("no free guest range for the scene's texels")?;
            let t = tsharp_at(base, b.dim)?;
            for (a, v) in addresses(&b.texture)?.into_iter().zip(t) {
                writes.push((a, v));
            }
            texel_blocks.push((base, bytes));
        }
        if let Some(sw) = &b.sampler {
            if !provided(sw) {
                let words = ssharp(compares(code, target, &b.accesses));
                for (a, v) in addresses(sw)?.into_iter().zip(words) {
                    writes.push((a, v));
                }
            }
        }
    }
    for (i, &(a, v)) in writes.iter().enumerate() {
        if let Some(&(_, old)) = writes[..i].iter().find(|(b, o)| *b == a && *o != v) {
            return Err(format!(
                "the descriptor word at {a:#x} would need two values ({old:#x}, {v:#x})"
            ));
        }
    }
    for (a, v) in writes {
        mem.try_write_words(a, &[v]).map_err(|e| e.to_string())?;
    }
    for (base, bytes) in texel_blocks {
        mem.try_write_bytes(base, &bytes)
            .map_err(|e| e.to_string())?;
    }
    host_images(m, user_data, mem)
}

/// [`draws_images`] for a capture's run: none without image bindings, and
/// what the images cannot be run with is [`crate::CliError::NotRun`].
pub fn capture_images(
    capture: &corpus::Capture,
    m: &Manifest,
    user_data: &[u32],
    mem: &mut SparseMemory,
) -> Result<Vec<HostImage>, crate::CliError> {
    if m.images.is_empty() {
        return Ok(Vec::new());
    }
    draws_images(m, &capture.code, capture.target(), user_data, mem)
        .map_err(|why| crate::CliError::NotRun(format!("{}: images: {why}", capture.name)))
}

/// The image slots of a manifest's images (the harness's interface).
pub fn slots(m: &Manifest) -> Vec<vkharness::ImageSlot> {
    m.images
        .iter()
        .map(|i| vkharness::ImageSlot {
            binding: i.binding,
            kind: match i.kind {
                ImageKind::Sampled => vkharness::ImageSlotKind::Sampled,
                ImageKind::Storage => vkharness::ImageSlotKind::Storage,
            },
            count: descriptors(i),
        })
        .collect()
}

/// A 256-byte-aligned guest range of `len` bytes that neither `mem` nor
/// `taken` maps (searched from [`TEXEL_BASE`] in 16 MiB steps).
fn free_range(mem: &SparseMemory, taken: &[(u64, Vec<u8>)], len: u64) -> Option<u64> {
    let overlaps = |a: u64, l: u64, base: u64| a < base + len && base < a + l;
    (0..4096u64)
        .map(|i| TEXEL_BASE + i * 0x100_0000)
        .find(|&base| {
            !mem.regions().any(|(a, l)| overlaps(a, l, base))
                && !taken
                    .iter()
                    .any(|(a, b)| overlaps(*a, b.len() as u64, base))
        })
}

/// A host image: what [`vkharness::ImageInput`] borrows.
#[derive(Debug, Clone, PartialEq)]
pub struct HostImage {
    /// The binding.
    pub binding: u32,
    /// The element of a descriptor-array binding (0 otherwise).
    pub element: u32,
    /// Format.
    pub format: vk::Format,
    /// View type.
    pub dim: vkharness::ImageDim,
    /// Width, height, depth or layers.
    pub extent: [u32; 3],
    /// Texels, packed.
    pub texels: Vec<u8>,
    /// The sampler of a sampled binding.
    pub sampler: Option<SamplerDesc>,
    /// A storage image (read back after the run).
    pub storage: bool,
    /// The guest address of the first texel and the guest row pitch and
    /// slice size in bytes (to place the interpreter's stores).
    pub guest: (u64, u64, u64),
}

impl HostImage {
    /// The harness input.
    pub fn input(&self) -> ImageInput<'_> {
        ImageInput {
            binding: self.binding,
            element: self.element,
            format: self.format,
            dim: self.dim,
            extent: self.extent,
            texels: &self.texels,
            sampler: self.sampler,
            read_back: self.storage,
        }
    }
}

/// A decoded T# with its texels.
struct HostTexture {
    format: vk::Format,
    dim: vkharness::ImageDim,
    extent: [u32; 3],
    texels: Vec<u8>,
    guest: (u64, u64, u64),
}

/// Decode a T# (host side) and copy its texels out of `mem`.
fn host_texture(w: &[u32], mem: &dyn drawbind::GuestMemory) -> Result<HostTexture, String> {
    let g = |i: usize| w.get(i).copied().unwrap_or(0);
    let base = ((g(0) as u64) << 8 | ((g(1) & 0xff) as u64) << 40) & ((1 << 48) - 1);
    let format = (g(1) >> 20) & 0x1ff;
    let width = ((g(1) >> 30) | (g(2) & 0x3fff) << 2) + 1;
    let height = ((g(2) >> 14) & 0xffff) + 1;
    let (base_level, last_level) = ((g(3) >> 12) & 0xf, (g(3) >> 16) & 0xf);
    let swizzle = (g(3) >> 20) & 0x1f;
    let ty = g(3) >> 28;
    let depth = (g(4) & 0x1fff) + 1;
    let sel = g(3) & 0xfff;
    if swizzle != 0 || base_level != 0 || last_level != 0 || sel != (4 | 5 << 3 | 6 << 6 | 7 << 9) {
        return Err(format!(
            "a T# the host does not map (swizzle mode {swizzle}, levels {base_level}..={last_level}, dst_sel {sel:#x})"
        ));
    }
    let (vkf, bpe) = match format {
        FMT_RGBA32F => (vk::Format::R32G32B32A32_SFLOAT, 16u64),
        f => return Err(format!("image format {f} has no host mapping here")),
    };
    let (dim, extent) = match ty {
        8 => (vkharness::ImageDim::D1, [width, 1, 1]),
        9 => (vkharness::ImageDim::D2, [width, height, 1]),
        10 => (vkharness::ImageDim::D3, [width, height, depth]),
        12 => (vkharness::ImageDim::D1Array, [width, 1, depth]),
        // A cube's faces: the translation samples a 2D array of them.
        11 | 13 => (vkharness::ImageDim::D2Array, [width, height, depth]),
        t => return Err(format!("image type {t} has no host mapping here")),
    };
    let rows = extent[1] as u64;
    let pitch = (width as u64 * bpe).next_multiple_of(256);
    let slice = pitch * rows;
    let row_bytes = (width as u64 * bpe) as usize;
    let mut texels = Vec::with_capacity(row_bytes * rows as usize * extent[2] as usize);
    let mut row = vec![0u8; row_bytes];
    for s in 0..extent[2] as u64 {
        for y in 0..rows {
            let a = base + s * slice + y * pitch;
            if !mem.read_bytes(a, &mut row) {
                return Err(format!("texels at {a:#x} are not in guest memory"));
            }
            texels.extend_from_slice(&row);
        }
    }
    Ok(HostTexture {
        format: vkf,
        dim,
        extent,
        texels,
        guest: (base, pitch, slice),
    })
}

/// Decode an S# (host side).
fn host_sampler(w: [u32; 4]) -> Result<SamplerDesc, String> {
    let mode = |m: u32| match m {
        0 => Ok(vk::SamplerAddressMode::REPEAT),
        1 => Ok(vk::SamplerAddressMode::MIRRORED_REPEAT),
        2 => Ok(vk::SamplerAddressMode::CLAMP_TO_EDGE),
        6 => Ok(vk::SamplerAddressMode::CLAMP_TO_BORDER),
        m => Err(format!("clamp mode {m} has no host mapping here")),
    };
    let filter = |f: u32| match f {
        0 => Ok(vk::Filter::NEAREST),
        1 => Ok(vk::Filter::LINEAR),
        f => Err(format!("filter {f} has no host mapping here")),
    };
    let compare = (w[0] >> 12) & 7;
    Ok(SamplerDesc {
        mag: filter((w[2] >> 20) & 3)?,
        min: filter((w[2] >> 22) & 3)?,
        mip: vk::SamplerMipmapMode::NEAREST,
        address: [
            mode(w[0] & 7)?,
            mode((w[0] >> 3) & 7)?,
            mode((w[0] >> 6) & 7)?,
        ],
        unnormalized: (w[0] >> 15) & 1 != 0,
        // NEVER is what RADV writes for a sampler without comparison.
        compare: (compare != 0).then(|| vk::CompareOp::from_raw(compare as i32)),
        border: vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
    })
}

/// The host images of `m` for a run with `user_data` over `mem`.
pub fn host_images(
    m: &Manifest,
    user_data: &[u32],
    mem: &SparseMemory,
) -> Result<Vec<HostImage>, String> {
    use drawbind::GuestMemory;
    let mut read = |a: u64| mem.read_u32(a);
    let mut out = Vec::new();
    for b in &m.images {
        // Each element of a descriptor array: its slot's words.
        for element in 0..descriptors(b) {
            let (texture, sampler) = slot_words(b, element)?;
            let words: Vec<u32> = texture
                .iter()
                .map(|e| e.eval(user_data, &mut read))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            let HostTexture {
                format,
                dim,
                extent,
                texels,
                guest,
            } = host_texture(&words, mem)?;
            let sampler = match &sampler {
                Some(s) if s.len() == 4 => {
                    let mut w = [0u32; 4];
                    for (i, e) in s.iter().enumerate() {
                        w[i] = e.eval(user_data, &mut read).map_err(|e| e.to_string())?;
                    }
                    Some(host_sampler(w)?)
                }
                Some(_) => return Err("an S# of other than 4 words".into()),
                None => None,
            };
            out.push(HostImage {
                binding: b.binding,
                element,
                format,
                dim,
                extent,
                texels,
                sampler,
                storage: b.kind == ImageKind::Storage,
                guest,
            });
        }
    }
    Ok(out)
}

impl HostImage {
    /// Bytes per texel row of the host image (rows are packed).
    pub fn row_bytes(&self) -> u64 {
        let rows = u64::from(self.extent[1]) * u64::from(self.extent[2]);
        self.texels.len() as u64 / rows.max(1)
    }

    /// Bytes per texel.
    pub fn texel_bytes(&self) -> u64 {
        self.row_bytes() / u64::from(self.extent[0]).max(1)
    }

    /// The guest address of byte `offset` of [`HostImage::texels`].
    pub fn guest_address(&self, offset: usize) -> u64 {
        let (base, pitch, slice) = self.guest;
        let (row, x) = (
            offset as u64 / self.row_bytes().max(1),
            offset as u64 % self.row_bytes().max(1),
        );
        let rows = u64::from(self.extent[1]).max(1);
        base + (row / rows) * slice + (row % rows) * pitch + x
    }

    /// Where the guest bytes `addr..addr + len` are in [`HostImage::texels`]
    /// (`None`: not all inside one row of the image).
    pub fn texel_offset(&self, addr: u64, len: u64) -> Option<usize> {
        let (base, pitch, slice) = self.guest;
        let off = addr.checked_sub(base)?;
        let (z, in_slice) = (off / slice.max(1), off % slice.max(1));
        let (y, x) = (in_slice / pitch.max(1), in_slice % pitch.max(1));
        let rows = u64::from(self.extent[1]);
        if z >= u64::from(self.extent[2]) || y >= rows || x + len > self.row_bytes() {
            return None;
        }
        usize::try_from((z * rows + y) * self.row_bytes() + x).ok()
    }
}

/// What a storage image should hold after the run by the interpreter:
/// the initial texels with every store record inside the image applied
/// (the last store of a byte wins), and whether each dword was stored
/// with an undefined value.
pub fn expected_texels(img: &HostImage, stores: &[interp::Store]) -> (Vec<u8>, Vec<bool>) {
    let mut bytes = img.texels.clone();
    let mut undefined = vec![false; bytes.len() / 4];
    for s in stores {
        let Some(at) = img.texel_offset(s.addr, u64::from(s.len)) else {
            continue;
        };
        for i in 0..s.len as usize {
            bytes[at + i] = (s.value >> (8 * i)) as u8;
        }
        undefined[at / 4] = !s.defined;
    }
    (bytes, undefined)
}

/// `mem` with the texel rows of every image in reverse order (the
/// negative control of the image runs).
pub fn flip_rows(mem: &SparseMemory, images: &[HostImage]) -> SparseMemory {
    let mut out = mem.clone();
    for h in images {
        let (base, pitch, slice) = h.guest;
        let row = h.extent[0] as usize * 16;
        let rows = h.extent[1] as usize;
        for z in 0..h.extent[2] as usize {
            for y in 0..rows {
                let src = &h.texels[(z * rows + (rows - 1 - y)) * row..][..row];
                out.write_bytes(base + z as u64 * slice + y as u64 * pitch, src);
            }
        }
    }
    out
}

/// The interpreter findings that fail a run: all but a sample point too
/// near a texel border (its words are undefined, not compared).
pub fn failing_findings(obs: &interp::Observations) -> usize {
    let near_border = interp::ImageError::NearBorder.to_string();
    obs.findings
        .iter()
        .filter(|f| !matches!(f, interp::Finding::Unmodelled { what, .. } if *what == near_border))
        .count()
        + obs.findings_dropped as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_decodes_the_scene_descriptors_back_to_the_scene_image() {
        let mut mem = SparseMemory::new();
        mem.write_bytes(texel_base(1), &texels(1, SIDE, 1));
        let t = tsharp(1, ImageDim::D2).unwrap();
        let h = host_texture(&t, &mem).unwrap();
        assert_eq!(h.format, vk::Format::R32G32B32A32_SFLOAT);
        assert_eq!(h.dim, vkharness::ImageDim::D2);
        assert_eq!(h.extent, [SIDE, SIDE, 1]);
        assert_eq!(h.texels, texels(1, SIDE, 1));
        let s = host_sampler(ssharp(true)).unwrap();
        assert_eq!(s.compare, Some(vk::CompareOp::LESS));
        assert_eq!(s.address[0], vk::SamplerAddressMode::REPEAT);
        assert_eq!(host_sampler(ssharp(false)).unwrap().compare, None);
    }
}
