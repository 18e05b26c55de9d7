//! EXP formatting: `exp mrt0 v2, v2, v0, v0 done compr vm`.

use super::operand::write_operand;
use super::Formatter;
use crate::inst::{Instruction, Modifiers};
use crate::tables::exp::EXP_TARGETS;
use core::fmt;

pub(crate) fn write<W: fmt::Write>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    out.write_str("exp")?;
    let Modifiers::Exp(m) = inst.mods else {
        return Ok(());
    };
    let t = m.target & 0x3f;
    match EXP_TARGETS.get(t as usize) {
        Some(e) if e.targets & f.target().bit() != 0 => write!(out, " {}", e.name)?,
        _ => write!(out, " invalid_target_{t}")?,
    }
    for (i, s) in inst.operands.iter().enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        write_operand(s.op, s.ty, out)?;
    }
    if m.done {
        out.write_str(" done")?;
    }
    if m.compr {
        out.write_str(" compr")?;
    }
    if m.vm {
        out.write_str(" vm")?;
    }
    Ok(())
}
