//! Printing of registers and constants shared by every family.

use super::Out;
use crate::operand::{Operand, ValType, VGPR_BASE};
use core::fmt;

/// Name of a single register code (count 1), as LLVM prints it.
#[inline]
pub(crate) const fn reg_name(code: u16) -> Option<&'static str> {
    Some(match code {
        106 => "vcc_lo",
        107 => "vcc_hi",
        124 => "m0",
        125 => "null",
        126 => "exec_lo",
        127 => "exec_hi",
        235 => "src_shared_base",
        236 => "src_shared_limit",
        237 => "src_private_base",
        238 => "src_private_limit",
        239 => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        254 => "src_lds_direct",
        _ => return None,
    })
}

/// A short ASCII text (at most 15 bytes) for [`Out::write_chunk`]: the
/// bytes, then the length in the last byte.
pub(crate) type ChunkBytes = [u8; 16];

/// Builds a [`ChunkBytes`]; text that does not fit is reported by
/// [`Chunk::done`] rather than cut.
struct Chunk {
    b: ChunkBytes,
    n: usize,
}

impl Chunk {
    #[inline(always)]
    const fn new() -> Chunk {
        Chunk { b: [0; 16], n: 0 }
    }

    #[inline(always)]
    const fn byte(mut self, x: u8) -> Chunk {
        if self.n < 15 {
            self.b[self.n] = x;
        }
        self.n += 1;
        self
    }

    const fn text(mut self, s: &str) -> Chunk {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() {
            self = self.byte(s[i]);
            i += 1;
        }
        self
    }

    /// `v` in decimal (`v` < 1000; larger values make the chunk overflow).
    #[inline(always)]
    const fn dec(self, v: u32) -> Chunk {
        if v >= 1000 {
            let mut c = self;
            c.n = 16;
            c
        } else if v >= 100 {
            self.byte(b'0' + (v / 100) as u8)
                .byte(b'0' + (v / 10 % 10) as u8)
                .byte(b'0' + (v % 10) as u8)
        } else if v >= 10 {
            self.byte(b'0' + (v / 10) as u8).byte(b'0' + (v % 10) as u8)
        } else {
            self.byte(b'0' + v as u8)
        }
    }

    /// The finished chunk, or `None` if the text did not fit.
    #[inline(always)]
    const fn done(mut self) -> Option<ChunkBytes> {
        if self.n <= 15 {
            self.b[15] = self.n as u8;
            Some(self.b)
        } else {
            None
        }
    }
}

/// The text of a single register (count 1) as a chunk; length 0 when the
/// code has no short name (`src_private_limit`, constants, ...).
const fn reg_text_chunk(code: u16) -> ChunkBytes {
    let c = match code {
        0..=105 => Chunk::new().byte(b's').dec(code as u32),
        108..=123 => Chunk::new().text("ttmp").dec(code as u32 - 108),
        VGPR_BASE..=511 => Chunk::new().byte(b'v').dec((code - VGPR_BASE) as u32),
        _ => match reg_name(code) {
            Some(name) => Chunk::new().text(name),
            None => Chunk::new(),
        },
    };
    match c.done() {
        Some(b) => b,
        None => [0; 16],
    }
}

/// The text of `count` (2, 3, 4 or 8) registers from `code` as a chunk
/// (`s[4:5]`, `v[0:3]`, `ttmp[2:3]`, `vcc`, `exec`), as [`write_reg`]
/// prints them; length 0 when there is no such range text.
const fn range_text_chunk(code: u16, count: u16) -> ChunkBytes {
    let (prefix, first) = match code {
        VGPR_BASE..=511 => ("v", code - VGPR_BASE),
        0..=105 => ("s", code),
        108..=123 => ("ttmp", code - 108),
        106 if count == 2 => ("vcc", 0),
        126 if count == 2 => ("exec", 0),
        _ => return [0; 16],
    };
    let c = if code == 106 || code == 126 {
        Chunk::new().text(prefix)
    } else {
        Chunk::new()
            .text(prefix)
            .byte(b'[')
            .dec(first as u32)
            .byte(b':')
            .dec(first as u32 + count as u32 - 1)
            .byte(b']')
    };
    match c.done() {
        Some(b) => b,
        None => [0; 16],
    }
}

