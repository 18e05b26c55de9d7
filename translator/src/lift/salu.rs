//! Scalar ALU instructions (SOP1, SOP2, SOPK, SOPC), 32- and 64-bit, on
//! uniform words and lane masks.

use super::Lifter;
use crate::ir::{Bin, ICmp, Ty, Un, Value};
use crate::{CrossLane, Form, OpcodeClass};
use isa::{Instruction, Operand, Slot};

impl Lifter<'_> {
    pub(super) fn salu(&mut self, name: &str, inst: &Instruction) {
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops.iter().filter(|s| !s.is_def()).copied().collect();
        let dst = defs.first().map(|s| s.op);
        let wide = match dst.or(srcs.first().map(|s| s.op)) {
            Some(Operand::Reg { count, .. }) => count == 2,
            _ => false,
        } || name.ends_with("_b64")
            || name.ends_with("_u64")
            || name.ends_with("_i64");
        let dcode = match dst {
            Some(Operand::Reg { code, .. }) => code,
            _ => 125,
        };
        let s0 = srcs.first().copied();
        let s1 = srcs.get(1).copied();
        let zero = self.const_u32(0);
        // Mask-aware bitwise operations (64-bit in wave64, 32-bit in wave32).
        let bitwise = matches!(
            name.rsplit_once('_').map(|x| x.0).unwrap_or(""),
            "s_and" | "s_or" | "s_xor" | "s_andn2" | "s_orn2" | "s_nand" | "s_nor" | "s_xnor"
        );
        let mask_width = if self.o.wave64 { wide } else { !wide };
        if let Some(base) = name.strip_suffix(if self.o.wave64 {
            "_saveexec_b64"
        } else {
            "_saveexec_b32"
        }) {
            // sdst = exec; exec = op(ssrc, exec); scc = exec != 0
            let Some(s0) = s0 else { return };
            let old = self.active();
            let a = self.mask_operand(s0.op);
            let r = self.bool_op(base.trim_start_matches("s_"), a, old);
            let exec_copy = self.st.s[126];
            let exec_copy_hi = self.st.s[127];
            if dcode < 126 {
                self.st.s[dcode as usize] = exec_copy;
                if self.o.wave64 {
                    self.st.s[dcode as usize + 1] = exec_copy_hi;
                }
            }
            self.write_mask(126, r);
            self.st.scc = self.any_lane(r);
            return;
        }
        if name.contains("_saveexec_") || name.contains("_wrexec_") {
            self.problem(Form::OtherWaveSizeExec);
            return;
        }
        if bitwise && mask_width {
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return;
            };
            if self.is_mask_operand(s0.op) || self.is_mask_operand(s1.op) {
                let a = self.mask_operand(s0.op);
                let b = self.mask_operand(s1.op);
                let op = name
                    .trim_start_matches("s_")
                    .rsplit_once('_')
                    .map(|x| x.0)
                    .unwrap_or("");
                let r = self.bool_op(op, a, b);
                self.write_mask(dcode as usize, r);
                self.st.scc = self.any_lane(r);
                return;
            }
        }
        if (name == "s_mov_b64" || name == "s_cmov_b64") && self.o.wave64 {
            let Some(s0) = s0 else { return };
            if name == "s_cmov_b64" {
                let c = self.st.scc;
                if self.b.func.konst(c) == Some(0) {
                    return;
                }
                if self.b.func.konst(c).is_none() {
                    // Fall through to the word form below.
                } else {
                    self.mov64(dcode, s0.op);
                    return;
                }
            } else {
                self.mov64(dcode, s0.op);
                return;
            }
        }
        if name == "s_mov_b32" {
            if let (Some(s0), true) = (s0, dcode < 128) {
                match s0.op {
                    Operand::Reg { code, .. } if code < 128 => {
                        self.st.s[dcode as usize] = self.st.s[code as usize];
                    }
                    _ => {
                        let v = self.src(&s0);
                        self.write_s(dcode, v);
                    }
                }
            }
            return;
        }
        if name == "s_cselect_b64" && self.o.wave64 {
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return;
            };
            if self.is_mask_operand(s0.op) || self.is_mask_operand(s1.op) {
                let a = self.mask_operand(s0.op);
                let b = self.mask_operand(s1.op);
                let r = self.b.select(self.st.scc, a, b);
                self.write_mask(dcode as usize, r);
                return;
            }
        }
        if name == "s_not_b64" || (name == "s_not_b32" && !self.o.wave64) {
            if let Some(s0) = s0 {
                if self.is_mask_operand(s0.op) && mask_width {
                    let a = self.mask_operand(s0.op);
                    let r = self.b.un(Un::BNot, a);
                    self.write_mask(dcode as usize, r);
                    self.st.scc = self.any_lane(r);
                    return;
                }
            }
        }
        if wide {
            self.salu64(name, dcode, s0, s1);
            return;
        }
        // 32-bit scalar ALU on words.
        let a = match s0 {
            Some(s) => self.src(&s),
            None => zero,
        };
        let b = match s1 {
            Some(s) => self.src(&s),
            None => zero,
        };
        let sext16 = |l: &mut Self, s: &Option<Slot>| match s.map(|x| x.op) {
            Some(Operand::Imm(i)) => l.const_u32(i as u32),
            _ => zero,
        };
        let mut scc_nz = false;
        let r: Option<Value> = match name {
            "s_movk_i32" => Some(sext16(self, &s0)),
            "s_cmovk_i32" => {
                let k = sext16(self, &s0);
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, k, old))
            }
            "s_cmov_b32" => {
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, a, old))
            }
            "s_cselect_b32" => Some(self.b.select(self.st.scc, a, b)),
            "s_add_u32" => {
                let r = self.b.add(a, b);
                self.st.scc = self.b.icmp(ICmp::ULt, r, a);
                Some(r)
            }
            "s_sub_u32" => {
                self.st.scc = self.b.icmp(ICmp::ULt, a, b);
                Some(self.b.bin(Bin::Sub, a, b))
            }
            "s_add_i32" | "s_addk_i32" => {
                let (x, y) = if name == "s_addk_i32" {
                    (self.s_word(dcode as usize), sext16(self, &s0))
                } else {
                    (a, b)
                };
                let r = self.b.add(x, y);
                // overflow: sign(x) == sign(y) && sign(r) != sign(x)
                let sx = self.b.bin(Bin::Xor, x, r);
                let sy = self.b.bin(Bin::Xor, y, r);
                let both = self.b.bin(Bin::And, sx, sy);
                let z = self.const_u32(0);
                self.st.scc = self.b.icmp(ICmp::SLt, both, z);
                Some(r)
            }
            "s_sub_i32" => {
                let r = self.b.bin(Bin::Sub, a, b);
                let sx = self.b.bin(Bin::Xor, a, b);
                let sy = self.b.bin(Bin::Xor, a, r);
                let both = self.b.bin(Bin::And, sx, sy);
                let z = self.const_u32(0);
                self.st.scc = self.b.icmp(ICmp::SLt, both, z);
                Some(r)
            }
            "s_addc_u32" => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.add(a, b);
                let r = self.b.add(t, c);
                let c1 = self.b.icmp(ICmp::ULt, t, a);
                let c2 = self.b.icmp(ICmp::ULt, r, t);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            "s_subb_u32" => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.bin(Bin::Sub, a, b);
                let r = self.b.bin(Bin::Sub, t, c);
                let c1 = self.b.icmp(ICmp::ULt, a, b);
                let c2 = self.b.icmp(ICmp::ULt, t, c);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            "s_min_i32" | "s_min_u32" | "s_max_i32" | "s_max_u32" => {
                let signed = name.ends_with("i32");
                let lt = if signed { ICmp::SLt } else { ICmp::ULt };
                let (op, c) = if name.starts_with("s_min") {
                    (
                        if signed { Bin::SMin } else { Bin::UMin },
                        self.b.icmp(lt, a, b),
                    )
                } else {
                    (
                        if signed { Bin::SMax } else { Bin::UMax },
                        self.b.icmp(lt, b, a),
                    )
                };
                self.st.scc = c;
                Some(self.b.bin(op, a, b))
            }
            "s_and_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::And, a, b))
            }
            "s_or_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::Or, a, b))
            }
            "s_xor_b32" => {
                scc_nz = true;
                Some(self.b.bin(Bin::Xor, a, b))
            }
            "s_andn2_b32" => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::And, a, nb))
            }
            "s_orn2_b32" => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::Or, a, nb))
            }
            "s_nand_b32" | "s_nor_b32" | "s_xnor_b32" => {
                scc_nz = true;
                let op = match name {
                    "s_nand_b32" => Bin::And,
                    "s_nor_b32" => Bin::Or,
                    _ => Bin::Xor,
                };
                let r = self.b.bin(op, a, b);
                Some(self.b.un(Un::Not, r))
            }
            "s_not_b32" => {
                scc_nz = true;
                Some(self.b.un(Un::Not, a))
            }
            "s_lshl_b32" | "s_lshr_b32" | "s_ashr_i32" => {
                scc_nz = true;
                let op = match name {
                    "s_lshl_b32" => Bin::Shl,
                    "s_lshr_b32" => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                Some(self.b.bin(op, a, b))
            }
            "s_lshl1_add_u32" | "s_lshl2_add_u32" | "s_lshl3_add_u32" | "s_lshl4_add_u32" => {
                let n = (name.as_bytes()[6] - b'0') as u32;
                let sh = self.const_u32(n);
                let t = self.b.bin(Bin::Shl, a, sh);
                let r = self.b.add(t, b);
                // carry: bits shifted out or the add's carry
                let back = self.b.bin(Bin::ShrL, t, sh);
                let lost = self.b.icmp(ICmp::Ne, back, a);
                let c = self.b.icmp(ICmp::ULt, r, t);
                self.st.scc = self.b.bin(Bin::BOr, lost, c);
                Some(r)
            }
            "s_mul_i32" | "s_mulk_i32" => {
                if name == "s_mulk_i32" {
                    let x = self.s_word(dcode as usize);
                    let k = sext16(self, &s0);
                    Some(self.b.bin(Bin::Mul, x, k))
                } else {
                    Some(self.b.bin(Bin::Mul, a, b))
                }
            }
            "s_mul_hi_u32" => Some(self.b.bin(Bin::MulHiU, a, b)),
            "s_mul_hi_i32" => Some(self.b.bin(Bin::MulHiI, a, b)),
            "s_bfm_b32" => Some(self.bfm(a, b)),
            "s_bfe_u32" | "s_bfe_i32" => {
                scc_nz = true;
                let m31 = self.const_u32(31);
                let off = self.b.bin(Bin::And, b, m31);
                let s16 = self.const_u32(16);
                let w0 = self.b.bin(Bin::ShrL, b, s16);
                let m7f = self.const_u32(0x7f);
                let w = self.b.bin(Bin::And, w0, m7f);
                Some(self.bfe(a, off, w, name == "s_bfe_i32"))
            }
            "s_brev_b32" => Some(self.b.un(Un::BitReverse, a)),
            "s_bcnt1_i32_b32" | "s_bcnt0_i32_b32" => {
                scc_nz = true;
                let x = if name == "s_bcnt0_i32_b32" {
                    self.b.un(Un::Not, a)
                } else {
                    a
                };
                Some(self.b.un(Un::CountOnes, x))
            }
            "s_sext_i32_i8" | "s_sext_i32_i16" => {
                let n = self.const_u32(if name.ends_with("i8") { 24 } else { 16 });
                let t = self.b.bin(Bin::Shl, a, n);
                Some(self.b.bin(Bin::ShrA, t, n))
            }
            "s_abs_i32" => {
                scc_nz = true;
                let z = self.const_u32(0);
                let neg = self.b.bin(Bin::Sub, z, a);
                let lt = self.b.icmp(ICmp::SLt, a, z);
                Some(self.b.select(lt, neg, a))
            }
            "s_absdiff_i32" => {
                scc_nz = true;
                let d = self.b.bin(Bin::Sub, a, b);
                let nd = self.b.bin(Bin::Sub, b, a);
                let lt = self.b.icmp(ICmp::SLt, a, b);
                Some(self.b.select(lt, nd, d))
            }
            "s_pack_ll_b32_b16" | "s_pack_lh_b32_b16" | "s_pack_hh_b32_b16" => {
                let m = self.const_u32(0xffff);
                let s16 = self.const_u32(16);
                let lo = if name == "s_pack_hh_b32_b16" {
                    self.b.bin(Bin::ShrL, a, s16)
                } else {
                    self.b.bin(Bin::And, a, m)
                };
                let hi = if name == "s_pack_ll_b32_b16" {
                    self.b.bin(Bin::Shl, b, s16)
                } else {
                    let mh = self.const_u32(0xffff_0000);
                    self.b.bin(Bin::And, b, mh)
                };
                Some(self.b.bin(Bin::Or, lo, hi))
            }
            "s_bitset0_b32" | "s_bitset1_b32" => {
                let old = self.s_word(dcode as usize);
                let one = self.const_u32(1);
                let bit = self.b.bin(Bin::Shl, one, a);
                Some(if name == "s_bitset1_b32" {
                    self.b.bin(Bin::Or, old, bit)
                } else {
                    let nb = self.b.un(Un::Not, bit);
                    self.b.bin(Bin::And, old, nb)
                })
            }
            _ if name.starts_with("s_cmp_") || name.starts_with("s_cmpk_") => {
                let b = if name.starts_with("s_cmpk_") {
                    match s1.map(|x| x.op) {
                        Some(Operand::Imm(i)) => self.const_u32(i as u32),
                        _ => b,
                    }
                } else {
                    b
                };
                let rest = name
                    .trim_start_matches("s_cmpk_")
                    .trim_start_matches("s_cmp_");
                let (cond, ty) = rest.split_once('_').unwrap_or(("", ""));
                let signed = ty == "i32";
                if ty == "u64" {
                    self.problem(Form::ScalarCompare64);
                    return;
                }
                let (lt, le) = if signed {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                self.st.scc = match cond {
                    "eq" => self.b.icmp(ICmp::Eq, a, b),
                    "lg" => self.b.icmp(ICmp::Ne, a, b),
                    "lt" => self.b.icmp(lt, a, b),
                    "le" => self.b.icmp(le, a, b),
                    "gt" => self.b.icmp(lt, b, a),
                    "ge" => self.b.icmp(le, b, a),
                    _ => {
                        self.problem(Form::ScalarCompareUnknown);
                        return;
                    }
                };
                None
            }
            "s_bitcmp0_b32" | "s_bitcmp1_b32" => {
                let t = self.b.bin(Bin::ShrL, a, b);
                let one = self.const_u32(1);
                let bit = self.b.bin(Bin::And, t, one);
                let z = self.const_u32(0);
                self.st.scc = if name == "s_bitcmp1_b32" {
                    self.b.icmp(ICmp::Ne, bit, z)
                } else {
                    self.b.icmp(ICmp::Eq, bit, z)
                };
                None
            }
            "s_version" | "s_nop" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt" | "s_waitcnt_expcnt"
            | "s_waitcnt_lgkmcnt" => None,
            _ => {
                self.unhandled(OpcodeClass::ScalarAlu);
                return;
            }
        };
        if let Some(r) = r {
            if scc_nz {
                let z = self.const_u32(0);
                self.st.scc = self.b.icmp(ICmp::Ne, r, z);
            }
            if dcode == 124 || dcode < 128 {
                self.write_s(dcode, r);
            }
        }
    }

    pub(super) fn mov64(&mut self, dcode: u16, src: Operand) {
        if dcode >= 127 {
            return;
        }
        match src {
            Operand::Reg { code, .. } if code < 127 => {
                self.st.s[dcode as usize] = self.st.s[code as usize];
                self.st.s[dcode as usize + 1] = self.st.s[code as usize + 1];
            }
            op => {
                let (lo, hi) = self.src64(op);
                self.write_s(dcode, lo);
                self.write_s(dcode + 1, hi);
            }
        }
    }

    pub(super) fn bool_op(&mut self, op: &str, a: Value, b: Value) -> Value {
        match op {
            "and" => self.b.bin(Bin::BAnd, a, b),
            "or" => self.b.bin(Bin::BOr, a, b),
            "xor" => self.b.bin(Bin::BXor, a, b),
            "andn2" => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BAnd, a, nb)
            }
            "orn2" => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BOr, a, nb)
            }
            "andn1" => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BAnd, na, b)
            }
            "orn1" => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BOr, na, b)
            }
            "nand" | "nor" | "xnor" => {
                let r = match op {
                    "nand" => self.b.bin(Bin::BAnd, a, b),
                    "nor" => self.b.bin(Bin::BOr, a, b),
                    _ => self.b.bin(Bin::BXor, a, b),
                };
                self.b.un(Un::BNot, r)
            }
            _ => self.unsup(Ty::Bool, Form::MaskOperation { op: op.into() }),
        }
    }

    /// SCC of a lane-mask result: whether any lane's bit is set.
    pub(super) fn any_lane(&mut self, r: Value) -> Value {
        match self.b.func.konst(r) {
            Some(c) => self.b.bool(c != 0),
            None => self.unsup(Ty::Bool, CrossLane::MaskScc),
        }
    }

    pub(super) fn bfm(&mut self, width: Value, off: Value) -> Value {
        let m31 = self.const_u32(31);
        let w = self.b.bin(Bin::And, width, m31);
        let o = self.b.bin(Bin::And, off, m31);
        let one = self.const_u32(1);
        let t = self.b.bin(Bin::Shl, one, w);
        let mask = self.b.bin(Bin::Sub, t, one);
        self.b.bin(Bin::Shl, mask, o)
    }

    /// Extract `w` bits (0..=127; ≥ 32 means all) from `x >> off`.
    pub(super) fn bfe(&mut self, x: Value, off: Value, w: Value, signed: bool) -> Value {
        let t = self.b.bin(Bin::ShrL, x, off);
        let z = self.const_u32(0);
        let n32 = self.const_u32(32);
        let wide = self.b.icmp(ICmp::ULe, n32, w);
        let is0 = self.b.icmp(ICmp::Eq, w, z);
        if signed {
            let sh = self.b.bin(Bin::Sub, n32, w);
            let l = self.b.bin(Bin::Shl, t, sh);
            let r = self.b.bin(Bin::ShrA, l, sh);
            let xs = self.b.bin(Bin::ShrA, x, off);
            let r = self.b.select(wide, xs, r);
            self.b.select(is0, z, r)
        } else {
            let one = self.const_u32(1);
            let sh = self.b.bin(Bin::Shl, one, w);
            let m = self.b.bin(Bin::Sub, sh, one);
            let r = self.b.bin(Bin::And, t, m);
            let r = self.b.select(wide, t, r);
            self.b.select(is0, z, r)
        }
    }

    pub(super) fn salu64(&mut self, name: &str, dcode: u16, s0: Option<Slot>, s1: Option<Slot>) {
        let (al, ah) = match s0 {
            Some(s) => self.src64(s.op),
            None => (self.const_u32(0), self.const_u32(0)),
        };
        let (bl, bh) = match s1 {
            Some(s) => self.src64(s.op),
            None => (self.const_u32(0), self.const_u32(0)),
        };
        let z = self.const_u32(0);
        let pair = |l: &mut Self, op: Bin, inv_b: bool, inv_r: bool| {
            let (x, y) = if inv_b {
                (l.b.un(Un::Not, bl), l.b.un(Un::Not, bh))
            } else {
                (bl, bh)
            };
            let mut lo = l.b.bin(op, al, x);
            let mut hi = l.b.bin(op, ah, y);
            if inv_r {
                lo = l.b.un(Un::Not, lo);
                hi = l.b.un(Un::Not, hi);
            }
            (lo, hi)
        };
        let (lo, hi, scc_nz) = match name {
            "s_mov_b64" => (al, ah, false),
            "s_cmov_b64" => {
                let ol = self.s_word(dcode as usize);
                let oh = self.s_word(dcode as usize + 1);
                let c = self.st.scc;
                (self.b.select(c, al, ol), self.b.select(c, ah, oh), false)
            }
            "s_cselect_b64" => {
                let c = self.st.scc;
                (self.b.select(c, al, bl), self.b.select(c, ah, bh), false)
            }
            "s_and_b64" | "s_or_b64" | "s_xor_b64" | "s_andn2_b64" | "s_orn2_b64"
            | "s_nand_b64" | "s_nor_b64" | "s_xnor_b64" => {
                // (operation, invert the second operand, invert the result)
                let (op, not_b, not_r) = match name {
                    "s_and_b64" => (Bin::And, false, false),
                    "s_or_b64" => (Bin::Or, false, false),
                    "s_xor_b64" => (Bin::Xor, false, false),
                    "s_andn2_b64" => (Bin::And, true, false),
                    "s_orn2_b64" => (Bin::Or, true, false),
                    "s_nand_b64" => (Bin::And, false, true),
                    "s_nor_b64" => (Bin::Or, false, true),
                    _ => (Bin::Xor, false, true),
                };
                let (l, h) = pair(self, op, not_b, not_r);
                (l, h, true)
            }
            "s_not_b64" => (self.b.un(Un::Not, al), self.b.un(Un::Not, ah), true),
            "s_bfm_b64" => {
                // width = s0[5:0], offset = s1[5:0]
                let m63 = self.const_u32(63);
                let w = self.b.bin(Bin::And, al, m63);
                let o = self.b.bin(Bin::And, bl, m63);
                match (self.b.func.konst(w), self.b.func.konst(o)) {
                    (Some(w), Some(o)) => {
                        let m = (((1u128 << w) - 1) << o) as u64;
                        (
                            self.const_u32(m as u32),
                            self.const_u32((m >> 32) as u32),
                            false,
                        )
                    }
                    _ => {
                        self.problem(Form::BfmNonConstant);
                        return;
                    }
                }
            }
            "s_bcnt1_i32_b64" | "s_bcnt0_i32_b64" => {
                let (x, y) = if name == "s_bcnt0_i32_b64" {
                    (self.b.un(Un::Not, al), self.b.un(Un::Not, ah))
                } else {
                    (al, ah)
                };
                let c0 = self.b.un(Un::CountOnes, x);
                let c1 = self.b.un(Un::CountOnes, y);
                let r = self.b.add(c0, c1);
                self.st.scc = self.b.icmp(ICmp::Ne, r, z);
                self.write_s(dcode, r);
                return;
            }
            "s_cmp_eq_u64" | "s_cmp_lg_u64" => {
                let e0 = self.b.icmp(ICmp::Eq, al, bl);
                let e1 = self.b.icmp(ICmp::Eq, ah, bh);
                let e = self.b.bin(Bin::BAnd, e0, e1);
                self.st.scc = if name == "s_cmp_eq_u64" {
                    e
                } else {
                    self.b.un(Un::BNot, e)
                };
                return;
            }
            "s_bitcmp0_b64" | "s_bitcmp1_b64" => {
                let m63 = self.const_u32(63);
                let n = self.b.bin(Bin::And, bl, m63);
                match self.b.func.konst(n) {
                    Some(n) => {
                        let w = if n >= 32 { ah } else { al };
                        let sh = self.const_u32(n & 31);
                        let t = self.b.bin(Bin::ShrL, w, sh);
                        let one = self.const_u32(1);
                        let bit = self.b.bin(Bin::And, t, one);
                        self.st.scc = if name == "s_bitcmp1_b64" {
                            self.b.icmp(ICmp::Ne, bit, z)
                        } else {
                            self.b.icmp(ICmp::Eq, bit, z)
                        };
                    }
                    None => self.problem(Form::BitTestNonConstant),
                }
                return;
            }
            "s_lshl_b64" | "s_lshr_b64" | "s_ashr_i64" => {
                let m63 = self.const_u32(63);
                let n = self.b.bin(Bin::And, bl, m63);
                let Some(n) = self.b.func.konst(n) else {
                    self.problem(Form::ShiftAmountNonConstant);
                    return;
                };
                let x = (al, ah);
                let (l, h) = match (self.b.func.konst(x.0), self.b.func.konst(x.1)) {
                    (Some(a), Some(b)) => {
                        let v = (a as u64) | ((b as u64) << 32);
                        let r = match name {
                            "s_lshl_b64" => v << n,
                            "s_lshr_b64" => v >> n,
                            _ => ((v as i64) >> n) as u64,
                        };
                        (self.const_u32(r as u32), self.const_u32((r >> 32) as u32))
                    }
                    _ => {
                        self.problem(Form::ShiftValueNonConstant);
                        return;
                    }
                };
                let o = self.b.bin(Bin::Or, l, h);
                self.st.scc = self.b.icmp(ICmp::Ne, o, z);
                self.write_s(dcode, l);
                self.write_s(dcode + 1, h);
                return;
            }
            _ => {
                self.unhandled(OpcodeClass::Scalar64);
                return;
            }
        };
        if scc_nz {
            let o = self.b.bin(Bin::Or, lo, hi);
            self.st.scc = self.b.icmp(ICmp::Ne, o, z);
        }
        if dcode < 127 {
            self.write_s(dcode, lo);
            self.write_s(dcode + 1, hi);
        }
    }
}
