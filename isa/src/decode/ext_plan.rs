//! Per-form decode plans for DPP16, DPP8 and SDWA: the specialised path of
//! [`super::vop_ext`], as [`super::vop_plan`] is for VOP.
//!
//! An [`ExtPlan`] is computed at compile time (`const` evaluation) from one
//! extended form of the generated table: for each operand where its 8 bits
//! sit (dword and shift), whether an SDWA S bit makes it a scalar source,
//! its width, access and type, and the source modifiers its control bits
//! give (a precomputed [`OpMods`] per bit pattern). Decoding is then one
//! pass over the operands without per-operand branching on the field kind.
//! Anything the plan does not cover (a rejected bit, a reserved select, a
//! register range past `v255`, a code that is no scalar source) makes
//! [`run`] return `false`, and the generic `vop_ext::decode_form` decodes
//! the instruction or names the error, so both paths give one answer.

use super::Words;
use crate::family::vop::{Fld, VopSlot};
use crate::family::vop_ext::{Dpp16Mods, Dpp8Mods, DppCtrl, DstUnused, ExtForm, SdwaMods, SdwaSel};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType, VCC_LO, VGPR_BASE};
use crate::tables::{vop as tv, vop_ext as tx};

/// Most operands a plan has (`v_addc_co_u32_dpp v1, vcc_lo, v2, v3, vcc_lo`).
const MAX_OPS: usize = 5;

/// [`ExtOp::kind`]: VGPRs from the field.
const K_VGPR: u8 = 0;
/// An SDWA source: VGPRs, or with its S bit set a scalar source.
const K_SRC: u8 = 1;
/// The SDWA VOPC `sdst` (SD bit 15 of the second dword), else `vcc`.
const K_SDST: u8 = 2;
/// `vcc`, not encoded.
const K_VCC: u8 = 3;

/// How one operand is decoded.
#[derive(Clone, Copy)]
struct ExtOp {
    kind: u8,
    /// Which dword holds the 8-bit field, and its shift.
    dw: u8,
    shift: u8,
    /// The S bit of the second dword ([`K_SRC`]).
    s_bit: u8,
    /// Where the operand's codes start in [`EXT_CODES`] at wave32 and
    /// wave64 (by its register count: a lane mask widens); for `vcc`, its
    /// entry.
    base: [u16; 2],
    /// Shift of the second dword to the source-modifier bits, and the
    /// [`OpMods`] of each of their 8 patterns.
    mods_shift: u8,
    mods: [OpMods; 8],
    /// The access for each [`run`] control case: [`DST_KEEP`],
    /// [`DST_PRESERVE`], [`DST_FILL`] (SDWA `dst_sel`/`dst_unused`) and
    /// [`PARTIAL`] (DPP writing only some lanes).
    access: [Access; 4],
    ty: ValType,
    /// [`run`]'s form of the above, without branching on the kind: the
    /// bit of the second dword that selects `src[1]` (its S or SD bit)
    /// when `s_on` is 1, else `src[0]` is taken.
    s_on: u8,
    src: [ExtSrc; 2],
}

/// Where an operand's [`EXT_CODES`] entry is: `base[wave64]` plus the
/// field at `shift` of the encoding (first dword low) under `mask`.
#[derive(Clone, Copy)]
struct ExtSrc {
    shift: u8,
    mask: u8,
    base: [u16; 2],
}

const VCC_SRC: ExtSrc = ExtSrc {
    shift: 0,
    mask: 0,
    base: [VCC_AT as u16; 2],
};

const NO_OP: ExtOp = ExtOp {
    kind: K_VCC,
    dw: 0,
    shift: 0,
    s_bit: 0,
    base: [VCC_AT as u16; 2],
    mods_shift: 0,
    mods: [OpMods::empty(); 8],
    access: [Access::empty(); 4],
    ty: ValType::B32,
    s_on: 0,
    src: [VCC_SRC; 2],
};

