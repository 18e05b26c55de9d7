//! Vector ALU instructions (VOP1, VOP2, VOP3, VOPC): per-lane values written
//! under EXEC, compares producing this lane's bit of a mask.

use super::support::{self, Support};
use super::Lifter;
use crate::ir::{Bin, FCmp, ICmp, Input, Load, Tri, Ty, Un, Value};
use crate::{CrossLane, Form, Lds, OpcodeClass};
use isa::{
    op, CmpCond, Compare, Family, Instruction, Modifiers, NumTy, Opcode, Operand, Slot, ValType,
};

impl Lifter<'_> {
    pub(super) fn valu(&mut self, code: Opcode, inst: &Instruction) {
        // DPP: only `quad_perm` in pixel shaders (src0 from the quad).
        let quad = match inst.family {
            Family::Dpp16 | Family::Dpp8 => match self.dpp_quad(inst) {
                Some(perm) if !super::half::is_half(code) => Some(perm),
                _ => {
                    self.problem(CrossLane::Dpp);
                    return;
                }
            },
            _ => None,
        };
        if super::half::is_half(code) {
            self.valu16(code, inst);
            return;
        }
        let field = Self::sdwa_field;
        let mut sdwa: Option<[(u32, u32); 3]> = None;
        let mut sdwa_unused = isa::family::vop_ext::DstUnused::Pad;
        if inst.family == Family::Sdwa {
            let Modifiers::Sdwa(m) = inst.mods else {
                self.problem(Form::SdwaFields);
                return;
            };
            if m.clamp || m.omod != 0 {
                self.problem(Form::SdwaModifier);
                return;
            }
            let dst = field(m.dst_sel);
            sdwa_unused = m.dst_unused;
            sdwa = Some([field(m.src0_sel), field(m.src1_sel), dst]);
        }
        let mut clamp = false;
        let mut omod = 0u8;
        if let Modifiers::Vop3(m) = inst.mods {
            if m.opsel_dst {
                self.problem(Form::Vop3Modifier);
                return;
            }
            clamp = m.clamp;
            omod = m.omod;
        }
        let f = code.facts();
        let (defs, srcs) = super::defs_and_srcs(inst);
        // What isa says the instruction touches beyond its operands.
        let imp = inst.implicit();
        if imp.contains(isa::Implicit::RELATIVE) {
            self.problem(Form::RelativeRegister);
            return;
        }
        if imp.contains(isa::Implicit::LDS) {
            self.problem(Lds::Direct);
            return;
        }
        if imp.contains(isa::Implicit::CROSS_LANE)
            && quad.is_none()
            && !matches!(code, op::V_READLANE_B32 | op::V_READFIRSTLANE_B32)
        {
            self.problem(CrossLane::Registers);
            return;
        }
        // SDWA's partial destinations are merged below.
        if sdwa.is_none() && defs.iter().any(|d| d.access.contains(isa::Access::PARTIAL)) {
            self.problem(Form::PartialWrite);
            return;
        }
        // Lane-mask sources (v_cndmask's selector, carry-in).
        let mut vals = Vec::new();
        let mut masks = Vec::new();
        for s in &srcs {
            if s.ty == ValType::Mask {
                masks.push(self.mask_operand(s.op));
            } else {
                let sel = sdwa.and_then(|f| f.get(vals.len()).copied().filter(|_| vals.len() < 2));
                let v = match quad {
                    Some(perm) if vals.is_empty() => self.dpp_quad_src(s, sel, perm),
                    _ => self.src_sel(s, sel),
                };
                vals.push(v);
            }
        }
        let x = |i: usize| vals.get(i).copied();
        if let Some(rest) = f.cmp.map(|c| (c, imp.contains(isa::Implicit::WRITE_EXEC))) {
            let ((rest, is_x), (Some(a), Some(b))) = (rest, (x(0), x(1))) else {
                self.problem(Form::CompareOperands);
                return;
            };
            let Some(c) = self.compare(rest, a, b) else {
                self.problem(Form::CompareType);
                return;
            };
            let act = self.active();
            let bit = self.b.bin(Bin::BAnd, act, c);
            self.write_compare(is_x, &defs, bit);
            return;
        }
        let as_f32 = |l: &mut Self, v: Value| l.b.un(Un::AsF32, v);
        let as_u32 = |l: &mut Self, v: Value| l.b.un(Un::AsU32, v);
        let need = |l: &mut Self, n: usize| -> bool {
            if vals.len() < n {
                l.problem(Form::MissingOperand);
                false
            } else {
                true
            }
        };
        let zero = self.const_u32(0);
        let mut float_result = false;
        if support::valu(code) == Support::Unsupported {
            self.unhandled(OpcodeClass::VectorAlu);
            return;
        }
        let r: Value = match code {
            op::V_NOP => return,
            op::V_MOV_B32 => {
                if !need(self, 1) {
                    return;
                }
                vals[0]
            }
            op::V_READFIRSTLANE_B32 | op::V_READLANE_B32 => {
                // Exact only when the source is the same in every lane.
                if !need(self, 1) {
                    return;
                }
                if self.uniform(vals[0]) || self.primitive_uniform(vals[0]) {
                    vals[0]
                } else {
                    self.unsup(Ty::U32, CrossLane::Readlane)
                }
            }
            op::V_CNDMASK_B32 => {
                if !need(self, 2) || masks.is_empty() {
                    self.problem(Form::CndmaskMask);
                    return;
                }
                self.b.select(masks[0], vals[1], vals[0])
            }
            op::V_ADD_NC_U32 | op::V_SUB_NC_U32 | op::V_SUBREV_NC_U32 => {
                if !need(self, 2) {
                    return;
                }
                if clamp {
                    self.problem(Form::SaturatingAdd);
                    return;
                }
                match code {
                    op::V_ADD_NC_U32 => self.b.add(vals[0], vals[1]),
                    op::V_SUB_NC_U32 => self.b.bin(Bin::Sub, vals[0], vals[1]),
                    _ => self.b.bin(Bin::Sub, vals[1], vals[0]),
                }
            }
            op::V_ADD_CO_U32
            | op::V_SUB_CO_U32
            | op::V_SUBREV_CO_U32
            | op::V_ADD_CO_CI_U32
            | op::V_SUB_CO_CI_U32
            | op::V_SUBREV_CO_CI_U32 => {
                if !need(self, 2) || clamp {
                    self.problem(Form::CarryForm);
                    return;
                }
                let (a, b) = if matches!(code, op::V_SUBREV_CO_U32 | op::V_SUBREV_CO_CI_U32) {
                    (vals[1], vals[0])
                } else {
                    (vals[0], vals[1])
                };
                let cin = if matches!(
                    code,
                    op::V_ADD_CO_CI_U32 | op::V_SUB_CO_CI_U32 | op::V_SUBREV_CO_CI_U32
                ) {
                    match masks.first() {
                        Some(&m) => self.b.un(Un::BoolToU32, m),
                        None => zero,
                    }
                } else {
                    zero
                };
                let (r, carry) = if matches!(code, op::V_ADD_CO_U32 | op::V_ADD_CO_CI_U32) {
                    let t = self.b.add(a, b);
                    let r = self.b.add(t, cin);
                    let c1 = self.b.icmp(ICmp::ULt, t, a);
                    let c2 = self.b.icmp(ICmp::ULt, r, t);
                    (r, self.b.bin(Bin::BOr, c1, c2))
                } else {
                    let t = self.b.bin(Bin::Sub, a, b);
                    let r = self.b.bin(Bin::Sub, t, cin);
                    let c1 = self.b.icmp(ICmp::ULt, a, b);
                    let c2 = self.b.icmp(ICmp::ULt, t, cin);
                    (r, self.b.bin(Bin::BOr, c1, c2))
                };
                // The carry-out mask is the second definition.
                if let Some(cd) = defs.get(1) {
                    if let Operand::Reg { code, .. } = cd.op {
                        let act = self.active();
                        let bit = self.b.bin(Bin::BAnd, act, carry);
                        self.write_mask(code as usize, bit);
                    }
                }
                if let Some(d) = defs.first() {
                    self.write_v(d, 0, r);
                }
                return;
            }
            op::V_AND_B32 | op::V_OR_B32 | op::V_XOR_B32 | op::V_XNOR_B32 => {
                if !need(self, 2) {
                    return;
                }
                let op = match code {
                    op::V_AND_B32 => Bin::And,
                    op::V_OR_B32 => Bin::Or,
                    _ => Bin::Xor,
                };
                let field = self.ancillary_field(code, &vals);
                let r = field.unwrap_or_else(|| self.b.bin(op, vals[0], vals[1]));
                if code == op::V_XNOR_B32 {
                    self.b.un(Un::Not, r)
                } else {
                    r
                }
            }
            op::V_NOT_B32 => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::Not, vals[0])
            }
            op::V_BFREV_B32 => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::BitReverse, vals[0])
            }
            op::V_LSHLREV_B32 | op::V_LSHRREV_B32 | op::V_ASHRREV_I32 => {
                if !need(self, 2) {
                    return;
                }
                let op = match code {
                    op::V_LSHLREV_B32 => Bin::Shl,
                    op::V_LSHRREV_B32 => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                self.b.bin(op, vals[1], vals[0])
            }
            op::V_LSHL_ADD_U32
            | op::V_ADD_LSHL_U32
            | op::V_LSHL_OR_B32
            | op::V_AND_OR_B32
            | op::V_OR3_B32
            | op::V_XOR3_B32
            | op::V_ADD3_U32
            | op::V_XAD_U32 => {
                if !need(self, 3) {
                    return;
                }
                let (a, b, c) = (vals[0], vals[1], vals[2]);
                match code {
                    op::V_LSHL_ADD_U32 => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.add(t, c)
                    }
                    op::V_ADD_LSHL_U32 => {
                        let t = self.b.add(a, b);
                        self.b.bin(Bin::Shl, t, c)
                    }
                    op::V_LSHL_OR_B32 => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    op::V_AND_OR_B32 => {
                        let t = self.b.bin(Bin::And, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    op::V_OR3_B32 => {
                        let t = self.b.bin(Bin::Or, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    op::V_XOR3_B32 => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.bin(Bin::Xor, t, c)
                    }
                    op::V_ADD3_U32 => {
                        let t = self.b.add(a, b);
                        self.b.add(t, c)
                    }
                    _ => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.add(t, c)
                    }
                }
            }
            op::V_MUL_LO_U32 => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::Mul, vals[0], vals[1])
            }
            op::V_MUL_HI_U32 => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiU, vals[0], vals[1])
            }
            op::V_MUL_HI_I32 => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiI, vals[0], vals[1])
            }
            op::V_MUL_U32_U24
            | op::V_MUL_I32_I24
            | op::V_MAD_U32_U24
            | op::V_MAD_I32_I24
            | op::V_MUL_HI_U32_U24
            | op::V_MUL_HI_I32_I24 => {
                let n = if matches!(code, op::V_MAD_U32_U24 | op::V_MAD_I32_I24) {
                    3
                } else {
                    2
                };
                if !need(self, n) {
                    return;
                }
                let signed = matches!(
                    code,
                    op::V_MUL_I32_I24 | op::V_MAD_I32_I24 | op::V_MUL_HI_I32_I24
                );
                let e24 = |l: &mut Self, v: Value| {
                    let s8 = l.const_u32(8);
                    let t = l.b.bin(Bin::Shl, v, s8);
                    l.b.bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, s8)
                };
                let a = e24(self, vals[0]);
                let b = e24(self, vals[1]);
                if matches!(code, op::V_MUL_HI_U32_U24 | op::V_MUL_HI_I32_I24) {
                    self.b
                        .bin(if signed { Bin::MulHiI } else { Bin::MulHiU }, a, b)
                } else {
                    let p = self.b.bin(Bin::Mul, a, b);
                    if n == 3 {
                        self.b.add(p, vals[2])
                    } else {
                        p
                    }
                }
            }
            op::V_MIN_U32 | op::V_MAX_U32 | op::V_MIN_I32 | op::V_MAX_I32 => {
                if !need(self, 2) {
                    return;
                }
                let op = match code {
                    op::V_MIN_U32 => Bin::UMin,
                    op::V_MAX_U32 => Bin::UMax,
                    op::V_MIN_I32 => Bin::SMin,
                    _ => Bin::SMax,
                };
                self.b.bin(op, vals[0], vals[1])
            }
            op::V_MED3_I32 | op::V_MED3_U32 => {
                if !need(self, 3) {
                    return;
                }
                let (lo, hi) = if code == op::V_MED3_I32 {
                    (Bin::SMin, Bin::SMax)
                } else {
                    (Bin::UMin, Bin::UMax)
                };
                // max(min(a, b), min(max(a, b), c))
                let mn = self.b.bin(lo, vals[0], vals[1]);
                let mx = self.b.bin(hi, vals[0], vals[1]);
                let t = self.b.bin(lo, mx, vals[2]);
                self.b.bin(hi, mn, t)
            }
            op::V_LSHLREV_B64 | op::V_LSHRREV_B64 | op::V_ASHRREV_I64 => {
                let (Some(d), Some(v)) = (defs.first().copied(), srcs.get(1).copied()) else {
                    self.problem(Form::MissingOperand);
                    return;
                };
                if !need(self, 1) {
                    return;
                }
                let Some((lo, hi)) = self.vsrc64(&v) else {
                    self.problem(Form::WideConstant);
                    return;
                };
                let (rlo, rhi) = self.shift64(code, vals[0], lo, hi);
                self.write_v(&d, 0, rlo);
                self.write_v(&d, 1, rhi);
                return;
            }
            op::V_MIN3_U32 | op::V_MAX3_U32 | op::V_MIN3_I32 | op::V_MAX3_I32 => {
                if !need(self, 3) {
                    return;
                }
                let op = match code {
                    op::V_MIN3_U32 => Bin::UMin,
                    op::V_MAX3_U32 => Bin::UMax,
                    op::V_MIN3_I32 => Bin::SMin,
                    _ => Bin::SMax,
                };
                let t = self.b.bin(op, vals[0], vals[1]);
                self.b.bin(op, t, vals[2])
            }
            op::V_BFE_U32 | op::V_BFE_I32 => {
                if !need(self, 3) {
                    return;
                }
                if let Some(r) = self.ancillary_field(code, &vals) {
                    r
                } else {
                    let m31 = self.const_u32(31);
                    let off = self.b.bin(Bin::And, vals[1], m31);
                    let w = self.b.bin(Bin::And, vals[2], m31);
                    self.bfe(vals[0], off, w, code == op::V_BFE_I32)
                }
            }
            op::V_BFI_B32 => {
                if !need(self, 3) {
                    return;
                }
                let t = self.b.bin(Bin::And, vals[0], vals[1]);
                let na = self.b.un(Un::Not, vals[0]);
                let e = self.b.bin(Bin::And, na, vals[2]);
                self.b.bin(Bin::Or, t, e)
            }
            op::V_BFM_B32 => {
                if !need(self, 2) {
                    return;
                }
                self.bfm(vals[0], vals[1])
            }
            op::V_ALIGNBIT_B32 | op::V_ALIGNBYTE_B32 => {
                if !need(self, 3) {
                    return;
                }
                let m31 = self.const_u32(if code == op::V_ALIGNBIT_B32 { 31 } else { 3 });
                let mut s = self.b.bin(Bin::And, vals[2], m31);
                if code == op::V_ALIGNBYTE_B32 {
                    let e = self.const_u32(8);
                    s = self.b.bin(Bin::Mul, s, e);
                }
                // ({a, b} >> s)[31:0]
                let lo = self.b.bin(Bin::ShrL, vals[1], s);
                let n32 = self.const_u32(32);
                let rs = self.b.bin(Bin::Sub, n32, s);
                let hi = self.b.bin(Bin::Shl, vals[0], rs);
                let s0 = self.b.icmp(ICmp::Eq, s, zero);
                let hi = self.b.select(s0, zero, hi);
                self.b.bin(Bin::Or, lo, hi)
            }
            op::V_BCNT_U32_B32 => {
                if !need(self, 2) {
                    return;
                }
                let c = self.b.un(Un::CountOnes, vals[0]);
                self.b.add(c, vals[1])
            }
            op::V_ADD_F32
            | op::V_SUB_F32
            | op::V_SUBREV_F32
            | op::V_MUL_F32
            | op::V_MIN_F32
            | op::V_MAX_F32
            | op::V_LDEXP_F32 => {
                if !need(self, 2) {
                    return;
                }
                float_result = true;
                let a = as_f32(self, vals[0]);
                let b = as_f32(self, vals[1]);
                let r = match code {
                    op::V_ADD_F32 => self.b.bin(Bin::FAdd, a, b),
                    op::V_SUB_F32 => self.b.bin(Bin::FSub, a, b),
                    op::V_SUBREV_F32 => self.b.bin(Bin::FSub, b, a),
                    op::V_MUL_F32 => self.b.bin(Bin::FMul, a, b),
                    op::V_MIN_F32 => self.b.bin(Bin::FMin, a, b),
                    op::V_MAX_F32 => self.b.bin(Bin::FMax, a, b),
                    _ => self.b.bin(Bin::Ldexp, a, vals[1]),
                };
                as_u32(self, r)
            }
            op::V_MIN3_F32 | op::V_MAX3_F32 | op::V_MED3_F32 => {
                if !need(self, 3) {
                    return;
                }
                float_result = true;
                let a = as_f32(self, vals[0]);
                let b = as_f32(self, vals[1]);
                let c = as_f32(self, vals[2]);
                let r = match code {
                    op::V_MIN3_F32 => {
                        let t = self.b.bin(Bin::FMin, a, b);
                        self.b.bin(Bin::FMin, t, c)
                    }
                    op::V_MAX3_F32 => {
                        let t = self.b.bin(Bin::FMax, a, b);
                        self.b.bin(Bin::FMax, t, c)
                    }
                    _ => {
                        let lo = self.b.bin(Bin::FMin, a, b);
                        let hi = self.b.bin(Bin::FMax, a, b);
                        let t = self.b.bin(Bin::FMin, hi, c);
                        let med = self.b.bin(Bin::FMax, lo, t);
                        // With a NaN operand the hardware's med3 is min3.
                        let min3 = self.b.bin(Bin::FMin, lo, c);
                        let na = self.b.un(Un::IsNan, a);
                        let nb = self.b.un(Un::IsNan, b);
                        let nc = self.b.un(Un::IsNan, c);
                        let nab = self.b.bin(Bin::BOr, na, nb);
                        let any = self.b.bin(Bin::BOr, nab, nc);
                        self.b.select(any, min3, med)
                    }
                };
                as_u32(self, r)
            }
            op::V_FMA_F32
            | op::V_FMAC_F32
            | op::V_FMAAK_F32
            | op::V_FMAMK_F32
            | op::V_MAC_F32
            | op::V_MAD_F32
            | op::V_MADAK_F32
            | op::V_MADMK_F32 => {
                float_result = true;
                let (a, b, c) = match code {
                    op::V_FMAC_F32 | op::V_MAC_F32 => {
                        if !need(self, 2) {
                            return;
                        }
                        let acc = match defs.first().map(|d| d.op) {
                            Some(Operand::Reg { code, .. }) if code >= 256 => {
                                self.st.v[(code - 256) as usize]
                            }
                            _ => zero,
                        };
                        (vals[0], vals[1], acc)
                    }
                    // The operands come in LLVM's print order, which for
                    // the literal forms is the order of the computation:
                    // fmamk/madmk `src0, K, src1` (S0·K + S1), fmaak/madak
                    // `src0, src1, K` (S0·S1 + K).
                    _ => {
                        if !need(self, 3) {
                            return;
                        }
                        (vals[0], vals[1], vals[2])
                    }
                };
                let (a, b, c) = (as_f32(self, a), as_f32(self, b), as_f32(self, c));
                let r = if matches!(
                    code,
                    op::V_FMA_F32 | op::V_FMAC_F32 | op::V_FMAAK_F32 | op::V_FMAMK_F32
                ) {
                    self.b.tri(Tri::Fma, a, b, c)
                } else {
                    let p = self.b.bin(Bin::FMul, a, b);
                    self.b.bin(Bin::FAdd, p, c)
                };
                as_u32(self, r)
            }
            op::V_CUBEID_F32 | op::V_CUBESC_F32 | op::V_CUBETC_F32 | op::V_CUBEMA_F32 => {
                if !need(self, 3) {
                    return;
                }
                float_result = true;
                self.cube(code, vals[0], vals[1], vals[2])
            }
            op::V_MUL_LEGACY_F32 => {
                if !need(self, 2) {
                    return;
                }
                float_result = true;
                let a = as_f32(self, vals[0]);
                let b = as_f32(self, vals[1]);
                let p = self.b.bin(Bin::FMul, a, b);
                let fz = self.b.konst(Ty::F32, 0);
                let az = self.b.bin(Bin::FCmp(FCmp(FCmp::EQ)), a, fz);
                let bz = self.b.bin(Bin::FCmp(FCmp(FCmp::EQ)), b, fz);
                let z = self.b.bin(Bin::BOr, az, bz);
                let p = self.b.select(z, fz, p);
                as_u32(self, p)
            }
            op::V_RCP_F32
            | op::V_RSQ_F32
            | op::V_SQRT_F32
            | op::V_EXP_F32
            | op::V_LOG_F32
            | op::V_SIN_F32
            | op::V_COS_F32
            | op::V_FLOOR_F32
            | op::V_CEIL_F32
            | op::V_TRUNC_F32
            | op::V_RNDNE_F32
            | op::V_FRACT_F32 => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = match code {
                    op::V_RCP_F32 => Un::Rcp,
                    op::V_RSQ_F32 => Un::Rsq,
                    op::V_SQRT_F32 => Un::Sqrt,
                    op::V_EXP_F32 => Un::Exp2,
                    op::V_LOG_F32 => Un::Log2,
                    op::V_SIN_F32 => Un::SinRev,
                    op::V_COS_F32 => Un::CosRev,
                    op::V_FLOOR_F32 => Un::Floor,
                    op::V_CEIL_F32 => Un::Ceil,
                    op::V_TRUNC_F32 => Un::Trunc,
                    op::V_RNDNE_F32 => Un::RoundEven,
                    _ => Un::Fract,
                };
                let a = as_f32(self, vals[0]);
                let r = self.b.un(op, a);
                as_u32(self, r)
            }
            op::V_CVT_F32_U32 | op::V_CVT_F32_I32 => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = if code == op::V_CVT_F32_U32 {
                    Un::F32FromU32
                } else {
                    Un::F32FromI32
                };
                let r = self.b.un(op, vals[0]);
                as_u32(self, r)
            }
            op::V_CVT_F32_UBYTE0
            | op::V_CVT_F32_UBYTE1
            | op::V_CVT_F32_UBYTE2
            | op::V_CVT_F32_UBYTE3 => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let k = match code {
                    op::V_CVT_F32_UBYTE0 => 0,
                    op::V_CVT_F32_UBYTE1 => 1,
                    op::V_CVT_F32_UBYTE2 => 2,
                    _ => 3,
                };
                let sh = self.const_u32(8 * k);
                let t = self.b.bin(Bin::ShrL, vals[0], sh);
                let m = self.const_u32(0xff);
                let t = self.b.bin(Bin::And, t, m);
                let r = self.b.un(Un::F32FromU32, t);
                as_u32(self, r)
            }
            op::V_CVT_U32_F32
            | op::V_CVT_I32_F32
            | op::V_CVT_FLR_I32_F32
            | op::V_CVT_RPI_I32_F32 => {
                if !need(self, 1) {
                    return;
                }
                let mut a = as_f32(self, vals[0]);
                if code == op::V_CVT_FLR_I32_F32 {
                    a = self.b.un(Un::Floor, a);
                } else if code == op::V_CVT_RPI_I32_F32 {
                    let h = self.b.konst(Ty::F32, 0.5f32.to_bits());
                    let t = self.b.bin(Bin::FAdd, a, h);
                    a = self.b.un(Un::Floor, t);
                }
                let op = if code == op::V_CVT_U32_F32 {
                    Un::U32FromF32
                } else {
                    Un::I32FromF32
                };
                self.b.un(op, a)
            }
            op::V_SWAP_B32 => {
                let (Some(d0), Some(d1)) = (defs.first(), defs.get(1)) else {
                    self.problem(Form::SwapOperands);
                    return;
                };
                let get = |l: &Self, s: &Slot| match s.op {
                    Operand::Reg { code, .. } if code >= 256 => Some(l.st.v[(code - 256) as usize]),
                    _ => None,
                };
                let (Some(a), Some(b)) = (get(self, d0), get(self, d1)) else {
                    return;
                };
                let (d0, d1) = (*d0, *d1);
                self.write_v(&d0, 0, b);
                self.write_v(&d1, 0, a);
                return;
            }
            op::V_MBCNT_LO_U32_B32 | op::V_MBCNT_HI_U32_B32 => {
                self.unsup(Ty::U32, CrossLane::Mbcnt)
            }
            op::V_WRITELANE_B32 => {
                self.problem(CrossLane::Writelane);
                return;
            }
            // `v_permlane*`, `v_movrel*` (the other lane-dependent opcodes
            // have their own arms above).
            _ if f.lanes => {
                self.problem(CrossLane::Registers);
                return;
            }
            _ => {
                self.unhandled(OpcodeClass::VectorAlu);
                return;
            }
        };
        // The output modifier (×2, ×4, ÷2) before the clamp.
        let r = if omod != 0 && float_result && self.o.alu_faults.omod_ignored {
            r
        } else if omod != 0 && float_result {
            let k = match omod {
                1 => 2.0f32,
                2 => 4.0,
                _ => 0.5,
            };
            let a = as_f32(self, r);
            let k = self.b.konst(Ty::F32, k.to_bits());
            let t = self.b.bin(Bin::FMul, a, k);
            as_u32(self, t)
        } else if omod != 0 {
            self.problem(Form::Vop3Modifier);
            return;
        } else {
            r
        };
        let r = if clamp && float_result {
            let a = as_f32(self, r);
            let z = self.b.konst(Ty::F32, 0);
            let one = self.b.konst(Ty::F32, 1.0f32.to_bits());
            let t = self.b.bin(Bin::FMax, a, z);
            let t = self.b.bin(Bin::FMin, t, one);
            as_u32(self, t)
        } else if clamp {
            self.problem(Form::IntegerClamp);
            return;
        } else {
            r
        };
        let r = match sdwa {
            Some([_, _, field]) => self.sdwa_dst(r, defs.first(), field, sdwa_unused),
            None => r,
        };
        if let Some(d) = defs.first() {
            self.write_v(d, 0, r);
        }
    }

    /// A 64-bit source as (low, high) words: a VGPR or SGPR pair, or an
    /// integer inline constant (sign-extended); `None` for others.
    fn vsrc64(&mut self, s: &Slot) -> Option<(Value, Value)> {
        if !s.mods.is_empty() {
            return None;
        }
        match s.op {
            Operand::Reg { code, .. } if code >= 256 => {
                let r = (code - 256) as usize;
                Some((self.st.v[r], self.st.v[(r + 1).min(255)]))
            }
            Operand::Reg { code, .. } => Some((self.read_s32(code), self.read_s32(code + 1))),
            Operand::Inline(c @ 128..=208) => {
                let x = isa::operand::inline_b32(c)?;
                let hi = if (x as i32) < 0 { u32::MAX } else { 0 };
                Some((self.const_u32(x), self.const_u32(hi)))
            }
            _ => None,
        }
    }

    /// `v_lshlrev_b64`, `v_lshrrev_b64`, `v_ashrrev_i64`: (lo, hi) shifted
    /// by `amount & 63`.
    pub(super) fn shift64(
        &mut self,
        code: Opcode,
        amount: Value,
        lo: Value,
        hi: Value,
    ) -> (Value, Value) {
        let m63 = self.const_u32(63);
        let n = self.b.bin(Bin::And, amount, m63);
        let m31 = self.const_u32(31);
        let m = self.b.bin(Bin::And, n, m31);
        let k32 = self.const_u32(32);
        let big = self.b.icmp(ICmp::ULe, k32, n);
        let zero = self.const_u32(0);
        let m0 = self.b.icmp(ICmp::Eq, m, zero);
        let back = self.b.bin(Bin::Sub, k32, m);
        match code {
            op::V_LSHLREV_B64 => {
                let lo_s = self.b.bin(Bin::Shl, lo, m);
                let hi_s = self.b.bin(Bin::Shl, hi, m);
                let carry = self.b.bin(Bin::ShrL, lo, back);
                let carry = if self.o.alu_faults.shift64_no_carry {
                    zero
                } else {
                    self.b.select(m0, zero, carry)
                };
                let hi_s = self.b.bin(Bin::Or, hi_s, carry);
                let rlo = self.b.select(big, zero, lo_s);
                let rhi = self.b.select(big, lo_s, hi_s);
                (rlo, rhi)
            }
            _ => {
                let arith = code == op::V_ASHRREV_I64;
                let sh = if arith { Bin::ShrA } else { Bin::ShrL };
                let hi_s = self.b.bin(sh, hi, m);
                let lo_s = self.b.bin(Bin::ShrL, lo, m);
                let carry = self.b.bin(Bin::Shl, hi, back);
                let carry = if self.o.alu_faults.shift64_no_carry {
                    zero
                } else {
                    self.b.select(m0, zero, carry)
                };
                let lo_s = self.b.bin(Bin::Or, lo_s, carry);
                let fill = if arith {
                    self.b.bin(Bin::ShrA, hi, m31)
                } else {
                    zero
                };
                let rlo = self.b.select(big, hi_s, lo_s);
                let rhi = self.b.select(big, fill, hi_s);
                (rlo, rhi)
            }
        }
    }

    /// Whether a value is the same in every lane: built only from
    /// constants, parameters and scalar loads (not from ids, buffer loads,
    /// lane bits or block parameters).
    pub(super) fn uniform(&self, v: Value) -> bool {
        same_in_lanes(&self.b.func, v, false)
    }

    /// Pixel shaders: [`primitive_uniform`] (false in other stages).
    pub(super) fn primitive_uniform(&self, v: Value) -> bool {
        self.o.stage == isa::Stage::Ps && primitive_uniform(&self.b.func, v)
    }

    /// A `v_cmp*` of f32, i32 or u32 (`None` for other types and `class`).
    pub(super) fn compare(&mut self, c: Compare, a: Value, b: Value) -> Option<Value> {
        if !support::compare_lifted(c) {
            return None;
        }
        let cond = c.cond;
        match c.ty {
            NumTy::F32 => {
                let m = fcmp_mask(cond)?;
                let fa = self.b.un(Un::AsF32, a);
                let fb = self.b.un(Un::AsF32, b);
                Some(self.b.bin(Bin::FCmp(FCmp(m)), fa, fb))
            }
            NumTy::U32 | NumTy::I32 => {
                let s = c.ty == NumTy::I32;
                let (lt, le) = if s {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                Some(match cond {
                    CmpCond::F => self.b.bool(false),
                    CmpCond::Tru => self.b.bool(true),
                    CmpCond::Lt => self.b.icmp(lt, a, b),
                    CmpCond::Le => self.b.icmp(le, a, b),
                    CmpCond::Gt => self.b.icmp(lt, b, a),
                    CmpCond::Ge => self.b.icmp(le, b, a),
                    CmpCond::Eq => self.b.icmp(ICmp::Eq, a, b),
                    CmpCond::Ne | CmpCond::Lg => self.b.icmp(ICmp::Ne, a, b),
                    _ => return None,
                })
            }
            _ => None,
        }
    }
}

