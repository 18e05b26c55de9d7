//! Compute shaders: the LDS as a workgroup array of dwords. Dword reads
//! and writes (`ds_read_b32`..`b128`, `ds_write_b32`..`b128`,
//! `ds_read2(st64)_b32`, `ds_write2(st64)_b32`) at `addr + offset`;
//! writes are per-lane effects under EXEC, reads are ordered between
//! barriers (so they need workgroup-uniform control flow). Byte and
//! 16-bit accesses (`ds_write_b8/b16` and their `_d16_hi` forms,
//! `ds_read_u8/i8/u16/i16` and their `_d16`/`_d16_hi` forms) are made of
//! byte accesses: a byte read is its dword's read, shifted; a byte write
//! clears and sets its bits atomically ([`Effect::LdsWriteByte`]).
//! 64-bit-element accesses, atomics, exchanges, append and GDS are
//! refused.

use super::Lifter;
use crate::ir::{Bin, Effect, LaneOp, Load, Value};
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
        if self.lds_sub_dword(code, inst, &m) {
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
        let uses = super::srcs_of(inst);
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

    /// Byte and 16-bit LDS accesses; false for any other opcode.
    fn lds_sub_dword(
        &mut self,
        code: Opcode,
        inst: &Instruction,
        m: &isa::family::ds::DsMods,
    ) -> bool {
        // (bytes, read, sign-extend, d16: None = whole VGPR, Some(hi) = one half)
        let (bytes, read, signed, d16) = match code {
            op::DS_WRITE_B8 => (1, false, false, Some(false)),
            op::DS_WRITE_B8_D16_HI => (1, false, false, Some(true)),
            op::DS_WRITE_B16 => (2, false, false, Some(false)),
            op::DS_WRITE_B16_D16_HI => (2, false, false, Some(true)),
            op::DS_READ_U8 => (1, true, false, None),
            op::DS_READ_I8 => (1, true, true, None),
            op::DS_READ_U16 => (2, true, false, None),
            op::DS_READ_I16 => (2, true, true, None),
            op::DS_READ_U8_D16 => (1, true, false, Some(false)),
            op::DS_READ_U8_D16_HI => (1, true, false, Some(true)),
            op::DS_READ_I8_D16 => (1, true, true, Some(false)),
            op::DS_READ_I8_D16_HI => (1, true, true, Some(true)),
            op::DS_READ_U16_D16 => (2, true, false, Some(false)),
            op::DS_READ_U16_D16_HI => (2, true, false, Some(true)),
            _ => return false,
        };
        let ops = inst.operands.as_slice();
        let def: Option<Slot> = ops.iter().find(|s| s.is_def()).copied();
        let uses = super::srcs_of(inst);
        let Some(addr) = uses.first() else {
            self.problem(Lds::Access);
            return true;
        };
        let base = self.src(addr);
        let offset = if self.o.faults.lds_ignores_offset {
            0
        } else {
            m.offset16() as u32
        };
        let k8 = self.const_u32(8);
        let k3 = self.const_u32(3);
        let kff = self.const_u32(0xff);
        if read {
            let Some(dst) = def else {
                self.problem(Lds::Access);
                return true;
            };
            let Operand::Reg { code: dcode, .. } = dst.op else {
                self.problem(Lds::Access);
                return true;
            };
            let mut x: Option<Value> = None;
            for k in 0..bytes {
                let o = self.const_u32(offset + k);
                let a = self.b.add(base, o);
                let w = self
                    .b
                    .load(Load::Lanes(self.pc, LaneOp::LdsRead { addr: a }));
                let low = self.b.bin(Bin::And, a, k3);
                let sh = self.b.bin(Bin::Shl, low, k3);
                let byte = self.b.bin(Bin::ShrL, w, sh);
                let byte = self.b.bin(Bin::And, byte, kff);
                x = Some(match x {
                    None => byte,
                    Some(prev) => {
                        let hi = self.b.bin(Bin::Shl, byte, k8);
                        self.b.bin(Bin::Or, prev, hi)
                    }
                });
            }
            let Some(mut x) = x else { return true };
            let bits = 8 * bytes;
            if signed {
                let s = self.const_u32(32 - bits);
                let t = self.b.bin(Bin::Shl, x, s);
                x = self.b.bin(Bin::ShrA, t, s);
            }
            let v = match d16 {
                None => x,
                Some(hi) => {
                    // The 16-bit result in one half, the other half kept.
                    let r = (dcode as usize).wrapping_sub(256);
                    let Some(&old) = self.st.v.get(r).filter(|_| dcode >= 256) else {
                        self.problem(Lds::Access);
                        return true;
                    };
                    let kffff = self.const_u32(0xffff);
                    let k16 = self.const_u32(16);
                    let h = self.b.bin(Bin::And, x, kffff);
                    if hi {
                        let keep = self.b.bin(Bin::And, old, kffff);
                        let h = self.b.bin(Bin::Shl, h, k16);
                        self.b.bin(Bin::Or, keep, h)
                    } else {
                        let km = self.const_u32(0xffff_0000);
                        let keep = self.b.bin(Bin::And, old, km);
                        self.b.bin(Bin::Or, keep, h)
                    }
                }
            };
            self.write_v(&dst, 0, v);
        } else {
            let Some(d) = uses.get(1) else {
                self.problem(Lds::Access);
                return true;
            };
            let data = self.src(d);
            let data = if d16 == Some(true) {
                let k16 = self.const_u32(16);
                self.b.bin(Bin::ShrL, data, k16)
            } else {
                data
            };
            let cond = self.active();
            for k in 0..bytes {
                let o = self.const_u32(offset + k);
                let a = self.b.add(base, o);
                let sh = self.const_u32(8 * k);
                let value = self.b.bin(Bin::ShrL, data, sh);
                self.b.effect(Effect::LdsWriteByte {
                    addr: a,
                    value,
                    cond,
                });
            }
        }
        true
    }
}
