//! DPP16, DPP8 and SDWA formatting.
//!
//! `name_dpp`/`name_sdwa`, the operands (as the `_e32` form prints them,
//! with `-x`, `|x|`, `neg(c)` and `sext(x)` source modifiers), then the
//! controls in LLVM's order:
//!
//! ```text
//! DPP16: <dpp_ctrl> row_mask:0xR bank_mask:0xB [bound_ctrl:1] [fi:1]
//! DPP8:  dpp8:[a,b,c,d,e,f,g,h] [fi:1]
//! SDWA:  [clamp] [mul:2|mul:4|div:2] [dst_sel:X dst_unused:Y] src0_sel:Z [src1_sel:W]
//! ```

use super::operand::{
    reg_text, text_chunk, write_dec, write_hex, write_mnemonic, write_sep, ChunkBytes, NameBytes,
};
use super::vop::{slot_acc, write_value, CODE_ACC};
use super::Formatter;
use super::{Fast, Out, FAST};
use crate::family::vop::VopSlot;
use crate::family::vop_ext::ExtForm;
use crate::family::vop_ext::{self, DppCtrl, DstUnused, SdwaSel};
use crate::inst::OpSpace;
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, Slot};
use crate::tables::{vop as t, vop_ext as tx};
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
    let (Some((info, name)), Some(form)) = (
        super::vop::row(inst.opcode),
        vop_ext::form(inst.opcode, inst.family),
    ) else {
        return out.write_str(inst.opcode.name());
    };
    write_mnemonic(name, info.name.as_str(), out)?;
    out.write_str(if inst.family == Family::Sdwa {
        "_sdwa"
    } else {
        "_dpp"
    })?;
    for (i, (slot, spec)) in inst.operands.iter().zip(form.slots()).enumerate() {
        write_sep(out, i == 0)?;
        write_src(slot, spec, out)?;
    }
    match inst.mods {
        Modifiers::Dpp16(m) => {
            out.write_str(" ")?;
            write_ctrl(m.ctrl, out)?;
            out.write_str(" row_mask:")?;
            write_hex(out, m.row_mask as u64)?;
            out.write_str(" bank_mask:")?;
            write_hex(out, m.bank_mask as u64)?;
            if m.bound_ctrl {
                out.write_str(" bound_ctrl:1")?;
            }
            if m.fi {
                out.write_str(" fi:1")?;
            }
        }
        Modifiers::Dpp8(m) => {
            out.write_str(" dpp8:[")?;
            for (i, s) in m.sel.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write_dec(out, (s & 7) as u32)?;
            }
            out.write_char(']')?;
            if m.fi {
                out.write_str(" fi:1")?;
            }
        }
        Modifiers::Sdwa(m) => {
            if m.clamp {
                out.write_str(" clamp")?;
            }
            match m.omod {
                1 => out.write_str(" mul:2")?,
                2 => out.write_str(" mul:4")?,
                3 => out.write_str(" div:2")?,
                _ => {}
            }
            if form.dst_sel {
                out.write_name(&SDWA_SEL_TEXT[0][m.dst_sel as usize])?;
                out.write_name(&SDWA_UNUSED_TEXT[m.dst_unused as usize])?;
            }
            if form.src_sel[0] {
                out.write_name(&SDWA_SEL_TEXT[1][m.src0_sel as usize])?;
            }
            if form.src_sel[1] {
                out.write_name(&SDWA_SEL_TEXT[2][m.src1_sel as usize])?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `a` then `b` as [`NameBytes`] (length 0 when longer than 31 bytes).
pub(crate) const fn concat_name(a: &str, b: &str) -> NameBytes {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut t = [0u8; 32];
    if a.len() + b.len() > 31 {
        return t;
    }
    let mut i = 0;
    while i < a.len() {
        t[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        t[i + j] = b[j];
        j += 1;
    }
    t[31] = (a.len() + b.len()) as u8;
    t
}

/// `" <dpp_ctrl>"` by the 9-bit control value, for the controls gfx10
/// prints plainly (length 0 for the rest: comments, invalid values).
static CTRL_TEXT: [NameBytes; 512] = {
    let mut t = [[0u8; 32]; 512];
    let mut raw = 0;
    while raw < 512 {
        let (name, n): (&str, i32) = match DppCtrl::from_raw(raw as u16) {
            DppCtrl::QuadPerm(_) => ("quad_perm", -1),
            DppCtrl::RowShl(n) => ("row_shl:", n as i32),
            DppCtrl::RowShr(n) => ("row_shr:", n as i32),
            DppCtrl::RowRor(n) => ("row_ror:", n as i32),
            DppCtrl::RowShare(n) => ("row_share:", n as i32),
            DppCtrl::RowXmask(n) => ("row_xmask:", n as i32),
            DppCtrl::RowMirror => ("row_mirror", -2),
            DppCtrl::RowHalfMirror => ("row_half_mirror", -2),
            _ => ("", -3),
        };
        if n != -3 {
            let mut b = [0u8; 32];
            b[0] = b' ';
            let mut k = 1;
            let nb = name.as_bytes();
            let mut i = 0;
            while i < nb.len() {
                b[k] = nb[i];
                k += 1;
                i += 1;
            }
            if n == -1 {
                // quad_perm:[a,b,c,d]
                let s = b":[";
                b[k] = s[0];
                b[k + 1] = s[1];
                k += 2;
                let mut q = 0;
                while q < 4 {
                    if q > 0 {
                        b[k] = b',';
                        k += 1;
                    }
                    b[k] = b'0' + ((raw >> (2 * q)) & 3) as u8;
                    k += 1;
                    q += 1;
                }
                b[k] = b']';
                k += 1;
            } else if n >= 10 {
                b[k] = b'1';
                b[k + 1] = b'0' + (n - 10) as u8;
                k += 2;
            } else if n >= 0 {
                b[k] = b'0' + n as u8;
                k += 1;
            }
            b[31] = k as u8;
            t[raw] = b;
        }
        raw += 1;
    }
    t
};

/// `" row_mask:0xR bank_mask:0xB"` by `R << 4 | B`.
static MASK_TEXT: [NameBytes; 256] = {
    let mut t = [[0u8; 32]; 256];
    let hex = b"0123456789abcdef";
    let mut v = 0;
    while v < 256 {
        let s = b" row_mask:0x0 bank_mask:0x0";
        let mut b = [0u8; 32];
        let mut i = 0;
        while i < s.len() {
            b[i] = s[i];
            i += 1;
        }
        b[12] = hex[v >> 4];
        b[26] = hex[v & 15];
        b[31] = s.len() as u8;
        t[v] = b;
        v += 1;
    }
    t
};

/// `[" bound_ctrl:1"][" fi:1"]` by `bound_ctrl | fi << 1`.
static DPP_FLAGS_TEXT: [NameBytes; 4] = [
    concat_name("", ""),
    concat_name(" bound_ctrl:1", ""),
    concat_name(" fi:1", ""),
    concat_name(" bound_ctrl:1", " fi:1"),
];

/// `[" clamp"][" mul:2" | " mul:4" | " div:2"]` by `clamp << 2 | omod`.
static SDWA_OUT_TEXT: [ChunkBytes; 8] = [
    text_chunk(""),
    text_chunk(" mul:2"),
    text_chunk(" mul:4"),
    text_chunk(" div:2"),
    text_chunk(" clamp"),
    text_chunk(" clamp mul:2"),
    text_chunk(" clamp mul:4"),
    text_chunk(" clamp div:2"),
];

/// `" dst_sel:X"`, `" src0_sel:X"`, `" src1_sel:X"` by select.
static SDWA_SEL_TEXT: [[NameBytes; 7]; 3] = {
    let mut t = [[[0u8; 32]; 7]; 3];
    let sels = [
        SdwaSel::Byte0,
        SdwaSel::Byte1,
        SdwaSel::Byte2,
        SdwaSel::Byte3,
        SdwaSel::Word0,
        SdwaSel::Word1,
        SdwaSel::Dword,
    ];
    let mut i = 0;
    while i < 7 {
        let s = sels[i];
        t[0][s as usize] = concat_name(" dst_sel:", s.name());
        t[1][s as usize] = concat_name(" src0_sel:", s.name());
        t[2][s as usize] = concat_name(" src1_sel:", s.name());
        i += 1;
    }
    t
};

/// `" dst_unused:Y"` by [`DstUnused`].
static SDWA_UNUSED_TEXT: [NameBytes; 4] = {
    let all = [
        DstUnused::Pad,
        DstUnused::Sext,
        DstUnused::Preserve,
        DstUnused::Reserved,
    ];
    let mut t = [[0u8; 32]; 4];
    let mut i = 0;
    while i < 4 {
        t[all[i] as usize] = concat_name(" dst_unused:", all[i].name());
        i += 1;
    }
    t
};

/// The common case from precomputed text: every operand one register of
/// its class (with any source modifiers), DPP16 controls gfx10 prints
/// plainly, any SDWA fields. The same text as [`write_any`]; `None` for
/// everything else (DPP8, constants, notes).
#[inline(always)]
fn write_fast(inst: &Instruction, buf: &mut [u8; FAST]) -> Option<usize> {
    if inst.opcode.space() != OpSpace::Vop {
        return None;
    }
    let k = match inst.family {
        Family::Dpp16 => 0,
        Family::Sdwa => 1,
        _ => return None,
    };
    let p = *tx::EXT_POS.get(inst.opcode.index() as usize)? as usize;
    let tpl = &EXT_TEMPLATES.get(p)?[k];
    let ops = inst.operands.as_slice();
    if tpl.head[31] == 0 || ops.len() > tpl.n as usize {
        return None;
    }
    let mut w = Fast::new(buf);
    w.name(&tpl.head);
    for (k, s) in ops.iter().enumerate() {
        let Operand::Reg { code, count: 0 | 1 } = s.op else {
            return None;
        };
        let c = reg_text(code, 1)?;
        if CODE_ACC[(code & 511) as usize] & *tpl.acc.get(k)? == 0 {
            return None;
        }
        let m = (s.mods.bits() & 7) as usize;
        if m == 0 {
            w.op(c);
        } else {
            w.sep();
            // A register's entry (bit 3, "a constant", clear).
            let m = &super::vop::MOD_TEXT[m & 7];
            w.chunk(&m[0]);
            w.chunk(c);
            w.chunk(&m[1]);
        }
    }
    match inst.mods {
        Modifiers::Dpp16(m) => {
            let raw = match m.ctrl {
                DppCtrl::QuadPerm(_) | DppCtrl::RowMirror | DppCtrl::RowHalfMirror => m.ctrl.raw(),
                DppCtrl::RowShl(n)
                | DppCtrl::RowShr(n)
                | DppCtrl::RowRor(n)
                | DppCtrl::RowShare(n)
                | DppCtrl::RowXmask(n)
                    if n < 16 =>
                {
                    m.ctrl.raw()
                }
                _ => return None,
            };
            let ctrl = &CTRL_TEXT[(raw & 511) as usize];
            if ctrl[31] == 0 || m.row_mask > 15 || m.bank_mask > 15 {
                return None;
            }
            w.name(ctrl);
            w.name(&MASK_TEXT[((m.row_mask << 4) | m.bank_mask) as usize]);
            w.name(&DPP_FLAGS_TEXT[(m.bound_ctrl as usize) | (m.fi as usize) << 1]);
        }
        Modifiers::Sdwa(m) => {
            if m.omod > 3 {
                return None;
            }
            w.chunk(&SDWA_OUT_TEXT[(m.clamp as usize) << 2 | m.omod as usize]);
            if tpl.sels & 1 != 0 {
                w.name(&SDWA_SEL_TEXT[0][m.dst_sel as usize]);
                w.name(&SDWA_UNUSED_TEXT[m.dst_unused as usize]);
            }
            if tpl.sels & 2 != 0 {
                w.name(&SDWA_SEL_TEXT[1][m.src0_sel as usize]);
            }
            if tpl.sels & 4 != 0 {
                w.name(&SDWA_SEL_TEXT[2][m.src1_sel as usize]);
            }
        }
        _ => return None,
    }
    w.done()
}

/// An extended form's text template for [`write_fast`], computed at
/// compile time from the generated tables.
#[derive(Clone, Copy)]
struct ExtTemplate {
    /// `name_dpp` or `name_sdwa`; length 0: no template.
    head: NameBytes,
    /// Operand count.
    n: u8,
    /// Per operand, the `ACC_*` bits of the registers that print without
    /// a note (see `vop::slot_acc`).
    acc: [u8; 5],
    /// SDWA: bit 0 `dst_sel`/`dst_unused`, bit 1 `src0_sel`, bit 2
    /// `src1_sel` are printed.
    sels: u8,
}

impl ExtTemplate {
    const NONE: ExtTemplate = ExtTemplate {
        head: [0; 32],
        n: 0,
        acc: [0; 5],
        sels: 0,
    };

    const fn of(name: &str, suffix: &str, form: &Option<ExtForm>) -> ExtTemplate {
        let Some(form) = form else {
            return ExtTemplate::NONE;
        };
        if form.slots().len() > 5 {
            return ExtTemplate::NONE;
        }
        let mut acc = [0u8; 5];
        let mut k = 0;
        while k < form.slots().len() {
            acc[k] = slot_acc(&form.slots()[k]);
            k += 1;
        }
        ExtTemplate {
            head: concat_name(name, suffix),
            n: form.slots().len() as u8,
            acc,
            sels: form.dst_sel as u8 | (form.src_sel[0] as u8) << 1 | (form.src_sel[1] as u8) << 2,
        }
    }
}

/// [`ExtTemplate`]s of the extended-form table's rows: `[dpp16, sdwa]`.
static EXT_TEMPLATES: [[ExtTemplate; 2]; tx::EXT.len()] = {
    let mut ts = [[ExtTemplate::NONE; 2]; tx::EXT.len()];
    let mut i = 0;
    while i < ts.len() {
        let e = &tx::EXT[i];
        // The row's mnemonic: the VOP row of the same opcode index.
        let name = match vop_name(e.index) {
            Some(n) => n,
            None => "",
        };
        if !name.is_empty() {
            ts[i] = [
                ExtTemplate::of(name, "_dpp", &e.dpp16),
                ExtTemplate::of(name, "_sdwa", &e.sdwa),
            ];
        }
        i += 1;
    }
    ts
};

/// The base mnemonic of VOP opcode index `index`.
const fn vop_name(index: u16) -> Option<&'static str> {
    if index as usize >= t::VOP_POS.len() {
        return None;
    }
    let p = t::VOP_POS[index as usize] as usize;
    if p >= t::VOP.len() {
        return None;
    }
    Some(t::VOP[p].name.as_str())
}

/// One operand with its source modifiers, as LLVM's
/// `printOperandAndFPInputMods`/`printOperandAndIntInputMods` print them.
fn write_src<W: Out>(slot: &Slot, spec: &VopSlot, out: &mut W) -> fmt::Result {
    let m = slot.mods;
    if m.is_empty() {
        return write_value(slot.op, spec, out);
    }
    let is_const = matches!(slot.op, Operand::Inline(_) | Operand::Literal(_));
    let neg = m.contains(OpMods::NEG);
    let abs = m.contains(OpMods::ABS);
    let sext = m.contains(OpMods::SEXT);
    // A negated constant prints as `neg(c)` (`-1` would be another
    // constant), unless abs is set too.
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

/// The DPP16 control as LLVM prints it for gfx10.
fn write_ctrl<W: Out>(c: DppCtrl, out: &mut W) -> fmt::Result {
    match c {
        DppCtrl::QuadPerm(p) => {
            out.write_str("quad_perm:[")?;
            for (i, s) in p.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write_dec(out, (s & 3) as u32)?;
            }
            out.write_char(']')
        }
        DppCtrl::RowShl(n) => with_number(out, "row_shl:", n),
        DppCtrl::RowShr(n) => with_number(out, "row_shr:", n),
        DppCtrl::RowRor(n) => with_number(out, "row_ror:", n),
        DppCtrl::WaveShl1 => out.write_str("/* wave_shl is not supported starting from GFX10 */"),
        DppCtrl::WaveRol1 => out.write_str("/* wave_rol is not supported starting from GFX10 */"),
        DppCtrl::WaveShr1 => out.write_str("/* wave_shr is not supported starting from GFX10 */"),
        DppCtrl::WaveRor1 => out.write_str("/* wave_ror is not supported starting from GFX10 */"),
        DppCtrl::RowMirror => out.write_str("row_mirror"),
        DppCtrl::RowHalfMirror => out.write_str("row_half_mirror"),
        DppCtrl::RowBcast15 | DppCtrl::RowBcast31 => {
            out.write_str("/* row_bcast is not supported starting from GFX10 */")
        }
        DppCtrl::RowShare(n) => with_number(out, "row_share:", n),
        DppCtrl::RowXmask(n) => with_number(out, "row_xmask:", n),
        DppCtrl::Invalid(_) => out.write_str("/* Invalid dpp_ctrl value */"),
    }
}

/// `name` followed by `n` in decimal.
fn with_number<W: Out>(out: &mut W, name: &str, n: u8) -> fmt::Result {
    out.write_str(name)?;
    write_dec(out, n as u32)
}
