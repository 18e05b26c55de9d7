//! The typed instruction.

use crate::family;
use crate::operand::{Access, Operand, Slot};
use core::fmt;

/// The encoding family an instruction was decoded from (and is encoded to).
///
/// VOP1/VOP2/VOPC instructions keep their semantic opcode in every encoding;
/// the family says which of the 32-bit (`_e32`), VOP3 (`_e64`), DPP16, DPP8
/// or SDWA forms the bytes use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory.
    Smem,
    /// Vector ALU, one source, 32-bit encoding.
    Vop1,
    /// Vector ALU, two sources, 32-bit encoding.
    Vop2,
    /// Vector compare, 32-bit encoding.
    Vopc,
    /// Vector ALU, 64-bit encoding (including the VOP3 forms of VOP1/2/C).
    Vop3,
    /// Packed-math vector ALU.
    Vop3p,
    /// VOP1/VOP2/VOPC with a DPP16 word.
    Dpp16,
    /// VOP1/VOP2/VOPC with a DPP8 word.
    Dpp8,
    /// VOP1/VOP2/VOPC with an SDWA word.
    Sdwa,
    /// Parameter interpolation.
    Vintrp,
    /// Local/global data share.
    Ds,
    /// Untyped buffer memory.
    Mubuf,
    /// Typed buffer memory.
    Mtbuf,
    /// Image memory.
    Mimg,
    /// Flat, global and scratch memory.
    Flat,
    /// Export.
    Exp,
}

impl Family {
    /// Lower-case name, as in `--json` output.
    pub fn name(self) -> &'static str {
        match self {
            Family::Sop1 => "sop1",
            Family::Sop2 => "sop2",
            Family::Sopk => "sopk",
            Family::Sopc => "sopc",
            Family::Sopp => "sopp",
            Family::Smem => "smem",
            Family::Vop1 => "vop1",
            Family::Vop2 => "vop2",
            Family::Vopc => "vopc",
            Family::Vop3 => "vop3",
            Family::Vop3p => "vop3p",
            Family::Dpp16 => "dpp16",
            Family::Dpp8 => "dpp8",
            Family::Sdwa => "sdwa",
            Family::Vintrp => "vintrp",
            Family::Ds => "ds",
            Family::Mubuf => "mubuf",
            Family::Mtbuf => "mtbuf",
            Family::Mimg => "mimg",
            Family::Flat => "flat",
            Family::Exp => "exp",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The opcode space an [`Opcode`] lives in. An opcode space is a table of
/// opcodes shared by one or more encoding families (all vector-ALU forms
/// share [`OpSpace::Vop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum OpSpace {
    /// SOP2.
    Sop2 = 0,
    /// SOPK.
    Sopk = 1,
    /// SOP1.
    Sop1 = 2,
    /// SOPC.
    Sopc = 3,
    /// SOPP.
    Sopp = 4,
    /// SMEM.
    Smem = 5,
    /// VOP1, VOP2, VOPC and VOP3 in every encoding.
    Vop = 6,
    /// VOP3P.
    Vop3p = 7,
    /// VINTRP.
    Vintrp = 8,
    /// DS.
    Ds = 9,
    /// MUBUF.
    Mubuf = 10,
    /// MTBUF.
    Mtbuf = 11,
    /// MIMG.
    Mimg = 12,
    /// FLAT segment.
    Flat = 13,
    /// GLOBAL segment.
    Global = 14,
    /// SCRATCH segment.
    Scratch = 15,
    /// EXP.
    Exp = 16,
}

impl OpSpace {
    /// Every opcode space, in declaration order.
    pub const ALL: [OpSpace; 17] = [
        OpSpace::Sop2,
        OpSpace::Sopk,
        OpSpace::Sop1,
        OpSpace::Sopc,
        OpSpace::Sopp,
        OpSpace::Smem,
        OpSpace::Vop,
        OpSpace::Vop3p,
        OpSpace::Vintrp,
        OpSpace::Ds,
        OpSpace::Mubuf,
        OpSpace::Mtbuf,
        OpSpace::Mimg,
        OpSpace::Flat,
        OpSpace::Global,
        OpSpace::Scratch,
        OpSpace::Exp,
    ];
}

/// [`Opcode::space`]'s table: [`OpSpace::ALL`], padded to 32 entries.
static SPACE_OF: [OpSpace; 32] = {
    let mut t = [OpSpace::Exp; 32];
    let mut i = 0;
    while i < OpSpace::ALL.len() {
        t[i] = OpSpace::ALL[i];
        i += 1;
    }
    t
};

/// An opcode: an opcode space plus an index in that space's table.
///
/// The named constants (`Opcode::S_MOV_B32`, `Opcode::V_ADD_NC_U32`, ...)
/// are generated from the recorded LLVM oracle; the index is usually the
/// native opcode number of the instruction's widest encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opcode(u16);

impl Opcode {
    /// Build from a space and an index (index < 2048).
    pub const fn new(space: OpSpace, index: u16) -> Opcode {
        Opcode(((space as u16) << 11) | (index & 0x7ff))
    }
    /// The opcode space.
    #[inline(always)]
    pub fn space(self) -> OpSpace {
        // Five bits index a 32-entry table: no bounds check (only the
        // first 17 entries are reachable, `new` being the only way in).
        SPACE_OF[(self.0 >> 11) as usize & 31]
    }
    /// The index within the space.
    #[inline]
    pub const fn index(self) -> u16 {
        self.0 & 0x7ff
    }
    /// The raw 16-bit id (stable within one build of this crate).
    pub const fn raw(self) -> u16 {
        self.0
    }
    /// The base mnemonic, without `_e32`/`_e64`/`_dpp`/`_sdwa` suffixes.
    pub fn name(self) -> &'static str {
        family::opcode_name(self)
    }
}

