//! [`Instruction`]s to LLVM 19 text.
//!
//! The text is what `llvm-objdump-19 -d --no-show-raw-insn --mcpu=<target>`
//! prints for the same bytes, without the address/encoding comment. The
//! formatter writes into any [`core::fmt::Write`] the caller owns and
//! allocates nothing itself. Each family has a module of its own; shared
//! operand printing is in the `operand` module.

mod buf;
mod ds;
mod exp;
mod flat;
mod mimg;
pub(crate) mod operand;
mod smem;
mod sop;
mod vintrp;
mod vop;
mod vop_ext;

use crate::inst::{Family, Instruction};
use crate::target::Target;
use core::fmt;

/// Prints instructions as LLVM 19 does for one target.
#[derive(Clone, Copy, Debug)]
pub struct Formatter {
    target: Target,
}

impl Formatter {
    /// A formatter for `target` (wave32 register names, as llvm-objdump
    /// prints gfx10 code by default).
    pub fn new(target: Target) -> Formatter {
        Formatter { target }
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Write one instruction (no newline).
    pub fn write<W: fmt::Write>(&self, inst: &Instruction, out: &mut W) -> fmt::Result {
        // The text is built in a stack buffer and handed over in one piece;
        // text too long for it is written piece by piece instead.
        let mut window = [0u8; LINE];
        let mut line = Line::new(&mut window);
        if self.write_any(inst, &mut line).is_ok() {
            if let Ok(s) = core::str::from_utf8(line.text()) {
                return out.write_str(s);
            }
        }
        self.write_any(inst, &mut Plain(out))
    }

    /// Write one instruction's text (no newline) at the start of `buf` and
    /// return its length in bytes, or `None` when it does not fit (what
    /// `buf` then holds is unspecified). The text is the same as
    /// [`Formatter::write`]'s, and ASCII. The fastest way to build a
    /// listing: nothing is allocated, grown or zeroed per instruction.
    /// Leave 32 bytes more than the text needs: short pieces (mnemonics,
    /// registers) are copied in 16- and 32-byte blocks.
    #[inline(always)]
    pub fn write_into(&self, inst: &Instruction, buf: &mut [u8]) -> Option<usize> {
        let mut line = Line::new(buf);
        match self.write_any(inst, &mut line) {
            Ok(()) => Some(line.len),
            Err(_) => None,
        }
    }

    /// Write one instruction into any writer, piece by piece.
    #[inline(always)]
    fn write_any<W: Out>(&self, inst: &Instruction, out: &mut W) -> fmt::Result {
        match inst.family {
            Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
                sop::write(self, inst, out)
            }
            Family::Smem => smem::write(self, inst, out),
            Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
                vop::write(self, inst, out)
            }
            Family::Dpp16 | Family::Dpp8 | Family::Sdwa => vop_ext::write(self, inst, out),
            Family::Vintrp => vintrp::write(self, inst, out),
            Family::Ds => ds::write(self, inst, out),
            Family::Mubuf | Family::Mtbuf => buf::write(self, inst, out),
            Family::Mimg => mimg::write(self, inst, out),
            Family::Flat => flat::write(self, inst, out),
            Family::Exp => exp::write(self, inst, out),
        }
    }

    /// Write an undecodable dword the way LLVM does: `.long 0x0123abcd`.
    pub fn write_invalid<W: fmt::Write>(&self, dword: u32, out: &mut W) -> fmt::Result {
        write!(out, ".long {dword:#010x}")
    }

    /// Write a tail shorter than a dword: `.byte 0x00, 0x01`.
    pub fn write_tail<W: fmt::Write>(&self, bytes: &[u8], out: &mut W) -> fmt::Result {
        out.write_str(".byte ")?;
        for (i, b) in bytes.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{b:#04x}")?;
        }
        Ok(())
    }

    /// Write one operand value on its own, the way LLVM prints a plain
    /// source operand: `s[4:7]`, `v5`, `vcc`, `-1`, `1.0`, `0x8000`, `off`.
    /// Family-specific spellings (modifiers, `offset:` fields) are not
    /// applied; this is for listings of operands such as `--json`.
    pub fn write_operand<W: fmt::Write>(
        &self,
        op: crate::operand::Operand,
        ty: crate::operand::ValType,
        out: &mut W,
    ) -> fmt::Result {
        operand::write_operand(op, ty, &mut Plain(out))
    }

    /// A [`fmt::Display`] adapter for one instruction.
    pub fn display<'a>(&'a self, inst: &'a Instruction) -> Display<'a> {
        Display { f: self, inst }
    }
}

