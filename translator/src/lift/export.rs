//! Exports (`exp`): positions and parameters become output effects; the
//! primitive export is dropped (the host assembles primitives). In pixel
//! shaders colour targets (`mrt0..7`, compressed ones widened from their
//! f16 halves), the depth of `mrtz` and `null` are effects too, with their
//! `done` bit (a lane off at a `done` export is discarded).

use super::Lifter;
use crate::ir::{Effect, ExportTarget};
use crate::manifest::Dropped;
use crate::Export;
use isa::{Instruction, Modifiers, Operand, Stage};

impl Lifter<'_> {
    pub(super) fn export(&mut self, inst: &Instruction) {
        let Modifiers::Exp(m) = inst.mods else {
            return;
        };
        let ps = self.o.stage == Stage::Ps;
        let target = match m.target {
            0..=7 if ps => ExportTarget::Mrt(m.target),
            8 if ps => {
                if m.compr || m.en & 0b1110 != 0 {
                    self.problem(Export::StencilMask);
                    return;
                }
                ExportTarget::Mrtz
            }
            9 if ps => ExportTarget::Null,
            12..=15 => ExportTarget::Pos(m.target - 12),
            32..=63 => ExportTarget::Param(m.target - 32),
            20 if self.o.ngg.is_some() => ExportTarget::Prim,
            20 => {
                let inst = self.txt();
                self.dropped.push(Dropped {
                    pc: self.pc,
                    inst,
                    reason: "NGG primitive export: the host does primitive assembly".into(),
                });
                return;
            }
            9 => return,
            0..=8 => {
                self.problem(Export::ColourDepth);
                return;
            }
            _ => {
                self.problem(Export::Target);
                return;
            }
        };
        let mut values = [None; 4];
        if m.compr {
            if !matches!(target, ExportTarget::Mrt(_)) {
                self.problem(Export::Compressed);
                return;
            }
            match self.compressed_values(inst, m.en) {
                Some(v) => values = v,
                None => return,
            }
        }
        for (k, v) in values.iter_mut().enumerate() {
            if m.compr || target == ExportTarget::Null || m.en & (1 << k) == 0 {
                continue;
            }
            if let Some(s) = inst.operands.get(k) {
                if let Operand::Reg { code, .. } = s.op {
                    if code >= 256 {
                        *v = Some(self.st.v[(code - 256) as usize]);
                    }
                }
            }
        }
        if let ExportTarget::Mrt(_) = target {
            self.undefined_colour_components(&mut values);
        }
        let cond = if ps && self.o.ps_faults.drop_discard {
            self.b.bool(true)
        } else {
            self.active()
        };
        self.b.effect(Effect::Export {
            pc: self.pc,
            target,
            values,
            cond,
            done: m.done,
        });
    }

    /// An enabled colour component whose register the shader never wrote
    /// and the entry ABI does not define (ACO exports `undef` for the
    /// components of a wider target format the shader does not write, e.g.
    /// `exp mrt1 v8, v9, v128, v128` for a `uvec2` output): the hardware
    /// exports that register's stale contents, which no program value
    /// determines, so any value is one the guest may produce. Such a
    /// component exports 0 and is listed in the manifest's `dropped`
    /// (the interpreter marks it undefined, and `shaderlift run` does not
    /// compare it).
    fn undefined_colour_components(&mut self, values: &mut [Option<crate::ir::Value>; 4]) {
        for (k, v) in values.iter_mut().enumerate() {
            if !v.is_some_and(|x| self.undefined.contains(&x)) {
                continue;
            }
            *v = Some(self.const_u32(0));
            let inst = self.txt();
            self.dropped.push(Dropped {
                pc: self.pc,
                inst,
                reason: format!(
                    "colour component {} reads a VGPR the shader never writes (the hardware \
                     exports its stale contents): exported as 0",
                    ["x", "y", "z", "w"][k]
                ),
            });
        }
    }
}
