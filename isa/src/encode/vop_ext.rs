//! DPP16, DPP8 and SDWA encoding.
//!
//! # Don't-care bits
//!
//! [`dont_care`] returns exactly the bits LLVM ignores when decoding:
//! - the bits the form's generated table marks as ignored: the reserved
//!   bit 17 of DPP16, the reserved bits 22 and 30 of SDWA, source-modifier
//!   bits of instructions that have no such modifier but whose decoder does
//!   not check them (`v_dot4c_i32_i8_dpp`, the abs bit of an integer DPP16
//!   source), and all of bits 14:8 of a gfx10 `v_cmpx*_sdwa` (no `sdst`);
//! - for a VOPC SDWA whose mask goes to vcc: bits 15:8 (SD and sdst). With
//!   SD clear LLVM ignores sdst, and SD set with sdst = 106 also means vcc,
//!   so every value of those bits that decodes to vcc is the same
//!   instruction (the encoder writes SD = 0);
//! - the low bit of a wave64 VOPC SDWA `sdst` SGPR/TTMP pair: LLVM aligns
//!   the pair down, so `s7` decodes as `s[6:7]`.

use super::{EncodeError, Encoded};
use crate::family::vop::{self, Fld};
use crate::family::vop_ext::{self, DstUnused, ExtForm, SdwaSel};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, VCC_LO, VGPR_BASE};
use crate::target::Target;

/// Per-instruction don't-care bits (see the module docs).
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [0u32; 5];
    let Some(form) = vop_ext::form(inst.opcode, inst.family) else {
        return m;
    };
    m[0] = form.ignored[0];
    m[1] = form.ignored[1];
    for (s, spec) in inst.operands.iter().zip(form.slots()) {
        if spec.fld != Fld::Sdst {
            continue;
        }
        if let Operand::Reg { code, count } = s.op {
            if code == VCC_LO {
                m[1] |= 0xff00;
            } else if count == 2 && (code < 106 || (108..124).contains(&code)) {
                m[1] |= 0x100;
            }
        }
    }
    m
}

/// The 8-bit VGPR number of a VGPR operand.
fn vgpr_num(op: Operand) -> Option<u32> {
    match op {
        Operand::Reg { code, .. } if (VGPR_BASE..VGPR_BASE + 256).contains(&code) => {
            Some((code - VGPR_BASE) as u32)
        }
        _ => None,
    }
}

/// An SDWA scalar source code (register or inline constant).
fn scalar_code(op: Operand) -> Option<u32> {
    match op {
        Operand::Reg { code, count: 1 } if code < 128 || (235..=254).contains(&code) => {
            Some(code as u32)
        }
        Operand::Inline(c) => Some(c as u32),
        _ => None,
    }
}

