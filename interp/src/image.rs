//! Image instructions (MIMG): gfx10 image (T#) and sampler (S#) descriptors
//! and the execution of loads, stores, samples, gathers and size queries on
//! linear images.
//!
//! This is the oracle's own model; it shares no code with the translator's
//! or the host's descriptor decoding.
//!
//! # T# (8 dwords; `r128` instructions read the first 4)
//!
//! | word | bits | field |
//! |---|---|---|
//! | 0 | 31:0 | base address bits 39:8 |
//! | 1 | 7:0 | base address bits 47:40 |
//! | 1 | 28:20 | FORMAT (gfx10 unified, 9 bits) |
//! | 1 | 31:30 | WIDTH − 1, bits 1:0 |
//! | 2 | 13:0 | WIDTH − 1, bits 15:2 |
//! | 2 | 29:14 | HEIGHT − 1 |
//! | 3 | 11:0 | DST_SEL_X/Y/Z/W (3 bits each) |
//! | 3 | 15:12, 19:16 | BASE_LEVEL, LAST_LEVEL |
//! | 3 | 24:20 | SW_MODE (0 = linear) |
//! | 3 | 31:28 | TYPE (8 1D, 9 2D, 10 3D, 11 cube, 12 1D array, 13 2D array, 14/15 MSAA) |
//! | 4 | 12:0 | DEPTH: depth − 1 (3D), last layer (arrays); pitch − 1 of a linear 1D/2D image with a custom pitch (gfx10.3) |
//! | 4 | 13 | PITCH_MSB (gfx10.3: pitch − 1, bit 13) |
//! | 4 | 28:16 | BASE_ARRAY |
//!
//! # S# (4 dwords)
//!
//! | word | bits | field |
//! |---|---|---|
//! | 0 | 2:0, 5:3, 8:6 | CLAMP_X/Y/Z (0 wrap, 1 mirror, 2 clamp to edge, 3 mirror once, 4/5 half border, 6/7 border) |
//! | 0 | 11:9 | MAX_ANISO_RATIO |
//! | 0 | 14:12 | DEPTH_COMPARE_FUNC (0 never, 1 less, 2 equal, 3 lequal, 4 greater, 5 notequal, 6 gequal, 7 always) |
//! | 0 | 15 | FORCE_UNNORMALIZED |
//! | 0 | 30:29 | FILTER_MODE (0 blend, 1 min, 2 max) |
//! | 1 | 11:0, 23:12 | MIN_LOD, MAX_LOD (u4.8) |
//! | 2 | 13:0 | LOD_BIAS (s5.8) |
//! | 2 | 21:20, 23:22 | XY_MAG_FILTER, XY_MIN_FILTER (0 point, 1 bilinear, 2/3 aniso) |
//! | 2 | 25:24, 27:26 | Z_FILTER, MIP_FILTER (0 none, 1 point, 2 linear) |
//! | 3 | 11:0 | BORDER_COLOR_PTR |
//! | 3 | 31:30 | BORDER_COLOR_TYPE (0 transparent black, 1 opaque black, 2 opaque white, 3 register) |
//!
//! # The model
//!
//! - Memory: linear images only (SW_MODE 0), one mip level (BASE_LEVEL 0;
//!   a level past LAST_LEVEL reads 0). Row pitch: the custom pitch when a
//!   1D/2D T# carries one, else the width aligned to 256 bytes; slices
//!   follow each other at `pitch × height × bytes`. Texels convert with
//!   the typed-buffer formats (numbers below 128 of the unified format
//!   table), then DST_SEL applies.
//! - `image_load*`: integer coordinates; out of range reads 0 in every
//!   component. `image_store*`: every component of the format must be in
//!   dmask and DST_SEL must be the identity; the bytes are recorded as
//!   [`crate::record::Store`]s (guest memory never changes); out of range
//!   stores are dropped.
//! - `image_sample*`: nearest filtering only (both XY filters point, no
//!   anisotropy); normalized coordinates scale by the extent, offsets
//!   (`_o`) add whole texels, array layers round to nearest even and clamp;
//!   the clamp modes wrap, mirror, clamp to edge and mirror once; reaching
//!   a border is not modelled. A sample point within 2⁻⁸ texel of a
//!   texel border on any axis (layers: of k + ½), beyond 2¹⁵ texels, or
//!   not finite has no known texel ([`NEAR_BORDER`]): the hardware rounds
//!   to its sub-texel precision first, so the lane is not compared. With
//!   one level the LOD (`_l`, `_b`,
//!   derivatives, implicit) does not matter. `_c` compares the reference
//!   (clamped to [0, 1] for UNORM formats) with the texel's first
//!   component, 1.0 when the comparison holds.
//! - Cube samples (dim CUBE on a cube T#, TYPE 11: six 2D layers): the
//!   address is ACO's `(sc/|ma| + 1.5, tc/|ma| + 1.5, face)`; the face is
//!   layer `face` sampled at `(s − 1, t − 1)` (`Exec::cube_sample`).
//! - `image_gather4*`: the 2×2 footprint at `u·n − 0.5`, in Vulkan's order
//!   (i0 j1, i1 j1, i1 j0, i0 j0), of the dmask's component.
//! - `image_get_resinfo`: width, height, depth or layers, levels of the
//!   requested mip, packed by dmask.
//!
//! A d16 store reads two f16 components per VGPR (the first in the low
//! half) and widens each exactly to f32 before the format conversion.
//!
//! Anything outside the model (a tiled image, linear filtering, a16, d16
//! results, integer-format d16 stores,
//! cube arrays, cube gathers, MSAA) is an [`ImageError`], reported as a
//! [`Finding::Unmodelled`]: the destination becomes undefined in the active
//! lanes ("not compared"), nothing is guessed.

