//! VINTRP formatting: `v_interp_p1_f32_e32 v2, v0, attr0.y`,
//! `v_interp_mov_f32_e32 v0, p10, attr3.x`.

use super::operand::{write_dec, write_int, write_operand, write_sep};
use super::Formatter;
use super::Out;
use crate::inst::{Instruction, Modifiers};
use crate::operand::Operand;
use core::fmt;

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    out.write_str(inst.opcode.name())?;
    out.write_str("_e32")?;
    for (i, s) in inst.operands.iter().enumerate() {
        write_sep(out, i == 0)?;
        match s.op {
            Operand::Imm(p) => match p {
                0 => out.write_str("p10")?,
                1 => out.write_str("p20")?,
                2 => out.write_str("p0")?,
                _ => {
                    out.write_str("invalid_param_")?;
                    write_int(out, p as i64)?;
                }
            },
            op => write_operand(op, s.ty, out)?,
        }
    }
    if let Modifiers::Vintrp(m) = inst.mods {
        let chan = ['x', 'y', 'z', 'w'][(m.chan & 3) as usize];
        out.write_str(", attr")?;
        write_dec(out, m.attr as u32)?;
        out.write_char('.')?;
        out.write_char(chan)?;
    }
    Ok(())
}
