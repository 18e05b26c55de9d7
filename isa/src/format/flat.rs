//! FLAT/GLOBAL/SCRATCH formatting:
//! `global_load_dword v1, v2, s[4:5] offset:-16 glc slc dlc lds`.

use super::operand::write_operand;
use super::Formatter;
use crate::family::flat::{self, Saddr};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, ValType};
use core::fmt;

pub(crate) fn write<W: fmt::Write>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    out.write_str(inst.opcode.name())?;
    let space = inst.opcode.space();
    for (i, s) in inst.operands.iter().enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        write_operand(s.op, s.ty, out)?;
        // LLVM notes a saddr register outside the operand's class (gfx10.1
        // scratch with saddr = exec_hi).
        if let (Operand::Reg { code, .. }, ValType::Addr) = (s.op, s.ty) {
            if code < 128 {
                let lds = matches!(inst.mods, Modifiers::Flat(m) if m.lds);
                if let Saddr::Reg { note: Some(n), .. } =
                    flat::saddr(space, f.target(), code as u32, lds)
                {
                    write!(out, "/*{n}*/")?;
                }
            }
        }
    }
    let Modifiers::Flat(m) = inst.mods else {
        return Ok(());
    };
    if m.offset != 0 {
        write!(out, " offset:{}", m.offset)?;
    }
    if m.glc {
        out.write_str(" glc")?;
    }
    if m.slc {
        out.write_str(" slc")?;
    }
    if m.dlc {
        out.write_str(" dlc")?;
    }
    if m.lds {
        out.write_str(" lds")?;
    }
    Ok(())
}