/// The `FCmp` bits of a float compare condition (`None` for `ne`/`class`,
/// which are not float conditions of this form).
pub(super) fn fcmp_mask(cond: CmpCond) -> Option<u8> {
    Some(match cond {
        CmpCond::F => 0,
        CmpCond::Lt => FCmp::LT,
        CmpCond::Eq => FCmp::EQ,
        CmpCond::Le => FCmp::LT | FCmp::EQ,
        CmpCond::Gt => FCmp::GT,
        CmpCond::Lg => FCmp::LT | FCmp::GT,
        CmpCond::Ge => FCmp::GT | FCmp::EQ,
        CmpCond::O => FCmp::LT | FCmp::EQ | FCmp::GT,
        CmpCond::U => FCmp::UNORD,
        CmpCond::Nge => FCmp::LT | FCmp::UNORD,
        CmpCond::Nlg => FCmp::EQ | FCmp::UNORD,
        CmpCond::Ngt => FCmp::LT | FCmp::EQ | FCmp::UNORD,
        CmpCond::Nle => FCmp::GT | FCmp::UNORD,
        CmpCond::Neq => FCmp::LT | FCmp::GT | FCmp::UNORD,
        CmpCond::Nlt => FCmp::EQ | FCmp::GT | FCmp::UNORD,
        CmpCond::Tru => 15,
        CmpCond::Ne | CmpCond::Class => return None,
    })
}

