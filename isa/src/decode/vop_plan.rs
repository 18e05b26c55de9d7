//! Per-form decode plans for VOP1/VOP2/VOPC (`_e32`), VOP3 and VOP3P: the
//! specialised path of [`super::vop`].
//!
//! A [`Plan`] is computed at compile time (`const` evaluation) from one
//! form of the generated table: for each operand the bits to take from the
//! encoding (shift, mask, bits to or in), its access and value type, and
//! which width class its code is read at (wave32 and wave64). Decoding an
//! instruction with a plan is then one table lookup per operand in
//! [`CODES`] (every 9-bit code at width 1, 2 and 4, precomputed by the
//! same rules as `vop::src`), with no per-operand branching on the field
//! kind. Anything the plan does not cover (an invalid code, a missing
//! literal dword, a rejected bit) makes [`run`] return `false` without
//! having committed anything meaningful, and the generic `decode_form`
//! decodes the instruction or reports why not, so both paths give one
//! answer.

use super::Words;
use crate::family::vop::{bit_position, Fld, Role, Vop3Mods, Vop3pMods, VopForm, VopInfo, VopSlot};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType, VCC_LO};

/// Most operands a plan has (VOP3 with `sdst` and three sources).
const MAX_OPS: usize = 5;

/// Width classes of [`CODES`].
const W1: u8 = 0;
const W2: u8 = 1;
const W4: u8 = 2;

/// How one operand is decoded (8 bytes: a whole plan fits one cache
/// line).
#[derive(Clone, Copy)]
#[repr(C)]
struct OpPlan {
    /// The slot's access and type, next to each other in the order a
    /// [`Slot`] (`repr(C)`) has them: one two-byte copy.
    access: Access,
    ty: ValType,
    /// Right shift of the encoding (first dword low) to the field.
    shift: u8,
    /// The field's mask after the shift (0: no field).
    mask: u16,
    /// Where the operand is in [`CODES`], less the field: the width class
    /// times 512 (a lane mask widens in wave64; plans are per wave size)
    /// or-ed with the code's fixed bits (256: a VGPR-only field;
    /// `vcc_lo`; 255: the literal of `v_fmamk`-style forms).
    at: u16,
}

const NO_OP: OpPlan = OpPlan {
    shift: 0,
    access: Access::empty(),
    ty: ValType::B32,
    mask: 0,
    at: 0,
};

/// A form's decode plan for one wave size (see the module docs): 60
/// bytes, aligned so that decoding touches one cache line of plans.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(crate) struct Plan {
    /// Operand count; 255 when the form has no plan.
    n: u8,
    opcode: Opcode,
    family: Family,
    /// Bits LLVM rejects (first dword low).
    fixed: u64,
    /// VOP3/VOP3P modifier bits that change the result (not `sdst`, not
    /// ignored): when none is set the modifiers are the defaults.
    live: u64,
    ops: [OpPlan; MAX_OPS],
}

impl Plan {
    /// No plan.
    pub(crate) const NONE: Plan = Plan {
        n: 255,
        opcode: Opcode::new(OpSpace::Vop, 0),
        family: Family::Vop1,
        fixed: 0,
        live: 0,
        ops: [NO_OP; MAX_OPS],
    };

    /// Whether this is a plan (not [`Plan::NONE`]): its form exists.
    #[inline(always)]
    pub(crate) fn has_plan(&self) -> bool {
        self.n != 255
    }

    /// The plan of `form` of `info` (`wide`: a VOP3/VOP3P form) for
    /// wave32 or wave64 code.
    pub(crate) const fn of(
        info: &VopInfo,
        form: &Option<VopForm>,
        space: OpSpace,
        wide: bool,
        wave64: bool,
    ) -> Plan {
        let Some(form) = form else {
            return Plan::NONE;
        };
        if form.slots().len() > MAX_OPS {
            return Plan::NONE;
        }
        let mut plan = Plan {
            n: form.slots().len() as u8,
            opcode: Opcode::new(space, info.index),
            family: form.family,
            fixed: (form.fixed[1] as u64) << 32 | form.fixed[0] as u64,
            live: 0,
            ops: [NO_OP; MAX_OPS],
        };
        let mut i = 0;
        while i < form.slots().len() {
            match op_plan(&form.slots()[i], wide, wave64) {
                Some(p) => plan.ops[i] = p,
                None => return Plan::NONE,
            }
            i += 1;
        }
        let mut i = 0;
        while i < form.bits().len() && i < 16 {
            if !matches!(form.bits()[i].role, Role::Ignored | Role::Sdst) {
                let (dw, bit) = bit_position(i);
                plan.live |= 1 << (bit + 32 * dw as u32);
            }
            i += 1;
        }
        plan
    }
}

