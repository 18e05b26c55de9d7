//! SOP1, SOP2, SOPK, SOPC and SOPP formatting.

use super::operand::{
    hex_chunk, inline_plain, name_chunk, reg_text, small_int_chunk, text_chunk, write_dec,
    write_hex, write_imm32, write_imm64, write_inline, write_operand, write_reg, write_sep,
    ChunkBytes, NameBytes, ACC_FLOAT, ACC_INT, ACC_INV2PI,
};
use super::vop::f32_name;
use super::Formatter;
use super::{Fast, Out, FAST};
use crate::family::sop::{Simm16Kind, SopFld, SopInfo};
use crate::inst::{Instruction, Modifiers, OpSpace};
use crate::operand::{Operand, ValType};
use crate::tables::sop as t;
use crate::target::Target;
use core::fmt;

#[inline]
fn info(inst: &Instruction) -> Option<&'static SopInfo> {
    let table: &'static [Option<SopInfo>] = match inst.opcode.space() {
        OpSpace::Sop1 => &t::SOP1,
        OpSpace::Sop2 => &t::SOP2,
        OpSpace::Sopk => &t::SOPK,
        OpSpace::Sopc => &t::SOPC,
        OpSpace::Sopp => &t::SOPP,
        _ => return None,
    };
    table.get(inst.opcode.index() as usize)?.as_ref()
}

/// A SOP1/SOP2/SOPC row's text template for [`write_fast`], computed at
/// compile time from the generated table.
#[derive(Clone, Copy)]
struct Template {
    /// The mnemonic; length 0: no template.
    head: NameBytes,
    /// Operand count.
    n: u8,
    /// Per operand, the constants that print plainly (see [`inline_plain`]).
    acc: [u8; 4],
    /// Per operand, how a literal prints: [`LIT_NONE`] (not here: the
    /// destination), [`LIT_32`] or [`LIT_64`] (zero-extended).
    lit: [u8; 4],
}

const LIT_NONE: u8 = 0;
const LIT_32: u8 = 1;
const LIT_64: u8 = 2;

impl Template {
    const NONE: Template = Template {
        head: [0; 32],
        n: 0,
        acc: [0; 4],
        lit: [LIT_NONE; 4],
    };

    const fn of(row: &Option<SopInfo>) -> Template {
        let Some(info) = row else {
            return Template::NONE;
        };
        if info.slots.len() > 4 || !matches!(info.imm, Simm16Kind::None) {
            return Template::NONE;
        }
        let head = name_chunk(info.name);
        let mut acc = [0u8; 4];
        let mut lit = [LIT_NONE; 4];
        let mut i = 0;
        while i < info.slots.len() {
            let s = &info.slots[i];
            if matches!(s.fld, SopFld::Simm16) {
                return Template::NONE;
            }
            // A constant in sdst, or one LLVM notes, is `write_any`'s.
            if !matches!(s.fld, SopFld::Sdst) && s.imm_ok {
                acc[i] = ACC_INT | ACC_FLOAT | if s.f64 { 0 } else { ACC_INV2PI };
            }
            if !matches!(s.fld, SopFld::Sdst) {
                lit[i] = if s.width == 2 { LIT_64 } else { LIT_32 };
            }
            i += 1;
        }
        Template {
            head,
            n: info.slots.len() as u8,
            acc,
            lit,
        }
    }
}

/// [`Template`]s of a table.
const fn templates<const N: usize>(table: &[Option<SopInfo>; N]) -> [Template; N] {
    let mut ts = [Template::NONE; N];
    let mut i = 0;
    while i < N {
        ts[i] = Template::of(&table[i]);
        i += 1;
    }
    ts
}

static SOP1_TEMPLATES: [Template; t::SOP1.len()] = templates(&t::SOP1);
static SOP2_TEMPLATES: [Template; t::SOP2.len()] = templates(&t::SOP2);
static SOPC_TEMPLATES: [Template; t::SOPC.len()] = templates(&t::SOPC);

