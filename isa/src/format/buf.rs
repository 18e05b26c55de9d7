//! MUBUF and MTBUF formatting.
//!
//! `name vdata, vaddr, srsrc, soffset [format:F] [idxen] [offen]
//! [offset:N] [glc] [slc] [dlc] [lds] [tfe]`; vaddr is `off` when neither
//! `offen` nor `idxen` is set, vdata is absent for `lds` loads, and the
//! cache invalidations print their name alone. MTBUF prints the format
//! unless it is the default (1, `BUF_FMT_8_UNORM`): by name when LLVM has
//! one, else as a number.

use super::operand::{write_dec, write_hex, write_inline, write_int, write_reg, write_sep};
use super::Formatter;
use super::Out;
use crate::family::buf::{self, BufMods};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{inline_b32, Operand, ValType, SRC_LDS_DIRECT};
use core::fmt;

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let mods = match inst.mods {
        Modifiers::Buf(m) => m,
        _ => BufMods::default(),
    };
    let fast = super::operand::write_head_fast(inst, out, |s| {
        !matches!(
            s.op,
            Operand::Reg {
                code: SRC_LDS_DIRECT,
                ..
            }
        )
    });
    if !fast {
        write_head(inst, out)?;
    }
    if inst.family == Family::Mtbuf && mods.format != buf::DEFAULT_FORMAT {
        match buf::format_name(mods.format) {
            Some(n) => {
                out.write_str(" format:[")?;
                out.write_str(n)?;
                out.write_char(']')?;
            }
            None => {
                out.write_str(" format:")?;
                write_dec(out, mods.format as u32)?;
            }
        }
    }
    if inst.operands.is_empty() {
        // buffer_gl0_inv / buffer_gl1_inv
        return Ok(());
    }
    write_flags(&mods, out)
}

/// The mnemonic and operands, piece by piece.
fn write_head<W: Out>(inst: &Instruction, out: &mut W) -> fmt::Result {
    super::operand::write_opcode_name(inst.opcode, out)?;
    for (i, s) in inst.operands.iter().enumerate() {
        write_sep(out, i == 0)?;
        match s.op {
            Operand::Reg { code, count } => {
                write_reg(code, count, out)?;
                if code == SRC_LDS_DIRECT {
                    out.write_str("/*Invalid register, operand has 'SReg_32' register class*/")?;
                }
            }
            Operand::Inline(c) => write_inline(c, ValType::B32, out)?,
            Operand::Literal(v) => write_literal_b32(v, out)?,
            Operand::Imm(v) => write_int(out, v as i64)?,
            Operand::Off => out.write_str("off")?,
        }
    }
    Ok(())
}

fn write_flags<W: Out>(m: &BufMods, out: &mut W) -> fmt::Result {
    if m.idxen {
        out.write_str(" idxen")?;
    }
    if m.offen {
        out.write_str(" offen")?;
    }
    if m.offset != 0 {
        out.write_str(" offset:")?;
        write_dec(out, m.offset as u32)?;
    }
    for (on, s) in [
        (m.glc, " glc"),
        (m.slc, " slc"),
        (m.dlc, " dlc"),
        (m.lds, " lds"),
        (m.tfe, " tfe"),
    ] {
        if on {
            out.write_str(s)?;
        }
    }
    Ok(())
}

/// A 32-bit literal of an integer operand as LLVM prints it: the value of
/// an inline constant when it has one (`64`, `-16`, `1.0`, `0.15915494`),
/// else hexadecimal.
fn write_literal_b32<W: Out>(v: u32, out: &mut W) -> fmt::Result {
    for code in (128u8..=208).chain(240..=248) {
        if inline_b32(code) == Some(v) {
            return write_inline(code, ValType::B32, out);
        }
    }
    write_hex(out, v as u64)
}
