//! Vector memory: MUBUF/MTBUF buffer accesses with the hardware's range
//! checks, LDS (DS) accesses, and exports.
//!
//! # Buffer addressing (gfx10, not swizzled)
//!
//! For an active lane, with `index` = the first address VGPR when `idxen`
//! (plus the lane id when the descriptor's ADD_TID_ENABLE is set) and
//! `offset` = the next address VGPR when `offen`, plus the instruction's
//! immediate offset (32-bit arithmetic):
//!
//! `address = base + soffset + index * stride + offset` (48 bits).
//!
//! Each piece of the access (a dword of a `dword*` load; the whole element
//! of a byte/short or format load) is range-checked by the descriptor's
//! OOB_SELECT; `soffset` takes no part in the check:
//!
//! | OOB_SELECT | out of range when |
//! |---|---|
//! | 0 (structured, offset checked) | `index >= num_records` or the piece's `offset >= stride` |
//! | 1 (structured) | `index >= num_records` |
//! | 2 (disabled) | never |
//! | 3 (raw) | `index * stride + offset + piece bytes > num_records` |
//!
//! An out-of-range piece reads 0 and is not an access; the in-range pieces
//! of a lane are recorded as [`BufferFetch`]es (one per contiguous run).
//! Swizzled descriptors are not modelled: such an access is a
//! [`Finding::Unmodelled`], not a fetch. Stores and atomics are recorded
//! as accesses and do not change guest memory (a store's bytes are
//! recorded as a [`crate::record::Store`], for `shaderlift run` to compare
//! compute dispatches); an atomic's returned value is undefined.

use crate::exec::Exec;
use crate::format::{dst_sel, Format};
use crate::memory::{read_bytes, ADDR_MASK};
use crate::ops::{BufOp, DsOp};
use crate::record::{AccessKind, BufferFetch, Export, Finding, InterpError};
use crate::valu::bits;
use crate::wave::{Wave, S32};
use isa::family::buf::{self, BufKind, BufMods};
use isa::{Instruction, Modifiers, Operand, Slot, ValType};

/// The fields of a buffer resource descriptor (V#) the interpreter uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vsharp {
    /// 48-bit base address.
    pub base: u64,
    /// Record stride in bytes (14 bits).
    pub stride: u32,
    /// SWIZZLE_ENABLE.
    pub swizzle: bool,
    /// NUM_RECORDS.
    pub num_records: u32,
    /// DST_SEL_X/Y/Z/W.
    pub dst_sel: [u8; 4],
    /// The unified buffer format (7 bits).
    pub format: u8,
    /// ADD_TID_ENABLE.
    pub add_tid: bool,
    /// OOB_SELECT.
    pub oob_select: u8,
}

impl Vsharp {
    /// Decode four descriptor words (gfx10 layout).
    pub fn decode(w: [u32; 4]) -> Vsharp {
        Vsharp {
            base: w[0] as u64 | ((w[1] as u64 & 0xffff) << 32),
            stride: (w[1] >> 16) & 0x3fff,
            swizzle: w[1] >> 31 != 0,
            num_records: w[2],
            dst_sel: [
                (w[3] & 7) as u8,
                ((w[3] >> 3) & 7) as u8,
                ((w[3] >> 6) & 7) as u8,
                ((w[3] >> 9) & 7) as u8,
            ],
            format: ((w[3] >> 12) & 0x7f) as u8,
            add_tid: (w[3] >> 23) & 1 != 0,
            oob_select: ((w[3] >> 28) & 3) as u8,
        }
    }

    /// Whether a piece of `bytes` at `offset` (within the record) of record
    /// `index` is in range.
    pub fn in_range(&self, index: u32, offset: u32, bytes: u32) -> bool {
        match self.oob_select {
            0 => index < self.num_records && offset < self.stride,
            1 => index < self.num_records,
            2 => true,
            _ => {
                index as u64 * self.stride as u64 + offset as u64 + bytes as u64
                    <= self.num_records as u64
            }
        }
    }
}

/// One piece of a lane's access: byte offset within the access, bytes.
#[derive(Clone, Copy)]
struct Piece {
    at: u32,
    bytes: u32,
}

