//! MIMG formatting.
//!
//! `name vdata, vaddr, srsrc[, ssamp] [dmask:0xM] dim:SQ_RSRC_IMG_D [unorm]
//! [glc] [slc] [dlc] [r128] [a16] [tfe] [lwe] [d16]`; NSA addresses print
//! as a list `[v1, v7, v3]` (and sample/gather NSA forms have two spaces
//! after the mnemonic, as LLVM's asm string does). The ray-tracing opcodes
//! print `name vdata, vaddr, srsrc[ a16]`.
//!
//! The vdata and vaddr widths are LLVM's (see `family::mimg::llvm_shape`),
//! which can be narrower than the operands' hardware counts for malformed
//! encodings.

use super::operand::{write_hex, write_reg};
use super::Formatter;
use super::Out;
use crate::family::mimg::{self, MimgKind};
use crate::inst::Instruction;
use crate::operand::{Operand, VGPR_BASE};
use core::fmt;

fn reg_of(op: Operand) -> (u16, u8) {
    match op {
        Operand::Reg { code, count } => (code, count),
        _ => (0, 0),
    }
}

pub(crate) fn write<W: Out>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    super::operand::write_opcode_name(inst.opcode, out)?;
    let Some(info) = mimg::mimg_info(inst.opcode) else {
        return Ok(());
    };
    let m = mimg::mods_of(inst);
    let ops = inst.operands.as_slice();
    let nsamp = info.sampler as usize;
    if ops.len() < 3 + nsamp {
        return Ok(());
    }
    let addrs = &ops[1..ops.len() - 1 - nsamp];
    let (vdata, _) = reg_of(ops[0].op);
    let (vaddr0, _) = reg_of(addrs[0].op);
    let (dw, aw) = mimg::llvm_shape(
        info,
        &m,
        vdata.saturating_sub(VGPR_BASE) as u32,
        vaddr0.saturating_sub(VGPR_BASE) as u32,
    );
    let nsa = m.nsa_dwords != 0;
    out.write_str(if nsa && info.sampler { "  " } else { " " })?;
    write_reg(vdata, dw as u8, out)?;
    out.write_str(", ")?;
    if nsa {
        out.write_str("[")?;
        for (k, a) in addrs.iter().take(aw as usize).enumerate() {
            if k > 0 {
                out.write_str(", ")?;
            }
            write_reg(reg_of(a.op).0, 1, out)?;
        }
        out.write_str("]")?;
    } else {
        write_reg(vaddr0, aw as u8, out)?;
    }
    let (rsrc, _) = reg_of(ops[ops.len() - 1 - nsamp].op);
    out.write_str(", ")?;
    if info.kind == MimgKind::Bvh {
        write_reg(rsrc, 4, out)?;
        if m.a16 {
            out.write_str(" a16")?;
        }
        return Ok(());
    }
    write_reg(rsrc, 8, out)?;
    if info.sampler {
        out.write_str(", ")?;
        write_reg(reg_of(ops[ops.len() - 1].op).0, 4, out)?;
    }
    if m.dmask != 0 {
        out.write_str(" dmask:")?;
        write_hex(out, m.dmask as u64)?;
    }
    out.write_str(" dim:SQ_RSRC_IMG_")?;
    out.write_str(mimg::dim_info(m.dim).name)?;
    for (on, s) in [
        (m.unorm, " unorm"),
        (m.glc, " glc"),
        (m.slc, " slc"),
        (m.dlc, " dlc"),
        (m.r128, " r128"),
        (m.a16, " a16"),
        (m.tfe, " tfe"),
        (m.lwe, " lwe"),
        (m.d16, " d16"),
    ] {
        if on {
            out.write_str(s)?;
        }
    }
    Ok(())
}