/// One extended form's decode plan (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct ExtPlan {
    /// Operand count; 255 when the form has no plan.
    n: u8,
    targets: u8,
    /// The instruction (set by [`PLANS`] from the VOP row).
    pub(crate) opcode: Opcode,
    fixed: [u32; 2],
    /// The three SDWA selects (bits 8, 16, 24 of the second dword, shifted
    /// down by 8): `sel_mask` keeps the ones the form decodes, `sel_or`
    /// sets the others to `DWORD` (6), so each select is one table lookup
    /// and a reserved 7 can only come from a decoded field.
    sel_mask: u32,
    sel_or: u32,
    /// `dst_unused` (bits 12:11), `clamp` (bit 13) and `omod` (15:14) of
    /// the second dword that the form decodes.
    ctl_mask: u32,
    ops: [ExtOp; MAX_OPS],
}

impl ExtPlan {
    const NONE: ExtPlan = ExtPlan {
        n: 255,
        targets: 0,
        opcode: Opcode::new(OpSpace::Vop, 0),
        fixed: [0; 2],
        sel_mask: 0,
        sel_or: 0x06_0606,
        ctl_mask: 0,
        ops: [NO_OP; MAX_OPS],
    };

    /// The plan of `form` for the encoding `ext` ([`DPP16`], [`DPP8`] or
    /// [`SDWA`]).
    const fn of(form: &Option<ExtForm>, ext: u8) -> ExtPlan {
        let Some(form) = form else {
            return ExtPlan::NONE;
        };
        if form.slots().len() > MAX_OPS {
            return ExtPlan::NONE;
        }
        let on = [form.dst_sel, form.src_sel[0], form.src_sel[1]];
        let (mut sel_mask, mut sel_or) = (0u32, 0u32);
        let mut k = 0;
        while k < 3 {
            if on[k] {
                sel_mask |= 7 << (8 * k);
            } else {
                sel_or |= 6 << (8 * k);
            }
            k += 1;
        }
        let mut ctl_mask = 0u32;
        if form.dst_sel {
            ctl_mask |= 3 << 11;
        }
        if form.clamp {
            ctl_mask |= 1 << 13;
        }
        if form.omod {
            ctl_mask |= 3 << 14;
        }
        let mut plan = ExtPlan {
            n: form.slots().len() as u8,
            targets: form.targets,
            opcode: Opcode::new(OpSpace::Vop, 0),
            fixed: form.fixed,
            sel_mask,
            sel_or,
            ctl_mask,
            ops: [NO_OP; MAX_OPS],
        };
        let mut i = 0;
        while i < form.slots().len() {
            match ext_op(&form.slots()[i], form, ext) {
                Some(p) => plan.ops[i] = p,
                None => return ExtPlan::NONE,
            }
            i += 1;
        }
        plan
    }
}

/// The source modifiers of source `k` for each pattern of its control
/// bits, as `vop_ext::src_mods` decodes them; and the shift to those bits.
const fn mods_of(have: OpMods, ext: u8, k: u32) -> (u8, [OpMods; 8]) {
    let mut t = [OpMods::empty(); 8];
    let shift = match ext {
        DPP16 => 20 + 2 * k,
        SDWA => 19 + 8 * k,
        _ => return (0, t),
    };
    let mut v = 0;
    while v < 8 {
        let mut m = 0u8;
        if ext == DPP16 {
            // Bit 0: neg (sext for an integer source), bit 1: abs.
            if v & 1 != 0 {
                if have.contains(OpMods::NEG) {
                    m |= OpMods::NEG.bits();
                } else if have.contains(OpMods::SEXT) {
                    m |= OpMods::SEXT.bits();
                }
            }
            if v & 2 != 0 && have.contains(OpMods::ABS) {
                m |= OpMods::ABS.bits();
            }
        } else {
            // Bit 0: sext, bit 1: neg, bit 2: abs.
            if v & 1 != 0 && have.contains(OpMods::SEXT) {
                m |= OpMods::SEXT.bits();
            }
            if v & 2 != 0 && have.contains(OpMods::NEG) {
                m |= OpMods::NEG.bits();
            }
            if v & 4 != 0 && have.contains(OpMods::ABS) {
                m |= OpMods::ABS.bits();
            }
        }
        t[v] = OpMods::from_bits_retain(m);
        v += 1;
    }
    (shift as u8, t)
}

