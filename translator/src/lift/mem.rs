//! Memory: scalar loads (`s_load_*`, `s_buffer_load_*`) and buffer
//! instructions (MUBUF, MTBUF) through the descriptors they read.

use super::format::{Format, FormatFaults};
use super::support::{self, Support};
use super::Lifter;
use crate::ir::{Bin, BufferAccess, Effect, Load, Value};
use crate::{Lds, Memory, OpcodeClass};
use isa::family::buf::BufMods;
use isa::{op, Instruction, MemKind, MemUnit, Memory as MemFacts, Modifiers, Opcode, Operand};

impl Lifter<'_> {
    pub(super) fn smem(&mut self, code: Opcode, inst: &Instruction) {
        if matches!(code, op::S_DCACHE_INV | op::S_GL1_INV | op::S_DCACHE_WB) {
            return;
        }
        if support::smem(code) == Support::Unsupported {
            self.unhandled(OpcodeClass::ScalarMemory);
            return;
        }
        let buffer = match code {
            op::S_LOAD_DWORD
            | op::S_LOAD_DWORDX2
            | op::S_LOAD_DWORDX4
            | op::S_LOAD_DWORDX8
            | op::S_LOAD_DWORDX16 => false,
            op::S_BUFFER_LOAD_DWORD
            | op::S_BUFFER_LOAD_DWORDX2
            | op::S_BUFFER_LOAD_DWORDX4
            | op::S_BUFFER_LOAD_DWORDX8
            | op::S_BUFFER_LOAD_DWORDX16 => true,
            _ => {
                self.unhandled(OpcodeClass::ScalarMemory);
                return;
            }
        };
        let Some(addr) = isa::family::smem::SmemAddress::of(inst) else {
            self.problem(Memory::ScalarNoAddress);
            return;
        };
        let Some(&dst) = inst.operands.first() else {
            return;
        };
        let (dcode, count) = match dst.op {
            Operand::Reg { code, count } => (code, count),
            _ => return,
        };
        let soff = match addr.soffset {
            Some(Operand::Reg { code, .. }) => self.read_s32(code),
            Some(Operand::Literal(x)) => self.const_u32(x),
            _ => self.const_u32(0),
        };
        let base_code = match addr.base {
            Operand::Reg { code, .. } => code as usize,
            _ => return,
        };
        let mut words = Vec::with_capacity(count as usize);
        let binding = self.trace.and_then(|t| {
            t.accesses
                .iter()
                .find(|a| a.pc == self.pc)
                .and_then(|a| a.descriptor)
                .map(|d| d.0)
        });
        if buffer {
            let mut desc = [Value(0); 4];
            for (k, d) in desc.iter_mut().enumerate() {
                *d = self.s_word((base_code + k).min(127));
            }
            for k in 0..count {
                let imm = self.const_u32((addr.offset as u32).wrapping_add(4 * k as u32));
                let off = self.b.add(imm, soff);
                words.push(self.b.load(Load::ScalarBuf {
                    pc: self.pc,
                    desc,
                    offset: off,
                    binding,
                }));
            }
        } else {
            let lo = self.s_word(base_code);
            let hi = self.s_word((base_code + 1).min(127));
            for k in 0..count {
                let imm = self.const_u32((addr.offset as u32).wrapping_add(4 * k as u32));
                let off = self.b.add(imm, soff);
                words.push(self.b.load(Load::Scalar {
                    pc: self.pc,
                    lo,
                    hi,
                    offset: off,
                }));
            }
        }
        for (k, w) in words.into_iter().enumerate() {
            let r = dcode + k as u16;
            // A data tuple may run from s105 into vcc_lo/vcc_hi
            // (`isa::decode_hardware`); the fault leaves VCC unwritten.
            if self.o.alu_faults.smem_tuple_skips_vcc && dcode < 106 && r >= 106 {
                continue;
            }
            self.write_s(r, w);
        }
    }

    pub(super) fn buffer(&mut self, code: Opcode, inst: &Instruction) {
        if code == op::BUFFER_GL0_INV || code == op::BUFFER_GL1_INV {
            return;
        }
        let Modifiers::Buf(m) = inst.mods else {
            return;
        };
        let m: BufMods = m;
        if m.lds {
            self.problem(Lds::BufferLoad);
            return;
        }
        if m.tfe {
            self.problem(Memory::Tfe);
            return;
        }
        let ops = inst.operands.as_slice();
        if ops.len() < 4 {
            self.problem(Memory::NoData);
            return;
        }
        let (vdata, vaddr, srsrc, soffset) = (ops[0], ops[1], ops[2], ops[3]);
        // What is loaded: dwords straight, or a sub-dword extension.
        enum Kind {
            Dwords(u8),
            Sub {
                bytes: u8,
                signed: bool,
            },
            Format {
                comps: u8,
                format: Format,
                faults: FormatFaults,
            },
        }
        if support::buffer(code) == Support::Unsupported {
            self.unhandled(OpcodeClass::Buffer);
            return;
        }
        let f = code.facts();
        let kind = match code {
            op::BUFFER_LOAD_DWORD => Kind::Dwords(1),
            op::BUFFER_LOAD_DWORDX2 => Kind::Dwords(2),
            op::BUFFER_LOAD_DWORDX3 => Kind::Dwords(3),
            op::BUFFER_LOAD_DWORDX4 => Kind::Dwords(4),
            op::BUFFER_LOAD_UBYTE => Kind::Sub {
                bytes: 1,
                signed: false,
            },
            op::BUFFER_LOAD_SBYTE => Kind::Sub {
                bytes: 1,
                signed: true,
            },
            op::BUFFER_LOAD_USHORT => Kind::Sub {
                bytes: 2,
                signed: false,
            },
            op::BUFFER_LOAD_SSHORT => Kind::Sub {
                bytes: 2,
                signed: true,
            },
            _ if matches!(
                f.mem,
                Some(MemFacts {
                    unit: MemUnit::TypedBuffer,
                    kind: MemKind::Load,
                    format: true,
                    d16: false,
                    ..
                })
            ) =>
            {
                let comps = f.mem.map_or(0, |m| m.comps);
                let ff = FormatFaults {
                    name_order: self.o.alu_faults.format_name_order,
                    no_sign_extension: self.o.alu_faults.format_no_sign_extension,
                };
                let Some(format) = Format::of_with(m.format, ff) else {
                    self.problem(Memory::TypedFormat {
                        format: isa::family::buf::format_name(m.format).unwrap_or("").into(),
                    });
                    return;
                };
                Kind::Format {
                    comps,
                    format,
                    faults: ff,
                }
            }
            _ if matches!(
                f.mem,
                Some(MemFacts {
                    kind: MemKind::Load,
                    format: true,
                    ..
                })
            ) =>
            {
                self.problem(Memory::RuntimeFormat);
                return;
            }
            op::BUFFER_STORE_DWORD
            | op::BUFFER_STORE_DWORDX2
            | op::BUFFER_STORE_DWORDX3
            | op::BUFFER_STORE_DWORDX4
                if self.o.compute.is_some() =>
            {
                let n = match code {
                    op::BUFFER_STORE_DWORD => 1,
                    op::BUFFER_STORE_DWORDX2 => 2,
                    op::BUFFER_STORE_DWORDX3 => 3,
                    _ => 4,
                };
                self.store_dwords(n, &vdata, &vaddr, &srsrc, &soffset, m);
                return;
            }
            _ if matches!(
                f.mem,
                Some(MemFacts {
                    kind: MemKind::Store,
                    ..
                })
            ) =>
            {
                if !self.buffer_sub_dword_store(code, inst, m) {
                    self.problem(Memory::BufferStore);
                }
                return;
            }
            _ if matches!(
                f.mem,
                Some(MemFacts {
                    kind: MemKind::Atomic { .. },
                    ..
                })
            ) =>
            {
                self.buffer_atomic(code, inst, m);
                return;
            }
            _ => {
                self.unhandled(OpcodeClass::Buffer);
                return;
            }
        };
        let rcode = match srsrc.op {
            Operand::Reg { code, .. } => code as usize,
            _ => return,
        };
        let (desc, index, voffset) = self.buffer_operands(rcode, &vaddr, m);
        let soff = self.src(&soffset);
        let binding = self.trace.and_then(|t| {
            t.accesses
                .iter()
                .find(|a| a.pc == self.pc)
                .and_then(|a| a.descriptor)
                .map(|d| d.0)
        });
        let act = self.active();
        if self.o.checked {
            // Without a trace the binding is assigned later (by the
            // descriptor's resolved sources); u16::MAX until then.
            if let Some(ix) = index {
                self.b.effect(Effect::Check {
                    pc: self.pc,
                    binding: binding.unwrap_or(u16::MAX),
                    index: ix,
                    cond: act,
                });
            }
        }
        let pc = self.pc;
        let access = |l: &mut Self, dword: u8| {
            l.b.load(Load::Buffer(BufferAccess {
                pc,
                desc,
                index,
                voffset,
                soffset: soff,
                imm: m.offset as u32,
                dword,
                binding,
            }))
        };
        match kind {
            Kind::Dwords(n) => {
                for k in 0..n {
                    let w = access(self, k);
                    self.write_v(&vdata, k, w);
                }
            }
            Kind::Sub { bytes, signed } => {
                let w = access(self, 0);
                let sh = self.const_u32(32 - 8 * bytes as u32);
                let t = self.b.bin(Bin::Shl, w, sh);
                let r = self
                    .b
                    .bin(if signed { Bin::ShrA } else { Bin::ShrL }, t, sh);
                self.write_v(&vdata, 0, r);
            }
            Kind::Format {
                comps,
                format,
                faults,
            } => {
                // The element's dwords (a sub-dword element reads the
                // dword at its address and uses its low bytes), then the
                // format's conversion.
                let words: Vec<Value> = (0..format.bytes().div_ceil(4))
                    .map(|k| access(self, k as u8))
                    .collect();
                let vals = format.convert(&mut self.b, &words, faults);
                for (k, &w) in vals.iter().enumerate().take(comps as usize) {
                    self.write_v(&vdata, k as u8, w);
                }
            }
        }
    }
}

