//! Vector-ALU facts: the generated table's row types, modifier fields for
//! VOP3, VOP3P, DPP16, DPP8 and SDWA, and opcode lookups.
//!
//! Per-operand modifiers (neg, abs, sext, op_sel bits) live in each
//! operand's [`crate::OpMods`]; the fields here are instruction-wide.
//!
//! # The table
//!
//! `crate::tables::vop::VOP` holds one [`VopInfo`] per vector-ALU
//! instruction (VOP1, VOP2, VOPC and VOP3), with its 32-bit form (`e32`:
//! VOP1, VOP2 or VOPC) and its VOP3 form (`e64`), each a [`VopForm`].
//! `crate::tables::vop3p::VOP3P` holds the VOP3P instructions the same way
//! (their form is in `e64`). The opcode index of an instruction is its VOP3
//! opcode when it has one (VOPC `op`, VOP2 `0x100 + op`, VOP1
//! `0x180 + op`, VOP3-only its number); VOP2-only and VOP1-only
//! instructions are at `0x400 + op` and `0x480 + op`; a gfx10.1 mnemonic
//! that gfx10.3 renamed is at `0x500 + (index & 0xff)`. Every encoding of an
//! instruction (e32, e64, and DPP/SDWA) shares its [`crate::Opcode`].
//!
//! # Semantics decisions
//!
//! - **16-bit results** preserve the other half of the destination VGPR on
//!   gfx10, so their destination is `READ | WRITE | PARTIAL`.
//! - **Lane masks** (`vcc_lo`, compare and carry destinations, carry-in and
//!   `v_cndmask` selectors) are one register with [`crate::ValType::Mask`]:
//!   LLVM prints wave32 names; in wave64 code they cover a register pair.
//! - `v_movrel*`/`v_swaprel` set [`crate::Implicit::RELATIVE`]: the VGPR
//!   they read or write is the printed one plus M0.
//! - For `v_permlane16_b32`/`v_permlanex16_b32` the `op_sel` bits of src0
//!   and src1 are fetch-inactive and bound-ctrl ([`crate::OpMods::OP_SEL`]
//!   on those operands).
//! - For `v_fma_mix*` the neg_hi bits mean absolute value and are stored as
//!   [`crate::OpMods::ABS`] (LLVM prints `|x|`).

use super::Text;
use crate::inst::{Family, Instruction, OpSpace, Opcode};
use crate::operand::{Access, Implicit, Operand, ValType, SRC_LDS_DIRECT};
use crate::tables;
use crate::target::Target;

/// VOP3 instruction-wide fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vop3Mods {
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// `op_sel` bit for the destination (bit 3 of the field): write the
    /// high half of a 16-bit result.
    pub opsel_dst: bool,
    /// VOP3 `v_interp_*`: the `high` bit (bit 8 of src0).
    pub high: bool,
}

/// VOP3P instruction-wide fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vop3pMods {
    /// Clamp the result.
    pub clamp: bool,
}

// The DPP16, DPP8 and SDWA fields live with the rest of those forms.
pub use super::vop_ext::{Dpp16Mods, Dpp8Mods, SdwaMods};

/// Which encoding field an operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fld {
    /// The 8-bit destination (`vdst`; a scalar register for
    /// `v_readlane_b32`, `v_readfirstlane_b32` and VOPC `_e64`).
    Vdst,
    /// VOP3 `sdst` (bits 14:8 of the first dword): carry-out or
    /// `v_div_scale` lane mask.
    Sdst,
    /// The 9-bit source 0.
    Src0,
    /// The 9-bit source 1 (VOP3).
    Src1,
    /// The 9-bit source 2 (VOP3).
    Src2,
    /// The 8-bit VGPR source 1 of VOP2/VOPC.
    Vsrc1,
    /// The literal constant K of `v_fmamk`/`v_fmaak`/`v_madmk`/`v_madak`.
    KLit,
    /// `vcc_lo`, printed but not encoded (VOPC `_e32`, carry and
    /// `v_cndmask` `_e32`).
    Vcc,
    /// VOP3 `v_interp_*`: `attrN.c` from src0 (attribute in bits 5:0,
    /// channel in bits 7:6).
    Attr,
    /// `v_interp_mov_f32_e64`: the parameter slot (`p10`, `p20`, `p0`)
    /// from src1.
    Param,
}