impl Exec<'_, '_> {
    pub(crate) fn buffer(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: BufOp,
    ) -> Result<(), InterpError> {
        if op == BufOp::Nop {
            return Ok(());
        }
        let mods = match inst.mods {
            Modifiers::Buf(m) => m,
            _ => return Err(self.unsupported("buffer instruction without buffer fields")),
        };
        if mods.lds {
            return Err(self.unsupported("buffer loads to LDS are not modelled"));
        }
        let ops = &inst.operands;
        let has_data = ops.first().is_some_and(|s| s.ty == ValType::Data);
        let first = has_data as usize;
        let (Some(vaddr), Some(rsrc), Some(soff)) =
            (ops.get(first), ops.get(first + 1), ops.get(first + 2))
        else {
            return Err(self.unsupported("unexpected buffer operands"));
        };
        let data = if has_data { ops.first() } else { None };
        let exec = self.active(w)?;
        let kind = match op {
            BufOp::Load { .. } | BufOp::LoadFormat { .. } => AccessKind::Load,
            _ => match buf::access(inst.opcode, &mods).map(|a| a.kind) {
                Some(BufKind::Store) => AccessKind::Store,
                _ => AccessKind::Atomic,
            },
        };
        // Loads write vdata; atomics with glc return into it.
        let returns = matches!(kind, AccessKind::Load) || (kind == AccessKind::Atomic && mods.glc);
        let Operand::Reg { code: rcode, .. } = rsrc.op else {
            return Err(self.unsupported("descriptor is not a register"));
        };
        let words: Vec<S32> = (0..4).map(|i| w.read_sreg(rcode + i)).collect();
        let soffset = self.s32(w, soff)?;
        let forget_data =
            |x: &mut Self, w: &mut Wave, lanes: u64| x.forget(w, data, returns, lanes);
        if words.iter().any(|x| !x.is_defined()) || !soffset.is_defined() {
            if exec != 0 {
                let what = if soffset.is_defined() {
                    "descriptor"
                } else {
                    "soffset"
                };
                self.finding_addr(None, what);
            }
            forget_data(self, w, exec);
            return Ok(());
        }
        let desc = [words[0].v, words[1].v, words[2].v, words[3].v];
        let v = Vsharp::decode(desc);
        if v.swizzle {
            if exec != 0 {
                self.obs.find(Finding::Unmodelled {
                    pc: self.pc,
                    wave: self.wave_id,
                    what: "swizzled buffer descriptor".into(),
                });
            }
            forget_data(self, w, exec);
            return Ok(());
        }
        // The pieces of one lane's access, and the format of a typed load.
        let mut pieces: [Piece; 4] = [Piece { at: 0, bytes: 0 }; 4];
        let mut npieces = 0usize;
        let mut format: Option<Format> = None;
        match op {
            BufOp::Load { bytes, .. } => {
                if bytes >= 4 {
                    for i in 0..(bytes / 4) as u32 {
                        pieces[npieces] = Piece {
                            at: 4 * i,
                            bytes: 4,
                        };
                        npieces += 1;
                    }
                } else {
                    pieces[0] = Piece {
                        at: 0,
                        bytes: bytes as u32,
                    };
                    npieces = 1;
                }
            }
            BufOp::LoadFormat { typed, .. } => {
                let fnum = if typed { mods.format } else { v.format };
                let Some(f) = Format::of(fnum) else {
                    if exec != 0 {
                        self.obs.find(Finding::Unmodelled {
                            pc: self.pc,
                            wave: self.wave_id,
                            what: format!("buffer format {fnum}"),
                        });
                    }
                    forget_data(self, w, exec);
                    return Ok(());
                };
                pieces[0] = Piece {
                    at: 0,
                    bytes: f.bytes() as u32,
                };
                npieces = 1;
                format = Some(f);
            }
            _ => {
                let a = buf::access(inst.opcode, &mods);
                let b = a
                    .and_then(|a| a.bytes)
                    .unwrap_or_else(|| a.map_or(4, |a| a.max_bytes));
                if b >= 4 && b.is_multiple_of(4) {
                    for i in 0..b / 4 {
                        pieces[npieces] = Piece {
                            at: 4 * i,
                            bytes: 4,
                        };
                        npieces += 1;
                        if npieces == 4 {
                            break;
                        }
                    }
                } else {
                    pieces[0] = Piece {
                        at: 0,
                        bytes: b.max(1),
                    };
                    npieces = 1;
                }
            }
        }
        let (idx_reg, off_reg) = match vaddr.op {
            Operand::Reg { code, .. } if code >= 256 => {
                let r = (code - 256) as usize;
                (
                    mods.idxen.then_some(r),
                    mods.offen.then_some(r + mods.idxen as usize),
                )
            }
            _ => (None, None),
        };
        for lane in bits(exec) {
            let mut index = 0u32;
            let mut voff = 0u32;
            let mut ok = true;
            let mut what = "";
            if let Some(r) = idx_reg {
                let (x, d) = w.read_v(r, lane);
                index = x;
                if d != 0xf {
                    ok = false;
                    what = "index";
                }
            }
            if let Some(r) = off_reg {
                let (x, d) = w.read_v(r, lane);
                voff = x;
                if d != 0xf {
                    ok = false;
                    what = "offset";
                }
            }
            if !ok {
                let reg = match vaddr.op {
                    Operand::Reg { code, .. } => format!("{what} v{}", code.saturating_sub(256)),
                    _ => what.to_string(),
                };
                self.finding_addr(Some(lane as u8), &reg);
                self.forget(w, data, returns, 1 << lane);
                continue;
            }
            if v.add_tid {
                index = index.wrapping_add(lane as u32);
            }
            let offset = voff.wrapping_add(mods.offset as u32);
            let record = v.base + index as u64 * v.stride as u64;
            let mut loaded = [0u8; 16];
            let mut loaded_def = true;
            let mut run: Option<(u64, u32)> = None;
            for p in &pieces[..npieces] {
                let off = offset.wrapping_add(p.at);
                if !v.in_range(index, off, p.bytes) {
                    if let Some((a, l)) = run.take() {
                        self.push_fetch(lane, kind, desc, idxen_index(&mods, &v, index), a, l);
                    }
                    continue;
                }
                let addr = (record + soffset.v as u64 + off as u64) & ADDR_MASK;
                run = match run {
                    Some((a, l)) if (a + l as u64) & ADDR_MASK == addr => Some((a, l + p.bytes)),
                    Some((a, l)) => {
                        self.push_fetch(lane, kind, desc, idxen_index(&mods, &v, index), a, l);
                        Some((addr, p.bytes))
                    }
                    None => Some((addr, p.bytes)),
                };
                if kind == AccessKind::Store {
                    self.record_store(w, data, lane, p.at, p.bytes, addr);
                }
                if kind == AccessKind::Atomic && p.at == 0 {
                    if let Some(a) = crate::ops::vmem_atomic(inst.opcode) {
                        self.atomic_rmw(w, a, data, lane, addr);
                    }
                }
                if returns && kind == AccessKind::Load {
                    let dst = &mut loaded[p.at as usize..(p.at + p.bytes) as usize];
                    if !read_bytes(self.mem(), addr, dst) {
                        loaded_def = false;
                        self.obs.find(Finding::Unmapped {
                            pc: self.pc,
                            wave: self.wave_id,
                            addr,
                            len: p.bytes,
                        });
                    }
                }
            }
            if let Some((a, l)) = run.take() {
                self.push_fetch(lane, kind, desc, idxen_index(&mods, &v, index), a, l);
            }
            if !returns {
                continue;
            }
            let Some(d) = data else { continue };
            let Operand::Reg { code, count } = d.op else {
                continue;
            };
            let reg = (code - 256) as usize;
            if kind != AccessKind::Load {
                self.forget(w, data, true, 1 << lane);
                continue;
            }
            let vals: [u32; 4] = match (op, format) {
                (BufOp::Load { bytes, signed }, _) => {
                    if bytes >= 4 {
                        let mut v4 = [0u32; 4];
                        for (i, x) in v4.iter_mut().enumerate() {
                            *x = u32::from_le_bytes([
                                loaded[4 * i],
                                loaded[4 * i + 1],
                                loaded[4 * i + 2],
                                loaded[4 * i + 3],
                            ]);
                        }
                        v4
                    } else {
                        let x = match (bytes, signed) {
                            (1, false) => loaded[0] as u32,
                            (1, true) => loaded[0] as i8 as i32 as u32,
                            (_, false) => u16::from_le_bytes([loaded[0], loaded[1]]) as u32,
                            (_, true) => {
                                u16::from_le_bytes([loaded[0], loaded[1]]) as i16 as i32 as u32
                            }
                        };
                        [x, 0, 0, 0]
                    }
                }
                (BufOp::LoadFormat { typed, .. }, Some(f)) => {
                    let n = f.bytes();
                    let c = f.convert(&loaded[..n]);
                    if typed {
                        c
                    } else {
                        dst_sel(c, v.dst_sel, f.one())
                    }
                }
                _ => [0; 4],
            };
            let comps = match op {
                BufOp::LoadFormat { comps, .. } => comps as usize,
                BufOp::Load { bytes, .. } => (bytes as usize).div_ceil(4),
                _ => 0,
            };
            for (i, &x) in vals.iter().enumerate().take(comps.min(count as usize)) {
                w.write_v(reg + i, lane, x, if loaded_def { 0xf } else { 0 });
            }
            if mods.tfe && (count as usize) > comps {
                w.write_v(reg + comps, lane, 0, 0xf);
            }
        }
        Ok(())
    }