impl Lifter<'_> {
    /// A buffer instruction's descriptor words (from `s[rcode..rcode+3]`)
    /// and its index and offset VGPRs as `idxen`/`offen` select them.
    pub(super) fn buffer_operands(
        &mut self,
        rcode: usize,
        vaddr: &isa::Slot,
        m: BufMods,
    ) -> ([Value; 4], Option<Value>, Option<Value>) {
        let mut desc = [Value(0); 4];
        for (k, d) in desc.iter_mut().enumerate() {
            *d = self.s_word((rcode + k).min(127));
        }
        let (index, voffset) = match vaddr.op {
            Operand::Reg { code, .. } if code >= 256 => {
                let a = (code - 256) as usize;
                let v0 = self.st.v[a];
                let v1 = self.st.v[(a + 1).min(255)];
                match (m.idxen, m.offen) {
                    (true, true) => (Some(v0), Some(v1)),
                    (true, false) => (Some(v0), None),
                    (false, true) => (None, Some(v0)),
                    _ => (None, None),
                }
            }
            _ => (None, None),
        };
        (desc, index, voffset)
    }

    /// Compute shaders: `n` dword stores of one lane, under EXEC, through
    /// the window (the addressing and range check of a load).
    fn store_dwords(
        &mut self,
        n: u8,
        vdata: &isa::Slot,
        vaddr: &isa::Slot,
        srsrc: &isa::Slot,
        soffset: &isa::Slot,
        m: BufMods,
    ) {
        let rcode = match srsrc.op {
            Operand::Reg { code, .. } => code as usize,
            _ => {
                self.problem(Memory::NoData);
                return;
            }
        };
        let (desc, index, voffset) = self.buffer_operands(rcode, vaddr, m);
        let soff = self.src(soffset);
        let cond = self.active();
        let Operand::Reg { code: dcode, .. } = vdata.op else {
            self.problem(Memory::NoData);
            return;
        };
        for k in 0..n {
            let r = (dcode as usize).wrapping_sub(256) + k as usize;
            let value = match self.st.v.get(r) {
                Some(&v) if dcode >= 256 => v,
                _ => {
                    self.problem(Memory::NoData);
                    return;
                }
            };
            self.b.effect(Effect::Store {
                access: BufferAccess {
                    pc: self.pc,
                    desc,
                    index,
                    voffset,
                    soffset: soff,
                    imm: m.offset as u32,
                    dword: k,
                    binding: None,
                },
                value,
                cond,
            });
        }
    }
}
