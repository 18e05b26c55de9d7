//! MUBUF/MTBUF facts: the modifier struct, the table row types the
//! generator fills in, and what a buffer access touches in memory.
//!
//! The analysis crates read [`BufMods`] for the addressing fields and call
//! [`access`] (or [`access_bytes`]) to learn how many bytes per lane an
//! instruction reads or writes, starting at
//! `base + (idxen ? index * stride : 0) + (offen ? vgpr : 0) + soffset + offset`.

use super::Text;
use crate::inst::{Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::Implicit;
use crate::tables;

/// MUBUF and MTBUF fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufMods {
    /// 12-bit unsigned immediate byte offset.
    pub offset: u16,
    /// The VGPR address supplies a byte offset (the second VGPR when
    /// `idxen` is also set).
    pub offen: bool,
    /// The VGPR address supplies a record index (the first VGPR).
    pub idxen: bool,
    /// Globally coherent. For atomics: return the pre-op value into vdata.
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// MUBUF only: load into LDS (at `M0` + lane offset) instead of VGPRs.
    pub lds: bool,
    /// Texture fail enable: one more VGPR receives a status dword.
    pub tfe: bool,
    /// MTBUF: the 7-bit unified buffer format (`BUF_FMT_*`). Zero for MUBUF.
    pub format: u8,
}

/// What a buffer opcode does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufKind {
    /// Memory to VGPRs (or to LDS with the `lds` bit).
    Load,
    /// VGPRs to memory.
    Store,
    /// Read-modify-write of memory; returns the old value when `glc` is set.
    Atomic,
    /// Cache invalidation (`buffer_gl0_inv`, `buffer_gl1_inv`); no operands.
    Invalidate,
}

/// How a load fills its data VGPRs (what survives of the old value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum D16 {
    /// Whole dwords are written.
    No,
    /// 16-bit results packed two per dword (`*_format_d16_*`); an odd
    /// component count leaves the high half of the last dword untouched.
    Packed,
    /// The low half of the dword is written, the high half kept
    /// (`buffer_load_ubyte_d16`, `buffer_load_short_d16`).
    Lo,
    /// The high half of the dword is written, the low half kept
    /// (`*_d16_hi`).
    Hi,
}

/// One MUBUF opcode (a row of the generated table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MubufInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// Load, store, atomic or invalidate.
    pub kind: BufKind,
    /// VGPRs of vdata without `tfe` (atomics: including the compare value).
    pub vdata: u8,
    /// The `lds` bit is accepted (load to LDS).
    pub lds_ok: bool,
    /// The `tfe` bit is accepted.
    pub tfe_ok: bool,
    /// The `dlc` bit is accepted.
    pub dlc_ok: bool,
    /// Bytes per lane in memory; 0 for `*_format_*` (the format comes from
    /// the resource descriptor).
    pub mem_bytes: u8,
    /// Components of a `*_format_*` opcode (x = 1 ... xyzw = 4), else 0.
    pub components: u8,
    /// 16-bit data layout in the VGPRs.
    pub d16: D16,
}

/// One MTBUF opcode (a row of the generated table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MtbufInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]`.
    pub targets: u8,
    /// Load or store.
    pub kind: BufKind,
    /// VGPRs of vdata.
    pub vdata: u8,
    /// Components (x = 1 ... xyzw = 4).
    pub components: u8,
    /// 16-bit data layout in the VGPRs.
    pub d16: D16,
}

/// The table row of a MUBUF opcode.
pub fn mubuf_info(op: Opcode) -> Option<&'static MubufInfo> {
    if op.space() != OpSpace::Mubuf {
        return None;
    }
    tables::mubuf::MUBUF.get(op.index() as usize)?.as_ref()
}

/// The table row of an MTBUF opcode.
pub fn mtbuf_info(op: Opcode) -> Option<&'static MtbufInfo> {
    if op.space() != OpSpace::Mtbuf {
        return None;
    }
    tables::mtbuf::MTBUF.get(op.index() as usize)?.as_ref()
}

/// The name LLVM prints for a unified buffer format (`BUF_FMT_32_FLOAT`),
/// or `None` for the numbers it prints as plain integers (78..=127).
pub fn format_name(format: u8) -> Option<&'static str> {
    tables::mtbuf::FORMAT_NAMES
        .get(format as usize)
        .copied()
        .flatten()
}

/// The format LLVM omits when printing (`BUF_FMT_8_UNORM`, the default).
pub const DEFAULT_FORMAT: u8 = 1;