/// The register class of an operand, as far as decoding and printing
/// care: which kinds of value it accepts without LLVM's
/// `/*Invalid register, operand has '<name>' register class*/` or
/// `/*Invalid immediate*/` notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cls {
    /// LLVM's class name, printed in the note.
    pub name: Text,
    /// VGPRs are in the class.
    pub vgpr: bool,
    /// Scalar registers (SGPRs, vcc, ttmp, m0, exec) are in the class.
    pub sgpr: bool,
    /// `src_lds_direct` is in the class.
    pub lds: bool,
    /// Constants are allowed.
    pub imm: bool,
}

/// How constants in an operand print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Imm {
    /// Not a source (no constants).
    None,
    /// 32-bit (integer or float).
    B32,
    /// 16-bit float.
    F16,
    /// 16-bit integer.
    I16,
    /// 64-bit float (a literal is the high dword).
    F64,
    /// 64-bit integer (a literal is zero-extended).
    I64,
    /// Two packed 16-bit floats.
    V2F16,
    /// Two packed 16-bit integers.
    V2I16,
    /// The 32-bit K constant of `v_fmamk_f32` and friends.
    K32,
    /// The 16-bit K constant of `v_fmamk_f16` and friends.
    K16,
}

/// One operand of a form, in LLVM's printing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VopSlot {
    /// Where it is encoded.
    pub fld: Fld,
    /// Width in registers.
    pub width: u8,
    /// Register class.
    pub cls: Cls,
    /// Constant printing.
    pub imm: Imm,
    /// Read/write.
    pub access: Access,
    /// Value type.
    pub ty: ValType,
}

/// What a modifier bit of a VOP3/VOP3P form does, as LLVM decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// LLVM rejects the encoding when the bit is set.
    Fixed,
    /// LLVM ignores the bit (a don't-care bit).
    Ignored,
    /// Part of the VOP3 `sdst` field.
    Sdst,
    /// `|x|` on the slot.
    Abs,
    /// `-x` / `neg(x)` on the slot.
    Neg,
    /// `sext(x)` on the slot (the neg bit of an integer operand).
    Sext,
    /// Entry `n` of `op_sel:[...]`.
    OpSel(u8),
    /// Entry `n` of `op_sel_hi:[...]`.
    OpSelHi(u8),
    /// Entry `n` of `neg_lo:[...]`.
    NegLo(u8),
    /// Entry `n` of `neg_hi:[...]`.
    NegHi(u8),
    /// `clamp`.
    Clamp,
    /// One bit of the output modifier.
    Omod,
}

/// A modifier bit: its role and the slot it modifies (255: the
/// instruction or the destination's `op_sel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bit {
    /// What the bit does.
    pub role: Role,
    /// The slot it applies to.
    pub slot: u8,
}

/// Position `i` of [`VopForm::bits`] as (dword, bit): 0..8 are bits 15:8
/// of the first dword, 8..13 bits 31:27 of the second, 13..16 (VOP3P)
/// bits 25:23 of the first.
pub const fn bit_position(i: usize) -> (usize, u32) {
    if i < 8 {
        (0, 8 + i as u32)
    } else if i < 13 {
        (1, 27 + (i as u32 - 8))
    } else {
        (0, 23 + (i as u32 - 13))
    }
}

/// One encoding of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VopForm {
    /// The encoding (VOP1, VOP2, VOPC, VOP3 or VOP3P).
    pub family: Family,
    /// Native opcode in that encoding.
    pub op: u16,
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// LLVM prints `_e32`/`_e64` after the mnemonic.
    pub suffix: bool,
    /// Bits (per dword) that LLVM rejects when set.
    pub fixed: [u32; 2],
    /// Bits (per dword) that LLVM ignores.
    pub ignored: [u32; 2],
    /// Lengths of the `op_sel`, `op_sel_hi`, `neg_lo` and `neg_hi` lists.
    pub lists: [u8; 4],
    /// VOP3P: `op_sel_hi` defaults to all ones (packed math).
    pub packed: bool,
    /// Operands in printing order: `slot_n` entries from `slot_at` of the
    /// table file's `SLOTS` (see [`VopForm::slots`]).
    pub(crate) slot_at: u16,
    pub(crate) slot_n: u8,
    /// VOP3/VOP3P modifier bits: `bit_n` entries from `bit_at` of the
    /// table file's `BITS` (see [`VopForm::bits`]).
    pub(crate) bit_at: u16,
    pub(crate) bit_n: u8,
}

