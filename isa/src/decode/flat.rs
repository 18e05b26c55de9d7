//! Flat decoding (stub: not yet implemented).

use super::{DecodeErrorKind, Words};
use crate::inst::{Family, Instruction};
use crate::target::Target;

pub(crate) fn decode(
    _w: Words<'_>,
    d0: u32,
    target: Target,
) -> Result<Instruction, DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownOpcode {
        family: Family::Flat,
        opcode: (d0 >> 16) as u16,
        target,
    })
}
