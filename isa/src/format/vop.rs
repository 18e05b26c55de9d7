//! VOP1, VOP2, VOPC, VOP3 and VOP3P formatting.
//!
//! Constants print according to the operand's [`Imm`] kind, mirroring
//! LLVM's `printImmediate*` functions: 16-bit integer operands print the
//! f16 bit pattern of inline float constants (`0x3c00`), 64-bit float
//! literals are the high dword, and so on.

use super::operand::{write_dec, write_hex, write_reg};
use super::Formatter;
use crate::family::vop::{self, Cls, Fld, Imm, Role, VopForm, VopSlot};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, Slot};
use core::fmt;

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let (Some(info), Some(form)) = (vop::info(inst.opcode), vop::form(inst.opcode, inst.family))
    else {
        return out.write_str(inst.opcode.name());
    };
    out.write_str(info.name)?;
    if form.suffix {
        out.write_str(match inst.family {
            Family::Vop3 => "_e64",
            _ => "_e32",
        })?;
    }
    for (i, (slot, spec)) in inst.operands.iter().zip(form.slots).enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        write_slot(slot, spec, i, form, out)?;
    }
    let (clamp, omod, opsel_dst, high) = match inst.mods {
        Modifiers::Vop3(m) => (m.clamp, m.omod, m.opsel_dst, m.high),
        Modifiers::Vop3p(m) => (m.clamp, 0, false, false),
        _ => (false, 0, false, false),
    };
    if high {
        out.write_str(" high")?;
    }
    if !form.bits.is_empty() {
        let names = [" op_sel:[", " op_sel_hi:[", " neg_lo:[", " neg_hi:["];
        for (li, name) in names.iter().enumerate() {
            write_list(inst, form, li, opsel_dst, name, out)?;
        }
    }
    if clamp {
        out.write_str(" clamp")?;
    }
    match omod {
        1 => out.write_str(" mul:2")?,
        2 => out.write_str(" mul:4")?,
        3 => out.write_str(" div:2")?,
        _ => {}
    }
    Ok(())
}

/// Print one of the `op_sel`-style lists when any entry differs from its
/// default (1 for `op_sel_hi` of packed math, else 0).
fn write_list<W: fmt::Write>(
    inst: &Instruction,
    form: &VopForm,
    li: usize,
    opsel_dst: bool,
    name: &str,
    out: &mut W,
) -> fmt::Result {
    let len = form.lists[li] as usize;
    if len == 0 {
        return Ok(());
    }
    let default = li == 1 && form.packed;
    let mut vals = [default; 4];
    for b in form.bits {
        let (pos, flag) = match (li, b.role) {
            (0, Role::OpSel(p)) => (p, OpMods::OP_SEL),
            (1, Role::OpSelHi(p)) => (p, OpMods::OP_SEL_HI),
            (2, Role::NegLo(p)) => (p, OpMods::NEG),
            (3, Role::NegHi(p)) => (p, OpMods::NEG_HI),
            _ => continue,
        };
        let v = match inst.operands.get(b.slot as usize) {
            Some(s) => s.mods.contains(flag),
            None => li == 0 && opsel_dst,
        };
        if let Some(x) = vals.get_mut(pos as usize) {
            *x = v;
        }
    }
    if vals[..len.min(4)].iter().all(|v| *v == default) {
        return Ok(());
    }
    out.write_str(name)?;
    for (i, v) in vals[..len.min(4)].iter().enumerate() {
        if i > 0 {
            out.write_str(",")?;
        }
        out.write_str(if *v { "1" } else { "0" })?;
    }
    out.write_str("]")
}

/// True when a prefix-style modifier role for `slot` exists in the form.
fn has_role(form: &VopForm, slot: usize, role: Role) -> bool {
    form.bits
        .iter()
        .any(|b| b.role == role && b.slot as usize == slot)
}

/// Write one operand with its prefix modifiers (shared with the DPP/SDWA
/// formatters, which print the same operands).
pub(crate) fn write_slot<W: fmt::Write>(
    slot: &Slot,
    spec: &VopSlot,
    i: usize,
    form: &VopForm,
    out: &mut W,
) -> fmt::Result {
    let m = slot.mods;
    let is_const = matches!(slot.op, Operand::Inline(_) | Operand::Literal(_));
    let neg = m.contains(OpMods::NEG) && has_role(form, i, Role::Neg);
    let abs = m.contains(OpMods::ABS) && has_role(form, i, Role::Abs);
    let sext = m.contains(OpMods::SEXT) && has_role(form, i, Role::Sext);
    // LLVM writes `neg(c)` for a negated constant (`-1` would be a
    // different constant), `-|c|` when abs is also set.
    let negfn = neg && !abs && is_const;
    if negfn {
        out.write_str("neg(")?;
    } else if neg {
        out.write_str("-")?;
    }
    if sext {
        out.write_str("sext(")?;
    }
    if abs {
        out.write_str("|")?;
    }
    write_value(slot.op, spec, out)?;
    if abs {
        out.write_str("|")?;
    }
    if sext || negfn {
        out.write_str(")")?;
    }
    Ok(())
}

/// True when a register code belongs to the class (or is one of the
/// read-only values LLVM never flags).
pub(crate) fn in_class(code: u16, cls: &Cls) -> bool {
    match code {
        256..=511 => cls.vgpr,
        254 => cls.lds,
        125 | 235..=239 | 251..=253 => true,
        _ => cls.sgpr,
    }
}

