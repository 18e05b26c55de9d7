//! DPP16, DPP8 and SDWA decoding.
//!
//! The first dword is a VOP1/VOP2/VOPC word whose src0 field is a marker;
//! the native opcode names the `_e32` instruction and the
//! generated table gives the form: its operands, the bits LLVM rejects and
//! the modifiers it decodes. The control fields then decide the access of
//! the written operands (see [`crate::family::vop_ext`]).

use super::{DecodeErrorKind, Mode, Words};
use crate::family::vop::{Fld, VopInfo};
use crate::family::vop_ext::{
    self, sdwa_dst_access, Dpp16Mods, Dpp8Mods, DppCtrl, DstUnused, ExtForm, SdwaMods, SdwaSel,
};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType, VCC_LO, VGPR_BASE};

/// Decode an extended form. `ext` is the family the marker selects,
/// `short` the VOP1/VOP2/VOPC encoding and `op` its native opcode.
///
/// `None` when the instruction has no such form on the target: LLVM then
/// decodes the word as the `_e32` instruction (which only succeeds when
/// that ignores src0, like `v_nop`).
///
/// The short-VOP decoder runs the form's plan (`ext_plan`) first; this is
/// the generic path for what a plan does not cover.
#[inline(never)]
pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    ext: Family,
    info: Option<&'static VopInfo>,
    mode: Mode,
    out: &mut Instruction,
) -> Option<Result<(), DecodeErrorKind>> {
    let index = info?.index;
    let opcode = Opcode::new(OpSpace::Vop, index);
    let form = vop_ext::form(opcode, ext)?;
    if form.targets & mode.target.bit() == 0 {
        return None;
    }
    out.opcode = opcode;
    out.family = ext;
    // One decoder per encoding: the family-dependent choices fold away.
    Some(match ext {
        Family::Dpp16 => decode_form::<DPP16>(w, d0, form, mode.wave64, out),
        Family::Dpp8 => decode_form::<DPP8>(w, d0, form, mode.wave64, out),
        _ => decode_form::<SDWA>(w, d0, form, mode.wave64, out),
    })
}

/// [`decode_form`]'s encodings.
const DPP16: u8 = 0;
const DPP8: u8 = 1;
const SDWA: u8 = 2;

/// The family of a [`decode_form`] encoding.
const fn ext_family(ext: u8) -> Family {
    match ext {
        DPP16 => Family::Dpp16,
        DPP8 => Family::Dpp8,
        _ => Family::Sdwa,
    }
}

fn invalid(family: Family, why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family, why }
}

/// `count` VGPRs from `v{n}`.
pub(crate) fn vgpr(family: Family, n: u32, count: u8) -> Result<Operand, DecodeErrorKind> {
    if n + count as u32 > 256 {
        return Err(invalid(family, "VGPR range past v255"));
    }
    Ok(Operand::Reg {
        code: VGPR_BASE + n as u16,
        count,
    })
}

/// An SDWA source with the S bit set: a scalar register or an inline
/// constant (LLVM's gfx10 rules: no literal, no reserved codes).
pub(crate) fn sdwa_scalar(code: u32) -> Result<Operand, DecodeErrorKind> {
    let c = code as u16;
    match c {
        0..=127 | 235..=239 | 251..=254 => Ok(Operand::Reg { code: c, count: 1 }),
        128..=208 | 240..=248 => Ok(Operand::Inline(c as u8)),
        _ => Err(invalid(Family::Sdwa, "not a scalar source code")),
    }
}

/// The VOPC SDWA `sdst` field (SD set): one SGPR in wave32, an aligned
/// pair in wave64 (where `vcc_hi`, `m0` and `exec_hi` have no pair).
pub(crate) fn sdwa_sdst(code: u32, wave64: bool) -> Result<Operand, DecodeErrorKind> {
    let c = code as u16;
    if !wave64 {
        return Ok(Operand::Reg { code: c, count: 1 });
    }
    match c {
        0..=105 | 108..=123 => Ok(Operand::Reg {
            code: c & !1,
            count: 2,
        }),
        106 | 125 | 126 => Ok(Operand::Reg { code: c, count: 2 }),
        _ => Err(invalid(
            Family::Sdwa,
            "register cannot be a wave64 lane mask",
        )),
    }
}

/// The register fields of an extended form, by `Fld as usize`: (dword,
/// shift, the SDWA bit of the second dword that makes it a scalar source
/// (0: none), source number + 1 (0: not a source)).
static EXT_FIELDS: [(u8, u8, u8, u8); 10] = {
    let mut t = [(0, 0, 0, 0); 10];
    t[Fld::Vdst as usize] = (0, 17, 0, 0);
    t[Fld::Src0 as usize] = (1, 0, 23, 1);
    t[Fld::Vsrc1 as usize] = (0, 9, 31, 2);
    t
};