/// [`range_text_chunk`] of every register code, for pairs and quads.
static RANGE_CHUNKS: [[ChunkBytes; 2]; 512] = {
    let mut t = [[[0u8; 16]; 2]; 512];
    let mut code = 0;
    while code < 512 {
        t[code] = [
            range_text_chunk(code as u16, 2),
            range_text_chunk(code as u16, 4),
        ];
        code += 1;
    }
    t
};

/// The text of `count` registers from `code` as a chunk when it is a
/// single register with a short name, a pair or a quad.
#[inline(always)]
pub(crate) fn reg_text(code: u16, count: u8) -> Option<&'static ChunkBytes> {
    let c = match count {
        0 | 1 => REG_CHUNKS.get(code as usize),
        2 => RANGE_CHUNKS.get(code as usize).map(|r| &r[0]),
        4 => RANGE_CHUNKS.get(code as usize).map(|r| &r[1]),
        _ => None,
    };
    c.filter(|c| c[15] != 0)
}

/// [`range_text_chunk`] of every register code for 3 and 8 registers
/// (MIMG data and address triples, image descriptors): [`reg_text_wide`].
static WIDE_CHUNKS: [[ChunkBytes; 2]; 512] = {
    let mut t = [[[0u8; 16]; 2]; 512];
    let mut code = 0;
    while code < 512 {
        t[code] = [
            range_text_chunk(code as u16, 3),
            range_text_chunk(code as u16, 8),
        ];
        code += 1;
    }
    t
};

/// [`reg_text`], and also 3 and 8 registers (kept out of [`reg_text`],
/// which the vector-ALU fast paths inline).
#[inline(always)]
pub(crate) fn reg_text_wide(code: u16, count: u8) -> Option<&'static ChunkBytes> {
    let c = match count {
        3 => WIDE_CHUNKS.get(code as usize).map(|r| &r[0]),
        8 => WIDE_CHUNKS.get(code as usize).map(|r| &r[1]),
        _ => return reg_text(code, count),
    };
    c.filter(|c| c[15] != 0)
}

/// [`reg_text_chunk`] of every register code.
static REG_CHUNKS: [ChunkBytes; 512] = {
    let mut t = [[0u8; 16]; 512];
    let mut code = 0;
    while code < 512 {
        t[code] = reg_text_chunk(code as u16);
        code += 1;
    }
    t
};

/// The inline integer constants (codes 128..=208: 0..=64, -1..=-16) as
/// chunks.
static INLINE_INT_CHUNKS: [ChunkBytes; 81] = {
    let mut t = [[0u8; 16]; 81];
    let mut i = 0;
    while i < 81 {
        let c = if i <= 64 {
            Chunk::new().dec(i as u32)
        } else {
            Chunk::new().byte(b'-').dec(i as u32 - 64)
        };
        if let Some(b) = c.done() {
            t[i] = b;
        }
        i += 1;
    }
    t
};

/// The inline float constants (codes 240..=248) as LLVM names them for
/// every operand kind but 16-bit integers (which print the f16 bit
/// pattern) and, for 1/(2π), 64-bit ones (which print more digits).
static INLINE_FLOAT_CHUNKS: [ChunkBytes; 9] = {
    let names = [
        "0.5",
        "-0.5",
        "1.0",
        "-1.0",
        "2.0",
        "-2.0",
        "4.0",
        "-4.0",
        "0.15915494",
    ];
    let mut t = [[0u8; 16]; 9];
    let mut i = 0;
    while i < 9 {
        if let Some(b) = Chunk::new().text(names[i]).done() {
            t[i] = b;
        }
        i += 1;
    }
    t
};

/// An inline constant code as a chunk: integers (128..=208) always, the
/// float constants (240..=248) when `float_names` (see
/// [`INLINE_FLOAT_CHUNKS`]).
#[inline(always)]
pub(crate) fn inline_chunk(code: u8, float_names: bool) -> Option<&'static ChunkBytes> {
    match code {
        128..=208 => INLINE_INT_CHUNKS.get(code as usize - 128),
        240..=248 if float_names => INLINE_FLOAT_CHUNKS.get(code as usize - 240),
        _ => None,
    }
}

/// Template operand bits (`acc`): inline integers print plainly.
pub(crate) const ACC_INT: u8 = 16;
/// Inline floats 240..=247 print by name.
pub(crate) const ACC_FLOAT: u8 = 32;
/// 1/(2π), 248, prints as `0.15915494` (not a 64-bit float or 16-bit
/// integer operand).
pub(crate) const ACC_INV2PI: u8 = 64;