    /// Record the bytes one lane's store piece writes (`bytes` ≤ 4 at
    /// byte `at` of the data registers), with whether they are defined.
    fn record_store(
        &mut self,
        w: &Wave,
        data: Option<&Slot>,
        lane: usize,
        at: u32,
        bytes: u32,
        addr: u64,
    ) {
        let Some(Operand::Reg { code, .. }) = data.map(|d| d.op) else {
            return;
        };
        let reg = (code as usize).wrapping_sub(256) + (at / 4) as usize;
        let (value, def) = w.read_v(reg, lane);
        let shift = 8 * (at % 4);
        let mask = if bytes >= 4 { 0xf } else { (1u8 << bytes) - 1 };
        self.store_bytes(
            lane,
            addr,
            bytes.min(4) as u8,
            value >> shift,
            (def >> (at % 4)) & mask == mask,
        );
    }

    fn push_fetch(
        &mut self,
        lane: usize,
        kind: AccessKind,
        desc: [u32; 4],
        index: Option<u32>,
        addr: u64,
        len: u32,
    ) {
        self.obs.fetches.push(BufferFetch {
            pc: self.pc,
            wave: self.wave_id,
            lane: lane as u8,
            scalar: false,
            kind,
            descriptor: desc,
            index,
            addr,
            len,
        });
    }

