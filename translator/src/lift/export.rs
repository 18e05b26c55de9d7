//! Exports (`exp`): positions and parameters become output effects; the
//! primitive export is dropped (the host assembles primitives).

use super::Lifter;
use crate::ir::{Effect, ExportTarget};
use crate::manifest::Dropped;
use crate::Export;
use isa::{Instruction, Modifiers, Operand};

impl Lifter<'_> {
    pub(super) fn export(&mut self, inst: &Instruction) {
        let Modifiers::Exp(m) = inst.mods else {
            return;
        };
        let target = match m.target {
            12..=15 => ExportTarget::Pos(m.target - 12),
            32..=63 => ExportTarget::Param(m.target - 32),
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
        if m.compr {
            self.problem(Export::Compressed);
            return;
        }
        let mut values = [None; 4];
        for (k, v) in values.iter_mut().enumerate() {
            if m.en & (1 << k) == 0 {
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
        let cond = self.active();
        self.b.effect(Effect::Export {
            pc: self.pc,
            target,
            values,
            cond,
        });
    }
}
