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

use super::operand::{text_chunk, write_dec, write_hex, write_mnemonic, write_sep, ChunkBytes};
use super::vop::write_value;
use super::Formatter;
use super::Out;
use crate::family::vop::VopSlot;
use crate::family::vop_ext::{self, DppCtrl, DstUnused, SdwaSel};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, Slot};
use core::fmt;

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let (Some((info, name)), Some(form)) = (
        super::vop::row(inst.opcode),
        vop_ext::form(inst.opcode, inst.family),
    ) else {
        return out.write_str(inst.opcode.name());
    };
    write_mnemonic(name, info.name, out)?;
    out.write_str(if inst.family == Family::Sdwa {
        "_sdwa"
    } else {
        "_dpp"
    })?;
    for (i, (slot, spec)) in inst.operands.iter().zip(form.slots).enumerate() {
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
                out.write_str(" dst_sel:")?;
                out.write_chunk(&SEL_NAMES[m.dst_sel as usize])?;
                out.write_str(" dst_unused:")?;
                out.write_chunk(&UNUSED_NAMES[m.dst_unused as usize])?;
            }
            if form.src_sel[0] {
                out.write_str(" src0_sel:")?;
                out.write_chunk(&SEL_NAMES[m.src0_sel as usize])?;
            }
            if form.src_sel[1] {
                out.write_str(" src1_sel:")?;
                out.write_chunk(&SEL_NAMES[m.src1_sel as usize])?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// [`SdwaSel::name`] of every select, as chunks.
static SEL_NAMES: [ChunkBytes; 7] = {
    let sels = [
        SdwaSel::Byte0,
        SdwaSel::Byte1,
        SdwaSel::Byte2,
        SdwaSel::Byte3,
        SdwaSel::Word0,
        SdwaSel::Word1,
        SdwaSel::Dword,
    ];
    let mut t = [[0u8; 16]; 7];
    let mut i = 0;
    while i < 7 {
        t[sels[i] as usize] = text_chunk(sels[i].name());
        i += 1;
    }
    t
};

/// [`DstUnused::name`] of every value, as chunks.
static UNUSED_NAMES: [ChunkBytes; 4] = {
    let all = [
        DstUnused::Pad,
        DstUnused::Sext,
        DstUnused::Preserve,
        DstUnused::Reserved,
    ];
    let mut t = [[0u8; 16]; 4];
    let mut i = 0;
    while i < 4 {
        t[all[i] as usize] = text_chunk(all[i].name());
        i += 1;
    }
    t
};

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
