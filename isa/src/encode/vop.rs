//! VOP1, VOP2, VOPC (`_e32`), VOP3 and VOP3P encoding.
//!
//! # Don't-care bits
//!
//! [`dont_care`] returns exactly the bits LLVM ignores when decoding:
//! - bits a form's generated table marks as ignored: unused register
//!   fields LLVM does not check, and modifier bits the instruction does not
//!   have (for example the VOP3 `op_sel` bits of 32-bit instructions);
//! - the low bit of a 64-bit SGPR/TTMP operand field (the low two bits of
//!   a 128-bit one): LLVM aligns the register down, so `s[5:6]` decodes as
//!   `s[4:5]`.
//!
//! Fields the encoder cannot reproduce otherwise are never masked.

use super::{EncodeError, Encoded};
use crate::family::vop::{self, bit_position, Fld, Role, VopForm};
use crate::inst::{Family, Instruction, Modifiers};
use crate::operand::{OpMods, Operand, VGPR_BASE};
use crate::target::Target;

fn wide(f: Family) -> bool {
    matches!(f, Family::Vop3 | Family::Vop3p)
}

/// The (dword, shift) of a register field in a form.
fn field_pos(fld: Fld, wide: bool) -> Option<(usize, u32, u32)> {
    // (dword, shift, mask)
    Some(match (fld, wide) {
        (Fld::Vdst, false) => (0, 17, 0xff),
        (Fld::Vdst, true) => (0, 0, 0xff),
        (Fld::Vsrc1, _) => (0, 9, 0xff),
        (Fld::Src0, false) => (0, 0, 0x1ff),
        (Fld::Src0, true) | (Fld::Attr, _) => (1, 0, 0x1ff),
        (Fld::Src1, _) | (Fld::Param, _) => (1, 9, 0x1ff),
        (Fld::Src2, _) => (1, 18, 0x1ff),
        (Fld::Sdst, _) => (0, 8, 0x7f),
        (Fld::KLit, _) | (Fld::Vcc, _) => return None,
    })
}

/// Per-instruction don't-care bits (see the module docs).
pub(crate) fn dont_care(inst: &Instruction) -> [u32; 5] {
    let mut m = [0u32; 5];
    let Some(form) = vop::form(inst.opcode, inst.family) else {
        return m;
    };
    if form.family != inst.family {
        return m;
    }
    m[0] = form.ignored[0];
    if wide(form.family) {
        m[1] = form.ignored[1];
    }
    for (s, spec) in inst.operands.iter().zip(form.slots()) {
        let Operand::Reg { code, count } = s.op else {
            continue;
        };
        let aligned = code < 106 || (108..124).contains(&code);
        if !aligned || count < 2 {
            continue;
        }
        if let Some((dw, shift, _)) = field_pos(spec.fld, wide(form.family)) {
            let low = if count >= 4 { 3 } else { 1 };
            m[dw] |= low << shift;
        }
    }
    m
}

fn code_of(op: Operand, lit: &mut Option<u32>) -> Result<u32, &'static str> {
    match op {
        Operand::Reg { code, .. } if code < 512 => Ok(code as u32),
        Operand::Inline(c) => Ok(c as u32),
        Operand::Literal(v) => {
            if lit.is_some_and(|l| l != v) {
                return Err("two different literals");
            }
            *lit = Some(v);
            Ok(255)
        }
        _ => Err("not a register or constant"),
    }
}

