//! MIMG decoding.
//!
//! | bits | field |
//! |---|---|
//! | d0 0 | opcode bit 7 |
//! | d0 2:1 | NSA dwords (extra address dwords after the two) |
//! | d0 5:3 | dim |
//! | d0 7 | dlc |
//! | d0 11:8 | dmask |
//! | d0 12, 13 | unorm, glc |
//! | d0 15, 16, 17 | r128, tfe, lwe |
//! | d0 24:18 | opcode bits 6:0 |
//! | d0 25 | slc |
//! | d1 7:0 | vaddr (first address) |
//! | d1 15:8 | vdata |
//! | d1 20:16 | srsrc / 4 |
//! | d1 25:21 | ssamp / 4 |
//! | d1 30, 31 | a16, d16 |
//! | NSA dwords | one address VGPR per byte |
//!
//! Bits 6 and 14 of d0 and 29:26 of d1 are unused.
//!
//! What LLVM 19 rejects (and so do we): opcodes that are not instructions on
//! the target; a non-zero sampler field on opcodes without a sampler; d16
//! on opcodes without a 16-bit form; NSA sizes for which the opcode has no
//! variant; default-variant register ranges past `v255`; resource and
//! sampler fields that name no aligned SGPR/TTMP range; ray-tracing words
//! whose fixed fields (dmask 0xf, unorm, r128, dim 0, no cache or
//! tfe/lwe/d16 bits, sampler 0) differ.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::mimg::{self, MimgKind, MimgMods};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType, VGPR_BASE};
use crate::tables::mimg as t;

const F: Family = Family::Mimg;

fn invalid(why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family: F, why }
}

fn slot(op: Operand, access: Access, ty: ValType) -> Slot {
    Slot {
        op,
        access,
        ty,
        mods: OpMods::empty(),
    }
}

