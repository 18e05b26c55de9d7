//! VINTRP formatting: `v_interp_p1_f32_e32 v2, v0, attr0.y`,
//! `v_interp_mov_f32_e32 v0, p10, attr3.x`.

use super::operand::write_operand;
use super::Formatter;
use crate::inst::{Instruction, Modifiers};
use crate::operand::Operand;
use core::fmt;

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    write!(out, "{}_e32", inst.opcode.name())?;
    for (i, s) in inst.operands.iter().enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        match s.op {
            Operand::Imm(p) => match p {
                0 => out.write_str("p10")?,
                1 => out.write_str("p20")?,
                2 => out.write_str("p0")?,
                _ => write!(out, "invalid_param_{p}")?,
            },
            op => write_operand(op, s.ty, out)?,
        }
    }
    if let Modifiers::Vintrp(m) = inst.mods {
        let chan = ["x", "y", "z", "w"][(m.chan & 3) as usize];
        write!(out, ", attr{}.{chan}", m.attr)?;
    }
    Ok(())
}