impl Lifter<'_> {
    /// An SDWA destination: the result's low bits at the field `(offset,
    /// width)`; the other bits are zeros (UNUSED_PAD), the old register's
    /// (UNUSED_PRESERVE, and the reserved value, as isa's operand access),
    /// or zeros below and copies of the field's top bit above (UNUSED_SEXT).
    pub(super) fn sdwa_dst(
        &mut self,
        r: Value,
        dst: Option<&Slot>,
        (off, width): (u32, u32),
        unused: isa::family::vop_ext::DstUnused,
    ) -> Value {
        use isa::family::vop_ext::DstUnused;
        if width >= 32 {
            return r;
        }
        let zero = self.const_u32(0);
        let fmask = ((1u64 << width) - 1) as u32;
        let m = self.const_u32(fmask);
        let t = self.b.bin(Bin::And, r, m);
        let o = self.const_u32(off);
        let placed = self.b.bin(Bin::Shl, t, o);
        match unused {
            DstUnused::Pad => placed,
            _ if self.o.alu_faults.sdwa_preserve_zero_fill => placed,
            DstUnused::Sext => {
                let above = off + width;
                if above >= 32 {
                    placed
                } else {
                    let sh = self.const_u32(width - 1);
                    let top = self.b.bin(Bin::ShrL, t, sh);
                    let one = self.const_u32(1);
                    let top = self.b.bin(Bin::And, top, one);
                    let set = self.b.icmp(ICmp::Ne, top, zero);
                    let fill = self.const_u32(u32::MAX << above);
                    let fill = self.b.select(set, fill, zero);
                    self.b.bin(Bin::Or, placed, fill)
                }
            }
            DstUnused::Preserve | DstUnused::Reserved => {
                let old = match dst {
                    Some(d) => self.old_dst(d),
                    None => zero,
                };
                let keep = self.const_u32(!(fmask << off));
                let kept = self.b.bin(Bin::And, old, keep);
                self.b.bin(Bin::Or, placed, kept)
            }
        }
    }

    /// An SDWA operand select as `(offset, width)`.
    pub(super) fn sdwa_field(sel: isa::family::vop_ext::SdwaSel) -> (u32, u32) {
        use isa::family::vop_ext::SdwaSel::*;
        match sel {
            Byte0 => (0, 8),
            Byte1 => (8, 8),
            Byte2 => (16, 8),
            Byte3 => (24, 8),
            Word0 => (0, 16),
            Word1 => (16, 16),
            Dword => (0, 32),
        }
    }
}

