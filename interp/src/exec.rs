//! The instruction loop, branches and scalar memory (the scalar ALU is in
//! [`crate::salu`], the vector ALU in [`crate::valu`]).

use crate::memory::{GuestMemory, Lds, ADDR_MASK};
use crate::ops::{Cond, Kind, SmemOp};
use crate::program::Program;
use crate::record::{BufferFetch, Export, Finding, InterpError, Message};
use crate::wave::{Status, Wave, S32, S64};
use isa::operand::{inline_b32, inline_b64, inline_f16, SRC_EXECZ, SRC_SCC, SRC_VCCZ, VCC_LO};
use isa::{Instruction, Modifiers, Operand, Slot, ValType};

/// Bounds on a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Instructions one wave may execute before the run is an error.
    pub max_steps: u64,
    /// Instructions all the waves of one run (a draw, a dispatch, a pixel
    /// scene) may execute together before the run is an error: the budget
    /// that bounds a draw's work whatever its size (each wave staying under
    /// `max_steps` is not enough when there are thousands of them).
    pub max_run_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000,
            max_run_steps: 64_000_000,
        }
    }
}

/// What the waves of a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Observations {
    /// Buffer accesses by active lanes (after range checks).
    pub fetches: Vec<BufferFetch>,
    /// Exports by active lanes.
    pub exports: Vec<Export>,
    /// Bytes buffer stores wrote, in program order (they do not change
    /// guest memory).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stores: Vec<crate::record::Store>,
    /// `s_sendmsg`s.
    pub messages: Vec<Message>,
    /// Undefined addresses, unmapped reads, unmodelled accesses: the first
    /// [`MAX_FINDINGS`] of a run.
    pub findings: Vec<Finding>,
    /// Findings past [`MAX_FINDINGS`], counted but not kept (a runaway loop
    /// must not hold gigabytes of them). A run that dropped any is never
    /// fully checked ([`crate::check_draw`] says so).
    #[serde(skip_serializing_if = "is_zero")]
    pub findings_dropped: u64,
    /// The bytes stores and atomics wrote, by guest address (and whether
    /// each is defined): what a later atomic reads (`crate::global`).
    #[serde(skip)]
    pub(crate) overlay: std::collections::BTreeMap<u64, (u8, bool)>,
    /// `s_load_dword*` through a pointer (not a descriptor): (pc, first
    /// byte, bytes), once per wave and instruction. What a run checks a
    /// descriptor table's reads against (the slots a host bound).
    #[serde(skip)]
    pub pointer_loads: Vec<(u32, u64, u32)>,
}

/// The most findings one run keeps.
pub const MAX_FINDINGS: usize = 4096;

fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl Observations {
    /// Empty.
    pub fn new() -> Observations {
        Observations::default()
    }
    /// Forget everything (keeps the allocations).
    pub fn clear(&mut self) {
        self.fetches.clear();
        self.exports.clear();
        self.stores.clear();
        self.overlay.clear();
        self.messages.clear();
        self.findings.clear();
        self.findings_dropped = 0;
        self.pointer_loads.clear();
    }

    /// Record a finding, or count it once [`MAX_FINDINGS`] are kept.
    pub fn find(&mut self, f: Finding) {
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(f);
        } else {
            self.findings_dropped += 1;
        }
    }
}

/// What every wave of a run shares: the code, guest memory, the bounds.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// The code.
    pub program: &'a Program,
    /// Guest memory.
    pub memory: &'a dyn GuestMemory,
    /// Bounds.
    pub limits: Limits,
    /// The guest address of the code's first byte: what `s_getpc_b64`
    /// counts from (0: offsets into the code).
    pub code_addr: u64,
    /// Instructions the run's waves have executed so far (checked against
    /// [`Limits::max_run_steps`]).
    pub run_steps: &'a std::cell::Cell<u64>,
}