/// One operand's plan: the rules of `vop_ext::decode_form`, as data.
const fn ext_op(s: &VopSlot, form: &ExtForm, ext: u8) -> Option<ExtOp> {
    let mask = matches!(s.ty, ValType::Mask);
    let (Some(vgprs), Some(vcc32), Some(vcc64)) = (
        vgpr_at(s.width),
        vcc_at(s.width),
        vcc_at(if mask { 2 } else { s.width }),
    ) else {
        return None;
    };
    let mut p = ExtOp {
        base: [vcc32, vcc64],
        access: op_access(s.access, false),
        ty: s.ty,
        ..NO_OP
    };
    match s.fld {
        Fld::Vdst => {
            p.kind = K_VGPR;
            p.shift = 17;
            p.base = [vgprs; 2];
            p.access = op_access(s.access, true);
        }
        Fld::Src0 | Fld::Vsrc1 => {
            let src0 = matches!(s.fld, Fld::Src0);
            p.kind = if ext == SDWA { K_SRC } else { K_VGPR };
            (p.dw, p.shift, p.s_bit) = if src0 { (1, 0, 23) } else { (0, 9, 31) };
            p.base = [vgprs; 2];
            let k = if src0 { 0 } else { 1 };
            let (shift, mods) = mods_of(form.src_mods[k], ext, k as u32);
            p.mods_shift = shift;
            p.mods = mods;
        }
        Fld::Sdst => p.kind = K_SDST,
        Fld::Vcc => p.kind = K_VCC,
        _ => return None,
    }
    // The same rules as data for `run` (see `ExtOp::src`).
    let field = ExtSrc {
        shift: p.dw * 32 + p.shift,
        mask: 0xff,
        base: p.base,
    };
    let fixed = ExtSrc {
        shift: 0,
        mask: 0,
        base: p.base,
    };
    (p.s_on, p.src) = match p.kind {
        K_VGPR => (0, [field; 2]),
        K_SRC => (
            1,
            [
                field,
                ExtSrc {
                    base: [SCALAR_AT as u16; 2],
                    ..field
                },
            ],
        ),
        K_SDST => {
            p.s_bit = 15;
            (
                1,
                [
                    fixed,
                    ExtSrc {
                        shift: 32 + 8,
                        mask: 0x7f,
                        base: [SDST_AT[0] as u16, SDST_AT[1] as u16],
                    },
                ],
            )
        }
        _ => (0, [fixed; 2]),
    };
    Some(p)
}

/// An operand's access in each [`run`] control case (see
/// [`ExtOp::access`]): written operands of a DPP that leaves lanes
/// unwritten are also read and partial; the SDWA VGPR destination
/// (`vdst`) follows `dst_sel`/`dst_unused` (`sdwa_dst_access`).
const fn op_access(a: Access, vdst: bool) -> [Access; 4] {
    let mut t = [a; 4];
    if a.contains(Access::WRITE) {
        t[PARTIAL as usize] = a.union(Access::READ).union(Access::PARTIAL);
        if vdst {
            t[DST_PRESERVE as usize] = a
                .union(Access::READ)
                .union(Access::WRITE)
                .union(Access::PARTIAL);
            if a.contains(Access::PARTIAL) {
                t[DST_FILL as usize] = Access::WRITE;
            }
        }
    }
    t
}

/// Plan encodings.
const DPP16: u8 = 0;
const DPP8: u8 = 1;
const SDWA: u8 = 2;

