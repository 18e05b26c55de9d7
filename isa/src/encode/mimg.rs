//! MIMG encoding (field layout in `decode/mimg.rs`).
//!
//! Don't-care bits (LLVM decodes the same instruction whatever they hold;
//! we encode them as zero), returned by [`dont_care`]:
//! - dword 0 bits 6 and 14, dword 1 bits 29:26: unused by gfx10 MIMG.
//! - NSA address bytes past the decoded variant's addresses (the padding
//!   of the last NSA dword), and the bytes of addresses LLVM drops because
//!   the instruction needs fewer than the variant holds.

use super::{EncodeError, Encoded};
use crate::family::mimg::{self, MimgKind};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::target::Target;

/// Bits LLVM ignores, per dword.
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [(1 << 6) | (1 << 14), 0xf << 26, 0, 0, 0];
    let Some(info) = mimg::mimg_info(inst.opcode) else {
        return m;
    };
    let mods = mimg::mods_of(inst);
    if mods.nsa_dwords == 0 {
        return m;
    }
    let va = if info.kind == MimgKind::Bvh {
        info.bvh[mods.a16 as usize] as u32
    } else {
        mimg::decoded_addrs(info, &mods)
    };
    let reg = |k: usize| match inst.operands.get(k).map(|s| s.op) {
        Some(Operand::Reg { code, .. }) => code.saturating_sub(VGPR_BASE) as u32,
        _ => 0,
    };
    let (_, aw) = mimg::llvm_shape(info, &mods, reg(0), reg(1));
    // Address k (k >= 1) is byte k-1 of the NSA dwords.
    for b in 0..(4 * mods.nsa_dwords as u32) {
        let k = b + 1;
        if k >= va || k >= aw {
            let d = 2 + (b / 4) as usize;
            if d < 5 {
                m[d] |= 0xff << (8 * (b % 4));
            }
        }
    }
    m
}

fn vgpr(op: Operand) -> Option<u32> {
    match op {
        Operand::Reg { code, .. } if (VGPR_BASE..VGPR_BASE + 256).contains(&code) => {
            Some((code - VGPR_BASE) as u32)
        }
        _ => None,
    }
}

fn sgpr_quad(op: Operand) -> Option<u32> {
    match op {
        Operand::Reg { code, .. } if code < 128 && code % 4 == 0 => Some(code as u32 / 4),
        _ => None,
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let bad = |index: usize, why: &'static str| EncodeError::BadOperand {
        opcode: name,
        index,
        why,
    };
    let info = mimg::mimg_info(inst.opcode)
        .filter(|i| i.targets & target.bit() != 0)
        .ok_or(EncodeError::NoEncoding {
            opcode: name,
            family: inst.family,
            target,
        })?;
    let Modifiers::Mimg(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    let ops = inst.operands.as_slice();
    let nsamp = info.sampler as usize;
    if ops.len() < 3 + nsamp {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: 3 + nsamp,
            got: ops.len(),
        });
    }
    let nrsrc = ops.len() - 1 - nsamp;
    let naddr = nrsrc - 1;
    if m.nsa_dwords as usize > 3 || (m.nsa_dwords == 0 && naddr != 1) || naddr > 13 {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: if m.nsa_dwords == 0 {
                3 + nsamp
            } else {
                naddr + 2 + nsamp
            },
            got: ops.len(),
        });
    }
    let op = inst.opcode.index() as u32;
    let b = |v: bool, s: u32| (v as u32) << s;
    let d0 = (0x3c << 26)
        | ((op & 0x7f) << 18)
        | (op >> 7)
        | ((m.nsa_dwords as u32 & 3) << 1)
        | ((m.dim as u32 & 7) << 3)
        | b(m.dlc, 7)
        | ((m.dmask as u32 & 0xf) << 8)
        | b(m.unorm, 12)
        | b(m.glc, 13)
        | b(m.r128, 15)
        | b(m.tfe, 16)
        | b(m.lwe, 17)
        | b(m.slc, 25);
    let vdata = vgpr(ops[0].op).ok_or(bad(0, "vdata must be a VGPR"))?;
    let vaddr0 = vgpr(ops[1].op).ok_or(bad(1, "vaddr must be a VGPR"))?;
    let rsrc = sgpr_quad(ops[nrsrc].op).ok_or(bad(nrsrc, "srsrc must be an aligned SGPR range"))?;
    let samp = if info.sampler {
        sgpr_quad(ops[nrsrc + 1].op).ok_or(bad(nrsrc + 1, "ssamp must be an aligned SGPR quad"))?
    } else {
        0
    };
    let d1 = vaddr0 | (vdata << 8) | (rsrc << 16) | (samp << 21) | b(m.a16, 30) | b(m.d16, 31);
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    let mut words = [0u32; 3];
    for (k, s) in ops[2..nrsrc].iter().enumerate() {
        let v = vgpr(s.op).ok_or(bad(k + 2, "NSA address must be a VGPR"))?;
        if let Some(w) = words.get_mut(k / 4) {
            *w |= v << (8 * (k % 4));
        }
    }
    for w in words.iter().take(m.nsa_dwords as usize) {
        e.push(*w);
    }
    Ok(e)
}