/// Pixel shaders: whether a value is the same in every lane of a wave
/// that holds one primitive's pixels: built only from what
/// `Lifter::uniform` accepts and flat (`v_interp_mov … p0`) inputs,
/// through lane-local operations. The hardware may pack a wave with one
/// primitive's quads (a small primitive, the end of a draw), and the
/// interpreter's pixel scene is one primitive: for that packing a
/// `v_readfirstlane`/`v_readlane` of such a value is the value itself,
/// whatever EXEC holds. Another packing would put the first lane's
/// primitive value in every lane: which primitives share a wave is the
/// hardware's choice, not the program's, so a result depending on it is
/// one the guest itself does not fix (RADV emits this for indices the
/// source declares dynamically uniform). Such a value is the same in the
/// four lanes of a quad too: a quad is one primitive's pixels, on the
/// guest and on the host.
pub(crate) fn primitive_uniform(f: &crate::ir::Func, v: Value) -> bool {
    same_in_lanes(f, v, true)
}

/// Whether `v` is built only from constants, parameters, scalar loads and
/// (with `flat`) flat inputs, through lane-local operations.
fn same_in_lanes(f: &crate::ir::Func, v: Value, flat: bool) -> bool {
    use crate::ir::{InterpMode, Op};
    let mut stack = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match f.inst(x).op {
            Op::Const(_) | Op::Input(Input::Param(_)) => {}
            Op::Input(Input::Interp {
                mode: InterpMode::Flat,
                ..
            }) if flat => {}
            Op::Input(_) | Op::BlockParam(..) | Op::Unsupported(_) | Op::Effect(_) => return false,
            Op::Load(i) => match f.loads[i as usize] {
                Load::Scalar { lo, hi, offset, .. } => stack.extend([lo, hi, offset]),
                Load::ScalarBuf { desc, offset, .. } => {
                    stack.extend(desc);
                    stack.push(offset)
                }
                Load::Buffer(_)
                | Load::Lanes(..)
                | Load::Global { .. }
                | Load::NggList { .. }
                | Load::Image { .. } => return false,
            },
            Op::Un(_, a) => stack.push(a),
            Op::Bin(_, a, b) => stack.extend([a, b]),
            Op::Tri(_, a, b, c) => stack.extend([a, b, c]),
        }
    }
    true
}

