//! DS formatting: `ds_read2_b32 v[4:5], v9 offset0:2 offset1:3`.

use super::operand::write_operand;
use super::Formatter;
use crate::family::ds::{self, DsGds, DsOffset};
use crate::inst::{Instruction, Modifiers};
use core::fmt;

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    out.write_str(inst.opcode.name())?;
    for (i, s) in inst.operands.iter().enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        write_operand(s.op, s.ty, out)?;
    }
    let (Some(info), Modifiers::Ds(m)) = (ds::info(inst.opcode.index()), inst.mods) else {
        return Ok(());
    };
    match info.offset {
        DsOffset::None => {}
        DsOffset::Single => {
            if m.offset16() != 0 {
                write!(out, " offset:{}", m.offset16())?;
            }
        }
        DsOffset::Pair => {
            if m.offset0 != 0 {
                write!(out, " offset0:{}", m.offset0)?;
            }
            if m.offset1 != 0 {
                write!(out, " offset1:{}", m.offset1)?;
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
fn write_swizzle<W: fmt::Write>(v: u16, out: &mut W) -> fmt::Result {
    if v == 0 {
        return Ok(());
    }
    out.write_str(" offset:")?;
    if v & 0xff00 == 0x8000 {
        return write!(
            out,
            "swizzle(QUAD_PERM,{},{},{},{})",
            v & 3,
            (v >> 2) & 3,
            (v >> 4) & 3,
            (v >> 6) & 3
        );
    }
    if v & 0x8000 != 0 {
        return write!(out, "{v}");
    }
    let and = v & 0x1f;
    let or = (v >> 5) & 0x1f;
    let xor = (v >> 10) & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return write!(out, "swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return write!(out, "swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return write!(out, "swizzle(BROADCAST,{group},{or})");
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