/// `count` VGPRs from `v`, clamped so the range ends by `v255`.
fn vgprs(v: u32, count: u32) -> Operand {
    Operand::Reg {
        code: VGPR_BASE + v as u16,
        count: count.min(256 - v).max(1) as u8,
    }
}

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = ((d0 >> 18) & 0x7f) | ((d0 & 1) << 7);
    let info = match t::MIMG.get(op as usize) {
        Some(Some(i)) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: F,
                opcode: op as u16,
                target,
            })
        }
    };
    let d1 = w.get(1)?;
    let bit = |v: u32, b: u32| v & (1 << b) != 0;
    let m = MimgMods {
        dmask: ((d0 >> 8) & 0xf) as u8,
        dim: ((d0 >> 3) & 7) as u8,
        unorm: bit(d0, 12),
        glc: bit(d0, 13),
        slc: bit(d0, 25),
        dlc: bit(d0, 7),
        r128: bit(d0, 15),
        tfe: bit(d0, 16),
        lwe: bit(d0, 17),
        a16: bit(d1, 30),
        d16: bit(d1, 31),
        nsa_dwords: ((d0 >> 1) & 3) as u8,
    };
    let vaddr0 = d1 & 0xff;
    let vdata = (d1 >> 8) & 0xff;
    let rsrc = ((d1 >> 16) & 0x1f) * 4;
    let samp = ((d1 >> 21) & 0x1f) * 4;
    let bvh = info.kind == MimgKind::Bvh;

    // Validity, as LLVM decides it.
    if bvh {
        let fixed = m.dmask == 0xf && m.unorm && m.r128 && m.dim == 0;
        let off = !(m.glc || m.slc || m.dlc || m.tfe || m.lwe || m.d16) && samp == 0;
        if !fixed || !off {
            return Err(invalid("ray tracing with a fixed field changed"));
        }
    } else {
        if !info.sampler && samp != 0 {
            return Err(invalid("sampler field on an opcode without a sampler"));
        }
        if m.d16 && !info.d16 {
            return Err(invalid("d16 on an opcode without a 16-bit form"));
        }
    }
    // srsrc: 8 SGPRs (4 for ray tracing) from a multiple of 4; ssamp: 4.
    let rsrc_ok = if bvh {
        matches!(rsrc, 0..=100 | 108..=120)
    } else {
        matches!(rsrc, 0..=96 | 108..=116)
    };
    if !rsrc_ok || (info.sampler && !matches!(samp, 0..=100 | 108..=120)) {
        return Err(invalid("resource or sampler field names no SGPR range"));
    }
    let va = if bvh {
        let n = info.bvh[m.a16 as usize] as u32;
        if m.nsa_dwords != 0 && m.nsa_dwords as u32 != (n - 1).div_ceil(4) {
            return Err(invalid("NSA size does not match the ray-tracing form"));
        }
        n
    } else {
        mimg::decoded_addrs(info, &m)
    };
    if va == 0 {
        return Err(invalid("no NSA variant of this size"));
    }
    let d0w = info.data.get(info.d0 as usize).copied().unwrap_or(0) as u32;
    if vdata + d0w > 256 || (m.nsa_dwords == 0 && vaddr0 + va > 256) {
        return Err(invalid("VGPR range runs past v255"));
    }

    // Operands, with the hardware's counts.
    let operands = &mut out.operands;
    operands.clear();
    let ndata = mimg::data_dwords(info, &m);
    let data_access = match info.kind {
        MimgKind::Store => Access::READ,
        MimgKind::Atomic if m.glc => {
            if info.x2 {
                Access::READ | Access::WRITE | Access::PARTIAL
            } else {
                Access::READ | Access::WRITE
            }
        }
        MimgKind::Atomic => Access::READ,
        _ => {
            // Packed 16-bit results with an odd component count leave the
            // high half of the last data VGPR alone.
            let comps = match info.kind {
                MimgKind::Gather4 | MimgKind::MsaaLoad => 4,
                _ => (m.dmask & 0xf).count_ones().max(1),
            };
            if m.d16 && info.d16 && comps % 2 == 1 {
                Access::WRITE | Access::PARTIAL
            } else {
                Access::WRITE
            }
        }
    };
    operands.push(slot(vgprs(vdata, ndata), data_access, ValType::Data));
    let naddr = mimg::addr_dwords(info, &m);
    let mut len = 8u8;
    if m.nsa_dwords == 0 {
        operands.push(slot(vgprs(vaddr0, naddr), Access::READ, ValType::Addr));
    } else {
        // One operand per address LLVM prints: the addresses the
        // instruction needs, or all of the decoded variant's when LLVM
        // keeps that (then those past the needed count are not read).
        let (_, shown) = mimg::llvm_shape(info, &m, vdata, vaddr0);
        let extra = va - 1;
        let ndw = extra.div_ceil(4);
        let mut words = [0u32; 3];
        for (k, word) in words.iter_mut().enumerate().take(ndw as usize) {
            *word = w.get(2 + k)?;
        }
        len += 4 * ndw as u8;
        for k in 0..shown.min(va) {
            let v = if k == 0 {
                vaddr0
            } else {
                let b = k - 1;
                (words[(b / 4) as usize] >> (8 * (b % 4))) & 0xff
            };
            let access = if k < naddr {
                Access::READ
            } else {
                Access::empty()
            };
            operands.push(slot(vgprs(v, 1), access, ValType::Addr));
        }
    }
    let rcount = if bvh || m.r128 { 4 } else { 8 };
    operands.push(slot(
        Operand::Reg {
            code: rsrc as u16,
            count: rcount,
        },
        Access::READ,
        ValType::Addr,
    ));
    if info.sampler {
        operands.push(slot(
            Operand::Reg {
                code: samp as u16,
                count: 4,
            },
            Access::READ,
            ValType::Addr,
        ));
    }
    {
        out.opcode = Opcode::new(OpSpace::Mimg, op as u16);
        out.family = F;
        out.len = len;
        out.mods = Modifiers::Mimg(m);
        Ok(())
    }
}