use crate::exec::Exec;
use crate::format::{dst_sel, Format, Num};
use crate::memory::{read_bytes, ADDR_MASK};
use crate::record::{Finding, InterpError};
use crate::valu::bits;
use crate::wave::{Wave, S32};
use isa::family::mimg::{self, MimgInfo, MimgKind, MimgMods};
use isa::{Instruction, Modifiers, Operand, ValType};

/// What the image model does not cover.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// A tiled image: only linear memory (swizzle mode 0) is modelled.
    #[error("image swizzle mode {0} (tiled): only linear images are modelled")]
    Tiled(u8),
    /// A format outside the unified buffer-format subset.
    #[error("image format {0} is not modelled")]
    Format(u16),
    /// An image type outside 1D/2D/3D and their arrays.
    #[error("image type {0} is not modelled")]
    Type(u8),
    /// A mip level other than the first (the linear mip layout is not
    /// modelled).
    #[error("mip level {0} of a linear image is not modelled")]
    Mip(u32),
    /// A filter whose result is not exactly comparable.
    #[error("{0} filtering is not compared")]
    Filter(&'static str),
    /// A coordinate reached the border of a border clamp mode.
    #[error("the border colour (clamp mode {0}) is not modelled")]
    Border(u8),
    /// An instruction form the model does not cover.
    #[error("{0} is not modelled")]
    Form(&'static str),
    /// A sample point too near a texel border (or not finite, or too far
    /// out) for the texel to be known: the hardware rounds coordinates to
    /// its sub-texel precision first ([`NEAR_BORDER`]).
    #[error("a sample point within 1/256 texel of a texel border (or beyond 2^15 texels, or not finite) is not modelled")]
    NearBorder,
}

/// How near (in texels) a sample point may come to a texel border, on any
/// axis, before its nearest texel counts as unknown: 2⁻⁸, the sub-texel
/// precision RADV reports (`subTexelPrecisionBits` = 8). The hardware (and
/// a host driver) may round the scaled coordinate to that grid before
/// taking the floor, so a point closer than that to a border may land on
/// either side; points beyond 2¹⁵ texels (where the f32 scaling of a
/// normalized coordinate loses that precision) and NaN or infinite
/// coordinates are unknown too.
pub const NEAR_BORDER: f64 = 1.0 / 256.0;

/// The farthest sample point (in texels, either sign) the model places.
const FAR_POINT: f64 = 32768.0;

/// The nearest texel index of the scaled coordinate `u` (texels), or
/// [`ImageError::NearBorder`] when it is too near a border to be known.
fn nearest_index(u: f64) -> Result<i64, ImageError> {
    if !u.is_finite() || u.abs() > FAR_POINT || (u - u.round()).abs() < NEAR_BORDER {
        return Err(ImageError::NearBorder);
    }
    Ok(u.floor() as i64)
}

/// The image resource descriptor (T#) fields the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tsharp {
    /// 48-bit base address (256-byte aligned).
    pub base: u64,
    /// Unified format (9 bits).
    pub format: u16,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// The DEPTH field (depth − 1, last layer, or a custom pitch − 1).
    pub depth_field: u32,
    /// PITCH_MSB (gfx10.3).
    pub pitch_msb: bool,
    /// DST_SEL_X/Y/Z/W.
    pub dst_sel: [u8; 4],
    /// BASE_LEVEL.
    pub base_level: u8,
    /// LAST_LEVEL.
    pub last_level: u8,
    /// SW_MODE.
    pub sw_mode: u8,
    /// TYPE.
    pub ty: u8,
    /// BASE_ARRAY.
    pub base_array: u32,
}

impl Tsharp {
    /// Decode 4 or 8 descriptor words (missing words read as 0).
    pub fn decode(w: &[u32]) -> Tsharp {
        let g = |i: usize| w.get(i).copied().unwrap_or(0);
        let (w0, w1, w2, w3, w4) = (g(0), g(1), g(2), g(3), g(4));
        Tsharp {
            base: ((w0 as u64) << 8 | ((w1 & 0xff) as u64) << 40) & ADDR_MASK,
            format: ((w1 >> 20) & 0x1ff) as u16,
            width: ((w1 >> 30) | ((w2 & 0x3fff) << 2)) + 1,
            height: ((w2 >> 14) & 0xffff) + 1,
            depth_field: w4 & 0x1fff,
            pitch_msb: (w4 >> 13) & 1 != 0,
            dst_sel: [
                (w3 & 7) as u8,
                ((w3 >> 3) & 7) as u8,
                ((w3 >> 6) & 7) as u8,
                ((w3 >> 9) & 7) as u8,
            ],
            base_level: ((w3 >> 12) & 0xf) as u8,
            last_level: ((w3 >> 16) & 0xf) as u8,
            sw_mode: ((w3 >> 20) & 0x1f) as u8,
            ty: ((w3 >> 28) & 0xf) as u8,
            base_array: (w4 >> 16) & 0x1fff,
        }
    }

    /// Mip levels (LAST_LEVEL − BASE_LEVEL + 1, at least 1).
    pub fn levels(&self) -> u32 {
        (self.last_level as u32).saturating_sub(self.base_level as u32) + 1
    }

    /// Is this an array type (1D or 2D array)?
    fn is_array(&self) -> bool {
        matches!(self.ty, 12 | 13)
    }

