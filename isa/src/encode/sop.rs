//! SOP1, SOP2, SOPK, SOPC and SOPP encoding.
//!
//! Don't-care bits: fields an opcode does not use (for example `sdst` of
//! `s_setpc_b64`, or `ssrc0` of `s_getpc_b64`) are ignored by LLVM's
//! decoder and encoded as zero here; see [`dont_care`].

use super::{EncodeError, Encoded};
use crate::family::sop::{SopFld, SopInfo};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::Operand;
use crate::tables::sop as t;
use crate::target::Target;

fn table(family: Family) -> Option<&'static [Option<SopInfo>]> {
    Some(match family {
        Family::Sop1 => &t::SOP1,
        Family::Sop2 => &t::SOP2,
        Family::Sopk => &t::SOPK,
        Family::Sopc => &t::SOPC,
        Family::Sopp => &t::SOPP,
        _ => return None,
    })
}

/// Per-instruction don't-care bits: unused fields, and the low bit of a
/// 64-bit SGPR/TTMP field (the hardware and LLVM ignore it).
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [0u32; 5];
    let Some(info) = table(inst.family).and_then(|t| t.get(inst.opcode.index() as usize)?.as_ref())
    else {
        return m;
    };
    let (dst, s0, s1): (u32, u32, u32) = match inst.family {
        Family::Sop2 => (0x7f << 16, 0xff, 0xff << 8),
        Family::Sop1 => (0x7f << 16, 0xff, 0),
        Family::Sopk => (0x7f << 16, 0, 0),
        Family::Sopc => (0, 0xff, 0xff << 8),
        _ => (0, 0, 0),
    };
    let mut used = 0u32;
    for (i, s) in info.slots.iter().enumerate() {
        let (mask, shift) = match s.fld {
            SopFld::Sdst => (dst, 16),
            SopFld::Ssrc0 => (s0, 0),
            SopFld::Ssrc1 => (s1, 8),
            SopFld::Simm16 => (0xffff, 0),
        };
        used |= mask;
        if s.width == 2 {
            if let Some(Operand::Reg { code, .. }) = inst.operands.get(i).map(|o| o.op) {
                if code < 106 || (108..124).contains(&code) {
                    m[0] |= 1 << shift;
                }
            }
        }
    }
    m[0] |= (dst | s0 | s1) & !used;
    if inst.family == Family::Sopk && used & 0xffff == 0 {
        m[0] |= 0xffff;
    }
    m
}

fn src_code(op: Operand, lit: &mut Option<u32>) -> Result<u32, &'static str> {
    match op {
        Operand::Reg { code, .. } if code < 256 => Ok(code as u32),
        Operand::Inline(c) => Ok(c as u32),
        Operand::Literal(v) => {
            if lit.is_some_and(|l| l != v) {
                return Err("two different literals");
            }
            *lit = Some(v);
            Ok(255)
        }
        _ => Err("not a scalar source"),
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let info = table(inst.family)
        .and_then(|t| t.get(inst.opcode.index() as usize)?.as_ref())
        .filter(|i| i.targets & target.bit() != 0)
        .ok_or(EncodeError::NoEncoding {
            opcode: name,
            family: inst.family,
            target,
        })?;
    let want = info.slots.len() + info.literal as usize;
    if inst.operands.len() != want {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: want,
            got: inst.operands.len(),
        });
    }
    let op = inst.opcode.index() as u32;
    let (mut sdst, mut s0, mut s1) = (0u32, 0u32, 0u32);
    let mut simm = match inst.mods {
        Modifiers::Simm16(v) => v as u32,
        _ => 0,
    };
    let mut lit = None;
    for (i, s) in info.slots.iter().enumerate() {
        let o = inst.operands[i].op;
        let bad = |why| EncodeError::BadOperand {
            opcode: name,
            index: i,
            why,
        };
        match s.fld {
            SopFld::Sdst => match o {
                Operand::Reg { code, .. } if code < 128 => sdst = code as u32,
                _ => return Err(bad("destination must be a scalar register")),
            },
            SopFld::Ssrc0 => s0 = src_code(o, &mut lit).map_err(bad)?,
            SopFld::Ssrc1 => s1 = src_code(o, &mut lit).map_err(bad)?,
            SopFld::Simm16 => {
                if let Operand::Imm(v) = o {
                    simm = (v as u32) & 0xffff;
                }
            }
        }
    }
    if info.literal {
        if let Operand::Literal(v) = inst.operands[info.slots.len()].op {
            lit = Some(v);
        }
    }
    let d0 = match inst.family {
        Family::Sop2 => (0b10 << 30) | (op << 23) | (sdst << 16) | (s1 << 8) | s0,
        Family::Sopk => (0b1011 << 28) | (op << 23) | (sdst << 16) | simm,
        Family::Sop1 => (0x17d << 23) | (sdst << 16) | (op << 8) | s0,
        Family::Sopc => (0x17e << 23) | (op << 16) | (s1 << 8) | s0,
        _ => (0x17f << 23) | (op << 16) | simm,
    };
    let mut e = Encoded::new();
    e.push(d0);
    if let Some(v) = lit {
        e.push(v);
    }
    Ok(e)
}
