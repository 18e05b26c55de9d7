//! Compute shaders: global memory (`global_load_*`, `global_store_dword*`)
//! through the window, and 32-bit atomics (`buffer_atomic_*`,
//! `global_atomic_*`, the non-returning `ds_*` atomics) as SPIR-V atomics
//! on the window or the LDS array.
//!
//! A global address is a VGPR pair, or an SGPR pair plus a 32-bit VGPR
//! offset, plus the signed 12-bit immediate (64-bit arithmetic). Loads
//! read the window (0 outside it); stores and atomics act only on a
//! dword-aligned dword inside it. An atomic that returns gives the old
//! word (0 for an inactive lane or an address outside the window). An
//! LDS atomic sits between two workgroup barriers (the lock-step order of
//! a wave's LDS accesses, as for a read), so it needs uniform control
//! flow; a returning LDS atomic is refused: the hardware returns the
//! values of lane order, the host's atomics those of some order.

use super::Lifter;
use crate::ir::{AtomicOp, AtomicTarget, Effect, GlobalAddr, Load, Value};
use crate::Memory;
use isa::family::buf::BufMods;
use isa::{op, Instruction, MemKind, Modifiers, Opcode, Operand, Slot, ValType};

/// Why an atomic opcode outside [`vmem_atomic`] is refused.
const NOT_LIFTED: &str =
    "only 32-bit add, sub, min, max, and, or, xor, swap and cmpswap are (inc/dec wrap, float, 64-bit)";

/// The SPIR-V atomic of a 32-bit global or buffer atomic opcode.
fn vmem_atomic(code: Opcode) -> Option<AtomicOp> {
    Some(match code {
        op::GLOBAL_ATOMIC_ADD | op::BUFFER_ATOMIC_ADD => AtomicOp::Add,
        op::GLOBAL_ATOMIC_SUB | op::BUFFER_ATOMIC_SUB => AtomicOp::Sub,
        op::GLOBAL_ATOMIC_SMIN | op::BUFFER_ATOMIC_SMIN => AtomicOp::SMin,
        op::GLOBAL_ATOMIC_UMIN | op::BUFFER_ATOMIC_UMIN => AtomicOp::UMin,
        op::GLOBAL_ATOMIC_SMAX | op::BUFFER_ATOMIC_SMAX => AtomicOp::SMax,
        op::GLOBAL_ATOMIC_UMAX | op::BUFFER_ATOMIC_UMAX => AtomicOp::UMax,
        op::GLOBAL_ATOMIC_AND | op::BUFFER_ATOMIC_AND => AtomicOp::And,
        op::GLOBAL_ATOMIC_OR | op::BUFFER_ATOMIC_OR => AtomicOp::Or,
        op::GLOBAL_ATOMIC_XOR | op::BUFFER_ATOMIC_XOR => AtomicOp::Xor,
        op::GLOBAL_ATOMIC_SWAP | op::BUFFER_ATOMIC_SWAP => AtomicOp::Swap,
        op::GLOBAL_ATOMIC_CMPSWAP | op::BUFFER_ATOMIC_CMPSWAP => AtomicOp::CmpSwap,
        _ => return None,
    })
}

/// The SPIR-V atomic of a non-returning 32-bit LDS atomic, and of its
/// returning twin (`Some(true)`).
fn ds_atomic(code: Opcode) -> Option<(AtomicOp, bool)> {
    Some(match code {
        op::DS_ADD_U32 => (AtomicOp::Add, false),
        op::DS_SUB_U32 => (AtomicOp::Sub, false),
        op::DS_MIN_I32 => (AtomicOp::SMin, false),
        op::DS_MAX_I32 => (AtomicOp::SMax, false),
        op::DS_MIN_U32 => (AtomicOp::UMin, false),
        op::DS_MAX_U32 => (AtomicOp::UMax, false),
        op::DS_AND_B32 => (AtomicOp::And, false),
        op::DS_OR_B32 => (AtomicOp::Or, false),
        op::DS_XOR_B32 => (AtomicOp::Xor, false),
        op::DS_ADD_RTN_U32
        | op::DS_SUB_RTN_U32
        | op::DS_MIN_RTN_I32
        | op::DS_MAX_RTN_I32
        | op::DS_MIN_RTN_U32
        | op::DS_MAX_RTN_U32
        | op::DS_AND_RTN_B32
        | op::DS_OR_RTN_B32
        | op::DS_XOR_RTN_B32 => (AtomicOp::Add, true),
        _ => return None,
    })
}