/// Run one wave until it ends or reaches a barrier.
pub fn run_wave(
    env: &Env<'_>,
    wave: &mut Wave,
    wave_id: u32,
    lds: &mut Lds,
    obs: &mut Observations,
) -> Result<Status, InterpError> {
    if wave.status == Status::Barrier {
        wave.status = Status::Running;
    }
    let mut x = Exec {
        env,
        lds,
        obs,
        wave_id,
        pc: wave.pc,
    };
    // Debugging aid: INTERP_TRACE=1 prints every instruction a wave runs.
    let trace = std::env::var_os("INTERP_TRACE").is_some();
    while wave.status == Status::Running {
        if trace {
            let e = wave.exec();
            eprintln!(
                "w{wave_id} {:#06x} exec {:#x}/{:#x} scc {}{} {}",
                wave.pc,
                e.v,
                e.def,
                wave.scc as u8,
                if wave.scc_def { "" } else { "?" },
                env.program.text(wave.pc)
            );
        }
        if wave.steps >= env.limits.max_steps {
            return Err(InterpError::StepLimit {
                wave: wave_id,
                limit: env.limits.max_steps,
                pc: wave.pc,
            });
        }
        if env.run_steps.get() >= env.limits.max_run_steps {
            return Err(InterpError::RunStepLimit {
                wave: wave_id,
                limit: env.limits.max_run_steps,
                pc: wave.pc,
            });
        }
        wave.steps += 1;
        env.run_steps.set(env.run_steps.get() + 1);
        x.pc = wave.pc;
        let op = match env.program.slot(wave.pc) {
            Some(Ok(op)) => op,
            Some(Err(e)) => {
                return Err(InterpError::Undecodable {
                    pc: wave.pc,
                    error: e.to_string(),
                })
            }
            None => {
                return Err(InterpError::PcOutOfCode {
                    pc: wave.pc,
                    len: env.program.len(),
                })
            }
        };
        let next = wave.pc.wrapping_add(op.inst.len as u32);
        wave.pc = next;
        x.step(wave, &op.inst, op.kind, next)?;
    }
    Ok(wave.status)
}

/// One instruction's context.
pub(crate) struct Exec<'e, 'a> {
    pub(crate) env: &'e Env<'a>,
    pub(crate) lds: &'e mut Lds,
    pub(crate) obs: &'e mut Observations,
    pub(crate) wave_id: u32,
    pub(crate) pc: u32,
}

impl Exec<'_, '_> {
    pub(crate) fn text(&self) -> String {
        self.env.program.text(self.pc)
    }

    pub(crate) fn unsupported(&self, why: impl Into<String>) -> InterpError {
        InterpError::Unsupported {
            pc: self.pc,
            text: self.text(),
            why: why.into(),
        }
    }

    pub(crate) fn undefined(&self, what: impl Into<String>) -> InterpError {
        InterpError::UndefinedControl {
            pc: self.pc,
            text: self.text(),
            what: what.into(),
        }
    }

    pub(crate) fn mem(&self) -> &dyn GuestMemory {
        self.env.memory
    }

    fn step(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        kind: Kind,
        next: u32,
    ) -> Result<(), InterpError> {
        match kind {
            Kind::Nop => Ok(()),
            Kind::End => {
                w.status = Status::Ended;
                Ok(())
            }
            Kind::Barrier => {
                w.status = Status::Barrier;
                Ok(())
            }
            Kind::SendMsg => {
                let msg = match inst.mods {
                    Modifiers::Simm16(v) => v,
                    _ => 0,
                };
                let m0 = w.m0();
                self.obs.messages.push(Message {
                    pc: self.pc,
                    wave: self.wave_id,
                    msg,
                    m0: m0.v,
                    m0_defined: m0.is_defined(),
                });
                Ok(())
            }
            Kind::DenormMode => {
                if let Modifiers::Simm16(v) = inst.mods {
                    w.fp.flush_f32 = v & 3 != 3;
                    w.fp.flush_f16_f64 = (v >> 2) & 3 != 3;
                }
                Ok(())
            }
            Kind::Branch(c) => self.branch(w, inst, c, next),
            Kind::Salu(op) => self.salu(w, inst, op, next),
            Kind::Smem(op) => self.smem(w, inst, op),
            Kind::Valu(op) => self.valu(w, inst, op),
            Kind::Buf(op) => self.buffer(w, inst, op),
            Kind::Ds(op) => self.ds(w, inst, op),
            Kind::Global(op) => self.global(w, inst, op),
            Kind::Exp => self.export(w, inst),
            Kind::Interp => self.interp(w, inst),
            Kind::Image => self.image(w, inst),
            Kind::Unsupported(why) => Err(self.unsupported(why)),
        }
    }

    // ---- scalar operands ------------------------------------------------

    /// Read a 32-bit scalar source (SGPR-space register, constant,
    /// literal, immediate).
    pub(crate) fn s32(&self, w: &Wave, slot: &Slot) -> Result<S32, InterpError> {
        Ok(match slot.op {
            Operand::Reg { code, .. } => match code {
                0..=127 => w.read_sreg(code),
                SRC_VCCZ => {
                    let v = w.vcc();
                    let lanes = w.all_lanes();
                    if v.v & v.def & lanes != 0 {
                        S32::known(0)
                    } else if v.def & lanes == lanes {
                        S32::known(1)
                    } else {
                        S32 { v: 0, def: 0 }
                    }
                }
                SRC_EXECZ => {
                    let e = w.exec();
                    S32::known((e.v == 0) as u32)
                }
                SRC_SCC => S32 {
                    v: w.scc as u32,
                    def: if w.scc_def { u32::MAX } else { 0 },
                },
                _ => return Err(self.unsupported(format!("source register code {code}"))),
            },
            Operand::Inline(c) => {
                let v = if matches!(slot.ty, ValType::F16) {
                    inline_f16(c).map(|h| h as u32)
                } else {
                    inline_b32(c)
                };
                S32::known(v.unwrap_or(0))
            }
            Operand::Literal(v) => S32::known(v),
            Operand::Imm(i) => S32::known(i as u32),
            Operand::Off => S32::known(0),
        })
    }

