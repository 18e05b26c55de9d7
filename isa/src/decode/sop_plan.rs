//! Per-opcode decode plans for SOP1/SOP2/SOPK/SOPC/SOPP: the specialised
//! path of [`super::sop`].
//!
//! The family and the opcode field come from one lookup on bits 29:23 of
//! the first dword ([`SELECT`]: the field's shift, its mask and where the
//! family's plans start). A [`Plan`] is computed at compile time (`const`
//! evaluation) from the generated table row: per operand the field's
//! shift and mask and which width its code is read at, or which 16-bit
//! immediate it is, with its access and value type. Every scalar code is
//! looked up in [`SCODES`] (each 8-bit code at width 1 and 2, built by the
//! generic decoder's rules; the test `scalar_codes_match_generic_rules`
//! checks that). Anything a plan does not cover (an unknown opcode, an
//! invalid code, a missing literal dword, a non-zero immediate LLVM
//! rejects, `s_setreg_imm32_b32`'s trailing literal) makes [`run`] return
//! `false`, and the generic decoder decodes the instruction or names the
//! error, so both give one answer (test `plans_match_generic_decoder`).

use super::Words;
use crate::family::sop::{Simm16Kind, SopFld, SopInfo};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType};
use crate::tables::sop as t;

/// Most operands a plan has (SOP2: `sdst` and two sources).
const MAX_OPS: usize = 3;

/// A register/constant field read through [`SCODES`].
const K_CODE: u8 = 0;
/// The zero-extended 16-bit immediate ([`Plan::imm`]).
const K_SIMM: u8 = 1;
/// The sign-extended 16-bit immediate.
const K_SIMM_S: u8 = 2;

/// How one operand is decoded (access and type in [`Slot`]'s order).
#[derive(Clone, Copy)]
#[repr(C)]
struct OpPlan {
    access: Access,
    ty: ValType,
    /// Right shift of the first dword to the field.
    shift: u8,
    /// The field's mask after the shift.
    mask: u8,
    /// Where the field's width starts in [`SCODES`] (0: one register,
    /// 256: a pair).
    base: u16,
}

const NO_OP: OpPlan = OpPlan {
    shift: 0,
    mask: 0,
    base: 0,
    access: Access::empty(),
    ty: ValType::B32,
};

/// One opcode's decode plan (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Plan {
    /// Operand count; 255 when the opcode has no plan.
    n: u8,
    /// Bit i set: valid on target bit i.
    targets: u8,
    /// LLVM decodes the instruction only with a zero immediate field.
    zero_imm: bool,
    /// The modifiers are [`Modifiers::Simm16`] (SOPK, SOPP).
    simm_mods: bool,
    /// The operand that is the 16-bit immediate (255: none), and whether
    /// it is sign-extended: [`run`] reads every operand through
    /// [`SCODES`] and then puts the immediate there.
    imm: u8,
    imm_signed: bool,
    opcode: Opcode,
    family: Family,
    ops: [OpPlan; MAX_OPS],
}

impl Plan {
    const NONE: Plan = Plan {
        n: 255,
        targets: 0,
        zero_imm: false,
        simm_mods: false,
        imm: 255,
        imm_signed: false,
        opcode: Opcode::new(OpSpace::Sopp, 0),
        family: Family::Sopp,
        ops: [NO_OP; MAX_OPS],
    };

    /// The plan of `row` (opcode `index` of `space`, encoded as `family`).
    const fn of(row: &Option<SopInfo>, family: Family, space: OpSpace, index: u16) -> Plan {
        let Some(info) = row else {
            return Plan::NONE;
        };
        if info.literal || info.slots.len() > MAX_OPS {
            return Plan::NONE;
        }
        let mut plan = Plan {
            n: info.slots.len() as u8,
            targets: info.targets,
            zero_imm: matches!(info.imm, Simm16Kind::Zero),
            simm_mods: matches!(family, Family::Sopk | Family::Sopp),
            imm: 255,
            imm_signed: false,
            opcode: Opcode::new(space, index),
            family,
            ops: [NO_OP; MAX_OPS],
        };
        let mut i = 0;
        while i < info.slots.len() {
            let s = &info.slots[i];
            let base = match s.width {
                1 => 0,
                2 => 256,
                _ => return Plan::NONE,
            };
            let (kind, shift, mask) = match s.fld {
                SopFld::Sdst => (K_CODE, 16, 0x7f),
                SopFld::Ssrc0 => (K_CODE, 0, 0xff),
                SopFld::Ssrc1 => (K_CODE, 8, 0xff),
                SopFld::Simm16 if info.imm_signed => (K_SIMM_S, 0, 0),
                SopFld::Simm16 => (K_SIMM, 0, 0),
            };
            if kind != K_CODE {
                plan.imm = i as u8;
                plan.imm_signed = kind == K_SIMM_S;
            }
            plan.ops[i] = OpPlan {
                shift,
                mask,
                base,
                access: s.access,
                ty: if s.f64 || s.width == 2 {
                    ValType::B64
                } else {
                    ValType::B32
                },
            };
            i += 1;
        }
        plan
    }
}