/// The common case from a [`Template`]: SOP1/SOP2/SOPC with registers,
/// inline constants that print without a note and literals. The same text
/// as [`write_any`]; `None` for everything else.
#[inline(always)]
fn write_fast(inst: &Instruction, buf: &mut [u8; FAST]) -> Option<usize> {
    let table: &[Template] = match inst.opcode.space() {
        OpSpace::Sop1 => &SOP1_TEMPLATES,
        OpSpace::Sop2 => &SOP2_TEMPLATES,
        OpSpace::Sopc => &SOPC_TEMPLATES,
        _ => return None,
    };
    let tpl = table.get(inst.opcode.index() as usize)?;
    let ops = inst.operands.as_slice();
    if tpl.head[31] == 0 || ops.len() != tpl.n as usize || inst.mods != Modifiers::None {
        return None;
    }
    let mut w = Fast::new(buf);
    w.name(&tpl.head);
    for (s, (&acc, &lit)) in ops.iter().zip(tpl.acc.iter().zip(&tpl.lit)) {
        let text;
        let c = match s.op {
            Operand::Reg { code, count } if code != 254 => reg_text(code, count)?,
            Operand::Inline(code) => inline_plain(code, acc)?,
            Operand::Literal(v) if lit != LIT_NONE => {
                text = literal_chunk(v, lit == LIT_64);
                &text
            }
            _ => return None,
        };
        w.op(c);
    }
    w.done()
}

/// A literal's text as [`write_any`] prints it: [`write_imm32`], or for a
/// 64-bit operand [`write_imm64`] of the zero-extended value (no 64-bit
/// float name has its high half zero).
#[inline]
fn literal_chunk(v: u32, wide: bool) -> ChunkBytes {
    let s = if wide { v as i64 } else { v as i32 as i64 };
    if (-16..=64).contains(&s) {
        if let Some(c) = small_int_chunk(s as i32) {
            return *c;
        }
    }
    match f32_name(v) {
        Some(name) if !wide => text_chunk(name),
        _ => hex_chunk(v),
    }
}

#[inline(always)]
pub(crate) fn write<W: Out>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    if let Some((w, len)) = out.window() {
        if let Some(n) = write_fast(inst, w) {
            *len += n;
            return Ok(());
        }
    }
    write_any(f, inst, out)
}

/// [`write`] piece by piece: every instruction.
#[inline(never)]
fn write_any<W: Out>(f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let Some(info) = info(inst) else {
        return out.write_str(inst.opcode.name());
    };
    out.write_str(info.name)?;
    let simm = match inst.mods {
        Modifiers::Simm16(v) => v,
        _ => 0,
    };
    let mut first = true;
    for (i, slot) in inst.operands.iter().enumerate() {
        let spec = info.slots.get(i);
        // s_endpgm prints its immediate only when it is not zero.
        if info.imm == Simm16Kind::Endpgm && simm == 0 {
            continue;
        }
        write_sep(out, first)?;
        first = false;
        let wide = spec.is_some_and(|s| s.width == 2);
        match (spec.map(|s| s.fld), slot.op) {
            (Some(SopFld::Simm16), _) => write_simm16(f.target(), info.imm, simm, out)?,
            (Some(s), Operand::Inline(c)) if s != SopFld::Sdst => {
                let f64 = spec.is_some_and(|s| s.f64);
                write_inline(c, if f64 { ValType::F64 } else { ValType::B32 }, out)?;
                if !spec.is_some_and(|s| s.imm_ok) {
                    out.write_str("/*Invalid immediate*/")?;
                }
            }
            // A 32-bit literal in a 64-bit operand is zero-extended.
            (_, Operand::Literal(v)) if wide => write_imm64(v as u64, out)?,
            (_, Operand::Literal(v)) => write_imm32(v, out)?,
            (_, Operand::Reg { code: 254, count }) => {
                write_reg(254, count, out)?;
                out.write_str("/*Invalid register, operand has 'SReg_32' register class*/")?;
            }
            (_, op) => write_operand(op, slot.ty, out)?,
        }
    }
    Ok(())
}

/// Print a 16-bit immediate as LLVM does for the instruction's kind.
///
/// Kept out of line: inlined, its field arithmetic gets hoisted into
/// every SOP instruction's path.
#[inline(never)]
fn write_simm16<W: Out>(target: Target, kind: Simm16Kind, v: u16, out: &mut W) -> fmt::Result {
    match kind {
        Simm16Kind::Waitcnt => write_waitcnt(v, out),
        Simm16Kind::SendMsg => write_sendmsg(v, out),
        Simm16Kind::Hwreg => write_hwreg(target, v, out),
        Simm16Kind::DepCtr => write_depctr(target, v, out),
        Simm16Kind::Version => write_version(v, out),
        Simm16Kind::Branch | Simm16Kind::Endpgm => write_dec(out, v as u32),
        Simm16Kind::Hex => write_hex(out, v as u64),
        Simm16Kind::Imm | Simm16Kind::None | Simm16Kind::Zero => write_imm32(v as u32, out),
    }
}

