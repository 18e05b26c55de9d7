//! Global memory (`global_load_*`, `global_store_*`, `global_atomic_*`) and
//! the read-modify-write of 32-bit atomics (global and buffer).
//!
//! # Addressing (gfx10 GLOBAL)
//!
//! With `saddr` an SGPR pair: `address = saddr + zext(vaddr[0]) + offset`;
//! with `saddr` = `off`: `address = vaddr[0..1] + offset`; `offset` is the
//! signed 12-bit immediate (64-bit arithmetic, then the 48-bit guest mask).
//! No range check: an address outside guest memory is an unmapped read
//! (a finding), a store there is recorded as it is.
//!
//! # Stores and atomics
//!
//! Guest memory is never written: stores are recorded as
//! [`crate::record::Store`]s. Atomics read the word as the dispatch's
//! earlier stores and atomics left it (an overlay of the recorded bytes
//! over guest memory, [`crate::exec::Observations`]) and record the new
//! word as a store. The hardware's order of one atomic's lanes, and of
//! waves, is not the interpreter's, so the new word is defined only for
//! the operations whose final result does not depend on that order (add,
//! sub, min, max, and, or, xor) and the returned old word is undefined.

use crate::exec::Exec;
use crate::memory::{read_bytes, ADDR_MASK};
use crate::ops::{DsAtomic, GlobalOp, VAtomic};
use crate::record::{Finding, InterpError};
use crate::valu::bits;
use crate::wave::Wave;
use isa::{Instruction, Modifiers, Operand, Slot, ValType};

impl Exec<'_, '_> {
    pub(crate) fn global(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: GlobalOp,
    ) -> Result<(), InterpError> {
        let Modifiers::Flat(m) = inst.mods else {
            return Err(self.unsupported("global instruction without its fields"));
        };
        if m.lds {
            return Err(self.unsupported("global loads to LDS are not modelled"));
        }
        let ops = inst.operands.as_slice();
        let dst = ops.iter().find(|s| s.is_def()).copied();
        let data = ops
            .iter()
            .find(|s| s.ty == ValType::Data && s.is_use() && !s.is_def())
            .copied();
        let mut addrs = ops.iter().filter(|s| s.ty == ValType::Addr);
        let Some(vaddr) = addrs.next().copied() else {
            return Err(self.unsupported("global instruction without an address"));
        };
        let Operand::Reg { code: vcode, .. } = vaddr.op else {
            return Err(self.unsupported("global address is not a VGPR"));
        };
        let vreg = (vcode as usize).wrapping_sub(256);
        // The SGPR base, when the instruction names one.
        let sbase = match addrs.next().map(|s| s.op) {
            Some(Operand::Reg { code, .. }) if code < 256 => {
                let lo = w.read_sreg(code);
                let hi = w.read_sreg(code + 1);
                Some((lo, hi))
            }
            _ => None,
        };
        let exec = self.active(w)?;
        let forget = |w: &mut Wave, lane: usize| {
            if let Some(Slot {
                op: Operand::Reg { code, count },
                ..
            }) = dst
            {
                for k in 0..count as usize {
                    w.forget_v((code as usize).wrapping_sub(256) + k, lane);
                }
            }
        };
        for lane in bits(exec) {
            let base = match sbase {
                Some((lo, hi)) => {
                    let (off, d) = w.read_v(vreg, lane);
                    if lo.def != u32::MAX || hi.def != u32::MAX || d != 0xf {
                        None
                    } else {
                        Some((u64::from(hi.v) << 32 | u64::from(lo.v)).wrapping_add(u64::from(off)))
                    }
                }
                None => {
                    let (lo, dl) = w.read_v(vreg, lane);
                    let (hi, dh) = w.read_v(vreg + 1, lane);
                    (dl == 0xf && dh == 0xf).then_some(u64::from(hi) << 32 | u64::from(lo))
                }
            };
            let Some(base) = base else {
                self.finding_addr(Some(lane as u8), "global address");
                forget(w, lane);
                continue;
            };
            let addr = base.wrapping_add(i64::from(m.offset) as u64) & ADDR_MASK;
            match op {
                GlobalOp::Load { bytes, signed } => {
                    let Some(Slot {
                        op: Operand::Reg { code, .. },
                        ..
                    }) = dst
                    else {
                        continue;
                    };
                    let reg = (code as usize).wrapping_sub(256);
                    let mut buf = [0u8; 16];
                    let n = usize::from(bytes).min(16);
                    let def = read_bytes(self.mem(), addr, &mut buf[..n]);
                    if !def {
                        self.obs.find(Finding::Unmapped {
                            pc: self.pc,
                            wave: self.wave_id,
                            addr,
                            len: u32::from(bytes),
                        });
                    }
                    let d = if def { 0xf } else { 0 };
                    if n >= 4 {
                        for k in 0..n / 4 {
                            let x = u32::from_le_bytes([
                                buf[4 * k],
                                buf[4 * k + 1],
                                buf[4 * k + 2],
                                buf[4 * k + 3],
                            ]);
                            w.write_v(reg + k, lane, x, d);
                        }
                    } else {
                        let x = match (n, signed) {
                            (1, false) => u32::from(buf[0]),
                            (1, true) => buf[0] as i8 as i32 as u32,
                            (_, false) => u32::from(u16::from_le_bytes([buf[0], buf[1]])),
                            (_, true) => u16::from_le_bytes([buf[0], buf[1]]) as i16 as i32 as u32,
                        };
                        w.write_v(reg, lane, x, d);
                    }
                }
                GlobalOp::Store { bytes } => {
                    let Some(Slot {
                        op: Operand::Reg { code, .. },
                        ..
                    }) = data
                    else {
                        continue;
                    };
                    let reg = (code as usize).wrapping_sub(256);
                    let mut at = 0u32;
                    while at < u32::from(bytes) {
                        let len = (u32::from(bytes) - at).min(4);
                        let (v, d) = w.read_v(reg + (at / 4) as usize, lane);
                        let mask = if len >= 4 { 0xf } else { (1u8 << len) - 1 };
                        self.store_bytes(
                            lane,
                            (addr + u64::from(at)) & ADDR_MASK,
                            len as u8,
                            v,
                            d & mask == mask,
                        );
                        at += len;
                    }
                }
                GlobalOp::Atomic { op } => {
                    self.atomic_rmw(w, op, data.as_ref(), lane, addr);
                    forget(w, lane);
                }
            }
        }
        Ok(())
    }