/// Bytes of one element of a gfx10 unified buffer format (all its
/// components together), or `None` for `BUF_FMT_INVALID` (0) and the
/// reserved values (78..=127).
///
/// | formats | bytes |
/// |---|---|
/// | 1..=6 (`8_*`) | 1 |
/// | 7..=19 (`16_*`, `8_8_*`) | 2 |
/// | 20..=61 (`32_*`, `16_16_*`, `10_11_11_*`, `11_11_10_*`, `10_10_10_2_*`, `2_10_10_10_*`, `8_8_8_8_*`) | 4 |
/// | 62..=71 (`32_32_*`, `16_16_16_16_*`) | 8 |
/// | 72..=74 (`32_32_32_*`) | 12 |
/// | 75..=77 (`32_32_32_32_*`) | 16 |
pub fn format_bytes(format: u8) -> Option<u32> {
    match tables::mtbuf::FORMAT_BYTES.get(format as usize) {
        Some(&b) if b > 0 => Some(b as u32),
        _ => None,
    }
}

/// The memory side of one buffer instruction, per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufAccess {
    /// Load, store, atomic or invalidate.
    pub kind: BufKind,
    /// Bytes read or written per lane, starting at the lane's address,
    /// when the instruction alone decides it. `None` for MUBUF
    /// `*_format_*` (the descriptor's format decides) and for MTBUF with an
    /// invalid or reserved format.
    pub bytes: Option<u32>,
    /// An upper bound of `bytes` that always holds (16 for format accesses:
    /// no gfx10 buffer format is wider). 0 for invalidations.
    pub max_bytes: u32,
    /// The access writes LDS (MUBUF `lds` loads).
    pub to_lds: bool,
    /// The instruction returns data to VGPRs (loads without `lds`, atomics
    /// with `glc`).
    pub returns: bool,
}

/// How many bytes per lane `op` reads or writes in memory (see
/// [`BufAccess::bytes`]). Convenience for [`access`].
///
/// - `buffer_load_ubyte`/`sbyte`/`store_byte`/`*_byte_d16*`: 1;
///   `ushort`/`sshort`/`short*`: 2; `dword`: 4, `x2`: 8, `x3`: 12, `x4`: 16.
/// - Atomics: 4, or 8 for `_x2` (`cmpswap` compares and swaps one dword;
///   its vdata holds two).
/// - `tbuffer_*`: the element size of the instruction's format, whatever
///   the component count of the opcode: a fetch with fewer components than
///   the format reads (at most) the element, one with more components fills
///   the missing ones with defaults (see [`format_bytes`]). This is an upper
///   bound for opcodes with fewer components than the format.
/// - `buffer_*_format_*`: `None` (the resource descriptor holds the format;
///   use [`format_bytes`] on it; at most 16).
pub fn access_bytes(op: Opcode, mods: &BufMods) -> Option<u32> {
    access(op, mods)?.bytes
}

/// The memory access of a buffer instruction, from its opcode and fields.
/// `None` for opcodes that are not MUBUF/MTBUF.
pub fn access(op: Opcode, mods: &BufMods) -> Option<BufAccess> {
    if let Some(i) = mubuf_info(op) {
        let (bytes, max) = match (i.kind, i.mem_bytes) {
            (BufKind::Invalidate, _) => (Some(0), 0),
            (_, 0) => (None, 16),
            (_, b) => (Some(b as u32), b as u32),
        };
        let returns = match i.kind {
            BufKind::Load => !mods.lds,
            BufKind::Atomic => mods.glc,
            _ => false,
        };
        return Some(BufAccess {
            kind: i.kind,
            bytes,
            max_bytes: max,
            to_lds: mods.lds && i.kind == BufKind::Load,
            returns,
        });
    }
    let i = mtbuf_info(op)?;
    let bytes = format_bytes(mods.format);
    Some(BufAccess {
        kind: i.kind,
        bytes,
        max_bytes: bytes.unwrap_or(16),
        to_lds: false,
        returns: i.kind == BufKind::Load,
    })
}

/// Implicit accesses: every buffer instruction touches memory; `lds`
/// loads also write LDS at an address taken from `M0`.
pub(crate) fn implicit(inst: &Instruction) -> Implicit {
    let mods = match inst.mods {
        Modifiers::Buf(m) => m,
        _ => BufMods::default(),
    };
    let mut f = Implicit::MEMORY;
    if mods.lds {
        f |= Implicit::LDS | Implicit::READ_M0;
    }
    f
}
