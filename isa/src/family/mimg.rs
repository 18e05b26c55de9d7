//! MIMG facts: the modifier struct, the table row types the generator
//! fills in, and how many data and address VGPRs an image instruction
//! really touches.
//!
//! Two widths exist for vdata and vaddr: what the hardware reads or writes
//! ([`data_dwords`], [`addr_dwords`]; these are the operand counts of a
//! decoded [`Instruction`]), and what LLVM prints. They agree for every
//! well-formed encoding. LLVM falls back to its default variant's widths
//! when no variant of the right size exists or the registers would run past
//! `v255`; the formatter reproduces that, the operands keep the hardware's
//! view (clamped at `v255`).

use super::Text;
use crate::inst::{Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::Implicit;
use crate::tables;

/// MIMG fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MimgMods {
    /// Component mask (which of x, y, z, w are loaded/stored/returned).
    pub dmask: u8,
    /// Dimension (0..=7, see [`dim_info`]).
    pub dim: u8,
    /// Unnormalized coordinates.
    pub unorm: bool,
    /// Globally coherent (atomics: return the pre-op value).
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// The resource descriptor is 128 bits (4 SGPRs) instead of 256.
    pub r128: bool,
    /// Texture fail enable: one more VGPR receives a status dword.
    pub tfe: bool,
    /// LOD warning enable (also returns the status dword).
    pub lwe: bool,
    /// 16-bit addresses, packed two per VGPR.
    pub a16: bool,
    /// 16-bit data, packed two per VGPR.
    pub d16: bool,
    /// NSA: the number of extra address dwords (0 = contiguous vaddr).
    pub nsa_dwords: u8,
}

/// The access class of an image opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MimgKind {
    /// `image_load*`: memory to VGPRs.
    Load,
    /// `image_store*`: VGPRs to memory.
    Store,
    /// `image_atomic_*`: read-modify-write; returns data with `glc`.
    Atomic,
    /// `image_sample*`: filtered fetch with a sampler.
    Sample,
    /// `image_gather4*`: four texels of one component.
    Gather4,
    /// `image_bvh*_intersect_ray` (gfx1013, gfx1030): reads BVH nodes,
    /// returns four dwords.
    Bvh,
    /// `image_get_resinfo`: descriptor query, no memory access.
    ResInfo,
    /// `image_get_lod`: LOD computation, no memory access.
    GetLod,
    /// `image_msaa_load`: one component of the samples of a fragment.
    MsaaLoad,
}

/// One MIMG opcode (a row of the generated table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// Access class.
    pub kind: MimgKind,
    /// Takes a sampler descriptor (`ssamp`).
    pub sampler: bool,
    /// Accepts `d16`.
    pub d16: bool,
    /// Address dwords before the coordinates (offset, bias, z-compare).
    pub extra: u8,
    /// Takes coordinates.
    pub coords: bool,
    /// One more address component after the coordinates (lod, clamp, mip).
    pub lod: bool,
    /// Takes derivatives.
    pub gradients: bool,
    /// Derivatives are 16-bit (`_g16`).
    pub g16: bool,
    /// Atomic with data and compare value (`cmpswap`).
    pub x2: bool,
    /// LLVM: address dwords of the non-NSA variants (bit n = n dwords).
    pub addr: u32,
    /// LLVM: the non-NSA default variant's address dwords.
    pub a0: u8,
    /// LLVM: address dwords of the NSA variants (bit n).
    pub addr_nsa: u32,
    /// LLVM: addresses of the NSA variant decoded for 1, 2, 3 NSA dwords
    /// (0 = not decodable).
    pub nsa_dec: [u8; 3],
    /// LLVM: data registers of the variant for a computed data size
    /// (index 0..=5; 0 = no variant).
    pub data: [u8; 6],
    /// LLVM: the default variant's data size (index into `data`).
    pub d0: u8,
    /// Ray tracing: address dwords without and with a16.
    pub bvh: [u8; 2],
}

/// One `dim` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgDim {
    /// Name as printed after `dim:SQ_RSRC_IMG_`.
    pub name: Text,
    /// Coordinates (including array slice, cube face, fragment id).
    pub coords: u8,
    /// Derivatives (two per spatial coordinate).
    pub gradients: u8,
}

/// The table row of an MIMG opcode.
pub fn mimg_info(op: Opcode) -> Option<&'static MimgInfo> {
    if op.space() != OpSpace::Mimg {
        return None;
    }
    tables::mimg::MIMG.get(op.index() as usize)?.as_ref()
}

