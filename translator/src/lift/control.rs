//! Program control: `s_branch`, `s_cbranch_*` (a per-lane EXEC test becomes
//! a per-lane branch), the other SOPP instructions, and whether an
//! instruction may turn on lanes EXEC had off.

use super::state::{Half, Sgpr};
use super::support::{self, Support};
use super::Lifter;
use crate::ir::{Bin, ICmp, Ty, Un, Value};
use crate::manifest::Dropped;
use crate::{CrossLane, Form, OpcodeClass};
use isa::{op, Instruction, Modifiers, Opcode};

impl Lifter<'_> {
    /// Whether a new EXEC may have lanes the old one did not.
    pub(super) fn may_raise(&self, old: Sgpr, new_lo: Sgpr, new_hi: Sgpr) -> bool {
        let f = &self.b.func;
        let old_bit = match old {
            Sgpr::Mask(b, _) => Some(b),
            Sgpr::Word(_) => None,
        };
        // An all-ones EXEC cannot be raised.
        match old {
            Sgpr::Mask(b, _) if f.konst(b) == Some(1) => return false,
            Sgpr::Word(w) if f.konst(w) == Some(u32::MAX) => return false,
            _ => {}
        }
        match new_lo {
            Sgpr::Mask(v, _) => {
                if f.konst(v) == Some(0) || Some(v) == old_bit {
                    return false;
                }
                match (f.inst(v).op, old_bit) {
                    (crate::ir::Op::Bin(Bin::BAnd, x, y), Some(o)) => x != o && y != o,
                    _ => true,
                }
            }
            Sgpr::Word(w) => {
                let hi_zero = match new_hi {
                    Sgpr::Word(h) => f.konst(h) == Some(0) || !self.o.wave64,
                    _ => false,
                };
                !(f.konst(w) == Some(0) && hi_zero)
            }
        }
    }

    pub(super) fn sopp(&mut self, code: Opcode, inst: &Instruction) {
        if support::sopp(code) == Support::Unsupported {
            self.unhandled(OpcodeClass::ProgramControl);
            return;
        }
        match code {
            op::S_NOP
            | op::S_WAITCNT
            | op::S_SETPRIO
            | op::S_CLAUSE
            | op::S_SLEEP
            | op::S_INST_PREFETCH
            | op::S_ICACHE_INV
            | op::S_WAITCNT_DEPCTR
            | op::S_TTRACEDATA
            | op::S_TTRACEDATA_IMM => {}
            // Compute: a workgroup barrier (vertex shaders: one wave, nothing
            // to wait for).
            op::S_BARRIER if self.o.compute.is_some() => {
                self.b.effect(crate::ir::Effect::Barrier { pc: self.pc });
            }
            op::S_BARRIER => {}
            // The translation computes with f32 denormals flushed (RADV's
            // float mode; f16/f64 arithmetic is not lifted). A mode that
            // keeps flushing them changes nothing (the interpreter takes
            // any f32 field but 3 as flushing); one that keeps them is
            // refused.
            op::S_DENORM_MODE => {
                let imm = match inst.mods {
                    Modifiers::Simm16(x) => x,
                    _ => 0,
                };
                if imm & 3 == 3 {
                    self.problem(Form::DenormPreserve);
                }
            }
            op::S_SENDMSG => {
                let imm = match inst.mods {
                    Modifiers::Simm16(x) => x,
                    _ => 0,
                };
                if imm & 0xf == 9 && self.o.ngg.is_some() {
                    // NGG compute pass: M0 (the subgroup's vertex and
                    // primitive counts) goes to the output, once.
                    let m0 = self.s_word(124);
                    let lane = self.b.input(crate::ir::Input::LocalIndex);
                    let zero = self.const_u32(0);
                    let cond = self.b.icmp(ICmp::Eq, lane, zero);
                    self.b.effect(crate::ir::Effect::Export {
                        pc: self.pc,
                        target: crate::ir::ExportTarget::AllocReq,
                        values: [Some(m0), None, None, None],
                        cond,
                        done: false,
                    });
                } else if imm & 0xf == 9 {
                    let inst = self.txt();
                    self.dropped.push(Dropped {
                        pc: self.pc,
                        inst,
                        reason: "NGG GS_ALLOC_REQ: the host does primitive assembly".into(),
                    });
                } else {
                    self.unhandled(OpcodeClass::Message);
                }
            }
            _ => self.unhandled(OpcodeClass::ProgramControl),
        }
    }

    /// EXEC as this lane's bit, when the state holds it as one (both
    /// halves of one mask in wave64); `None` otherwise. Reads nothing new.
    pub(super) fn exec_bit(&self) -> Option<Value> {
        match (self.st.s[126], self.st.s[127], self.o.wave64) {
            (Sgpr::Mask(a, Half::Lo), Sgpr::Mask(b, Half::Hi), true) if a == b => Some(a),
            (Sgpr::Mask(a, _), _, false) => Some(a),
            _ => None,
        }
    }

    pub(super) fn branch_cond(&mut self, code: Opcode) -> (Value, bool) {
        self.exec_at_branch = None;
        match code {
            op::S_CBRANCH_SCC1 | op::S_CBRANCH_SCC0 => {
                let scc1 = code == op::S_CBRANCH_SCC1;
                if let Some(b) = self.exec_scc_branch(scc1) {
                    return b;
                }
                if scc1 {
                    (self.st.scc, false)
                } else {
                    (self.b.un(Un::BNot, self.st.scc), false)
                }
            }
            op::S_CBRANCH_VCCZ | op::S_CBRANCH_VCCNZ => {
                let mut div = false;
                let z = match (self.st.s[106], self.st.s[107]) {
                    (Sgpr::Word(lo), Sgpr::Word(hi)) => {
                        let hi = if self.o.wave64 { hi } else { self.const_u32(0) };
                        let o = self.b.bin(Bin::Or, lo, hi);
                        let zero = self.const_u32(0);
                        self.b.icmp(ICmp::Eq, o, zero)
                    }
                    _ => {
                        let bit = self.mask_at(106);
                        match self.b.func.konst(bit) {
                            Some(c) => self.b.bool(c == 0),
                            None if self.o.compute.is_some() => {
                                let any = self.any_lane_of(bit);
                                self.b.un(Un::BNot, any)
                            }
                            None => match self.vcc_lane_uniform(bit) {
                                Some(per_lane) => {
                                    div = per_lane;
                                    self.b.un(Un::BNot, bit)
                                }
                                None => self.unsup(Ty::Bool, CrossLane::VccBranch),
                            },
                        }
                    }
                };
                if code == op::S_CBRANCH_VCCZ {
                    (z, div)
                } else {
                    (self.b.un(Un::BNot, z), div)
                }
            }
            _ => {
                let act = self.active();
                // NGG compute pass and wave branches (one wave per
                // workgroup): the wave's branch, on whether any lane of
                // EXEC is on.
                if (self.o.ngg.is_some() || self.o.wave_branches)
                    && self.b.func.konst(act).is_none()
                {
                    let any = if self.o.faults.wave_branch_all_lanes {
                        // Negative control: "every lane of EXEC is on"
                        // instead of "any": a loop leaves when its first
                        // lane does.
                        let off = self.b.un(Un::BNot, act);
                        let some_off = self.any_lane_of(off);
                        self.b.un(Un::BNot, some_off)
                    } else {
                        self.any_lane_of(act)
                    };
                    return if code == op::S_CBRANCH_EXECZ {
                        (self.b.un(Un::BNot, any), false)
                    } else {
                        (any, false)
                    };
                }
                // execz / execnz: this lane's view.
                let div = self.b.func.konst(act).is_none();
                self.exec_at_branch = Some(act);
                if code == op::S_CBRANCH_EXECZ {
                    (self.b.un(Un::BNot, act), div)
                } else {
                    (act, div)
                }
            }
        }
    }

    /// Whether every lane's VCC bit `bit` (a lane mask outside a compute
    /// shader, where no lane sees another's bit) answers the wave's
    /// `s_cbranch_vccz/vccnz` by itself: `Some(false)` when the bit is the
    /// same in every lane (built from constants, parameters and scalar
    /// loads: the wave's VCC is all ones or all zeros, so this lane's bit is
    /// the wave's "any bit set"); `Some(true)` when it is such a uniform
    /// value masked by the lanes active now (a `v_cmp` of uniform operands):
    /// every active lane holds the wave's answer and an inactive lane sees
    /// 0, so the branch is a per-lane one as `s_cbranch_execz` is (an
    /// inactive lane skips the region; the per-lane region checks apply).
    /// `None` when lanes may disagree.
    fn vcc_lane_uniform(&mut self, bit: Value) -> Option<bool> {
        if self.o.alu_faults.vcc_branch_any_mask {
            return Some(true);
        }
        if self.uniform(bit) {
            return Some(false);
        }
        let act = self.active();
        match self.b.func.inst(bit).op {
            crate::ir::Op::Bin(crate::ir::Bin::BAnd, a, u) if a == act && self.uniform(u) => {
                Some(true)
            }
            crate::ir::Op::Bin(crate::ir::Bin::BAnd, u, a) if a == act && self.uniform(u) => {
                Some(true)
            }
            _ => None,
        }
    }
}

