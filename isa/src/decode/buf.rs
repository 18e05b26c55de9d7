//! MUBUF and MTBUF decoding.
//!
//! Both encodings are two dwords (three with a literal `soffset`):
//!
//! | bits | MUBUF | MTBUF |
//! |---|---|---|
//! | d0 11:0 | offset | offset |
//! | d0 12, 13 | offen, idxen | offen, idxen |
//! | d0 14, 15 | glc, dlc | glc, dlc |
//! | d0 16 | lds | opcode bit 0 |
//! | d0 17 | unused | opcode bit 1 |
//! | d0 24:18 | opcode bits 6:0 | 18: opcode bit 2; 25:19 format |
//! | d0 25 | opcode bit 7 | |
//! | d1 7:0 | vaddr | vaddr |
//! | d1 15:8 | vdata | vdata |
//! | d1 20:16 | srsrc / 4 | srsrc / 4 |
//! | d1 21 | unused | opcode bit 3 |
//! | d1 22, 23 | slc, tfe | slc, tfe |
//! | d1 31:24 | soffset | soffset |
//!
//! What LLVM 19 rejects (and so do we): opcodes that are not instructions on
//! the target; `lds` on opcodes without an LDS form or together with `tfe`;
//! `tfe` on atomics and on every MTBUF instruction; `dlc` on atomics; any
//! flag but `slc` on `buffer_gl0_inv`/`buffer_gl1_inv`; register ranges
//! that run past `v255`; `srsrc` values naming `s[104:107]` or codes above
//! `ttmp[12:15]`; reserved `soffset` codes.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::buf::{BufKind, BufMods, D16};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode, Operands};
use crate::operand::{Access, OpMods, Operand, Slot, ValType, VGPR_BASE};
use crate::tables::{mtbuf, mubuf};

fn invalid(family: Family, why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family, why }
}

/// The fields both encodings share.
fn common(d0: u32, d1: u32) -> BufMods {
    BufMods {
        offset: (d0 & 0xfff) as u16,
        offen: d0 & (1 << 12) != 0,
        idxen: d0 & (1 << 13) != 0,
        glc: d0 & (1 << 14) != 0,
        dlc: d0 & (1 << 15) != 0,
        lds: false,
        slc: d1 & (1 << 22) != 0,
        tfe: d1 & (1 << 23) != 0,
        format: 0,
    }
}

pub(crate) fn decode_mubuf(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    const F: Family = Family::Mubuf;
    let op = ((d0 >> 18) & 0x7f) | (((d0 >> 25) & 1) << 7);
    let info = match mubuf::MUBUF.get(op as usize) {
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
    let mut mods = common(d0, d1);
    mods.lds = d0 & (1 << 16) != 0;
    let opcode = Opcode::new(OpSpace::Mubuf, op as u16);
    if info.kind == BufKind::Invalidate {
        if mods.offen || mods.idxen || mods.glc || mods.dlc || mods.lds || mods.tfe {
            return Err(invalid(
                F,
                "cache invalidation with addressing or cache bits",
            ));
        }
        // Only the opcode is meaningful; LLVM ignores every other field.
        return {
            out.opcode = opcode;
            out.family = F;
            out.len = 8;
            out.operands = Operands::new();
            out.mods = Modifiers::Buf(BufMods::default());
            Ok(())
        };
    }
    if mods.lds && (!info.lds_ok || mods.tfe) {
        return Err(invalid(
            F,
            "lds on an opcode without an LDS form, or with tfe",
        ));
    }
    if mods.tfe && !info.tfe_ok {
        return Err(invalid(F, "tfe on an atomic"));
    }
    if mods.dlc && !info.dlc_ok {
        return Err(invalid(F, "dlc on an atomic"));
    }
    let operands = &mut out.operands;
    operands.clear();
    if !mods.lds {
        let count = info.vdata + mods.tfe as u8;
        let access = match info.kind {
            BufKind::Load => load_access(info.d16, info.components),
            BufKind::Store => Access::READ,
            _ if mods.glc => {
                // The old value comes back into the first dword(s) only;
                // cmpswap keeps the compare value in the rest.
                let written = (info.mem_bytes / 4).max(1);
                if written < info.vdata {
                    Access::READ | Access::WRITE | Access::PARTIAL
                } else {
                    Access::READ | Access::WRITE
                }
            }
            _ => Access::READ,
        };
        operands.push(slot(
            vgprs(F, (d1 >> 8) & 0xff, count)?,
            access,
            ValType::Data,
        ));
    }
    let len = push_address(operands, w, F, d1, &mods)?;
    {
        out.opcode = opcode;
        out.family = F;
        out.len = len;
        out.mods = Modifiers::Buf(mods);
        Ok(())
    }
}

pub(crate) fn decode_mtbuf(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    const F: Family = Family::Mtbuf;
    let d1 = w.get(1)?;
    let op = ((d0 >> 16) & 7) | (((d1 >> 21) & 1) << 3);
    let info = match mtbuf::MTBUF.get(op as usize) {
        Some(Some(i)) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: F,
                opcode: op as u16,
                target,
            })
        }
    };
    let mut mods = common(d0, d1);
    mods.format = ((d0 >> 19) & 0x7f) as u8;
    if mods.tfe {
        // LLVM 19 has no MTBUF form with tfe.
        return Err(invalid(F, "tfe on a typed buffer instruction"));
    }
    let operands = &mut out.operands;
    operands.clear();
    let access = match info.kind {
        BufKind::Load => load_access(info.d16, info.components),
        _ => Access::READ,
    };
    operands.push(slot(
        vgprs(F, (d1 >> 8) & 0xff, info.vdata)?,
        access,
        ValType::Data,
    ));
    let len = push_address(operands, w, F, d1, &mods)?;
    {
        out.opcode = Opcode::new(OpSpace::Mtbuf, op as u16);
        out.family = F;
        out.len = len;
        out.mods = Modifiers::Buf(mods);
        Ok(())
    }
}

