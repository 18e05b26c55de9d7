//! DS decoding.
//!
//! LLVM encodes the fields an opcode does not use as zero and rejects the
//! word when one is not; the generated table says which fields each
//! opcode uses and which bits LLVM ignores instead.

use super::{DecodeErrorKind, Mode, Words};
use crate::family::ds::{self, DsGds, DsMods, DsOffset};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Operand, Slot, VGPR_BASE};

/// `count` VGPRs from the 8-bit register field `field`, or `None` when the
/// range would run past `v255` (LLVM rejects such encodings).
pub(crate) fn vgpr_range(field: u32, count: u8) -> Option<Operand> {
    let field = field & 0xff;
    if field + count as u32 > 256 {
        return None;
    }
    Some(Operand::Reg {
        code: VGPR_BASE + field as u16,
        count,
    })
}

const FAM: Family = Family::Ds;

/// Per opcode, the bits of each dword that must be zero: the offset bytes
/// of opcodes without an offset, bit 16, and the register fields no
/// operand uses, less what LLVM ignores.
static ZERO: [[u32; 2]; 256] = {
    let mut t = [[!0u32; 2]; 256];
    let mut op = 0;
    while op < 256 {
        if let Some(info) = &crate::tables::ds::DS[op] {
            let mut zero0 = 1u32 << 16;
            if matches!(info.offset, DsOffset::None) {
                zero0 |= 0xffff;
            }
            let mut zero1 = !0u32;
            let mut k = 0;
            while k < info.slots().len() {
                zero1 &= !(0xff << info.slots()[k].fld.shift());
                k += 1;
            }
            t[op] = [zero0 & !info.dont_care[0], zero1 & !info.dont_care[1]];
        }
        op += 1;
    }
    t
};

fn invalid(why: &'static str) -> DecodeErrorKind {
    DecodeErrorKind::InvalidField { family: FAM, why }
}

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = (d0 >> 18) & 0xff;
    let info = match ds::info(op as u16) {
        Some(i) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: FAM,
                opcode: op as u16,
                target,
            })
        }
    };
    let d1 = w.get(1)?;
    let gds = d0 & (1 << 17) != 0;
    match (info.gds, gds) {
        (DsGds::Always, false) => return Err(invalid("gds bit must be set")),
        (DsGds::Never, true) => return Err(invalid("gds bit must be clear")),
        _ => {}
    }
    let [zero0, zero1] = ZERO.get(op as usize).copied().unwrap_or([!0; 2]);
    if d0 & zero0 != 0 || d1 & zero1 != 0 {
        return Err(invalid("unused field is not zero"));
    }
    let specs = info.slots();
    let n = specs.len();
    let slots = out.operands.slots_mut();
    for (s, slot) in specs.iter().zip(slots.iter_mut()) {
        let field = d1 >> s.fld.shift();
        let op = vgpr_range(field, s.width).ok_or_else(|| invalid("register range past v255"))?;
        *slot = Slot {
            op,
            access: s.access,
            ty: s.ty,
            mods: Default::default(),
        };
    }
    out.operands.set_len(n);
    let mods = DsMods {
        offset0: if info.offset == DsOffset::None {
            0
        } else {
            d0 as u8
        },
        offset1: if info.offset == DsOffset::None {
            0
        } else {
            (d0 >> 8) as u8
        },
        gds: match info.gds {
            DsGds::Flag => gds,
            DsGds::Always => true,
            DsGds::Never | DsGds::Ignored => false,
        },
    };
    {
        out.opcode = Opcode::new(OpSpace::Ds, op as u16);
        out.family = FAM;
        out.len = 8;
        out.mods = Modifiers::Ds(mods);
        Ok(())
    }
}
