//! SMEM (scalar memory) facts: the table row type the generator fills in,
//! the modifier fields, and [`SmemAddress`] for analyses.
//!
//! # Operands
//!
//! An SMEM [`Instruction`]'s operands are, in LLVM's printing order and
//! each only when the instruction has it:
//!
//! 1. `sdata`: the loaded/stored/atomic data, `data_width` SGPRs
//!    ([`ValType::Data`](crate::ValType::Data)); loads write it, stores
//!    read it, atomics read it and with `glc` also write (part of) it. For
//!    `s_atc_probe*` it is an [`Operand::Imm`] (the probe mode).
//! 2. `sbase`: the 64-bit address (`s_load_*`, `s_store_*`, ...) or the
//!    128-bit buffer descriptor (`s_buffer_*`), read
//!    ([`ValType::Addr`](crate::ValType::Addr)).
//! 3. `soffset`: a 32-bit SGPR byte offset, read; the `null` register
//!    (code 125) when the instruction adds none.
//!
//! The immediate byte offset is [`SmemMods::offset`].

use super::Text;
use crate::inst::{Instruction, Modifiers, OpSpace};
use crate::operand::{Implicit, Operand, NULL};
use crate::tables;

/// SMEM fields that are not operands.
///
/// The effective byte address of a load or store is
/// `sbase + offset + soffset` (for `s_buffer_*`, the descriptor's base
/// plus `offset + soffset`, range-checked against the descriptor), where
/// `soffset` is the value of the third operand (`null` reads as 0). Use
/// [`SmemAddress::of`] to get the three parts at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmemMods {
    /// The immediate byte offset: the 21-bit field, sign-extended
    /// (-0x100000..=0xfffff). Zero for instructions without an offset
    /// field (`s_memtime`, `s_dcache_inv`, ...).
    pub offset: i32,
    /// `glc`: globally coherent; for atomics, return the pre-op value.
    pub glc: bool,
    /// `dlc`: device-level coherent.
    pub dlc: bool,
}

/// What an instruction does with its `sdata` operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataRole {
    /// No data operand.
    None,
    /// Written (loads, `s_memtime`, `s_get_waveid_in_workgroup`).
    Load,
    /// Read (stores).
    Store,
    /// Read; with `glc` the old memory value is written back over it.
    Atomic,
    /// Compare-and-swap: read as (new, compare) pairs; with `glc` the old
    /// memory value is written into the low half only.
    AtomicCmpswap,
    /// The field is an immediate (the `s_atc_probe*` mode bits).
    Imm,
}

/// The register class LLVM checks an operand against; a register outside
/// it prints with an `/*Invalid register, ...*/` note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SregClass {
    /// `SReg_32_XM0_XEXEC`: no `m0`, `exec_lo`, `exec_hi`.
    Sreg32XM0XExec,
    /// `SReg_64_XEXEC`: no `exec`.
    Sreg64XExec,
    /// `SReg_64`: any pair.
    Sreg64,
    /// `SReg_128`/`SReg_256`/`SReg_512`: SGPR or TTMP tuples (no `vcc`,
    /// `exec`).
    SregTuple,
}

impl SregClass {
    /// LLVM's name of the class for an operand of `width` dwords.
    pub fn llvm_name(self, width: u8) -> &'static str {
        match self {
            SregClass::Sreg32XM0XExec => "SReg_32_XM0_XEXEC",
            SregClass::Sreg64XExec => "SReg_64_XEXEC",
            SregClass::Sreg64 => "SReg_64",
            SregClass::SregTuple => match width {
                4 => "SReg_128",
                8 => "SReg_256",
                _ => "SReg_512",
            },
        }
    }
    /// Whether LLVM notes register `code` as outside the class.
    pub fn rejects(self, code: u16) -> bool {
        match self {
            SregClass::Sreg32XM0XExec => matches!(code, 124 | 126 | 127),
            SregClass::Sreg64XExec => code == 126,
            SregClass::Sreg64 => false,
            SregClass::SregTuple => matches!(code, 106 | 126),
        }
    }
}

/// An SMEM opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemInfo {
    /// Mnemonic.
    pub name: Text,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// What the instruction does with `sdata`.
    pub data: DataRole,
    /// `sdata` width in dwords (0: none or an immediate).
    pub data_width: u8,
    /// `sdata` register class.
    pub data_class: SregClass,
    /// `sbase` width in dwords: 2 (address), 4 (buffer descriptor), 0 (none).
    pub base_width: u8,
    /// `sbase` register class.
    pub base_class: SregClass,
    /// Has the `soffset` and `offset` fields.
    pub offset: bool,
    /// Takes (and prints) `glc`.
    pub glc: bool,
    /// Takes (and prints) `dlc`.
    pub dlc: bool,
    /// Implicit accesses.
    pub implicit: Implicit,
}

/// The table row of an opcode index.
pub(crate) fn info(index: u16) -> Option<&'static SmemInfo> {
    tables::smem::SMEM.get(index as usize)?.as_ref()
}

/// Implicit accesses of an SMEM instruction.
pub(crate) fn implicit(inst: &Instruction) -> Option<Implicit> {
    info(inst.opcode.index()).map(|r| r.implicit)
}

/// Where a scalar memory instruction reads or writes: the parts of its
/// address, for analyses that trace descriptor and constant loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemAddress {
    /// The base operand: an SGPR pair holding a 64-bit address, or four
    /// SGPRs holding a buffer descriptor (`s_buffer_*`).
    pub base: Operand,
    /// The SGPR holding a byte offset, if the instruction adds one (`None`
    /// when the field is `null`).
    pub soffset: Option<Operand>,
    /// The immediate byte offset (sign-extended).
    pub offset: i32,
}

impl SmemAddress {
    /// The address parts of an SMEM instruction that has an address
    /// (loads, stores, atomics, `s_atc_probe*`, `s_dcache_discard*`);
    /// `None` for other instructions.
    pub fn of(inst: &Instruction) -> Option<SmemAddress> {
        if inst.opcode.space() != OpSpace::Smem {
            return None;
        }
        let row = info(inst.opcode.index())?;
        if row.base_width == 0 || !row.offset {
            return None;
        }
        let Modifiers::Smem(m) = inst.mods else {
            return None;
        };
        let first = usize::from(row.data != DataRole::None);
        let base = inst.operands.get(first)?.op;
        let soffset = match inst.operands.get(first + 1)?.op {
            Operand::Reg { code: NULL, .. } => None,
            op => Some(op),
        };
        Some(SmemAddress {
            base,
            soffset,
            offset: m.offset,
        })
    }
}