/// The chunk of inline constant `code` when the template bits `acc` say
/// it prints plainly (see [`ACC_INT`] and friends).
#[inline(always)]
pub(crate) fn inline_plain(code: u8, acc: u8) -> Option<&'static ChunkBytes> {
    let need = match code {
        128..=208 => ACC_INT,
        240..=247 => ACC_FLOAT,
        _ => ACC_INV2PI,
    };
    if acc & need == 0 {
        return None;
    }
    inline_chunk(code, true)
}

/// `0x` and `n` in lowercase hex without leading zeros, as a chunk (what
/// [`write_hex`] prints for a 32-bit value).
#[inline]
pub(crate) fn hex_chunk(n: u32) -> ChunkBytes {
    let digits = (32 - (n | 1).leading_zeros()).div_ceil(4);
    // One nibble per byte, the highest nibble in the highest byte.
    let mut x = n as u64;
    x = ((x & 0xffff_0000) << 16) | (x & 0xffff);
    x = ((x & 0x0000_ff00_0000_ff00) << 8) | (x & 0x0000_00ff_0000_00ff);
    x = ((x & 0x00f0_00f0_00f0_00f0) << 4) | (x & 0x000f_000f_000f_000f);
    // Nibbles to ASCII: '0'..'9', then 'a'..'f' (39 past '9' + 1).
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    let ascii = x + 0x3030_3030_3030_3030 + letters * 39;
    // Highest nibble first, the leading zeros dropped.
    let text = ascii.swap_bytes() >> (8 * (8 - digits));
    let mut c = [0u8; 16];
    c[0] = b'0';
    c[1] = b'x';
    c[2..10].copy_from_slice(&text.to_le_bytes());
    c[15] = 2 + digits as u8;
    c
}

/// The chunk of a small integer, -16..=64 (what [`write_int`] prints);
/// `None` outside that range.
#[inline]
pub(crate) fn small_int_chunk(n: i32) -> Option<&'static ChunkBytes> {
    let i = match n {
        0..=64 => n as usize,
        -16..=-1 => (64 - n) as usize,
        _ => return None,
    };
    INLINE_INT_CHUNKS.get(i)
}

/// `s` as a chunk for [`Out::write_chunk`] (it must be at most 15 bytes;
/// longer text gives an empty chunk).
pub(crate) const fn text_chunk(s: &str) -> ChunkBytes {
    match Chunk::new().text(s).done() {
        Some(b) => b,
        None => [0; 16],
    }
}

/// A mnemonic padded to 32 bytes for [`Out::write_name`], its length in
/// the last byte (0 when it is longer than 31 bytes: write it as a `str`).
pub(crate) type NameBytes = [u8; 32];

/// [`NameBytes`] of `name`.
pub(crate) const fn name_chunk(name: &str) -> NameBytes {
    let b = name.as_bytes();
    let mut t = [0u8; 32];
    if b.len() > 31 {
        return t;
    }
    let mut i = 0;
    while i < b.len() {
        t[i] = b[i];
        i += 1;
    }
    t[31] = b.len() as u8;
    t
}

/// Write a mnemonic from its [`NameBytes`], or from the `str` when it is
/// too long for them.
#[inline(always)]
pub(crate) fn write_mnemonic<W: Out>(chunk: &NameBytes, name: &str, out: &mut W) -> fmt::Result {
    if chunk[31] != 0 {
        out.write_name(chunk)
    } else {
        out.write_str(name)
    }
}

/// The ASCII digit `n` (0..=9).
#[inline(always)]
fn digit(n: u32) -> char {
    (b'0' + n as u8) as char
}

/// The separator before operand `first`: `" "` before the first, `", "`
/// before the others.
#[inline(always)]
pub(crate) fn write_sep<W: Out>(out: &mut W, first: bool) -> fmt::Result {
    if first {
        out.write_char(' ')
    } else {
        out.write_str(", ")
    }
}

/// Write `n` in decimal without the `core::fmt` machinery (the formatter's
/// hot path prints many small numbers: register indices, offsets).
#[inline]
pub(crate) fn write_dec<W: Out>(out: &mut W, n: u32) -> fmt::Result {
    if n < 10 {
        return out.write_char(digit(n));
    }
    match Chunk::new().dec(n).done() {
        Some(c) => out.write_chunk(&c),
        None => write_dec_wide(out, n),
    }
}