    /// Record `len` bytes of `value` stored at `addr` by `lane`, and keep
    /// them in the dispatch's overlay for later atomics.
    pub(crate) fn store_bytes(&mut self, lane: usize, addr: u64, len: u8, value: u32, def: bool) {
        self.obs.stores.push(crate::record::Store {
            pc: self.pc,
            wave: self.wave_id,
            lane: lane as u8,
            addr,
            len,
            value,
            defined: def,
            order_free: false,
        });
        for k in 0..u64::from(len) {
            self.obs
                .overlay
                .insert((addr + k) & ADDR_MASK, ((value >> (8 * k)) as u8, def));
        }
    }

    /// One lane's 32-bit atomic at `addr`: the old word from the overlay or
    /// guest memory, the new word recorded as a store.
    pub(crate) fn atomic_rmw(
        &mut self,
        w: &Wave,
        op: VAtomic,
        data: Option<&Slot>,
        lane: usize,
        addr: u64,
    ) {
        let Some(Operand::Reg { code, .. }) = data.map(|d| d.op) else {
            return;
        };
        if !addr.is_multiple_of(4) {
            self.obs.find(Finding::Unmodelled {
                pc: self.pc,
                wave: self.wave_id,
                what: format!("unaligned atomic at {addr:#x}"),
            });
            return;
        }
        let reg = (code as usize).wrapping_sub(256);
        let (x, xd) = w.read_v(reg, lane);
        let mut old = [0u8; 4];
        let mut odef = true;
        for (k, b) in old.iter_mut().enumerate() {
            let a = (addr + k as u64) & ADDR_MASK;
            match self.obs.overlay.get(&a) {
                Some(&(v, d)) => {
                    *b = v;
                    odef &= d;
                }
                None => {
                    let mut one = [0u8; 1];
                    if read_bytes(self.mem(), a, &mut one) {
                        *b = one[0];
                    } else {
                        odef = false;
                    }
                }
            }
        }
        let old = u32::from_le_bytes(old);
        let (new, order_free) = match op {
            VAtomic::Rmw(a) => (
                a.apply(old, x),
                !matches!(
                    a,
                    DsAtomic::Swap | DsAtomic::Rsub | DsAtomic::Inc | DsAtomic::Dec
                ),
            ),
            VAtomic::CmpSwap => {
                let (c, _) = w.read_v(reg + 1, lane);
                (if old == c { x } else { old }, false)
            }
        };
        let def = odef && xd == 0xf && order_free;
        self.store_bytes(lane, addr, 4, new, def);
        if let Some(s) = self.obs.stores.last_mut() {
            s.order_free = order_free;
        }
    }
}