fn decode_form<const EXT: u8>(
    w: Words<'_>,
    d0: u32,
    form: &'static ExtForm,
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let ext = ext_family(EXT);
    let d1 = w.get(1)?;
    if (d0 & form.fixed[0]) | (d1 & form.fixed[1]) != 0 {
        return Err(invalid(ext, "a bit LLVM requires to be zero is set"));
    }
    // Controls first: they decide the access of the written operands.
    // `partial`: DPP leaves some lanes unwritten; `sdwa`: the SDWA fields
    // (their dst_sel/dst_unused decide the destination's access).
    let (mods, partial, sdwa) = match EXT {
        DPP16 => {
            let m = Dpp16Mods {
                ctrl: DppCtrl::from_raw(((d1 >> 8) & 0x1ff) as u16),
                row_mask: ((d1 >> 28) & 0xf) as u8,
                bank_mask: ((d1 >> 24) & 0xf) as u8,
                bound_ctrl: d1 & (1 << 19) != 0,
                fi: d1 & (1 << 18) != 0,
            };
            (Modifiers::Dpp16(m), !m.writes_every_lane(wave64), None)
        }
        DPP8 => {
            let m = Dpp8Mods::from_raw(d1 >> 8, d0 & 0x1ff == 0xea);
            (Modifiers::Dpp8(m), !m.fi, None)
        }
        _ => {
            let sel = |v: u32, on: bool| -> Result<SdwaSel, DecodeErrorKind> {
                if !on {
                    return Ok(SdwaSel::Dword);
                }
                SdwaSel::from_bits(v & 7).ok_or_else(|| invalid(ext, "SDWA select 7 is reserved"))
            };
            let dst_unused = if form.dst_sel {
                DstUnused::from_bits((d1 >> 11) & 3)
            } else {
                DstUnused::Pad
            };
            let m = SdwaMods {
                dst_sel: sel(d1 >> 8, form.dst_sel)?,
                dst_unused,
                clamp: form.clamp && d1 & (1 << 13) != 0,
                omod: if form.omod { ((d1 >> 14) & 3) as u8 } else { 0 },
                src0_sel: sel(d1 >> 16, form.src_sel[0])?,
                src1_sel: sel(d1 >> 24, form.src_sel[1])?,
            };
            (Modifiers::Sdwa(m), false, Some(m))
        }
    };
    // Written operands keep the `_e32` access unless the controls make
    // the write partial.
    let d = [d0, d1];
    let sdwa_s = EXT == SDWA;
    for (i, s) in form.slots().iter().enumerate() {
        let width = if wave64 && s.ty == ValType::Mask {
            2
        } else {
            s.width
        };
        let (op, src) = match s.fld {
            fld @ (Fld::Vdst | Fld::Src0 | Fld::Vsrc1) => {
                // One path for the three register fields, their position
                // looked up (LLVM would otherwise classify every field of
                // every form up front).
                let (dw, shift, s_bit, src) = EXT_FIELDS[fld as usize];
                let raw = (d[dw as usize & 1] >> shift) & 0xff;
                let op = if sdwa_s && s_bit != 0 && (d1 >> s_bit) & 1 != 0 {
                    sdwa_scalar(raw)?
                } else {
                    vgpr(ext, raw, s.width)?
                };
                (op, src.checked_sub(1))
            }
            Fld::Sdst if d1 & (1 << 15) != 0 => (sdwa_sdst((d1 >> 8) & 0x7f, wave64)?, None),
            Fld::Sdst | Fld::Vcc => (
                Operand::Reg {
                    code: VCC_LO,
                    count: width,
                },
                None,
            ),
            _ => return Err(invalid(ext, "operand field not in this form")),
        };
        let mods_here = match src {
            Some(k) => src_mods::<EXT>(form, d1, k as usize & 1),
            None => OpMods::empty(),
        };
        let mut access = s.access;
        if access.contains(Access::WRITE) {
            if partial {
                access |= Access::READ | Access::PARTIAL;
            } else if let (Some(m), Fld::Vdst) = (&sdwa, s.fld) {
                access = sdwa_dst_access(access, m);
            }
        }
        out.operands.set(
            i,
            Slot {
                op,
                access,
                ty: s.ty,
                mods: mods_here,
            },
        );
    }
    out.operands.set_len(form.slots().len());
    out.mods = mods;
    out.len = 8;
    Ok(())
}

/// The source modifiers of source `k` (0: src0, 1: src1) that the form
/// decodes.
#[inline(always)]
fn src_mods<const EXT: u8>(form: &ExtForm, d1: u32, k: usize) -> OpMods {
    let have = form.src_mods[k];
    if have.is_empty() {
        return OpMods::empty();
    }
    let bit = |b: u32| d1 & (1 << b) != 0;
    let mut m = OpMods::empty();
    match EXT {
        DPP16 => {
            let (neg, abs) = (20 + 2 * k as u32, 21 + 2 * k as u32);
            if bit(neg) {
                if have.contains(OpMods::NEG) {
                    m |= OpMods::NEG;
                } else if have.contains(OpMods::SEXT) {
                    m |= OpMods::SEXT;
                }
            }
            if bit(abs) && have.contains(OpMods::ABS) {
                m |= OpMods::ABS;
            }
        }
        SDWA => {
            let b = 8 * k as u32;
            if bit(19 + b) && have.contains(OpMods::SEXT) {
                m |= OpMods::SEXT;
            }
            if bit(20 + b) && have.contains(OpMods::NEG) {
                m |= OpMods::NEG;
            }
            if bit(21 + b) && have.contains(OpMods::ABS) {
                m |= OpMods::ABS;
            }
        }
        _ => {}
    }
    m
}

/// The generic decoder of one extended form, for the plan tests.
#[cfg(test)]
pub(super) fn decode_generic(
    w: Words<'_>,
    d0: u32,
    ext: Family,
    form: &'static ExtForm,
    wave64: bool,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    match ext {
        Family::Dpp16 => decode_form::<DPP16>(w, d0, form, wave64, out),
        Family::Dpp8 => decode_form::<DPP8>(w, d0, form, wave64, out),
        _ => decode_form::<SDWA>(w, d0, form, wave64, out),
    }
}
