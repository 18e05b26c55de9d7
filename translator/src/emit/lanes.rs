//! Compute shaders: values from the other lanes of a wave, through
//! workgroup memory. Two workgroup arrays: `lane_vals` (one word per guest
//! lane of every wave of the workgroup) and `lane_masks` (two words per
//! wave). Each operation runs between workgroup control barriers, so every
//! invocation of the host workgroup must reach it (the translator checks
//! that it sits in workgroup-uniform control flow):
//!
//! - ballot: barrier; lane 0 of each wave clears its two mask words;
//!   barrier; each lane whose bit is set ORs it into its word atomically;
//!   barrier; each lane reads the word it needs;
//! - read-first-lane: as a ballot of the EXEC bit, with each lane also
//!   storing its value; the lowest set bit names the lane whose value is
//!   read (lane 0 when none is set, as the hardware does);
//! - read-lane: barrier; each lane stores its value; barrier; read.
//!
//! Lanes of a partial last wave that have no host invocation read as 0 in a
//! ballot.

use super::{EmitError, Emitter};
use crate::ir::LaneOp;
use spirv::{GlslStd450Op, StorageClass, Word};

/// The workgroup arrays of the lane operations.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LaneVars {
    pub(super) vals: Word,
    pub(super) masks: Word,
    /// The guest LDS: [`LDS_DWORDS`] words.
    pub(super) lds: Word,
    pub(super) p_wg_u32: Word,
}

/// Dwords of the guest LDS (64 KiB).
pub(super) const LDS_DWORDS: u32 = 16384;