pub(crate) fn encode(inst: &Instruction, target: Target) -> Result<Encoded, EncodeError> {
    let name = inst.opcode.name();
    let no = EncodeError::NoEncoding {
        opcode: name,
        family: inst.family,
        target,
    };
    let form: &VopForm = vop::form(inst.opcode, inst.family).ok_or(no.clone())?;
    if form.family != inst.family || form.targets & target.bit() == 0 {
        return Err(no);
    }
    if inst.operands.len() != form.slots().len() {
        return Err(EncodeError::OperandCount {
            opcode: name,
            expected: form.slots().len(),
            got: inst.operands.len(),
        });
    }
    let w = wide(form.family);
    let op = form.op as u32;
    let mut d = match form.family {
        Family::Vop2 => [op << 25, 0],
        Family::Vop1 => [(0x3f << 25) | (op << 9), 0],
        Family::Vopc => [(0x3e << 25) | (op << 17), 0],
        Family::Vop3 => [(0x35 << 26) | (op << 16), 0],
        _ => [(0x198 << 23) | (op << 16), 0],
    };
    let (clamp, omod, opsel_dst, high) = match (form.family, inst.mods) {
        (Family::Vop3, Modifiers::Vop3(m)) => (m.clamp, m.omod, m.opsel_dst, m.high),
        (Family::Vop3p, Modifiers::Vop3p(m)) => (m.clamp, 0, false, false),
        (Family::Vop1 | Family::Vop2 | Family::Vopc, Modifiers::None) => (false, 0, false, false),
        _ => {
            return Err(EncodeError::BadModifiers {
                opcode: name,
                family: inst.family,
            })
        }
    };
    let mut lit = None;
    for (i, (s, spec)) in inst.operands.iter().zip(form.slots()).enumerate() {
        let bad = |why| EncodeError::BadOperand {
            opcode: name,
            index: i,
            why,
        };
        let v = match spec.fld {
            Fld::Vcc => continue,
            Fld::KLit => match s.op {
                Operand::Literal(v) => {
                    if lit.is_some_and(|l| l != v) {
                        return Err(bad("two different literals"));
                    }
                    lit = Some(v);
                    continue;
                }
                _ => return Err(bad("K must be a literal")),
            },
            Fld::Attr => match s.op {
                Operand::Imm(v) => (v as u32 & 0xff) | (u32::from(high) << 8),
                _ => return Err(bad("attribute must be an immediate")),
            },
            Fld::Param => match s.op {
                Operand::Imm(v) => v as u32 & 0x1ff,
                _ => return Err(bad("parameter slot must be an immediate")),
            },
            Fld::Vdst | Fld::Vsrc1 if spec.cls.vgpr => match s.op {
                Operand::Reg { code, .. } if code >= VGPR_BASE => (code - VGPR_BASE) as u32,
                _ => return Err(bad("must be a VGPR")),
            },
            _ => code_of(s.op, &mut lit).map_err(bad)?,
        };
        if let Some((dw, shift, mask)) = field_pos(spec.fld, w) {
            if v > mask {
                return Err(bad("does not fit the field"));
            }
            d[dw] |= v << shift;
        }
    }
    if w {
        for (i, b) in form.bits().iter().enumerate() {
            let set = match b.role {
                Role::Fixed | Role::Ignored | Role::Sdst => false,
                Role::Clamp => clamp,
                Role::Omod => omod & (if i == 8 { 1 } else { 2 }) != 0,
                role => {
                    let flag = match role {
                        Role::Abs => OpMods::ABS,
                        Role::Neg | Role::NegLo(_) => OpMods::NEG,
                        Role::Sext => OpMods::SEXT,
                        Role::NegHi(_) => OpMods::NEG_HI,
                        Role::OpSel(_) => OpMods::OP_SEL,
                        _ => OpMods::OP_SEL_HI,
                    };
                    match inst.operands.get(b.slot as usize) {
                        Some(s) => s.mods.contains(flag),
                        None => flag == OpMods::OP_SEL && opsel_dst,
                    }
                }
            };
            if set {
                let (dw, bit) = bit_position(i);
                d[dw] |= 1 << bit;
            }
        }
    }
    let mut e = Encoded::new();
    e.push(d[0]);
    if w {
        e.push(d[1]);
    }
    if let Some(v) = lit {
        e.push(v);
    }
    Ok(e)
}