    /// Depth (3D) or layer count (arrays, counted from layer 0), else 1.
    pub fn depth_or_layers(&self) -> u32 {
        match self.ty {
            10 | 11 | 12 | 13 | 15 => self.depth_field + 1,
            _ => 1,
        }
    }
}

/// The sampler descriptor (S#) fields the model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ssharp {
    /// CLAMP_X/Y/Z.
    pub clamp: [u8; 3],
    /// MAX_ANISO_RATIO.
    pub max_aniso: u8,
    /// DEPTH_COMPARE_FUNC.
    pub compare: u8,
    /// FORCE_UNNORMALIZED.
    pub force_unnorm: bool,
    /// FILTER_MODE (0 blend, 1 min, 2 max).
    pub filter_mode: u8,
    /// MIN_LOD, MAX_LOD (u4.8).
    pub min_lod: u16,
    /// MAX_LOD (u4.8).
    pub max_lod: u16,
    /// LOD_BIAS (s5.8, 14 bits).
    pub lod_bias: u16,
    /// XY_MAG_FILTER.
    pub mag_filter: u8,
    /// XY_MIN_FILTER.
    pub min_filter: u8,
    /// Z_FILTER.
    pub z_filter: u8,
    /// MIP_FILTER.
    pub mip_filter: u8,
    /// BORDER_COLOR_PTR.
    pub border_ptr: u16,
    /// BORDER_COLOR_TYPE.
    pub border_type: u8,
}

impl Ssharp {
    /// Decode four descriptor words.
    pub fn decode(w: [u32; 4]) -> Ssharp {
        Ssharp {
            clamp: [
                (w[0] & 7) as u8,
                ((w[0] >> 3) & 7) as u8,
                ((w[0] >> 6) & 7) as u8,
            ],
            max_aniso: ((w[0] >> 9) & 7) as u8,
            compare: ((w[0] >> 12) & 7) as u8,
            force_unnorm: (w[0] >> 15) & 1 != 0,
            filter_mode: ((w[0] >> 29) & 3) as u8,
            min_lod: (w[1] & 0xfff) as u16,
            max_lod: ((w[1] >> 12) & 0xfff) as u16,
            lod_bias: (w[2] & 0x3fff) as u16,
            mag_filter: ((w[2] >> 20) & 3) as u8,
            min_filter: ((w[2] >> 22) & 3) as u8,
            z_filter: ((w[2] >> 24) & 3) as u8,
            mip_filter: ((w[2] >> 26) & 3) as u8,
            border_ptr: (w[3] & 0xfff) as u16,
            border_type: ((w[3] >> 30) & 3) as u8,
        }
    }
}

/// Where a linear image's texels are.
#[derive(Clone, Copy, Debug)]
struct Layout {
    base: u64,
    format: Format,
    bpe: u32,
    pitch: u32,
    width: u32,
    height: u32,
    /// Slices addressable: 3D depth, or the array's last layer + 1.
    slices: u32,
    /// First valid array layer.
    first: u32,
    slice_bytes: u64,
}

impl Layout {
    fn of(t: &Tsharp) -> Result<Layout, ImageError> {
        if t.sw_mode != 0 {
            return Err(ImageError::Tiled(t.sw_mode));
        }
        if !matches!(t.ty, 8..=13) {
            return Err(ImageError::Type(t.ty));
        }
        if t.base_level != 0 {
            return Err(ImageError::Mip(t.base_level as u32));
        }
        let format = u8::try_from(t.format)
            .ok()
            .filter(|&f| f < 128)
            .and_then(Format::of)
            .ok_or(ImageError::Format(t.format))?;
        let bpe = format.bytes() as u32;
        if !matches!(bpe, 1 | 2 | 4 | 8 | 16) {
            return Err(ImageError::Format(t.format));
        }
        let height = if matches!(t.ty, 8 | 12) { 1 } else { t.height };
        let custom = matches!(t.ty, 8 | 9) && (t.depth_field != 0 || t.pitch_msb);
        let pitch = if custom {
            (t.depth_field | (t.pitch_msb as u32) << 13) + 1
        } else {
            let align = 256 / bpe;
            t.width.div_ceil(align) * align
        };
        let (slices, first) = match t.ty {
            10 => (t.depth_field + 1, 0),
            11..=13 => (t.depth_field + 1, t.base_array),
            _ => (1, 0),
        };
        Ok(Layout {
            base: t.base,
            format,
            bpe,
            pitch,
            width: t.width,
            height,
            slices,
            first,
            slice_bytes: pitch as u64 * bpe as u64 * height as u64,
        })
    }

    fn addr(&self, x: u32, y: u32, s: u32) -> u64 {
        (self.base
            + s as u64 * self.slice_bytes
            + (y as u64 * self.pitch as u64 + x as u64) * self.bpe as u64)
            & ADDR_MASK
    }
}

/// What the address VGPRs of a sample or gather hold, by opcode name.
#[derive(Clone, Copy, Debug, Default)]
struct SampleArgs {
    offset: bool,
    bias: bool,
    compare: bool,
}

fn sample_args(info: &MimgInfo) -> SampleArgs {
    let mut a = SampleArgs::default();
    let rest = info
        .name
        .strip_prefix("image_sample")
        .or_else(|| info.name.strip_prefix("image_gather4"))
        .unwrap_or("");
    for tok in rest.split('_') {
        match tok {
            "o" => a.offset = true,
            "b" => a.bias = true,
            "c" => a.compare = true,
            _ => {}
        }
    }
    a
}