fn write_waitcnt<W: Out>(v: u16, out: &mut W) -> fmt::Result {
    let vm = (v & 0xf) | ((v >> 10) & 0x30);
    let exp = (v >> 4) & 0x7;
    let lgkm = (v >> 8) & 0x3f;
    let all = vm == 0x3f && exp == 0x7 && lgkm == 0x3f;
    let mut sep = "";
    if vm != 0x3f || all {
        write_call(out, "", "vmcnt", vm)?;
        sep = " ";
    }
    if exp != 0x7 || all {
        write_call(out, sep, "expcnt", exp)?;
        sep = " ";
    }
    if lgkm != 0x3f || all {
        write_call(out, sep, "lgkmcnt", lgkm)?;
    }
    Ok(())
}

/// `{sep}{name}({v})`.
fn write_call<W: Out>(out: &mut W, sep: &str, name: &str, v: u16) -> fmt::Result {
    out.write_str(sep)?;
    out.write_str(name)?;
    out.write_char('(')?;
    write_dec(out, v as u32)?;
    out.write_char(')')
}

/// gfx10 message names by id.
fn msg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 => "MSG_SAVEWAVE",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        7 => "MSG_ORDERED_PS_DONE",
        8 => "MSG_EARLY_PRIM_DEALLOC",
        9 => "MSG_GS_ALLOC_REQ",
        10 => "MSG_GET_DOORBELL",
        11 => "MSG_GET_DDID",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

/// gfx10 `MSG_SYSMSG` operation names (`SYSMSG_OP_HOST_TRAP_ACK`, op 3,
/// was dropped after gfx8).
fn sysmsg_op_name(op: u16) -> Option<&'static str> {
    Some(match op {
        1 => "SYSMSG_OP_ECC_ERR_INTERRUPT",
        2 => "SYSMSG_OP_REG_RD",
        4 => "SYSMSG_OP_TTRACE_PC",
        _ => return None,
    })
}

const GS_OP_NAMES: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];

/// `sendmsg(...)`: bits 3:0 message id, 6:4 operation, 9:8 stream. A
/// message with a known name and a valid operation and stream prints
/// symbolically; otherwise the three numbers print when they cover every
/// set bit, and the raw decimal value when they do not.
fn write_sendmsg<W: Out>(v: u16, out: &mut W) -> fmt::Result {
    let id = v & 0xf;
    let op = (v >> 4) & 0x7;
    let stream = (v >> 8) & 0x3;
    let encodable = (id | (op << 4) | (stream << 8)) == v;
    let gs = id == 2 || id == 3;
    let sys = id == 15;
    let valid = match msg_name(id) {
        None => false,
        // MSG_GS needs an operation other than NOP; GS_DONE takes NOP
        // (without a stream) too.
        Some(_) if gs => (op != 0 || id == 3) && op <= 3 && (op != 0 || stream == 0),
        Some(_) if sys => sysmsg_op_name(op).is_some() && stream == 0,
        Some(_) => op == 0 && stream == 0,
    };
    if valid {
        out.write_str("sendmsg(")?;
        out.write_str(msg_name(id).unwrap_or(""))?;
        if gs {
            out.write_str(", ")?;
            out.write_str(GS_OP_NAMES[(op & 3) as usize])?;
            if op != 0 {
                out.write_str(", ")?;
                write_dec(out, stream as u32)?;
            }
        } else if sys {
            out.write_str(", ")?;
            out.write_str(sysmsg_op_name(op).unwrap_or(""))?;
        }
        out.write_str(")")
    } else if encodable {
        out.write_str("sendmsg(")?;
        write_dec(out, id as u32)?;
        out.write_str(", ")?;
        write_dec(out, op as u32)?;
        out.write_str(", ")?;
        write_dec(out, stream as u32)?;
        out.write_str(")")
    } else {
        write_dec(out, v as u32)
    }
}

/// The name of hardware register `id` on `target`, if LLVM knows one.
fn hwreg_name(target: Target, id: u16) -> Option<&'static str> {
    match t::HWREG_NAMES.get(id as usize) {
        Some(Some((name, targets))) if targets & target.bit() != 0 => Some(name),
        _ => None,
    }
}