/// The width class of `width` registers, or `None`.
const fn class(width: u8) -> Option<u8> {
    match width {
        1 => Some(W1),
        2 => Some(W2),
        4 => Some(W4),
        _ => None,
    }
}

/// One operand's plan: the rules of `vop::decode_slot`, as data.
const fn op_plan(s: &VopSlot, wide: bool, wave64: bool) -> Option<OpPlan> {
    let (shift, mask, or) = match s.fld {
        Fld::Vdst if wide => (0, 0xff, 0),
        Fld::Vdst => (17, 0xff, 0),
        Fld::Src0 if wide => (32, 0x1ff, 0),
        Fld::Src0 => (0, 0x1ff, 0),
        Fld::Vsrc1 => (9, 0xff, 256),
        Fld::Src1 => (32 + 9, 0x1ff, 0),
        Fld::Src2 => (32 + 18, 0x1ff, 0),
        Fld::Sdst => (8, 0x7f, 0),
        Fld::Vcc => (0, 0, VCC_LO),
        Fld::KLit => (0, 0, 255),
        Fld::Attr | Fld::Param => return None,
    };
    let vgpr_only = matches!(s.fld, Fld::Vsrc1) || (matches!(s.fld, Fld::Vdst) && s.cls.vgpr);
    let or = if vgpr_only { 256 } else { or };
    let Some(w32) = class(s.width) else {
        return None;
    };
    // Lane masks are a pair in wave64, except in src0 and VGPR-only fields.
    let widens = matches!(s.ty, ValType::Mask) && !vgpr_only && !matches!(s.fld, Fld::Src0);
    let class = if widens && wave64 { W2 } else { w32 };
    Some(OpPlan {
        shift,
        access: s.access,
        ty: s.ty,
        mask,
        at: (class as u16 * 512) | or,
    })
}

/// A source-operand code read at `count` registers, as `vop::src` decodes
/// it: `Operand::Literal(0)` for the literal code, `Operand::Off` for a
/// code that is an error at that width.
const fn code_operand(c: u16, count: u8) -> Operand {
    if c >= 256 {
        if (c - 256) as u32 + count as u32 > 256 {
            return Operand::Off;
        }
        return Operand::Reg { code: c, count };
    }
    match (c, count) {
        (128..=208 | 240..=248, _) => Operand::Inline(c as u8),
        (255, _) => Operand::Literal(0),
        (0..=127 | 235..=239 | 251..=254, 1) => Operand::Reg { code: c, count: 1 },
        (0..=105 | 108..=123, 2) => Operand::Reg {
            code: c & !1,
            count: 2,
        },
        (106 | 125 | 126 | 235..=239 | 251..=253, 2) => Operand::Reg { code: c, count: 2 },
        (0..=103 | 108..=123, 4) => Operand::Reg {
            code: c & !3,
            count: 4,
        },
        _ => Operand::Off,
    }
}

/// [`CODES`] flag: the code is an error at that width.
const BAD: u8 = 1;
/// [`CODES`] flag: the code is the literal.
const LIT: u8 = 2;

/// [`CODES`]'s length: three width classes of 512 codes, padded to a
/// power of two so that an index is masked, not bounds-checked.
const CODES_LEN: usize = 4 * 512;

/// Every 9-bit code at each width class (`class * 512 + code`), with its
/// [`BAD`]/[`LIT`] flags; the padding is [`BAD`].
static CODES: [(Operand, u8); CODES_LEN] = {
    let mut t = [(Operand::Off, BAD); CODES_LEN];
    let mut k = 0;
    while k < 3 {
        let count = [1, 2, 4][k];
        let mut c = 0;
        while c < 512 {
            let op = code_operand(c as u16, count);
            let f = match op {
                Operand::Off => BAD,
                Operand::Literal(_) => LIT,
                _ => 0,
            };
            t[k * 512 + c] = (op, f);
            c += 1;
        }
        k += 1;
    }
    t
};