/// One lane's result: a texel (four 32-bit values) or a reason it is not
/// modelled; `Ok(None)` = unmapped memory (undefined).
type LaneResult = Result<Option<[u32; 4]>, ImageError>;

/// The resolved operands of one image instruction.
struct Operands {
    data: Option<(usize, usize)>,
    addr: Vec<usize>,
    rsrc: u16,
    rwords: usize,
    samp: Option<u16>,
}

impl Exec<'_, '_> {
    /// Execute an image instruction (see the module documentation).
    pub(crate) fn image(&mut self, w: &mut Wave, inst: &Instruction) -> Result<(), InterpError> {
        let Some(info) = mimg::mimg_info(inst.opcode) else {
            return Err(self.unsupported("not an image instruction"));
        };
        let m = match inst.mods {
            Modifiers::Mimg(m) => m,
            _ => return Err(self.unsupported("image instruction without image fields")),
        };
        let ops = self.image_operands(inst, info)?;
        let exec = self.active(w)?;
        let writes = info.kind != MimgKind::Store;
        let forget = |w: &mut Wave, lanes: u64| {
            if let (true, Some((first, count))) = (writes, ops.data) {
                for lane in bits(lanes) {
                    for r in 0..count {
                        w.forget_v(first + r, lane);
                    }
                }
            }
        };
        if exec == 0 {
            return Ok(());
        }
        // Descriptors.
        let twords: Vec<S32> = (0..ops.rwords as u16)
            .map(|i| w.read_sreg(ops.rsrc + i))
            .collect();
        let swords: Option<Vec<S32>> = ops
            .samp
            .map(|s| (0..4u16).map(|i| w.read_sreg(s + i)).collect());
        let undefined = twords.iter().any(|x| !x.is_defined())
            || swords
                .as_ref()
                .is_some_and(|s| s.iter().any(|x| !x.is_defined()));
        if undefined {
            self.finding_addr(None, "image descriptor");
            forget(w, exec);
            return Ok(());
        }
        let tw: Vec<u32> = twords.iter().map(|x| x.v).collect();
        let t = Tsharp::decode(&tw);
        let s = swords.map(|s| Ssharp::decode([s[0].v, s[1].v, s[2].v, s[3].v]));
        if let Err(e) = self.image_form(info, &m, s.as_ref()) {
            self.unmodelled(e);
            forget(w, exec);
            return Ok(());
        }
        let layout = if info.kind == MimgKind::ResInfo {
            None
        } else if (t.ty == 11) != (m.dim == 3) {
            self.unmodelled(ImageError::Form(
                "a cube descriptor with other than cube addressing",
            ));
            forget(w, exec);
            return Ok(());
        } else {
            match Layout::of(&t) {
                Ok(l) => Some(l),
                Err(e) => {
                    self.unmodelled(e);
                    forget(w, exec);
                    return Ok(());
                }
            }
        };
        let mut first_error: Option<ImageError> = None;
        for lane in bits(exec) {
            // The lane's address dwords.
            let mut addr = [0u32; 16];
            let mut undefined_reg = None;
            for (i, &r) in ops.addr.iter().enumerate().take(16) {
                let (v, d) = w.read_v(r, lane);
                if d != 0xf {
                    undefined_reg = Some(r);
                }
                addr[i] = v;
            }
            if let Some(r) = undefined_reg {
                self.finding_addr(Some(lane as u8), &format!("image address v{r}"));
                forget(w, 1 << lane);
                continue;
            }
            let addr = &addr[..ops.addr.len().min(16)];
            let result: LaneResult = match info.kind {
                MimgKind::ResInfo => Ok(Some(resinfo(&t, addr[0]))),
                MimgKind::Load => layout
                    .as_ref()
                    .map_or(Err(ImageError::Form("a load")), |l| {
                        self.image_load(&t, l, info, &m, addr)
                    }),
                MimgKind::Store => {
                    if let Some(l) = layout.as_ref() {
                        if let Err(e) = self.image_store(w, &t, l, info, &m, addr, lane, &ops) {
                            first_error.get_or_insert(e);
                        }
                    }
                    continue;
                }
                MimgKind::Sample | MimgKind::Gather4 => match (layout.as_ref(), s.as_ref()) {
                    (Some(l), Some(s)) => self.image_sample(&t, l, s, info, &m, addr),
                    _ => Err(ImageError::Form("a sample without a sampler")),
                },
                _ => Err(ImageError::Form("this image instruction")),
            };
            let Some((first, count)) = ops.data else {
                continue;
            };
            match result {
                Ok(Some(v)) => {
                    // Pack the dmask's components (gather4: all four).
                    let mut k = 0usize;
                    let all = matches!(info.kind, MimgKind::Gather4);
                    for (c, &x) in v.iter().enumerate() {
                        if (all || m.dmask & (1 << c) != 0) && k < count {
                            w.write_v(first + k, lane, x, 0xf);
                            k += 1;
                        }
                    }
                    if (m.tfe || m.lwe) && k < count {
                        w.write_v(first + k, lane, 0, 0xf);
                    }
                }
                Ok(None) => forget(w, 1 << lane),
                Err(e) => {
                    first_error.get_or_insert(e);
                    forget(w, 1 << lane);
                }
            }
        }
        if let Some(e) = first_error {
            self.unmodelled(e);
        }
        Ok(())
    }

    fn unmodelled(&mut self, e: ImageError) {
        self.obs.find(Finding::Unmodelled {
            pc: self.pc,
            wave: self.wave_id,
            what: e.to_string(),
        });
    }