/// Room for one instruction's text in [`Formatter::write`]'s stack window:
/// every instruction of the LLVM fixtures fits in well under half of it.
/// Longer text (a long NSA address list with register-class notes, say)
/// takes the slow path.
const LINE: usize = 256;

/// Where the family formatters write: a [`fmt::Write`] that can also take
/// short ASCII chunks in one piece.
pub(crate) trait Out: fmt::Write {
    /// Append the first `chunk[15]` bytes of `chunk` (ASCII; at most 15).
    #[inline]
    fn write_chunk(&mut self, chunk: &[u8; 16]) -> fmt::Result {
        for &b in chunk.iter().take(chunk[15] as usize) {
            self.write_char(b as char)?;
        }
        Ok(())
    }

    /// Append the first `name[31]` bytes of `name` (ASCII; at most 31):
    /// a mnemonic from a [`operand::name_chunk`] table.
    #[inline]
    fn write_name(&mut self, name: &[u8; 32]) -> fmt::Result {
        for &b in name.iter().take(name[31] as usize) {
            self.write_char(b as char)?;
        }
        Ok(())
    }

    /// The fast paths' way in: [`FAST`] free bytes at the end of the text
    /// written so far and the count to add to once they have written
    /// there, or `None` when the writer has no such window (then the
    /// family formatters write piece by piece).
    #[inline(always)]
    fn window(&mut self) -> Option<(&mut [u8; FAST], &mut usize)> {
        None
    }
}

/// Bytes a fast path may write into (see [`Out::window`]). Fast paths
/// write at most [`FAST_TEXT`] bytes of text, each piece a whole 16- or
/// 32-byte block, so no piece needs its own bounds check.
pub(crate) const FAST: usize = 192;

/// The most text a fast path writes (its positions are kept below this).
pub(crate) const FAST_TEXT: usize = 128;

/// A fast path's writer over an [`Out::window`]: every store is a whole
/// block at a position at most [`FAST_TEXT`], so the compiler sees it in
/// bounds. Text that grows past [`FAST_TEXT`] makes [`Fast::done`] fail
/// (the caller then takes its slow path).
pub(crate) struct Fast<'a> {
    buf: &'a mut [u8; FAST],
    pos: usize,
    /// The next separator and its length: `" "` (one byte) before the
    /// first operand, `", "` after it.
    sep: [u8; 2],
    sep_len: usize,
}

