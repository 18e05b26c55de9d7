//! MUBUF and MTBUF encoding (field layout in `decode/buf.rs`).
//!
//! Don't-care bits (LLVM decodes the same instruction whatever they hold;
//! we encode them as zero), returned by [`dont_care`]:
//! - MUBUF dword 0 bit 17 and dword 1 bit 21: unused by gfx10 MUBUF.
//! - vaddr (dword 1 bits 7:0) when neither `offen` nor `idxen` is set: the
//!   address comes from `soffset` and `offset` only.
//! - vdata (dword 1 bits 15:8) of an `lds` load: the data goes to LDS.
//! - `buffer_gl0_inv`/`buffer_gl1_inv`: every field but the opcode and the
//!   bits that must be zero (`offen`, `idxen`, `glc`, `dlc`, `lds`, `tfe`),
//!   that is offset, bit 17 and all of dword 1 except `tfe`.

use super::{EncodeError, Encoded};
use crate::family::buf::{self, BufKind, BufMods};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::target::Target;

/// Bits LLVM ignores, per dword.
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [0u32; 5];
    let mods = match inst.mods {
        Modifiers::Buf(b) => b,
        _ => BufMods::default(),
    };
    if inst.family == Family::Mubuf {
        let inv = buf::mubuf_info(inst.opcode).is_some_and(|i| i.kind == BufKind::Invalidate);
        if inv {
            return [0xfff | (1 << 17), !(1 << 23), 0, 0, 0];
        }
        m[0] |= 1 << 17;
        m[1] |= 1 << 21;
        if mods.lds {
            m[1] |= 0xff << 8;
        }
    }
    if !mods.offen && !mods.idxen {
        m[1] |= 0xff;
    }
    m
}

fn vgpr_field(op: Operand) -> Option<u32> {
    match op {
        Operand::Reg { code, .. } if (VGPR_BASE..VGPR_BASE + 256).contains(&code) => {
            Some((code - VGPR_BASE) as u32)
        }
        Operand::Off => Some(0),
        _ => None,
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let no = EncodeError::NoEncoding {
        opcode: name,
        family: inst.family,
        target,
    };
    let bad = |index: usize, why: &'static str| EncodeError::BadOperand {
        opcode: name,
        index,
        why,
    };
    let Modifiers::Buf(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    let idx = inst.opcode.index() as u32;
    let (mut d0, mut d1, kind) = match inst.family {
        Family::Mubuf => {
            let i = buf::mubuf_info(inst.opcode)
                .filter(|i| i.targets & target.bit() != 0)
                .ok_or(no)?;
            let d0 =
                (0x38 << 26) | ((idx & 0x7f) << 18) | ((idx >> 7) << 25) | ((m.lds as u32) << 16);
            (d0, 0, i.kind)
        }
        Family::Mtbuf => {
            let i = buf::mtbuf_info(inst.opcode)
                .filter(|i| i.targets & target.bit() != 0)
                .ok_or(no)?;
            let d0 = (0x3a << 26) | (((m.format & 0x7f) as u32) << 19) | ((idx & 7) << 16);
            (d0, (idx >> 3) << 21, i.kind)
        }
        _ => return Err(no),
    };
    let mut e = Encoded::new();
    if kind == BufKind::Invalidate {
        if !inst.operands.is_empty() {
            return Err(EncodeError::OperandCount {
                opcode: name,
                expected: 0,
                got: inst.operands.len(),
            });
        }
        e.push(d0);
        e.push(0);
        return Ok(e);
    }
    d0 |= (m.offset as u32 & 0xfff)
        | ((m.offen as u32) << 12)
        | ((m.idxen as u32) << 13)
        | ((m.glc as u32) << 14)
        | ((m.dlc as u32) << 15);
    d1 |= ((m.slc as u32) << 22) | ((m.tfe as u32) << 23);
    let has_vdata = !(inst.family == Family::Mubuf && m.lds);
    let want = 3 + has_vdata as usize;
    if inst.operands.len() != want {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: want,
            got: inst.operands.len(),
        });
    }
    let mut k = 0;
    if has_vdata {
        let v = vgpr_field(inst.operands[0].op)
            .filter(|_| inst.operands[0].op != Operand::Off)
            .ok_or(bad(0, "vdata must be a VGPR"))?;
        d1 |= v << 8;
        k = 1;
    }
    d1 |= vgpr_field(inst.operands[k].op).ok_or(bad(k, "vaddr must be a VGPR or off"))?;
    match inst.operands[k + 1].op {
        Operand::Reg { code, .. } if code < 128 && code % 4 == 0 => d1 |= ((code / 4) as u32) << 16,
        _ => return Err(bad(k + 1, "srsrc must be an aligned SGPR or TTMP quad")),
    }
    let mut lit = None;
    let so = match inst.operands[k + 2].op {
        Operand::Reg { code, .. } if code < 256 => code as u32,
        Operand::Inline(c) => c as u32,
        Operand::Literal(v) => {
            lit = Some(v);
            255
        }
        _ => return Err(bad(k + 2, "soffset must be a scalar register or constant")),
    };
    d1 |= so << 24;
    e.push(d0);
    e.push(d1);
    if let Some(v) = lit {
        e.push(v);
    }
    Ok(e)
}