impl Emitter<'_> {
    /// Declare the workgroup arrays (once, when a lane operation is live).
    pub(super) fn lane_vars(&mut self) {
        let [x, y, z] = self.plan.compute.unwrap_or([1, 1, 1]);
        let lanes = self.plan.compute_lanes.max(1);
        let size = x.saturating_mul(y).saturating_mul(z).max(1);
        let waves = size.div_ceil(lanes);
        let u = self.t.u32_;
        let nvals = self.const_u32(waves * lanes);
        let nmasks = self.const_u32(waves * 2);
        let a_vals = self.b.type_array(u, nvals);
        let a_masks = self.b.type_array(u, nmasks);
        let p_vals = self.b.type_pointer(None, StorageClass::Workgroup, a_vals);
        let p_masks = self.b.type_pointer(None, StorageClass::Workgroup, a_masks);
        let vals = self.b.variable(p_vals, None, StorageClass::Workgroup, None);
        let masks = self
            .b
            .variable(p_masks, None, StorageClass::Workgroup, None);
        self.b.name(vals, "lane_vals");
        self.b.name(masks, "lane_masks");
        let nlds = self.const_u32(LDS_DWORDS);
        let a_lds = self.b.type_array(u, nlds);
        let p_lds = self.b.type_pointer(None, StorageClass::Workgroup, a_lds);
        let lds = self.b.variable(p_lds, None, StorageClass::Workgroup, None);
        self.b.name(lds, "lds");
        let p_wg_u32 = self.b.type_pointer(None, StorageClass::Workgroup, u);
        self.lanes = Some(LaneVars {
            vals,
            masks,
            lds,
            p_wg_u32,
        });
    }

    /// A workgroup control barrier (also ordering workgroup memory).
    pub(super) fn barrier(&mut self) -> Result<(), EmitError> {
        let wg = self.const_u32(spirv::Scope::Workgroup as u32);
        let sem = self.const_u32(
            (spirv::MemorySemantics::ACQUIRE_RELEASE | spirv::MemorySemantics::WORKGROUP_MEMORY)
                .bits(),
        );
        self.b.control_barrier(wg, wg, sem)?;
        Ok(())
    }

    fn wg_ptr(&mut self, arr: Word, idx: Word) -> Result<Word, EmitError> {
        let Some(v) = self.lanes else {
            return Err(EmitError("a lane operation without its arrays".into()));
        };
        Ok(self.b.access_chain(v.p_wg_u32, None, arr, vec![idx])?)
    }

    /// The wave's mask of `x` (this lane's bit, 0 or 1) into its two
    /// `lane_masks` words: barrier; lane 0 of each wave clears them;
    /// barrier; each lane with its bit set ORs it in atomically; barrier.
    /// Lanes of a partial last wave that have no invocation add nothing.
    fn ballot_masks(&mut self, x: Word, lane: Word, wave: Word) -> Result<(), EmitError> {
        let Some(v) = self.lanes else {
            return Err(EmitError("a lane operation without its arrays".into()));
        };
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let lanes = self.plan.compute_lanes.max(1);
        let zero = self.const_u32(0);
        let one = self.const_u32(1);
        let two = self.const_u32(2);
        let w2 = self.b.i_mul(u, None, wave, two)?;
        self.barrier()?;
        let first = self.b.i_equal(bl, None, lane, zero)?;
        let lm = self.begin_if(first)?;
        for half in 0..lanes.div_ceil(32) {
            let h = self.const_u32(half);
            let at = self.b.i_add(u, None, w2, h)?;
            let p = self.wg_ptr(v.masks, at)?;
            self.b.store(p, zero, None, vec![])?;
        }
        self.end_if(lm)?;
        self.barrier()?;
        let set = self.b.i_not_equal(bl, None, x, zero)?;
        let lm = self.begin_if(set)?;
        let k5 = self.const_u32(5);
        let k31 = self.const_u32(31);
        let half = self.b.shift_right_logical(u, None, lane, k5)?;
        let at = self.b.i_add(u, None, w2, half)?;
        let pos = self.b.bitwise_and(u, None, lane, k31)?;
        let bit = self.b.shift_left_logical(u, None, one, pos)?;
        let p = self.wg_ptr(v.masks, at)?;
        let scope = self.const_u32(spirv::Scope::Workgroup as u32);
        let sem = self.const_u32(0);
        self.b.atomic_or(u, None, p, scope, sem, bit)?;
        self.end_if(lm)?;
        self.barrier()?;
        Ok(())
    }

    /// One lane operation's value.
    pub(super) fn lane_op(&mut self, op: &LaneOp) -> Result<Word, EmitError> {
        let Some(v) = self.lanes else {
            return Err(EmitError("a lane operation without its arrays".into()));
        };
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let lanes = self.plan.compute_lanes.max(1);
        let idx = self.host_local_index()?;
        let kl = self.const_u32(lanes);
        let wave = self.b.u_div(u, None, idx, kl)?;
        let lane = self.b.u_mod(u, None, idx, kl)?;
        let base = self.b.i_mul(u, None, wave, kl)?;
        let two = self.const_u32(2);
        let w2 = self.b.i_mul(u, None, wave, two)?;
        let zero = self.const_u32(0);
        let one = self.const_u32(1);
        let mine = self.wg_ptr(v.vals, idx)?;
        match *op {
            LaneOp::Quad { .. } => Err(EmitError("a quad operation outside a pixel shader".into())),
            LaneOp::LdsRead { addr } => {
                let a = self.vals[addr.0 as usize];
                let k2 = self.const_u32(2);
                let i = self.b.shift_right_logical(u, None, a, k2)?;
                let n = self.const_u32(LDS_DWORDS);
                let inside = self.b.u_less_than(bl, None, i, n)?;
                let safe = self.b.select(u, None, inside, i, zero)?;
                self.barrier()?;
                let p = self.wg_ptr(v.lds, safe)?;
                let x = self.b.load(u, None, p, None, vec![])?;
                self.barrier()?;
                Ok(self.b.select(u, None, inside, x, zero)?)
            }
            LaneOp::ReadLane { value, lane: sel } => {
                let val = self.vals[value.0 as usize];
                let sel = self.vals[sel.0 as usize];
                self.barrier()?;
                self.b.store(mine, val, None, vec![])?;
                self.barrier()?;
                let m = self.const_u32(lanes - 1);
                let k = self.b.bitwise_and(u, None, sel, m)?;
                let at = self.b.i_add(u, None, base, k)?;
                let p = self.wg_ptr(v.vals, at)?;
                Ok(self.b.load(u, None, p, None, vec![])?)
            }
            LaneOp::Ballot { bit, hi } => {
                let b = self.vals[bit.0 as usize];
                let x = self.b.select(u, None, b, one, zero)?;
                self.ballot_masks(x, lane, wave)?;
                let h = self.const_u32(u32::from(hi && lanes > 32));
                if hi && lanes <= 32 {
                    return Ok(zero);
                }
                let at = self.b.i_add(u, None, w2, h)?;
                let p = self.wg_ptr(v.masks, at)?;
                Ok(self.b.load(u, None, p, None, vec![])?)
            }
            LaneOp::ReadFirst { value, active } => {
                let val = self.vals[value.0 as usize];
                let a = self.vals[active.0 as usize];
                let x = self.b.select(u, None, a, one, zero)?;
                self.ballot_masks(x, lane, wave)?;
                // The masks are complete: store the values.
                self.b.store(mine, val, None, vec![])?;
                let p = self.wg_ptr(v.masks, w2)?;
                let lo = self.b.load(u, None, p, None, vec![])?;
                let hi = if lanes > 32 {
                    let at = self.b.i_add(u, None, w2, one)?;
                    let p = self.wg_ptr(v.masks, at)?;
                    self.b.load(u, None, p, None, vec![])?
                } else {
                    zero
                };
                self.barrier()?;
                let i32_ = self.t.i32_;
                let flo = self.glsl1(i32_, GlslStd450Op::FindILsb, lo)?;
                let flo = self.as_u32(flo)?;
                let fhi = self.glsl1(i32_, GlslStd450Op::FindILsb, hi)?;
                let fhi = self.as_u32(fhi)?;
                let k32 = self.const_u32(32);
                let fhi = self.b.i_add(u, None, fhi, k32)?;
                let lo_set = self.b.i_not_equal(bl, None, lo, zero)?;
                let hi_set = self.b.i_not_equal(bl, None, hi, zero)?;
                let f = self.b.select(u, None, hi_set, fhi, zero)?;
                let f = self.b.select(u, None, lo_set, flo, f)?;
                let at = self.b.i_add(u, None, base, f)?;
                let p = self.wg_ptr(v.vals, at)?;
                Ok(self.b.load(u, None, p, None, vec![])?)
            }
        }
    }

    /// The dword index of LDS byte address `a` and whether an access there
    /// happens: `c` and inside the allocation.
    fn lds_dword_if(&mut self, a: Word, c: Word) -> Result<(Word, Word), EmitError> {
        let (u, bl) = (self.t.u32_, self.t.bool_);
        let k2 = self.const_u32(2);
        let i = self.b.shift_right_logical(u, None, a, k2)?;
        let n = self.const_u32(LDS_DWORDS);
        let inside = self.b.u_less_than(bl, None, i, n)?;
        let doit = self.b.logical_and(bl, None, inside, c)?;
        Ok((i, doit))
    }

    /// An LDS dword write when `cond` and inside the allocation.
    pub(super) fn lds_write(
        &mut self,
        addr: crate::ir::Value,
        value: crate::ir::Value,
        cond: crate::ir::Value,
    ) -> Result<(), EmitError> {
        let Some(v) = self.lanes else {
            return Err(EmitError("an LDS write without the LDS array".into()));
        };
        let u = self.t.u32_;
        let a = self.vals[addr.0 as usize];
        let x = self.vals[value.0 as usize];
        let c = self.vals[cond.0 as usize];
        let (i, doit) = self.lds_dword_if(a, c)?;
        let lm = self.begin_if(doit)?;
        let p = self.wg_ptr(v.lds, i)?;
        let x = if self.f.ty(value) == crate::ir::Ty::F32 {
            self.b.bitcast(u, None, x)?
        } else {
            x
        };
        self.b.store(p, x, None, vec![])?;
        self.end_if(lm)?;
        Ok(())
    }

    /// An LDS byte write when `cond` and inside the allocation: the byte's
    /// bits of its dword cleared, then set, each by an atomic operation, so
    /// lanes writing other bytes of the dword in the same instruction do not
    /// lose each other's bytes.
    pub(super) fn lds_write_byte(
        &mut self,
        addr: crate::ir::Value,
        value: crate::ir::Value,
        cond: crate::ir::Value,
    ) -> Result<(), EmitError> {
        let Some(v) = self.lanes else {
            return Err(EmitError("an LDS write without the LDS array".into()));
        };
        let u = self.t.u32_;
        let a = self.vals[addr.0 as usize];
        let x = self.vals[value.0 as usize];
        let x = if self.f.ty(value) == crate::ir::Ty::F32 {
            self.b.bitcast(u, None, x)?
        } else {
            x
        };
        let c = self.vals[cond.0 as usize];
        let (i, doit) = self.lds_dword_if(a, c)?;
        let k3 = self.const_u32(3);
        let low = self.b.bitwise_and(u, None, a, k3)?;
        let sh = self.b.shift_left_logical(u, None, low, k3)?;
        let kff = self.const_u32(0xff);
        let byte = self.b.bitwise_and(u, None, x, kff)?;
        let set = self.b.shift_left_logical(u, None, byte, sh)?;
        let m = self.b.shift_left_logical(u, None, kff, sh)?;
        let keep = self.b.not(u, None, m)?;
        let lm = self.begin_if(doit)?;
        let p = self.wg_ptr(v.lds, i)?;
        let scope = self.const_u32(spirv::Scope::Workgroup as u32);
        let sem = self.const_u32(0);
        self.b.atomic_and(u, None, p, scope, sem, keep)?;
        self.b.atomic_or(u, None, p, scope, sem, set)?;
        self.end_if(lm)?;
        Ok(())
    }
}
