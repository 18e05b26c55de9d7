//! The fragment entry point of a pixel shader: one `vec4` input per
//! interpolated attribute (location = the guest attribute number, with the
//! guest's interpolation as decorations) and per raw barycentric pair's
//! helper (after them, in the pair's mode), `gl_FragCoord`, one `vec4`
//! output per colour target (location = the MRT number) and `FragDepth`
//! for `mrtz`; a lane whose exec bit is off at a `done` export is
//! discarded (`OpKill`).

use super::{EmitError, Emitter};
use crate::ir::{ExportTarget, InterpMode};
use isa::Bary;
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, SelectionControl, StorageClass, Word};

impl Emitter<'_> {
    /// Declare the fragment interface (inputs and outputs) into
    /// `interface`.
    pub(super) fn fragment_interface(
        &mut self,
        interface: &mut Vec<Word>,
    ) -> Result<(), EmitError> {
        let p_in_v4f = self.b.type_pointer(None, StorageClass::Input, self.t.v4f);
        if self.plan.frag_coord {
            let v = self.b.variable(p_in_v4f, None, StorageClass::Input, None);
            self.b.decorate(
                v,
                Decoration::BuiltIn,
                vec![Operand::BuiltIn(BuiltIn::FragCoord)],
            );
            self.b.name(v, "frag_coord");
            self.frag_coord = v;
            interface.push(v);
        }
        if uses_quad(self.f) {
            let p_in_u32 = self.t.p_in_u32;
            let v = self.b.variable(p_in_u32, None, StorageClass::Input, None);
            self.b.decorate(
                v,
                Decoration::BuiltIn,
                vec![Operand::BuiltIn(BuiltIn::SubgroupLocalInvocationId)],
            );
            // An integer fragment input must be `Flat` (built-ins too).
            self.b.decorate(v, Decoration::Flat, vec![]);
            self.b.name(v, "subgroup_invocation");
            self.subgroup_id = v;
            interface.push(v);
        }
        for &(attr, mode) in &self.plan.inputs {
            let v = self.b.variable(p_in_v4f, None, StorageClass::Input, None);
            self.b.decorate(
                v,
                Decoration::Location,
                vec![Operand::LiteralBit32(attr as u32)],
            );
            let decos: &[Decoration] = match mode {
                InterpMode::Flat => &[Decoration::Flat],
                InterpMode::Bary(Bary::PerspCenter) => &[],
                InterpMode::Bary(Bary::PerspCentroid) => &[Decoration::Centroid],
                InterpMode::Bary(Bary::PerspSample) => &[Decoration::Sample],
                InterpMode::Bary(Bary::LinearCenter) => &[Decoration::NoPerspective],
                InterpMode::Bary(Bary::LinearCentroid) => {
                    &[Decoration::NoPerspective, Decoration::Centroid]
                }
                InterpMode::Bary(Bary::LinearSample) => {
                    &[Decoration::NoPerspective, Decoration::Sample]
                }
            };
            for d in decos {
                self.b.decorate(v, *d, vec![]);
            }
            let helper = self.plan.barycentrics.values().any(|&l| l == attr);
            self.b
                .name(v, format!("{}{attr}", if helper { "bary" } else { "attr" }));
            self.in_vars.insert(attr, v);
            interface.push(v);
        }
        let p_out_f32 = self.b.type_pointer(None, StorageClass::Output, self.t.f32_);
        for tgt in self.plan.outputs.clone() {
            let v = match tgt {
                ExportTarget::Mrt(n) => {
                    let v = self
                        .b
                        .variable(self.t.p_out_v4f, None, StorageClass::Output, None);
                    self.b.decorate(
                        v,
                        Decoration::Location,
                        vec![Operand::LiteralBit32(n as u32)],
                    );
                    self.b.name(v, format!("mrt{n}"));
                    v
                }
                ExportTarget::Mrtz => {
                    let v = self.b.variable(p_out_f32, None, StorageClass::Output, None);
                    self.b.decorate(
                        v,
                        Decoration::BuiltIn,
                        vec![Operand::BuiltIn(BuiltIn::FragDepth)],
                    );
                    v
                }
                _ => {
                    return Err(EmitError(format!(
                        "{tgt:?} is not an output of a fragment shader"
                    )))
                }
            };
            interface.push(v);
            self.out_vars.insert(tgt, v);
        }
        Ok(())
    }

    /// Channel `chan` of attribute `attr`'s input, as u32 bits.
    pub(super) fn interp_input(&mut self, attr: u8, chan: u8) -> Result<Word, EmitError> {
        let Some(&var) = self.in_vars.get(&attr) else {
            return Err(EmitError(format!("attribute {attr} has no input")));
        };
        let v = self.b.load(self.t.v4f, None, var, None, vec![])?;
        let x = self
            .b
            .composite_extract(self.t.f32_, None, v, vec![chan as u32])?;
        Ok(self.b.bitcast(self.t.u32_, None, x)?)
    }

    /// `gl_FragCoord` component `c` as f32 bits.
    pub(super) fn frag_coord_bits(&mut self, c: u8) -> Result<Word, EmitError> {
        if self.frag_coord == 0 {
            return Err(EmitError("FragCoord is not declared".into()));
        }
        let v = self
            .b
            .load(self.t.v4f, None, self.frag_coord, None, vec![])?;
        let x = self
            .b
            .composite_extract(self.t.f32_, None, v, vec![c as u32])?;
        Ok(self.b.bitcast(self.t.u32_, None, x)?)
    }

    /// DPP `quad_perm` ([`crate::ir::LaneOp::Quad`]): `value` in the lane
    /// of this pixel's 2×2 quad at position `perm[own position]`, a
    /// position being `x & 1 | (y & 1) << 1` of the pixel (the hardware's
    /// order of a quad's lanes). The host's quads are groups of four
    /// consecutive subgroup invocations (Vulkan's quad operations); which of
    /// the four holds which pixel is not assumed: each one's pixel
    /// coordinates are shuffled along with the value, and the value is
    /// taken from the one holding the wanted pixel (0 if none does, which
    /// the run's comparison would show). Every invocation of the quad must
    /// be active here (the translator places quad operations only in
    /// quad-uniform control flow).
    pub(super) fn quad_op(
        &mut self,
        value: crate::ir::Value,
        perm: [u8; 4],
    ) -> Result<Word, EmitError> {
        let (u, bl) = (self.t.u32_, self.t.bool_);
        if self.frag_coord == 0 || self.subgroup_id == 0 {
            return Err(EmitError("a quad operation without its inputs".into()));
        }
        let x = self.vals[value.0 as usize];
        let x = if self.f.ty(value) == crate::ir::Ty::F32 {
            self.as_u32(x)?
        } else {
            x
        };
        // This pixel (px, py), its key `py << 16 | px` and its position.
        let fc = self
            .b
            .load(self.t.v4f, None, self.frag_coord, None, vec![])?;
        let mut xy = Vec::new();
        for c in 0..2 {
            let f = self.b.composite_extract(self.t.f32_, None, fc, vec![c])?;
            xy.push(self.b.convert_f_to_u(u, None, f)?);
        }
        let (one, k16) = (self.const_u32(1), self.const_u32(16));
        let key = |e: &mut Self, px: Word, py: Word| -> Result<Word, EmitError> {
            let hi = e.b.shift_left_logical(u, None, py, k16)?;
            Ok(e.b.bitwise_or(u, None, hi, px)?)
        };
        let mine = key(self, xy[0], xy[1])?;
        let bx = self.b.bitwise_and(u, None, xy[0], one)?;
        let by = self.b.bitwise_and(u, None, xy[1], one)?;
        let by2 = self.b.shift_left_logical(u, None, by, one)?;
        let pos = self.b.bitwise_or(u, None, bx, by2)?;
        // The wanted position: 2-bit field `pos` of the packed permutation,
        // and its pixel.
        let packed = perm
            .iter()
            .enumerate()
            .fold(0u32, |a, (i, &p)| a | (u32::from(p & 3) << (2 * i)));
        let packed = self.const_u32(packed);
        let sh = self.b.shift_left_logical(u, None, pos, one)?;
        let t = self.b.shift_right_logical(u, None, packed, sh)?;
        let three = self.const_u32(3);
        let want = self.b.bitwise_and(u, None, t, three)?;
        let wx = self.b.bitwise_and(u, None, want, one)?;
        let wy = self.b.shift_right_logical(u, None, want, one)?;
        let not1 = self.const_u32(!1);
        let x0 = self.b.bitwise_and(u, None, xy[0], not1)?;
        let y0 = self.b.bitwise_and(u, None, xy[1], not1)?;
        let tx = self.b.i_add(u, None, x0, wx)?;
        let ty = self.b.i_add(u, None, y0, wy)?;
        let target = key(self, tx, ty)?;
        // The four invocations of this host quad.
        let sid = self.b.load(u, None, self.subgroup_id, None, vec![])?;
        let not3 = self.const_u32(!3);
        let base = self.b.bitwise_and(u, None, sid, not3)?;
        let scope = self.const_u32(spirv::Scope::Subgroup as u32);
        let mut r = self.const_u32(0);
        for j in (0..4).rev() {
            let k = self.const_u32(j);
            let at = self.b.bitwise_or(u, None, base, k)?;
            let kj = self.b.group_non_uniform_shuffle(u, None, scope, mine, at)?;
            let vj = self.b.group_non_uniform_shuffle(u, None, scope, x, at)?;
            let hit = self.b.i_equal(bl, None, kj, target)?;
            r = self.b.select(u, None, hit, vj, r)?;
        }
        Ok(r)
    }

    /// The test-output record of this fragment: `y · width + x` of its
    /// pixel (`width` is the push word the vertex stage's records-per-
    /// instance occupies).
    pub(super) fn fragment_record(&mut self, width: Word) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let v = self
            .b
            .load(self.t.v4f, None, self.frag_coord, None, vec![])?;
        let x = self.b.composite_extract(self.t.f32_, None, v, vec![0])?;
        let y = self.b.composite_extract(self.t.f32_, None, v, vec![1])?;
        let x = self.b.convert_f_to_u(u, None, x)?;
        let y = self.b.convert_f_to_u(u, None, y)?;
        let row = self.b.i_mul(u, None, y, width)?;
        Ok(self.b.i_add(u, None, row, x)?)
    }

    /// Discard this fragment unless `cond` (its exec bit at a `done`
    /// export).
    pub(super) fn kill_unless(&mut self, cond: Word) -> Result<(), EmitError> {
        let kill = self.b.id();
        let merge = self.b.id();
        self.b.selection_merge(merge, SelectionControl::NONE)?;
        self.b.branch_conditional(cond, merge, kill, vec![])?;
        self.b.begin_block(Some(kill))?;
        self.b.kill()?;
        self.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// A store of f32 bits `bits` into the `FragDepth` output.
    pub(super) fn store_depth(
        &mut self,
        var: Word,
        bits: Word,
        cond: Word,
        always: bool,
    ) -> Result<(), EmitError> {
        let fl = self.t.f32_;
        let fv = self.b.bitcast(fl, None, bits)?;
        let nv = if always {
            fv
        } else {
            let old = self.b.load(fl, None, var, None, vec![])?;
            self.b.select(fl, None, cond, fv, old)?
        };
        self.b.store(var, nv, None, vec![])?;
        Ok(())
    }
}

/// Whether the function has a live quad operation (pixel shaders' DPP
/// `quad_perm`).
pub(super) fn uses_quad(f: &crate::ir::Func) -> bool {
    f.insts.iter().enumerate().any(|(i, x)| {
        matches!(x.op, crate::ir::Op::Load(l) if matches!(
            f.loads[l as usize],
            crate::ir::Load::Lanes(_, crate::ir::LaneOp::Quad { .. })
        )) && f.is_live(crate::ir::Value(i as u32))
    })
}
