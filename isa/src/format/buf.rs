//! Formatting (stub: not yet implemented).

use super::Formatter;
use crate::inst::Instruction;
use core::fmt;

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    write!(out, "{}", inst.opcode.name())
}