/// Plans of every row of the extended-form table: `[dpp16, dpp8, sdwa]`.
static PLANS: [[ExtPlan; 3]; tx::EXT.len()] = {
    let mut plans = [[ExtPlan::NONE; 3]; tx::EXT.len()];
    let mut i = 0;
    while i < plans.len() {
        let e = &tx::EXT[i];
        plans[i] = [
            ExtPlan::of(&e.dpp16, DPP16),
            ExtPlan::of(&e.dpp8, DPP8),
            ExtPlan::of(&e.sdwa, SDWA),
        ];
        i += 1;
    }
    plans
};

/// The extended-form plans of every row of the VOP table (`tables::vop::VOP`,
/// the row the opcode maps give): `[dpp16, dpp8, sdwa]`, with the row's
/// opcode, so the short-VOP decoder reaches a plan by the row index it
/// already has, without reading the row.
static ROW_PLANS: [[ExtPlan; 3]; tv::VOP.len()] = {
    let mut plans = [[ExtPlan::NONE; 3]; tv::VOP.len()];
    let mut i = 0;
    while i < plans.len() {
        let index = tv::VOP[i].index as usize;
        if index < tx::EXT_POS.len() {
            let p = tx::EXT_POS[index] as usize;
            if p < PLANS.len() {
                let mut k = 0;
                while k < 3 {
                    plans[i][k] = PLANS[p][k];
                    plans[i][k].opcode = Opcode::new(OpSpace::Vop, tv::VOP[i].index);
                    k += 1;
                }
            }
        }
        i += 1;
    }
    plans
};

/// The plan of the form `ext` of VOP row `row`, if any.
#[inline(always)]
pub(crate) fn row_plan(row: u16, ext: Family) -> Option<&'static ExtPlan> {
    let k = match ext {
        Family::Dpp16 => DPP16,
        Family::Dpp8 => DPP8,
        _ => SDWA,
    };
    let plan = ROW_PLANS.get(row as usize)?.get(k as usize)?;
    (plan.n != 255).then_some(plan)
}

/// [`EXT_CODES`] regions: one and two VGPRs by their 8-bit field; SDWA
/// sources with the S bit set; the SDWA VOPC `sdst` field in wave32 and
/// wave64; `vcc` as one register and as a pair.
const VGPR1_AT: usize = 0;
const VGPR2_AT: usize = 256;
const SCALAR_AT: usize = 512;
const SDST_AT: [usize; 2] = [768, 896];
const VCC_AT: usize = 1024;
const EXT_CODES_LEN: usize = 2048;

/// The [`EXT_CODES`] region of `width` VGPRs.
const fn vgpr_at(width: u8) -> Option<u16> {
    match width {
        1 => Some(VGPR1_AT as u16),
        2 => Some(VGPR2_AT as u16),
        _ => None,
    }
}

/// The [`EXT_CODES`] entry of `vcc` as `width` registers.
const fn vcc_at(width: u8) -> Option<u16> {
    match width {
        1 | 2 => Some((VCC_AT + width as usize - 1) as u16),
        _ => None,
    }
}

/// Every operand an extended form's fields can give (see the regions
/// above), each whole, with whether it is an error the generic decoder
/// reports: a VGPR range past `v255`, a code that is no scalar source
/// (`vop_ext::sdwa_scalar`), no wave64 lane mask (`vop_ext::sdwa_sdst`).
static EXT_CODES: [(Operand, bool); EXT_CODES_LEN] = {
    let mut t = [(Operand::Off, true); EXT_CODES_LEN];
    let mut c = 0;
    while c < 256 {
        t[VGPR1_AT + c] = (
            Operand::Reg {
                code: VGPR_BASE + c as u16,
                count: 1,
            },
            false,
        );
        t[VGPR2_AT + c] = (
            Operand::Reg {
                code: VGPR_BASE + c as u16,
                count: 2,
            },
            c + 2 > 256,
        );
        let scalar = match c {
            0..=127 | 235..=239 | 251..=254 => Operand::Reg {
                code: c as u16,
                count: 1,
            },
            128..=208 | 240..=248 => Operand::Inline(c as u8),
            _ => Operand::Off,
        };
        t[SCALAR_AT + c] = (scalar, matches!(scalar, Operand::Off));
        if c < 128 {
            let (w32, w64) = (sdst(c as u16, false), sdst(c as u16, true));
            t[SDST_AT[0] + c] = (w32, matches!(w32, Operand::Off));
            t[SDST_AT[1] + c] = (w64, matches!(w64, Operand::Off));
        }
        c += 1;
    }
    t[VCC_AT] = (
        Operand::Reg {
            code: VCC_LO,
            count: 1,
        },
        false,
    );
    t[VCC_AT + 1] = (
        Operand::Reg {
            code: VCC_LO,
            count: 2,
        },
        false,
    );
    t
};