    fn image_operands(&self, inst: &Instruction, info: &MimgInfo) -> Result<Operands, InterpError> {
        let mut data = None;
        let mut addr = Vec::new();
        let mut regs = Vec::new();
        for (i, slot) in inst.operands.iter().enumerate() {
            match (i, slot.ty, slot.op) {
                (0, ValType::Data, op) => {
                    data = op.vgpr_range().map(|(f, c)| (f as usize, c as usize));
                }
                (_, ValType::Addr, op) if op.vgpr_range().is_some() => {
                    let (f, c) = op.vgpr_range().unwrap_or((0, 0));
                    if !slot.access.is_empty() {
                        addr.extend((0..c as usize).map(|k| f as usize + k));
                    }
                }
                (_, _, Operand::Reg { code, count }) => regs.push((code, count as usize)),
                _ => {}
            }
        }
        let Some(&(rsrc, rwords)) = regs.first() else {
            return Err(self.unsupported("image instruction without a resource"));
        };
        let samp = if info.sampler {
            Some(
                regs.get(1)
                    .map(|r| r.0)
                    .ok_or_else(|| self.unsupported("sampling instruction without a sampler"))?,
            )
        } else {
            None
        };
        Ok(Operands {
            data,
            addr,
            rsrc,
            rwords,
            samp,
        })
    }

    /// Refuse the instruction forms and samplers outside the model.
    fn image_form(
        &self,
        info: &MimgInfo,
        m: &MimgMods,
        s: Option<&Ssharp>,
    ) -> Result<(), ImageError> {
        if info.name.contains("_pck") {
            return Err(ImageError::Form("packed (_pck) image data"));
        }
        if m.a16 {
            return Err(ImageError::Form("16-bit addresses (a16)"));
        }
        // d16 stores are modelled (`image_store`); d16 results are not.
        if m.d16 && !matches!(info.kind, MimgKind::ResInfo | MimgKind::Store) {
            return Err(ImageError::Form("16-bit data (d16)"));
        }
        if info.g16 {
            return Err(ImageError::Form("16-bit derivatives"));
        }
        // MSAA addressing; cube addressing only for a sample (no
        // comparison, no offset).
        if info.kind != MimgKind::ResInfo && matches!(m.dim, 6 | 7) {
            return Err(ImageError::Form("cube and MSAA addressing"));
        }
        if info.kind != MimgKind::ResInfo && m.dim == 3 {
            let args = sample_args(info);
            if info.kind != MimgKind::Sample || args.compare || args.offset {
                return Err(ImageError::Form("cube addressing other than a sample"));
            }
        }
        if let Some(s) = s {
            if info.kind == MimgKind::Sample {
                if s.mag_filter != 0 || s.min_filter != 0 || s.max_aniso != 0 {
                    return Err(ImageError::Filter("bilinear or anisotropic"));
                }
                if s.z_filter == 2 || s.mip_filter == 2 {
                    return Err(ImageError::Filter("linear z or mip"));
                }
                if s.filter_mode != 0 {
                    return Err(ImageError::Filter("min/max reduction"));
                }
            }
            if sample_args(info).compare && info.kind == MimgKind::Sample && m.dmask != 1 {
                return Err(ImageError::Form("a depth comparison returning more than x"));
            }
        }
        Ok(())
    }

    /// Read and convert one texel (before DST_SEL); `None` when unmapped.
    fn texel(&mut self, l: &Layout, x: u32, y: u32, s: u32) -> Option<[u32; 4]> {
        let a = l.addr(x, y, s);
        let mut buf = [0u8; 16];
        let bytes = &mut buf[..l.bpe as usize];
        if !read_bytes(self.mem(), a, bytes) {
            self.obs.find(Finding::Unmapped {
                pc: self.pc,
                wave: self.wave_id,
                addr: a,
                len: l.bpe,
            });
            return None;
        }
        Some(l.format.convert(bytes))
    }

    fn image_load(
        &mut self,
        t: &Tsharp,
        l: &Layout,
        info: &MimgInfo,
        m: &MimgMods,
        addr: &[u32],
    ) -> LaneResult {
        let coords = mimg::dim_info(m.dim).coords as usize;
        let c = |i: usize| if i < coords { addr[i] } else { 0 };
        let mip = if info.lod { addr[coords] } else { 0 };
        let (x, y, s) = split_coords(t, m.dim, [c(0), c(1), c(2)]);
        if mip >= t.levels() || !in_range(l, x, y, s) {
            return Ok(Some([0; 4]));
        }
        if mip != 0 {
            return Err(ImageError::Mip(mip));
        }
        Ok(self
            .texel(l, x, y, s)
            .map(|v| select(v, t.dst_sel, l.format.one())))
    }

