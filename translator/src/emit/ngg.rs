//! NGG compute pass: exports into the output buffer
//! ([`crate::wave::NggOutput`] describes its layout). Each export is a
//! store of the lane's words when its EXEC bit is on and the word is
//! inside the buffer.

use super::{EmitError, Emitter};
use crate::ir::{ExportTarget, Value};
use spirv::{SelectionControl, Word};

impl Emitter<'_> {
    /// Word `word` of the NGG subgroup list ([`crate::ir::Load::NggList`]),
    /// 0 past its end.
    pub(super) fn ngg_list_word(&mut self, word: crate::ir::Value) -> Result<Word, EmitError> {
        let Some(bnd) = self.plan.ngg_ids else {
            return Err(EmitError("the NGG subgroup list has no binding".into()));
        };
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let pos = self.vals[word.0 as usize];
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let inside = self.b.u_less_than(bl, None, pos, len)?;
        let zero = self.const_u32(0);
        let safe = self.b.select(u, None, inside, pos, zero)?;
        let p = self
            .b
            .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
        let w = self.b.load(u, None, p, None, vec![])?;
        Ok(self.b.select(u, None, inside, w, zero)?)
    }

    /// An export of the NGG compute pass.
    pub(super) fn ngg_export(
        &mut self,
        target: ExportTarget,
        values: &[Option<Value>; 4],
        cond: Value,
    ) -> Result<(), EmitError> {
        let Some(plan) = self.plan.ngg.clone() else {
            return Err(EmitError("an NGG export without its output".into()));
        };
        // The word of the subgroup (or of this lane) the export starts at.
        let (rel, lane_scaled) = match target {
            ExportTarget::AllocReq => (0, false),
            ExportTarget::Prim => (1 + 4 * plan.targets.len() as u32, true),
            t => match plan.targets.iter().position(|&x| x == t) {
                Some(k) => (1 + 4 * k as u32, true),
                None => return Ok(()),
            },
        };
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let v3 = self.b.type_vector(u, 3);
        let wg = self.b.load(v3, None, self.wgid, None, vec![])?;
        let gx = self.b.composite_extract(u, None, wg, vec![0])?;
        let gy = self.b.composite_extract(u, None, wg, vec![1])?;
        let nwg = self.b.load(v3, None, self.numwg, None, vec![])?;
        let nx = self.b.composite_extract(u, None, nwg, vec![0])?;
        let t = self.b.i_mul(u, None, gy, nx)?;
        let w = self.b.i_add(u, None, t, gx)?;
        let kg = self.const_u32(plan.group_words);
        let mut at = self.b.i_mul(u, None, w, kg)?;
        if lane_scaled {
            let lid = self.b.load(v3, None, self.lid, None, vec![])?;
            let lane = self.b.composite_extract(u, None, lid, vec![0])?;
            let kl = self.const_u32(plan.lane_words);
            let off = self.b.i_mul(u, None, lane, kl)?;
            at = self.b.i_add(u, None, at, off)?;
        }
        let krel = self.const_u32(rel);
        let at = self.b.i_add(u, None, at, krel)?;
        let c = self.vals[cond.0 as usize];
        let var = self.sb[&plan.binding];
        let len = self.b.array_length(u, None, var, 0)?;
        let lt = self.b.id();
        let lm = self.b.id();
        self.b.selection_merge(lm, SelectionControl::NONE)?;
        self.b.branch_conditional(c, lt, lm, vec![])?;
        self.b.begin_block(Some(lt))?;
        let n = if lane_scaled && target != ExportTarget::Prim {
            4
        } else {
            1
        };
        for (k, v) in values.iter().take(n).enumerate() {
            let Some(v) = v else { continue };
            let x = self.vals[v.0 as usize];
            let x: Word = if self.f.ty(*v) == crate::ir::Ty::F32 {
                self.b.bitcast(u, None, x)?
            } else {
                x
            };
            let kk = self.const_u32(k as u32);
            let i = self.b.i_add(u, None, at, kk)?;
            let inside = self.b.u_less_than(bl, None, i, len)?;
            let zero = self.const_u32(0);
            let safe = self.b.select(u, None, inside, i, zero)?;
            let p = self
                .b
                .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
            let old = self.b.load(u, None, p, None, vec![])?;
            let y = self.b.select(u, None, inside, x, old)?;
            self.b.store(p, y, None, vec![])?;
        }
        self.b.branch(lm)?;
        self.b.begin_block(Some(lm))?;
        Ok(())
    }
}
