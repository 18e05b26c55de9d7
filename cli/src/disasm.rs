//! `shaderlift disasm`: one instruction per line, in LLVM 19 text.
//!
//! Like `llvm-objdump`, the listing never stops at bad bytes: a dword that
//! is no instruction prints as `.long 0x........` and decoding goes on at
//! the next dword; fewer than four bytes left at the end print as
//! `.byte 0x.., ...`.
//!
//! The listing is always printed whole. If the code ends inside an
//! instruction (a multi-dword instruction cut short, or a partial dword
//! such as a 3-byte file), the command then reports that on stderr, naming
//! the offset, the bytes and what was missing, and exits 1. An empty or
//! unreadable file prints nothing and exits 1.

use super::error::output_result;
use super::{CaptureArgs, CliError};
use isa::{
    Access, DecodeError, DecodeErrorKind, Decoder, Formatter, Instruction, Operand, RegFile,
};
use isa::{Mode, Slot};
use std::fmt::Write as _;
use std::io::{self, BufWriter, Read, Write};

/// Disassemble a captured shader into LLVM 19 text, one instruction per
/// line.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// Print one JSON object per instruction (JSON Lines): pc, bytes, text,
    /// family, opcode, operands; undecodable bytes get an `error` instead.
    #[arg(long)]
    pub json: bool,
}

/// Bytes of a raw file read per piece: the listing holds this much of
/// the file at a time (a reused buffer, so a large file costs no page
/// faults for a buffer of its size). Each page of the buffer costs a page
/// fault once (about 6.5 µs on the 2-vCPU development VM, where a read
/// call costs about 1 µs more per halving of the piece): 16 KiB read
/// 1 MiB in 71 µs and 4 faults, 64 KiB in 50 µs and 16 faults.
const PIECE: usize = 1 << 14;

/// Run `shaderlift disasm`.
pub fn run(args: Args) -> Result<(), CliError> {
    let (capture, rest) = match args.capture.open_raw_head(PIECE)? {
        Some((capture, file)) => (capture, Some(file)),
        None => (args.capture.open()?, None),
    };
    // The listing collects its text in large blocks itself (`Block`), so
    // the writer has no buffer of its own: every block goes to stdout
    // whole, the last one too (a 64 KiB buffer here took the last block
    // through a copy and up to 16 page faults). Still a `BufWriter`: the
    // listing loop is generic over the writer, and this type keeps the
    // loop's code as it was measured.
    let mut out = BufWriter::with_capacity(0, io::stdout().lock());
    let style = if args.json { Style::Json } else { Style::Text };
    let mode = Mode::with_wave_size(capture.target(), capture.wave_size().lanes());
    let listing = match rest {
        None => write_listing(&capture.code, mode, style, &mut out).map_err(Failure::Write),
        Some(file) => write_listing_read(capture.code, file, mode, style, &mut out),
    };
    let listing = match listing {
        Ok(l) => l,
        Err(Failure::Read(source)) => {
            // What was listed stays listed; the read error is the verdict.
            output_result(out.flush())?;
            return Err(corpus::CaptureError::Io {
                path: capture.path,
                source,
            }
            .into());
        }
        Err(Failure::Write(e)) => return output_result(Err(e)),
    };
    output_result(out.flush())?;
    match listing.truncated {
        Some(error) => Err(CliError::Truncated {
            path: capture.path,
            error,
        }),
        None => Ok(()),
    }
}

/// Why [`write_listing_read`] stopped.
#[derive(Debug)]
pub enum Failure {
    /// Reading the code failed.
    Read(io::Error),
    /// Writing the listing failed.
    Write(io::Error),
}

