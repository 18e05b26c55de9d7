//! Printing of registers and constants shared by every family.

use crate::operand::{Operand, ValType, VGPR_BASE};
use core::fmt;

/// Name of a single register code (count 1), as LLVM prints it.
pub(crate) fn reg_name(code: u16) -> Option<&'static str> {
    Some(match code {
        106 => "vcc_lo",
        107 => "vcc_hi",
        124 => "m0",
        125 => "null",
        126 => "exec_lo",
        127 => "exec_hi",
        235 => "src_shared_base",
        236 => "src_shared_limit",
        237 => "src_private_base",
        238 => "src_private_limit",
        239 => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        254 => "src_lds_direct",
        _ => return None,
    })
}

/// Write `n` in decimal without the `core::fmt` machinery (the formatter's
/// hot path prints many small numbers).
#[inline]
pub(crate) fn write_dec<W: fmt::Write>(out: &mut W, n: u32) -> fmt::Result {
    if n < 10 {
        return out.write_char((b'0' + n as u8) as char);
    }
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    let mut n = n;
    while n > 0 {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    for &b in &buf[i..] {
        out.write_char(b as char)?;
    }
    Ok(())
}

/// Write `n` as LLVM's lower-case hex, `0x1f`, without `core::fmt`.
#[inline]
pub(crate) fn write_hex<W: fmt::Write>(out: &mut W, n: u64) -> fmt::Result {
    out.write_str("0x")?;
    let digits = (64 - (n | 1).leading_zeros()).div_ceil(4);
    for k in (0..digits).rev() {
        out.write_char(b"0123456789abcdef"[((n >> (4 * k)) & 15) as usize] as char)?;
    }
    Ok(())
}

/// `prefix{first}` or `prefix[first:last]`.
#[inline]
fn write_range<W: fmt::Write>(out: &mut W, prefix: &str, first: u16, count: u16) -> fmt::Result {
    out.write_str(prefix)?;
    if count == 1 {
        write_dec(out, first as u32)
    } else {
        out.write_str("[")?;
        write_dec(out, first as u32)?;
        out.write_str(":")?;
        write_dec(out, (first + count - 1) as u32)?;
        out.write_str("]")
    }
}

/// Write a register range: `s5`, `s[4:7]`, `v[0:3]`, `ttmp[0:1]`, `vcc`,
/// `exec`, `vcc_lo`, `m0` ...
pub(crate) fn write_reg<W: fmt::Write>(code: u16, count: u8, out: &mut W) -> fmt::Result {
    let count = count.max(1) as u16;
    match code {
        0..=105 => write_range(out, "s", code, count),
        108..=123 => write_range(out, "ttmp", code - 108, count),
        106 if count == 2 => out.write_str("vcc"),
        126 if count == 2 => out.write_str("exec"),
        VGPR_BASE..=511 => write_range(out, "v", code - VGPR_BASE, count),
        _ => match reg_name(code) {
            Some(n) => out.write_str(n),
            None => write!(out, "<reg {code}>"),
        },
    }
}

/// Write an inline constant for an operand of type `ty`.
pub(crate) fn write_inline<W: fmt::Write>(code: u8, ty: ValType, out: &mut W) -> fmt::Result {
    match code {
        128..=192 => write_dec(out, (code - 128) as u32),
        193..=208 => {
            out.write_str("-")?;
            write_dec(out, (code - 192) as u32)
        }
        240 => out.write_str("0.5"),
        241 => out.write_str("-0.5"),
        242 => out.write_str("1.0"),
        243 => out.write_str("-1.0"),
        244 => out.write_str("2.0"),
        245 => out.write_str("-2.0"),
        246 => out.write_str("4.0"),
        247 => out.write_str("-4.0"),
        248 => match ty {
            ValType::F64 | ValType::B64 => out.write_str("0.15915494309189532"),
            _ => out.write_str("0.15915494"),
        },
        _ => write!(out, "<inline {code}>"),
    }
}

/// Write a generic operand (register, inline constant or literal).
pub(crate) fn write_operand<W: fmt::Write>(op: Operand, ty: ValType, out: &mut W) -> fmt::Result {
    match op {
        Operand::Reg { code, count } => write_reg(code, count, out),
        Operand::Inline(c) => write_inline(c, ty, out),
        Operand::Literal(v) => write_hex(out, v as u64),
        Operand::Imm(v) => write!(out, "{v}"),
        Operand::Off => out.write_str("off"),
    }
}

/// Write a 32-bit immediate value (a literal, or an immediate field) the
/// way LLVM's `printImmediate32` does: integers -16..=64 in decimal, the
/// bit patterns of the inline float constants as floats (`0x3f800000` is
/// `1.0`), anything else in hex.
pub(crate) fn write_imm32<W: fmt::Write>(v: u32, out: &mut W) -> fmt::Result {
    let s = v as i32;
    if (-16..=64).contains(&s) {
        return write!(out, "{s}");
    }
    let name = match v {
        0x3f00_0000 => "0.5",
        0xbf00_0000 => "-0.5",
        0x3f80_0000 => "1.0",
        0xbf80_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4080_0000 => "4.0",
        0xc080_0000 => "-4.0",
        0x3e22_f983 => "0.15915494",
        _ => return write!(out, "{v:#x}"),
    };
    out.write_str(name)
}

/// Write a 64-bit integer immediate the way LLVM's `printImmediate64` does
/// for integer operands: -16..=64 in decimal, the bit patterns of the
/// inline double constants as floats, anything else in hex.
pub(crate) fn write_imm64<W: fmt::Write>(v: u64, out: &mut W) -> fmt::Result {
    let s = v as i64;
    if (-16..=64).contains(&s) {
        return write!(out, "{s}");
    }
    let name = match v {
        0x3fe0_0000_0000_0000 => "0.5",
        0xbfe0_0000_0000_0000 => "-0.5",
        0x3ff0_0000_0000_0000 => "1.0",
        0xbff0_0000_0000_0000 => "-1.0",
        0x4000_0000_0000_0000 => "2.0",
        0xc000_0000_0000_0000 => "-2.0",
        0x4010_0000_0000_0000 => "4.0",
        0xc010_0000_0000_0000 => "-4.0",
        0x3fc4_5f30_6dc9_c882 => "0.15915494309189532",
        _ => return write!(out, "{v:#x}"),
    };
    out.write_str(name)
}
