//! EXP formatting: `exp mrt0 v2, v2, v0, v0 done compr vm`.

use super::operand::{write_dec, write_operand, write_sep};
use super::Formatter;
use super::Out;
use crate::inst::{Instruction, Modifiers};
use crate::tables::exp::EXP_TARGETS;
use core::fmt;

pub(crate) fn write<W: Out>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    out.write_str("exp")?;
    let Modifiers::Exp(m) = inst.mods else {
        return Ok(());
    };
    let t = m.target & 0x3f;
    match EXP_TARGETS.get(t as usize) {
        Some(e) if e.targets & f.target().bit() != 0 => {
            out.write_char(' ')?;
            out.write_str(e.name)?;
        }
        _ => {
            out.write_str(" invalid_target_")?;
            write_dec(out, t as u32)?;
        }
    }
    for (i, s) in inst.operands.iter().enumerate() {
        write_sep(out, i == 0)?;
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
