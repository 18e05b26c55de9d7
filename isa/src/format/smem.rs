//! SMEM formatting: `name sdata, sbase, soffset offset:0x.. glc dlc`.

use super::operand::{write_hex as write_hex_u64, write_imm32, write_reg};
use super::Formatter;
use super::Out;
use crate::family::smem::{self, DataRole, SregClass};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, NULL};
use core::fmt;

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    super::operand::write_opcode_name(inst.opcode, out)?;
    let Some(info) = smem::info(inst.opcode.index()) else {
        return Ok(());
    };
    let m = match inst.mods {
        Modifiers::Smem(m) => m,
        _ => Default::default(),
    };
    let mut ops = inst.operands.iter();
    let mut sep = " ";
    if info.data != DataRole::None {
        if let Some(s) = ops.next() {
            out.write_str(sep)?;
            sep = ", ";
            match s.op {
                Operand::Imm(v) => write_imm32(v as u32, out)?,
                op => write_sreg(op, info.data_class, out)?,
            }
        }
    }
    if info.base_width != 0 {
        if let Some(s) = ops.next() {
            out.write_str(sep)?;
            sep = ", ";
            write_sreg(s.op, info.base_class, out)?;
        }
    }
    if info.offset {
        if let Some(s) = ops.next() {
            out.write_str(sep)?;
            let null = matches!(s.op, Operand::Reg { code: NULL, .. });
            // LLVM picks the form by the fields: an SGPR offset alone
            // (`null` included) when the immediate is 0, the immediate
            // alone when soffset is null, both otherwise.
            if null && m.offset != 0 {
                write_hex(m.offset, out)?;
            } else {
                write_sreg(s.op, SregClass::Sreg64, out)?;
                if m.offset != 0 {
                    out.write_str(" offset:")?;
                    write_hex(m.offset, out)?;
                }
            }
        }
    }
    if m.glc {
        out.write_str(" glc")?;
    }
    if m.dlc {
        out.write_str(" dlc")?;
    }
    Ok(())
}

/// A scalar register (tuple), with LLVM's note when it is outside the
/// operand's register class.
fn write_sreg<W: Out>(op: Operand, class: SregClass, out: &mut W) -> fmt::Result {
    let Operand::Reg { code, count } = op else {
        return Ok(());
    };
    match (code, count) {
        // Wide operands name the 64-bit special registers.
        (106, 2..) => out.write_str("vcc")?,
        (126, 2..) => out.write_str("exec")?,
        _ => write_reg(code, count, out)?,
    }
    if class.rejects(code) {
        out.write_str("/*Invalid register, operand has '")?;
        out.write_str(class.llvm_name(count))?;
        out.write_str("' register class*/")?;
    }
    Ok(())
}

/// A signed offset in hex, as LLVM's `formatHex` prints it (`-0x10`).
fn write_hex<W: Out>(v: i32, out: &mut W) -> fmt::Result {
    if v < 0 {
        out.write_char('-')?;
    }
    write_hex_u64(out, v.unsigned_abs() as u64)
}