/// The first `N` operands of `plan` from the encoding `d64` into
/// `slots`; returns the or of their [`CODES`] flags.
#[inline(always)]
fn fill<const N: usize>(
    plan: &Plan,
    d64: u64,
    slots: &mut [Slot; crate::inst::MAX_OPERANDS],
) -> u8 {
    let mut flags = 0u8;
    let mut i = 0;
    while i < N && i < MAX_OPS {
        let p = &plan.ops[i];
        let at = ((d64 >> (p.shift & 63)) as u32 & p.mask as u32) | p.at as u32;
        let (op, f) = CODES[at as usize & (CODES_LEN - 1)];
        flags |= f;
        slots[i] = Slot {
            op,
            access: p.access,
            ty: p.ty,
            mods: OpMods::empty(),
        };
        i += 1;
    }
    flags
}

/// Decode with `plan` (`WIDE`: a VOP3/VOP3P encoding of two dwords `d`).
/// Returns false when the plan does not cover these bits (the caller then
/// runs the generic decoder); `form` (the form `plan` was made from) is
/// only read for set modifier bits.
#[inline(always)]
pub(crate) fn run<const WIDE: bool>(
    plan: &Plan,
    form: &Option<VopForm>,
    w: Words<'_>,
    d: [u32; 2],
    out: &mut Instruction,
) -> bool {
    let d64 = (d[1] as u64) << 32 | d[0] as u64;
    if d64 & plan.fixed != 0 {
        return false;
    }
    // One straight-line body per operand count (no loop control); no
    // plan ([`Plan::NONE`]) is the count 255.
    let slots = out.operands.slots_mut();
    let n = plan.n as usize;
    let flags = match n {
        0 => 0,
        1 => fill::<1>(plan, d64, slots),
        2 => fill::<2>(plan, d64, slots),
        3 => fill::<3>(plan, d64, slots),
        4 => fill::<4>(plan, d64, slots),
        5 => fill::<5>(plan, d64, slots),
        _ => return false,
    };
    if flags & BAD != 0 {
        return false;
    }
    let lit = flags & LIT != 0;
    let lit_at = if WIDE { 2 } else { 1 };
    let mut len = lit_at as u8 * 4;
    out.operands.set_len(n);
    if lit {
        let Ok(v) = w.get(lit_at) else {
            return false;
        };
        for s in out.operands.iter_mut() {
            if let Operand::Literal(x) = &mut s.op {
                *x = v;
            }
        }
        len += 4;
    }
    out.opcode = plan.opcode;
    out.family = plan.family;
    out.len = len;
    if !WIDE {
        out.mods = Modifiers::None;
    } else if d64 & plan.live == 0 {
        out.mods = if plan.family == Family::Vop3p {
            Modifiers::Vop3p(Vop3pMods { clamp: false })
        } else {
            Modifiers::Vop3(Vop3Mods::default())
        };
    } else {
        let mut vmods = Vop3Mods::default();
        let Some(form) = form else {
            return false;
        };
        if super::vop::apply_modifier_bits(form, d, &mut vmods, out).is_err() {
            return false;
        }
        out.mods = if plan.family == Family::Vop3p {
            Modifiers::Vop3p(Vop3pMods { clamp: vmods.clamp })
        } else {
            Modifiers::Vop3(vmods)
        };
    }
    true
}

#[cfg(test)]
mod tests {
    /// A plan is one cache line: decoding an instruction reads one line
    /// of plans, not two.
    #[test]
    fn a_plan_fits_one_cache_line() {
        assert_eq!(core::mem::size_of::<super::OpPlan>(), 8);
        assert_eq!(core::mem::size_of::<super::Plan>(), 64);
        assert_eq!(core::mem::align_of::<super::Plan>(), 64);
    }

    /// The precomputed codes are `vop::src`'s answers.
    #[test]
    fn codes_table_matches_src() {
        for (k, count) in [1u8, 2, 4].into_iter().enumerate() {
            for c in 0..512u32 {
                let want = match super::super::vop::src(c, count, crate::Family::Vop3) {
                    Ok(op) => op,
                    Err(_) => crate::Operand::Off,
                };
                assert_eq!(
                    super::CODES[k * 512 + c as usize].0,
                    want,
                    "code {c} width {count}"
                );
            }
        }
    }
}
