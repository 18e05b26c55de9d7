//! Compute shaders: the LDS as a workgroup array of dwords. Dword reads
//! and writes (`ds_read_b32`..`b128`, `ds_write_b32`..`b128`,
//! `ds_read2(st64)_b32`, `ds_write2(st64)_b32`) at `addr + offset`;
//! writes are per-lane effects under EXEC, reads are ordered between
//! barriers (so they need workgroup-uniform control flow). Sub-dword and
//! 64-bit-element accesses, atomics, exchanges, append and GDS are
//! refused.

use super::Lifter;
use crate::ir::{Effect, LaneOp, Load};
use crate::Lds;
use isa::{op, Instruction, Modifiers, Opcode, Operand, Slot};

impl Lifter<'_> {
    pub(super) fn lds(&mut self, code: Opcode, inst: &Instruction) {
        let Modifiers::Ds(m) = inst.mods else {
            self.problem(Lds::Access);
            return;
        };
        if m.gds {
            self.problem(Lds::Access);
            return;
        }
        // (dwords, read, two addresses, stride of offset0/offset1 in bytes)
        let (n, read, two, stride) = match code {
            op::DS_READ_B32 => (1, true, false, 0),
            op::DS_READ_B64 => (2, true, false, 0),
            op::DS_READ_B96 => (3, true, false, 0),
            op::DS_READ_B128 => (4, true, false, 0),
            op::DS_WRITE_B32 => (1, false, false, 0),
            op::DS_WRITE_B64 => (2, false, false, 0),
            op::DS_WRITE_B96 => (3, false, false, 0),
            op::DS_WRITE_B128 => (4, false, false, 0),
            op::DS_READ2_B32 => (1, true, true, 4),
            op::DS_READ2ST64_B32 => (1, true, true, 256),
            op::DS_WRITE2_B32 => (1, false, true, 4),
            op::DS_WRITE2ST64_B32 => (1, false, true, 256),
            _ if self.lds_atomic(code, inst, u32::from(m.offset16())) => return,
            _ => {
                self.problem(Lds::Access);
                return;
            }
        };
        let ops = inst.operands.as_slice();
        let def: Option<Slot> = ops.iter().find(|s| s.is_def()).copied();
        let uses: Vec<Slot> = ops
            .iter()
            .filter(|s| s.is_use() && !s.is_def())
            .copied()
            .collect();
        let Some(addr) = uses.first() else {
            self.problem(Lds::Access);
            return;
        };
        let base = self.src(addr);
        // Byte offsets of each dword written or read, and which data
        // operand (and its dword) each takes.
        let mut parts: Vec<(u32, usize, u8)> = Vec::new();
        let m = if self.o.faults.lds_ignores_offset {
            isa::family::ds::DsMods {
                offset0: 0,
                offset1: 0,
                ..m
            }
        } else {
            m
        };
        if two {
            parts.push((m.offset0 as u32 * stride, 1, 0));
            parts.push((m.offset1 as u32 * stride, 2, 0));
        } else {
            for k in 0..n {
                parts.push((m.offset16() as u32 + 4 * k as u32, 1, k));
            }
        }
        if read {
            let Some(dst) = def else {
                self.problem(Lds::Access);
                return;
            };
            let mut vals = Vec::new();
            for &(off, _, _) in &parts {
                let o = self.const_u32(off);
                let a = self.b.add(base, o);
                vals.push(
                    self.b
                        .load(Load::Lanes(self.pc, LaneOp::LdsRead { addr: a })),
                );
            }
            for (k, v) in vals.into_iter().enumerate() {
                self.write_v(&dst, k as u8, v);
            }
        } else {
            let cond = self.active();
            for &(off, data, k) in &parts {
                let Some(d) = uses.get(data) else {
                    self.problem(Lds::Access);
                    return;
                };
                let Operand::Reg { code, .. } = d.op else {
                    self.problem(Lds::Access);
                    return;
                };
                let r = (code as usize).wrapping_sub(256) + k as usize;
                let Some(&value) = self.st.v.get(r).filter(|_| code >= 256) else {
                    self.problem(Lds::Access);
                    return;
                };
                let o = self.const_u32(off);
                let a = self.b.add(base, o);
                self.b.effect(Effect::LdsWrite {
                    addr: a,
                    value,
                    cond,
                });
            }
        }
    }
}