/// `hwreg(...)`: bits 5:0 register id, 10:6 bit offset, 15:11 width - 1;
/// offset and width print only when they differ from 0 and 32.
fn write_hwreg<W: Out>(target: Target, v: u16, out: &mut W) -> fmt::Result {
    let id = v & 0x3f;
    let offset = (v >> 6) & 0x1f;
    let width = ((v >> 11) & 0x1f) + 1;
    out.write_str("hwreg(")?;
    match hwreg_name(target, id) {
        Some(n) => out.write_str(n)?,
        None => write_dec(out, id as u32)?,
    }
    if offset != 0 || width != 32 {
        out.write_str(", ")?;
        write_dec(out, offset as u32)?;
        out.write_str(", ")?;
        write_dec(out, width as u32)?;
    }
    out.write_str(")")
}

/// One `s_waitcnt_depctr` counter: name, bit offset, width. Every counter's
/// default (no wait) is its maximum value.
struct DepCtrField {
    name: &'static str,
    shift: u16,
    width: u16,
}

/// The counters in printing order; `depctr_hold_cnt` exists only with the
/// gfx10.3 encoding.
const DEPCTR_HOLD_CNT: DepCtrField = DepCtrField {
    name: "depctr_hold_cnt",
    shift: 7,
    width: 1,
};
const DEPCTR_FIELDS: [DepCtrField; 6] = [
    DepCtrField {
        name: "depctr_sa_sdst",
        shift: 0,
        width: 1,
    },
    DepCtrField {
        name: "depctr_va_vdst",
        shift: 12,
        width: 4,
    },
    DepCtrField {
        name: "depctr_va_sdst",
        shift: 9,
        width: 3,
    },
    DepCtrField {
        name: "depctr_va_ssrc",
        shift: 8,
        width: 1,
    },
    DepCtrField {
        name: "depctr_va_vcc",
        shift: 1,
        width: 1,
    },
    DepCtrField {
        name: "depctr_vm_vsrc",
        shift: 2,
        width: 3,
    },
];

/// `s_waitcnt_depctr`: when every set bit belongs to a counter of this
/// target, print the counters that differ from their default (all of them
/// when none does); otherwise print the value in hex.
fn write_depctr<W: Out>(target: Target, v: u16, out: &mut W) -> fmt::Result {
    let hold = target.is_gfx103().then_some(&DEPCTR_HOLD_CNT);
    let fields = || hold.into_iter().chain(DEPCTR_FIELDS.iter());
    let mask_of = |f: &DepCtrField| ((1u16 << f.width) - 1) << f.shift;
    let val_of = |f: &DepCtrField| (v >> f.shift) & ((1u16 << f.width) - 1);
    let used = fields().fold(0u16, |m, f| m | mask_of(f));
    if v & !used != 0 {
        return write_hex(out, v as u64);
    }
    let non_default = fields().any(|f| val_of(f) != (1u16 << f.width) - 1);
    let mut sep = "";
    for f in fields() {
        let val = val_of(f);
        if val != (1u16 << f.width) - 1 || !non_default {
            write_call(out, sep, f.name, val)?;
            sep = " ";
        }
    }
    Ok(())
}

/// `s_version`: bits 7:0 a version code (named for the known ones), bits
/// 13, 14, 15 the W64/W32/MDP flags, printed as an `|` expression; any
/// other set bit makes it a plain hex number.
fn write_version<W: Out>(v: u16, out: &mut W) -> fmt::Result {
    if v & !0xe0ff != 0 {
        return write_hex(out, v as u64);
    }
    const FLAGS: [(u16, &str); 3] = [
        (1 << 13, "UC_VERSION_W64_BIT"),
        (1 << 14, "UC_VERSION_W32_BIT"),
        (1 << 15, "UC_VERSION_MDP_BIT"),
    ];
    // LLVM parenthesises the left side of every nested `|`.
    let nflags = FLAGS.iter().filter(|(b, _)| v & b != 0).count();
    for _ in 1..nflags {
        out.write_str("(")?;
    }
    let code = v & 0xff;
    match code {
        0 => out.write_str("UC_VERSION_GFX7")?,
        4 => out.write_str("UC_VERSION_GFX10")?,
        6 => out.write_str("UC_VERSION_GFX11")?,
        9 => out.write_str("UC_VERSION_GFX12")?,
        _ => write_dec(out, code as u32)?,
    }
    let mut n = 0;
    for (bit, name) in FLAGS {
        if v & bit != 0 {
            out.write_str("|")?;
            out.write_str(name)?;
            n += 1;
            if n < nflags {
                out.write_str(")")?;
            }
        }
    }
    Ok(())
}