/// Write an operand value (register with LLVM's class note, constant of
/// the slot's [`Imm`] kind, attribute, parameter slot).
pub(crate) fn write_value<W: fmt::Write>(op: Operand, spec: &VopSlot, out: &mut W) -> fmt::Result {
    let checked = !matches!(spec.fld, Fld::Vcc | Fld::KLit | Fld::Attr | Fld::Param);
    match op {
        Operand::Reg { code, count } => {
            write_reg(code, count, out)?;
            if checked && !in_class(code, &spec.cls) {
                write!(
                    out,
                    "/*Invalid register, operand has '{}' register class*/",
                    spec.cls.name
                )?;
            }
        }
        Operand::Inline(c) => {
            write_inline(c, spec.imm, out)?;
            if checked && !spec.cls.imm {
                out.write_str("/*Invalid immediate*/")?;
            }
        }
        Operand::Literal(v) => {
            write_literal(v, spec.imm, out)?;
            if checked && !spec.cls.imm {
                out.write_str("/*Invalid immediate*/")?;
            }
        }
        Operand::Imm(v) => match spec.fld {
            Fld::Attr => {
                let chan = ['x', 'y', 'z', 'w'][((v >> 6) & 3) as usize];
                write!(out, "attr{}.{chan}", v & 0x3f)?;
            }
            Fld::Param => match v {
                0 => out.write_str("p10")?,
                1 => out.write_str("p20")?,
                2 => out.write_str("p0")?,
                _ => write!(out, "invalid_param_{v}")?,
            },
            _ => write!(out, "{v}")?,
        },
        Operand::Off => out.write_str("off")?,
    }
    Ok(())
}

/// The name LLVM prints for a 32-bit float bit pattern that is an inline
/// value.
fn f32_name(v: u32) -> Option<&'static str> {
    Some(match v {
        0x3f00_0000 => "0.5",
        0xbf00_0000 => "-0.5",
        0x3f80_0000 => "1.0",
        0xbf80_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4080_0000 => "4.0",
        0xc080_0000 => "-4.0",
        0x3e22_f983 => "0.15915494",
        _ => return None,
    })
}

/// The name LLVM prints for a 16-bit float bit pattern that is an inline
/// value.
fn f16_name(v: u16) -> Option<&'static str> {
    Some(match v {
        0x3800 => "0.5",
        0xb800 => "-0.5",
        0x3c00 => "1.0",
        0xbc00 => "-1.0",
        0x4000 => "2.0",
        0xc000 => "-2.0",
        0x4400 => "4.0",
        0xc400 => "-4.0",
        0x3118 => "0.15915494",
        _ => return None,
    })
}

/// The high dword of a 64-bit float LLVM prints by name (the low dword
/// being zero, as for a literal).
fn f64_hi_name(v: u32) -> Option<&'static str> {
    Some(match v {
        0x3fe0_0000 => "0.5",
        0xbfe0_0000 => "-0.5",
        0x3ff0_0000 => "1.0",
        0xbff0_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4010_0000 => "4.0",
        0xc010_0000 => "-4.0",
        _ => return None,
    })
}

fn inline_int(v: i64) -> bool {
    (-16..=64).contains(&v)
}

/// An inline-constant code, printed for an operand of kind `imm`.
pub(crate) fn write_inline<W: fmt::Write>(code: u8, imm: Imm, out: &mut W) -> fmt::Result {
    match code {
        128..=192 => write_dec(out, (code - 128) as u32),
        193..=208 => {
            out.write_str("-")?;
            write_dec(out, (code - 192) as u32)
        }
        _ => {
            // Float constants: integer-typed 16-bit operands print the f16
            // pattern in hex.
            let f16 = crate::operand::inline_f16(code).unwrap_or(0);
            match imm {
                Imm::I16 | Imm::V2I16 => write!(out, "{f16:#x}"),
                Imm::F64 | Imm::I64 if code == 248 => out.write_str("0.15915494309189532"),
                _ => match f16_name(f16) {
                    Some(n) => out.write_str(n),
                    None => write!(out, "<inline {code}>"),
                },
            }
        }
    }
}

/// A literal, printed for an operand of kind `imm`.
pub(crate) fn write_literal<W: fmt::Write>(v: u32, imm: Imm, out: &mut W) -> fmt::Result {
    match imm {
        Imm::K32 | Imm::K16 => write_hex(out, v as u64),
        Imm::F16 => {
            let s = v as u16 as i16;
            if inline_int(s as i64) {
                write!(out, "{s}")
            } else if let Some(n) = f16_name(v as u16) {
                out.write_str(n)
            } else {
                write!(out, "{:#x}", v & 0xffff)
            }
        }
        Imm::I16 => {
            if inline_int(v as i32 as i64) {
                write!(out, "{}", v as i32)
            } else if let Some(n) = f32_name(v) {
                out.write_str(n)
            } else {
                write!(out, "{:#x}", v & 0xffff)
            }
        }
        Imm::F64 => {
            if v == 0 {
                out.write_str("0")
            } else if let Some(n) = f64_hi_name(v) {
                out.write_str(n)
            } else {
                write_hex(out, v as u64)
            }
        }
        Imm::I64 => {
            if v <= 64 {
                write!(out, "{v}")
            } else {
                write_hex(out, v as u64)
            }
        }
        Imm::V2F16 => {
            if inline_int(v as i32 as i64) {
                write!(out, "{}", v as i32)
            } else if let Some(n) = (v <= 0xffff).then(|| f16_name(v as u16)).flatten() {
                out.write_str(n)
            } else {
                write_hex(out, v as u64)
            }
        }
        Imm::B32 | Imm::V2I16 | Imm::None => {
            if inline_int(v as i32 as i64) {
                write!(out, "{}", v as i32)
            } else if let Some(n) = f32_name(v) {
                out.write_str(n)
            } else {
                write_hex(out, v as u64)
            }
        }
    }
}