/// Where each family's plans start in [`PLANS`].
const SOP2_AT: usize = 0;
const SOPK_AT: usize = SOP2_AT + 128;
const SOP1_AT: usize = SOPK_AT + 32;
const SOPC_AT: usize = SOP1_AT + 256;
const SOPP_AT: usize = SOPC_AT + 128;
const N_PLANS: usize = SOPP_AT + 128;

/// Every scalar opcode's plan, SOP2, SOPK, SOP1, SOPC, SOPP in turn.
static PLANS: [Plan; N_PLANS] = {
    let mut p = [Plan::NONE; N_PLANS];
    let mut i = 0;
    while i < 256 {
        if i < 128 {
            p[SOP2_AT + i] = Plan::of(&t::SOP2[i], Family::Sop2, OpSpace::Sop2, i as u16);
            p[SOPC_AT + i] = Plan::of(&t::SOPC[i], Family::Sopc, OpSpace::Sopc, i as u16);
            p[SOPP_AT + i] = Plan::of(&t::SOPP[i], Family::Sopp, OpSpace::Sopp, i as u16);
        }
        if i < 32 {
            p[SOPK_AT + i] = Plan::of(&t::SOPK[i], Family::Sopk, OpSpace::Sopk, i as u16);
        }
        p[SOP1_AT + i] = Plan::of(&t::SOP1[i], Family::Sop1, OpSpace::Sop1, i as u16);
        i += 1;
    }
    p
};

/// By bits 29:23 of a scalar-ALU first dword (bits 31:30 are `0b10`): the
/// opcode field's shift and mask and the family's first plan, as
/// `sop::decode` tells the families apart (SOP1, SOPC, SOPP by their fixed
/// prefix, then SOPK by bits 31:28 = `0b1011`, SOP2 for the rest).
static SELECT: [(u8, u8, u16); 128] = {
    let mut s = [(0u8, 0u8, 0u16); 128];
    let mut i = 0;
    while i < 128 {
        let top = 0x100 | i as u32; // d0 >> 23
        s[i] = match top {
            0x17d => (8, 0xff, SOP1_AT as u16),
            0x17e => (16, 0x7f, SOPC_AT as u16),
            0x17f => (16, 0x7f, SOPP_AT as u16),
            _ if top >> 5 == 0b1011 => (23, 0x1f, SOPK_AT as u16),
            _ => (23, 0x7f, SOP2_AT as u16),
        };
        i += 1;
    }
    s
};

/// A scalar code at `width` registers as the generic decoder reads it
/// (`sop::scalar_src`, and `sop::scalar_dst` for the 7-bit codes):
/// `Operand::Literal(0)` for the literal code, `Operand::Off` for an error.
const fn scalar_operand(code: u16, width: u8) -> Operand {
    match (code, width) {
        (0..=105 | 108..=123, 2) => Operand::Reg {
            code: code & !1,
            count: 2,
        },
        (106 | 125 | 126, 2) => Operand::Reg { code, count: 2 },
        (0..=127, 2) => Operand::Off,
        (0..=127, _) => Operand::Reg { code, count: 1 },
        (128..=208 | 240..=248, _) => Operand::Inline(code as u8),
        (235..=239 | 251..=253, _) => Operand::Reg { code, count: width },
        (254, 1) => Operand::Reg { code, count: 1 },
        (255, _) => Operand::Literal(0),
        _ => Operand::Off,
    }
}

/// [`SCODES`] flag: the code is an error at that width.
const BAD: u8 = 1;
/// [`SCODES`] flag: the code is the literal.
const LIT: u8 = 2;

/// Every 8-bit scalar code at width 1 (`code`) and 2 (`256 + code`), with
/// its [`BAD`]/[`LIT`] flags.
static SCODES: [(Operand, u8); 512] = {
    let mut t = [(Operand::Off, BAD); 512];
    let mut i = 0;
    while i < 512 {
        let op = scalar_operand((i & 255) as u16, if i < 256 { 1 } else { 2 });
        let f = match op {
            Operand::Off => BAD,
            Operand::Literal(_) => LIT,
            _ => 0,
        };
        t[i] = (op, f);
        i += 1;
    }
    t
};

