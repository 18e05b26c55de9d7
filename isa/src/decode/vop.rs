//! Vector-ALU decoding (stub: not yet implemented).

use super::{DecodeErrorKind, Words};
use crate::inst::{Family, Instruction};
use crate::target::Target;

pub(crate) fn decode_vop_short(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Vop2,
        opcode: (d0 >> 25) as u16,
        target,
    })
}

pub(crate) fn decode_vop3(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Vop3,
        opcode: ((d0 >> 16) & 0x3ff) as u16,
        target,
    })
}

pub(crate) fn decode_vop3p(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Vop3p,
        opcode: ((d0 >> 16) & 0x7f) as u16,
        target,
    })
}
