//! MUBUF/MTBUF decoding (stub: not yet implemented).

use super::{DecodeErrorKind, Words};
use crate::inst::{Family, Instruction};
use crate::target::Target;

pub(crate) fn decode_mubuf(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Mubuf,
        opcode: ((d0 >> 18) & 0x7f) as u16,
        target,
    })
}

pub(crate) fn decode_mtbuf(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Mtbuf,
        opcode: ((d0 >> 16) & 0x7) as u16,
        target,
    })
}
