//! SMEM decoding. Field layout: see `isa/gen/src/families/smem.rs` and
//! [`crate::family::smem`].

use super::{sext, DecodeErrorKind, Mode, Words};
use crate::family::smem::{self, DataRole, SmemMods};
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, OpMods, Operand, Slot, ValType};

pub(crate) fn decode(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    decode_with(w, d0, mode, out, sreg_tuple)
}

/// [`decode`] as the hardware runs it: a data tuple of SGPRs may also run
/// into VCC ([`sreg_tuple_into_vcc`]), which LLVM rejects.
pub(crate) fn decode_hardware(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeErrorKind> {
    decode_with(w, d0, mode, out, sreg_tuple_into_vcc)
}

fn decode_with(
    w: Words<'_>,
    d0: u32,
    mode: Mode,
    out: &mut Instruction,
    data_tuple: fn(u16, u8) -> Option<u16>,
) -> Result<(), DecodeErrorKind> {
    let target = mode.target;
    let op = ((d0 >> 18) & 0xff) as u16;
    let info = match smem::info(op) {
        Some(i) if i.targets & target.bit() != 0 => i,
        _ => {
            return Err(DecodeErrorKind::UnknownOpcode {
                family: Family::Smem,
                opcode: op,
                target,
            })
        }
    };
    let d1 = w.get(1)?;
    let glc = info.glc && d0 & (1 << 16) != 0;
    let dlc = info.dlc && d0 & (1 << 14) != 0;
    let sdata = ((d0 >> 6) & 0x7f) as u16;
    let operands = &mut out.operands;
    operands.clear();
    let data_access = match info.data {
        DataRole::None => None,
        DataRole::Load => Some(Access::WRITE),
        DataRole::Store | DataRole::Imm => Some(Access::READ),
        DataRole::Atomic if glc => Some(Access::READ | Access::WRITE),
        DataRole::AtomicCmpswap if glc => Some(Access::READ | Access::WRITE | Access::PARTIAL),
        DataRole::Atomic | DataRole::AtomicCmpswap => Some(Access::READ),
    };
    if let Some(access) = data_access {
        let (op, ty) = if info.data == DataRole::Imm {
            (Operand::Imm(i32::from(sdata)), ValType::B32)
        } else {
            (
                sreg_with(sdata, info.data_width, data_tuple)?,
                ValType::Data,
            )
        };
        operands.push(Slot {
            op,
            access,
            ty,
            mods: OpMods::empty(),
        });
    }
    if info.base_width != 0 {
        let base = sreg(((d0 & 0x3f) << 1) as u16, info.base_width)?;
        operands.push(Slot::use_(base, ValType::Addr));
    }
    let mut offset = 0;
    if info.offset {
        // Every 7-bit code is a valid 32-bit scalar register here.
        let soffset = (d1 >> 25) as u16;
        operands.push(Slot::use_(
            Operand::Reg {
                code: soffset,
                count: 1,
            },
            ValType::B32,
        ));
        offset = sext(d1 & 0x1f_ffff, 21);
    }
    {
        out.opcode = Opcode::new(OpSpace::Smem, op);
        out.family = Family::Smem;
        out.len = 8;
        out.mods = Modifiers::Smem(SmemMods { offset, glc, dlc });
        Ok(())
    }
}

/// The first register code of a `width`-dword scalar register tuple named
/// by a 7-bit field, as LLVM decodes it: SGPR and TTMP tuples are rounded
/// down to their alignment (2 dwords for pairs, 4 for anything wider) and
/// must fit in their file; `vcc`, `null` and `exec` are the only other
/// wide registers. Returns the code the tuple starts at (the same as
/// [`crate::encode`] needs back, up to the rounded-away bits).
pub(crate) fn sreg_tuple(code: u16, width: u8) -> Option<u16> {
    let w = u16::from(width.max(1));
    let align: u16 = match w {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    match code {
        0..=105 => {
            let base = code & !(align - 1);
            (base + w <= 106).then_some(base)
        }
        108..=123 => {
            let t = (code - 108) & !(align - 1);
            (t + w <= 16).then_some(108 + t)
        }
        106 | 125 | 126 => Some(code),
        107 | 124 | 127 if w == 1 => Some(code),
        _ => None,
    }
}

/// [`sreg_tuple`], and also an aligned SGPR tuple that runs past s105
/// into `vcc_lo`/`vcc_hi` (codes 106 and 107) and no further: the SGPR
/// file's codes are consecutive there (VCC is the pair after the last
/// SGPR), so `s_buffer_load_dwordx4` with sdata 104 writes s104, s105,
/// vcc_lo and vcc_hi. ACO allocates such tuples when a shader does not use
/// VCC; LLVM 19 cannot print them (`(invalid instruction)`).
pub(crate) fn sreg_tuple_into_vcc(code: u16, width: u8) -> Option<u16> {
    if let Some(first) = sreg_tuple(code, width) {
        return Some(first);
    }
    let w = u16::from(width.max(1));
    let align: u16 = if w == 2 { 2 } else { 4 };
    let base = code & !(align - 1);
    (w > 1 && code <= 105 && base + w > 106 && base + w <= 108).then_some(base)
}

fn sreg(code: u16, width: u8) -> Result<Operand, DecodeErrorKind> {
    sreg_with(code, width, sreg_tuple)
}

fn sreg_with(
    code: u16,
    width: u8,
    tuple: fn(u16, u8) -> Option<u16>,
) -> Result<Operand, DecodeErrorKind> {
    match tuple(code, width) {
        Some(first) => Ok(Operand::Reg {
            code: first,
            count: width,
        }),
        None => Err(DecodeErrorKind::InvalidField {
            family: Family::Smem,
            why: "register field does not name a register of the operand's width",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_aligned_sgpr_tuples_ending_in_vcc_run_into_it() {
        // LLVM's rule rejects them; the hardware's takes them.
        assert_eq!(sreg_tuple(104, 4), None);
        assert_eq!(sreg_tuple_into_vcc(104, 4), Some(104));
        assert_eq!(sreg_tuple_into_vcc(100, 8), Some(100));
        assert_eq!(sreg_tuple_into_vcc(92, 16), Some(92));
        // Past vcc_hi (into the trap registers) stays invalid.
        assert_eq!(sreg_tuple_into_vcc(104, 8), None);
        assert_eq!(sreg_tuple_into_vcc(100, 16), None);
        // What LLVM takes is unchanged.
        assert_eq!(sreg_tuple_into_vcc(100, 4), Some(100));
        assert_eq!(sreg_tuple_into_vcc(106, 2), Some(106));
        assert_eq!(sreg_tuple_into_vcc(108, 4), Some(108));
    }
}
