//! FLAT/GLOBAL/SCRATCH facts: the table row types the generator fills in,
//! the instruction modifiers, and implicit accesses.

use super::Text;
use crate::inst::{Instruction, Modifiers, OpSpace};
use crate::operand::{Access, Implicit};
use crate::tables;
use crate::target::Target;

/// How an address operand (`vaddr` or `saddr`) appears in an addressing
/// mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatAddr {
    /// Not an operand.
    Absent,
    /// Printed as `off` (not used).
    Off,
    /// A register range of this many dwords.
    Reg(u8),
}

/// The address operands of one addressing mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatMode {
    /// The vector address.
    pub vaddr: FlatAddr,
    /// The scalar address.
    pub saddr: FlatAddr,
}

/// Addressing modes, by how the `saddr` field selects them (the index
/// into [`FlatInfo::modes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SaddrMode {
    /// `saddr` = `null` (0x7d): vector address only.
    Off = 0,
    /// `saddr` names a scalar register.
    Reg = 1,
    /// `saddr` = 0x7f on gfx10.3 scratch: no address register at all.
    St = 2,
}

/// The meaning of one `saddr` code in one segment on one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saddr {
    /// LLVM rejects the encoding.
    Invalid,
    /// [`SaddrMode::Off`].
    Off,
    /// [`SaddrMode::St`].
    St,
    /// [`SaddrMode::Reg`] with this register (already rounded down to an
    /// even register for a 64-bit pair).
    Reg {
        /// Register code.
        code: u16,
        /// Dwords.
        count: u8,
        /// A note LLVM prints after the register (`/*...*/`).
        note: Option<&'static str>,
    },
}

/// A FLAT/GLOBAL/SCRATCH opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// Dwords written to `vdst` (loads; atomics only with `glc`); 0: none.
    pub vdst: u8,
    /// Access of `vdst` (`_d16` loads write one half: partial).
    pub vdst_access: Access,
    /// Dwords read from `data` (stores, atomics); 0: none.
    pub data: u8,
    /// An atomic: returns the old value to `vdst` only when `glc` is set.
    pub atomic: bool,
    /// The `lds` bit is allowed: the load writes LDS (at M0) instead of
    /// `vdst`.
    pub lds: bool,
    /// The offset is a signed 12-bit value (global, scratch); unsigned for
    /// flat.
    pub signed_offset: bool,
    /// Implicit accesses (without the `lds` bit).
    pub implicit: Implicit,
    /// Address operands per [`SaddrMode`]; `None`: mode not valid.
    pub modes: [Option<FlatMode>; 3],
}

/// FLAT, GLOBAL and SCRATCH fields. The segment is the opcode's space
/// ([`OpSpace::Flat`], [`OpSpace::Global`], [`OpSpace::Scratch`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlatMods {
    /// Immediate byte offset: 12-bit, sign-extended for global/scratch,
    /// zero-extended (0..=4095) for flat.
    pub offset: i16,
    /// Globally coherent (atomics: return the old value).
    pub glc: bool,
    /// System-level coherent.
    pub slc: bool,
    /// Device-level coherent.
    pub dlc: bool,
    /// Load to LDS (at M0) instead of `vdst`.
    pub lds: bool,
}

/// The segment an opcode space stands for: 0 flat, 1 scratch, 2 global.
pub fn segment_bits(space: OpSpace) -> Option<u32> {
    match space {
        OpSpace::Flat => Some(0),
        OpSpace::Scratch => Some(1),
        OpSpace::Global => Some(2),
        _ => None,
    }
}

/// The meaning of `saddr` field value `code` (0..=127) for opcodes of
/// `space` on `target`; `lds`: for a load to LDS (gfx10.1 has scratch's ST
/// mode only for those).
pub fn saddr(space: OpSpace, target: Target, code: u32, lds: bool) -> Saddr {
    let t = match (space, lds) {
        (OpSpace::Flat, false) => &tables::flat::FLAT_SADDR,
        (OpSpace::Scratch, false) => &tables::flat::SCRATCH_SADDR,
        (OpSpace::Global, false) => &tables::flat::GLOBAL_SADDR,
        (OpSpace::Scratch, true) => &tables::flat::SCRATCH_LDS_SADDR,
        (OpSpace::Global, true) => &tables::flat::GLOBAL_LDS_SADDR,
        _ => return Saddr::Invalid,
    };
    t.get(target as usize)
        .and_then(|r| r.get(code as usize))
        .copied()
        .unwrap_or(Saddr::Invalid)
}

/// Table row of an opcode.
pub(crate) fn info(space: OpSpace, index: u16) -> Option<&'static FlatInfo> {
    tables::flat::info(space, index)
}

/// Implicit accesses: the opcode's set, plus `LDS` and `READ_M0` when the
/// `lds` bit sends the loaded data to LDS (at the address in M0).
pub(crate) fn implicit(inst: &Instruction) -> Implicit {
    let Some(row) = info(inst.opcode.space(), inst.opcode.index()) else {
        return Implicit::empty();
    };
    let mut f = row.implicit;
    if let Modifiers::Flat(m) = inst.mods {
        if m.lds {
            f.insert(Implicit::LDS | Implicit::READ_M0);
        }
    }
    f
}