/// The bits of source `k`'s modifiers, or `None` when the form lacks one.
fn src_mod_bits(family: Family, form: &ExtForm, k: usize, m: OpMods) -> Option<u32> {
    if !form.src_mods[k].contains(m) {
        return None;
    }
    let mut v = 0;
    match family {
        Family::Dpp16 => {
            if m.intersects(OpMods::NEG | OpMods::SEXT) {
                v |= 1 << (20 + 2 * k);
            }
            if m.contains(OpMods::ABS) {
                v |= 1 << (21 + 2 * k);
            }
        }
        Family::Sdwa => {
            let b = 8 * k;
            if m.contains(OpMods::SEXT) {
                v |= 1 << (19 + b);
            }
            if m.contains(OpMods::NEG) {
                v |= 1 << (20 + b);
            }
            if m.contains(OpMods::ABS) {
                v |= 1 << (21 + b);
            }
        }
        _ if !m.is_empty() => return None,
        _ => {}
    }
    Some(v)
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let no = EncodeError::NoEncoding {
        opcode: name,
        family: inst.family,
        target,
    };
    let form = vop_ext::form(inst.opcode, inst.family).ok_or(no.clone())?;
    let e32 = vop::form(inst.opcode, Family::Vop1).ok_or(no.clone())?;
    if form.targets & target.bit() == 0 {
        return Err(no);
    }
    if inst.operands.len() != form.slots().len() {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: form.slots().len(),
            got: inst.operands.len(),
        });
    }
    let bad_mods = EncodeError::BadModifiers {
        opcode: name,
        family: inst.family,
    };
    let sdwa = inst.family == Family::Sdwa;
    let op = e32.op as u32;
    let mut d0 = match e32.family {
        Family::Vop2 => op << 25,
        Family::Vop1 => (0x3f << 25) | (op << 9),
        Family::Vopc => (0x3e << 25) | (op << 17),
        _ => return Err(no),
    };
    let mut d1 = 0u32;
    match (inst.family, inst.mods) {
        (Family::Dpp16, Modifiers::Dpp16(m)) => {
            d0 |= 0xfa;
            d1 |= (m.ctrl.raw() as u32) << 8;
            d1 |= u32::from(m.fi) << 18 | u32::from(m.bound_ctrl) << 19;
            d1 |= ((m.bank_mask & 0xf) as u32) << 24 | ((m.row_mask & 0xf) as u32) << 28;
        }
        (Family::Dpp8, Modifiers::Dpp8(m)) => {
            d0 |= if m.fi { 0xea } else { 0xe9 };
            d1 |= m.raw() << 8;
        }
        (Family::Sdwa, Modifiers::Sdwa(m)) => {
            d0 |= 0xf9;
            if (m.clamp && !form.clamp) || (m.omod != 0 && !form.omod) || m.omod > 3 {
                return Err(bad_mods);
            }
            d1 |= u32::from(m.clamp) << 13 | (m.omod as u32) << 14;
            if form.dst_sel {
                d1 |= m.dst_sel.bits() << 8 | m.dst_unused.bits() << 11;
            } else if m.dst_sel != SdwaSel::Dword || m.dst_unused != DstUnused::Pad {
                return Err(bad_mods);
            }
            for (k, sel) in [m.src0_sel, m.src1_sel].into_iter().enumerate() {
                if form.src_sel[k] {
                    d1 |= sel.bits() << (16 + 8 * k);
                } else if sel != SdwaSel::Dword {
                    return Err(bad_mods);
                }
            }
        }
        _ => return Err(bad_mods),
    }
    for (i, (s, spec)) in inst.operands.iter().zip(form.slots()).enumerate() {
        let bad = |why| EncodeError::BadOperand {
            opcode: name,
            index: i,
            why,
        };
        let k = match spec.fld {
            Fld::Src0 => Some(0),
            Fld::Vsrc1 => Some(1),
            _ => None,
        };
        match k {
            Some(k) => {
                let bits = src_mod_bits(inst.family, form, k, s.mods)
                    .ok_or(bad("modifier not available in this form"))?;
                d1 |= bits;
            }
            None if !s.mods.is_empty() => return Err(bad("modifiers on a non-source")),
            None => {}
        }
        match spec.fld {
            Fld::Vdst => d0 |= vgpr_num(s.op).ok_or(bad("must be a VGPR"))? << 17,
            Fld::Src0 | Fld::Vsrc1 => {
                let (code, scalar) = match vgpr_num(s.op) {
                    Some(v) => (v, false),
                    None if sdwa && spec.cls.sgpr => (
                        scalar_code(s.op).ok_or(bad("not a scalar register or inline constant"))?,
                        true,
                    ),
                    None => return Err(bad("must be a VGPR")),
                };
                if spec.fld == Fld::Src0 {
                    d1 |= code | u32::from(scalar) << 23;
                } else {
                    d0 |= code << 9;
                    d1 |= u32::from(scalar) << 31;
                }
            }
            Fld::Sdst => match s.op {
                Operand::Reg { code: VCC_LO, .. } => {}
                Operand::Reg { code, .. } if code < 128 => d1 |= 0x8000 | (code as u32) << 8,
                _ => return Err(bad("must be a scalar register")),
            },
            Fld::Vcc => match s.op {
                Operand::Reg { code: VCC_LO, .. } => {}
                _ => return Err(bad("must be vcc")),
            },
            _ => return Err(bad("operand field not in this form")),
        }
    }
    let mut e = Encoded::new();
    e.push(d0);
    e.push(d1);
    Ok(e)
}