/// [`write_dec`] for numbers of four digits or more: up to five digits
/// (offsets, mostly) without a loop or a division instruction, as one
/// chunk.
fn write_dec_wide<W: Out>(out: &mut W, n: u32) -> fmt::Result {
    if n >= 100_000 {
        return write_dec_long(out, n);
    }
    let digits =
        1 + (n >= 10) as u32 + (n >= 100) as u32 + (n >= 1_000) as u32 + (n >= 10_000) as u32;
    // Five ASCII digits, the most significant in the lowest byte, then
    // the leading zeros shifted out.
    let d = [
        n / 10_000,
        n / 1_000 % 10,
        n / 100 % 10,
        n / 10 % 10,
        n % 10,
    ];
    let mut x = 0u64;
    for (i, v) in d.iter().enumerate() {
        x |= (b'0' as u64 + *v as u64) << (8 * i);
    }
    let text = x >> (8 * (5 - digits));
    let mut c = [0u8; 16];
    c[..8].copy_from_slice(&text.to_le_bytes());
    c[15] = digits as u8;
    out.write_chunk(&c)
}

/// [`write_dec`] for numbers of six digits or more.
#[inline(never)]
fn write_dec_long<W: Out>(out: &mut W, mut n: u32) -> fmt::Result {
    // Up to ten digits, right-aligned in `buf`, then as one chunk.
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    while n > 0 && i > 0 {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let mut c = [0u8; 16];
    let len = buf.len() - i;
    c[..len].copy_from_slice(&buf[i..]);
    c[15] = len as u8;
    out.write_chunk(&c)
}

/// Write a signed number in decimal (`-5`, `12`), as `{}` prints it.
#[inline]
pub(crate) fn write_int<W: Out>(out: &mut W, n: i64) -> fmt::Result {
    if n < 0 {
        out.write_char('-')?;
    }
    let m = n.unsigned_abs();
    match u32::try_from(m) {
        Ok(m) => write_dec(out, m),
        Err(_) => write_dec_u64(out, m),
    }
}

/// [`write_dec`] for 64-bit numbers.
fn write_dec_u64<W: Out>(out: &mut W, mut n: u64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.write_char(b as char)?;
    }
    Ok(())
}

/// Write `n` as LLVM's lower-case hex, `0x1f`, without `core::fmt` (as
/// `{:#x}` prints it).
#[inline]
pub(crate) fn write_hex<W: Out>(out: &mut W, n: u64) -> fmt::Result {
    out.write_str("0x")?;
    let digits = (64 - (n | 1).leading_zeros()).div_ceil(4);
    for k in (0..digits).rev() {
        out.write_char(b"0123456789abcdef"[((n >> (4 * k)) & 15) as usize] as char)?;
    }
    Ok(())
}

/// `prefix{first}` or `prefix[first:last]`.
#[inline(always)]
fn write_range<W: Out>(out: &mut W, prefix: &str, first: u16, count: u16) -> fmt::Result {
    if count > 1 {
        let last = first as u32 + count as u32 - 1;
        let c = Chunk::new().text(prefix).byte(b'[').dec(first as u32);
        if let Some(c) = c.byte(b':').dec(last).byte(b']').done() {
            return out.write_chunk(&c);
        }
    }
    out.write_str(prefix)?;
    if count == 1 {
        write_dec(out, first as u32)
    } else {
        out.write_char('[')?;
        write_dec(out, first as u32)?;
        out.write_char(':')?;
        write_dec(out, (first + count - 1) as u32)?;
        out.write_char(']')
    }
}

/// Write a register range: `s5`, `s[4:7]`, `v[0:3]`, `ttmp[0:1]`, `vcc`,
/// `exec`, `vcc_lo`, `m0` ...
#[inline]
pub(crate) fn write_reg<W: Out>(code: u16, count: u8, out: &mut W) -> fmt::Result {
    // The common cases first: one register with a short name, a pair, a
    // quad.
    if let Some(c) = reg_text_wide(code, count) {
        return out.write_chunk(c);
    }
    write_reg_range(code, count, out)
}

