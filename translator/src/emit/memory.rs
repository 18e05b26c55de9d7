//! Memory: `read_window` and `read_bN` (a guest dword from the window or a
//! binding, falling back to the window), unaligned reads, buffer addressing
//! and range checks, loads, and the test-output stores. Every runtime-array
//! index is clamped with `OpArrayLength`.

use super::{EmitError, Emitter};
use crate::ir::{AtomicOp, AtomicTarget, BufferAccess, GlobalAddr, Input, Load, Value};
use spirv::{FunctionControl, SelectionControl, Word};

#[derive(Clone, Copy)]
pub(super) struct AccessBase {
    pub(super) lo: Word,
    pub(super) hi: Word,
    pub(super) in_range: Word,
    pub(super) raw: Word,
    pub(super) raw_off: Word,
    pub(super) nrec: Word,
    pub(super) disabled: Word,
}

impl Emitter<'_> {
    /// `read_window(lo, hi)` or `read_bN(lo, hi)`: a guest dword.
    pub(super) fn read_fn(&mut self, binding: Option<u16>) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let fid = self
            .b
            .begin_function(u, None, FunctionControl::NONE, self.t.fn_rd)?;
        let lo = self.b.function_parameter(u)?;
        let hi = self.b.function_parameter(u)?;
        self.b.begin_block(None)?;
        let (bnd, base_lo, base_hi, size) = match binding {
            None => match self.plan.window {
                Some(w) => w,
                None => return Err(EmitError("no window binding".into())),
            },
            Some(id) => {
                let s = self.plan.bindings[&id];
                (s.binding, s.base_lo, s.base_hi, s.size)
            }
        };
        let (rlo, hi_ok, lo_ok) = self.window_offset(lo, hi, base_lo, base_hi, size)?;
        let zero = self.const_u32(0);
        let inside = self.b.logical_and(bl, None, hi_ok, lo_ok)?;
        let two = self.const_u32(2);
        let idx = self.b.shift_right_logical(u, None, rlo, two)?;
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let in_arr = self.b.u_less_than(bl, None, idx, len)?;
        let safe = self.b.select(u, None, in_arr, idx, zero)?;
        let p = self
            .b
            .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
        let word = self.b.load(u, None, p, None, vec![])?;
        let ok = self.b.logical_and(bl, None, inside, in_arr)?;
        let r = match binding {
            None => self.b.select(u, None, ok, word, zero)?,
            Some(_) => match self.plan.window {
                Some(_) => {
                    let wf = self.read_fns[&None];
                    let other = self.b.function_call(u, None, wf, vec![lo, hi])?;
                    self.b.select(u, None, ok, word, other)?
                }
                None => self.b.select(u, None, ok, word, zero)?,
            },
        };
        self.b.ret_value(r)?;
        self.b.end_function()?;
        self.b.name(
            fid,
            match binding {
                None => "read_window".to_string(),
                Some(i) => format!("read_desc{i}"),
            },
        );
        self.read_fns.insert(binding, fid);
        Ok(fid)
    }

    /// 64-bit add of a u32 to a (lo, hi) pair.
    pub(super) fn add64(&mut self, lo: Word, hi: Word, x: Word) -> Result<(Word, Word), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        if self.const_val.get(&x) == Some(&0) {
            return Ok((lo, hi));
        }
        let l = self.b.i_add(u, None, lo, x)?;
        let carry = self.b.u_less_than(bl, None, l, lo)?;
        let one = self.const_u32(1);
        let zero = self.const_u32(0);
        let cw = self.b.select(u, None, carry, one, zero)?;
        let h = self.b.i_add(u, None, hi, cw)?;
        Ok((l, h))
    }

    pub(super) fn read(
        &mut self,
        binding: Option<u16>,
        lo: Word,
        hi: Word,
    ) -> Result<Word, EmitError> {
        let key = match binding {
            Some(b) if self.read_fns.contains_key(&Some(b)) => Some(b),
            _ => None,
        };
        let u = self.t.u32_;
        match self.read_fns.get(&key).copied() {
            Some(f) => Ok(self.b.function_call(u, None, f, vec![lo, hi])?),
            None => Ok(self.const_u32(0)),
        }
    }

    /// `read_u_X(lo, hi)`: a dword at any byte address (two aligned reads
    /// and a funnel shift when the address is not a multiple of 4).
    pub(super) fn unaligned_fn(&mut self, binding: Option<u16>) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let fid = self
            .b
            .begin_function(u, None, FunctionControl::NONE, self.t.fn_rd)?;
        let lo = self.b.function_parameter(u)?;
        let hi = self.b.function_parameter(u)?;
        self.b.begin_block(None)?;
        let three = self.const_u32(3);
        let nm = self.const_u32(!3);
        let sub = self.b.bitwise_and(u, None, lo, three)?;
        let alo = self.b.bitwise_and(u, None, lo, nm)?;
        let w0 = self.read(binding, alo, hi)?;
        let four = self.const_u32(4);
        let (nlo, nhi) = self.add64(alo, hi, four)?;
        let w1 = self.read(binding, nlo, nhi)?;
        let eight = self.const_u32(8);
        let sh = self.b.i_mul(u, None, sub, eight)?;
        let a = self.b.shift_right_logical(u, None, w0, sh)?;
        let thirty_two = self.const_u32(32);
        let rs = self.b.i_sub(u, None, thirty_two, sh)?;
        let m31 = self.const_u32(31);
        let rs = self.b.bitwise_and(u, None, rs, m31)?;
        let bpart = self.b.shift_left_logical(u, None, w1, rs)?;
        let comb = self.b.bitwise_or(u, None, a, bpart)?;
        let zero = self.const_u32(0);
        let aligned = self.b.i_equal(bl, None, sub, zero)?;
        let r = self.b.select(u, None, aligned, w0, comb)?;
        self.b.ret_value(r)?;
        self.b.end_function()?;
        self.b.name(
            fid,
            match binding {
                None => "read_window_unaligned".to_string(),
                Some(i) => format!("read_desc{i}_unaligned"),
            },
        );
        self.unaligned_fns.insert(binding, fid);
        Ok(fid)
    }

    /// A (possibly unaligned) dword at (lo, hi).
    pub(super) fn read_unaligned(
        &mut self,
        binding: Option<u16>,
        lo: Word,
        hi: Word,
    ) -> Result<Word, EmitError> {
        let key = match binding {
            Some(b) if self.unaligned_fns.contains_key(&Some(b)) => Some(b),
            _ => None,
        };
        match self.unaligned_fns.get(&key).copied() {
            Some(f) => Ok(self.b.function_call(self.t.u32_, None, f, vec![lo, hi])?),
            None => Ok(self.const_u32(0)),
        }
    }

    /// Address and range facts of a buffer access, shared by its dwords.
    pub(super) fn access_base(&mut self, a: &BufferAccess) -> Result<AccessBase, EmitError> {
        if let Some(x) = self.access_cache.get(&a.pc) {
            return Ok(*x);
        }
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let w: Vec<Word> = a.desc.iter().map(|v| self.vals[v.0 as usize]).collect();
        let zero = self.const_u32(0);
        let m16 = self.const_u32(0xffff);
        let s16 = self.const_u32(16);
        let m14 = self.const_u32(0x3fff);
        let base_hi = self.b.bitwise_and(u, None, w[1], m16)?;
        let st0 = self.b.shift_right_logical(u, None, w[1], s16)?;
        let stride = self.b.bitwise_and(u, None, st0, m14)?;
        let nrec = w[2];
        let s28 = self.const_u32(28);
        let three = self.const_u32(3);
        let o0 = self.b.shift_right_logical(u, None, w[3], s28)?;
        let oob = self.b.bitwise_and(u, None, o0, three)?;
        let index = match a.index {
            Some(v) => self.vals[v.0 as usize],
            None => zero,
        };
        let voff = match a.voffset {
            Some(v) => self.vals[v.0 as usize],
            None => zero,
        };
        let imm = self.const_u32(a.imm);
        let off = self.iadd(voff, imm)?;
        // index × stride as a 64-bit value (stride < 2^14).
        let plo = self.b.i_mul(u, None, index, stride)?;
        let phi = self.mul_hi_u(index, stride)?;
        let (l, h) = self.add64(w[0], base_hi, plo)?;
        let h = self.b.i_add(u, None, h, phi)?;
        let (l, h) = self.add64(l, h, off)?;
        let soff = self.vals[a.soffset.0 as usize];
        let (l, h) = self.add64(l, h, soff)?;
        // Range classes.
        let two = self.const_u32(2);
        let stride0 = self.b.i_equal(bl, None, stride, zero)?;
        let oob3 = self.b.i_equal(bl, None, oob, three)?;
        let raw = self.b.logical_or(bl, None, stride0, oob3)?;
        let disabled = self.b.i_equal(bl, None, oob, two)?;
        let idx_ok = self.b.u_less_than(bl, None, index, nrec)?;
        let oob0 = self.b.i_equal(bl, None, oob, zero)?;
        let off_ok = self.b.u_less_than(bl, None, off, stride)?;
        let not0 = self.b.logical_not(bl, None, oob0)?;
        let off_ok = self.b.logical_or(bl, None, not0, off_ok)?;
        let structured_ok = self.b.logical_and(bl, None, idx_ok, off_ok)?;
        let raw_off = self.iadd(plo, off)?;
        let r = AccessBase {
            lo: l,
            hi: h,
            in_range: structured_ok,
            raw,
            raw_off,
            nrec,
            disabled,
        };
        self.access_cache.insert(a.pc, r);
        Ok(r)
    }

    pub(super) fn buffer_addr(
        &mut self,
        a: &BufferAccess,
    ) -> Result<(Word, Word, Word), EmitError> {
        self.buffer_addr_n(a, 4)
    }

    /// [`Self::buffer_addr`] of a piece of `n` bytes (a raw descriptor's
    /// range check takes the whole piece).
    fn buffer_addr_n(&mut self, a: &BufferAccess, n: u32) -> Result<(Word, Word, Word), EmitError> {
        let bl = self.t.bool_;
        let base = self.access_base(a)?;
        let k4 = self.const_u32(4 * a.dword as u32);
        let (lo, hi) = self.add64(base.lo, base.hi, k4)?;
        let ro = self.iadd(base.raw_off, k4)?;
        // Raw: the whole dword must fit below num_records bytes (a dword
        // that straddles the limit reads 0, as the interpreter has it):
        // ro < nrec and nrec − ro ≥ 4, without overflow.
        let starts = self.b.u_less_than(bl, None, ro, base.nrec)?;
        let room = self.b.i_sub(self.t.u32_, None, base.nrec, ro)?;
        let four = self.const_u32(n);
        let fits = self.b.u_greater_than_equal(bl, None, room, four)?;
        let raw_ok = self.b.logical_and(bl, None, starts, fits)?;
        let chk = self.b.select(bl, None, base.raw, raw_ok, base.in_range)?;
        let ok = self.b.logical_or(bl, None, base.disabled, chk)?;
        Ok((lo, hi, ok))
    }

    pub(super) fn load(&mut self, l: &Load) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        match *l {
            Load::Scalar { lo, hi, offset, .. } => {
                let (lo, hi, off) = (
                    self.vals[lo.0 as usize],
                    self.vals[hi.0 as usize],
                    self.vals[offset.0 as usize],
                );
                let (l, h) = self.add64(lo, hi, off)?;
                let nm = self.const_u32(!3);
                let l = self.b.bitwise_and(u, None, l, nm)?;
                self.read(None, l, h)
            }
            Load::ScalarBuf {
                desc,
                offset,
                binding,
                ..
            } => {
                let w: Vec<Word> = desc.iter().map(|v| self.vals[v.0 as usize]).collect();
                let off = self.vals[offset.0 as usize];
                let m16 = self.const_u32(0xffff);
                let s16 = self.const_u32(16);
                let m14 = self.const_u32(0x3fff);
                let zero = self.const_u32(0);
                let nm = self.const_u32(!3);
                let base_hi = self.b.bitwise_and(u, None, w[1], m16)?;
                let st0 = self.b.shift_right_logical(u, None, w[1], s16)?;
                let stride = self.b.bitwise_and(u, None, st0, m14)?;
                let (l, h) = self.add64(w[0], base_hi, off)?;
                let l = self.b.bitwise_and(u, None, l, nm)?;
                // limit = stride ? num_records × stride : num_records
                let lim_lo = self.b.i_mul(u, None, w[2], stride)?;
                let lim_hi = self.mul_hi_u(w[2], stride)?;
                let s0 = self.b.i_equal(bl, None, stride, zero)?;
                let lim_lo = self.b.select(u, None, s0, w[2], lim_lo)?;
                let lim_hi = self.b.select(u, None, s0, zero, lim_hi)?;
                // in range: offset + 4 <= limit  (as 64-bit)
                let four = self.const_u32(4);
                let (el, eh) = self.add64(off, zero, four)?;
                let hi_lt = self.b.u_less_than(bl, None, eh, lim_hi)?;
                let hi_eq = self.b.i_equal(bl, None, eh, lim_hi)?;
                let lo_le = self.b.u_less_than_equal(bl, None, el, lim_lo)?;
                let eq_ok = self.b.logical_and(bl, None, hi_eq, lo_le)?;
                let ok = self.b.logical_or(bl, None, hi_lt, eq_ok)?;
                let word = self.read(binding, l, h)?;
                Ok(self.b.select(u, None, ok, word, zero)?)
            }
            Load::Lanes(_, crate::ir::LaneOp::Quad { value, perm }) => self.quad_op(value, perm),
            Load::Lanes(_, op) => self.lane_op(&op),
            Load::Global { addr, dword, .. } => {
                let (lo, hi) = self.global_addr(&addr, dword)?;
                self.read_unaligned(None, lo, hi)
            }
            Load::Image { op, comp } => self.image_component(op, comp),
            Load::NggList { word } => self.ngg_list_word(word),
            Load::Buffer(a) => {
                let (lo, hi, ok) = self.buffer_addr(&a)?;
                let word = self.read_unaligned(a.binding, lo, hi)?;
                let zero = self.const_u32(0);
                Ok(self.b.select(u, None, ok, word, zero)?)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn test_store(
        &mut self,
        bnd: u32,
        first: u32,
        count: u32,
        n: u32,
        slot: u32,
        values: &[Option<Value>; 4],
        c: Word,
    ) -> Result<(), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let rec = if self.plan.fragment {
            // One record per pixel: y · width + x (`count` holds the width).
            let width = self.push_load(count)?;
            self.fragment_record(width)?
        } else {
            let vid = self.input(Input::VertexId)?;
            let iid = self.input(Input::InstanceId)?;
            let fv = self.push_load(first)?;
            let vc = self.push_load(count)?;
            let rel = self.b.i_sub(u, None, vid, fv)?;
            let im = self.b.i_mul(u, None, iid, vc)?;
            self.b.i_add(u, None, rel, im)?
        };
        let per = self.const_u32(4 * n);
        let base = self.b.i_mul(u, None, rec, per)?;
        let so = self.const_u32(4 * slot);
        let base = self.b.i_add(u, None, base, so)?;
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let three = self.const_u32(3);
        let end = self.b.i_add(u, None, base, three)?;
        let fits = self.b.u_less_than(bl, None, end, len)?;
        // No wrap-around: base + 3 must not overflow.
        let nowrap = self.b.u_less_than(bl, None, base, end)?;
        let fits = self.b.logical_and(bl, None, fits, nowrap)?;
        let doit = self.b.logical_and(bl, None, fits, c)?;
        let lm = self.begin_if(doit)?;
        let zero = self.const_u32(0);
        for (i, x) in values.iter().enumerate() {
            if let Some(v) = x {
                let k = self.const_u32(i as u32);
                let idx = self.b.i_add(u, None, base, k)?;
                let p = self
                    .b
                    .access_chain(self.t.p_sb_u32, None, var, vec![zero, idx])?;
                let bits = self.vals[v.0 as usize];
                self.b.store(p, bits, None, vec![])?;
            }
        }
        self.end_if(lm)?;
        Ok(())
    }
}