    /// Read a 64-bit scalar source.
    pub(crate) fn s64(&self, w: &Wave, slot: &Slot) -> Result<S64, InterpError> {
        Ok(match slot.op {
            Operand::Reg { code, .. } if code < 127 => {
                S64::from_halves(w.read_sreg(code), w.read_sreg(code + 1))
            }
            // src_vccz/src_execz/src_scc: a 32-bit value, zero-extended.
            Operand::Reg { .. } => S64::from_halves(self.s32(w, slot)?, S32::known(0)),
            Operand::Inline(c) => S64::known(inline_b64(c).unwrap_or(0)),
            // A 32-bit literal of a 64-bit operand: zero-extended for
            // integers, the high half of a double (LLVM's reading).
            Operand::Literal(v) => {
                if matches!(slot.ty, ValType::F64) {
                    S64::known((v as u64) << 32)
                } else {
                    S64::known(v as u64)
                }
            }
            Operand::Imm(i) => S64::known(i as i64 as u64),
            Operand::Off => S64::known(0),
        })
    }

    /// Read a lane-mask source: one SGPR in wave32, a pair in wave64,
    /// whatever count the decoder gave the operand.
    pub(crate) fn smask(&self, w: &Wave, slot: &Slot) -> Result<S64, InterpError> {
        if w.wave64 {
            self.s64(w, slot)
        } else {
            Ok(S64::from_halves(self.s32(w, slot)?, S32::known(0)))
        }
    }

    /// Write a scalar destination of `width` dwords.
    pub(crate) fn sdst(&self, w: &mut Wave, slot: &Slot, v: S64, w64: bool) {
        if let Operand::Reg { code, .. } = slot.op {
            if code >= 128 {
                return;
            }
            if w64 {
                w.write_s64(code, v);
            } else {
                w.write_s32(code, v.lo());
            }
        }
    }

    /// Write a lane-mask destination (one SGPR in wave32).
    pub(crate) fn smask_dst(&self, w: &mut Wave, slot: &Slot, v: S64) {
        if let Operand::Reg { code, .. } = slot.op {
            if code < 128 {
                w.write_mask(code, v);
            }
        }
    }

    // ---- branches -------------------------------------------------------

    fn branch(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        c: Cond,
        next: u32,
    ) -> Result<(), InterpError> {
        let off = match inst.operands.first().map(|s| s.op) {
            Some(Operand::Imm(i)) => i,
            _ => match inst.mods {
                Modifiers::Simm16(v) => v as i16 as i32,
                _ => 0,
            },
        };
        let taken = match c {
            Cond::Always => true,
            Cond::Scc0 | Cond::Scc1 => {
                if !w.scc_def {
                    return Err(self.undefined("SCC"));
                }
                w.scc == (c == Cond::Scc1)
            }
            Cond::Vccz | Cond::Vccnz => {
                let v = w.vcc();
                let z = self.known_zero(v, w.all_lanes(), "VCC")?;
                z == (c == Cond::Vccz)
            }
            Cond::Execz | Cond::Execnz => {
                let e = w.exec();
                let z = self.known_zero(e, w.all_lanes(), "EXEC")?;
                z == (c == Cond::Execz)
            }
        };
        if taken {
            w.pc = next.wrapping_add((off as u32).wrapping_mul(4));
        }
        Ok(())
    }

    /// Whether a mask is zero over `lanes`, when that is known.
    fn known_zero(&self, m: S64, lanes: u64, what: &str) -> Result<bool, InterpError> {
        if m.v & m.def & lanes != 0 {
            return Ok(false);
        }
        if m.def & lanes == lanes {
            return Ok(true);
        }
        Err(self.undefined(what))
    }

    /// The exec mask of the wave, which must be defined to run a vector
    /// instruction.
    pub(crate) fn active(&self, w: &Wave) -> Result<u64, InterpError> {
        let e = w.exec();
        let lanes = w.all_lanes();
        if e.def & lanes != lanes {
            return Err(self.undefined("EXEC"));
        }
        Ok(e.v & lanes)
    }

    // ---- scalar ALU -----------------------------------------------------

    pub(crate) fn set_scc(&self, w: &mut Wave, v: bool, def: bool) {
        w.scc = v;
        w.scc_def = def;
    }

    // ---- scalar memory --------------------------------------------------