    /// Make a data operand undefined in `lanes` (when the instruction
    /// writes it).
    fn forget(&self, w: &mut Wave, data: Option<&Slot>, writes: bool, lanes: u64) {
        if !writes {
            return;
        }
        if let Some(Slot {
            op: Operand::Reg { code, count },
            ..
        }) = data
        {
            for r in 0..*count as usize {
                for lane in bits(lanes) {
                    w.forget_v((*code as usize - 256) + r, lane);
                }
            }
        }
    }

    // ---- LDS ------------------------------------------------------------

    pub(crate) fn ds(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        op: DsOp,
    ) -> Result<(), InterpError> {
        if op == DsOp::Nop {
            return Ok(());
        }
        let mods = match inst.mods {
            Modifiers::Ds(m) => m,
            _ => return Err(self.unsupported("DS instruction without DS fields")),
        };
        if mods.gds {
            return Err(self.unsupported("GDS is not modelled"));
        }
        let exec = self.active(w)?;
        let mut dst: Option<usize> = None;
        let mut uses: [Option<usize>; 3] = [None; 3];
        let mut n = 0;
        for s in inst.operands.iter() {
            let Operand::Reg { code, .. } = s.op else {
                continue;
            };
            if code < 256 {
                return Err(self.unsupported("DS operand is not a VGPR"));
            }
            let r = (code - 256) as usize;
            if s.is_def() {
                dst = Some(r);
            } else if s.is_use() && n < 3 {
                uses[n] = Some(r);
                n += 1;
            }
        }
        let Some(addr_reg) = uses[0] else {
            return Err(self.unsupported("DS instruction without an address"));
        };
        let off16 = mods.offset16() as u32;
        let (o0, o1) = (mods.offset0 as u32, mods.offset1 as u32);
        for lane in bits(exec) {
            let (a, ad) = w.read_v(addr_reg, lane);
            if ad != 0xf {
                self.finding_addr(Some(lane as u8), &format!("LDS address v{addr_reg}"));
                if let Some(d) = dst {
                    let cnt = match op {
                        DsOp::Read { bytes, .. } => (bytes as usize).div_ceil(4),
                        DsOp::Read2 { bytes, .. } => 2 * bytes as usize / 4,
                        _ => 1,
                    };
                    for r in 0..cnt {
                        w.forget_v(d + r, lane);
                    }
                }
                continue;
            }
            match op {
                DsOp::Read { bytes, signed, d16 } => {
                    let Some(d) = dst else { continue };
                    let (v, def) = self.lds.read(a.wrapping_add(off16), bytes as usize);
                    match d16 {
                        0 => {
                            if bytes >= 4 {
                                for i in 0..(bytes as usize / 4) {
                                    let m = ((def >> (4 * i)) & 0xf) as u8;
                                    w.write_v(d + i, lane, (v >> (32 * i)) as u32, m);
                                }
                            } else {
                                let all = def == (1 << bytes) - 1;
                                let (x, m) = match (bytes, signed) {
                                    (1, false) => (v as u8 as u32, 0xe | def as u8 & 1),
                                    (1, true) => {
                                        (v as u8 as i8 as i32 as u32, if all { 0xf } else { 0 })
                                    }
                                    (_, false) => (v as u16 as u32, 0xc | def as u8 & 3),
                                    (_, true) => {
                                        (v as u16 as i16 as i32 as u32, if all { 0xf } else { 0 })
                                    }
                                };
                                w.write_v(d, lane, x, m);
                            }
                        }
                        _ => {
                            let x = match (bytes, signed) {
                                (1, false) => v as u8 as u16,
                                (1, true) => v as u8 as i8 as i16 as u16,
                                _ => v as u16,
                            };
                            let def = def == (1 << bytes) - 1;
                            if d16 == 1 {
                                w.write_v_lo16(d, lane, x, def);
                            } else {
                                w.write_v_hi16(d, lane, x, def);
                            }
                        }
                    }
                }
                DsOp::Read2 { bytes, st64 } => {
                    let Some(d) = dst else { continue };
                    let unit = bytes as u32 * if st64 { 64 } else { 1 };
                    for (k, o) in [o0, o1].into_iter().enumerate() {
                        let (v, def) = self.lds.read(a.wrapping_add(o * unit), bytes as usize);
                        for i in 0..(bytes as usize / 4) {
                            let r = d + k * (bytes as usize / 4) + i;
                            w.write_v(
                                r,
                                lane,
                                (v >> (32 * i)) as u32,
                                ((def >> (4 * i)) & 0xf) as u8,
                            );
                        }
                    }
                }
                DsOp::Write { bytes, hi } => {
                    let Some(d0) = uses[1] else { continue };
                    let (v, def) = gather(w, d0, lane, bytes as usize, hi);
                    self.lds
                        .write(a.wrapping_add(off16), bytes as usize, v, def);
                }
                DsOp::Write2 { bytes, st64 } => {
                    let (Some(d0), Some(d1)) = (uses[1], uses[2]) else {
                        continue;
                    };
                    let unit = bytes as u32 * if st64 { 64 } else { 1 };
                    let (v0, def0) = gather(w, d0, lane, bytes as usize, false);
                    let (v1, def1) = gather(w, d1, lane, bytes as usize, false);
                    self.lds
                        .write(a.wrapping_add(o0 * unit), bytes as usize, v0, def0);
                    self.lds
                        .write(a.wrapping_add(o1 * unit), bytes as usize, v1, def1);
                }
                DsOp::Atomic { op: aop, rtn } => {
                    let Some(d0) = uses[1] else { continue };
                    let at = a.wrapping_add(off16);
                    let (old, odef) = self.lds.read(at, 4);
                    let old = old as u32;
                    let (x, xd) = w.read_v(d0, lane);
                    let new = aop.apply(old, x);
                    let ok = odef == 0xf && xd == 0xf;
                    self.lds.write(at, 4, new as u128, if ok { 0xf } else { 0 });
                    if rtn {
                        if let Some(d) = dst {
                            w.write_v(d, lane, old, odef as u8);
                        }
                    }
                }
                DsOp::Nop => {}
            }
        }
        Ok(())
    }

