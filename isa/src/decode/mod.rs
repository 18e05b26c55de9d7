//! Bytes to [`Instruction`]s.
//!
//! [`decode`] decodes one instruction; [`Decoder`] walks a code blob and,
//! like `llvm-objdump`, resynchronises one dword after an undecodable one.
//! Each family has a module of its own; this module only classifies the
//! first dword.

mod buf;
mod ds;
mod exp;
mod ext_plan;
mod flat;
mod mimg;
mod smem;
mod sop;
mod sop_plan;
mod vintrp;
mod vop;
mod vop_ext;
mod vop_plan;

use crate::inst::{Family, Instruction};
use crate::target::Target;
use core::fmt;

/// Why a dword sequence is not an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The blob ends inside the instruction.
    #[error("truncated instruction: {needed} bytes needed, {available} available")]
    Truncated {
        /// Bytes the instruction needs.
        needed: u8,
        /// Bytes left in the blob.
        available: u8,
    },
    /// No encoding family matches the first dword.
    #[error("no encoding family matches")]
    UnknownFamily,
    /// The family's opcode field names no instruction on this target.
    #[error("{family} opcode {opcode:#x} is not an instruction on {target}")]
    UnknownOpcode {
        /// The family.
        family: Family,
        /// The opcode field.
        opcode: u16,
        /// The target.
        target: Target,
    },
    /// The opcode exists but a field holds a value LLVM rejects.
    #[error("invalid {family} encoding: {why}")]
    InvalidField {
        /// The family.
        family: Family,
        /// Which field and why.
        why: &'static str,
    },
}

/// A decoding failure, with where it happened and the bytes involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset:#x}: {bytes}: {kind}")]
pub struct DecodeError {
    /// Byte offset of the instruction in the blob.
    pub offset: usize,
    /// The first (up to two) dwords at that offset.
    pub bytes: ErrorBytes,
    /// The reason.
    pub kind: DecodeErrorKind,
}

/// Up to eight bytes from where decoding failed, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorBytes {
    len: u8,
    b: [u8; 8],
}

impl ErrorBytes {
    fn new(bytes: &[u8]) -> ErrorBytes {
        let n = bytes.len().min(8);
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&bytes[..n]);
        ErrorBytes { len: n as u8, b }
    }
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.b[..self.len as usize]
    }
    /// The first dword, if four bytes are present.
    pub fn first_dword(&self) -> Option<u32> {
        (self.len >= 4).then(|| u32::from_le_bytes([self.b[0], self.b[1], self.b[2], self.b[3]]))
    }
}

impl fmt::Display for ErrorBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.as_slice();
        if s.is_empty() {
            return f.write_str("no bytes");
        }
        if s.len().is_multiple_of(4) {
            f.write_str("dwords")?;
            for c in s.chunks(4) {
                write!(f, " {:#010x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))?;
            }
            Ok(())
        } else {
            f.write_str("bytes")?;
            for b in s {
                write!(f, " {b:02x}")?;
            }
            Ok(())
        }
    }
}

/// Read access to the dwords of one instruction.
#[derive(Clone, Copy)]
pub(crate) struct Words<'a> {
    bytes: &'a [u8],
}

impl<'a> Words<'a> {
    /// Dword `i`, or a truncation error if the blob is shorter.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Result<u32, DecodeErrorKind> {
        let o = i * 4;
        match self.bytes.get(o..o + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(DecodeErrorKind::Truncated {
                needed: (o + 4) as u8,
                available: self.bytes.len().min(255) as u8,
            }),
        }
    }
}

/// What to decode for: the target and the wave size.
///
/// The wave size changes what some instructions mean, not only how they
/// print: a lane mask (`vcc`, a `v_cmp*_e64` destination, a carry, a
/// `v_cndmask` selector) is one SGPR in wave32 and an SGPR pair in wave64.
/// `llvm-objdump` decodes gfx10 as wave32 unless given
/// `--mattr=+wavefrontsize64`; a [`Target`] converts to a wave32 mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    /// The target.
    pub target: Target,
    /// Decode lane masks as 64-bit (wave64 code).
    pub wave64: bool,
}

