//! FLAT, GLOBAL and SCRATCH encoding.
//!
//! Don't-care bits (LLVM decodes them without looking): the register
//! fields no operand uses (`vdst` of stores, of atomics without `glc` and
//! of loads to LDS; `data` of loads; `vaddr` where it prints `off` or is
//! absent), and the low bit of a 64-bit `saddr` SGPR/TTMP pair (LLVM
//! rounds it down to the even register), and bit 25 of the first dword
//! (between `op` and the encoding prefix). The addressing mode is recovered
//! from the operands; `saddr` is written as `null` (0x7d) for "off" and
//! 0x7f for scratch's ST mode.

use super::{EncodeError, Encoded};
use crate::family::flat::{self, FlatAddr, FlatMode, Saddr};
use crate::inst::{Instruction, Modifiers};
use crate::operand::{Operand, VGPR_BASE};
use crate::target::Target;

/// Bits LLVM ignores, per dword, for one instruction.
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    // Bit 25 of the first dword lies between `op` and the encoding prefix
    // and is ignored.
    let mut m = [1u32 << 25, 0, 0, 0, 0];
    let Some(info) = flat::info(inst.opcode.space(), inst.opcode.index()) else {
        return m;
    };
    let Modifiers::Flat(mods) = inst.mods else {
        return m;
    };
    let has_vdst = vdst_width(info, mods.lds, mods.glc) > 0;
    let mut has_vaddr = false;
    for s in inst.operands.iter() {
        if let (Operand::Reg { count, .. }, ty) = (s.op, s.ty) {
            if ty == crate::operand::ValType::Addr && s.op.vgpr_range().is_some() {
                has_vaddr = true;
            }
            if let Some((code, _)) = s.op.scalar_range() {
                if count == 2 && (code < 106 || (108..124).contains(&code)) {
                    m[1] |= 1 << 16;
                }
            }
        }
    }
    if !has_vdst {
        m[1] |= 0xff << 24;
    }
    if info.data == 0 {
        m[1] |= 0xff << 8;
    }
    if !has_vaddr {
        m[1] |= 0xff;
    }
    m
}

/// Dwords written to `vdst` by this opcode with these bits.
fn vdst_width(info: &flat::FlatInfo, lds: bool, glc: bool) -> u8 {
    if lds || (info.atomic && !glc) {
        0
    } else {
        info.vdst
    }
}

/// The first VGPR of a range of `n`, if `op` is one.
fn vgprs(op: Operand, n: u8) -> Option<u32> {
    match op {
        Operand::Reg { code, count }
            if code >= VGPR_BASE && count == n && code as u32 + n as u32 <= 512 =>
        {
            Some((code - VGPR_BASE) as u32)
        }
        _ => None,
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let space = inst.opcode.space();
    let no_enc = EncodeError::NoEncoding {
        opcode: name,
        family: inst.family,
        target,
    };
    let info = flat::info(space, inst.opcode.index())
        .filter(|i| i.targets & target.bit() != 0)
        .ok_or(no_enc.clone())?;
    let seg = flat::segment_bits(space).ok_or(no_enc)?;
    let Modifiers::Flat(m) = inst.mods else {
        return Err(EncodeError::BadModifiers {
            opcode: name,
            family: inst.family,
        });
    };
    let ops = &inst.operands[..];
    let vdst_w = vdst_width(info, m.lds, m.glc);
    // Find the addressing mode whose operand shape matches.
    let mut chosen = None;
    for (mi, mode) in info.modes.iter().enumerate() {
        let Some(mode) = mode else { continue };
        if let Some(fields) = match_mode(ops, *mode, vdst_w, info.data) {
            chosen = Some((mi, fields));
            break;
        }
    }
    let Some((mi, (vdst, vaddr, data, sreg))) = chosen else {
        return Err(EncodeError::BadOperand {
            opcode: name,
            index: 0,
            why: "operands match none of the opcode's addressing modes",
        });
    };
    let saddr = match (mi, sreg) {
        (1, Some((code, count))) => {
            // The register must mean itself in the saddr table.
            match flat::saddr(space, target, code as u32, m.lds) {
                Saddr::Reg {
                    code: c, count: n, ..
                } if c == code && n == count => code as u32,
                _ => {
                    return Err(EncodeError::BadOperand {
                        opcode: name,
                        index: ops.len().saturating_sub(1),
                        why: "register not allowed as saddr",
                    })
                }
            }
        }
        (2, _) => 0x7f,
        _ => 0x7d,
    };
    let d0 = (0x37 << 26)
        | ((inst.opcode.index() as u32) << 18)
        | ((m.slc as u32) << 17)
        | ((m.glc as u32) << 16)
        | (seg << 14)
        | ((m.lds as u32) << 13)
        | ((m.dlc as u32) << 12)
        | (m.offset as u16 as u32 & 0xfff);
    let d1 = (vdst << 24) | (saddr << 16) | (data << 8) | vaddr;
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    Ok(e)
}

type Fields = (u32, u32, u32, Option<(u16, u8)>);

/// Match the operands against one addressing mode: `(vdst, vaddr, data,
/// saddr register)` on success.
fn match_mode(
    ops: &[crate::operand::Slot],
    mode: FlatMode,
    vdst_w: u8,
    data_w: u8,
) -> Option<Fields> {
    let mut it = ops.iter().map(|s| s.op);
    let mut f: Fields = (0, 0, 0, None);
    if vdst_w > 0 {
        f.0 = vgprs(it.next()?, vdst_w)?;
    }
    match mode.vaddr {
        FlatAddr::Absent => {}
        FlatAddr::Off => {
            if it.next()? != Operand::Off {
                return None;
            }
        }
        FlatAddr::Reg(n) => f.1 = vgprs(it.next()?, n)?,
    }
    if data_w > 0 {
        f.2 = vgprs(it.next()?, data_w)?;
    }
    match mode.saddr {
        FlatAddr::Absent => {}
        FlatAddr::Off => {
            if it.next()? != Operand::Off {
                return None;
            }
        }
        FlatAddr::Reg(n) => match it.next()? {
            Operand::Reg { code, count } if code < 128 && count == n => f.3 = Some((code, count)),
            _ => return None,
        },
    }
    if it.next().is_some() {
        return None;
    }
    Some(f)
}