impl VopForm {
    /// Operands in printing order.
    #[inline]
    pub const fn slots(&self) -> &'static [VopSlot] {
        let all: &'static [VopSlot] = match self.family {
            Family::Vop3p => &tables::vop3p::SLOTS,
            _ => &tables::vop::SLOTS,
        };
        let (_, tail) = all.split_at(self.slot_at as usize);
        tail.split_at(self.slot_n as usize).0
    }

    /// VOP3/VOP3P modifier bits (see [`bit_position`]); empty for e32.
    #[inline]
    pub const fn bits(&self) -> &'static [Bit] {
        let all: &'static [Bit] = match self.family {
            Family::Vop3p => &tables::vop3p::BITS,
            _ => &tables::vop::BITS,
        };
        let (_, tail) = all.split_at(self.bit_at as usize);
        tail.split_at(self.bit_n as usize).0
    }
}

/// One vector-ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VopInfo {
    /// Opcode index in its space.
    pub index: u16,
    /// Base mnemonic (without `_e32`/`_e64`).
    pub name: Text,
    /// Implicit accesses.
    pub implicit: Implicit,
    /// The 32-bit (VOP1/VOP2/VOPC) form.
    pub e32: Option<VopForm>,
    /// The VOP3 (or VOP3P) form.
    pub e64: Option<VopForm>,
}

impl VopInfo {
    /// The form an encoding family uses: `e64` for VOP3/VOP3P, else `e32`
    /// (VOP1/VOP2/VOPC, and the DPP/SDWA siblings).
    #[inline]
    pub(crate) fn form(&self, family: Family) -> Option<&VopForm> {
        match family {
            Family::Vop3 | Family::Vop3p => self.e64.as_ref(),
            _ => self.e32.as_ref(),
        }
    }
}

/// Index of a target in the generated per-target maps.
#[inline]
pub(crate) fn target_index(t: Target) -> usize {
    t.bit().trailing_zeros() as usize
}

/// The table row of an opcode (VOP or VOP3P space).
#[inline]
pub fn info(op: Opcode) -> Option<&'static VopInfo> {
    let i = op.index() as usize;
    match op.space() {
        OpSpace::Vop => {
            let p = *tables::vop::VOP_POS.get(i)?;
            tables::vop::VOP.get(p as usize)
        }
        OpSpace::Vop3p => {
            let p = *tables::vop3p::VOP3P_POS.get(i)?;
            tables::vop3p::VOP3P.get(p as usize)
        }
        _ => None,
    }
}

/// The form of an instruction used by an encoding family: the e32 form for
/// VOP1/VOP2/VOPC (and, for a sibling, DPP and SDWA), the e64 form for
/// VOP3/VOP3P.
#[inline]
pub fn form(op: Opcode, family: Family) -> Option<&'static VopForm> {
    info(op)?.form(family)
}

/// The instruction a 32-bit encoding's native opcode names on a target:
/// `family` is [`Family::Vop1`], [`Family::Vop2`] or [`Family::Vopc`].
/// DPP and SDWA words use the same opcode numbers.
pub fn e32_opcode(family: Family, op: u16, target: Target) -> Option<Opcode> {
    let t = target_index(target);
    let p = match family {
        Family::Vop1 => tables::vop::MAP_VOP1[t].get(op as usize)?,
        Family::Vop2 => tables::vop::MAP_VOP2[t].get(op as usize)?,
        Family::Vopc => tables::vop::MAP_VOPC[t].get(op as usize)?,
        _ => return None,
    };
    let info = tables::vop::VOP.get(*p as usize)?;
    Some(Opcode::new(OpSpace::Vop, info.index))
}

/// The instruction a VOP3 opcode names on a target.
pub fn vop3_opcode(op: u16, target: Target) -> Option<Opcode> {
    let p = tables::vop::MAP_VOP3[target_index(target)].get(op as usize)?;
    let info = tables::vop::VOP.get(*p as usize)?;
    Some(Opcode::new(OpSpace::Vop, info.index))
}

/// Implicit accesses of a vector-ALU instruction: the table's, plus LDS and
/// M0 when a source is `src_lds_direct` (it reads LDS at an M0 address).
pub(crate) fn implicit(inst: &Instruction) -> Option<Implicit> {
    let r = info(inst.opcode)?;
    let lds = inst
        .operands
        .iter()
        .any(|s| matches!(s.op, Operand::Reg { code, .. } if code == SRC_LDS_DIRECT));
    Some(if lds {
        r.implicit | Implicit::LDS | Implicit::READ_M0
    } else {
        r.implicit
    })
}
