//! Instruction bodies: the structured tree as SPIR-V selections and loops
//! (block parameters through function-local variables), IR instructions,
//! and effects (exports, test outputs, feedback).

use super::{EmitError, Emitter};
use crate::ir::{Bin, Effect, ExportTarget, FCmp, Func, ICmp, Op, Term, Tri, Un, Value};
use crate::structure::Node;
use rspirv::dr::Operand;
use spirv::{Decoration, GlslStd450Op, SelectionControl, Word};

impl Emitter<'_> {
    pub(super) fn seq(&mut self, nodes: &[Node]) -> Result<(), EmitError> {
        for n in nodes {
            match n {
                Node::Block(blk) => {
                    self.access_cache.clear();
                    let bd = &self.f.blocks[blk.0 as usize];
                    for &p in &bd.params {
                        if !self.f.is_live(p) {
                            continue;
                        }
                        let ty = self.ty(self.f.ty(p));
                        let var = self.vars[&p];
                        self.vals[p.0 as usize] = self.b.load(ty, None, var, None, vec![])?;
                    }
                    for &v in &bd.insts {
                        self.inst(v)?;
                    }
                    if let Term::Jump(e) = &bd.term {
                        self.edge(e)?;
                    }
                }
                Node::Continue { .. } => {
                    // The edge's arguments are stored; what follows in
                    // this arm is unreachable.
                    let lc = *self
                        .continues
                        .last()
                        .ok_or_else(|| EmitError("a continue outside a loop".into()))?;
                    self.b.branch(lc)?;
                    self.dead = true;
                }
                Node::Loop {
                    latch,
                    body,
                    cond,
                    back_on,
                    exit,
                    rewritten,
                    ..
                } => {
                    let (te, ee) = match &self.f.blocks[latch.0 as usize].term {
                        Term::Branch { then, els, .. } => (then.clone(), els.clone()),
                        _ => return Err(EmitError("loop latch without a branch".into())),
                    };
                    let (back_edge, exit_edge) = if *back_on { (te, ee) } else { (ee, te) };
                    let lh = self.b.id();
                    let lb = self.b.id();
                    let lc = self.b.id();
                    let lm = self.b.id();
                    self.b.branch(lh)?;
                    self.b.begin_block(Some(lh))?;
                    self.b
                        .loop_merge(lm, lc, spirv::LoopControl::NONE, vec![])?;
                    self.b.branch(lb)?;
                    self.b.begin_block(Some(lb))?;
                    self.continues.push(lc);
                    self.seq(body)?;
                    self.continues.pop();
                    if !self.dead {
                        self.b.branch(lc)?;
                    }
                    self.b.begin_block(Some(lc))?;
                    self.dead = false;
                    if *rewritten {
                        // The latch runs here: every edge to it was a
                        // continue.
                        self.seq(&[Node::Block(*latch)])?;
                    }
                    // Both edges' arguments: the header's parameters are
                    // only read at the top of the body.
                    self.edge(&back_edge)?;
                    self.edge(&exit_edge)?;
                    let _ = exit;
                    let c = self.vals[cond.0 as usize];
                    if *back_on {
                        self.b.branch_conditional(c, lh, lm, vec![])?;
                    } else {
                        self.b.branch_conditional(c, lm, lh, vec![])?;
                    }
                    self.b.begin_block(Some(lm))?;
                    self.dead = false;
                    self.access_cache.clear();
                }
                Node::If {
                    from,
                    cond,
                    then,
                    els,
                    merge,
                } => {
                    let (te, ee) = match &self.f.blocks[from.0 as usize].term {
                        Term::Branch { then, els, .. } => (then.clone(), els.clone()),
                        _ => return Err(EmitError("selection without a branch".into())),
                    };
                    let c = self.vals[cond.0 as usize];
                    let lt = self.b.id();
                    let le = self.b.id();
                    let lm = self.b.id();
                    self.b.selection_merge(lm, SelectionControl::NONE)?;
                    self.b.branch_conditional(c, lt, le, vec![])?;
                    for (label, edge, arm) in [(lt, &te, then), (le, &ee, els)] {
                        self.b.begin_block(Some(label))?;
                        self.dead = false;
                        self.edge(edge)?;
                        self.seq(arm)?;
                        if self.dead {
                            // The arm ended in a continue or in a selection
                            // whose arms all leave: no block is open.
                        } else if arm_returns(self.f, arm) && merge.is_none() {
                            self.b.ret()?;
                        } else {
                            self.b.branch(lm)?;
                        }
                    }
                    self.b.begin_block(Some(lm))?;
                    self.dead = false;
                    if merge.is_none() {
                        // Nothing follows and no block stays open.
                        self.b.unreachable()?;
                        self.dead = true;
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn edge(&mut self, e: &crate::ir::Edge) -> Result<(), EmitError> {
        let params = self.f.blocks[e.block.0 as usize].params.clone();
        for (p, a) in params.iter().zip(&e.args) {
            if !self.f.is_live(*p) {
                continue;
            }
            let var = self.vars[p];
            let val = self.vals[a.0 as usize];
            self.b.store(var, val, None, vec![])?;
        }
        Ok(())
    }

    pub(super) fn as_i32(&mut self, x: Word) -> Result<Word, EmitError> {
        Ok(self.b.bitcast(self.t.i32_, None, x)?)
    }
    pub(super) fn as_u32(&mut self, x: Word) -> Result<Word, EmitError> {
        Ok(self.b.bitcast(self.t.u32_, None, x)?)
    }
    pub(super) fn glsl1(&mut self, ty: Word, op: GlslStd450Op, a: Word) -> Result<Word, EmitError> {
        Ok(self
            .b
            .ext_inst(ty, None, self.glsl, op as u32, vec![Operand::IdRef(a)])?)
    }
    pub(super) fn glsl2(
        &mut self,
        ty: Word,
        op: GlslStd450Op,
        a: Word,
        b: Word,
    ) -> Result<Word, EmitError> {
        Ok(self.b.ext_inst(
            ty,
            None,
            self.glsl,
            op as u32,
            vec![Operand::IdRef(a), Operand::IdRef(b)],
        )?)
    }

    pub(super) fn inst(&mut self, v: Value) -> Result<(), EmitError> {
        let inst = *self.f.inst(v);
        let u = self.t.u32_;
        let fl = self.t.f32_;
        let bl = self.t.bool_;
        let val = |s: &Self, x: Value| s.vals[x.0 as usize];
        let r = match inst.op {
            Op::Const(_) | Op::Input(_) | Op::BlockParam(..) => return Ok(()),
            Op::Unsupported(i) => {
                return Err(EmitError(format!("unsupported value {i} reached emission")))
            }
            Op::Un(op, a) if self.plan.precise && super::precise::is_approximate(op) => {
                let a = val(self, a);
                self.precise_un(op, a)?
            }
            Op::Un(op, a) => {
                let a = val(self, a);
                // Compute model: the f32 operations flush their operand and
                // result explicitly ([`Emitter::explicit_ftz`]).
                let float_op = matches!(
                    op,
                    Un::Floor
                        | Un::Ceil
                        | Un::Trunc
                        | Un::RoundEven
                        | Un::Fract
                        | Un::Sqrt
                        | Un::Rsq
                        | Un::Rcp
                        | Un::Exp2
                        | Un::Log2
                        | Un::SinRev
                        | Un::CosRev
                );
                let a = if float_op { self.daz(a)? } else { a };
                let r = match op {
                    Un::Not => self.b.not(u, None, a)?,
                    Un::BNot => self.b.logical_not(bl, None, a)?,
                    Un::AsF32 => self.b.bitcast(fl, None, a)?,
                    Un::AsU32 => self.b.bitcast(u, None, a)?,
                    Un::BoolToU32 => {
                        let (one, zero) = (self.const_u32(1), self.const_u32(0));
                        self.b.select(u, None, a, one, zero)?
                    }
                    Un::FNeg => self.b.f_negate(fl, None, a)?,
                    Un::FAbs => self.glsl1(fl, GlslStd450Op::FAbs, a)?,
                    Un::Floor => self.glsl1(fl, GlslStd450Op::Floor, a)?,
                    Un::Ceil => self.glsl1(fl, GlslStd450Op::Ceil, a)?,
                    Un::Trunc => self.glsl1(fl, GlslStd450Op::Trunc, a)?,
                    Un::RoundEven => self.glsl1(fl, GlslStd450Op::RoundEven, a)?,
                    Un::Fract => self.glsl1(fl, GlslStd450Op::Fract, a)?,
                    Un::Sqrt => self.glsl1(fl, GlslStd450Op::Sqrt, a)?,
                    Un::Rsq => self.glsl1(fl, GlslStd450Op::InverseSqrt, a)?,
                    Un::Rcp => {
                        let one = self.constant(fl, 1.0f32.to_bits());
                        self.b.f_div(fl, None, one, a)?
                    }
                    Un::Exp2 => self.glsl1(fl, GlslStd450Op::Exp2, a)?,
                    Un::Log2 => self.glsl1(fl, GlslStd450Op::Log2, a)?,
                    Un::SinRev | Un::CosRev => {
                        let tau = self.constant(fl, std::f32::consts::TAU.to_bits());
                        let x = self.b.f_mul(fl, None, a, tau)?;
                        let op = if op == Un::SinRev {
                            GlslStd450Op::Sin
                        } else {
                            GlslStd450Op::Cos
                        };
                        self.glsl1(fl, op, x)?
                    }
                    Un::F32FromU32 => self.b.convert_u_to_f(fl, None, a)?,
                    Un::F32FromI32 => {
                        let s = self.as_i32(a)?;
                        self.b.convert_s_to_f(fl, None, s)?
                    }
                    Un::U32FromF32 => {
                        let lo = self.constant(fl, (-1.0f32).to_bits());
                        let hi = self.constant(fl, 4294967296.0f32.to_bits());
                        let zf = self.constant(fl, 0);
                        let gt = self.b.f_ord_greater_than(bl, None, a, lo)?;
                        let lt = self.b.f_ord_less_than(bl, None, a, hi)?;
                        let inr = self.b.logical_and(bl, None, gt, lt)?;
                        let safe = self.b.select(fl, None, inr, a, zf)?;
                        let r = self.b.convert_f_to_u(u, None, safe)?;
                        let big = self.b.f_ord_greater_than_equal(bl, None, a, hi)?;
                        let max = self.const_u32(u32::MAX);
                        self.b.select(u, None, big, max, r)?
                    }
                    Un::I32FromF32 => {
                        let lo = self.constant(fl, (-2147483648.0f32).to_bits());
                        let hi = self.constant(fl, 2147483648.0f32.to_bits());
                        let zf = self.constant(fl, 0);
                        let ge = self.b.f_ord_greater_than_equal(bl, None, a, lo)?;
                        let lt = self.b.f_ord_less_than(bl, None, a, hi)?;
                        let inr = self.b.logical_and(bl, None, ge, lt)?;
                        let safe = self.b.select(fl, None, inr, a, zf)?;
                        let r = self.b.convert_f_to_s(self.t.i32_, None, safe)?;
                        let r = self.as_u32(r)?;
                        let big = self.b.f_ord_greater_than_equal(bl, None, a, hi)?;
                        let max = self.const_u32(0x7fff_ffff);
                        let r = self.b.select(u, None, big, max, r)?;
                        let small = self.b.f_ord_less_than(bl, None, a, lo)?;
                        let min = self.const_u32(0x8000_0000);
                        self.b.select(u, None, small, min, r)?
                    }
                    Un::CountOnes => self.b.bit_count(u, None, a)?,
                    Un::BitReverse => self.b.bit_reverse(u, None, a)?,
                    Un::IsNan => self.b.is_nan(bl, None, a)?,
                };
                if float_op {
                    self.daz(r)?
                } else {
                    r
                }
            }
            Op::Bin(op, a, b2) => {
                let (a, c) = (val(self, a), val(self, b2));
                self.bin(op, a, c)?
            }
            Op::Tri(op, a, b2, c2) => {
                let (a, b3, c3) = (val(self, a), val(self, b2), val(self, c2));
                match op {
                    Tri::Select => {
                        let ty = self.ty(self.f.ty(b2));
                        self.b.select(ty, None, a, b3, c3)?
                    }
                    Tri::Fma => self.fma(a, b3, c3)?,
                }
            }
            Op::Load(i) => {
                let l = self.f.loads[i as usize];
                self.load(&l)?
            }
            Op::Effect(i) => {
                let e = self.f.effects[i as usize];
                if let Effect::Atomic {
                    target,
                    op,
                    data,
                    cmp,
                    cond,
                    ..
                } = e
                {
                    self.atomic(&target, op, data, cmp, cond)?
                } else {
                    self.effect(&e)?;
                    return Ok(());
                }
            }
        };
        self.vals[v.0 as usize] = r;
        Ok(())
    }

    /// An f32 denormal as signed zero (exponent field 0: keep the sign bit
    /// only); every other value as it is.
    pub(super) fn flush_f32(&mut self, x: Word) -> Result<Word, EmitError> {
        let (u, fl, bl) = (self.t.u32_, self.t.f32_, self.t.bool_);
        let bits = self.b.bitcast(u, None, x)?;
        let exp_mask = self.const_u32(0x7f80_0000);
        let sign_mask = self.const_u32(0x8000_0000);
        let zero = self.const_u32(0);
        let exp = self.b.bitwise_and(u, None, bits, exp_mask)?;
        let tiny = self.b.i_equal(bl, None, exp, zero)?;
        let sign = self.b.bitwise_and(u, None, bits, sign_mask)?;
        let r = self.b.select(u, None, tiny, sign, bits)?;
        let r = self.b.bitcast(fl, None, r)?;
        self.flushed.insert(r);
        Ok(r)
    }

    /// Whether f32 denormals must be flushed explicitly: in the compute
    /// model (compute shaders, the NGG compute pass). A host may run
    /// compute invocations with denormals kept (lavapipe does: its vertex
    /// and fragment stages flush them, its compute stage does not), while
    /// RADV's float mode flushes f32 denormals in and out of every f32
    /// operation.
    fn explicit_ftz(&self) -> bool {
        self.plan.flush_denormals
    }

    /// [`Emitter::flush_f32`] of an operand in the compute model (once per
    /// value), `x` itself elsewhere (the host flushes).
    pub(super) fn daz(&mut self, x: Word) -> Result<Word, EmitError> {
        if !self.explicit_ftz() || self.flushed.contains(&x) {
            return Ok(x);
        }
        self.flush_f32(x)
    }

    pub(super) fn bin(&mut self, op: Bin, a: Word, c: Word) -> Result<Word, EmitError> {
        let ftz = self.explicit_ftz()
            && matches!(
                op,
                Bin::FAdd | Bin::FSub | Bin::FMul | Bin::Ldexp | Bin::FCmp(_)
            );
        if ftz {
            let a = self.daz(a)?;
            let c = if op == Bin::Ldexp { c } else { self.daz(c)? };
            let r = self.bin_op(op, a, c)?;
            return if matches!(op, Bin::FCmp(_)) {
                Ok(r)
            } else {
                self.daz(r)
            };
        }
        self.bin_op(op, a, c)
    }

    fn bin_op(&mut self, op: Bin, a: Word, c: Word) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let fl = self.t.f32_;
        let bl = self.t.bool_;
        let i = self.t.i32_;
        Ok(match op {
            Bin::Add => self.b.i_add(u, None, a, c)?,
            Bin::Sub => self.b.i_sub(u, None, a, c)?,
            Bin::Mul => self.b.i_mul(u, None, a, c)?,
            Bin::MulHiU => self.mul_hi_u(a, c)?,
            Bin::MulHiI => {
                // signed high = unsigned high − (a<0 ? b : 0) − (b<0 ? a : 0)
                let h = self.mul_hi_u(a, c)?;
                let z = self.const_u32(0);
                let ai = self.as_i32(a)?;
                let ci = self.as_i32(c)?;
                let zi = self.b.bitcast(i, None, z)?;
                let an = self.b.s_less_than(bl, None, ai, zi)?;
                let cn = self.b.s_less_than(bl, None, ci, zi)?;
                let sa = self.b.select(u, None, an, c, z)?;
                let sc = self.b.select(u, None, cn, a, z)?;
                let h = self.b.i_sub(u, None, h, sa)?;
                self.b.i_sub(u, None, h, sc)?
            }
            Bin::And => self.b.bitwise_and(u, None, a, c)?,
            Bin::Or => self.b.bitwise_or(u, None, a, c)?,
            Bin::Xor => self.b.bitwise_xor(u, None, a, c)?,
            Bin::Shl | Bin::ShrL | Bin::ShrA => {
                let m = self.const_u32(31);
                let s = self.b.bitwise_and(u, None, c, m)?;
                match op {
                    Bin::Shl => self.b.shift_left_logical(u, None, a, s)?,
                    Bin::ShrL => self.b.shift_right_logical(u, None, a, s)?,
                    _ => {
                        let ai = self.as_i32(a)?;
                        let r = self.b.shift_right_arithmetic(i, None, ai, s)?;
                        self.as_u32(r)?
                    }
                }
            }
            Bin::UMin | Bin::UMax => {
                let lt = self.b.u_less_than(bl, None, a, c)?;
                if op == Bin::UMin {
                    self.b.select(u, None, lt, a, c)?
                } else {
                    self.b.select(u, None, lt, c, a)?
                }
            }
            Bin::SMin | Bin::SMax => {
                let (ai, ci) = (self.as_i32(a)?, self.as_i32(c)?);
                let lt = self.b.s_less_than(bl, None, ai, ci)?;
                if op == Bin::SMin {
                    self.b.select(u, None, lt, a, c)?
                } else {
                    self.b.select(u, None, lt, c, a)?
                }
            }
            Bin::ICmp(k) => match k {
                ICmp::Eq => self.b.i_equal(bl, None, a, c)?,
                ICmp::Ne => self.b.i_not_equal(bl, None, a, c)?,
                ICmp::ULt => self.b.u_less_than(bl, None, a, c)?,
                ICmp::ULe => self.b.u_less_than_equal(bl, None, a, c)?,
                ICmp::SLt | ICmp::SLe => {
                    let (ai, ci) = (self.as_i32(a)?, self.as_i32(c)?);
                    if k == ICmp::SLt {
                        self.b.s_less_than(bl, None, ai, ci)?
                    } else {
                        self.b.s_less_than_equal(bl, None, ai, ci)?
                    }
                }
            },
            // The GPU rounds every v_add/v_mul separately: forbid the
            // driver from fusing them.
            Bin::FAdd | Bin::FSub | Bin::FMul => {
                let r = match op {
                    Bin::FAdd => self.b.f_add(fl, None, a, c)?,
                    Bin::FSub => self.b.f_sub(fl, None, a, c)?,
                    _ => self.b.f_mul(fl, None, a, c)?,
                };
                self.b.decorate(r, Decoration::NoContraction, vec![]);
                r
            }
            // IEEE-mode v_min/v_max return the other operand for a NaN.
            // Their inputs are flushed like every f32 input (RADV's float
            // mode flushes f32 denormals): beside a NaN the other operand
            // comes back as it is, so a denormal would survive on a host
            // that flushes only in arithmetic.
            Bin::FMin | Bin::FMax => {
                let (a, c) = (self.flush_f32(a)?, self.flush_f32(c)?);
                let op = if op == Bin::FMin {
                    GlslStd450Op::NMin
                } else {
                    GlslStd450Op::NMax
                };
                self.glsl2(fl, op, a, c)?
            }
            Bin::Ldexp => {
                // GLSL.std.450 Ldexp is undefined when the result's exponent
                // is out of range; the hardware scales exactly. Beyond ±300
                // every f32 overflows to ±inf or underflows to ±0 anyway, so
                // clamping the exponent there keeps the hardware's answer
                // and keeps the host in its defined range.
                let e = self.as_i32(c)?;
                let (lo, hi) = (self.const_u32((-300i32) as u32), self.const_u32(300));
                let (lo, hi) = (self.as_i32(lo)?, self.as_i32(hi)?);
                let e = self.glsl2(self.t.i32_, GlslStd450Op::SMax, e, lo)?;
                let e = self.glsl2(self.t.i32_, GlslStd450Op::SMin, e, hi)?;
                let r = self.glsl2(fl, GlslStd450Op::Ldexp, a, e)?;
                // ±inf and NaN scale to themselves; a host may compute
                // ldexp as x · 2^e and give inf · 0 = NaN. (Zeros and
                // denormals go through Ldexp, which flushes like the rest.)
                let inf = self.b.is_inf(bl, None, a)?;
                let nan = self.b.is_nan(bl, None, a)?;
                let special = self.b.logical_or(bl, None, inf, nan)?;
                self.b.select(fl, None, special, a, r)?
            }
            Bin::FCmp(FCmp(m)) => self.fcmp(m, a, c)?,
            Bin::BAnd => self.b.logical_and(bl, None, a, c)?,
            Bin::BOr => self.b.logical_or(bl, None, a, c)?,
            Bin::BXor => self.b.logical_not_equal(bl, None, a, c)?,
        })
    }

    /// A fused multiply-add rounded once, as the GPU's `v_fma_f32`. Drivers
    /// may implement SPIR-V `Fma` as a multiply and an add (lavapipe does),
    /// so it is computed in f64: the product of two f32 is exact there, the
    /// sum is rounded to f64 and then to f32, at most 1 ulp from the fused
    /// result (double rounding), usually exact.
    pub(super) fn fma(&mut self, a: Word, b: Word, c: Word) -> Result<Word, EmitError> {
        let d = self.t.f64_;
        let fl = self.t.f32_;
        // Flushed explicitly (RADV's float mode), in and out: a host that
        // keeps denormals in conversions would otherwise see them.
        let (a, b, c) = (self.flush_f32(a)?, self.flush_f32(b)?, self.flush_f32(c)?);
        let a = self.b.f_convert(d, None, a)?;
        let b = self.b.f_convert(d, None, b)?;
        let c = self.b.f_convert(d, None, c)?;
        let p = self.b.f_mul(d, None, a, b)?;
        self.b.decorate(p, Decoration::NoContraction, vec![]);
        let s = self.b.f_add(d, None, p, c)?;
        self.b.decorate(s, Decoration::NoContraction, vec![]);
        let r = self.b.f_convert(fl, None, s)?;
        self.flush_f32(r)
    }

    pub(super) fn fcmp(&mut self, m: u8, a: Word, c: Word) -> Result<Word, EmitError> {
        let bl = self.t.bool_;
        const L: u8 = FCmp::LT;
        const E_: u8 = FCmp::EQ;
        const G: u8 = FCmp::GT;
        const U: u8 = FCmp::UNORD;
        Ok(match m & 15 {
            0 => self.constant(bl, 0),
            15 => self.constant(bl, 1),
            x if x == L => self.b.f_ord_less_than(bl, None, a, c)?,
            x if x == E_ => self.b.f_ord_equal(bl, None, a, c)?,
            x if x == L | E_ => self.b.f_ord_less_than_equal(bl, None, a, c)?,
            x if x == G => self.b.f_ord_greater_than(bl, None, a, c)?,
            x if x == L | G => self.b.f_ord_not_equal(bl, None, a, c)?,
            x if x == E_ | G => self.b.f_ord_greater_than_equal(bl, None, a, c)?,
            x if x == L | U => self.b.f_unord_less_than(bl, None, a, c)?,
            x if x == E_ | U => self.b.f_unord_equal(bl, None, a, c)?,
            x if x == L | E_ | U => self.b.f_unord_less_than_equal(bl, None, a, c)?,
            x if x == G | U => self.b.f_unord_greater_than(bl, None, a, c)?,
            x if x == L | G | U => self.b.f_unord_not_equal(bl, None, a, c)?,
            x if x == E_ | G | U => self.b.f_unord_greater_than_equal(bl, None, a, c)?,
            x => {
                // L|E|G (ordered) or U (unordered).
                let na = self.b.is_nan(bl, None, a)?;
                let nc = self.b.is_nan(bl, None, c)?;
                let un = self.b.logical_or(bl, None, na, nc)?;
                if x == U {
                    un
                } else {
                    self.b.logical_not(bl, None, un)?
                }
            }
        })
    }

    pub(super) fn mul_hi_u(&mut self, a: Word, c: Word) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let m = self.const_u32(0xffff);
        let s16 = self.const_u32(16);
        let al = self.b.bitwise_and(u, None, a, m)?;
        let ah = self.b.shift_right_logical(u, None, a, s16)?;
        let cl = self.b.bitwise_and(u, None, c, m)?;
        let ch = self.b.shift_right_logical(u, None, c, s16)?;
        let p0 = self.b.i_mul(u, None, al, cl)?;
        let p1 = self.b.i_mul(u, None, al, ch)?;
        let p2 = self.b.i_mul(u, None, ah, cl)?;
        let p3 = self.b.i_mul(u, None, ah, ch)?;
        let p0h = self.b.shift_right_logical(u, None, p0, s16)?;
        let p1l = self.b.bitwise_and(u, None, p1, m)?;
        let p2l = self.b.bitwise_and(u, None, p2, m)?;
        let mid = self.b.i_add(u, None, p0h, p1l)?;
        let mid = self.b.i_add(u, None, mid, p2l)?;
        let midh = self.b.shift_right_logical(u, None, mid, s16)?;
        let p1h = self.b.shift_right_logical(u, None, p1, s16)?;
        let p2h = self.b.shift_right_logical(u, None, p2, s16)?;
        let h = self.b.i_add(u, None, p3, p1h)?;
        let h = self.b.i_add(u, None, h, p2h)?;
        Ok(self.b.i_add(u, None, h, midh)?)
    }

    pub(super) fn effect(&mut self, e: &Effect) -> Result<(), EmitError> {
        match *e {
            Effect::Export {
                target,
                values,
                cond,
                done,
                ..
            } => {
                if self.plan.ngg.is_some() {
                    return self.ngg_export(target, &values, cond);
                }
                let c = self.vals[cond.0 as usize];
                let always = self.f.konst(cond) == Some(1);
                match target {
                    ExportTarget::Prim | ExportTarget::AllocReq => {
                        return Err(EmitError("an NGG export outside the NGG pass".into()))
                    }
                    ExportTarget::Null => {}
                    ExportTarget::Mrtz => {
                        let var = match self.out_vars.get(&target) {
                            Some(v) => *v,
                            None => return Err(EmitError("export without an output".into())),
                        };
                        if let Some(v) = values[0] {
                            let bits = self.vals[v.0 as usize];
                            self.store_depth(var, bits, c, always)?;
                        }
                        self.test_export(target, &values, c)?;
                    }
                    _ => self.store_export(target, &values, c, always)?,
                }
                if self.plan.fragment && done && !always {
                    self.kill_unless(c)?;
                }
            }
            Effect::Check {
                binding,
                index,
                cond,
                ..
            } => {
                self.check(binding, index, cond)?;
            }
            Effect::Store {
                access,
                value,
                cond,
            } => self.store(&access, value, cond)?,
            Effect::LdsWrite { addr, value, cond } => self.lds_write(addr, value, cond)?,
            Effect::ImageStore { op, cond } => self.image_store(op, cond)?,
            Effect::LdsWriteByte { addr, value, cond } => self.lds_write_byte(addr, value, cond)?,
            Effect::Barrier { .. } => self.barrier()?,
            Effect::GlobalStore {
                addr,
                dword,
                value,
                cond,
                ..
            } => self.global_store(&addr, dword, value, cond)?,
            Effect::SubDwordStore {
                target,
                bytes,
                value,
                cond,
                ..
            } => self.sub_dword_store(&target, bytes, value, cond)?,
            Effect::Atomic {
                target,
                op,
                data,
                cmp,
                cond,
                ..
            } => {
                self.atomic(&target, op, data, cmp, cond)?;
            }
            Effect::Problem { .. } => {
                return Err(EmitError(
                    "an effect with no translation reached emission".into(),
                ));
            }
        }
        Ok(())
    }

    fn store_export(
        &mut self,
        target: ExportTarget,
        values: &[Option<Value>; 4],
        c: Word,
        always: bool,
    ) -> Result<(), EmitError> {
        let fl = self.t.f32_;
        {
            {
                let var = match self.out_vars.get(&target) {
                    Some(v) => *v,
                    None => return Err(EmitError("export without an output".into())),
                };
                let all = values.iter().all(|x| x.is_some());
                let old = if always && all {
                    0
                } else {
                    self.b.load(self.t.v4f, None, var, None, vec![])?
                };
                let mut comps = Vec::new();
                for (i, x) in values.iter().enumerate() {
                    let prev = if always && x.is_some() {
                        0
                    } else {
                        self.b.composite_extract(fl, None, old, vec![i as u32])?
                    };
                    comps.push(match x {
                        Some(v) => {
                            let bits = self.vals[v.0 as usize];
                            let fv = self.b.bitcast(fl, None, bits)?;
                            if always {
                                fv
                            } else {
                                self.b.select(fl, None, c, fv, prev)?
                            }
                        }
                        None => prev,
                    });
                }
                let nv = self.b.composite_construct(self.t.v4f, None, comps)?;
                self.b.store(var, nv, None, vec![])?;
                self.test_export(target, values, c)?;
            }
        }
        Ok(())
    }

    fn test_export(
        &mut self,
        target: ExportTarget,
        values: &[Option<Value>; 4],
        c: Word,
    ) -> Result<(), EmitError> {
        if let Some((bnd, first, count)) = self.plan.test {
            let slot = self.plan.outputs.iter().position(|t| *t == target);
            if let Some(slot) = slot {
                let n = self.plan.outputs.len() as u32;
                self.test_store(bnd, first, count, n, slot as u32, values, c)?;
            }
        }
        Ok(())
    }

    fn check(&mut self, binding: u16, index: Value, cond: Value) -> Result<(), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        {
            {
                let (Some(fb), Some(slots)) =
                    (self.plan.feedback, self.plan.bindings.get(&binding))
                else {
                    return Ok(());
                };
                let Some(last) = slots.last else {
                    return Ok(());
                };
                let lastv = self.push_load(last)?;
                let idx = self.vals[index.0 as usize];
                let c = self.vals[cond.0 as usize];
                let past = self.b.u_less_than(bl, None, lastv, idx)?;
                let viol = self.b.logical_and(bl, None, past, c)?;
                let one = self.const_u32(1);
                let zero = self.const_u32(0);
                let add = self.b.select(u, None, viol, one, zero)?;
                let var = self.sb[&fb];
                let p = self
                    .b
                    .access_chain(self.t.p_sb_u32, None, var, vec![zero, zero])?;
                let scope = self.const_u32(spirv::Scope::Device as u32);
                let sem = self.const_u32(0);
                self.b.atomic_i_add(u, None, p, scope, sem, add)?;
            }
        }
        Ok(())
    }
}

pub(super) fn arm_returns(f: &Func, arm: &[Node]) -> bool {
    match arm.last() {
        Some(Node::Block(b)) => matches!(f.blocks[b.0 as usize].term, Term::Return),
        Some(Node::If { merge: None, .. }) => true,
        _ => false,
    }
}
