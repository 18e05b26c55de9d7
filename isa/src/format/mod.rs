//! [`Instruction`]s to LLVM 19 text.
//!
//! The text is what `llvm-objdump-19 -d --no-show-raw-insn --mcpu=<target>`
//! prints for the same bytes, without the address/encoding comment. The
//! formatter writes into any [`core::fmt::Write`] the caller owns and
//! allocates nothing itself. Each family has a module of its own; shared
//! operand printing is in [`operand`].

mod buf;
mod ds;
mod exp;
mod flat;
mod mimg;
pub(crate) mod operand;
mod smem;
mod sop;
mod vintrp;
mod vop;
mod vop_ext;

use crate::inst::{Family, Instruction};
use crate::target::Target;
use core::fmt;

/// Prints instructions as LLVM 19 does for one target.
#[derive(Clone, Copy, Debug)]
pub struct Formatter {
    target: Target,
}

impl Formatter {
    /// A formatter for `target` (wave32 register names, as llvm-objdump
    /// prints gfx10 code by default).
    pub fn new(target: Target) -> Formatter {
        Formatter { target }
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Write one instruction (no newline).
    pub fn write<W: fmt::Write>(&self, inst: &Instruction, out: &mut W) -> fmt::Result {
        match inst.family {
            Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
                sop::write(self, inst, out)
            }
            Family::Smem => smem::write(self, inst, out),
            Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
                vop::write(self, inst, out)
            }
            Family::Dpp16 | Family::Dpp8 | Family::Sdwa => vop_ext::write(self, inst, out),
            Family::Vintrp => vintrp::write(self, inst, out),
            Family::Ds => ds::write(self, inst, out),
            Family::Mubuf | Family::Mtbuf => buf::write(self, inst, out),
            Family::Mimg => mimg::write(self, inst, out),
            Family::Flat => flat::write(self, inst, out),
            Family::Exp => exp::write(self, inst, out),
        }
    }

    /// Write an undecodable dword the way LLVM does: `.long 0x0123abcd`.
    pub fn write_invalid<W: fmt::Write>(&self, dword: u32, out: &mut W) -> fmt::Result {
        write!(out, ".long {dword:#010x}")
    }

    /// Write a tail shorter than a dword: `.byte 0x00, 0x01`.
    pub fn write_tail<W: fmt::Write>(&self, bytes: &[u8], out: &mut W) -> fmt::Result {
        out.write_str(".byte ")?;
        for (i, b) in bytes.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{b:#04x}")?;
        }
        Ok(())
    }

    /// Write one operand value on its own, the way LLVM prints a plain
    /// source operand: `s[4:7]`, `v5`, `vcc`, `-1`, `1.0`, `0x8000`, `off`.
    /// Family-specific spellings (modifiers, `offset:` fields) are not
    /// applied; this is for listings of operands such as `--json`.
    pub fn write_operand<W: fmt::Write>(
        &self,
        op: crate::operand::Operand,
        ty: crate::operand::ValType,
        out: &mut W,
    ) -> fmt::Result {
        operand::write_operand(op, ty, out)
    }

    /// A [`fmt::Display`] adapter for one instruction.
    pub fn display<'a>(&'a self, inst: &'a Instruction) -> Display<'a> {
        Display { f: self, inst }
    }
}

/// Displays an instruction with a [`Formatter`].
pub struct Display<'a> {
    f: &'a Formatter,
    inst: &'a Instruction,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.f.write(self.inst, out)
    }
}