/// The facts of a `dim` value (the low three bits are used).
pub fn dim_info(dim: u8) -> &'static MimgDim {
    &tables::mimg::DIMS[(dim & 7) as usize]
}

/// Address dwords the instruction reads (without NSA rounding): extra
/// arguments, coordinates (packed in pairs with a16), lod/clamp/mip, and
/// derivatives (packed in pairs by `_g16`); the fixed counts of the
/// ray-tracing opcodes.
pub fn addr_dwords(info: &MimgInfo, m: &MimgMods) -> u32 {
    if info.kind == MimgKind::Bvh {
        return info.bvh[m.a16 as usize] as u32;
    }
    let dim = dim_info(m.dim);
    let comps = if info.coords { dim.coords as u32 } else { 0 } + info.lod as u32;
    let mut w = info.extra as u32 + if m.a16 { comps.div_ceil(2) } else { comps };
    // Derivatives are packed in pairs only by the `_g16` opcodes (a16 alone
    // does not pack them on gfx10.3-class hardware, and LLVM treats every
    // gfx10 target that way).
    if info.gradients {
        let g = dim.gradients as u32;
        w += if info.g16 { (g / 2).div_ceil(2) * 2 } else { g };
    }
    w
}

/// Data dwords the instruction reads or writes in vdata: one per dmask
/// component (four for gather4 and `image_msaa_load`, whatever dmask says),
/// halved and rounded up with d16, plus one status dword with tfe (or lwe,
/// for the opcodes that return data). Ray tracing: four.
///
/// `image_msaa_load` is counted as four components: the hardware returns
/// one component of up to four samples; fewer would be unsound if it does.
pub fn data_dwords(info: &MimgInfo, m: &MimgMods) -> u32 {
    let comps = match info.kind {
        MimgKind::Bvh => return 4,
        MimgKind::Gather4 | MimgKind::MsaaLoad => 4,
        _ => (m.dmask & 0xf).count_ones().max(1),
    };
    let mut n = if m.d16 && info.d16 {
        comps.div_ceil(2)
    } else {
        comps
    };
    let returns = !matches!(info.kind, MimgKind::Store);
    if m.tfe || (m.lwe && returns) {
        n += 1;
    }
    n
}

/// The address count of the variant LLVM decodes before adjusting it.
pub(crate) fn decoded_addrs(info: &MimgInfo, m: &MimgMods) -> u32 {
    match m.nsa_dwords {
        0 => info.a0 as u32,
        n => info.nsa_dec.get(n as usize - 1).copied().unwrap_or(0) as u32,
    }
}

/// What LLVM prints: (vdata registers, address registers).
pub(crate) fn llvm_shape(info: &MimgInfo, m: &MimgMods, vdata: u32, vaddr0: u32) -> (u32, u32) {
    if info.kind == MimgKind::Bvh {
        return (4, info.bvh[m.a16 as usize] as u32);
    }
    let nsa = m.nsa_dwords != 0;
    let va = decoded_addrs(info, m);
    let d0 = info.data.get(info.d0 as usize).copied().unwrap_or(0) as u32;
    let keep = (d0, va);
    let mut asz = addr_dwords(info, m);
    if !nsa && asz > 12 {
        asz = 16;
    }
    if nsa && asz > va {
        return keep;
    }
    let mut ds = if info.kind == MimgKind::Gather4 {
        4
    } else {
        (m.dmask & 0xf).count_ones().max(1)
    };
    if m.d16 && info.d16 {
        ds = ds.div_ceil(2);
    }
    ds += m.tfe as u32;
    if ds == info.d0 as u32 && asz == va {
        return keep;
    }
    let avail = if nsa { info.addr_nsa } else { info.addr };
    let dw = info.data.get(ds as usize).copied().unwrap_or(0) as u32;
    if dw == 0 || avail & (1 << asz) == 0 || vdata + dw > 256 || (!nsa && vaddr0 + asz > 256) {
        return keep;
    }
    (dw, asz)
}

/// Implicit accesses: memory for everything but the descriptor queries.
pub(crate) fn implicit(inst: &Instruction) -> Implicit {
    match mimg_info(inst.opcode).map(|i| i.kind) {
        Some(MimgKind::ResInfo) | Some(MimgKind::GetLod) | None => Implicit::empty(),
        Some(_) => Implicit::MEMORY,
    }
}

/// The modifiers of an MIMG instruction (defaults for other families).
pub(crate) fn mods_of(inst: &Instruction) -> MimgMods {
    match inst.mods {
        Modifiers::Mimg(m) => m,
        _ => MimgMods::default(),
    }
}