    #[allow(clippy::too_many_arguments)]
    fn image_store(
        &mut self,
        w: &Wave,
        t: &Tsharp,
        l: &Layout,
        info: &MimgInfo,
        m: &MimgMods,
        addr: &[u32],
        lane: usize,
        ops: &Operands,
    ) -> Result<(), ImageError> {
        let identity = (0..l.format.count).all(|i| t.dst_sel[i] == 4 + i as u8);
        if !identity {
            return Err(ImageError::Form("a store through a swizzled descriptor"));
        }
        let coords = mimg::dim_info(m.dim).coords as usize;
        let c = |i: usize| if i < coords { addr[i] } else { 0 };
        let mip = if info.lod { addr[coords] } else { 0 };
        let (x, y, s) = split_coords(t, m.dim, [c(0), c(1), c(2)]);
        if mip >= t.levels() || !in_range(l, x, y, s) {
            return Ok(());
        }
        if mip != 0 {
            return Err(ImageError::Mip(mip));
        }
        let Some((first, _)) = ops.data else {
            return Ok(());
        };
        if m.d16 && matches!(l.format.num, Num::Uint | Num::Sint) {
            return Err(ImageError::Form("16-bit integer image data (d16)"));
        }
        // The dmask's components, in order, from consecutive VGPRs; with
        // d16, two f16 components per VGPR (the first in the low half), each
        // widened exactly to f32 before the format conversion. A component
        // outside the dmask is written as 0: ACO leaves constant-zero
        // components out of a store's dmask (`imageStore(.., vec4(rgb,
        // 0.0))` of RADV's captures stores with dmask 0x7), relying on that.
        let mut vals = [0u32; 4];
        let mut defined = true;
        let mut k = 0usize;
        for (ci, v) in vals.iter_mut().enumerate() {
            if m.dmask & (1 << ci) != 0 {
                if m.d16 {
                    let (x, d) = w.read_v(first + k / 2, lane);
                    let hi = k % 2 == 1;
                    *v = crate::float::f16_to_f32((x >> (16 * hi as u32)) as u16);
                    let bytes = if hi { 0xc } else { 0x3 };
                    defined &= d & bytes == bytes;
                } else {
                    let (x, d) = w.read_v(first + k, lane);
                    *v = x;
                    defined &= d == 0xf;
                }
                k += 1;
            }
        }
        let packed = encode(&l.format, vals).ok_or(ImageError::Format(t.format))?;
        let a = l.addr(x, y, s);
        let bytes = l.bpe as usize;
        let mut at = 0usize;
        while at < bytes {
            let len = (bytes - at).min(4);
            let value = (packed >> (8 * at)) as u32;
            let value = if len == 4 {
                value
            } else {
                value & ((1u32 << (8 * len)) - 1)
            };
            self.obs.stores.push(crate::record::Store {
                pc: self.pc,
                wave: self.wave_id,
                lane: lane as u8,
                addr: (a + at as u64) & ADDR_MASK,
                len: len as u8,
                value,
                defined,
                order_free: false,
            });
            at += 4;
        }
        Ok(())
    }

    fn image_sample(
        &mut self,
        t: &Tsharp,
        l: &Layout,
        s: &Ssharp,
        info: &MimgInfo,
        m: &MimgMods,
        addr: &[u32],
    ) -> LaneResult {
        let args = sample_args(info);
        let gather = info.kind == MimgKind::Gather4;
        if t.levels() > 1 && !info.name.contains("_lz") {
            return Err(ImageError::Mip(1));
        }
        let mut i = 0usize;
        let offset = if args.offset {
            i += 1;
            addr[i - 1]
        } else {
            0
        };
        if args.bias {
            i += 1;
        }
        let dref = if args.compare {
            i += 1;
            Some(f32::from_bits(addr[i - 1]))
        } else {
            None
        };
        if info.gradients {
            i += mimg::dim_info(m.dim).gradients as usize;
        }
        let coords = mimg::dim_info(m.dim).coords as usize;
        let f = |k: usize| {
            if k < coords {
                f32::from_bits(addr[i + k])
            } else {
                0.0
            }
        };
        let unnorm = m.unorm || s.force_unnorm;
        // Offsets: 6-bit signed, x in 5:0, y in 13:8, z in 21:16.
        let off = |k: u32| (((offset >> (8 * k)) & 0x3f) as i32) << 26 >> 26;
        let array = t.is_array();
        // The spatial axes: (coordinate, extent, clamp mode, offset).
        let (spatial, layer) = match m.dim {
            0 => (1usize, None),
            1 => (2, None),
            2 => (3, None),
            4 => (1, Some(f(1))),
            5 => (2, Some(f(2))),
            3 => return self.cube_sample(t, l, s, addr, i),
            _ => return Err(ImageError::Form("cube and MSAA addressing")),
        };
        let extents = [l.width, l.height, if array { 1 } else { l.slices }];
        let slice = match layer {
            Some(r) if array => {
                // Layers round to nearest: their borders are at k + ½.
                if r.is_finite() && (r as f64 - r.floor() as f64 - 0.5).abs() < NEAR_BORDER {
                    return Err(ImageError::NearBorder);
                }
                let last = l.slices.saturating_sub(1);
                let v = r.round_ties_even();
                let v = if v.is_nan() || v < 0.0 { 0.0 } else { v };
                (v.min(u32::MAX as f32) as u32).clamp(l.first.min(last), last)
            }
            _ => 0,
        };
        let mut cref = |x: u32, y: u32, z: u32| -> Result<Option<[u32; 4]>, ImageError> {
            let (sl, zz) = if array { (slice, 0) } else { (z, z) };
            let v = self.texel(l, x, y, if array { sl } else { zz });
            Ok(v.map(|v| select(v, t.dst_sel, l.format.one())))
        };
        let cmp = |texel: u32| -> u32 {
            let Some(r) = dref else { return texel };
            let r = if l.format.num == Num::Unorm {
                r.clamp(0.0, 1.0)
            } else {
                r
            };
            let d = f32::from_bits(texel);
            let pass = match s.compare {
                0 => false,
                1 => r < d,
                2 => r == d,
                3 => r <= d,
                4 => r > d,
                5 => r != d,
                6 => r >= d,
                _ => true,
            };
            if pass {
                1.0f32.to_bits()
            } else {
                0
            }
        };
        if !gather {
            let mut idx = [0u32; 3];
            for a in 0..spatial {
                let n = extents[a];
                let u = f(a) as f64;
                let u = if unnorm { u } else { u * n as f64 };
                let i0 = nearest_index(u)? + off(a as u32) as i64;
                idx[a] = wrap(i0, n, s.clamp[a])?;
            }
            let Some(v) = cref(idx[0], idx[1], idx[2])? else {
                return Ok(None);
            };
            return Ok(Some(if dref.is_some() {
                [cmp(v[0]), 0, 0, 0]
            } else {
                v
            }));
        }
        // Gather: the 2×2 footprint in the first two axes.
        if spatial > 2 {
            return Err(ImageError::Form("gather on a 3D image"));
        }
        let comp = match m.dmask & 0xf {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            _ => return Err(ImageError::Form("a gather of several components")),
        };
        let mut lo = [0u32; 2];
        let mut hi = [0u32; 2];
        for a in 0..2 {
            if a >= spatial {
                continue;
            }
            let n = extents[a];
            let u = f(a) as f64;
            let u = if unnorm { u } else { u * n as f64 } - 0.5;
            let i0 = nearest_index(u)? + off(a as u32) as i64;
            lo[a] = wrap(i0, n, s.clamp[a])?;
            hi[a] = wrap(i0 + 1, n, s.clamp[a])?;
        }
        let mut out = [0u32; 4];
        for (k, (x, y)) in [
            (lo[0], hi[1]),
            (hi[0], hi[1]),
            (hi[0], lo[1]),
            (lo[0], lo[1]),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(v) = cref(x, y, 0)? else {
                return Ok(None);
            };
            out[k] = if dref.is_some() { cmp(v[0]) } else { v[comp] };
        }
        Ok(Some(out))
    }
}

