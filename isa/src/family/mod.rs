//! Per-family facts: modifier structs and opcode-table lookups.
//!
//! The opcode tables themselves are generated (see `isa/gen`) into
//! `crate::tables`; this module only routes an [`Opcode`] to its table.

pub mod buf;
pub mod ds;
pub mod exp;
pub mod flat;
pub mod mimg;
pub mod smem;
pub mod sop;
pub mod vintrp;
pub mod vop;
pub mod vop_ext;

use crate::inst::{Instruction, OpSpace, Opcode};
use crate::operand::Implicit;
use crate::tables;

/// A string of a generated table, stored as its place in the text block
/// (`TEXT`) of the table's file rather than as a `&'static str`. The
/// generated tables hold no pointers, so the loader relocates none of
/// their pages at process start-up (a `&str` field costs each page it
/// sits on a copy-on-write fault, whether the page is used or not).
#[derive(Clone, Copy)]
pub struct Text {
    block: u8,
    at: u16,
    len: u8,
}

impl Text {
    /// Block ids: the table files with a text block.
    pub(crate) const VOP: u8 = 0;
    pub(crate) const VOP3P: u8 = 1;
    pub(crate) const VOP_EXT: u8 = 2;
    pub(crate) const DS: u8 = 3;
    pub(crate) const MIMG: u8 = 4;
    pub(crate) const SMEM: u8 = 5;
    pub(crate) const FLAT: u8 = 6;
    pub(crate) const MUBUF: u8 = 7;
    pub(crate) const MTBUF: u8 = 8;

    /// `len` bytes at `at` of block `block` (generated code only).
    pub(crate) const fn new(block: u8, at: u16, len: u8) -> Text {
        Text { block, at, len }
    }

    /// The string.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        let block = match self.block {
            Text::VOP => tables::vop::TEXT,
            Text::VOP3P => tables::vop3p::TEXT,
            Text::VOP_EXT => tables::vop_ext::TEXT,
            Text::DS => tables::ds::TEXT,
            Text::MIMG => tables::mimg::TEXT,
            Text::SMEM => tables::smem::TEXT,
            Text::FLAT => tables::flat::TEXT,
            Text::MUBUF => tables::mubuf::TEXT,
            _ => tables::mtbuf::TEXT,
        };
        let (_, tail) = block.split_at(self.at as usize);
        tail.split_at(self.len as usize).0
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The base mnemonic of an opcode.
pub fn opcode_name(op: Opcode) -> &'static str {
    let i = op.index();
    let name = match op.space() {
        OpSpace::Sop2 => sop::name(&tables::sop::SOP2, i),
        OpSpace::Sopk => sop::name(&tables::sop::SOPK, i),
        OpSpace::Sop1 => sop::name(&tables::sop::SOP1, i),
        OpSpace::Sopc => sop::name(&tables::sop::SOPC, i),
        OpSpace::Sopp => sop::name(&tables::sop::SOPP, i),
        OpSpace::Smem => tables::smem::name(i),
        OpSpace::Vop => tables::vop::name(i),
        OpSpace::Vop3p => tables::vop3p::name(i),
        OpSpace::Vintrp => tables::vintrp::name(i),
        OpSpace::Ds => tables::ds::name(i),
        OpSpace::Mubuf => tables::mubuf::name(i),
        OpSpace::Mtbuf => tables::mtbuf::name(i),
        OpSpace::Mimg => tables::mimg::name(i),
        OpSpace::Flat | OpSpace::Global | OpSpace::Scratch => tables::flat::name(op.space(), i),
        OpSpace::Exp => Some("exp"),
    };
    name.unwrap_or("<unknown>")
}

/// Implicit accesses of an instruction (see [`Implicit`]). Families that
/// have not filled in their rules yet return the empty set.
pub fn implicit(inst: &Instruction) -> Implicit {
    let i = inst.opcode.index() as usize;
    let row = |t: &[Option<sop::SopInfo>]| t.get(i).and_then(|r| r.as_ref()).map(|r| r.implicit);
    match inst.opcode.space() {
        OpSpace::Sop2 => row(&tables::sop::SOP2),
        OpSpace::Sopk => row(&tables::sop::SOPK),
        OpSpace::Sop1 => row(&tables::sop::SOP1),
        OpSpace::Sopc => row(&tables::sop::SOPC),
        OpSpace::Sopp => row(&tables::sop::SOPP),
        OpSpace::Vop | OpSpace::Vop3p => vop::implicit(inst).map(|i| i | vop_ext::implicit(inst)),
        OpSpace::Smem => smem::implicit(inst),
        OpSpace::Mubuf | OpSpace::Mtbuf => Some(buf::implicit(inst)),
        OpSpace::Mimg => Some(mimg::implicit(inst)),
        OpSpace::Ds => Some(ds::implicit(inst)),
        OpSpace::Flat | OpSpace::Global | OpSpace::Scratch => Some(flat::implicit(inst)),
        OpSpace::Vintrp => tables::vintrp::VINTRP
            .get(i)
            .and_then(|r| r.as_ref())
            .map(|r| r.implicit),
        OpSpace::Exp => Some(Implicit::EXPORT),
    }
    .unwrap_or(Implicit::empty())
}