    fn smem(&mut self, w: &mut Wave, inst: &Instruction, op: SmemOp) -> Result<(), InterpError> {
        let (dwords, buffer) = match op {
            SmemOp::Nop => return Ok(()),
            SmemOp::Time => {
                if let Some(d) = inst.operands.first() {
                    self.sdst(w, d, S64 { v: 0, def: 0 }, true);
                }
                return Ok(());
            }
            SmemOp::Load { dwords } => (dwords, false),
            SmemOp::BufferLoad { dwords } => (dwords, true),
        };
        let ops = &inst.operands;
        let (Some(dst), Some(base), Some(soff)) = (ops.first(), ops.get(1), ops.get(2)) else {
            return Err(self.unsupported("unexpected operands"));
        };
        let imm = match inst.mods {
            Modifiers::Smem(m) => m.offset,
            _ => 0,
        };
        let soffset = self.s32(w, soff)?;
        let Operand::Reg { code: dcode, .. } = dst.op else {
            return Err(self.unsupported("unexpected destination"));
        };
        let Operand::Reg { code: bcode, .. } = base.op else {
            return Err(self.unsupported("unexpected base"));
        };
        let undefined_dst = |w: &mut Wave| {
            for i in 0..dwords as u16 {
                w.write_s32(dcode + i, S32 { v: 0, def: 0 });
            }
        };
        if !soffset.is_defined() {
            self.finding_addr(None, "soffset");
            undefined_dst(w);
            return Ok(());
        }
        let off = (imm as i64 + soffset.v as i64) as u64;
        if buffer {
            let d: Vec<S32> = (0..4).map(|i| w.read_sreg(bcode + i)).collect();
            if d.iter().any(|x| !x.is_defined()) {
                self.finding_addr(None, "buffer descriptor");
                undefined_dst(w);
                return Ok(());
            }
            let base = d[0].v as u64 | ((d[1].v as u64 & 0xffff) << 32);
            let stride = (d[1].v >> 16) & 0x3fff;
            let num = d[2].v as u64;
            let limit = if stride == 0 {
                num
            } else {
                num * stride as u64
            };
            let off = off & !3 & 0xffff_ffff;
            let desc = [d[0].v, d[1].v, d[2].v, d[3].v];
            let mut run: Option<(u64, u32)> = None;
            for i in 0..dwords as u64 {
                let o = off + 4 * i;
                let val = if o + 4 <= limit {
                    let a = (base + o) & ADDR_MASK;
                    run = match run {
                        Some((s, l)) if (s + l as u64) & ADDR_MASK == a => Some((s, l + 4)),
                        Some((s, l)) => {
                            self.scalar_fetch(desc, s, l);
                            Some((a, 4))
                        }
                        None => Some((a, 4)),
                    };
                    self.read_dword(a)
                } else {
                    S32::known(0)
                };
                w.write_s32(dcode + i as u16, val);
            }
            if let Some((s, l)) = run {
                self.scalar_fetch(desc, s, l);
            }
        } else {
            let p = S64::from_halves(w.read_sreg(bcode), w.read_sreg(bcode + 1));
            if !p.is_defined() {
                self.finding_addr(None, "address");
                undefined_dst(w);
                return Ok(());
            }
            let addr = p.v.wrapping_add(off) & !3;
            self.obs
                .pointer_loads
                .push((self.pc, addr & ADDR_MASK, 4 * dwords as u32));
            for i in 0..dwords as u64 {
                let val = self.read_dword((addr + 4 * i) & ADDR_MASK);
                w.write_s32(dcode + i as u16, val);
            }
        }
        Ok(())
    }

    /// Record an `s_buffer_load` access.
    fn scalar_fetch(&mut self, descriptor: [u32; 4], addr: u64, len: u32) {
        self.obs.fetches.push(BufferFetch {
            pc: self.pc,
            wave: self.wave_id,
            lane: 0,
            scalar: true,
            kind: crate::record::AccessKind::Load,
            descriptor,
            index: None,
            addr,
            len,
        });
    }

    /// A dword of guest memory; unmapped is an undefined value and a finding.
    pub(crate) fn read_dword(&mut self, addr: u64) -> S32 {
        match self.env.memory.read_u32(addr) {
            Some(v) => S32::known(v),
            None => {
                self.obs.find(Finding::Unmapped {
                    pc: self.pc,
                    wave: self.wave_id,
                    addr,
                    len: 4,
                });
                S32 { v: 0, def: 0 }
            }
        }
    }

    pub(crate) fn finding_addr(&mut self, lane: Option<u8>, what: &str) {
        self.obs.find(Finding::UndefinedAddress {
            pc: self.pc,
            wave: self.wave_id,
            lane,
            what: what.to_string(),
        });
    }
}

/// VCC's code, for instructions whose encoding implies it.
pub(crate) const VCC: u16 = VCC_LO;
