//! Scalar ALU instructions (SOP1, SOP2, SOPK, SOPC), 32- and 64-bit, on
//! uniform words and lane masks.

use super::support::{self, Support};
use super::Lifter;
use crate::ir::{Bin, ICmp, Input, Ty, Un, Value};
use crate::{CrossLane, Form, OpcodeClass};
use isa::{op, CmpCond, Compare, ExecUpdate, Instruction, Logic, NumTy, Opcode, Operand, Slot};

impl Lifter<'_> {
    pub(super) fn salu(&mut self, code: Opcode, inst: &Instruction) {
        let f = code.facts();
        let ops = inst.operands.as_slice();
        let defs: Vec<Slot> = ops.iter().filter(|s| s.is_def()).copied().collect();
        let srcs: Vec<Slot> = ops.iter().filter(|s| !s.is_def()).copied().collect();
        let dst = defs.first().map(|s| s.op);
        let wide = match dst.or(srcs.first().map(|s| s.op)) {
            Some(Operand::Reg { count, .. }) => count == 2,
            _ => false,
        } || f.bits == 64;
        let dcode = match dst {
            Some(Operand::Reg { code, .. }) => code,
            _ => 125,
        };
        let s0 = srcs.first().copied();
        let s1 = srcs.get(1).copied();
        let zero = self.const_u32(0);
        // Mask-aware bitwise operations (64-bit in wave64, 32-bit in wave32).
        let bitwise = f.logic;
        let mask_width = if self.o.wave64 { wide } else { !wide };
        if let Some(ExecUpdate {
            op: base,
            wrexec: false,
            ..
        }) = f.exec.filter(|e| e.w64 == self.o.wave64)
        {
            // sdst = exec; exec = op(ssrc, exec); scc = exec != 0
            let Some(s0) = s0 else { return };
            let old = self.active();
            let a = self.mask_operand(s0.op);
            let r = self.bool_op(base, a, old);
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
        if f.exec.is_some() {
            self.problem(Form::OtherWaveSizeExec);
            return;
        }
        if let (Some(op), true) = (bitwise, mask_width) {
            let (Some(s0), Some(s1)) = (s0, s1) else {
                return;
            };
            if self.is_mask_operand(s0.op) || self.is_mask_operand(s1.op) {
                let a = self.mask_operand(s0.op);
                let b = self.mask_operand(s1.op);
                let r = self.bool_op(op, a, b);
                self.write_mask(dcode as usize, r);
                self.st.scc = self.any_lane(r);
                return;
            }
        }
        if (code == op::S_MOV_B64 || code == op::S_CMOV_B64) && self.o.wave64 {
            let Some(s0) = s0 else { return };
            if code == op::S_CMOV_B64 {
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
        if code == op::S_MOV_B32 {
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
        if code == op::S_CSELECT_B64 && self.o.wave64 {
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
        if code == op::S_NOT_B64 || (code == op::S_NOT_B32 && !self.o.wave64) {
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
        if support::salu(code, self.o.wave64) == Support::Unsupported {
            self.unhandled(if wide {
                OpcodeClass::Scalar64
            } else {
                OpcodeClass::ScalarAlu
            });
            return;
        }
        if wide {
            self.salu64(code, dcode, s0, s1);
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
        let r: Option<Value> = match code {
            op::S_MOVK_I32 => Some(sext16(self, &s0)),
            op::S_CMOVK_I32 => {
                let k = sext16(self, &s0);
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, k, old))
            }
            op::S_CMOV_B32 => {
                let old = self.s_word(dcode as usize);
                Some(self.b.select(self.st.scc, a, old))
            }
            op::S_CSELECT_B32 => Some(self.b.select(self.st.scc, a, b)),
            op::S_ADD_U32 => {
                let r = self.b.add(a, b);
                self.st.scc = self.b.icmp(ICmp::ULt, r, a);
                Some(r)
            }
            op::S_SUB_U32 => {
                self.st.scc = self.b.icmp(ICmp::ULt, a, b);
                Some(self.b.bin(Bin::Sub, a, b))
            }
            op::S_ADD_I32 | op::S_ADDK_I32 => {
                let (x, y) = if code == op::S_ADDK_I32 {
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
            op::S_SUB_I32 => {
                let r = self.b.bin(Bin::Sub, a, b);
                let sx = self.b.bin(Bin::Xor, a, b);
                let sy = self.b.bin(Bin::Xor, a, r);
                let both = self.b.bin(Bin::And, sx, sy);
                let z = self.const_u32(0);
                self.st.scc = self.b.icmp(ICmp::SLt, both, z);
                Some(r)
            }
            op::S_ADDC_U32 => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.add(a, b);
                let r = self.b.add(t, c);
                let c1 = self.b.icmp(ICmp::ULt, t, a);
                let c2 = self.b.icmp(ICmp::ULt, r, t);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            op::S_SUBB_U32 => {
                let c = self.b.un(Un::BoolToU32, self.st.scc);
                let t = self.b.bin(Bin::Sub, a, b);
                let r = self.b.bin(Bin::Sub, t, c);
                let c1 = self.b.icmp(ICmp::ULt, a, b);
                let c2 = self.b.icmp(ICmp::ULt, t, c);
                self.st.scc = self.b.bin(Bin::BOr, c1, c2);
                Some(r)
            }
            op::S_MIN_I32 | op::S_MIN_U32 | op::S_MAX_I32 | op::S_MAX_U32 => {
                let signed = f.signed;
                let lt = if signed { ICmp::SLt } else { ICmp::ULt };
                let (op, c) = if matches!(code, op::S_MIN_I32 | op::S_MIN_U32) {
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
            op::S_AND_B32 => {
                scc_nz = true;
                Some(self.b.bin(Bin::And, a, b))
            }
            op::S_OR_B32 => {
                scc_nz = true;
                Some(self.b.bin(Bin::Or, a, b))
            }
            op::S_XOR_B32 => {
                scc_nz = true;
                Some(self.b.bin(Bin::Xor, a, b))
            }
            op::S_ANDN2_B32 => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::And, a, nb))
            }
            op::S_ORN2_B32 => {
                scc_nz = true;
                let nb = self.b.un(Un::Not, b);
                Some(self.b.bin(Bin::Or, a, nb))
            }
            op::S_NAND_B32 | op::S_NOR_B32 | op::S_XNOR_B32 => {
                scc_nz = true;
                let op = match code {
                    op::S_NAND_B32 => Bin::And,
                    op::S_NOR_B32 => Bin::Or,
                    _ => Bin::Xor,
                };
                let r = self.b.bin(op, a, b);
                Some(self.b.un(Un::Not, r))
            }
            op::S_NOT_B32 => {
                scc_nz = true;
                Some(self.b.un(Un::Not, a))
            }
            op::S_LSHL_B32 | op::S_LSHR_B32 | op::S_ASHR_I32 => {
                scc_nz = true;
                let op = match code {
                    op::S_LSHL_B32 => Bin::Shl,
                    op::S_LSHR_B32 => Bin::ShrL,
                    _ => Bin::ShrA,
                };
                Some(self.b.bin(op, a, b))
            }
            op::S_LSHL1_ADD_U32
            | op::S_LSHL2_ADD_U32
            | op::S_LSHL3_ADD_U32
            | op::S_LSHL4_ADD_U32 => {
                let n = match code {
                    op::S_LSHL1_ADD_U32 => 1,
                    op::S_LSHL2_ADD_U32 => 2,
                    op::S_LSHL3_ADD_U32 => 3,
                    _ => 4,
                };
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
            op::S_MUL_I32 | op::S_MULK_I32 => {
                if code == op::S_MULK_I32 {
                    let x = self.s_word(dcode as usize);
                    let k = sext16(self, &s0);
                    Some(self.b.bin(Bin::Mul, x, k))
                } else {
                    Some(self.b.bin(Bin::Mul, a, b))
                }
            }
            op::S_MUL_HI_U32 => Some(self.b.bin(Bin::MulHiU, a, b)),
            op::S_MUL_HI_I32 => Some(self.b.bin(Bin::MulHiI, a, b)),
            op::S_BFM_B32 => Some(self.bfm(a, b)),
            op::S_BFE_U32 | op::S_BFE_I32 => {
                scc_nz = true;
                let m31 = self.const_u32(31);
                let off = self.b.bin(Bin::And, b, m31);
                let s16 = self.const_u32(16);
                let w0 = self.b.bin(Bin::ShrL, b, s16);
                let m7f = self.const_u32(0x7f);
                let w = self.b.bin(Bin::And, w0, m7f);
                Some(self.bfe(a, off, w, code == op::S_BFE_I32))
            }
            op::S_BREV_B32 => Some(self.b.un(Un::BitReverse, a)),
            op::S_BCNT1_I32_B32 | op::S_BCNT0_I32_B32 => {
                scc_nz = true;
                let x = if code == op::S_BCNT0_I32_B32 {
                    self.b.un(Un::Not, a)
                } else {
                    a
                };
                Some(self.b.un(Un::CountOnes, x))
            }
            op::S_SEXT_I32_I8 | op::S_SEXT_I32_I16 => {
                let n = self.const_u32(if code == op::S_SEXT_I32_I8 { 24 } else { 16 });
                let t = self.b.bin(Bin::Shl, a, n);
                Some(self.b.bin(Bin::ShrA, t, n))
            }
            op::S_ABS_I32 => {
                scc_nz = true;
                let z = self.const_u32(0);
                let neg = self.b.bin(Bin::Sub, z, a);
                let lt = self.b.icmp(ICmp::SLt, a, z);
                Some(self.b.select(lt, neg, a))
            }
            op::S_ABSDIFF_I32 => {
                // |a - b| of the wrapped 32-bit difference, as the ISA
                // computes it (absdiff(INT_MIN, 1) = 0x7fffffff).
                scc_nz = true;
                let d = self.b.bin(Bin::Sub, a, b);
                let z = self.const_u32(0);
                let nd = self.b.bin(Bin::Sub, z, d);
                let lt = self.b.icmp(ICmp::SLt, d, z);
                Some(self.b.select(lt, nd, d))
            }
            op::S_PACK_LL_B32_B16 | op::S_PACK_LH_B32_B16 | op::S_PACK_HH_B32_B16 => {
                let m = self.const_u32(0xffff);
                let s16 = self.const_u32(16);
                let lo = if code == op::S_PACK_HH_B32_B16 {
                    self.b.bin(Bin::ShrL, a, s16)
                } else {
                    self.b.bin(Bin::And, a, m)
                };
                let hi = if code == op::S_PACK_LL_B32_B16 {
                    self.b.bin(Bin::Shl, b, s16)
                } else {
                    let mh = self.const_u32(0xffff_0000);
                    self.b.bin(Bin::And, b, mh)
                };
                Some(self.b.bin(Bin::Or, lo, hi))
            }
            op::S_BITSET0_B32 | op::S_BITSET1_B32 => {
                let old = self.s_word(dcode as usize);
                let one = self.const_u32(1);
                let bit = self.b.bin(Bin::Shl, one, a);
                Some(if code == op::S_BITSET1_B32 {
                    self.b.bin(Bin::Or, old, bit)
                } else {
                    let nb = self.b.un(Un::Not, bit);
                    self.b.bin(Bin::And, old, nb)
                })
            }
            _ if f.cmp.is_some() => {
                let cmp = f.cmp.unwrap_or(Compare {
                    cond: CmpCond::F,
                    ty: NumTy::U32,
                    writes_exec: false,
                    imm16: false,
                });
                let b = if cmp.imm16 {
                    match s1.map(|x| x.op) {
                        Some(Operand::Imm(i)) => self.const_u32(i as u32),
                        _ => b,
                    }
                } else {
                    b
                };
                let signed = cmp.ty == NumTy::I32;
                if cmp.ty == NumTy::U64 {
                    self.problem(Form::ScalarCompare64);
                    return;
                }
                let (lt, le) = if signed {
                    (ICmp::SLt, ICmp::SLe)
                } else {
                    (ICmp::ULt, ICmp::ULe)
                };
                self.st.scc = match cmp.cond {
                    CmpCond::Eq => self.b.icmp(ICmp::Eq, a, b),
                    CmpCond::Lg => self.b.icmp(ICmp::Ne, a, b),
                    CmpCond::Lt => self.b.icmp(lt, a, b),
                    CmpCond::Le => self.b.icmp(le, a, b),
                    CmpCond::Gt => self.b.icmp(lt, b, a),
                    CmpCond::Ge => self.b.icmp(le, b, a),
                    _ => {
                        self.problem(Form::ScalarCompareUnknown);
                        return;
                    }
                };
                None
            }
            op::S_BITCMP0_B32 | op::S_BITCMP1_B32 => {
                let t = self.b.bin(Bin::ShrL, a, b);
                let one = self.const_u32(1);
                let bit = self.b.bin(Bin::And, t, one);
                let z = self.const_u32(0);
                self.st.scc = if code == op::S_BITCMP1_B32 {
                    self.b.icmp(ICmp::Ne, bit, z)
                } else {
                    self.b.icmp(ICmp::Eq, bit, z)
                };
                None
            }
            op::S_VERSION
            | op::S_NOP
            | op::S_WAITCNT_VSCNT
            | op::S_WAITCNT_VMCNT
            | op::S_WAITCNT_EXPCNT
            | op::S_WAITCNT_LGKMCNT => None,
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

    pub(super) fn bool_op(&mut self, op: Logic, a: Value, b: Value) -> Value {
        match op {
            Logic::And => self.b.bin(Bin::BAnd, a, b),
            Logic::Or => self.b.bin(Bin::BOr, a, b),
            Logic::Xor => self.b.bin(Bin::BXor, a, b),
            Logic::Andn2 => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BAnd, a, nb)
            }
            Logic::Orn2 => {
                let nb = self.b.un(Un::BNot, b);
                self.b.bin(Bin::BOr, a, nb)
            }
            Logic::Andn1 => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BAnd, na, b)
            }
            Logic::Orn1 => {
                let na = self.b.un(Un::BNot, a);
                self.b.bin(Bin::BOr, na, b)
            }
            Logic::Nand | Logic::Nor | Logic::Xnor => {
                let r = match op {
                    Logic::Nand => self.b.bin(Bin::BAnd, a, b),
                    Logic::Nor => self.b.bin(Bin::BOr, a, b),
                    _ => self.b.bin(Bin::BXor, a, b),
                };
                self.b.un(Un::BNot, r)
            }
        }
    }

    /// SCC of a lane-mask result: whether any lane's bit is set.
    pub(super) fn any_lane(&mut self, r: Value) -> Value {
        match self.b.func.konst(r) {
            Some(c) => self.b.bool(c != 0),
            None if self.o.compute.is_some() => self.any_lane_of(r),
            None => {
                let u = self.unsup(Ty::Bool, CrossLane::MaskScc);
                self.b.func.any_lane.push((u, r));
                u
            }
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

    pub(super) fn salu64(&mut self, code: Opcode, dcode: u16, s0: Option<Slot>, s1: Option<Slot>) {
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
        let (lo, hi, scc_nz) = match code {
            op::S_MOV_B64 => (al, ah, false),
            op::S_GETPC_B64 => {
                // The address of the next instruction: code address + pc + 4.
                let lo = self.b.input(Input::CodeAddr(false));
                let hi = self.b.input(Input::CodeAddr(true));
                let off = self.const_u32(self.pc.wrapping_add(4));
                let l = self.b.add(lo, off);
                let carry = self.b.icmp(ICmp::ULt, l, lo);
                let c = self.b.un(Un::BoolToU32, carry);
                (l, self.b.add(hi, c), false)
            }
            op::S_CMOV_B64 => {
                let ol = self.s_word(dcode as usize);
                let oh = self.s_word(dcode as usize + 1);
                let c = self.st.scc;
                (self.b.select(c, al, ol), self.b.select(c, ah, oh), false)
            }
            op::S_CSELECT_B64 => {
                let c = self.st.scc;
                (self.b.select(c, al, bl), self.b.select(c, ah, bh), false)
            }
            op::S_AND_B64
            | op::S_OR_B64
            | op::S_XOR_B64
            | op::S_ANDN2_B64
            | op::S_ORN2_B64
            | op::S_NAND_B64
            | op::S_NOR_B64
            | op::S_XNOR_B64 => {
                // (operation, invert the second operand, invert the result)
                let (op, not_b, not_r) = match code {
                    op::S_AND_B64 => (Bin::And, false, false),
                    op::S_OR_B64 => (Bin::Or, false, false),
                    op::S_XOR_B64 => (Bin::Xor, false, false),
                    op::S_ANDN2_B64 => (Bin::And, true, false),
                    op::S_ORN2_B64 => (Bin::Or, true, false),
                    op::S_NAND_B64 => (Bin::And, false, true),
                    op::S_NOR_B64 => (Bin::Or, false, true),
                    _ => (Bin::Xor, false, true),
                };
                let (l, h) = pair(self, op, not_b, not_r);
                (l, h, true)
            }
            op::S_NOT_B64 => (self.b.un(Un::Not, al), self.b.un(Un::Not, ah), true),
            op::S_BFM_B64 => {
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
                        let (l, h) = self.bfm64(w, o);
                        (l, h, false)
                    }
                }
            }
            op::S_BCNT1_I32_B64 | op::S_BCNT0_I32_B64 => {
                let (x, y) = if code == op::S_BCNT0_I32_B64 {
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
            op::S_CMP_EQ_U64 | op::S_CMP_LG_U64 => {
                let e0 = self.b.icmp(ICmp::Eq, al, bl);
                let e1 = self.b.icmp(ICmp::Eq, ah, bh);
                let e = self.b.bin(Bin::BAnd, e0, e1);
                self.st.scc = if code == op::S_CMP_EQ_U64 {
                    e
                } else {
                    self.b.un(Un::BNot, e)
                };
                return;
            }
            op::S_BITCMP0_B64 | op::S_BITCMP1_B64 => {
                let m63 = self.const_u32(63);
                let n = self.b.bin(Bin::And, bl, m63);
                match self.b.func.konst(n) {
                    Some(n) => {
                        let w = if n >= 32 { ah } else { al };
                        let sh = self.const_u32(n & 31);
                        let t = self.b.bin(Bin::ShrL, w, sh);
                        let one = self.const_u32(1);
                        let bit = self.b.bin(Bin::And, t, one);
                        self.st.scc = if code == op::S_BITCMP1_B64 {
                            self.b.icmp(ICmp::Ne, bit, z)
                        } else {
                            self.b.icmp(ICmp::Eq, bit, z)
                        };
                    }
                    None => self.problem(Form::BitTestNonConstant),
                }
                return;
            }
            op::S_LSHL_B64 | op::S_LSHR_B64 | op::S_ASHR_I64 => {
                let m63 = self.const_u32(63);
                let nv = self.b.bin(Bin::And, bl, m63);
                let x = (al, ah);
                let (l, h) = match (
                    self.b.func.konst(nv),
                    self.b.func.konst(x.0),
                    self.b.func.konst(x.1),
                ) {
                    (Some(n), Some(a), Some(b)) => {
                        let v = (a as u64) | ((b as u64) << 32);
                        let r = match code {
                            op::S_LSHL_B64 => v << n,
                            op::S_LSHR_B64 => v >> n,
                            _ => ((v as i64) >> n) as u64,
                        };
                        (self.const_u32(r as u32), self.const_u32((r >> 32) as u32))
                    }
                    // A word pair: the vector shift's lowering.
                    _ => {
                        let vcode = match code {
                            op::S_LSHL_B64 => op::V_LSHLREV_B64,
                            op::S_LSHR_B64 => op::V_LSHRREV_B64,
                            _ => op::V_ASHRREV_I64,
                        };
                        self.shift64(vcode, nv, al, ah)
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

    /// `((1 << w) − 1) << o` as a 64-bit mask (low, high words), for
    /// `w`, `o` in 0..=63.
    fn bfm64(&mut self, w: Value, o: Value) -> (Value, Value) {
        let k32 = self.const_u32(32);
        let k31 = self.const_u32(31);
        let one = self.const_u32(1);
        let zero = self.const_u32(0);
        let ones = self.const_u32(u32::MAX);
        // The low `w` bits of 64.
        let w_hi = self.b.icmp(ICmp::ULe, k32, w);
        let wl = self.b.bin(Bin::And, w, k31);
        let bit = self.b.bin(Bin::Shl, one, wl);
        let part = self.b.bin(Bin::Sub, bit, one);
        let lo = self.b.select(w_hi, ones, part);
        let hi = self.b.select(w_hi, part, zero);
        // Shifted left by `o`.
        let o_hi = self.b.icmp(ICmp::ULe, k32, o);
        let ol = self.b.bin(Bin::And, o, k31);
        let lo_s = self.b.bin(Bin::Shl, lo, ol);
        let hi_s = self.b.bin(Bin::Shl, hi, ol);
        let back = self.b.bin(Bin::Sub, k32, ol);
        let carry = self.b.bin(Bin::ShrL, lo, back);
        let ozero = self.b.icmp(ICmp::Eq, ol, zero);
        let carry = self.b.select(ozero, zero, carry);
        let hi_s = self.b.bin(Bin::Or, hi_s, carry);
        let r_lo = self.b.select(o_hi, zero, lo_s);
        let r_hi = self.b.select(o_hi, lo_s, hi_s);
        (r_lo, r_hi)
    }
}
