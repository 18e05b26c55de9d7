//! VOP1, VOP2, VOPC, VOP3 and VOP3P formatting.
//!
//! Constants print according to the operand's [`Imm`] kind, mirroring
//! LLVM's `printImmediate*` functions: 16-bit integer operands print the
//! f16 bit pattern of inline float constants (`0x3c00`), 64-bit float
//! literals are the high dword, and so on.

use super::operand::{
    hex_chunk, inline_chunk, inline_plain, name_chunk, reg_text, small_int_chunk, text_chunk,
    write_dec, write_hex, write_int, write_mnemonic, write_reg, write_sep, ChunkBytes, NameBytes,
    ACC_FLOAT, ACC_INT, ACC_INV2PI,
};
use super::Formatter;
use super::{Fast, Out, FAST};
use crate::family::vop::{Cls, Fld, Imm, Role, Vop3Mods, Vop3pMods, VopForm, VopInfo, VopSlot};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{OpMods, Operand, Slot};
use crate::tables::{vop as t, vop3p as tp};
use core::fmt;

#[inline(always)]
pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    if let Some((w, len)) = out.window() {
        if let Some(n) = write_fast(inst, w) {
            *len += n;
            return Ok(());
        }
    }
    write_any(inst, out)
}

/// [`write`] piece by piece: every instruction.
#[inline(never)]
fn write_any<W: Out>(inst: &Instruction, out: &mut W) -> fmt::Result {
    let Some((info, name, form)) =
        row(inst.opcode).and_then(|(i, name)| Some((i, name, i.form(inst.family)?)))
    else {
        return out.write_str(inst.opcode.name());
    };
    write_mnemonic(name, info.name.as_str(), out)?;
    if form.suffix {
        out.write_str(match inst.family {
            Family::Vop3 => "_e64",
            _ => "_e32",
        })?;
    }
    for (i, (slot, spec)) in inst.operands.iter().zip(form.slots()).enumerate() {
        write_sep(out, i == 0)?;
        if slot.mods.is_empty() {
            write_plain_value(slot.op, spec, out)?;
        } else {
            write_slot(slot, spec, i, form, out)?;
        }
    }
    let (clamp, omod, opsel_dst, high) = match inst.mods {
        Modifiers::Vop3(m) => (m.clamp, m.omod, m.opsel_dst, m.high),
        Modifiers::Vop3p(m) => (m.clamp, 0, false, false),
        _ => (false, 0, false, false),
    };
    if high {
        out.write_str(" high")?;
    }
    if form.lists != [0; 4] {
        write_lists(inst, form, opsel_dst, out)?;
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

/// A form's text template for [`write_fast`]: the mnemonic with its
/// suffix, and per operand which values print as a plain chunk (see
/// [`ACC_VGPR`] and friends). Derived at compile time from the generated
/// tables, like the mnemonic chunks.
#[derive(Clone, Copy)]
struct Template {
    /// Mnemonic and suffix; length 0: no template (too long).
    head: NameBytes,
    /// Operand count; 255 for forms with more than [`TPL_OPS`] operands.
    n: u8,
    /// The form's encoding.
    family: Family,
    /// Per operand, the `ACC_*` bits of what prints without a note.
    acc: [u8; TPL_OPS],
    /// Per operand, the prefix modifiers (`OpMods` neg, abs, sext) the
    /// form prints as `-x`, `|x|`, `neg(c)`, `sext(x)`.
    mods_ok: [u8; TPL_OPS],
    /// Per operand, how a literal prints.
    imm: [Imm; TPL_OPS],
}

/// Most operands a [`Template`] covers (VOP3 with `sdst`, three sources).
const TPL_OPS: usize = 5;

/// [`Template::acc`]: a VGPR.
const ACC_VGPR: u8 = 1;
/// A scalar register (SGPR, vcc, ttmp, m0, exec).
const ACC_SGPR: u8 = 2;
/// `src_lds_direct`.
const ACC_LDS: u8 = 4;
/// The values LLVM never flags (`null`, `src_shared_base` ...).
const ACC_ANY: u8 = 8;
// Constants: ACC_INT, ACC_FLOAT, ACC_INV2PI (see `inline_plain`).

/// The `ACC_*` class of every register code (see [`in_class`]).
pub(crate) static CODE_ACC: [u8; 512] = {
    let mut t = [ACC_SGPR; 512];
    let mut c = 0;
    while c < 512 {
        t[c] = match c {
            256..=511 => ACC_VGPR,
            254 => ACC_LDS,
            125 | 235..=239 | 251..=253 => ACC_ANY,
            _ => ACC_SGPR,
        };
        c += 1;
    }
    t
};

impl Template {
    const NONE: Template = Template {
        head: [0; 32],
        n: 255,
        family: Family::Vop1,
        acc: [0; TPL_OPS],
        mods_ok: [0; TPL_OPS],
        imm: [Imm::None; TPL_OPS],
    };

    const fn of(name: &str, form: &Option<VopForm>) -> Template {
        let Some(form) = form else {
            return Template::NONE;
        };
        // Packed math prints op_sel_hi unless every bit is set: no template.
        if form.slots().len() > TPL_OPS || form.packed {
            return Template::NONE;
        }
        let suffix: &[u8] = if !form.suffix {
            b""
        } else if matches!(form.family, Family::Vop3) {
            b"_e64"
        } else {
            b"_e32"
        };
        let name = name.as_bytes();
        let total = name.len() + suffix.len();
        if total > 31 {
            return Template::NONE;
        }
        let mut head = [0u8; 32];
        let mut i = 0;
        while i < name.len() {
            head[i] = name[i];
            i += 1;
        }
        let mut j = 0;
        while j < suffix.len() {
            head[i + j] = suffix[j];
            j += 1;
        }
        head[31] = total as u8;
        let mut acc = [0u8; TPL_OPS];
        let mut imm = [Imm::None; TPL_OPS];
        let mut k = 0;
        while k < form.slots().len() {
            let s = &form.slots()[k];
            let a = slot_acc(s);
            acc[k] = a;
            imm[k] = s.imm;
            k += 1;
        }
        let mut mods_ok = [0u8; TPL_OPS];
        let mut b = 0;
        while b < form.bits().len() {
            let bit = &form.bits()[b];
            let flag = match bit.role {
                Role::Neg => OpMods::NEG.bits(),
                Role::Abs => OpMods::ABS.bits(),
                Role::Sext => OpMods::SEXT.bits(),
                _ => 0,
            };
            if (bit.slot as usize) < TPL_OPS {
                mods_ok[bit.slot as usize] |= flag;
            }
            b += 1;
        }
        Template {
            head,
            n: form.slots().len() as u8,
            family: form.family,
            acc,
            mods_ok,
            imm,
        }
    }
}

/// The `ACC_*` bits of what prints without a note in operand `s` (see
/// [`Template::acc`]; [`CODE_ACC`] gives a register code's bit).
pub(crate) const fn slot_acc(s: &VopSlot) -> u8 {
    let checked = !matches!(s.fld, Fld::Vcc | Fld::KLit | Fld::Attr | Fld::Param);
    let mut a = ACC_ANY;
    if !checked || s.cls.vgpr {
        a |= ACC_VGPR;
    }
    if !checked || s.cls.sgpr {
        a |= ACC_SGPR;
    }
    if !checked || s.cls.lds {
        a |= ACC_LDS;
    }
    if !checked || s.cls.imm {
        a |= ACC_INT;
        if !matches!(s.imm, Imm::I16 | Imm::V2I16) {
            a |= ACC_FLOAT;
            if !matches!(s.imm, Imm::F64 | Imm::I64) {
                a |= ACC_INV2PI;
            }
        }
    }
    a
}

/// [`Template`]s of the VOP table's rows: `[e32, e64]`.
static VOP_TEMPLATES: [[Template; 2]; t::VOP.len()] = {
    let mut ts = [[Template::NONE; 2]; t::VOP.len()];
    let mut i = 0;
    while i < ts.len() {
        ts[i] = [
            Template::of(t::VOP[i].name.as_str(), &t::VOP[i].e32),
            Template::of(t::VOP[i].name.as_str(), &t::VOP[i].e64),
        ];
        i += 1;
    }
    ts
};

/// [`Template`]s of the VOP3P table's rows (their form is `e64`).
static VOP3P_TEMPLATES: [Template; tp::VOP3P.len()] = {
    let mut ts = [Template::NONE; tp::VOP3P.len()];
    let mut i = 0;
    while i < ts.len() {
        ts[i] = Template::of(tp::VOP3P[i].name.as_str(), &tp::VOP3P[i].e64);
        i += 1;
    }
    ts
};

/// The source-modifier text before (`[0]`) and after (`[1]`) an operand,
/// by the low three [`OpMods`] bits (neg, abs, sext) and, in bit 3,
/// whether the operand is a constant, as [`write_slot`] prints them (the
/// DPP/SDWA templates of `vop_ext` use the register entries, 0..8).
pub(super) static MOD_TEXT: [[ChunkBytes; 2]; 16] = {
    let mut t = [[[0u8; 16]; 2]; 16];
    let mut m = 0;
    while m < 16 {
        let (neg, abs, sext, is_const) = (m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0);
        let negfn = neg && !abs && is_const;
        let mut pre = [0u8; 16];
        let mut n = 0;
        let p: &[u8] = if negfn {
            b"neg("
        } else if neg {
            b"-"
        } else {
            b""
        };
        let mut k = 0;
        while k < p.len() {
            pre[n] = p[k];
            n += 1;
            k += 1;
        }
        if sext {
            let s = b"sext(";
            let mut k = 0;
            while k < s.len() {
                pre[n] = s[k];
                n += 1;
                k += 1;
            }
        }
        if abs {
            pre[n] = b'|';
            n += 1;
        }
        pre[15] = n as u8;
        let mut post = [0u8; 16];
        let mut q = 0;
        if abs {
            post[q] = b'|';
            q += 1;
        }
        if sext || negfn {
            post[q] = b')';
            q += 1;
        }
        post[15] = q as u8;
        t[m] = [pre, post];
        m += 1;
    }
    t
};

/// `[" clamp"][" mul:2" | " mul:4" | " div:2"]` by `clamp << 2 | omod`.
static OUT_TEXT: [ChunkBytes; 8] = [
    text_chunk(""),
    text_chunk(" mul:2"),
    text_chunk(" mul:4"),
    text_chunk(" div:2"),
    text_chunk(" clamp"),
    text_chunk(" clamp mul:2"),
    text_chunk(" clamp mul:4"),
    text_chunk(" clamp div:2"),
];

/// The common case from a [`Template`]: every operand a register of its
/// class, an inline constant without a note or a literal, with the prefix
/// modifiers its form prints; `clamp` and `omod`. The same text as
/// [`write_any`]; `None` (having written nothing that counts) for
/// everything else (`op_sel` and the other lists, notes, `high`).
#[inline(always)]
fn write_fast(inst: &Instruction, buf: &mut [u8; FAST]) -> Option<usize> {
    let i = inst.opcode.index() as usize;
    // The family says which space the opcode must be in.
    let space = inst.opcode.raw() >> 11;
    let (tpl, tail) = match (inst.family, space) {
        (Family::Vop1 | Family::Vop2 | Family::Vopc, VOP_SPACE) => {
            let p = *t::VOP_POS.get(i)? as usize;
            (&VOP_TEMPLATES.get(p)?[0], 0)
        }
        (Family::Vop3, VOP_SPACE) => {
            let Modifiers::Vop3(Vop3Mods {
                clamp,
                omod,
                opsel_dst: false,
                high: false,
            }) = inst.mods
            else {
                return None;
            };
            let p = *t::VOP_POS.get(i)? as usize;
            (
                &VOP_TEMPLATES.get(p)?[1],
                (clamp as usize) << 2 | (omod & 3) as usize,
            )
        }
        (Family::Vop3p, VOP3P_SPACE) => {
            let Modifiers::Vop3p(Vop3pMods { clamp }) = inst.mods else {
                return None;
            };
            let p = *tp::VOP3P_POS.get(i)? as usize;
            (VOP3P_TEMPLATES.get(p)?, (clamp as usize) << 2)
        }
        _ => return None,
    };
    let ops = inst.operands.as_slice();
    if tpl.family != inst.family || tpl.n as usize != ops.len() || tpl.head[31] == 0 {
        return None;
    }
    let mut w = Fast::new(buf);
    w.name(&tpl.head);
    let specs = tpl.acc.iter().zip(&tpl.mods_ok).zip(&tpl.imm);
    for (s, ((&acc, &mods_ok), &imm)) in ops.iter().zip(specs) {
        let m = s.mods.bits();
        if m & !mods_ok != 0 {
            return None;
        }
        let lit;
        let (c, is_const) = match s.op {
            Operand::Reg { code, count } => {
                let c = reg_text(code, count)?;
                if CODE_ACC[(code & 511) as usize] & acc == 0 {
                    return None;
                }
                (c, 0)
            }
            Operand::Inline(code) => (inline_plain(code, acc)?, 8),
            Operand::Literal(v) if acc & ACC_INT != 0 => {
                lit = literal_chunk(v, imm);
                (&lit, 8)
            }
            _ => return None,
        };
        if m == 0 {
            w.op(c);
        } else {
            w.sep();
            let mt = &MOD_TEXT[(m as usize & 7) | is_const];
            w.chunk(&mt[0]);
            w.chunk(c);
            w.chunk(&mt[1]);
        }
    }
    if tail != 0 {
        w.chunk(&OUT_TEXT[tail & 7]);
    }
    w.done()
}

/// [`Opcode::raw`] `>> 11` of the VOP and VOP3P spaces.
const VOP_SPACE: u16 = OpSpace::Vop as u16;
const VOP3P_SPACE: u16 = OpSpace::Vop3p as u16;

/// The mnemonics of the VOP table's rows as [`NameBytes`].
static VOP_NAMES: [NameBytes; t::VOP.len()] = {
    let mut names = [[0u8; 32]; t::VOP.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = name_chunk(t::VOP[i].name.as_str());
        i += 1;
    }
    names
};

/// The mnemonics of the VOP3P table's rows as [`NameBytes`].
static VOP3P_NAMES: [NameBytes; tp::VOP3P.len()] = {
    let mut names = [[0u8; 32]; tp::VOP3P.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = name_chunk(tp::VOP3P[i].name.as_str());
        i += 1;
    }
    names
};

/// The table row of a VOP or VOP3P opcode (as [`crate::family::vop::info`]) with its
/// mnemonic as [`NameBytes`].
#[inline(always)]
pub(crate) fn row(op: Opcode) -> Option<(&'static VopInfo, &'static NameBytes)> {
    let i = op.index() as usize;
    match op.space() {
        OpSpace::Vop => {
            let p = *t::VOP_POS.get(i)? as usize;
            Some((t::VOP.get(p)?, VOP_NAMES.get(p)?))
        }
        OpSpace::Vop3p => {
            let p = *tp::VOP3P_POS.get(i)? as usize;
            Some((tp::VOP3P.get(p)?, VOP3P_NAMES.get(p)?))
        }
        _ => None,
    }
}

/// The modifier flags the `op_sel`-style lists are made of.
const LIST_FLAGS: OpMods = OpMods::OP_SEL
    .union(OpMods::OP_SEL_HI)
    .union(OpMods::NEG)
    .union(OpMods::NEG_HI);

/// Print the `op_sel`, `op_sel_hi`, `neg_lo` and `neg_hi` lists of the
/// form, each only when an entry differs from its default (1 for
/// `op_sel_hi` of packed math, else 0).
fn write_lists<W: Out>(
    inst: &Instruction,
    form: &VopForm,
    opsel_dst: bool,
    out: &mut W,
) -> fmt::Result {
    // Without packed math every default is 0: nothing to print unless a
    // flag the lists are made of is set somewhere.
    if !form.packed && !opsel_dst && inst.operands.iter().all(|s| !s.mods.intersects(LIST_FLAGS)) {
        return Ok(());
    }
    // One pass over the bits fills every list.
    let mut vals = [[false; 4]; 4];
    vals[1] = [form.packed; 4];
    for b in form.bits() {
        let (li, pos, flag) = match b.role {
            Role::OpSel(p) => (0, p, OpMods::OP_SEL),
            Role::OpSelHi(p) => (1, p, OpMods::OP_SEL_HI),
            Role::NegLo(p) => (2, p, OpMods::NEG),
            Role::NegHi(p) => (3, p, OpMods::NEG_HI),
            _ => continue,
        };
        let v = match inst.operands.get(b.slot as usize) {
            Some(s) => s.mods.contains(flag),
            None => li == 0 && opsel_dst,
        };
        if let Some(x) = vals[li].get_mut(pos as usize) {
            *x = v;
        }
    }
    let names = [" op_sel:[", " op_sel_hi:[", " neg_lo:[", " neg_hi:["];
    for (li, name) in names.iter().enumerate() {
        let len = (form.lists[li] as usize).min(4);
        let default = li == 1 && form.packed;
        let vals = &vals[li][..len];
        if vals.iter().all(|v| *v == default) {
            continue;
        }
        out.write_str(name)?;
        for (i, v) in vals.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            out.write_char(if *v { '1' } else { '0' })?;
        }
        out.write_char(']')?;
    }
    Ok(())
}

/// True when a prefix-style modifier role for `slot` exists in the form.
fn has_role(form: &VopForm, slot: usize, role: Role) -> bool {
    form.bits()
        .iter()
        .any(|b| b.role == role && b.slot as usize == slot)
}

/// Write one operand with its prefix modifiers (shared with the DPP/SDWA
/// formatters, which print the same operands).
pub(crate) fn write_slot<W: Out>(
    slot: &Slot,
    spec: &VopSlot,
    i: usize,
    form: &VopForm,
    out: &mut W,
) -> fmt::Result {
    let m = slot.mods;
    if m.is_empty() {
        return write_value(slot.op, spec, out);
    }
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
#[inline]
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
#[inline(always)]
pub(crate) fn write_value<W: Out>(op: Operand, spec: &VopSlot, out: &mut W) -> fmt::Result {
    // The common case inline: one register of the operand's class (DPP and
    // SDWA operands are nearly always that).
    if let Operand::Reg { code, count: 0 | 1 } = op {
        if let Some(c) = reg_text(code, 1) {
            if !checked(spec.fld) || in_class(code, &spec.cls) {
                return out.write_chunk(c);
            }
        }
    }
    write_value_any(op, spec, out)
}

/// [`write_value`] with the other frequent VOP operands inline too:
/// register pairs and quads, inline constants.
#[inline(always)]
fn write_plain_value<W: Out>(op: Operand, spec: &VopSlot, out: &mut W) -> fmt::Result {
    match op {
        Operand::Reg { code, count } => {
            if let Some(c) = reg_text(code, count) {
                if !checked(spec.fld) || in_class(code, &spec.cls) {
                    return out.write_chunk(c);
                }
            }
        }
        Operand::Inline(code) if !checked(spec.fld) || spec.cls.imm => {
            let float_names = match spec.imm {
                Imm::I16 | Imm::V2I16 => false,
                Imm::F64 | Imm::I64 => code != 248,
                _ => true,
            };
            if let Some(c) = inline_chunk(code, float_names) {
                return out.write_chunk(c);
            }
        }
        _ => {}
    }
    write_value_any(op, spec, out)
}

/// True when LLVM checks the operand's register class (every field but
/// the implicit `vcc`, the K constant and the interpolation fields).
#[inline(always)]
fn checked(fld: Fld) -> bool {
    !matches!(fld, Fld::Vcc | Fld::KLit | Fld::Attr | Fld::Param)
}

/// [`write_value`] for every operand.
#[inline(never)]
fn write_value_any<W: Out>(op: Operand, spec: &VopSlot, out: &mut W) -> fmt::Result {
    let checked = checked(spec.fld);
    match op {
        Operand::Reg { code, count } => {
            write_reg(code, count, out)?;
            if checked && !in_class(code, &spec.cls) {
                out.write_str("/*Invalid register, operand has '")?;
                out.write_str(spec.cls.name.as_str())?;
                out.write_str("' register class*/")?;
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
                out.write_str("attr")?;
                write_dec(out, (v & 0x3f) as u32)?;
                out.write_char('.')?;
                out.write_char(chan)?;
            }
            Fld::Param => match v {
                0 => out.write_str("p10")?,
                1 => out.write_str("p20")?,
                2 => out.write_str("p0")?,
                _ => {
                    out.write_str("invalid_param_")?;
                    write_int(out, v as i64)?;
                }
            },
            _ => write_int(out, v as i64)?,
        },
        Operand::Off => out.write_str("off")?,
    }
    Ok(())
}

/// The name LLVM prints for a 32-bit float bit pattern that is an inline
/// value.
pub(crate) fn f32_name(v: u32) -> Option<&'static str> {
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

/// An inline-constant code, printed for an operand of kind `imm`.
pub(crate) fn write_inline<W: Out>(code: u8, imm: Imm, out: &mut W) -> fmt::Result {
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
                Imm::I16 | Imm::V2I16 => write_hex(out, f16 as u64),
                Imm::F64 | Imm::I64 if code == 248 => out.write_str("0.15915494309189532"),
                _ => match f16_name(f16) {
                    Some(n) => out.write_str(n),
                    None => {
                        out.write_str("<inline ")?;
                        write_dec(out, code as u32)?;
                        out.write_char('>')
                    }
                },
            }
        }
    }
}