/// [`write_reg`] for ranges and long names.
fn write_reg_range<W: Out>(code: u16, count: u8, out: &mut W) -> fmt::Result {
    let count = count.max(1) as u16;
    match code {
        VGPR_BASE..=511 => write_range(out, "v", code - VGPR_BASE, count),
        0..=105 => write_range(out, "s", code, count),
        108..=123 => write_range(out, "ttmp", code - 108, count),
        106 if count == 2 => out.write_str("vcc"),
        126 if count == 2 => out.write_str("exec"),
        _ => match reg_name(code) {
            Some(n) => out.write_str(n),
            None => {
                out.write_str("<reg ")?;
                write_dec(out, code as u32)?;
                out.write_char('>')
            }
        },
    }
}

/// Write an inline constant for an operand of type `ty`.
pub(crate) fn write_inline<W: Out>(code: u8, ty: ValType, out: &mut W) -> fmt::Result {
    match code {
        128..=192 => write_dec(out, (code - 128) as u32),
        193..=208 => {
            out.write_str("-")?;
            write_dec(out, (code - 192) as u32)
        }
        240 => out.write_str("0.5"),
        241 => out.write_str("-0.5"),
        242 => out.write_str("1.0"),
        243 => out.write_str("-1.0"),
        244 => out.write_str("2.0"),
        245 => out.write_str("-2.0"),
        246 => out.write_str("4.0"),
        247 => out.write_str("-4.0"),
        248 => match ty {
            ValType::F64 | ValType::B64 => out.write_str("0.15915494309189532"),
            _ => out.write_str("0.15915494"),
        },
        _ => {
            out.write_str("<inline ")?;
            write_dec(out, code as u32)?;
            out.write_char('>')
        }
    }
}

/// Write a generic operand (register, inline constant or literal).
#[inline]
pub(crate) fn write_operand<W: Out>(op: Operand, ty: ValType, out: &mut W) -> fmt::Result {
    match op {
        Operand::Reg { code, count } => write_reg(code, count, out),
        Operand::Inline(c) => write_inline(c, ty, out),
        Operand::Literal(v) => write_hex(out, v as u64),
        Operand::Imm(v) => write_int(out, v as i64),
        Operand::Off => out.write_str("off"),
    }
}

/// Write a 32-bit immediate value (a literal, or an immediate field) the
/// way LLVM's `printImmediate32` does: integers -16..=64 in decimal, the
/// bit patterns of the inline float constants as floats (`0x3f800000` is
/// `1.0`), anything else in hex.
pub(crate) fn write_imm32<W: Out>(v: u32, out: &mut W) -> fmt::Result {
    let s = v as i32;
    if (-16..=64).contains(&s) {
        return write_int(out, s as i64);
    }
    let name = match v {
        0x3f00_0000 => "0.5",
        0xbf00_0000 => "-0.5",
        0x3f80_0000 => "1.0",
        0xbf80_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4080_0000 => "4.0",
        0xc080_0000 => "-4.0",
        0x3e22_f983 => "0.15915494",
        _ => return write_hex(out, v as u64),
    };
    out.write_str(name)
}

/// Write a 64-bit integer immediate the way LLVM's `printImmediate64` does
/// for integer operands: -16..=64 in decimal, the bit patterns of the
/// inline double constants as floats, anything else in hex.
pub(crate) fn write_imm64<W: Out>(v: u64, out: &mut W) -> fmt::Result {
    let s = v as i64;
    if (-16..=64).contains(&s) {
        return write_int(out, s);
    }
    let name = match v {
        0x3fe0_0000_0000_0000 => "0.5",
        0xbfe0_0000_0000_0000 => "-0.5",
        0x3ff0_0000_0000_0000 => "1.0",
        0xbff0_0000_0000_0000 => "-1.0",
        0x4000_0000_0000_0000 => "2.0",
        0xc000_0000_0000_0000 => "-2.0",
        0x4010_0000_0000_0000 => "4.0",
        0xc010_0000_0000_0000 => "-4.0",
        0x3fc4_5f30_6dc9_c882 => "0.15915494309189532",
        _ => return write_hex(out, v),
    };
    out.write_str(name)
}

/// [`NameBytes`] of every row of a generated memory-family table (empty
/// rows and over-long names stay zero: [`write_opcode_name`] then writes
/// the `str`).
macro_rules! names_of {
    ($table:expr) => {{
        let mut t = [[0u8; 32]; $table.len()];
        let mut i = 0;
        while i < t.len() {
            if let Some(r) = &$table[i] {
                t[i] = name_chunk(r.name.as_str());
            }
            i += 1;
        }
        t
    }};
}