impl Mode {
    /// Wave32 code for `target` (LLVM's default for gfx10).
    pub const fn wave32(target: Target) -> Mode {
        Mode {
            target,
            wave64: false,
        }
    }
    /// Wave64 code for `target`.
    pub const fn wave64(target: Target) -> Mode {
        Mode {
            target,
            wave64: true,
        }
    }
    /// Wave64 when `wave_size` is 64, else wave32.
    pub const fn with_wave_size(target: Target, wave_size: u32) -> Mode {
        Mode {
            target,
            wave64: wave_size == 64,
        }
    }
}

impl From<Target> for Mode {
    fn from(target: Target) -> Mode {
        Mode::wave32(target)
    }
}

/// Decode the instruction at the start of `bytes`.
///
/// ```
/// let i = isa::decode(&[0x00, 0x00, 0x81, 0xbf], isa::Target::Gfx1030).unwrap();
/// assert_eq!(i.len, 4);
/// ```
pub fn decode(bytes: &[u8], mode: impl Into<Mode>) -> Result<Instruction, DecodeError> {
    let mut inst = Instruction::default();
    decode_into(bytes, mode, &mut inst).map(|()| inst)
}

/// Decode the instruction at the start of `bytes` into `out`, without
/// moving an [`Instruction`] around: the fast path for loops. On error the
/// contents of `out` are unspecified.
#[inline]
pub fn decode_into(
    bytes: &[u8],
    mode: impl Into<Mode>,
    out: &mut Instruction,
) -> Result<(), DecodeError> {
    decode_at(bytes, 0, mode.into(), out)
}

/// Decode the instruction at the start of `bytes` as the hardware runs it:
/// what [`decode`] gives, and also the forms LLVM 19 rejects that the
/// hardware executes. The one such form is an SMEM instruction whose data
/// tuple of SGPRs runs into VCC (`s_buffer_load_dwordx4` with sdata 104
/// writes s104, s105, vcc_lo, vcc_hi: register codes are consecutive, VCC
/// being the pair after s105); ACO emits it when a shader does not use VCC.
///
/// For tools that follow execution (control-flow graph, tracer,
/// interpreter, translator). Listings keep [`Decoder`]: LLVM skips one dword
/// there and prints `(invalid instruction)`, and so must a listing that
/// matches it; [`crate::format::Formatter`] prints such an instruction's
/// tuple as `s[104:107]`, a text LLVM does not form.
pub fn decode_hardware(bytes: &[u8], mode: impl Into<Mode>) -> Result<Instruction, DecodeError> {
    let mode = mode.into();
    let mut inst = Instruction::default();
    match decode_at(bytes, 0, mode, &mut inst) {
        Ok(()) => Ok(inst),
        Err(e) => {
            let w = Words { bytes };
            match w.get(0) {
                Ok(d0) if d0 >> 26 == 0b111101 => {
                    smem::decode_hardware(w, d0, mode, &mut inst).map_err(|_| e)?;
                    Ok(inst)
                }
                _ => Err(e),
            }
        }
    }
}

#[inline(always)]
fn decode_at(
    bytes: &[u8],
    offset: usize,
    mode: Mode,
    out: &mut Instruction,
) -> Result<(), DecodeError> {
    let w = Words { bytes };
    match decode_words(w, mode, out) {
        Ok(()) => Ok(()),
        Err(kind) => Err(DecodeError {
            offset,
            bytes: ErrorBytes::new(bytes),
            kind,
        }),
    }
}

/// [`CLASS`] values: what decodes a first dword, by its top nine bits.
const C_VOP2: u8 = 0;
const C_VOPC: u8 = 1;
const C_VOP1: u8 = 2;
const C_SOP: u8 = 3;
const C_VINTRP: u8 = 4;
const C_VOP3P: u8 = 5;
const C_VOP3: u8 = 6;
const C_DS: u8 = 7;
const C_FLAT: u8 = 8;
const C_MUBUF: u8 = 9;
const C_MTBUF: u8 = 10;
const C_MIMG: u8 = 11;
const C_SMEM: u8 = 12;
const C_EXP: u8 = 13;
const C_NONE: u8 = 14;