/// [`write_listing`] of code that starts with `head` and goes on in
/// `rest`, read in pieces of [`PIECE`] bytes into one reused buffer. The
/// listing is the one [`write_listing`] prints for the whole code: an
/// instruction is decoded only when all of it is in the buffer (the
/// longest is 20 bytes) or the code has ended.
pub fn write_listing_read<R: Read, W: Write>(
    head: Vec<u8>,
    mut rest: R,
    mode: Mode,
    style: Style,
    out: &mut W,
) -> Result<Listing, Failure> {
    /// The longest instruction, in bytes (VOP3 with a literal, MIMG NSA).
    const LONGEST: usize = 20;
    let mut lister = Lister::new(mode, style);
    // `buf[..len]` holds the code from offset `base`; listing resumes at
    // `pos`. The buffer is zeroed once and then only read into.
    let mut len = head.len();
    let mut buf = head;
    if buf.len() < PIECE {
        buf.resize(PIECE, 0);
    }
    let (mut base, mut pos) = (0usize, 0usize);
    let mut ended = false;
    loop {
        if !ended {
            // Keep the unlisted tail and fill the buffer behind it.
            buf.copy_within(pos..len, 0);
            base += pos;
            len -= pos;
            pos = 0;
            while len < buf.len() {
                match rest.read(&mut buf[len..]) {
                    Ok(0) => {
                        ended = true;
                        break;
                    }
                    Ok(k) => len += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(Failure::Read(e)),
                }
            }
        }
        let stop = if ended {
            len
        } else {
            len.saturating_sub(LONGEST - 1)
        };
        pos = lister
            .list(&buf[..len], base, pos, stop, out)
            .map_err(Failure::Write)?;
        if ended {
            break;
        }
    }
    lister.finish(out).map_err(Failure::Write)
}

/// How [`write_listing`] prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// LLVM text, one instruction per line.
    Text,
    /// One JSON object per line.
    Json,
}

/// What a listing contained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Lines printed (instructions, `.long` and `.byte` lines).
    pub lines: usize,
    /// Lines that were not instructions.
    pub invalid: usize,
    /// The first instruction the end of the code cut short, if any.
    pub truncated: Option<DecodeError>,
}

/// Disassemble `code` for `mode` (target and wave size: wave64 code prints
/// lane masks as `vcc`/`s[0:1]`, like `llvm-objdump --mattr=+wavefrontsize64`)
/// into `out`, one line per instruction.
/// Undecodable bytes are printed LLVM's way and decoding goes on; only
/// writing to `out` can fail.
pub fn write_listing<W: Write>(
    code: &[u8],
    mode: Mode,
    style: Style,
    out: &mut W,
) -> io::Result<Listing> {
    let mut lister = Lister::new(mode, style);
    lister.list(code, 0, 0, code.len(), out)?;
    lister.finish(out)
}

/// The state of a listing printed piece by piece.
struct Lister {
    fmt: Formatter,
    mode: Mode,
    style: Style,
    // Lines are formatted straight into `block` and handed to `out` in
    // large pieces; JSON objects and `.long` lines are built in `line`.
    block: Block,
    line: String,
    scratch: String,
    listing: Listing,
    inst: Instruction,
}

impl Lister {
    fn new(mode: Mode, style: Style) -> Lister {
        Lister {
            fmt: Formatter::new(mode.target),
            mode,
            style,
            block: Block::new(),
            line: String::with_capacity(256),
            scratch: String::with_capacity(64),
            listing: Listing::default(),
            inst: Instruction::default(),
        }
    }