/// Decode the extended form `ext` with `plan`. Returns false when the plan
/// does not cover these bits (the caller then runs the generic decoder);
/// the opcode and family are the caller's.
#[inline(always)]
pub(crate) fn run(
    plan: &ExtPlan,
    ext: Family,
    w: Words<'_>,
    d0: u32,
    wave64: bool,
    target_bit: u8,
    out: &mut Instruction,
) -> bool {
    let n = plan.n as usize;
    if n > MAX_OPS || plan.targets & target_bit == 0 {
        return false;
    }
    let Ok(d1) = w.get(1) else {
        return false;
    };
    if (d0 & plan.fixed[0]) | (d1 & plan.fixed[1]) != 0 {
        return false;
    }
    // What the controls do to written operands: `partial` (DPP leaves
    // some lanes unwritten) adds READ | PARTIAL; the SDWA destination's
    // access follows dst_sel/dst_unused (`sdwa_dst_access`).
    // The modifiers go straight into `out` (on `false` the caller's
    // generic decoder overwrites them).
    let ctl = match ext {
        Family::Dpp16 => {
            let m = Dpp16Mods {
                ctrl: DPP_CTRL[((d1 >> 8) & 0x1ff) as usize],
                row_mask: ((d1 >> 28) & 0xf) as u8,
                bank_mask: ((d1 >> 24) & 0xf) as u8,
                bound_ctrl: d1 & (1 << 19) != 0,
                fi: d1 & (1 << 18) != 0,
            };
            let ctl = if m.writes_every_lane(wave64) {
                DST_KEEP
            } else {
                PARTIAL
            };
            out.mods = Modifiers::Dpp16(m);
            ctl
        }
        Family::Dpp8 => {
            let fi = d0 & 0x1ff == 0xea;
            let ctl = if fi { DST_KEEP } else { PARTIAL };
            out.mods = Modifiers::Dpp8(Dpp8Mods::from_raw(d1 >> 8, fi));
            ctl
        }
        _ => {
            // The selects the form decodes, the others DWORD (6); a
            // reserved select (7) is the generic decoder's error.
            let sels = ((d1 >> 8) & plan.sel_mask) | plan.sel_or;
            if sels & (sels >> 1) & (sels >> 2) & 0x01_0101 != 0 {
                return false;
            }
            let c = d1 & plan.ctl_mask;
            let dst_sel = sels & 7;
            // DWORD keeps the access; else UNUSED_PRESERVE and the
            // reserved value (bit 12) preserve, the others fill.
            let dst = if dst_sel == SdwaSel::Dword as u32 {
                DST_KEEP
            } else {
                DST_FILL - ((c >> 12) & 1) as u8
            };
            let m = SdwaMods {
                dst_sel: SEL[dst_sel as usize],
                dst_unused: DstUnused::from_bits(c >> 11),
                clamp: c & (1 << 13) != 0,
                omod: (c >> 14) as u8,
                src0_sel: SEL[((sels >> 8) & 7) as usize],
                src1_sel: SEL[((sels >> 16) & 7) as usize],
            };
            out.mods = Modifiers::Sdwa(m);
            dst
        }
    };
    let d64 = (d1 as u64) << 32 | d0 as u64;
    let mut bad = false;
    let slots = out.operands.slots_mut();
    for (p, s) in plan.ops.iter().zip(slots.iter_mut()).take(n) {
        // Where the operand is in `EXT_CODES` (one load of it whole), with
        // no branch on its kind: the S/SD bit picks the field's source.
        let k = (d1 >> (p.s_bit & 31)) as u8 & p.s_on;
        let f = &p.src[k as usize & 1];
        let raw = (d64 >> (f.shift & 63)) as usize & f.mask as usize;
        let at = f.base[wave64 as usize] as usize + raw;
        let (op, b) = EXT_CODES[at & (EXT_CODES_LEN - 1)];
        bad |= b;
        let access = p.access[ctl as usize & 3];
        *s = Slot {
            op,
            access,
            ty: p.ty,
            mods: p.mods[((d1 >> (p.mods_shift & 31)) & 7) as usize],
        };
    }
    if bad {
        return false;
    }
    out.operands.set_len(n);
    out.len = 8;
    true
}