impl<'a> Fast<'a> {
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8; FAST]) -> Fast<'a> {
        Fast {
            buf,
            pos: 0,
            sep: [b' ', b' '],
            sep_len: 1,
        }
    }

    /// Where the next piece goes.
    #[inline(always)]
    fn at(&self) -> usize {
        self.pos.min(FAST_TEXT)
    }

    /// The length of the text, or `None` when it outgrew the window.
    #[inline(always)]
    pub(crate) fn done(&self) -> Option<usize> {
        (self.pos <= FAST_TEXT).then_some(self.pos)
    }

    /// A mnemonic (or any [`operand::NameBytes`]).
    #[inline(always)]
    pub(crate) fn name(&mut self, name: &[u8; 32]) {
        let p = self.at();
        self.buf[p..p + 32].copy_from_slice(name);
        self.pos = p + (name[31] & 31) as usize;
    }

    /// A chunk (see [`Out::write_chunk`]).
    #[inline(always)]
    pub(crate) fn chunk(&mut self, c: &[u8; 16]) {
        let p = self.at();
        self.buf[p..p + 16].copy_from_slice(c);
        self.pos = p + (c[15] & 15) as usize;
    }

    /// An operand without modifiers: [`Fast::sep`] and [`Fast::chunk`]
    /// in one step (one position clamp, one count update).
    #[inline(always)]
    pub(crate) fn op(&mut self, c: &[u8; 16]) {
        let p = self.at();
        self.buf[p..p + 2].copy_from_slice(&self.sep);
        let q = p + self.sep_len;
        self.buf[q..q + 16].copy_from_slice(c);
        self.pos = q + (c[15] & 15) as usize;
        self.next_sep();
    }

    /// The separator before an operand: `" "` before the first, `", "`
    /// before the others. Kept as state rather than computed from the
    /// operand's position: a two-byte store and an add per operand.
    #[inline(always)]
    pub(crate) fn sep(&mut self) {
        let p = self.at();
        self.buf[p..p + 2].copy_from_slice(&self.sep);
        self.pos = p + self.sep_len;
        self.next_sep();
    }

    #[inline(always)]
    fn next_sep(&mut self) {
        self.sep = [b',', b' '];
        self.sep_len = 2;
    }
}

/// Any [`fmt::Write`] as an [`Out`], piece by piece.
struct Plain<'a, W: ?Sized>(&'a mut W);

impl<W: fmt::Write + ?Sized> fmt::Write for Plain<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_str(s)
    }
    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.0.write_char(c)
    }
}

impl<W: fmt::Write + ?Sized> Out for Plain<'_, W> {}

/// A fixed window of bytes the formatter writes one instruction into: no
/// capacity growth, one bounds check per piece. Writing past its end is an
/// error, which sends the caller to its slow path.
struct Line<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Line<'a> {
    #[inline(always)]
    fn new(buf: &'a mut [u8]) -> Line<'a> {
        Line { buf, len: 0 }
    }

    /// The text written so far.
    #[inline(always)]
    fn text(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl fmt::Write for Line<'_> {
    #[inline(always)]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        match self.buf.get_mut(self.len..end) {
            Some(dst) => {
                dst.copy_from_slice(s.as_bytes());
                self.len = end;
                Ok(())
            }
            None => Err(fmt::Error),
        }
    }

    #[inline(always)]
    fn write_char(&mut self, c: char) -> fmt::Result {
        match self.buf.get_mut(self.len) {
            Some(b) if c.is_ascii() => {
                *b = c as u8;
                self.len += 1;
                Ok(())
            }
            _ => self.write_str(c.encode_utf8(&mut [0; 4])),
        }
    }
}

impl Out for Line<'_> {
    /// One 16-byte store; the bytes past the chunk's length are
    /// overwritten by what comes next (or cut off at the end).
    #[inline(always)]
    fn write_chunk(&mut self, chunk: &[u8; 16]) -> fmt::Result {
        match self.buf.get_mut(self.len..self.len + 16) {
            Some(dst) => {
                dst.copy_from_slice(chunk);
                self.len += (chunk[15] & 15) as usize;
                Ok(())
            }
            None => Err(fmt::Error),
        }
    }

    #[inline(always)]
    fn window(&mut self) -> Option<(&mut [u8; FAST], &mut usize)> {
        let end = self.len.checked_add(FAST)?;
        let w: &mut [u8; FAST] = self.buf.get_mut(self.len..end)?.try_into().ok()?;
        Some((w, &mut self.len))
    }

    /// Two 16-byte stores, like [`Line::write_chunk`].
    #[inline(always)]
    fn write_name(&mut self, name: &[u8; 32]) -> fmt::Result {
        match self.buf.get_mut(self.len..self.len + 32) {
            Some(dst) => {
                dst.copy_from_slice(name);
                self.len += (name[31] & 31) as usize;
                Ok(())
            }
            None => Err(fmt::Error),
        }
    }
}

/// Displays an instruction with a [`Formatter`].
pub struct Display<'a> {
    f: &'a Formatter,
    inst: &'a Instruction,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.f.write(self.inst, out)
    }
}