impl Lifter<'_> {
    /// An f32's bits with a denormal flushed to its signed zero (exact
    /// integer operations, so no host float mode is assumed).
    fn flushed_bits(&mut self, x: Value) -> Value {
        let exp = self.const_u32(0x7f80_0000);
        let sign = self.const_u32(0x8000_0000);
        let zero = self.const_u32(0);
        let e = self.b.bin(Bin::And, x, exp);
        let tiny = self.b.icmp(ICmp::Eq, e, zero);
        let s = self.b.bin(Bin::And, x, sign);
        self.b.select(tiny, s, x)
    }

    /// `v_cubeid/sc/tc/ma_f32` of the bits `x`, `y`, `z` (as
    /// `interp::float::cube` states them, after LLVM's constant folder):
    /// the major axis is z when `|z| ≥ |x|` and `|z| ≥ |y|`, else y when
    /// `|y| ≥ |x|`, else x; the negative face when that axis is `< 0`.
    /// Inputs flush as RADV's float mode flushes them; negation is the
    /// sign bit; a NaN result is the canonical quiet NaN.
    fn cube(&mut self, code: Opcode, x: Value, y: Value, z: Value) -> Value {
        let [x, y, z] = [x, y, z].map(|v| self.flushed_bits(v));
        let [fx, fy, fz] = [x, y, z].map(|v| self.b.un(Un::AsF32, v));
        let [ax, ay, az] = [fx, fy, fz].map(|v| self.b.un(Un::FAbs, v));
        let ge = FCmp(FCmp::GT | FCmp::EQ);
        let z_ge_x = self.b.bin(Bin::FCmp(ge), az, ax);
        let z_ge_y = self.b.bin(Bin::FCmp(ge), az, ay);
        let zmaj = self.b.bin(Bin::BAnd, z_ge_x, z_ge_y);
        let ymaj = self.b.bin(Bin::FCmp(ge), ay, ax);
        let f0 = self.b.konst(Ty::F32, 0);
        let lt = FCmp(FCmp::LT);
        let [nx, ny, nz] = [fx, fy, fz].map(|v| self.b.bin(Bin::FCmp(lt), v, f0));
        let sign = self.const_u32(0x8000_0000);
        let [mx, my, mz] = [x, y, z].map(|v| self.b.bin(Bin::Xor, v, sign));
        // (z face, y face, x face) per result, each (negative, positive).
        let pick = |l: &mut Self, zv: (Value, Value), yv: (Value, Value), xv: (Value, Value)| {
            let zr = l.b.select(nz, zv.0, zv.1);
            let yr = l.b.select(ny, yv.0, yv.1);
            let xr = l.b.select(nx, xv.0, xv.1);
            let rest = l.b.select(ymaj, yr, xr);
            l.b.select(zmaj, zr, rest)
        };
        let r = match code {
            op::V_CUBEID_F32 => {
                let swap = self.o.alu_faults.cube_face_swapped;
                let id = |l: &mut Self, k: u32| {
                    let k = if swap { k ^ 1 } else { k };
                    l.const_u32((k as f32).to_bits())
                };
                let ids: Vec<Value> = (0..6).map(|k| id(self, k)).collect();
                return pick(self, (ids[5], ids[4]), (ids[3], ids[2]), (ids[1], ids[0]));
            }
            op::V_CUBESC_F32 => pick(self, (mx, x), (x, x), (z, mz)),
            op::V_CUBETC_F32 => pick(self, (my, my), (mz, z), (my, my)),
            _ => {
                let m = pick(self, (z, z), (y, y), (x, x));
                let m = self.b.un(Un::AsF32, m);
                let t = self.b.bin(Bin::FAdd, m, m);
                self.b.un(Un::AsU32, t)
            }
        };
        // Canonical NaN.
        let f = self.b.un(Un::AsF32, r);
        let nan = self.b.bin(Bin::FCmp(FCmp(FCmp::UNORD)), f, f);
        let q = self.const_u32(0x7fc0_0000);
        self.b.select(nan, q, r)
    }
}