    /// List the instructions of `code` (the code from offset `base`) that
    /// start at `from` or later and before `stop`; returns where the next
    /// one starts.
    fn list<W: Write>(
        &mut self,
        code: &[u8],
        base: usize,
        from: usize,
        stop: usize,
        out: &mut W,
    ) -> io::Result<usize> {
        // The loop runs on locals (moved out and back): state reached
        // through `self` costs loads and stores per instruction.
        let (fmt, style) = (self.fmt, self.style);
        let mut block = std::mem::take(&mut self.block);
        let mut line = std::mem::take(&mut self.line);
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut listing = self.listing;
        let mut inst = self.inst;
        let mut decoder = Decoder::new(code, self.mode);
        decoder.seek(from);
        decoder.stop_at(stop);
        let r = (|| -> io::Result<usize> {
            while let Some((pc, result)) = decoder.next_into(&mut inst) {
                match result {
                    Ok(()) => match style {
                        Style::Text => {
                            let room = block.room();
                            if let Some(n) = fmt.write_into(&inst, room) {
                                // `write_into` leaves 32 bytes unused past the
                                // text: the newline goes there.
                                if let Some(nl) = room.get_mut(n) {
                                    *nl = b'\n';
                                    block.commit(n + 1);
                                } else {
                                    block.commit(n);
                                    block.push(b"\n", out)?;
                                }
                                block.flush_if_full(out)?;
                                listing.lines += 1;
                                continue;
                            } else {
                                // Longer than the room left: through a String.
                                line.clear();
                                let _ = fmt.write(&inst, &mut line);
                                block.push(line.as_bytes(), out)?;
                            }
                        }
                        Style::Json => {
                            let bytes = code.get(pc..pc + inst.len as usize).unwrap_or(&[]);
                            line.clear();
                            json_inst(&fmt, base + pc, bytes, &inst, &mut line, &mut scratch);
                            block.push(line.as_bytes(), out)?;
                        }
                    },
                    Err(mut e) => {
                        e.offset += base;
                        listing.invalid += 1;
                        if matches!(e.kind, DecodeErrorKind::Truncated { .. })
                            && listing.truncated.is_none()
                        {
                            listing.truncated = Some(e);
                        }
                        // The decoder skips one dword, or the partial dword at the end.
                        let end = (pc + 4).min(code.len());
                        let bytes = code.get(pc..end).unwrap_or(&[]);
                        scratch.clear();
                        let _ = match *bytes {
                            [a, b, c, d] => {
                                fmt.write_invalid(u32::from_le_bytes([a, b, c, d]), &mut scratch)
                            }
                            _ => fmt.write_tail(bytes, &mut scratch),
                        };
                        match style {
                            Style::Text => block.push(scratch.as_bytes(), out)?,
                            Style::Json => {
                                line.clear();
                                json_invalid(base + pc, bytes, &scratch, &e, &mut line);
                                block.push(line.as_bytes(), out)?;
                            }
                        }
                    }
                }
                block.push(b"\n", out)?;
                block.flush_if_full(out)?;
                listing.lines += 1;
            }
            Ok(decoder.offset())
        })();
        self.block = block;
        self.line = line;
        self.scratch = scratch;
        self.listing = listing;
        self.inst = inst;
        r
    }

    /// Write out what is left and say what the listing contained.
    fn finish<W: Write>(mut self, out: &mut W) -> io::Result<Listing> {
        self.block.flush(out)?;
        Ok(self.listing)
    }
}

/// Listing text collected before it is written out: a fixed, zeroed-once
/// buffer the formatter writes lines into directly.
#[derive(Default)]
struct Block {
    buf: Vec<u8>,
    len: usize,
}

impl Block {
    /// Bytes collected before a write to the output: 8 pages of page
    /// faults once, and a write call (0.24 µs to `/dev/null` on the
    /// development VM) per 32 KiB of text (see [`PIECE`] for the trade).
    const FLUSH_AT: usize = 1 << 15;
    /// Room kept after [`Block::FLUSH_AT`] for the line being written.
    const SLACK: usize = 4096;

    fn new() -> Block {
        Block {
            buf: vec![0; Block::FLUSH_AT + Block::SLACK],
            len: 0,
        }
    }

    /// The free part of the buffer.
    #[inline]
    fn room(&mut self) -> &mut [u8] {
        self.buf.get_mut(self.len..).unwrap_or_default()
    }

    /// Count `n` bytes written into [`Block::room`].
    #[inline]
    fn commit(&mut self, n: usize) {
        self.len = (self.len + n).min(self.buf.len());
    }

    /// Append `bytes`, writing the buffer out first when they do not fit.
    #[inline]
    fn push<W: Write>(&mut self, bytes: &[u8], out: &mut W) -> io::Result<()> {
        let end = self.len + bytes.len();
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(bytes);
            self.len = end;
            return Ok(());
        }
        self.flush(out)?;
        if bytes.len() <= self.buf.len() {
            self.buf[..bytes.len()].copy_from_slice(bytes);
            self.len = bytes.len();
            Ok(())
        } else {
            out.write_all(bytes)
        }
    }

    #[inline]
    fn flush_if_full<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        if self.len >= Block::FLUSH_AT {
            self.flush(out)?;
        }
        Ok(())
    }

    fn flush<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        let r = out.write_all(&self.buf[..self.len]);
        self.len = 0;
        r
    }
}

