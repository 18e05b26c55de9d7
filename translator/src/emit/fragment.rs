//! The fragment entry point of a pixel shader: one `vec4` input per
//! interpolated attribute (location = the guest attribute number, with the
//! guest's interpolation as decorations), `gl_FragCoord`, one `vec4`
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
            self.b.name(v, format!("attr{attr}"));
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