impl Exec<'_, '_> {
    /// A cube sample: the address holds the face coordinates as ACO makes
    /// them from `v_cube*` (`sc/|ma| + 1.5`, `tc/|ma| + 1.5`, both in
    /// [1, 2] on the face) and the face id, an exact integer 0..=5 (a cube
    /// array's `8·layer + face` is not modelled). The face is layer `face`
    /// of the cube's six 2D layers, sampled at `(s − 1, t − 1)` as a 2D
    /// image; a point outside its face (where the hardware would go to a
    /// neighbouring face) is not modelled, and points within
    /// [`NEAR_BORDER`] of a texel border are not compared, as on any
    /// image.
    fn cube_sample(
        &mut self,
        t: &Tsharp,
        l: &Layout,
        s: &Ssharp,
        addr: &[u32],
        at: usize,
    ) -> LaneResult {
        if s.force_unnorm {
            return Err(ImageError::Form("unnormalized cube coordinates"));
        }
        let f = |k: usize| f32::from_bits(addr.get(at + k).copied().unwrap_or(0));
        let face = f(2);
        if !(0.0..6.0).contains(&face) || face.fract() != 0.0 {
            return Err(ImageError::Form("a cube face id other than 0..=5"));
        }
        let layer = l.first + face as u32;
        if layer >= l.slices {
            return Err(ImageError::Form("a cube face past the descriptor's layers"));
        }
        let mut idx = [0u32; 2];
        for (a, n) in [l.width, l.height].into_iter().enumerate() {
            // s − 1 is exact for s in [1/2, 2] (Sterbenz).
            let u = (f(a) as f64 - 1.0) * n as f64;
            if !(0.0..=n as f64).contains(&u) {
                return Err(ImageError::Form("a cube coordinate outside its face"));
            }
            let i = nearest_index(u)?;
            idx[a] = u32::try_from(i).map_err(|_| ImageError::NearBorder)?;
        }
        Ok(self
            .texel(l, idx[0], idx[1], layer)
            .map(|v| select(v, t.dst_sel, l.format.one())))
    }
}

/// Apply DST_SEL (the `testing` fault switch can make image reads ignore
/// it).
fn select(v: [u32; 4], sel: [u8; 4], one: u32) -> [u32; 4] {
    #[cfg(feature = "testing")]
    if crate::faults::image_dst_sel_ignored() {
        return dst_sel(v, [4, 5, 6, 7], one);
    }
    dst_sel(v, sel, one)
}

/// Integer coordinates by the instruction's dim: (x, y, slice or z).
fn split_coords(t: &Tsharp, dim: u8, c: [u32; 3]) -> (u32, u32, u32) {
    let _ = t;
    match dim {
        0 => (c[0], 0, 0),
        4 => (c[0], 0, c[1]),
        1 => (c[0], c[1], 0),
        _ => (c[0], c[1], c[2]),
    }
}

fn in_range(l: &Layout, x: u32, y: u32, s: u32) -> bool {
    x < l.width && y < l.height && s < l.slices && s >= l.first
}

/// Apply a clamp mode to a texel index on an axis of `n` texels.
fn wrap(i: i64, n: u32, mode: u8) -> Result<u32, ImageError> {
    let n = n.max(1) as i64;
    let v = match mode {
        0 => i.rem_euclid(n),
        1 => {
            let k = i.rem_euclid(2 * n);
            if k >= n {
                2 * n - 1 - k
            } else {
                k
            }
        }
        2 => i.clamp(0, n - 1),
        3 => {
            let k = if i < 0 { -1 - i } else { i };
            k.min(n - 1)
        }
        _ => {
            if i < 0 || i >= n {
                return Err(ImageError::Border(mode));
            }
            i
        }
    };
    Ok(v as u32)
}