fn push_hex(bytes: &[u8], out: &mut String) {
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
}

/// Append `s` as a JSON string literal.
fn push_json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_head(pc: usize, bytes: &[u8], text: &str, out: &mut String) {
    let _ = write!(out, "{{\"pc\":{pc},\"bytes\":\"");
    push_hex(bytes, out);
    out.push_str("\",\"text\":");
    push_json_str(text, out);
}

fn json_invalid(pc: usize, bytes: &[u8], text: &str, e: &DecodeError, out: &mut String) {
    json_head(pc, bytes, text, out);
    out.push_str(",\"error\":");
    let reason = e.kind.to_string();
    push_json_str(&reason, out);
    out.push('}');
}

fn json_inst(
    fmt: &Formatter,
    pc: usize,
    bytes: &[u8],
    inst: &Instruction,
    out: &mut String,
    scratch: &mut String,
) {
    scratch.clear();
    let _ = fmt.write(inst, scratch);
    json_head(pc, bytes, scratch, out);
    let _ = write!(
        out,
        ",\"family\":\"{}\",\"opcode\":\"{}\",\"operands\":[",
        inst.family.name(),
        inst.opcode.name()
    );
    for (i, slot) in inst.operands.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_operand(fmt, slot, out, scratch);
    }
    out.push_str("]}");
}

/// `{"kind", "text", ...kind fields, "access", "type", "mods"?}`.
fn json_operand(fmt: &Formatter, slot: &Slot, out: &mut String, scratch: &mut String) {
    let kind = match slot.op {
        Operand::Reg { .. } => "reg",
        Operand::Inline(_) => "inline",
        Operand::Literal(_) => "literal",
        Operand::Imm(_) => "imm",
        Operand::Off => "off",
    };
    scratch.clear();
    let _ = fmt.write_operand(slot.op, slot.ty, scratch);
    let _ = write!(out, "{{\"kind\":\"{kind}\",\"text\":");
    push_json_str(scratch, out);
    match slot.op {
        Operand::Reg { code, count } => {
            let file = RegFile::of(code);
            scratch.clear();
            match file {
                Some(f) => {
                    let _ = write!(scratch, "{f:?}");
                    scratch.make_ascii_lowercase();
                }
                None => scratch.push_str("other"),
            }
            let _ = write!(out, ",\"file\":\"{scratch}\",\"code\":{code}");
            let index = match file {
                Some(RegFile::Sgpr) => Some(code),
                Some(RegFile::Vgpr) => Some(code - 256),
                Some(RegFile::Ttmp) => Some(code - 108),
                _ => None,
            };
            if let Some(i) = index {
                let _ = write!(out, ",\"index\":{i}");
            }
            let _ = write!(out, ",\"count\":{count}");
        }
        Operand::Inline(c) => {
            let _ = write!(out, ",\"code\":{c}");
        }
        Operand::Literal(v) => {
            let _ = write!(out, ",\"value\":{v}");
        }
        Operand::Imm(v) => {
            let _ = write!(out, ",\"value\":{v}");
        }
        Operand::Off => {}
    }
    let access = if slot.access.contains(Access::READ | Access::WRITE) {
        "read-write"
    } else if slot.access.contains(Access::WRITE) {
        "write"
    } else if slot.access.contains(Access::READ) {
        "read"
    } else {
        "none"
    };
    let _ = write!(out, ",\"access\":\"{access}\"");
    if slot.access.contains(Access::PARTIAL) {
        out.push_str(",\"partial\":true");
    }
    scratch.clear();
    let _ = write!(scratch, "{:?}", slot.ty);
    scratch.make_ascii_lowercase();
    let _ = write!(out, ",\"type\":\"{scratch}\"");
    if !slot.mods.is_empty() {
        out.push_str(",\"mods\":[");
        for (i, (name, _)) in slot.mods.iter_names().enumerate() {
            if i > 0 {
                out.push(',');
            }
            scratch.clear();
            scratch.push_str(name);
            scratch.make_ascii_lowercase();
            push_json_str(scratch, out);
        }
        out.push(']');
    }
    out.push('}');
}
