//! FLAT/GLOBAL/SCRATCH formatting:
//! `global_load_dword v1, v2, s[4:5] offset:-16 glc slc dlc lds`.

use super::operand::{write_int, write_operand, write_sep};
use super::Formatter;
use super::Out;
use crate::family::flat::{self, Saddr};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, ValType};
use core::fmt;

pub(crate) fn write<W: Out>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let space = inst.opcode.space();
    let lds = matches!(inst.mods, Modifiers::Flat(m) if m.lds);
    // A saddr register LLVM notes takes the piece-by-piece path.
    let fast = super::operand::write_head_fast(inst, out, |s| match (s.op, s.ty) {
        (Operand::Reg { code, .. }, ValType::Addr) if code < 128 => !matches!(
            flat::saddr(space, f.target(), code as u32, lds),
            Saddr::Reg { note: Some(_), .. }
        ),
        _ => true,
    });
    if !fast {
        write_head(f, inst, out)?;
    }
    write_flags(inst, out)
}

/// The mnemonic and operands, piece by piece.
fn write_head<W: Out>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    super::operand::write_opcode_name(inst.opcode, out)?;
    let space = inst.opcode.space();
    for (i, s) in inst.operands.iter().enumerate() {
        write_sep(out, i == 0)?;
        write_operand(s.op, s.ty, out)?;
        // LLVM notes a saddr register outside the operand's class (gfx10.1
        // scratch with saddr = exec_hi).
        if let (Operand::Reg { code, .. }, ValType::Addr) = (s.op, s.ty) {
            if code < 128 {
                let lds = matches!(inst.mods, Modifiers::Flat(m) if m.lds);
                if let Saddr::Reg { note: Some(n), .. } =
                    flat::saddr(space, f.target(), code as u32, lds)
                {
                    out.write_str("/*")?;
                    out.write_str(n)?;
                    out.write_str("*/")?;
                }
            }
        }
    }
    Ok(())
}

/// The offset and the cache flags.
fn write_flags<W: Out>(inst: &Instruction, out: &mut W) -> fmt::Result {
    let Modifiers::Flat(m) = inst.mods else {
        return Ok(());
    };
    if m.offset != 0 {
        out.write_str(" offset:")?;
        write_int(out, m.offset as i64)?;
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