/// Whether lane bit `x` implies lane bit `e` in every lane, by the
/// structure of the IR alone: `x` is `e`, false, an `and` with a side that
/// implies `e`, an `or` or a select whose every choice does, or a block
/// parameter every incoming value of which does (without going round a
/// cycle: a loop's parameter is proven only through what enters it from
/// outside the cycle, never by assuming itself); or `e` is an `and` of bits
/// `x` implies both of, or an `or` with one. Anything else is unproven.
///
/// This is what makes an EXEC raise inside a per-lane exec region sound:
/// when the new EXEC implies EXEC at the region's branch, every lane it
/// turns on was active there, so the translation has it inside the region
/// too (ACO's `s_andn2_b64 exec, s[saved], exec` for an `else`, `s_mov_b64
/// exec, s[saved]` after a nested `if`).
pub(crate) fn exec_bit_implies(f: &crate::ir::Func, x: Value, e: Value) -> bool {
    use crate::ir::{Op, Term, Tri};
    use std::collections::HashSet;
    struct Proof<'a> {
        f: &'a crate::ir::Func,
        steps: u32,
        open: HashSet<Value>,
    }
    impl Proof<'_> {
        fn incoming(&self, p: Value) -> Option<Vec<Value>> {
            let Op::BlockParam(blk, k) = self.f.inst(p).op else {
                return None;
            };
            let mut out = Vec::new();
            for b in &self.f.blocks {
                let edges = match &b.term {
                    Term::Jump(e) => vec![e],
                    Term::Branch { then, els, .. } => vec![then, els],
                    _ => vec![],
                };
                for ed in edges.into_iter().filter(|ed| ed.block == blk) {
                    out.push(*ed.args.get(k as usize)?);
                }
            }
            Some(out)
        }
        fn implies(&mut self, x: Value, e: Value) -> bool {
            if x == e || self.f.konst(x) == Some(0) {
                return true;
            }
            self.steps += 1;
            if self.steps > 4096 {
                return false;
            }
            let by_x = match self.f.inst(x).op {
                Op::Bin(Bin::BAnd, a, b) => self.implies(a, e) || self.implies(b, e),
                Op::Bin(Bin::BOr, a, b) => self.implies(a, e) && self.implies(b, e),
                Op::Tri(Tri::Select, _, a, b) => self.implies(a, e) && self.implies(b, e),
                Op::BlockParam(..) if self.open.insert(x) => {
                    let ok = self.incoming(x).is_some_and(|ins| {
                        !ins.is_empty() && ins.iter().all(|&a| self.implies(a, e))
                    });
                    self.open.remove(&x);
                    ok
                }
                _ => false,
            };
            by_x || match self.f.inst(e).op {
                Op::Bin(Bin::BAnd, p, q) => self.implies(x, p) && self.implies(x, q),
                Op::Bin(Bin::BOr, p, q) => self.implies(x, p) || self.implies(x, q),
                _ => false,
            }
        }
    }
    Proof {
        f,
        steps: 0,
        open: HashSet::new(),
    }
    .implies(x, e)
}