/// Decode the scalar-ALU instruction with first dword `d0` by its plan.
/// Returns false when no plan covers these bits (the caller then runs the
/// generic decoder, having lost nothing).
#[inline(always)]
pub(crate) fn run(w: Words<'_>, d0: u32, target_bit: u8, out: &mut Instruction) -> bool {
    let (shift, mask, at) = SELECT[((d0 >> 23) & 0x7f) as usize];
    let op = (d0 >> (shift & 31)) & mask as u32;
    let Some(plan) = PLANS.get(at as usize + op as usize) else {
        return false;
    };
    let n = plan.n as usize;
    let simm16 = d0 & 0xffff;
    if n > MAX_OPS || plan.targets & target_bit == 0 || (plan.zero_imm && simm16 != 0) {
        return false;
    }
    let mut flags = 0u8;
    let slots = out.operands.slots_mut();
    // Every operand through the code table (an immediate's field is
    // empty: mask 0 reads `s0`, no flags), then the immediate in its slot.
    for (p, s) in plan.ops[..n].iter().zip(slots.iter_mut()) {
        let code = (d0 >> (p.shift & 31)) & p.mask as u32;
        let (op, f) = SCODES[(p.base as usize + code as usize) & 511];
        flags |= f;
        *s = Slot {
            op,
            access: p.access,
            ty: p.ty,
            mods: OpMods::empty(),
        };
    }
    if let Some(s) = slots.get_mut(plan.imm as usize) {
        s.op = Operand::Imm(if plan.imm_signed {
            simm16 as u16 as i16 as i32
        } else {
            simm16 as i32
        });
    }
    if flags & BAD != 0 {
        return false;
    }
    let mut len = 4;
    if flags & LIT != 0 {
        let Ok(v) = w.get(1) else {
            return false;
        };
        for s in slots[..n].iter_mut() {
            if let Operand::Literal(x) = &mut s.op {
                *x = v;
            }
        }
        len = 8;
    }
    out.operands.set_len(n);
    out.opcode = plan.opcode;
    out.family = plan.family;
    out.len = len;
    out.mods = if plan.simm_mods {
        Modifiers::Simm16(simm16 as u16)
    } else {
        Modifiers::None
    };
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::sop::{decode_generic, scalar_src};
    use crate::Target;

    /// The precomputed codes are the generic decoder's answers.
    #[test]
    fn scalar_codes_match_generic_rules() {
        let bytes = [0u8; 8];
        let w = Words { bytes: &bytes };
        for width in [1u8, 2] {
            for c in 0..256u32 {
                let mut len = 4;
                let want = match scalar_src(c, width, Family::Sop2, w, &mut len) {
                    Ok(Operand::Literal(_)) => Operand::Literal(0),
                    Ok(op) => op,
                    Err(_) => Operand::Off,
                };
                let at = if width == 2 { 256 } else { 0 } + c as usize;
                assert_eq!(SCODES[at].0, want, "code {c} width {width}");
            }
        }
    }

    /// On random scalar-ALU words (every family, every target, with and
    /// without a literal dword), the plan decodes exactly what the generic
    /// decoder does, and leaves to it only what it rejects or
    /// `s_setreg_imm32_b32`.
    #[test]
    fn plans_match_generic_decoder() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let (mut planned, mut literals) = (0, 0);
        for round in 0..200_000u32 {
            let mut d0 = (rnd() & 0x3fff_ffff) | 0x8000_0000;
            match round % 4 {
                // Each prefixed family often enough.
                0 => d0 = (d0 & 0x007f_ffff) | (0x17d + (round / 4) % 3) << 23,
                // Mostly small register codes and no reserved ones.
                1 => d0 &= !0x0000_8080,
                // A literal in ssrc0.
                2 => d0 |= 0xff,
                _ => {}
            }
            let d1 = rnd();
            let target = [Target::Gfx1010, Target::Gfx1013, Target::Gfx1030][round as usize % 3];
            let mut bytes = [0u8; 8];
            bytes[..4].copy_from_slice(&d0.to_le_bytes());
            bytes[4..].copy_from_slice(&d1.to_le_bytes());
            let cut = if round % 7 == 0 { 4 } else { 8 };
            let w = Words {
                bytes: &bytes[..cut],
            };
            let mut a = Instruction::default();
            let mut b = Instruction::default();
            let generic = decode_generic(w, d0, target, &mut b);
            if run(w, d0, target.bit(), &mut a) {
                planned += 1;
                literals += (a.len == 8) as u32;
                assert_eq!(generic, Ok(()), "{d0:#x} {d1:#x} {target:?}");
                assert_eq!(a, b, "{d0:#x} {d1:#x} {target:?}");
            } else {
                assert!(
                    generic.is_err() || b.opcode == crate::op::S_SETREG_IMM32_B32,
                    "{d0:#x} {d1:#x} {target:?}"
                );
            }
        }
        assert!(planned > 50_000 && literals > 1_000, "{planned} {literals}");
    }
}