    // ---- exports --------------------------------------------------------

    pub(crate) fn export(&mut self, w: &mut Wave, inst: &Instruction) -> Result<(), InterpError> {
        let m = match inst.mods {
            Modifiers::Exp(m) => m,
            _ => return Err(self.unsupported("export without export fields")),
        };
        let exec = self.active(w)?;
        let regs: Vec<Option<usize>> = inst
            .operands
            .iter()
            .take(4)
            .map(|s| match s.op {
                Operand::Reg { code, .. } if code >= 256 => Some((code - 256) as usize),
                _ => None,
            })
            .collect();
        for lane in bits(exec) {
            let mut values = [0u32; 4];
            let mut defined = 0u8;
            for (i, r) in regs.iter().enumerate() {
                let Some(r) = r else { continue };
                let (v, d) = w.read_v(*r, lane);
                values[i] = v;
                // With `compr` isa lists the sources as vsrc0, vsrc0,
                // vsrc1, vsrc1: source i is component i, enabled by bit i.
                let enabled = (m.en >> i) & 1 != 0;
                if enabled && d == 0xf {
                    defined |= 1 << i;
                }
            }
            self.obs.exports.push(Export {
                pc: self.pc,
                wave: self.wave_id,
                lane: lane as u8,
                target: m.target,
                en: m.en,
                compr: m.compr,
                done: m.done,
                values,
                defined,
            });
        }
        Ok(())
    }
}