/// The encoding family's decoder by bits 31:23 of the first dword: one
/// lookup instead of a chain of tests (the same rules as [`classify`],
/// which the test `class_table_matches_classify` checks; DPP/SDWA are
/// told apart later by src0, the scalar families by `sop_plan`'s own
/// lookup on bits 29:23).
static CLASS: [u8; 512] = {
    let mut t = [C_NONE; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = if i >> 8 == 0 {
            match i >> 2 {
                0x3e => C_VOPC,
                0x3f => C_VOP1,
                _ => C_VOP2,
            }
        } else if i >> 7 == 0b10 {
            C_SOP
        } else {
            match i >> 3 {
                0b110010 => C_VINTRP,
                0b110011 => C_VOP3P,
                0b110101 => C_VOP3,
                0b110110 => C_DS,
                0b110111 => C_FLAT,
                0b111000 => C_MUBUF,
                0b111010 => C_MTBUF,
                0b111100 => C_MIMG,
                0b111101 => C_SMEM,
                0b111110 => C_EXP,
                _ => C_NONE,
            }
        };
        i += 1;
    }
    t
};

#[inline(always)]
fn decode_words(w: Words<'_>, mode: Mode, out: &mut Instruction) -> Result<(), DecodeErrorKind> {
    let d0 = w.get(0)?;
    match CLASS[(d0 >> 23) as usize & 511] {
        C_VOP2 => vop::decode_vop_short::<{ vop::SHORT_VOP2 }>(w, d0, mode, out),
        C_VOPC => vop::decode_vop_short::<{ vop::SHORT_VOPC }>(w, d0, mode, out),
        C_VOP1 => vop::decode_vop_short::<{ vop::SHORT_VOP1 }>(w, d0, mode, out),
        C_SOP => sop::decode(w, d0, mode, out),
        C_VINTRP => vintrp::decode(w, d0, mode, out),
        C_VOP3P => vop::decode_vop3p(w, d0, mode, out),
        C_VOP3 => vop::decode_vop3(w, d0, mode, out),
        C_DS => ds::decode(w, d0, mode, out),
        C_FLAT => flat::decode(w, d0, mode, out),
        C_MUBUF => buf::decode_mubuf(w, d0, mode, out),
        C_MTBUF => buf::decode_mtbuf(w, d0, mode, out),
        C_MIMG => mimg::decode(w, d0, mode, out),
        C_SMEM => smem::decode(w, d0, mode, out),
        C_EXP => exp::decode(w, d0, mode, out),
        _ => Err(DecodeErrorKind::UnknownFamily),
    }
}

/// The encoding family the first dword of an instruction selects, without
/// decoding the rest. `None` when no family matches.
pub fn classify(d0: u32) -> Option<Family> {
    if d0 >> 31 == 0 {
        let src0 = d0 & 0x1ff;
        return Some(match src0 {
            0xf9 => Family::Sdwa,
            0xfa => Family::Dpp16,
            0xe9 | 0xea => Family::Dpp8,
            _ => match d0 >> 25 {
                0x3e => Family::Vopc,
                0x3f => Family::Vop1,
                _ => Family::Vop2,
            },
        });
    }
    if d0 >> 30 == 0b10 {
        return Some(match d0 >> 23 {
            0x17d => Family::Sop1,
            0x17e => Family::Sopc,
            0x17f => Family::Sopp,
            _ if d0 >> 28 == 0b1011 => Family::Sopk,
            _ => Family::Sop2,
        });
    }
    Some(match d0 >> 26 {
        0b110010 => Family::Vintrp,
        0b110011 => Family::Vop3p,
        0b110101 => Family::Vop3,
        0b110110 => Family::Ds,
        0b110111 => Family::Flat,
        0b111000 => Family::Mubuf,
        0b111010 => Family::Mtbuf,
        0b111100 => Family::Mimg,
        0b111101 => Family::Smem,
        0b111110 => Family::Exp,
        _ => return None,
    })
}