impl fmt::Debug for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Instruction-level modifiers and immediate fields, by family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifiers {
    /// No modifiers (SOP1, SOP2, SOPC, VOP1, VOP2, VOPC `_e32`).
    None,
    /// SOPK/SOPP 16-bit immediate.
    Simm16(u16),
    /// SMEM fields.
    Smem(family::smem::SmemMods),
    /// VOP3 fields.
    Vop3(family::vop::Vop3Mods),
    /// VOP3P fields.
    Vop3p(family::vop::Vop3pMods),
    /// DPP16 fields.
    Dpp16(family::vop::Dpp16Mods),
    /// DPP8 fields.
    Dpp8(family::vop::Dpp8Mods),
    /// SDWA fields.
    Sdwa(family::vop::SdwaMods),
    /// VINTRP fields.
    Vintrp(family::vintrp::VintrpMods),
    /// DS fields.
    Ds(family::ds::DsMods),
    /// MUBUF/MTBUF fields.
    Buf(family::buf::BufMods),
    /// MIMG fields.
    Mimg(family::mimg::MimgMods),
    /// FLAT/GLOBAL/SCRATCH fields.
    Flat(family::flat::FlatMods),
    /// EXP fields.
    Exp(family::exp::ExpMods),
}

/// Maximum number of operands an instruction can have (MIMG NSA: vdata, 13
/// addresses, resource, sampler).
pub const MAX_OPERANDS: usize = 16;

/// A fixed-capacity operand list (no heap). Equality and hashing look at
/// the live operands only (slots past the length are stale storage).
#[derive(Clone, Copy)]
pub struct Operands {
    len: u8,
    slots: [Slot; MAX_OPERANDS],
}

const EMPTY_SLOT: Slot = Slot {
    op: Operand::Off,
    access: Access::empty(),
    ty: crate::operand::ValType::B32,
    mods: crate::operand::OpMods::empty(),
};