/// The access of a load's vdata: a write, partial when 16-bit results
/// leave half a VGPR untouched.
fn load_access(d16: D16, components: u8) -> Access {
    let partial = match d16 {
        D16::No => false,
        D16::Lo | D16::Hi => true,
        D16::Packed => components % 2 == 1,
    };
    if partial {
        Access::WRITE | Access::PARTIAL
    } else {
        Access::WRITE
    }
}

fn slot(op: Operand, access: Access, ty: ValType) -> Slot {
    Slot {
        op,
        access,
        ty,
        mods: OpMods::empty(),
    }
}

/// `count` VGPRs from the 8-bit field `v`; the range must end by `v255`.
fn vgprs(family: Family, v: u32, count: u8) -> Result<Operand, DecodeErrorKind> {
    if v + count as u32 > 256 {
        return Err(invalid(family, "VGPR range runs past v255"));
    }
    Ok(Operand::Reg {
        code: VGPR_BASE + v as u16,
        count,
    })
}

/// vaddr, srsrc and soffset; returns the instruction length.
fn push_address(
    operands: &mut Operands,
    w: Words<'_>,
    family: Family,
    d1: u32,
    mods: &BufMods,
) -> Result<u8, DecodeErrorKind> {
    let naddr = mods.offen as u8 + mods.idxen as u8;
    let vaddr = if naddr == 0 {
        Operand::Off
    } else {
        vgprs(family, d1 & 0xff, naddr)?
    };
    operands.push(slot(vaddr, Access::READ, ValType::Addr));
    let rsrc = ((d1 >> 16) & 0x1f) as u16 * 4;
    if !matches!(rsrc, 0..=100 | 108..=120) {
        return Err(invalid(family, "srsrc is not an aligned SGPR or TTMP quad"));
    }
    operands.push(slot(
        Operand::Reg {
            code: rsrc,
            count: 4,
        },
        Access::READ,
        ValType::Addr,
    ));
    let mut len = 8;
    let soffset = match (d1 >> 24) as u16 {
        c @ (0..=127 | 235..=239 | 251..=254) => Operand::Reg { code: c, count: 1 },
        c @ (128..=208 | 240..=248) => Operand::Inline(c as u8),
        255 => {
            len = 12;
            Operand::Literal(w.get(2)?)
        }
        _ => return Err(invalid(family, "reserved soffset code")),
    };
    operands.push(slot(soffset, Access::READ, ValType::B32));
    Ok(len)
}