/// [`run`]'s control cases (see [`ExtOp::access`]). The SDWA destination
/// rules (see `sdwa_dst_access`): the access stays, becomes a preserving
/// partial write, or a filled full write.
const DST_KEEP: u8 = 0;
const DST_PRESERVE: u8 = 1;
const DST_FILL: u8 = 2;
/// [`run`]'s DPP case: written operands are also read and partial.
const PARTIAL: u8 = 3;

/// The SDWA VOPC `sdst` field (SD set), as `vop_ext::sdwa_sdst` decodes it;
/// `Operand::Off` for a code that is no wave64 lane mask.
const fn sdst(c: u16, wave64: bool) -> Operand {
    match (wave64, c) {
        (false, _) => Operand::Reg { code: c, count: 1 },
        (true, 0..=105 | 108..=123) => Operand::Reg {
            code: c & !1,
            count: 2,
        },
        (true, 106 | 125 | 126) => Operand::Reg { code: c, count: 2 },
        _ => Operand::Off,
    }
}

/// SDWA selects by their bits (7, reserved, is rejected before).
static SEL: [SdwaSel; 8] = [
    SdwaSel::Byte0,
    SdwaSel::Byte1,
    SdwaSel::Byte2,
    SdwaSel::Byte3,
    SdwaSel::Word0,
    SdwaSel::Word1,
    SdwaSel::Dword,
    SdwaSel::Dword,
];