impl Emitter<'_> {
    /// The address `hi:lo` relative to a binding whose base and size are
    /// the push members `base_lo`, `base_hi` and `size`: the low word of the
    /// 64-bit difference, whether its high word is 0, and whether the low
    /// word is below the size (both: the address is inside).
    fn window_offset(
        &mut self,
        lo: Word,
        hi: Word,
        base_lo: u32,
        base_hi: u32,
        size: u32,
    ) -> Result<(Word, Word, Word), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let blo = self.push_load(base_lo)?;
        let bhi = self.push_load(base_hi)?;
        let size = self.push_load(size)?;
        // rel = addr - base (64-bit)
        let rlo = self.b.i_sub(u, None, lo, blo)?;
        let borrow = self.b.u_less_than(bl, None, lo, blo)?;
        let one = self.const_u32(1);
        let zero = self.const_u32(0);
        let bw = self.b.select(u, None, borrow, one, zero)?;
        let rhi0 = self.b.i_sub(u, None, hi, bhi)?;
        let rhi = self.b.i_sub(u, None, rhi0, bw)?;
        let hi_ok = self.b.i_equal(bl, None, rhi, zero)?;
        let lo_ok = self.b.u_less_than(bl, None, rlo, size)?;
        Ok((rlo, hi_ok, lo_ok))
    }

    /// A compute shader's dword store: when this lane is active (`cond`),
    /// the access is in range, its address is dword-aligned and inside the
    /// window, the word goes to the window (index clamped by
    /// `OpArrayLength`). Anything else stores nothing.
    pub(super) fn store(
        &mut self,
        a: &BufferAccess,
        value: Value,
        cond: Value,
    ) -> Result<(), EmitError> {
        let (lo, hi, ok) = self.buffer_addr(a)?;
        self.store_at(lo, hi, Some(ok), value, cond)
    }

    /// A compute shader's global store of one dword (as [`Self::store`],
    /// without a descriptor's range check).
    pub(super) fn global_store(
        &mut self,
        a: &GlobalAddr,
        dword: u8,
        value: Value,
        cond: Value,
    ) -> Result<(), EmitError> {
        let (lo, hi) = self.global_addr(a, dword)?;
        self.store_at(lo, hi, None, value, cond)
    }

    /// The window index of the dword at `hi:lo` and whether an access
    /// there is performed: `cond`, `ok`, inside the window, dword-aligned
    /// and within the array.
    fn window_dword(
        &mut self,
        lo: Word,
        hi: Word,
        ok: Option<Word>,
        cond: Word,
    ) -> Result<(Word, Word, Word), EmitError> {
        let Some((bnd, base_lo, base_hi, size)) = self.plan.window else {
            return Err(EmitError("a store without a window binding".into()));
        };
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let (rlo, hi_ok, lo_ok) = self.window_offset(lo, hi, base_lo, base_hi, size)?;
        let zero = self.const_u32(0);
        let three = self.const_u32(3);
        let sub = self.b.bitwise_and(u, None, rlo, three)?;
        let aligned = self.b.i_equal(bl, None, sub, zero)?;
        let two = self.const_u32(2);
        let idx = self.b.shift_right_logical(u, None, rlo, two)?;
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let in_arr = self.b.u_less_than(bl, None, idx, len)?;
        let mut doit = cond;
        for x in ok.into_iter().chain([hi_ok, lo_ok, aligned, in_arr]) {
            doit = self.b.logical_and(bl, None, doit, x)?;
        }
        Ok((var, idx, doit))
    }

    /// `hi:lo` + the zero-extended offset + the signed immediate + 4 ×
    /// `dword` (64-bit).
    pub(super) fn global_addr(
        &mut self,
        a: &GlobalAddr,
        dword: u8,
    ) -> Result<(Word, Word), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let (mut lo, mut hi) = (self.vals[a.lo.0 as usize], self.vals[a.hi.0 as usize]);
        if let Some(o) = a.offset {
            let o = self.vals[o.0 as usize];
            (lo, hi) = self.add64(lo, hi, o)?;
        }
        let k = i64::from(a.imm) + 4 * i64::from(dword);
        if k >= 0 {
            let c = self.const_u32(k as u32);
            self.add64(lo, hi, c)
        } else {
            let c = self.const_u32(k.unsigned_abs() as u32);
            let l = self.b.i_sub(u, None, lo, c)?;
            let borrow = self.b.u_less_than(bl, None, lo, c)?;
            let one = self.const_u32(1);
            let zero = self.const_u32(0);
            let bw = self.b.select(u, None, borrow, one, zero)?;
            let h = self.b.i_sub(u, None, hi, bw)?;
            Ok((l, h))
        }
    }

    /// A dword store at `hi:lo` when this lane is active (`cond`), `ok`
    /// (the descriptor's range check), the address is dword-aligned and
    /// inside the window (index clamped by `OpArrayLength`). Anything else
    /// stores nothing.
    fn store_at(
        &mut self,
        lo: Word,
        hi: Word,
        ok: Option<Word>,
        value: Value,
        cond: Value,
    ) -> Result<(), EmitError> {
        let c = self.vals[cond.0 as usize];
        let (var, idx, doit) = self.window_dword(lo, hi, ok, c)?;
        let zero = self.const_u32(0);
        let lm = self.begin_if(doit)?;
        let p = self
            .b
            .access_chain(self.t.p_sb_u32, None, var, vec![zero, idx])?;
        let bits = self.u32_bits(value)?;
        self.b.store(p, bits, None, vec![])?;
        self.end_if(lm)?;
        Ok(())
    }

    fn u32_bits(&mut self, value: Value) -> Result<Word, EmitError> {
        let bits = self.vals[value.0 as usize];
        Ok(if self.f.ty(value) == crate::ir::Ty::F32 {
            self.b.bitcast(self.t.u32_, None, bits)?
        } else {
            bits
        })
    }

    /// The low `bytes` of `value` stored byte by byte when this lane is
    /// active and the piece is in range (a buffer's check of the whole
    /// piece): each byte inside the window is an atomic and (clearing it)
    /// and or (setting it) on its dword.
    pub(super) fn sub_dword_store(
        &mut self,
        target: &AtomicTarget,
        bytes: u8,
        value: Value,
        cond: Value,
    ) -> Result<(), EmitError> {
        let u = self.t.u32_;
        let (lo, hi, ok) = match *target {
            AtomicTarget::Buffer(a) => {
                let (lo, hi, ok) = self.buffer_addr_n(&a, u32::from(bytes))?;
                (lo, hi, Some(ok))
            }
            AtomicTarget::Global(a) => {
                let (lo, hi) = self.global_addr(&a, 0)?;
                (lo, hi, None)
            }
            AtomicTarget::Lds(_) => {
                return Err(EmitError("a sub-dword LDS store as a memory store".into()))
            }
        };
        let c = self.vals[cond.0 as usize];
        let x = self.u32_bits(value)?;
        let zero = self.const_u32(0);
        let three = self.const_u32(3);
        let not3 = self.const_u32(!3);
        let eight = self.const_u32(8);
        let ff = self.const_u32(0xff);
        let sc = self.const_u32(spirv::Scope::Device as u32);
        for k in 0..u32::from(bytes) {
            let kk = self.const_u32(k);
            let (l, h) = self.add64(lo, hi, kk)?;
            let al = self.b.bitwise_and(u, None, l, not3)?;
            let sub = self.b.bitwise_and(u, None, l, three)?;
            let sh = self.b.i_mul(u, None, sub, eight)?;
            let k8 = self.const_u32(8 * k);
            let byte = self.b.shift_right_logical(u, None, x, k8)?;
            let byte = self.b.bitwise_and(u, None, byte, ff)?;
            let set = self.b.shift_left_logical(u, None, byte, sh)?;
            let m = self.b.shift_left_logical(u, None, ff, sh)?;
            let keep = self.b.not(u, None, m)?;
            let (var, idx, doit) = self.window_dword(al, h, ok, c)?;
            let lm = self.begin_if(doit)?;
            let p = self
                .b
                .access_chain(self.t.p_sb_u32, None, var, vec![zero, idx])?;
            self.b.atomic_and(u, None, p, sc, zero, keep)?;
            self.b.atomic_or(u, None, p, sc, zero, set)?;
            self.end_if(lm)?;
        }
        Ok(())
    }

    /// A 32-bit atomic when this lane is active and its dword is inside the
    /// window (or the LDS array): the old word, or 0 when not performed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &mut self,
        target: &AtomicTarget,
        op: AtomicOp,
        data: Value,
        cmp: Option<Value>,
        cond: Value,
    ) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let c = self.vals[cond.0 as usize];
        let zero = self.const_u32(0);
        let (ptr_ty, var, idx, doit, scope) = match *target {
            AtomicTarget::Lds(a) => {
                let Some(v) = self.lanes else {
                    return Err(EmitError("an LDS atomic without the LDS array".into()));
                };
                let a = self.vals[a.0 as usize];
                let k2 = self.const_u32(2);
                let i = self.b.shift_right_logical(u, None, a, k2)?;
                let n = self.const_u32(super::lanes::LDS_DWORDS);
                let inside = self.b.u_less_than(bl, None, i, n)?;
                let doit = self.b.logical_and(bl, None, inside, c)?;
                (v.p_wg_u32, v.lds, i, doit, spirv::Scope::Workgroup)
            }
            AtomicTarget::Buffer(a) => {
                let (lo, hi, ok) = self.buffer_addr(&a)?;
                let (var, idx, doit) = self.window_dword(lo, hi, Some(ok), c)?;
                (self.t.p_sb_u32, var, idx, doit, spirv::Scope::Device)
            }
            AtomicTarget::Global(a) => {
                let (lo, hi) = self.global_addr(&a, 0)?;
                let (var, idx, doit) = self.window_dword(lo, hi, None, c)?;
                (self.t.p_sb_u32, var, idx, doit, spirv::Scope::Device)
            }
        };
        let x = self.u32_bits(data)?;
        let pre = self.b.id();
        self.b.branch(pre)?;
        self.b.begin_block(Some(pre))?;
        // Not `begin_if`: the phi after the merge names the then-block.
        let lt = self.b.id();
        let lm = self.b.id();
        self.b.selection_merge(lm, SelectionControl::NONE)?;
        self.b.branch_conditional(doit, lt, lm, vec![])?;
        self.b.begin_block(Some(lt))?;
        let p = match *target {
            AtomicTarget::Lds(_) => self.b.access_chain(ptr_ty, None, var, vec![idx])?,
            _ => self.b.access_chain(ptr_ty, None, var, vec![zero, idx])?,
        };
        let sc = self.const_u32(scope as u32);
        let sem = zero;
        let b = &mut self.b;
        let r = match op {
            AtomicOp::Add => b.atomic_i_add(u, None, p, sc, sem, x)?,
            AtomicOp::Sub => b.atomic_i_sub(u, None, p, sc, sem, x)?,
            AtomicOp::SMin => b.atomic_s_min(u, None, p, sc, sem, x)?,
            AtomicOp::UMin => b.atomic_u_min(u, None, p, sc, sem, x)?,
            AtomicOp::SMax => b.atomic_s_max(u, None, p, sc, sem, x)?,
            AtomicOp::UMax => b.atomic_u_max(u, None, p, sc, sem, x)?,
            AtomicOp::And => b.atomic_and(u, None, p, sc, sem, x)?,
            AtomicOp::Or => b.atomic_or(u, None, p, sc, sem, x)?,
            AtomicOp::Xor => b.atomic_xor(u, None, p, sc, sem, x)?,
            AtomicOp::Swap => b.atomic_exchange(u, None, p, sc, sem, x)?,
            AtomicOp::CmpSwap => {
                let Some(cv) = cmp else {
                    return Err(EmitError("a compare-swap without its compare value".into()));
                };
                let cw = self.u32_bits(cv)?;
                self.b
                    .atomic_compare_exchange(u, None, p, sc, sem, sem, x, cw)?
            }
        };
        self.end_if(lm)?;
        Ok(self.b.phi(u, None, vec![(r, lt), (zero, pre)])?)
    }
}
