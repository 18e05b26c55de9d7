//! DS (local and global data share) facts: the table row types the
//! generator fills in, the instruction modifiers, and address offsets.

use super::Text;
use crate::inst::{Instruction, Modifiers, OpSpace};
use crate::operand::{Access, Implicit, ValType};
use crate::tables;

/// Which encoding field an operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsFld {
    /// `addr` (bits 39:32): the LDS/GDS byte address (for the GWS opcodes,
    /// their data operand).
    Addr,
    /// `data0` (bits 47:40).
    Data0,
    /// `data1` (bits 55:48).
    Data1,
    /// `vdst` (bits 63:56).
    Vdst,
}

impl DsFld {
    /// Bit position of the field in the second dword.
    pub const fn shift(self) -> u32 {
        match self {
            DsFld::Addr => 0,
            DsFld::Data0 => 8,
            DsFld::Data1 => 16,
            DsFld::Vdst => 24,
        }
    }
}

/// One operand of a DS opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsSlot {
    /// The field.
    pub fld: DsFld,
    /// Width in VGPRs.
    pub width: u8,
    /// Read/write (`vdst` of the `_d16` loads is a partial write).
    pub access: Access,
    /// Value type.
    pub ty: ValType,
}

/// How an opcode uses the `gds` bit (bit 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsGds {
    /// Either value; printed as ` gds` when set.
    Flag,
    /// Must be set (GWS opcodes, `ds_ordered_count`); always printed.
    Always,
    /// Must be clear.
    Never,
    /// Ignored by LLVM (a don't-care bit); never printed.
    Ignored,
}

/// How an opcode uses the two offset bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsOffset {
    /// No offset: both bytes must be zero (or are don't-care, see
    /// [`DsInfo::dont_care`]).
    None,
    /// One 16-bit byte offset, `offset:N`.
    Single,
    /// Two 8-bit offsets, `offset0:A offset1:B`, in units of
    /// [`DsInfo::stride`] bytes.
    Pair,
    /// `ds_swizzle_b32`'s 16-bit swizzle pattern.
    Swizzle,
}

/// A DS opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// Use of the `gds` bit.
    pub gds: DsGds,
    /// Use of the offset bytes.
    pub offset: DsOffset,
    /// Bytes per unit of `offset0`/`offset1` ([`DsOffset::Pair`]); 1
    /// otherwise.
    pub stride: u16,
    /// Bits LLVM ignores, per dword.
    pub dont_care: [u32; 2],
    /// Implicit accesses with `gds` clear (see the `implicit` function).
    pub implicit: Implicit,
    /// Operands in printing order: `slot_n` entries from `slot_at` of the
    /// table's `SLOTS` (see [`DsInfo::slots`]).
    pub(crate) slot_at: u16,
    pub(crate) slot_n: u8,
}

impl DsInfo {
    /// Operands in printing order.
    #[inline]
    pub const fn slots(&self) -> &'static [DsSlot] {
        let (_, tail) = tables::ds::SLOTS.split_at(self.slot_at as usize);
        tail.split_at(self.slot_n as usize).0
    }
}

/// DS fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DsMods {
    /// `offset0` (low byte of the 16-bit offset for single-address ops).
    pub offset0: u8,
    /// `offset1` (high byte of the 16-bit offset for single-address ops).
    pub offset1: u8,
    /// Global data share.
    pub gds: bool,
}

impl DsMods {
    /// The 16-bit offset of single-address ops (`offset:N`), or the
    /// swizzle pattern of `ds_swizzle_b32`.
    pub fn offset16(&self) -> u16 {
        self.offset0 as u16 | (self.offset1 as u16) << 8
    }
}

/// The address offsets of a DS instruction, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsAddrOffset {
    /// No address offset.
    None,
    /// One address: `addr + offset`.
    Single(u16),
    /// Two addresses (`read2`, `write2`, `wrxchg2` and their `st64`
    /// forms): `addr + offset0` and `addr + offset1`, already scaled by
    /// the element size (and by 64 for `st64`).
    Pair(u32, u32),
    /// `ds_swizzle_b32`: not an address but the lane pattern.
    Swizzle(u16),
}

/// Table row of an opcode index.
pub(crate) fn info(index: u16) -> Option<&'static DsInfo> {
    tables::ds::DS.get(index as usize)?.as_ref()
}

/// The address offsets of a DS instruction, in bytes; `None` when `inst`
/// is not a DS instruction.
pub fn addr_offset(inst: &Instruction) -> Option<DsAddrOffset> {
    if inst.opcode.space() != OpSpace::Ds {
        return None;
    }
    let Modifiers::Ds(m) = inst.mods else {
        return None;
    };
    let row = info(inst.opcode.index())?;
    Some(match row.offset {
        DsOffset::None => DsAddrOffset::None,
        DsOffset::Single => DsAddrOffset::Single(m.offset16()),
        DsOffset::Swizzle => DsAddrOffset::Swizzle(m.offset16()),
        DsOffset::Pair => {
            let s = row.stride as u32;
            DsAddrOffset::Pair(m.offset0 as u32 * s, m.offset1 as u32 * s)
        }
    })
}

/// Implicit accesses of a DS instruction: the opcode's set, where a set
/// `gds` bit turns the LDS access into a GDS one (`MEMORY`) that also
/// reads M0 (the GDS base and size).
pub(crate) fn implicit(inst: &Instruction) -> Implicit {
    let Some(row) = info(inst.opcode.index()) else {
        return Implicit::empty();
    };
    let mut f = row.implicit;
    if let Modifiers::Ds(m) = inst.mods {
        if m.gds && row.gds == DsGds::Flag {
            if f.contains(Implicit::LDS) {
                f.remove(Implicit::LDS);
                f.insert(Implicit::MEMORY);
            }
            f.insert(Implicit::READ_M0);
        }
    }
    f
}
