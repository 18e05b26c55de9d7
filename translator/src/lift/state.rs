//! The register state the lifter keeps: every SGPR is a uniform word or
//! this lane's bit of a lane mask (`Sgpr`), every VGPR and SCC an IR value;
//! reading and writing registers and operands, and the unsupported values
//! VGPRs the entry ABI does not define start as.

use super::Lifter;
use crate::ir::{Bin, Tri, Ty, Un, Unsupported, Value};
use crate::{Construct, CrossLane, Form};
use isa::operand::{inline_b32, inline_b64, inline_f16};
use isa::{OpMods, Operand, Slot, ValType};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Half {
    Lo,
    Hi,
    Full,
}

/// One SGPR: a uniform word, or (this lane's bit of) a lane mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sgpr {
    Word(Value),
    Mask(Value, Half),
}

#[derive(Clone, Debug)]
pub(super) struct State {
    pub(super) s: Vec<Sgpr>,
    pub(super) v: Vec<Value>,
    pub(super) scc: Value,
}

pub(super) fn reg_name(code: usize) -> String {
    match code {
        0..=105 => format!("s{code}"),
        106 => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        108..=123 => format!("ttmp{}", code - 108),
        124 => "m0".into(),
        126 => "exec_lo".into(),
        127 => "exec_hi".into(),
        _ => format!("reg{code}"),
    }
}