static DS_NAMES: [NameBytes; 256] = names_of!(crate::tables::ds::DS);
static MUBUF_NAMES: [NameBytes; 256] = names_of!(crate::tables::mubuf::MUBUF);
static MTBUF_NAMES: [NameBytes; 16] = names_of!(crate::tables::mtbuf::MTBUF);
static MIMG_NAMES: [NameBytes; 256] = names_of!(crate::tables::mimg::MIMG);
static SMEM_NAMES: [NameBytes; 256] = names_of!(crate::tables::smem::SMEM);
static FLAT_NAMES: [[NameBytes; 128]; 3] = [
    names_of!(crate::tables::flat::FLAT),
    names_of!(crate::tables::flat::GLOBAL),
    names_of!(crate::tables::flat::SCRATCH),
];

/// Write an opcode's mnemonic: one 32-byte copy from a precomputed table
/// for the memory families, else [`crate::Opcode::name`].
#[inline(always)]
pub(crate) fn write_opcode_name<W: Out>(op: crate::Opcode, out: &mut W) -> fmt::Result {
    match opcode_name_bytes(op) {
        Some(c) => out.write_name(c),
        None => out.write_str(op.name()),
    }
}

/// `off`, as a chunk.
static OFF_TEXT: ChunkBytes = text_chunk("off");

/// The fast path of the memory families' formatters: the mnemonic and the
/// operands, when every operand is a register [`reg_text_wide`] has, `off` or
/// an inline integer, and `plain` accepts it (it refuses operands that print with a note),
/// written into the writer's window in whole blocks, the same text
/// [`write_opcode_name`], [`write_sep`] and [`write_operand`] print.
/// Returns false (having written nothing that counts) otherwise.
#[inline(always)]
pub(crate) fn write_head_fast<W: Out>(
    inst: &crate::Instruction,
    out: &mut W,
    plain: impl Fn(&crate::Slot) -> bool,
) -> bool {
    let Some((w, len)) = out.window() else {
        return false;
    };
    let Some(name) = opcode_name_bytes(inst.opcode) else {
        return false;
    };
    let mut f = super::Fast::new(w);
    f.name(name);
    for s in inst.operands.iter() {
        let c = match s.op {
            Operand::Reg { code, count } => match reg_text_wide(code, count) {
                Some(c) => c,
                None => return false,
            },
            Operand::Off => &OFF_TEXT,
            // Inline integers print the same for every operand type.
            Operand::Inline(code @ 128..=208) => match inline_chunk(code, false) {
                Some(c) => c,
                None => return false,
            },
            _ => return false,
        };
        if !plain(s) {
            return false;
        }
        f.op(c);
    }
    match f.done() {
        Some(n) => {
            *len += n;
            true
        }
        None => false,
    }
}

/// The [`NameBytes`] of a memory-family opcode, if it has them.
#[inline(always)]
fn opcode_name_bytes(op: crate::Opcode) -> Option<&'static NameBytes> {
    use crate::inst::OpSpace;
    let i = op.index() as usize;
    let c = match op.space() {
        OpSpace::Ds => DS_NAMES.get(i),
        OpSpace::Mubuf => MUBUF_NAMES.get(i),
        OpSpace::Mtbuf => MTBUF_NAMES.get(i),
        OpSpace::Mimg => MIMG_NAMES.get(i),
        OpSpace::Smem => SMEM_NAMES.get(i),
        OpSpace::Flat => FLAT_NAMES[0].get(i),
        OpSpace::Global => FLAT_NAMES[1].get(i),
        OpSpace::Scratch => FLAT_NAMES[2].get(i),
        _ => None,
    };
    c.filter(|c| c[31] != 0)
}

#[cfg(test)]
mod hex_tests {
    /// `hex_chunk` prints what `{:#x}` does.
    #[test]
    fn hex_chunk_matches_core_fmt() {
        let mut v: u32 = 1;
        let mut all = vec![0, 1, 9, 10, 15, 16, 0xff, 0x100, 0xffff_ffff, 0x8000_0000];
        for _ in 0..2000 {
            v ^= v << 13;
            v ^= v >> 17;
            v ^= v << 5;
            all.push(v);
            all.push(v >> (v % 32));
        }
        for n in all {
            let c = super::hex_chunk(n);
            let text = core::str::from_utf8(&c[..c[15] as usize]).unwrap();
            assert_eq!(text, format!("{n:#x}"));
        }
    }
}