/// `image_get_resinfo` for the mip level `mip`: width, height, depth or
/// layers, levels (0 past the last level).
fn resinfo(t: &Tsharp, mip: u32) -> [u32; 4] {
    let levels = t.levels();
    if mip >= levels {
        return [0; 4];
    }
    let sh = |x: u32| (x >> mip).max(1);
    match t.ty {
        8 => [sh(t.width), 1, 1, levels],
        12 => [sh(t.width), t.depth_or_layers(), 1, levels],
        10 => [sh(t.width), sh(t.height), sh(t.depth_field + 1), levels],
        13 | 11 | 15 => [sh(t.width), sh(t.height), t.depth_or_layers(), levels],
        _ => [sh(t.width), sh(t.height), 1, levels],
    }
}

/// Pack four 32-bit values into a format's element (little-endian bits).
/// `None` for a conversion the model does not cover.
fn encode(f: &Format, v: [u32; 4]) -> Option<u128> {
    let mut out = 0u128;
    let mut pos = 0u32;
    for (i, &x) in v.iter().enumerate().take(f.count) {
        let n = f.bits[i] as u32;
        let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let bits: u64 = match f.num {
            Num::Uint => (x as u64).min(mask),
            Num::Sint => {
                let lo = -(1i64 << (n - 1));
                let hi = (1i64 << (n - 1)) - 1;
                ((x as i32 as i64).clamp(lo, hi) as u64) & mask
            }
            Num::Float if n == 32 => x as u64,
            Num::Float if n == 16 => crate::float::f32_to_f16(x, false) as u64,
            Num::Unorm => {
                let fv = f32::from_bits(x);
                let fv = if fv.is_nan() { 0.0 } else { fv.clamp(0.0, 1.0) };
                ((fv as f64) * mask as f64).round_ties_even() as u64
            }
            Num::Snorm => {
                let fv = f32::from_bits(x);
                let fv = if fv.is_nan() {
                    0.0
                } else {
                    fv.clamp(-1.0, 1.0)
                };
                let m = ((1u64 << (n - 1)) - 1) as f64;
                (((fv as f64) * m).round_ties_even() as i64 as u64) & mask
            }
            _ => return None,
        };
        out |= (bits as u128) << pos;
        pos += n;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A linear 2D T# at `base` of `w`×`h` texels in `format`.
    fn tsharp(base: u64, format: u16, w: u32, h: u32, sel: [u8; 4]) -> [u32; 8] {
        [
            (base >> 8) as u32,
            ((base >> 40) as u32 & 0xff) | (format as u32) << 20 | ((w - 1) & 3) << 30,
            ((w - 1) >> 2) | (h - 1) << 14,
            sel[0] as u32
                | (sel[1] as u32) << 3
                | (sel[2] as u32) << 6
                | (sel[3] as u32) << 9
                | 9 << 28,
            0,
            0,
            0,
            0,
        ]
    }

    #[test]
    fn tsharp_fields_decode_from_the_gfx10_layout() {
        let w = tsharp(0x12_3456_7800, 56, 37, 19, [6, 5, 4, 7]);
        let t = Tsharp::decode(&w);
        assert_eq!(t.base, 0x12_3456_7800);
        assert_eq!((t.format, t.width, t.height, t.ty), (56, 37, 19, 9));
        assert_eq!(t.dst_sel, [6, 5, 4, 7]);
        assert_eq!((t.sw_mode, t.levels()), (0, 1));
        let l = Layout::of(&t).unwrap();
        assert_eq!(
            (l.bpe, l.pitch),
            (4, 64),
            "pitch: the width aligned to 256 bytes"
        );
        let mut tiled = w;
        tiled[3] |= 9 << 20;
        assert_eq!(
            Layout::of(&Tsharp::decode(&tiled)).unwrap_err(),
            ImageError::Tiled(9)
        );
    }

    #[test]
    fn ssharp_fields_decode_from_the_gfx10_layout() {
        let s = Ssharp::decode([
            2 | 1 << 3 | 3 << 12 | 1 << 15,
            0,
            1 << 20 | 1 << 26,
            2 << 30,
        ]);
        assert_eq!(s.clamp, [2, 1, 0]);
        assert_eq!((s.compare, s.force_unnorm), (3, true));
        assert_eq!((s.mag_filter, s.min_filter, s.mip_filter), (1, 0, 1));
        assert_eq!(s.border_type, 2);
    }

    #[test]
    fn clamp_modes_wrap_mirror_and_clamp() {
        assert_eq!(wrap(-1, 4, 0), Ok(3));
        assert_eq!(wrap(5, 4, 1), Ok(2));
        assert_eq!(wrap(-1, 4, 1), Ok(0));
        assert_eq!(wrap(9, 4, 2), Ok(3));
        assert_eq!(wrap(-2, 4, 3), Ok(1));
        assert_eq!(wrap(4, 4, 6), Err(ImageError::Border(6)));
    }

    #[test]
    fn stores_encode_what_loads_decode() {
        let f = Format::of(56).unwrap(); // 8_8_8_8_UNORM
        let v = [0.0f32, 1.0, 0.5, 0.25].map(f32::to_bits);
        let e = encode(&f, v).unwrap();
        assert_eq!(e, 0x40_80_ff_00);
        let f = Format::of(22).unwrap(); // 32_FLOAT? (whatever 22 is, it round-trips)
        let bytes = (encode(&f, [7, 0, 0, 0]).unwrap() as u32).to_le_bytes();
        assert_eq!(f.convert(&bytes[..f.bytes()])[0], 7);
    }
}