/// [`DppCtrl::from_raw`] of every 9-bit control value.
static DPP_CTRL: [DppCtrl; 512] = {
    let mut t = [DppCtrl::RowMirror; 512];
    let mut raw = 0;
    while raw < 512 {
        t[raw] = DppCtrl::from_raw(raw as u16);
        raw += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::vop_ext::decode_generic;

    /// Every entry of the operand table is the generic decoder's answer
    /// (or its error) for that field, count and wave size.
    #[test]
    fn ext_codes_match_generic_rules() {
        use crate::decode::vop_ext::{sdwa_scalar, sdwa_sdst, vgpr};
        let want = |r: Result<Operand, _>| match r {
            Ok(op) => (op, false),
            Err(_) => (Operand::Off, true),
        };
        for c in 0..256u32 {
            for (at, count) in [(VGPR1_AT, 1u8), (VGPR2_AT, 2)] {
                let got = EXT_CODES[at + c as usize];
                let (op, bad) = want(vgpr(Family::Sdwa, c, count));
                assert_eq!(got.1, bad, "vgpr {c} x{count}");
                if !bad {
                    assert_eq!(got.0, op, "vgpr {c} x{count}");
                }
            }
            let got = EXT_CODES[SCALAR_AT + c as usize];
            let (op, bad) = want(sdwa_scalar(c));
            assert_eq!(got.1, bad, "scalar {c}");
            if !bad {
                assert_eq!(got.0, op, "scalar {c}");
            }
            if c < 128 {
                for wave64 in [false, true] {
                    let got = EXT_CODES[SDST_AT[wave64 as usize] + c as usize];
                    assert_eq!(got, want(sdwa_sdst(c, wave64)), "sdst {c} wave64 {wave64}");
                }
            }
        }
        for (k, count) in [1u8, 2].into_iter().enumerate() {
            let vcc = Operand::Reg {
                code: VCC_LO,
                count,
            };
            assert_eq!(EXT_CODES[VCC_AT + k], (vcc, false));
        }
    }

    /// A VOP row's plans are the plans of its extended-form row, with the
    /// row's opcode (the short-VOP decoder reaches them by row index).
    #[test]
    fn row_plans_are_the_rows_extended_plans() {
        let mut with_plan = 0;
        for (i, row) in tv::VOP.iter().enumerate() {
            let p = tx::EXT_POS.get(row.index as usize).map(|&p| p as usize);
            for k in 0..3 {
                let got = &ROW_PLANS[i][k];
                match p.and_then(|p| PLANS.get(p)) {
                    Some(plans) if plans[k].n != 255 => {
                        with_plan += 1;
                        assert_eq!(got.n, plans[k].n, "row {i}/{k}");
                        assert_eq!(got.fixed, plans[k].fixed, "row {i}/{k}");
                        assert_eq!(got.targets, plans[k].targets, "row {i}/{k}");
                        assert_eq!(got.opcode, Opcode::new(OpSpace::Vop, row.index));
                    }
                    _ => assert_eq!(got.n, 255, "row {i}/{k}"),
                }
            }
        }
        assert!(with_plan > 100, "{with_plan}");
    }

    /// On random words of every extended form (in wave32 and wave64), the
    /// plan decodes exactly what the generic decoder does, and leaves to it
    /// only what it rejects.
    #[test]
    fn plans_match_generic_decoder() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut planned = 0;
        for (i, e) in tx::EXT.iter().enumerate() {
            let forms = [
                (Family::Dpp16, &e.dpp16, 0xfa),
                (Family::Dpp8, &e.dpp8, 0xe9),
                (Family::Sdwa, &e.sdwa, 0xf9),
            ];
            for (k, (fam, form, marker)) in forms.into_iter().enumerate() {
                let Some(form) = form.as_ref() else {
                    continue;
                };
                let plan = &PLANS[i][k];
                assert!(plan.n != 255, "form {i}/{k} has no plan");
                for round in 0..400u32 {
                    let mut marker = marker;
                    if fam == Family::Dpp8 && round & 1 == 1 {
                        marker = 0xea;
                    }
                    let mut d0 = (rnd() & !0x1ff) | marker;
                    let mut d1 = rnd();
                    if round % 4 != 0 {
                        // Mostly words the plan covers.
                        d0 &= !form.fixed[0];
                        d1 &= !form.fixed[1];
                    }
                    let wave64 = round & 2 != 0;
                    let mut bytes = [0u8; 8];
                    bytes[..4].copy_from_slice(&d0.to_le_bytes());
                    bytes[4..].copy_from_slice(&d1.to_le_bytes());
                    let w = Words { bytes: &bytes };
                    let mut a = Instruction::default();
                    let mut b = Instruction::default();
                    let generic = decode_generic(w, d0, fam, form, wave64, &mut b);
                    if run(plan, fam, w, d0, wave64, form.targets, &mut a) {
                        planned += 1;
                        assert_eq!(generic, Ok(()), "{d0:#x} {d1:#x}");
                        (a.opcode, a.family) = (b.opcode, b.family);
                        assert_eq!(a, b, "{d0:#x} {d1:#x} wave64 {wave64}");
                    } else {
                        assert!(generic.is_err(), "{d0:#x} {d1:#x} wave64 {wave64}");
                    }
                }
            }
        }
        assert!(planned > 10_000, "{planned}");
    }
}