impl Lifter<'_> {
    /// Every VGPR some instruction reads that the entry ABI does not define
    /// (the ids' VGPRs) starts as an unsupported value, not 0: reading it
    /// before writing it is an error once it is live. Only the registers
    /// the code reads get one, so the common case costs nothing.
    pub(super) fn undefined_entry_vgprs(&mut self, program: &analysis::cfg::Program) {
        // The first instruction (in code order) reading each VGPR.
        let mut read: [Option<usize>; 256] = [None; 256];
        for (i, l) in program.lines.iter().enumerate() {
            let Ok(inst) = &l.inst else { continue };
            for s in inst.operands.iter().filter(|s| s.is_use()) {
                if let Operand::Reg { code, count } = s.op {
                    if code >= 256 {
                        let first = (code - 256) as usize;
                        for r in read.iter_mut().skip(first).take(count as usize) {
                            r.get_or_insert(i);
                        }
                    }
                }
            }
        }
        let abi = self.o.abi;
        let local_ids = self
            .o
            .compute
            .map_or(0, |c| c.local_id_vgprs.min(3) as usize);
        // NGG compute pass: the primitive VGPRs (v0, and v1 for culling
        // shaders) are computed from the lane.
        let prim_vgprs = match self.o.ngg.map(|e| e.prims) {
            Some(crate::wave::PrimVgprs::Indices) => 2,
            Some(crate::wave::PrimVgprs::Passthrough) => 1,
            None => 0,
        };
        let defined = |r: usize| {
            r < local_ids
                || r < prim_vgprs
                || abi.vertex_id_vgpr.map(usize::from) == Some(r)
                || abi.instance_id_vgpr.map(usize::from) == Some(r)
        };
        for r in (0..256).filter(|&r| !defined(r)) {
            let Some((pc, Ok(reader))) =
                read[r].map(|i| (program.lines[i].pc, &program.lines[i].inst))
            else {
                continue;
            };
            let mut text = String::new();
            let _ = self.fmt.write(reader, &mut text);
            let u = Unsupported {
                pc,
                inst: text,
                construct: Construct::UndefinedVgpr {
                    vgpr: r as u16,
                    stage: self.o.stage,
                    vertex_id: abi.vertex_id_vgpr,
                    instance_id: abi.instance_id_vgpr,
                },
            };
            let v = self.b.unsupported(Ty::U32, u);
            self.st.v[r] = v;
            self.undefined.insert(v);
        }
    }

    pub(super) fn word_to_bit(&mut self, v: Value, hi: Option<Value>) -> Value {
        let full = if self.o.wave64 && hi.is_none() {
            // A single word holds half a wave64 mask.
            None
        } else {
            Some(u32::MAX)
        };
        // A word that is all ones or zero by construction
        // (`s_cselect_b64 s[0:1], -1, 0`): the lane bit is the condition.
        if let crate::ir::Op::Tri(Tri::Select, c, a, b) = self.b.func.inst(v).op {
            let same_hi = match hi {
                Some(h) => h == v || self.b.func.inst(h).op == self.b.func.inst(v).op,
                None => !self.o.wave64,
            };
            let (ka, kb) = (self.b.func.konst(a), self.b.func.konst(b));
            if same_hi {
                if let (Some(x @ (0 | u32::MAX)), Some(y @ (0 | u32::MAX))) = (ka, kb) {
                    let (x, y) = (self.b.bool(x != 0), self.b.bool(y != 0));
                    return self.b.select(c, x, y);
                }
            }
        }
        let lo = self.b.func.konst(v);
        let h = match hi {
            Some(h) => self.b.func.konst(h),
            None => Some(if self.o.wave64 { u32::MAX } else { 0 }),
        };
        match (lo, h, full) {
            (Some(0), Some(0), _) => self.b.bool(false),
            (Some(0), _, _) if !self.o.wave64 => self.b.bool(false),
            (Some(u32::MAX), Some(u32::MAX), Some(_)) => self.b.bool(true),
            (Some(u32::MAX), _, Some(_)) if !self.o.wave64 => self.b.bool(true),
            // Compute shaders know their lane: its bit of the word.
            _ if self.o.compute.is_some() && (hi.is_some() || !self.o.wave64) => {
                self.lane_bit_of_words(v, hi)
            }
            _ => self.unsup(Ty::Bool, CrossLane::MaskFromWord),
        }
    }

    pub(super) fn s_word(&mut self, code: usize) -> Value {
        match self.st.s[code] {
            Sgpr::Word(v) => v,
            Sgpr::Mask(b, half) => match self.b.func.konst(b) {
                // A wave of a compute workgroup that ends mid-wave has
                // fewer lanes: its all-lanes mask is not all ones.
                Some(c) if c != 0 && self.partial_wave() => self.ballot(b, half == Half::Hi),
                Some(c) => self.const_u32(if c != 0 { u32::MAX } else { 0 }),
                // Compute shaders: a ballot through workgroup memory.
                None if self.o.compute.is_some() => self.ballot(b, half == Half::Hi),
                None => self.unsup(Ty::U32, CrossLane::MaskAsWord),
            },
        }
    }

    /// A 32-bit scalar source register (SGPR, vcc, m0, exec, specials).
    pub(super) fn read_s32(&mut self, code: u16) -> Value {
        match code {
            0..=124 | 126 | 127 => self.s_word(code as usize),
            125 => self.const_u32(0),
            253 => self.b.un(Un::BoolToU32, self.st.scc),
            251 | 252 => {
                let m = if code == 251 { 106 } else { 126 };
                let bit = self.mask_at(m);
                match self.b.func.konst(bit) {
                    Some(c) => self.const_u32((c == 0) as u32),
                    None if self.o.compute.is_some() => {
                        let any = self.any_lane_of(bit);
                        let none = self.b.un(Un::BNot, any);
                        self.b.un(Un::BoolToU32, none)
                    }
                    None => self.unsup(Ty::U32, CrossLane::AnyLaneTest),
                }
            }
            _ => self.unsup(Ty::U32, Form::SpecialRegister { code }),
        }
    }

    /// This lane's bit of the lane mask in register `code` (and `code+1`).
    pub(super) fn mask_at(&mut self, code: usize) -> Value {
        if self.o.wave64 {
            match (self.st.s[code], self.st.s.get(code + 1).copied()) {
                (Sgpr::Mask(a, Half::Lo), Some(Sgpr::Mask(b, Half::Hi))) if a == b => a,
                (Sgpr::Word(a), Some(Sgpr::Word(b))) => {
                    let bit = self.word_to_bit(a, Some(b));
                    // Remember the conversion: one report per write.
                    if code < 127 {
                        self.st.s[code] = Sgpr::Mask(bit, Half::Lo);
                        self.st.s[code + 1] = Sgpr::Mask(bit, Half::Hi);
                    }
                    bit
                }
                (Sgpr::Mask(a, _), _) if self.b.func.konst(a).is_some() => {
                    let lo = self.s_word(code);
                    let hi = self.s_word(code + 1);
                    self.word_to_bit(lo, Some(hi))
                }
                _ => self.unsup(Ty::Bool, CrossLane::MaskHalves),
            }
        } else {
            match self.st.s[code] {
                Sgpr::Mask(a, _) => a,
                Sgpr::Word(a) => {
                    let bit = self.word_to_bit(a, None);
                    self.st.s[code] = Sgpr::Mask(bit, Half::Full);
                    bit
                }
            }
        }
    }

    pub(super) fn active(&mut self) -> Value {
        self.mask_at(126)
    }

    pub(super) fn write_mask(&mut self, code: usize, bit: Value) {
        if code >= 128 || code == 125 {
            return;
        }
        if self.o.wave64 && code < 127 {
            self.st.s[code] = Sgpr::Mask(bit, Half::Lo);
            self.st.s[code + 1] = Sgpr::Mask(bit, Half::Hi);
        } else {
            self.st.s[code] = Sgpr::Mask(bit, Half::Full);
        }
    }

    pub(super) fn write_s(&mut self, code: u16, v: Value) {
        if (code as usize) < 128 && code != 125 {
            self.st.s[code as usize] = Sgpr::Word(v);
        }
    }

    /// Is the scalar operand a lane mask (in this wave size)?
    pub(super) fn is_mask_operand(&self, op: Operand) -> bool {
        match op {
            Operand::Reg { code, .. } if code < 128 => {
                matches!(self.st.s[code as usize], Sgpr::Mask(..))
            }
            _ => false,
        }
    }

    /// A scalar operand as this lane's mask bit.
    pub(super) fn mask_operand(&mut self, op: Operand) -> Value {
        match op {
            Operand::Reg { code, .. } if code < 128 => self.mask_at(code as usize),
            Operand::Inline(c) => {
                let v = if self.o.wave64 {
                    inline_b64(c).map(|x| (x as u32, (x >> 32) as u32))
                } else {
                    inline_b32(c).map(|x| (x, 0))
                };
                match v {
                    Some((lo, hi)) => {
                        let lo = self.const_u32(lo);
                        let hi = self.const_u32(hi);
                        self.word_to_bit(lo, self.o.wave64.then_some(hi))
                    }
                    None => self.unsup(Ty::Bool, Form::FloatMask),
                }
            }
            Operand::Literal(x) => {
                let lo = self.const_u32(x);
                let hi = self.const_u32(0);
                self.word_to_bit(lo, self.o.wave64.then_some(hi))
            }
            _ => self.unsup(Ty::Bool, Form::NotAMask),
        }
    }

    /// A 32-bit source operand (any file), with float modifiers applied.
    pub(super) fn src(&mut self, s: &Slot) -> Value {
        self.src_sel(s, None)
    }

    /// A source with an SDWA field selection `(offset, width)`: the field,
    /// zero- or (with `sext`) sign-extended, then the float modifiers.
    pub(super) fn src_sel(&mut self, s: &Slot, sel: Option<(u32, u32)>) -> Value {
        let v = match s.op {
            Operand::Reg { code, .. } if code >= 256 => self.st.v[(code - 256) as usize],
            Operand::Reg { code, .. } => self.read_s32(code),
            Operand::Inline(c) => match s.ty {
                // An f16 slot's inline constant: its f16 value in the low
                // half, 0 above (an SDWA selection then picks a field).
                ValType::F16 if sel.is_some() => match inline_f16(c) {
                    Some(x) => self.const_u32(x as u32),
                    None => return self.unsup(Ty::U32, Form::UnknownInlineConstant),
                },
                ValType::F16 | ValType::V2F16 | ValType::F64 | ValType::B64 => {
                    return self.unsup(Ty::U32, Form::WideConstant)
                }
                _ => match inline_b32(c) {
                    Some(x) => self.const_u32(x),
                    None => return self.unsup(Ty::U32, Form::UnknownInlineConstant),
                },
            },
            Operand::Literal(x) => self.const_u32(x),
            Operand::Imm(i) => self.const_u32(i as u32),
            Operand::Off => self.const_u32(0),
        };
        if s.mods
            .intersects(OpMods::NEG_HI | OpMods::OP_SEL | OpMods::OP_SEL_HI)
            || (s.mods.contains(OpMods::SEXT) && sel.is_none())
        {
            return self.unsup(Ty::U32, Form::OperandSelection);
        }
        let v = match sel {
            Some((off, width)) if width < 32 => {
                let l = self.const_u32(32 - off - width);
                let r = self.const_u32(32 - width);
                let t = self.b.bin(Bin::Shl, v, l);
                let op = if s.mods.contains(OpMods::SEXT) {
                    Bin::ShrA
                } else {
                    Bin::ShrL
                };
                self.b.bin(op, t, r)
            }
            _ => v,
        };
        if s.mods.intersects(OpMods::ABS | OpMods::NEG) {
            let mut x = v;
            if s.mods.contains(OpMods::ABS) {
                let m = self.const_u32(0x7fff_ffff);
                x = self.b.bin(Bin::And, x, m);
            }
            if s.mods.contains(OpMods::NEG) {
                let m = self.const_u32(0x8000_0000);
                x = self.b.bin(Bin::Xor, x, m);
            }
            return x;
        }
        v
    }

    /// Two 32-bit halves of a 64-bit scalar operand.
    pub(super) fn src64(&mut self, op: Operand) -> (Value, Value) {
        match op {
            Operand::Reg { code, .. } if code < 128 => {
                let lo = self.s_word(code as usize);
                let hi = if code < 127 {
                    self.s_word(code as usize + 1)
                } else {
                    self.const_u32(0)
                };
                (lo, hi)
            }
            Operand::Reg { code, .. } => {
                let lo = self.read_s32(code);
                let hi = self.const_u32(0);
                (lo, hi)
            }
            Operand::Inline(c) => match inline_b64(c) {
                Some(x) => (self.const_u32(x as u32), self.const_u32((x >> 32) as u32)),
                None => (self.const_u32(0), self.const_u32(0)),
            },
            Operand::Literal(x) => (self.const_u32(x), self.const_u32(0)),
            Operand::Imm(i) => (
                self.const_u32(i as u32),
                self.const_u32(((i as i64) >> 32) as u32),
            ),
            Operand::Off => (self.const_u32(0), self.const_u32(0)),
        }
    }

    pub(super) fn write_v(&mut self, slot: &Slot, k: u8, v: Value) {
        if let Operand::Reg { code, .. } = slot.op {
            if code >= 256 {
                let r = (code - 256) as usize + k as usize;
                if r < 256 {
                    let act = self.active();
                    let old = self.st.v[r];
                    // Lanes that keep an undefined entry value may hold
                    // anything, so they may hold the new value too.
                    self.st.v[r] = if self.undefined.contains(&old) {
                        v
                    } else {
                        self.b.select(act, v, old)
                    };
                }
            } else if k == 0 {
                self.write_s(code, v);
            }
        }
    }
}
