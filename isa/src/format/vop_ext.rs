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

use super::vop::write_value;
use super::Formatter;
use crate::family::vop::{self, VopSlot};
use crate::family::vop_ext::{self, DppCtrl};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, Slot};
use core::fmt;

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let (Some(info), Some(form)) = (
        vop::info(inst.opcode),
        vop_ext::form(inst.opcode, inst.family),
    ) else {
        return out.write_str(inst.opcode.name());
    };
    out.write_str(info.name)?;
    out.write_str(if inst.family == Family::Sdwa {
        "_sdwa"
    } else {
        "_dpp"
    })?;
    for (i, (slot, spec)) in inst.operands.iter().zip(form.slots).enumerate() {
        out.write_str(if i == 0 { " " } else { ", " })?;
        write_src(slot, spec, out)?;
    }
    match inst.mods {
        Modifiers::Dpp16(m) => {
            out.write_str(" ")?;
            write_ctrl(m.ctrl, out)?;
            write!(
                out,
                " row_mask:{:#x} bank_mask:{:#x}",
                m.row_mask, m.bank_mask
            )?;
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
                    out.write_str(",")?;
                }
                write!(out, "{}", s & 7)?;
            }
            out.write_str("]")?;
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
                write!(
                    out,
                    " dst_sel:{} dst_unused:{}",
                    m.dst_sel.name(),
                    m.dst_unused.name()
                )?;
            }
            if form.src_sel[0] {
                write!(out, " src0_sel:{}", m.src0_sel.name())?;
            }
            if form.src_sel[1] {
                write!(out, " src1_sel:{}", m.src1_sel.name())?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// One operand with its source modifiers, as LLVM's
/// `printOperandAndFPInputMods`/`printOperandAndIntInputMods` print them.
fn write_src<W: fmt::Write>(slot: &Slot, spec: &VopSlot, out: &mut W) -> fmt::Result {
    let m = slot.mods;
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
fn write_ctrl<W: fmt::Write>(c: DppCtrl, out: &mut W) -> fmt::Result {
    match c {
        DppCtrl::QuadPerm(p) => write!(
            out,
            "quad_perm:[{},{},{},{}]",
            p[0] & 3,
            p[1] & 3,
            p[2] & 3,
            p[3] & 3
        ),
        DppCtrl::RowShl(n) => write!(out, "row_shl:{n}"),
        DppCtrl::RowShr(n) => write!(out, "row_shr:{n}"),
        DppCtrl::RowRor(n) => write!(out, "row_ror:{n}"),
        DppCtrl::WaveShl1 => out.write_str("/* wave_shl is not supported starting from GFX10 */"),
        DppCtrl::WaveRol1 => out.write_str("/* wave_rol is not supported starting from GFX10 */"),
        DppCtrl::WaveShr1 => out.write_str("/* wave_shr is not supported starting from GFX10 */"),
        DppCtrl::WaveRor1 => out.write_str("/* wave_ror is not supported starting from GFX10 */"),
        DppCtrl::RowMirror => out.write_str("row_mirror"),
        DppCtrl::RowHalfMirror => out.write_str("row_half_mirror"),
        DppCtrl::RowBcast15 | DppCtrl::RowBcast31 => {
            out.write_str("/* row_bcast is not supported starting from GFX10 */")
        }
        DppCtrl::RowShare(n) => write!(out, "row_share:{n}"),
        DppCtrl::RowXmask(n) => write!(out, "row_xmask:{n}"),
        DppCtrl::Invalid(_) => out.write_str("/* Invalid dpp_ctrl value */"),
    }
}
