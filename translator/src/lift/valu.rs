//! Vector ALU instructions (VOP1, VOP2, VOP3, VOPC): per-lane values written
//! under EXEC, compares producing this lane's bit of a mask.

use super::Lifter;
use crate::ir::{Bin, FCmp, ICmp, Input, Load, Tri, Ty, Un, Value};
use crate::{CrossLane, Form, Lds, OpcodeClass};
use isa::{Family, Instruction, Modifiers, Operand, Slot, ValType};

impl Lifter<'_> {
    pub(super) fn valu(&mut self, name: &str, inst: &Instruction) {
        match inst.family {
            Family::Dpp16 | Family::Dpp8 => {
                self.problem(CrossLane::Dpp);
                return;
            }
            _ => {}
        }
        let field = |sel: isa::family::vop_ext::SdwaSel| -> (u32, u32) {
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
        };
        let mut sdwa: Option<[(u32, u32); 3]> = None;
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
            if dst.1 < 32 && m.dst_unused != isa::family::vop_ext::DstUnused::Pad {
                self.problem(Form::SdwaDestination);
                return;
            }
            sdwa = Some([field(m.src0_sel), field(m.src1_sel), dst]);
        }
        let mut clamp = false;
        if let Modifiers::Vop3(m) = inst.mods {
            if m.omod != 0 || m.opsel_dst {
                self.problem(Form::Vop3Modifier);
                return;
            }
            clamp = m.clamp;
        }
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops
            .iter()
            .filter(|s| s.is_use() && !s.is_def())
            .copied()
            .collect();
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
            && !matches!(name, "v_readlane_b32" | "v_readfirstlane_b32")
        {
            self.problem(CrossLane::Registers);
            return;
        }
        if defs.iter().any(|d| d.access.contains(isa::Access::PARTIAL)) {
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
                vals.push(self.src_sel(s, sel));
            }
        }
        let x = |i: usize| vals.get(i).copied();
        if let Some(rest) = name
            .strip_prefix("v_cmpx_")
            .or_else(|| name.strip_prefix("v_cmp_"))
            .map(|r| (r, imp.contains(isa::Implicit::WRITE_EXEC)))
        {
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
            if is_x {
                self.write_mask(126, bit);
            } else {
                let dcode = defs
                    .first()
                    .and_then(|d| match d.op {
                        Operand::Reg { code, .. } => Some(code as usize),
                        _ => None,
                    })
                    .unwrap_or(106);
                self.write_mask(dcode, bit);
            }
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
        let r: Value = match name {
            "v_nop" => return,
            "v_mov_b32" => {
                if !need(self, 1) {
                    return;
                }
                vals[0]
            }
            "v_readfirstlane_b32" | "v_readlane_b32" => {
                // Exact only when the source is the same in every lane.
                if !need(self, 1) {
                    return;
                }
                if self.uniform(vals[0]) {
                    vals[0]
                } else {
                    self.unsup(Ty::U32, CrossLane::Readlane)
                }
            }
            "v_cndmask_b32" => {
                if !need(self, 2) || masks.is_empty() {
                    self.problem(Form::CndmaskMask);
                    return;
                }
                self.b.select(masks[0], vals[1], vals[0])
            }
            "v_add_nc_u32" | "v_sub_nc_u32" | "v_subrev_nc_u32" => {
                if !need(self, 2) {
                    return;
                }
                if clamp {
                    self.problem(Form::SaturatingAdd);
                    return;
                }
                match name {
                    "v_add_nc_u32" => self.b.add(vals[0], vals[1]),
                    "v_sub_nc_u32" => self.b.bin(Bin::Sub, vals[0], vals[1]),
                    _ => self.b.bin(Bin::Sub, vals[1], vals[0]),
                }
            }
            "v_add_co_u32" | "v_sub_co_u32" | "v_subrev_co_u32" | "v_add_co_ci_u32"
            | "v_sub_co_ci_u32" | "v_subrev_co_ci_u32" => {
                if !need(self, 2) || clamp {
                    self.problem(Form::CarryForm);
                    return;
                }
                let (a, b) = if name.starts_with("v_subrev") {
                    (vals[1], vals[0])
                } else {
                    (vals[0], vals[1])
                };
                let cin = if name.contains("_ci_") {
                    match masks.first() {
                        Some(&m) => self.b.un(Un::BoolToU32, m),
                        None => zero,
                    }
                } else {
                    zero
                };
                let (r, carry) = if name.starts_with("v_add") {
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
            "v_and_b32" | "v_or_b32" | "v_xor_b32" | "v_xnor_b32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_and_b32" => Bin::And,
                    "v_or_b32" => Bin::Or,
                    _ => Bin::Xor,
                };
                let r = self.b.bin(op, vals[0], vals[1]);
                if name == "v_xnor_b32" {
                    self.b.un(Un::Not, r)
                } else {
                    r
                }
            }
            "v_not_b32" => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::Not, vals[0])
            }
            "v_bfrev_b32" => {
                if !need(self, 1) {
                    return;
                }
                self.b.un(Un::BitReverse, vals[0])
            }
            "v_lshlrev_b32" | "v_lshrrev_b32" | "v_ashrrev_i32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_lshlrev_b32" => Bin::Shl,
                    "v_lshrrev_b32" => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                self.b.bin(op, vals[1], vals[0])
            }
            "v_lshl_add_u32" | "v_add_lshl_u32" | "v_lshl_or_b32" | "v_and_or_b32"
            | "v_or3_b32" | "v_xor3_b32" | "v_add3_u32" | "v_xad_u32" => {
                if !need(self, 3) {
                    return;
                }
                let (a, b, c) = (vals[0], vals[1], vals[2]);
                match name {
                    "v_lshl_add_u32" => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.add(t, c)
                    }
                    "v_add_lshl_u32" => {
                        let t = self.b.add(a, b);
                        self.b.bin(Bin::Shl, t, c)
                    }
                    "v_lshl_or_b32" => {
                        let t = self.b.bin(Bin::Shl, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_and_or_b32" => {
                        let t = self.b.bin(Bin::And, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_or3_b32" => {
                        let t = self.b.bin(Bin::Or, a, b);
                        self.b.bin(Bin::Or, t, c)
                    }
                    "v_xor3_b32" => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.bin(Bin::Xor, t, c)
                    }
                    "v_add3_u32" => {
                        let t = self.b.add(a, b);
                        self.b.add(t, c)
                    }
                    _ => {
                        let t = self.b.bin(Bin::Xor, a, b);
                        self.b.add(t, c)
                    }
                }
            }
            "v_mul_lo_u32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::Mul, vals[0], vals[1])
            }
            "v_mul_hi_u32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiU, vals[0], vals[1])
            }
            "v_mul_hi_i32" => {
                if !need(self, 2) {
                    return;
                }
                self.b.bin(Bin::MulHiI, vals[0], vals[1])
            }
            "v_mul_u32_u24" | "v_mul_i32_i24" | "v_mad_u32_u24" | "v_mad_i32_i24"
            | "v_mul_hi_u32_u24" | "v_mul_hi_i32_i24" => {
                let n = if name.starts_with("v_mad") { 3 } else { 2 };
                if !need(self, n) {
                    return;
                }
                let signed = name.contains("i24");
                let e24 = |l: &mut Self, v: Value| {
                    let s8 = l.const_u32(8);
                    let t = l.b.bin(Bin::Shl, v, s8);
                    l.b.bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, s8)
                };
                let a = e24(self, vals[0]);
                let b = e24(self, vals[1]);
                if name.starts_with("v_mul_hi") {
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
            "v_min_u32" | "v_max_u32" | "v_min_i32" | "v_max_i32" => {
                if !need(self, 2) {
                    return;
                }
                let op = match name {
                    "v_min_u32" => Bin::UMin,
                    "v_max_u32" => Bin::UMax,
                    "v_min_i32" => Bin::SMin,
                    _ => Bin::SMax,
                };
                self.b.bin(op, vals[0], vals[1])
            }
            "v_min3_u32" | "v_max3_u32" | "v_min3_i32" | "v_max3_i32" => {
                if !need(self, 3) {
                    return;
                }
                let op = match name {
                    "v_min3_u32" => Bin::UMin,
                    "v_max3_u32" => Bin::UMax,
                    "v_min3_i32" => Bin::SMin,
                    _ => Bin::SMax,
                };
                let t = self.b.bin(op, vals[0], vals[1]);
                self.b.bin(op, t, vals[2])
            }
            "v_bfe_u32" | "v_bfe_i32" => {
                if !need(self, 3) {
                    return;
                }
                let m31 = self.const_u32(31);
                let off = self.b.bin(Bin::And, vals[1], m31);
                let w = self.b.bin(Bin::And, vals[2], m31);
                self.bfe(vals[0], off, w, name == "v_bfe_i32")
            }
            "v_bfi_b32" => {
                if !need(self, 3) {
                    return;
                }
                let t = self.b.bin(Bin::And, vals[0], vals[1]);
                let na = self.b.un(Un::Not, vals[0]);
                let e = self.b.bin(Bin::And, na, vals[2]);
                self.b.bin(Bin::Or, t, e)
            }
            "v_bfm_b32" => {
                if !need(self, 2) {
                    return;
                }
                self.bfm(vals[0], vals[1])
            }
            "v_alignbit_b32" | "v_alignbyte_b32" => {
                if !need(self, 3) {
                    return;
                }
                let m31 = self.const_u32(if name == "v_alignbit_b32" { 31 } else { 3 });
                let mut s = self.b.bin(Bin::And, vals[2], m31);
                if name == "v_alignbyte_b32" {
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
            "v_bcnt_u32_b32" => {
                if !need(self, 2) {
                    return;
                }
                let c = self.b.un(Un::CountOnes, vals[0]);
                self.b.add(c, vals[1])
            }
            "v_add_f32" | "v_sub_f32" | "v_subrev_f32" | "v_mul_f32" | "v_min_f32"
            | "v_max_f32" | "v_ldexp_f32" => {
                if !need(self, 2) {
                    return;
                }
                float_result = true;
                let a = as_f32(self, vals[0]);
                let b = as_f32(self, vals[1]);
                let r = match name {
                    "v_add_f32" => self.b.bin(Bin::FAdd, a, b),
                    "v_sub_f32" => self.b.bin(Bin::FSub, a, b),
                    "v_subrev_f32" => self.b.bin(Bin::FSub, b, a),
                    "v_mul_f32" => self.b.bin(Bin::FMul, a, b),
                    "v_min_f32" => self.b.bin(Bin::FMin, a, b),
                    "v_max_f32" => self.b.bin(Bin::FMax, a, b),
                    _ => self.b.bin(Bin::Ldexp, a, vals[1]),
                };
                as_u32(self, r)
            }
            "v_min3_f32" | "v_max3_f32" | "v_med3_f32" => {
                if !need(self, 3) {
                    return;
                }
                float_result = true;
                let a = as_f32(self, vals[0]);
                let b = as_f32(self, vals[1]);
                let c = as_f32(self, vals[2]);
                let r = match name {
                    "v_min3_f32" => {
                        let t = self.b.bin(Bin::FMin, a, b);
                        self.b.bin(Bin::FMin, t, c)
                    }
                    "v_max3_f32" => {
                        let t = self.b.bin(Bin::FMax, a, b);
                        self.b.bin(Bin::FMax, t, c)
                    }
                    _ => {
                        let lo = self.b.bin(Bin::FMin, a, b);
                        let hi = self.b.bin(Bin::FMax, a, b);
                        let t = self.b.bin(Bin::FMin, hi, c);
                        self.b.bin(Bin::FMax, lo, t)
                    }
                };
                as_u32(self, r)
            }
            "v_fma_f32" | "v_fmac_f32" | "v_fmaak_f32" | "v_fmamk_f32" | "v_mac_f32"
            | "v_mad_f32" | "v_madak_f32" | "v_madmk_f32" => {
                float_result = true;
                let (a, b, c) = match name {
                    "v_fmac_f32" | "v_mac_f32" => {
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
                let r = if name.contains("fma") {
                    self.b.tri(Tri::Fma, a, b, c)
                } else {
                    let p = self.b.bin(Bin::FMul, a, b);
                    self.b.bin(Bin::FAdd, p, c)
                };
                as_u32(self, r)
            }
            "v_mul_legacy_f32" => {
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
            "v_rcp_f32" | "v_rsq_f32" | "v_sqrt_f32" | "v_exp_f32" | "v_log_f32" | "v_sin_f32"
            | "v_cos_f32" | "v_floor_f32" | "v_ceil_f32" | "v_trunc_f32" | "v_rndne_f32"
            | "v_fract_f32" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = match name {
                    "v_rcp_f32" => Un::Rcp,
                    "v_rsq_f32" => Un::Rsq,
                    "v_sqrt_f32" => Un::Sqrt,
                    "v_exp_f32" => Un::Exp2,
                    "v_log_f32" => Un::Log2,
                    "v_sin_f32" => Un::SinRev,
                    "v_cos_f32" => Un::CosRev,
                    "v_floor_f32" => Un::Floor,
                    "v_ceil_f32" => Un::Ceil,
                    "v_trunc_f32" => Un::Trunc,
                    "v_rndne_f32" => Un::RoundEven,
                    _ => Un::Fract,
                };
                let a = as_f32(self, vals[0]);
                let r = self.b.un(op, a);
                as_u32(self, r)
            }
            "v_cvt_f32_u32" | "v_cvt_f32_i32" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let op = if name == "v_cvt_f32_u32" {
                    Un::F32FromU32
                } else {
                    Un::F32FromI32
                };
                let r = self.b.un(op, vals[0]);
                as_u32(self, r)
            }
            "v_cvt_f32_ubyte0" | "v_cvt_f32_ubyte1" | "v_cvt_f32_ubyte2" | "v_cvt_f32_ubyte3" => {
                if !need(self, 1) {
                    return;
                }
                float_result = true;
                let k = (name.as_bytes()[name.len() - 1] - b'0') as u32;
                let sh = self.const_u32(8 * k);
                let t = self.b.bin(Bin::ShrL, vals[0], sh);
                let m = self.const_u32(0xff);
                let t = self.b.bin(Bin::And, t, m);
                let r = self.b.un(Un::F32FromU32, t);
                as_u32(self, r)
            }
            "v_cvt_u32_f32" | "v_cvt_i32_f32" | "v_cvt_flr_i32_f32" | "v_cvt_rpi_i32_f32" => {
                if !need(self, 1) {
                    return;
                }
                let mut a = as_f32(self, vals[0]);
                if name == "v_cvt_flr_i32_f32" {
                    a = self.b.un(Un::Floor, a);
                } else if name == "v_cvt_rpi_i32_f32" {
                    let h = self.b.konst(Ty::F32, 0.5f32.to_bits());
                    let t = self.b.bin(Bin::FAdd, a, h);
                    a = self.b.un(Un::Floor, t);
                }
                let op = if name == "v_cvt_u32_f32" {
                    Un::U32FromF32
                } else {
                    Un::I32FromF32
                };
                self.b.un(op, a)
            }
            "v_swap_b32" => {
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
            "v_mbcnt_lo_u32_b32" | "v_mbcnt_hi_u32_b32" => self.unsup(Ty::U32, CrossLane::Mbcnt),
            "v_writelane_b32" => {
                self.problem(CrossLane::Writelane);
                return;
            }
            _ if name.starts_with("v_permlane") || name.starts_with("v_movrel") => {
                self.problem(CrossLane::Registers);
                return;
            }
            _ => {
                self.unhandled(OpcodeClass::VectorAlu);
                return;
            }
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
            Some([_, _, (off, width)]) if width < 32 => {
                // UNUSED_PAD: the result's low bits at the field, zeros
                // elsewhere.
                let m = self.const_u32(((1u64 << width) - 1) as u32);
                let t = self.b.bin(Bin::And, r, m);
                let o = self.const_u32(off);
                self.b.bin(Bin::Shl, t, o)
            }
            _ => r,
        };
        if let Some(d) = defs.first() {
            self.write_v(d, 0, r);
        }
    }

    /// Whether a value is the same in every lane: built only from
    /// constants, parameters and scalar loads (not from ids, buffer loads,
    /// lane bits or block parameters).
    pub(super) fn uniform(&self, v: Value) -> bool {
        use crate::ir::Op;
        let f = &self.b.func;
        let mut stack = vec![v];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match f.inst(x).op {
                Op::Const(_) | Op::Input(Input::Param(_)) => {}
                Op::Input(_) | Op::BlockParam(..) | Op::Unsupported(_) | Op::Effect(_) => {
                    return false
                }
                Op::Load(i) => match f.loads[i as usize] {
                    Load::Scalar { lo, hi, offset, .. } => stack.extend([lo, hi, offset]),
                    Load::ScalarBuf { desc, offset, .. } => {
                        stack.extend(desc);
                        stack.push(offset)
                    }
                    Load::Buffer(_) => return false,
                },
                Op::Un(_, a) => stack.push(a),
                Op::Bin(_, a, b) => stack.extend([a, b]),
                Op::Tri(_, a, b, c) => stack.extend([a, b, c]),
            }
        }
        true
    }

    pub(super) fn compare(&mut self, rest: &str, a: Value, b: Value) -> Option<Value> {
        let (cond, ty) = rest.rsplit_once('_')?;
        match ty {
            "f32" => {
                let m = match cond {
                    "f" => 0,
                    "lt" => FCmp::LT,
                    "eq" => FCmp::EQ,
                    "le" => FCmp::LT | FCmp::EQ,
                    "gt" => FCmp::GT,
                    "lg" => FCmp::LT | FCmp::GT,
                    "ge" => FCmp::GT | FCmp::EQ,
                    "o" => FCmp::LT | FCmp::EQ | FCmp::GT,
                    "u" => FCmp::UNORD,
                    "nge" => FCmp::LT | FCmp::UNORD,
                    "nlg" => FCmp::EQ | FCmp::UNORD,
                    "ngt" => FCmp::LT | FCmp::EQ | FCmp::UNORD,
                    "nle" => FCmp::GT | FCmp::UNORD,
                    "neq" => FCmp::LT | FCmp::GT | FCmp::UNORD,
                    "nlt" => FCmp::EQ | FCmp::GT | FCmp::UNORD,
                    "tru" => 15,
                    _ => return None,
                };
                let fa = self.b.un(Un::AsF32, a);
                let fb = self.b.un(Un::AsF32, b);
                Some(self.b.bin(Bin::FCmp(FCmp(m)), fa, fb))
            }
            "u32" | "i32" => {
                let s = ty == "i32";
                let (lt, le) = if s {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                Some(match cond {
                    "f" => self.b.bool(false),
                    "t" => self.b.bool(true),
                    "lt" => self.b.icmp(lt, a, b),
                    "le" => self.b.icmp(le, a, b),
                    "gt" => self.b.icmp(lt, b, a),
                    "ge" => self.b.icmp(le, b, a),
                    "eq" => self.b.icmp(ICmp::Eq, a, b),
                    "ne" | "lg" => self.b.icmp(ICmp::Ne, a, b),
                    _ => return None,
                })
            }
            _ => None,
        }
    }
}