impl Operands {
    /// An empty list.
    pub const fn new() -> Operands {
        Operands {
            len: 0,
            slots: [EMPTY_SLOT; MAX_OPERANDS],
        }
    }
    /// Remove every operand (keeps the storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Append one operand. Returns false (and does nothing) when full.
    #[inline]
    pub fn push(&mut self, slot: Slot) -> bool {
        if (self.len as usize) < MAX_OPERANDS {
            self.slots[self.len as usize] = slot;
            self.len += 1;
            true
        } else {
            false
        }
    }
    /// Store operand `i` without changing the count (decoders fill the
    /// slots in order, then call [`Operands::set_len`]). Out of range: no
    /// effect.
    #[inline(always)]
    pub(crate) fn set(&mut self, i: usize, slot: Slot) {
        if let Some(s) = self.slots.get_mut(i) {
            *s = slot;
        }
    }
    /// All the storage, for decoders that fill slots in order and then
    /// call [`Operands::set_len`].
    #[inline(always)]
    pub(crate) fn slots_mut(&mut self) -> &mut [Slot; MAX_OPERANDS] {
        &mut self.slots
    }
    /// Set the count (at most [`MAX_OPERANDS`]) after [`Operands::set`].
    #[inline(always)]
    pub(crate) fn set_len(&mut self, n: usize) {
        self.len = n.min(MAX_OPERANDS) as u8;
    }
    /// The operands as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Slot] {
        &self.slots[..self.len as usize]
    }
    /// The operands as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Slot] {
        &mut self.slots[..self.len as usize]
    }
}

impl PartialEq for Operands {
    fn eq(&self, other: &Operands) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Operands {}

impl core::hash::Hash for Operands {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl Default for Operands {
    fn default() -> Self {
        Operands::new()
    }
}

impl core::ops::Deref for Operands {
    type Target = [Slot];
    #[inline]
    fn deref(&self) -> &[Slot] {
        self.as_slice()
    }
}

impl core::ops::DerefMut for Operands {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Slot] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for Operands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// One decoded instruction. `Copy`, no heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// What the instruction does.
    pub opcode: Opcode,
    /// How it is encoded.
    pub family: Family,
    /// Length in bytes (4..=20), including any literal.
    pub len: u8,
    /// Operands, in LLVM's printing order: definitions first.
    pub operands: Operands,
    /// Family-specific modifiers and immediate fields.
    pub mods: Modifiers,
}

impl Default for Instruction {
    /// A placeholder to decode into (`s_nop` with no operands); not a
    /// meaningful instruction by itself.
    fn default() -> Instruction {
        Instruction {
            opcode: Opcode::new(OpSpace::Sopp, 0),
            family: Family::Sopp,
            len: 4,
            operands: Operands::new(),
            mods: Modifiers::Simm16(0),
        }
    }
}

impl Instruction {
    /// The literal constant, if the instruction carries one.
    pub fn literal(&self) -> Option<u32> {
        self.operands.iter().find_map(|s| match s.op {
            Operand::Literal(v) => Some(v),
            _ => None,
        })
    }
    /// The written operands.
    pub fn defs(&self) -> impl Iterator<Item = &Slot> {
        self.operands.iter().filter(|s| s.is_def())
    }
    /// Registers and resources the instruction touches without naming them.
    pub fn implicit(&self) -> crate::operand::Implicit {
        family::implicit(self)
    }
    /// The read operands.
    pub fn uses(&self) -> impl Iterator<Item = &Slot> {
        self.operands.iter().filter(|s| s.is_use())
    }
}

#[cfg(test)]
mod size_tests {
    /// Stale storage past the operand count must not make two equal
    /// instructions unequal (decoding into a reused `Instruction` leaves it).
    #[test]
    fn operands_compare_by_their_live_slots_only() {
        use crate::operand::{Operand, Slot, ValType};
        let mut a = super::Operands::new();
        let mut b = super::Operands::new();
        a.push(Slot::use_(Operand::sgpr(1), ValType::B32));
        b.push(Slot::use_(Operand::sgpr(1), ValType::B32));
        b.push(Slot::use_(Operand::sgpr(2), ValType::B32));
        b.clear();
        b.push(Slot::use_(Operand::sgpr(1), ValType::B32));
        assert_eq!(a, b);
        b.push(Slot::use_(Operand::sgpr(3), ValType::B32));
        assert_ne!(a, b);
    }

    /// Decoding returns `Instruction` by value on a hot path; keep it small
    /// enough to stay cheap to move (the budget is 16 operand slots).
    #[test]
    fn instruction_stays_within_its_size_budget() {
        assert!(core::mem::size_of::<super::Instruction>() <= 216);
        assert_eq!(core::mem::size_of::<crate::Operand>(), 8);
        assert_eq!(core::mem::size_of::<crate::Slot>(), 12);
    }
}