impl Lifter<'_> {
    /// The value of VGPR `v[base + k]` named by a register slot.
    fn vreg_at(&self, s: &Slot, k: usize) -> Option<Value> {
        match s.op {
            Operand::Reg { code, .. } if code >= 256 => {
                self.st.v.get((code - 256) as usize + k).copied()
            }
            _ => None,
        }
    }

    /// The operation an atomic performs (the negative control's fault turns
    /// every read-modify-write into a swap).
    fn atomic_op(&self, op: AtomicOp) -> AtomicOp {
        if self.o.faults.atomic_as_swap && op != AtomicOp::CmpSwap {
            AtomicOp::Swap
        } else {
            op
        }
    }

    /// `global_*`: compute shaders; vertex shaders load only (through the
    /// window, which the host must make span every guest byte the pointers
    /// reach: [`crate::manifest::Manifest::global_reads`]).
    pub(super) fn global(&mut self, code: Opcode, inst: &Instruction) {
        let vertex_load =
            self.o.stage.is_vertex() && code.facts().mem.is_some_and(|m| m.kind == MemKind::Load);
        if self.o.compute.is_none() && !vertex_load {
            self.problem(Memory::GlobalOutsideCompute);
            return;
        }
        let Modifiers::Flat(m) = inst.mods else {
            self.problem(Memory::NoData);
            return;
        };
        let Some(mem) = code.facts().mem else {
            self.problem(Memory::FlatGlobalScratch);
            return;
        };
        if m.lds
            || mem.d16
            || mem.format
            || matches!(
                code,
                op::GLOBAL_LOAD_DWORD_ADDTID | op::GLOBAL_STORE_DWORD_ADDTID
            )
        {
            self.problem(Memory::FlatGlobalScratch);
            return;
        }
        let ops = inst.operands.as_slice();
        let def = ops.iter().find(|s| s.is_def()).copied();
        let mut addrs = ops.iter().filter(|s| s.ty == ValType::Addr);
        let data = ops
            .iter()
            .find(|s| s.ty == ValType::Data && s.is_use() && !s.is_def())
            .copied();
        let (Some(vaddr), saddr) = (addrs.next().copied(), addrs.next().copied()) else {
            self.problem(Memory::NoData);
            return;
        };
        let imm = if self.o.faults.global_ignores_offset {
            0
        } else {
            i32::from(m.offset)
        } + if self.o.faults.global_address_plus_dword {
            4
        } else {
            0
        };
        let addr = match saddr.map(|s| s.op) {
            Some(Operand::Reg { code: s, .. }) if s < 127 => {
                let Some(off) = self.vreg_at(&vaddr, 0) else {
                    self.problem(Memory::NoData);
                    return;
                };
                GlobalAddr {
                    lo: self.s_word(s as usize),
                    hi: self.s_word(s as usize + 1),
                    offset: Some(off),
                    imm,
                }
            }
            _ => {
                let (Some(lo), Some(hi)) = (self.vreg_at(&vaddr, 0), self.vreg_at(&vaddr, 1))
                else {
                    self.problem(Memory::NoData);
                    return;
                };
                GlobalAddr {
                    lo,
                    hi,
                    offset: None,
                    imm,
                }
            }
        };
        match mem.kind {
            MemKind::Load => {
                let Some(dst) = def else {
                    self.problem(Memory::NoData);
                    return;
                };
                let bytes = u32::from(mem.bytes);
                let words: Vec<Value> = (0..bytes.div_ceil(4))
                    .map(|k| {
                        self.b.load(Load::Global {
                            pc: self.pc,
                            addr,
                            dword: k as u8,
                        })
                    })
                    .collect();
                if bytes >= 4 {
                    for (k, w) in words.into_iter().enumerate() {
                        self.write_v(&dst, k as u8, w);
                    }
                } else {
                    let sh = self.const_u32(32 - 8 * bytes);
                    let t = self.b.bin(crate::ir::Bin::Shl, words[0], sh);
                    let kind = if mem.signed {
                        crate::ir::Bin::ShrA
                    } else {
                        crate::ir::Bin::ShrL
                    };
                    let r = self.b.bin(kind, t, sh);
                    self.write_v(&dst, 0, r);
                }
            }
            MemKind::Store if mem.bytes >= 4 && mem.bytes % 4 == 0 => {
                let Some(d) = data else {
                    self.problem(Memory::NoData);
                    return;
                };
                let cond = self.active();
                for k in 0..mem.bytes / 4 {
                    let Some(value) = self.vreg_at(&d, k as usize) else {
                        self.problem(Memory::NoData);
                        return;
                    };
                    self.b.effect(Effect::GlobalStore {
                        pc: self.pc,
                        addr,
                        dword: k,
                        value,
                        cond,
                    });
                }
            }
            MemKind::Store if matches!(mem.bytes, 1 | 2) => {
                let Some(v) = data.and_then(|d| self.vreg_at(&d, 0)) else {
                    self.problem(Memory::NoData);
                    return;
                };
                self.sub_dword_store(AtomicTarget::Global(addr), mem.bytes, mem.hi, v);
            }
            MemKind::Atomic { .. } => {
                let Some(aop) = vmem_atomic(code) else {
                    self.problem(Memory::Atomic(NOT_LIFTED));
                    return;
                };
                let (Some(d), returns) = (data, m.glc) else {
                    self.problem(Memory::NoData);
                    return;
                };
                self.atomic(AtomicTarget::Global(addr), aop, &d, def.filter(|_| returns));
            }
            _ => self.problem(Memory::BufferStore),
        }
    }

    /// `buffer_store_byte/short` in a compute shader, or `false` when the
    /// store is not one (`_d16_hi` forms stay refused).
    pub(super) fn buffer_sub_dword_store(
        &mut self,
        code: Opcode,
        inst: &Instruction,
        m: BufMods,
    ) -> bool {
        let Some(mem) = code.facts().mem else {
            return false;
        };
        if self.o.compute.is_none() || mem.format || mem.d16 || !matches!(mem.bytes, 1 | 2) {
            return false;
        }
        let ops = inst.operands.as_slice();
        let (Some(vdata), Some(vaddr), Some(srsrc), Some(soffset)) =
            (ops.first(), ops.get(1), ops.get(2), ops.get(3))
        else {
            return false;
        };
        let Operand::Reg { code: rcode, .. } = srsrc.op else {
            return false;
        };
        let Some(v) = self.vreg_at(vdata, 0) else {
            return false;
        };
        let access = self.buffer_access(rcode as usize, vaddr, soffset, m);
        self.sub_dword_store(AtomicTarget::Buffer(access), mem.bytes, mem.hi, v);
        true
    }

    /// The low (or, for `_d16_hi`, high) `bytes` of `v` stored under EXEC.
    fn sub_dword_store(&mut self, target: AtomicTarget, bytes: u8, hi: bool, v: Value) {
        let value = if hi {
            let k16 = self.const_u32(16);
            self.b.bin(crate::ir::Bin::ShrL, v, k16)
        } else {
            v
        };
        let cond = self.active();
        if self.o.faults.sub_dword_as_dword {
            match target {
                AtomicTarget::Buffer(access) => self.b.effect(Effect::Store {
                    access,
                    value,
                    cond,
                }),
                AtomicTarget::Global(addr) => self.b.effect(Effect::GlobalStore {
                    pc: self.pc,
                    addr,
                    dword: 0,
                    value,
                    cond,
                }),
                AtomicTarget::Lds(_) => return,
            };
            return;
        }
        self.b.effect(Effect::SubDwordStore {
            pc: self.pc,
            target,
            bytes,
            value,
            cond,
        });
    }

    /// The first dword's access of a MUBUF instruction with descriptor
    /// `s[rcode..]`, address VGPRs `vaddr` and SGPR offset `soffset`.
    fn buffer_access(
        &mut self,
        rcode: usize,
        vaddr: &isa::Slot,
        soffset: &isa::Slot,
        m: BufMods,
    ) -> crate::ir::BufferAccess {
        let (desc, index, voffset) = self.buffer_operands(rcode, vaddr, m);
        let soff = self.src(soffset);
        crate::ir::BufferAccess {
            pc: self.pc,
            desc,
            index,
            voffset,
            soffset: soff,
            imm: m.offset as u32,
            dword: 0,
            binding: None,
        }
    }

    /// `buffer_atomic_*` (compute shaders only): the address of a load.
    pub(super) fn buffer_atomic(&mut self, code: Opcode, inst: &Instruction, m: BufMods) {
        if self.o.compute.is_none() {
            self.problem(Memory::BufferAtomic);
            return;
        }
        let Some(aop) = vmem_atomic(code) else {
            self.problem(Memory::Atomic(NOT_LIFTED));
            return;
        };
        let ops = inst.operands.as_slice();
        let (Some(vdata), Some(vaddr), Some(srsrc), Some(soffset)) =
            (ops.first(), ops.get(1), ops.get(2), ops.get(3))
        else {
            self.problem(Memory::NoData);
            return;
        };
        let Operand::Reg { code: rcode, .. } = srsrc.op else {
            self.problem(Memory::NoData);
            return;
        };
        let access = self.buffer_access(rcode as usize, vaddr, soffset, m);
        let dst = (m.glc && vdata.is_def()).then_some(*vdata);
        self.atomic(AtomicTarget::Buffer(access), aop, vdata, dst);
    }

    /// A DS atomic (compute shaders), or `false` when `code` is none.
    pub(super) fn lds_atomic(&mut self, code: Opcode, inst: &Instruction, offset: u32) -> bool {
        let Some((aop, returns)) = ds_atomic(code) else {
            return false;
        };
        if returns {
            self.problem(Memory::Atomic(
                "the value a returning LDS atomic gives depends on lane order",
            ));
            return true;
        }
        let uses = super::srcs_of(inst);
        let (Some(addr), Some(d)) = (uses.first(), uses.get(1)) else {
            self.problem(crate::Lds::Access);
            return true;
        };
        let base = self.src(addr);
        let o = self.const_u32(offset);
        let a = self.b.add(base, o);
        let d = *d;
        // Lock-step order: the wave's earlier LDS writes land before the
        // atomic and its later accesses after it, as for a read.
        self.b.effect(Effect::Barrier { pc: self.pc });
        self.atomic(AtomicTarget::Lds(a), aop, &d, None);
        self.b.effect(Effect::Barrier { pc: self.pc });
        true
    }

    /// One atomic per lane under EXEC; `data` holds the operand (and, for
    /// a compare-swap, the compare value in its next dword); `dst` receives
    /// the old word.
    fn atomic(&mut self, target: AtomicTarget, aop: AtomicOp, data: &Slot, dst: Option<Slot>) {
        let Some(x) = self.vreg_at(data, 0) else {
            self.problem(Memory::NoData);
            return;
        };
        let cmp = if aop == AtomicOp::CmpSwap {
            let Some(c) = self.vreg_at(data, 1) else {
                self.problem(Memory::NoData);
                return;
            };
            Some(c)
        } else {
            None
        };
        let cond = self.active();
        let e = Effect::Atomic {
            pc: self.pc,
            target,
            op: self.atomic_op(aop),
            data: x,
            cmp,
            cond,
            returns: dst.is_some(),
        };
        match dst {
            Some(d) => {
                let v = self.b.effect_value(e);
                self.write_v(&d, 0, v);
            }
            None => {
                self.b.effect(e);
            }
        }
    }
}