/// A literal, printed for an operand of kind `imm`.
pub(crate) fn write_literal<W: Out>(v: u32, imm: Imm, out: &mut W) -> fmt::Result {
    out.write_chunk(&literal_chunk(v, imm))
}

/// A literal's text for an operand of kind `imm`.
#[inline]
fn literal_chunk(v: u32, imm: Imm) -> ChunkBytes {
    // Inline-range integers and float names print as such; the rest in hex.
    let int = |n: i32| small_int_chunk(n).copied();
    let name = |n: Option<&str>| n.map(text_chunk);
    let c = match imm {
        Imm::K32 | Imm::K16 => None,
        Imm::F16 => int(v as u16 as i16 as i32)
            .or_else(|| name(f16_name(v as u16)))
            .or_else(|| Some(hex_chunk(v & 0xffff))),
        Imm::I16 => int(v as i32)
            .or_else(|| name(f32_name(v)))
            .or_else(|| Some(hex_chunk(v & 0xffff))),
        Imm::F64 => {
            if v == 0 {
                Some(text_chunk("0"))
            } else {
                name(f64_hi_name(v))
            }
        }
        Imm::I64 => (v <= 64).then(|| int(v as i32)).flatten(),
        Imm::V2F16 => {
            int(v as i32).or_else(|| (v <= 0xffff).then(|| name(f16_name(v as u16))).flatten())
        }
        Imm::B32 | Imm::V2I16 | Imm::None => int(v as i32).or_else(|| name(f32_name(v))),
    };
    c.unwrap_or_else(|| hex_chunk(v))
}