/// Iterates over the instructions of a code blob.
///
/// Yields `(offset, result)`. After an error it skips one dword (or the
/// rest of the blob if fewer than four bytes remain), as `llvm-objdump`
/// does, so one bad word never hides the code after it.
#[derive(Clone, Debug)]
pub struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// No instruction starting here or later is decoded.
    end: usize,
    mode: Mode,
}

impl<'a> Decoder<'a> {
    /// A decoder over `bytes`, starting at offset 0.
    pub fn new(bytes: &'a [u8], mode: impl Into<Mode>) -> Decoder<'a> {
        Decoder {
            bytes,
            pos: 0,
            end: bytes.len(),
            mode: mode.into(),
        }
    }
    /// Stop before the first instruction that starts at `end` or later
    /// (clamped to the end of the bytes); an instruction that starts
    /// before it still reads the bytes after it. For a caller that holds
    /// a piece of a longer code: with at least 20 bytes (the longest
    /// instruction) after `end`, every instruction decoded is the one the
    /// whole code holds.
    pub fn stop_at(&mut self, end: usize) {
        self.end = end.min(self.bytes.len());
    }
    /// The offset of the next instruction.
    pub fn offset(&self) -> usize {
        self.pos
    }
    /// Continue decoding at `offset` (clamped to the end): for a caller
    /// that decoded the bytes at the current position another way
    /// ([`decode_hardware`]) and steps over them.
    pub fn seek(&mut self, offset: usize) {
        self.pos = offset.min(self.bytes.len());
    }
    /// Decode the next instruction into `out` (the fast path: nothing is
    /// moved). Returns its offset and whether it decoded; `None` at the end.
    #[inline(always)]
    pub fn next_into(&mut self, out: &mut Instruction) -> Option<(usize, Result<(), DecodeError>)> {
        if self.pos >= self.end {
            return None;
        }
        let at = self.pos;
        let rest = &self.bytes[at..];
        match decode_at(rest, at, self.mode, out) {
            Ok(()) => {
                self.pos += out.len as usize;
                Some((at, Ok(())))
            }
            Err(e) => {
                self.pos += if rest.len() >= 4 { 4 } else { rest.len() };
                Some((at, Err(e)))
            }
        }
    }
}

impl Iterator for Decoder<'_> {
    type Item = (usize, Result<Instruction, DecodeError>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let mut inst = Instruction::default();
        let (at, r) = self.next_into(&mut inst)?;
        Some((at, r.map(|()| inst)))
    }
}

/// Sign-extend the low `bits` bits of `v`.
#[allow(dead_code)]
#[inline]
pub(crate) fn sext(v: u32, bits: u32) -> i32 {
    let s = 32 - bits;
    ((v << s) as i32) >> s
}

#[cfg(test)]
mod tests {
    /// The one-lookup dispatch picks the family [`super::classify`] names
    /// for every value of the top nine bits (DPP/SDWA and the scalar
    /// families are told apart after it).
    #[test]
    fn class_table_matches_classify() {
        use super::*;
        for top in 0..512u32 {
            let d0 = top << 23;
            let want = match classify(d0) {
                None => C_NONE,
                Some(Family::Vop2) => C_VOP2,
                Some(Family::Vopc) => C_VOPC,
                Some(Family::Vop1) => C_VOP1,
                Some(Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp) => {
                    C_SOP
                }
                Some(Family::Vintrp) => C_VINTRP,
                Some(Family::Vop3p) => C_VOP3P,
                Some(Family::Vop3) => C_VOP3,
                Some(Family::Ds) => C_DS,
                Some(Family::Flat) => C_FLAT,
                Some(Family::Mubuf) => C_MUBUF,
                Some(Family::Mtbuf) => C_MTBUF,
                Some(Family::Mimg) => C_MIMG,
                Some(Family::Smem) => C_SMEM,
                Some(Family::Exp) => C_EXP,
                Some(f) => panic!("{f} from bits 31:23 alone"),
            };
            assert_eq!(CLASS[top as usize], want, "bits 31:23 = {top:#x}");
        }
    }
}
