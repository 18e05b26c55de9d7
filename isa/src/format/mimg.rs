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

use super::operand::{text_chunk, write_hex, write_reg, ChunkBytes, NameBytes};
use super::vop_ext::concat_name;
use super::Formatter;
use super::Out;
use crate::family::mimg::{self, MimgKind};
use crate::inst::Instruction;
use crate::operand::{Operand, VGPR_BASE};
use crate::tables::mimg::DIMS;
use core::fmt;

/// `" dmask:0xM"` by dmask (nothing for 0), as `write_hex` prints it.
static DMASK_TEXT: [ChunkBytes; 16] = {
    let mut t = [[0u8; 16]; 16];
    let digits = b"0123456789abcdef";
    let mut d = 1;
    while d < 16 {
        t[d] = text_chunk(" dmask:0x");
        t[d][9] = digits[d];
        t[d][15] = 10;
        d += 1;
    }
    t
};

/// `" dim:SQ_RSRC_IMG_<name>"` by the low three bits of `dim`.
static DIM_TEXT: [NameBytes; 8] = {
    let mut t = [[0u8; 32]; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = concat_name(" dim:SQ_RSRC_IMG_", DIMS[d].name.as_str());
        // Every name fits (a compile error otherwise).
        assert!(t[d][31] != 0);
        d += 1;
    }
    t
};

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
    match DMASK_TEXT.get(m.dmask as usize) {
        Some(c) => out.write_chunk(c)?,
        None => {
            out.write_str(" dmask:")?;
            write_hex(out, m.dmask as u64)?;
        }
    }
    out.write_name(&DIM_TEXT[(m.dim & 7) as usize])?;
    let any = m.unorm | m.glc | m.slc | m.dlc | m.r128 | m.a16 | m.tfe | m.lwe | m.d16;
    if !any {
        return Ok(());
    }
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
