//! DS formatting: `ds_read2_b32 v[4:5], v9 offset0:2 offset1:3`.

use super::operand::{write_dec, write_operand, write_sep};
use super::Formatter;
use super::Out;
use crate::family::ds::{self, DsGds, DsOffset};
use crate::inst::{Instruction, Modifiers};
use core::fmt;

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    if !super::operand::write_head_fast(inst, out, |_| true) {
        super::operand::write_opcode_name(inst.opcode, out)?;
        for (i, s) in inst.operands.iter().enumerate() {
            write_sep(out, i == 0)?;
            write_operand(s.op, s.ty, out)?;
        }
    }
    let (Some(info), Modifiers::Ds(m)) = (ds::info(inst.opcode.index()), inst.mods) else {
        return Ok(());
    };
    match info.offset {
        DsOffset::None => {}
        DsOffset::Single => {
            if m.offset16() != 0 {
                out.write_str(" offset:")?;
                write_dec(out, m.offset16() as u32)?;
            }
        }
        DsOffset::Pair => {
            if m.offset0 != 0 {
                out.write_str(" offset0:")?;
                write_dec(out, m.offset0 as u32)?;
            }
            if m.offset1 != 0 {
                out.write_str(" offset1:")?;
                write_dec(out, m.offset1 as u32)?;
            }
        }
        DsOffset::Swizzle => write_swizzle(m.offset16(), out)?,
    }
    if info.gds == DsGds::Always || (info.gds == DsGds::Flag && m.gds) {
        out.write_str(" gds")?;
    }
    Ok(())
}

/// `ds_swizzle_b32`'s pattern, as LLVM prints it. Bit 15 set: a quad
/// permutation when bits 14:8 are zero (four 2-bit lane selects), else a
/// plain number. Bit 15 clear: a 32-lane bit-mask permutation with 5-bit
/// `and` (4:0), `or` (9:5) and `xor` (14:10) masks, printed as a swap,
/// reverse or broadcast when it is one, otherwise as a per-bit pattern
/// (`0`/`1` forced, `p` preserved, `i` inverted, most significant first).
fn write_swizzle<W: Out>(v: u16, out: &mut W) -> fmt::Result {
    if v == 0 {
        return Ok(());
    }
    out.write_str(" offset:")?;
    if v & 0xff00 == 0x8000 {
        out.write_str("swizzle(QUAD_PERM")?;
        for k in 0..4 {
            out.write_char(',')?;
            write_dec(out, ((v >> (2 * k)) & 3) as u32)?;
        }
        return out.write_char(')');
    }
    if v & 0x8000 != 0 {
        return write_dec(out, v as u32);
    }
    let and = v & 0x1f;
    let or = (v >> 5) & 0x1f;
    let xor = (v >> 10) & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        out.write_str("swizzle(SWAP,")?;
        write_dec(out, xor as u32)?;
        return out.write_char(')');
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        out.write_str("swizzle(REVERSE,")?;
        write_dec(out, (xor + 1) as u32)?;
        return out.write_char(')');
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        out.write_str("swizzle(BROADCAST,")?;
        write_dec(out, group as u32)?;
        out.write_char(',')?;
        write_dec(out, or as u32)?;
        return out.write_char(')');
    }
    out.write_str("swizzle(BITMASK_PERM,\"")?;
    let p0 = or ^ xor;
    let p1 = (and | or) ^ xor;
    for bit in (0..5).rev() {
        let (a, b) = ((p0 >> bit) & 1, (p1 >> bit) & 1);
        out.write_str(match (a, b) {
            (0, 0) => "0",
            (1, 1) => "1",
            (0, _) => "p",
            _ => "i",
        })?;
    }
    out.write_str("\")")
}