/// The record index a fetch reports: the index when the instruction
/// indexes (or ADD_TID adds the lane).
fn idxen_index(mods: &BufMods, v: &Vsharp, index: u32) -> Option<u32> {
    (mods.idxen || v.add_tid).then_some(index)
}

/// `bytes` of data starting at VGPR `r` in one lane (`hi`: the high half of
/// the first VGPR, for `_d16_hi` stores), with its defined-byte mask.
fn gather(w: &Wave, r: usize, lane: usize, bytes: usize, hi: bool) -> (u128, u16) {
    let mut v = 0u128;
    let mut def = 0u16;
    for i in 0..bytes.div_ceil(4) {
        let (x, d) = w.read_v(r + i, lane);
        v |= (x as u128) << (32 * i);
        def |= (d as u16) << (4 * i);
    }
    if hi {
        v = (v >> 16) & 0xffff;
        def = (def >> 2) & 3;
    }
    (v, def & ((1u32 << bytes) - 1) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_fields_decode_from_the_gfx10_layout() {
        // base 0x8000_1234_5678, stride 32, 100 records, dst_sel xyzw,
        // format 77, oob 1.
        let w = [0x1234_5678, 0x0020_8000, 100, 0x1007_7fac];
        let v = Vsharp::decode(w);
        assert_eq!(v.base, 0x8000_1234_5678);
        assert_eq!(v.stride, 32);
        assert_eq!(v.num_records, 100);
        assert_eq!(v.dst_sel, [4, 5, 6, 7]);
        assert_eq!(v.format, 0x77);
        assert_eq!(v.oob_select, 1);
        assert!(!v.swizzle && !v.add_tid);
    }

    #[test]
    fn range_checks_follow_oob_select() {
        let mut v = Vsharp::decode([0, 16 << 16, 10, 0]);
        v.oob_select = 1;
        assert!(
            v.in_range(9, 100, 4),
            "idx only: offsets past the stride are fine"
        );
        assert!(!v.in_range(10, 0, 4));
        v.oob_select = 0;
        assert!(!v.in_range(9, 16, 4), "offset checked against the stride");
        assert!(v.in_range(9, 12, 4));
        v.oob_select = 3;
        v.stride = 0;
        assert!(v.in_range(0, 6, 4));
        assert!(!v.in_range(0, 7, 4), "raw: the dword must fit");
        v.oob_select = 2;
        assert!(v.in_range(u32::MAX, u32::MAX, 4));
    }
}
