//! Vector ALU: VOP1, VOP2, VOPC (the 32-bit `_e32` encodings), VOP3 (the
//! `_e64` encodings, including VOP3-only instructions) and VOP3P.
//!
//! # How the tables are learned
//!
//! Probing is adaptive (see [`refine`]); every answer is recorded, so
//! `emit` is a pure function of the recording.
//!
//! 1. **Bases.** Every opcode of every encoding is probed with its register
//!    fields set to distinct values (vdst `v10`, src0 `v20`, src1 `v30`,
//!    src2 `v40`) and with fewer fields set (unused fields must often be
//!    zero). The first base that decodes is the opcode's base.
//! 2. **Field flips.** Each field of the base is changed (`+4`, and for
//!    9-bit sources also bit 8, which swaps VGPR and SGPR): the printed
//!    operand that changes is the one the field holds; a probe that fails
//!    marks the field as must-be-zero, one that prints the same text as
//!    ignored. Register ranges give the operand widths, and
//!    `/*Invalid register, operand has 'X' register class*/` notes give
//!    the operand's register class.
//! 3. **Modifier bits** (VOP3/VOP3P): each of the 13 (16) bits outside the
//!    register fields is flipped alone. The difference in the text says what
//!    it does (`-x`, `|x|`, `clamp`, `mul:2`, an `op_sel:[...]` entry, ...),
//!    or that LLVM ignores it, or rejects it.
//! 4. **Constants.** Every source is set to the inline constant 1/(2π)
//!    (code 248), to the literals `0x3ff00000` and `0x00003c00`, and to
//!    `src_lds_direct`. How they print identifies the operand's constant
//!    type (32-bit, f16, i16, f64, i64, packed f16, packed i16, none).
//!
//! # Opcode indices (fixed; other generators depend on them)
//!
//! Every vector-ALU instruction is in `OpSpace::Vop`, indexed by its VOP3
//! opcode when it has a VOP3 encoding on some target: VOPC `op`, VOP2
//! `0x100 + op`, VOP1 `0x180 + op`, VOP3-only instructions their VOP3
//! number. Instructions without a VOP3 form get `0x400 + op` (VOP2) or
//! `0x480 + op` (VOP1). When one native opcode has different mnemonics on
//! different targets (`v_mac_legacy_f32` on gfx10.1 is `v_fmac_legacy_f32`
//! on gfx10.3, and they compute different things), the gfx10.3 mnemonic
//! keeps the index and the gfx10.1 one gets `0x500 + (index & 0xff)`.
//! VOP3P instructions are in `OpSpace::Vop3p`, indexed by native opcode.
//!
//! **For the DPP16/DPP8/SDWA generator**: load this family's recording
//! (`Recording::load(&recording_path("vop"))`) and call [`assignment`]: it
//! maps (encoding, native VOP1/VOP2/VOPC opcode, target) to the opcode
//! index, so a DPP or SDWA word of that opcode decodes to the same
//! `Opcode` as its `_e32` form. In `isa`, `family::vop::e32_opcode` does the
//! same lookup at run time and `family::vop::form(op, Family::Vop2)` gives
//! the e32 operand list (fields, widths, classes, access, types).
//!
//! # Semantics (hand knowledge, from the RDNA ISA documentation)
//!
//! Operand access, value types and implicit register use are not printed;
//! they come from the rules in `access`, `val_type`, `type_override` and `implicit`
//! below. Two decisions worth repeating:
//! - On gfx10 a 16-bit result is written to one half of the destination
//!   VGPR and the other half is **preserved** (LLVM's
//!   `zeroesHigh16BitsOfDest` is false for gfx10), so such destinations
//!   are `READ | WRITE | PARTIAL`.
//! - `v_movrel*`/`v_swaprel` access the VGPR *printed register + M0*; they
//!   are marked `READ_M0 | RELATIVE` so a tracer knows the printed
//!   register is only a base.

pub mod text;

use super::{emit_consts, FlatPool, TextBlock};
use crate::recording::Recording;
use crate::{header, FamilyGen, TARGETS};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use text::{parse, reg, Text, Tok};

/// The VOP1/VOP2/VOPC/VOP3 generator (`tables/vop.rs`).
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "vop",
        out_file: "vop.rs",
        probes,
        emit,
    }
}

/// The VOP3P generator (`tables/vop3p.rs`).
pub fn gen_vop3p() -> FamilyGen {
    FamilyGen {
        name: "vop3p",
        out_file: "vop3p.rs",
        probes: probes_vop3p,
        emit: emit_vop3p,
    }
}

/// An encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Enc {
    /// VOP2 (`_e32`).
    Vop2,
    /// VOP1 (`_e32`).
    Vop1,
    /// VOPC (`_e32`).
    Vopc,
    /// VOP3 (`_e64` and VOP3-only).
    Vop3,
    /// VOP3P.
    Vop3p,
}

impl Enc {
    fn count(self) -> u32 {
        match self {
            Enc::Vop2 => 62, // 0x3e and 0x3f select VOPC and VOP1
            Enc::Vop1 | Enc::Vopc => 256,
            Enc::Vop3 => 1024,
            Enc::Vop3p => 128,
        }
    }
    fn fields(self) -> &'static [F] {
        match self {
            Enc::Vop2 => &[F::Vdst, F::Vsrc1, F::Src0],
            Enc::Vop1 => &[F::Vdst, F::Src0],
            Enc::Vopc => &[F::Vsrc1, F::Src0],
            Enc::Vop3 | Enc::Vop3p => &[F::Vdst, F::Src0, F::Src1, F::Src2],
        }
    }
    fn family(self) -> &'static str {
        match self {
            Enc::Vop2 => "Vop2",
            Enc::Vop1 => "Vop1",
            Enc::Vopc => "Vopc",
            Enc::Vop3 => "Vop3",
            Enc::Vop3p => "Vop3p",
        }
    }
    fn wide(self) -> bool {
        matches!(self, Enc::Vop3 | Enc::Vop3p)
    }
}

/// A register field of an encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum F {
    Vdst,
    Vsrc1,
    Src0,
    Src1,
    Src2,
}

impl F {
    fn is_src9(self) -> bool {
        matches!(self, F::Src0 | F::Src1 | F::Src2)
    }
    /// Encoding mask of the field in (d0, d1).
    fn mask(self, enc: Enc) -> (u32, u32) {
        match (enc.wide(), self) {
            (false, F::Vdst) => (0xff << 17, 0),
            (false, F::Vsrc1) => (0xff << 9, 0),
            (false, F::Src0) => (0x1ff, 0),
            (true, F::Vdst) => (0xff, 0),
            (true, F::Src0) => (0, 0x1ff),
            (true, F::Src1) => (0, 0x1ff << 9),
            (true, F::Src2) => (0, 0x1ff << 18),
            _ => (0, 0),
        }
    }
}

/// One probe: an encoding, an opcode and every field value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct P {
    enc: Enc,
    op: u32,
    vdst: u32,
    src0: u32,
    src1: u32,
    src2: u32,
    /// VOP3/VOP3P: bits 15:8 of the first dword.
    x0: u32,
    /// VOP3/VOP3P: bits 31:27 of the second dword.
    x1: u32,
    /// VOP3P: bits 25:23 of the first dword.
    hi: u32,
    /// The dword after the instruction (a literal, when one is read).
    lit: u32,
}

const L1: u32 = 0x3ff0_0000;
const L2: u32 = 0x0000_3c00;
const V: u32 = 256;

impl P {
    fn get(&self, f: F) -> u32 {
        match f {
            F::Vdst => self.vdst,
            F::Vsrc1 | F::Src1 => self.src1,
            F::Src0 => self.src0,
            F::Src2 => self.src2,
        }
    }
    fn set(mut self, f: F, v: u32) -> P {
        match f {
            F::Vdst => self.vdst = v,
            F::Vsrc1 | F::Src1 => self.src1 = v,
            F::Src0 => self.src0 = v,
            F::Src2 => self.src2 = v,
        }
        self
    }
    fn words(&self) -> Vec<u32> {
        let op = self.op;
        match self.enc {
            Enc::Vop2 => vec![
                (op << 25) | (self.vdst << 17) | (self.src1 << 9) | self.src0,
                self.lit,
            ],
            Enc::Vop1 => vec![
                (0x3f << 25) | (self.vdst << 17) | (op << 9) | self.src0,
                self.lit,
            ],
            Enc::Vopc => vec![
                (0x3e << 25) | (op << 17) | (self.src1 << 9) | self.src0,
                self.lit,
            ],
            Enc::Vop3 => vec![
                (0x35 << 26) | (op << 16) | (self.x0 << 8) | self.vdst,
                (self.x1 << 27) | (self.src2 << 18) | (self.src1 << 9) | self.src0,
                self.lit,
            ],
            Enc::Vop3p => vec![
                (0x198 << 23) | (self.hi << 23) | (op << 16) | (self.x0 << 8) | self.vdst,
                (self.x1 << 27) | (self.src2 << 18) | (self.src1 << 9) | self.src0,
                self.lit,
            ],
        }
    }
    fn bytes(&self) -> Vec<u8> {
        crate::recording::dwords(&self.words())
    }
}

/// The field values a base sets, when set.
fn base_value(f: F) -> u32 {
    match f {
        F::Vdst => 10,
        F::Vsrc1 => 30,
        F::Src0 => V + 20,
        F::Src1 => V + 30,
        F::Src2 => V + 40,
    }
}

/// Candidate bases of an opcode, most fields first.
fn bases(enc: Enc, op: u32) -> Vec<P> {
    let (x0, x1) = if enc == Enc::Vop3p {
        (0x40, 0x3) // op_sel_hi = 1 for every source (the packed default)
    } else {
        (0, 0)
    };
    let zero = P {
        enc,
        op,
        vdst: 0,
        src0: 0,
        src1: 0,
        src2: 0,
        x0,
        x1,
        hi: 0,
        lit: L1,
    };
    let fields = enc.fields();
    if enc.wide() {
        // Sources are used from src0 upwards; vdst is almost always used.
        let mut v = Vec::new();
        for n in (0..=3).rev() {
            let mut p = zero.set(F::Vdst, base_value(F::Vdst));
            for f in &[F::Src0, F::Src1, F::Src2][..n] {
                p = p.set(*f, base_value(*f));
            }
            v.push(p);
        }
        v.push(zero);
        v
    } else {
        // All subsets of the (two or three) fields, largest first.
        let n = fields.len();
        let mut subsets: Vec<u32> = (0..(1u32 << n)).collect();
        subsets.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
        subsets
            .into_iter()
            .map(|m| {
                let mut p = zero;
                for (i, f) in fields.iter().enumerate() {
                    if m & (1 << i) != 0 {
                        p = p.set(*f, base_value(*f));
                    }
                }
                p
            })
            .collect()
    }
}

const ENCS: [Enc; 4] = [Enc::Vop2, Enc::Vop1, Enc::Vopc, Enc::Vop3];

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for enc in ENCS {
        for op in 0..enc.count() {
            for p in bases(enc, op) {
                v.push(p.bytes());
            }
        }
    }
    v
}

fn probes_vop3p() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..Enc::Vop3p.count() {
        for p in bases(Enc::Vop3p, op) {
            v.push(p.bytes());
        }
    }
    v
}

/// An answer: bytes consumed and parsed text.
#[derive(Clone, Debug)]
struct Ans {
    len: usize,
    raw: String,
    text: Text,
}

fn ask(rec: &Recording, cpu: &str, p: &P) -> Option<Option<Ans>> {
    let b = p.bytes();
    let len = rec.len(cpu, &b)?;
    Some(rec.text(cpu, &b).map(|t| Ans {
        len,
        raw: t.to_string(),
        text: parse(t),
    }))
}

/// The decoded answer, or `None` if missing or invalid.
fn ok(rec: &Recording, cpu: &str, p: &P) -> Option<Ans> {
    ask(rec, cpu, p).flatten()
}

/// The base of an opcode on a target: the first candidate that decodes.
fn find_base(rec: &Recording, cpu: &str, enc: Enc, op: u32) -> Option<(P, Ans)> {
    for p in bases(enc, op) {
        if let Some(a) = ok(rec, cpu, &p) {
            return Some((p, a));
        }
    }
    None
}

/// Field flips of a base.
fn flips(base: &P) -> Vec<(F, P)> {
    let mut v = Vec::new();
    for &f in base.enc.fields() {
        let x = base.get(f);
        v.push((f, base.set(f, x + 4)));
        if f.is_src9() {
            v.push((f, base.set(f, x ^ 0x100)));
        }
    }
    v
}

/// Number of modifier bit positions probed: 13 for VOP3, 16 for VOP3P.
fn nbits(enc: Enc) -> usize {
    if enc == Enc::Vop3p {
        16
    } else if enc == Enc::Vop3 {
        13
    } else {
        0
    }
}

/// The base with modifier bit `i` flipped (0..8: d0 bits 8..15; 8..13: d1
/// bits 27..31; 13..16: VOP3P d0 bits 23..25).
fn bit_flip(base: &P, i: usize) -> P {
    let mut p = *base;
    match i {
        0..=7 => p.x0 ^= 1 << i,
        8..=12 => p.x1 ^= 1 << (i - 8),
        _ => p.hi ^= 1 << (i - 13),
    }
    p
}

/// Encoding bit (dword, bit) of modifier position `i`.
fn bit_pos(i: usize) -> (usize, u32) {
    match i {
        0..=7 => (0, 8 + i as u32),
        8..=12 => (1, 27 + (i - 8) as u32),
        _ => (0, 23 + (i - 13) as u32),
    }
}

/// How a field of the base is used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    /// Printed as operand `n`.
    Tok(usize),
    /// LLVM rejects a non-zero (or changed) value.
    Fixed,
    /// LLVM ignores the field.
    Ignored,
}

/// How field `f` of a base is used, plus the bits of the field whose
/// change LLVM rejects (a used field can have a must-be-zero bit, like the
/// interpolation `high` bit of instructions without it).
fn field_use_bits(rec: &Recording, cpu: &str, base: &P, ba: &Ans, f: F) -> Option<(Use, u32)> {
    let mut tok = None;
    let mut any_fixed = false;
    let mut fixed_bits = 0u32;
    let mut all_same = true;
    for (g, p) in flips(base) {
        if g != f {
            continue;
        }
        let changed = base.get(f) ^ p.get(f);
        let a = ask(rec, cpu, &p)?;
        match a {
            None => {
                any_fixed = true;
                all_same = false;
                fixed_bits |= changed;
            }
            Some(a) => {
                if a.text.toks.len() != ba.text.toks.len() {
                    panic!(
                        "{cpu}: flip of {f:?} changes the operand count: `{}` vs `{}`",
                        ba.raw, a.raw
                    );
                }
                let diff: Vec<usize> = (0..ba.text.toks.len())
                    .filter(|&i| ba.text.toks[i] != a.text.toks[i])
                    .collect();
                match diff.as_slice() {
                    [] if a.text.words == ba.text.words => {}
                    [] => {
                        // Only the words changed (the interpolation `high`
                        // bit of src0): the field is the attribute operand.
                        all_same = false;
                        match ba.text.toks.iter().position(|t| t.core.starts_with("attr")) {
                            Some(i) => tok = Some(i),
                            None => panic!(
                                "{cpu}: flip of {f:?} only changes words: `{}` vs `{}`",
                                ba.raw, a.raw
                            ),
                        }
                    }
                    [i] => {
                        all_same = false;
                        tok = Some(*i);
                    }
                    _ => panic!(
                        "{cpu}: flip of {f:?} changes several operands: `{}` vs `{}`",
                        ba.raw, a.raw
                    ),
                }
            }
        }
    }
    Some(match tok {
        Some(i) => (Use::Tok(i), fixed_bits),
        None if any_fixed => (Use::Fixed, 0),
        None => {
            assert!(all_same);
            (Use::Ignored, 0)
        }
    })
}

fn field_use(rec: &Recording, cpu: &str, base: &P, ba: &Ans, f: F) -> Option<Use> {
    field_use_bits(rec, cpu, base, ba, f).map(|u| u.0)
}

/// The sources of a base that hold registers or constants (not the
/// interpolation attribute/slot), with whether the base analysis is
/// complete.
fn value_srcs(rec: &Recording, cpu: &str, base: &P, ba: &Ans) -> Option<Vec<F>> {
    let mut v = Vec::new();
    for &f in base.enc.fields() {
        if !f.is_src9() {
            continue;
        }
        if let Use::Tok(i) = field_use(rec, cpu, base, ba, f)? {
            let core = &ba.text.toks[i].core;
            if !core.starts_with("attr") && !is_param(core) {
                v.push(f);
            }
        }
    }
    Some(v)
}

fn is_param(core: &str) -> bool {
    matches!(core, "p10" | "p20" | "p0") || core.starts_with("invalid_param")
}

/// Constant probes of a set of sources (all set together).
fn const_probes(base: &P, srcs: &[F]) -> Vec<(u32, u32, P)> {
    let mut v = Vec::new();
    for (code, lit) in [(248, L1), (255, L1), (255, L2), (254, L1)] {
        let mut p = *base;
        p.lit = lit;
        for &f in srcs {
            p = p.set(f, code);
        }
        v.push((code, lit, p));
    }
    v
}

/// The probes wanted after seeing `rec` (VOP1/2/C/3).
pub fn refine(rec: &Recording) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for enc in ENCS {
        refine_enc(rec, enc, &mut out);
    }
    out
}

/// The probes wanted after seeing `rec` (VOP3P).
pub fn refine_vop3p(rec: &Recording) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    refine_enc(rec, Enc::Vop3p, &mut out);
    out
}

fn refine_enc(rec: &Recording, enc: Enc, out: &mut Vec<Vec<u8>>) {
    for op in 0..enc.count() {
        for cpu in TARGETS {
            let Some((base, ba)) = find_base(rec, cpu, enc, op) else {
                continue;
            };
            for (_, p) in flips(&base) {
                out.push(p.bytes());
            }
            for i in 0..nbits(enc) {
                out.push(bit_flip(&base, i).bytes());
            }
            // Scalar destinations: the class name LLVM prints for
            // src_lds_direct.
            if let Some(Use::Tok(i)) = field_use(rec, cpu, &base, &ba, F::Vdst) {
                if ba.text.toks[i].core.starts_with('s') {
                    out.push(base.set(F::Vdst, 254).bytes());
                }
            }
            let Some(srcs) = value_srcs(rec, cpu, &base, &ba) else {
                continue;
            };
            for (_, _, p) in const_probes(&base, &srcs) {
                out.push(p.bytes());
                // When the combined probe fails, ask per source.
                if let Some(None) = ask(rec, cpu, &p) {
                    if srcs.len() > 1 {
                        for &f in &srcs {
                            for (_, _, q) in const_probes(&base, &[f]) {
                                out.push(q.bytes());
                            }
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Analysis

/// Which field an operand comes from (mirrors `isa::family::vop::Fld`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Fld {
    Vdst,
    Sdst,
    Src0,
    Src1,
    Src2,
    Vsrc1,
    KLit,
    Vcc,
    Attr,
    Param,
}

/// Register class facts of an operand.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
struct Cls {
    name: String,
    vgpr: bool,
    sgpr: bool,
    lds: bool,
    imm: bool,
}

/// How constants print (mirrors `isa::family::vop::Imm`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Imm {
    None,
    B32,
    F16,
    I16,
    F64,
    I64,
    V2F16,
    V2I16,
    K32,
    K16,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Slot {
    fld: Fld,
    width: u32,
    cls: Cls,
    imm: Imm,
    access: &'static str,
    ty: &'static str,
}

/// What a modifier bit does (mirrors `isa::family::vop::Role`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Role {
    Fixed,
    Ignored,
    Sdst,
    Abs,
    Neg,
    Sext,
    OpSel(u8),
    OpSelHi(u8),
    NegLo(u8),
    NegHi(u8),
    Clamp,
    Omod,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Form {
    enc: Enc,
    op: u32,
    name: String,
    suffix: bool,
    slots: Vec<Slot>,
    fixed: [u32; 2],
    ignored: [u32; 2],
    bits: Vec<(Role, u8)>,
    /// Lengths of the op_sel, op_sel_hi, neg_lo and neg_hi lists.
    lists: [u8; 4],
    packed: bool,
}

/// Hardware meaning of modifier position `i`: the source field it
/// modifies (0..=2), 3 for the destination, or `None`.
fn bit_field(enc: Enc, i: usize) -> Option<u8> {
    match (enc, i) {
        (Enc::Vop3, 0..=2) => Some(i as u8),           // abs
        (Enc::Vop3, 3..=5) => Some((i - 3) as u8),     // op_sel
        (Enc::Vop3, 6) => Some(3),                     // op_sel dst
        (Enc::Vop3, 10..=12) => Some((i - 10) as u8),  // neg
        (Enc::Vop3p, 0..=2) => Some(i as u8),          // neg_hi
        (Enc::Vop3p, 3..=5) => Some((i - 3) as u8),    // op_sel
        (Enc::Vop3p, 6) => Some(2),                    // op_sel_hi src2
        (Enc::Vop3p, 8) => Some(0),                    // op_sel_hi src0
        (Enc::Vop3p, 9) => Some(1),                    // op_sel_hi src1
        (Enc::Vop3p, 10..=12) => Some((i - 10) as u8), // neg_lo
        _ => None,
    }
}

fn src_fld(k: u8) -> Fld {
    match k {
        0 => Fld::Src0,
        1 => Fld::Src1,
        _ => Fld::Src2,
    }
}

fn class_name(note: &str) -> Option<String> {
    let i = note.find("operand has '")?;
    let rest = &note[i + 13..];
    Some(rest[..rest.find('\'')?].to_string())
}

fn imm_kind(inv: &str, l1: &str, l2: &str) -> Option<Imm> {
    Some(match (inv, l1, l2) {
        ("0.15915494", "0x3ff00000", "0x3c00") => Imm::B32,
        ("0.15915494", "0", "1.0") => Imm::F16,
        ("0x3118", "0x0", "0x3c00") => Imm::I16,
        ("0.15915494309189532", "1.0", "0x3c00") => Imm::F64,
        ("0.15915494309189532", "0x3ff00000", "0x3c00") => Imm::I64,
        ("0.15915494", "0x3ff00000", "1.0") => Imm::V2F16,
        ("0x3118", "0x3ff00000", "0x3c00") => Imm::V2I16,
        _ => return None,
    })
}

fn analyse(rec: &Recording, cpu: &str, enc: Enc, op: u32) -> Option<Form> {
    let (base, ba) = find_base(rec, cpu, enc, op)?;
    let t = &ba.text;
    let (name, suffix) = match t
        .mnem
        .strip_suffix("_e32")
        .or_else(|| t.mnem.strip_suffix("_e64"))
    {
        Some(n) => (n.to_string(), true),
        None => (t.mnem.clone(), false),
    };
    let ctx = format!("{cpu} {enc:?} {op:#x} `{}`", ba.raw);
    // Which field each printed operand comes from.
    let mut tok_fld: Vec<Option<Fld>> = vec![None; t.toks.len()];
    let mut tok_src: Vec<Option<F>> = vec![None; t.toks.len()];
    let mut fixed = [0u32; 2];
    let mut ignored = [0u32; 2];
    for &f in enc.fields() {
        let (u, fbits) = field_use_bits(rec, cpu, &base, &ba, f)
            .unwrap_or_else(|| panic!("{ctx}: flips of {f:?} not recorded; run `isa-gen probe`"));
        let (m0, m1) = f.mask(enc);
        // Must-be-zero bits inside a used field.
        let shift = if m0 != 0 {
            m0.trailing_zeros()
        } else {
            m1.trailing_zeros()
        };
        if m0 != 0 {
            fixed[0] |= fbits << shift;
        } else {
            fixed[1] |= fbits << shift;
        }
        match u {
            Use::Tok(i) => {
                let core = &t.toks[i].core;
                let fld = match f {
                    F::Vdst => Fld::Vdst,
                    F::Vsrc1 => Fld::Vsrc1,
                    F::Src0 if core.starts_with("attr") => Fld::Attr,
                    F::Src1 if is_param(core) => Fld::Param,
                    F::Src0 => Fld::Src0,
                    F::Src1 => Fld::Src1,
                    F::Src2 => Fld::Src2,
                };
                assert!(tok_fld[i].is_none(), "{ctx}: two fields print operand {i}");
                tok_fld[i] = Some(fld);
                tok_src[i] = Some(f);
            }
            Use::Fixed => {
                fixed[0] |= m0;
                fixed[1] |= m1;
            }
            Use::Ignored => {
                ignored[0] |= m0;
                ignored[1] |= m1;
            }
        }
    }
    // Modifier bits.
    let mut bits = Vec::new();
    let mut lists = [0u8; 4];
    let mut packed = false;
    let list_names = ["op_sel", "op_sel_hi", "neg_lo", "neg_hi"];
    if enc == Enc::Vop3p {
        // The base sets every op_sel_hi bit; a list printed in the base
        // means the default is 0 (not packed).
        packed = !t.words.iter().any(|w| w.starts_with("op_sel_hi:"));
    }
    for i in 0..nbits(enc) {
        let p = bit_flip(&base, i);
        let a = ask(rec, cpu, &p)
            .unwrap_or_else(|| panic!("{ctx}: bit {i} not recorded; run `isa-gen probe`"));
        let (dw, b) = bit_pos(i);
        let role = match a {
            None => Role::Fixed,
            Some(a) => {
                let at = &a.text;
                assert_eq!(at.toks.len(), t.toks.len(), "{ctx}: bit {i}: `{}`", a.raw);
                let diff: Vec<usize> = (0..t.toks.len())
                    .filter(|&k| t.toks[k] != at.toks[k])
                    .collect();
                let new_words: Vec<&String> =
                    at.words.iter().filter(|w| !t.words.contains(w)).collect();
                match (diff.as_slice(), new_words.as_slice()) {
                    ([], []) if at.words == t.words => Role::Ignored,
                    ([k], []) => {
                        let (x, y) = (&t.toks[*k], &at.toks[*k]);
                        if x.core != y.core {
                            Role::Sdst
                        } else if x.abs != y.abs {
                            Role::Abs
                        } else if x.neg != y.neg || x.negfn != y.negfn {
                            Role::Neg
                        } else if x.sext != y.sext {
                            // The neg bit of an operand with integer input
                            // modifiers prints as `sext(x)`.
                            Role::Sext
                        } else {
                            panic!("{ctx}: bit {i}: `{}`", a.raw)
                        }
                    }
                    ([], [w]) if *w == "clamp" => Role::Clamp,
                    ([], [w]) if *w == "mul:2" || *w == "mul:4" => Role::Omod,
                    ([], [w]) => {
                        let (lname, vals) =
                            text::list(w).unwrap_or_else(|| panic!("{ctx}: bit {i}: `{}`", a.raw));
                        let li = list_names
                            .iter()
                            .position(|n| *n == lname)
                            .unwrap_or_else(|| panic!("{ctx}: bit {i}: `{}`", a.raw));
                        // The base list (or its default when absent).
                        let old: Vec<u8> = t
                            .words
                            .iter()
                            .filter_map(|w| text::list(w))
                            .find(|(n, _)| *n == lname)
                            .map(|(_, v)| v)
                            .unwrap_or_else(|| {
                                let d = u8::from(li == 1 && packed);
                                vec![d; vals.len()]
                            });
                        let pos: Vec<usize> = (0..vals.len())
                            .filter(|&k| old.get(k) != Some(&vals[k]))
                            .collect();
                        assert_eq!(pos.len(), 1, "{ctx}: bit {i}: `{}`", a.raw);
                        if lists[li] != 0 {
                            assert_eq!(lists[li] as usize, vals.len(), "{ctx}");
                        }
                        lists[li] = vals.len() as u8;
                        let pos = pos[0] as u8;
                        match li {
                            0 => Role::OpSel(pos),
                            1 => Role::OpSelHi(pos),
                            2 => Role::NegLo(pos),
                            _ => Role::NegHi(pos),
                        }
                    }
                    _ => panic!("{ctx}: bit {i} changes too much: `{}`", a.raw),
                }
            }
        };
        match role {
            Role::Fixed => fixed[dw] |= 1 << b,
            Role::Ignored => ignored[dw] |= 1 << b,
            _ => {}
        }
        bits.push(role);
    }
    // A list entry that is printed but whose bit is the base's state in
    // the base text (op_sel_hi of non-packed instructions) still needs its
    // length: take it from the base words.
    for w in &t.words {
        if let Some((lname, vals)) = text::list(w) {
            if let Some(li) = list_names.iter().position(|n| *n == lname) {
                lists[li] = vals.len() as u8;
            }
        }
    }
    // Slots.
    let mut slots = Vec::new();
    for (i, tok) in t.toks.iter().enumerate() {
        let fld = match tok_fld[i] {
            Some(f) => f,
            None => {
                if tok.core == "vcc_lo" {
                    Fld::Vcc
                } else if tok.core == format!("{L1:#x}") && ba.len == base.words().len() * 4 {
                    Fld::KLit
                } else if bits.contains(&Role::Sdst) && reg(&tok.core).is_some() {
                    Fld::Sdst
                } else {
                    panic!("{ctx}: operand {i} `{}` comes from no field", tok.core)
                }
            }
        };
        slots.push(slot(rec, cpu, &base, &ba, i, fld, tok_src[i], &ctx));
    }
    // Bit roles refer to slots.
    let bits = bits
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let slot = match r {
                Role::Abs | Role::Neg | Role::Sext => {
                    let (dw, b) = bit_pos(i);
                    // The operand whose prefix changed.
                    let p = bit_flip(&base, i);
                    let a = ok(rec, cpu, &p).expect("decoded above");
                    let k = (0..t.toks.len())
                        .find(|&k| t.toks[k] != a.text.toks[k])
                        .expect("differs");
                    let want = bit_field(enc, i).map(src_fld);
                    assert_eq!(
                        Some(slots[k].fld),
                        want,
                        "{ctx}: bit {i} ({dw}:{b}) modifies operand {k}"
                    );
                    k as u8
                }
                Role::OpSel(_) | Role::OpSelHi(_) | Role::NegLo(_) | Role::NegHi(_) => {
                    match bit_field(enc, i) {
                        Some(3) => 0xff,
                        Some(k) => slots
                            .iter()
                            .position(|s| s.fld == src_fld(k))
                            .map(|p| p as u8)
                            .unwrap_or(0xff),
                        None => panic!("{ctx}: list bit {i}"),
                    }
                }
                Role::Sdst => slots
                    .iter()
                    .position(|s| s.fld == Fld::Sdst)
                    .unwrap_or_else(|| {
                        panic!("{ctx}: bit {i} changes a register but there is no sdst")
                    }) as u8,
                _ => 0xff,
            };
            (*r, slot)
        })
        .collect();
    Some(Form {
        enc,
        op,
        name,
        suffix,
        slots,
        fixed,
        ignored,
        bits,
        lists,
        packed,
    })
}

#[allow(clippy::too_many_arguments)]
fn slot(
    rec: &Recording,
    cpu: &str,
    base: &P,
    ba: &Ans,
    i: usize,
    fld: Fld,
    f: Option<F>,
    ctx: &str,
) -> Slot {
    let tok = &ba.text.toks[i];
    let width = reg(&tok.core).map(|r| r.2).unwrap_or(1);
    let mut cls = Cls::default();
    let mut imm = Imm::None;
    match fld {
        Fld::Vdst | Fld::Vsrc1 => {
            if tok.core.starts_with('v') {
                cls = Cls {
                    name: String::new(),
                    vgpr: true,
                    ..Cls::default()
                };
            } else {
                // A scalar destination: registers only; its class name
                // from src_lds_direct.
                let a = ok(rec, cpu, &base.set(F::Vdst, 254));
                let name = a
                    .as_ref()
                    .and_then(|a| a.text.toks[i].note.as_deref().and_then(class_name))
                    .unwrap_or_else(|| panic!("{ctx}: no class note for the scalar destination"));
                cls = Cls {
                    name,
                    sgpr: true,
                    ..Cls::default()
                };
            }
        }
        Fld::Sdst => {
            cls = Cls {
                name: "SReg_32".into(),
                sgpr: true,
                ..Cls::default()
            };
        }
        Fld::Src0 | Fld::Src1 | Fld::Src2 => {
            let f = f.expect("source field");
            let mut names = BTreeSet::new();
            let mut note_of = |t: &Tok| -> bool {
                match t.note.as_deref().and_then(class_name) {
                    Some(n) => {
                        names.insert(n);
                        false
                    }
                    None => true,
                }
            };
            // The base and the bit-8 flip cover both register files.
            let other = ok(rec, cpu, &base.set(f, base.get(f) ^ 0x100));
            let here_ok = note_of(tok);
            let here_v = tok.core.starts_with('v');
            let (mut vgpr, mut sgpr) = (false, false);
            if here_v {
                vgpr = here_ok;
            } else {
                sgpr = here_ok;
            }
            if let Some(o) = &other {
                let ook = note_of(&o.text.toks[i]);
                if here_v {
                    sgpr = ook;
                } else {
                    vgpr = ook;
                }
            }
            // Constants and src_lds_direct, combined or per source.
            let srcs = value_srcs(rec, cpu, base, ba).unwrap_or_default();
            let find = |code: u32, lit: u32| -> Option<Option<Ans>> {
                let all = const_probes(base, &srcs)
                    .into_iter()
                    .find(|(c, l, _)| *c == code && *l == lit)?;
                match ask(rec, cpu, &all.2)? {
                    Some(a) => Some(Some(a)),
                    None => {
                        let one = const_probes(base, &[f])
                            .into_iter()
                            .find(|(c, l, _)| *c == code && *l == lit)?;
                        ask(rec, cpu, &one.2)
                    }
                }
            };
            let get = |code, lit| -> Option<Tok> {
                let a = find(code, lit)
                    .unwrap_or_else(|| panic!("{ctx}: constant probes not recorded"))?;
                Some(a.text.toks[i].clone())
            };
            let inv = get(248, L1);
            let l1 = get(255, L1);
            let l2 = get(255, L2);
            let lds = get(254, L1);
            let lds_ok = match &lds {
                Some(t) => note_of(t),
                None => false,
            };
            let imm_ok = inv.as_ref().map(|t| t.note.is_none()).unwrap_or(false);
            match (&inv, &l1, &l2) {
                (Some(a), Some(b), Some(c)) => {
                    imm = if imm_ok {
                        imm_kind(&a.core, &b.core, &c.core).unwrap_or_else(|| {
                            panic!(
                                "{ctx}: constant type of operand {i}: {} {} {}",
                                a.core, b.core, c.core
                            )
                        })
                    } else {
                        assert!(b.note.is_some() && c.note.is_some(), "{ctx}");
                        let k = imm_kind(&a.core, &b.core, &c.core);
                        assert_eq!(
                            k,
                            Some(Imm::B32),
                            "{ctx}: invalid immediates print as 32-bit"
                        );
                        Imm::B32
                    };
                }
                _ => panic!("{ctx}: constants do not decode in operand {i}"),
            }
            cls = Cls {
                name: names.into_iter().next().unwrap_or_default(),
                vgpr,
                sgpr,
                lds: lds_ok,
                imm: imm_ok,
            };
        }
        Fld::KLit => {
            imm = if ba.text.mnem.contains("f16") {
                Imm::K16
            } else {
                Imm::K32
            };
        }
        Fld::Vcc => {
            cls = Cls {
                name: String::new(),
                sgpr: true,
                ..Cls::default()
            };
        }
        Fld::Attr | Fld::Param => {}
    }
    Slot {
        fld,
        width,
        cls,
        imm,
        access: "",
        ty: "",
    }
}

// ---------------------------------------------------------------------------
// Semantics rules (hand knowledge)

/// The element type named by a mnemonic token (`f32`, `u16`, ...).
fn type_tokens(name: &str) -> Vec<&str> {
    name.split('_')
        .filter(|t| {
            t.len() >= 2
                && matches!(t.as_bytes()[0], b'f' | b'i' | b'u' | b'b')
                && t[1..].chars().all(|c| c.is_ascii_digit())
        })
        .collect()
}

fn is_16(t: &str) -> bool {
    t.ends_with("16") && !t.ends_with("216")
}

/// Access of an operand, by rule:
/// - destinations are written; sources read;
/// - accumulators (`v_mac*`, `v_fmac*`, `v_dot*c`, `v_pk_fmac_f16`,
///   `v_interp_p2_f32`) also read their destination (it is the addend);
/// - `v_writelane_b32` writes one lane and `v_permlane*` keep the old value
///   in lanes whose source lane is not selected: READ | WRITE | PARTIAL;
/// - `v_swap*` exchanges: both operands READ | WRITE;
/// - a 16-bit result (and the high-half writes of `op_sel`) keeps the other
///   16 bits on gfx10: READ | WRITE | PARTIAL;
/// - `vcc_lo` printed as the first operand (VOPC, carry-out) is written, a
///   later one (carry-in, `v_cndmask`) read.
fn access(name: &str, s: &Slot, idx: usize) -> &'static str {
    const R: &str = "R";
    const W: &str = "W";
    const RW: &str = "RW";
    const RWP: &str = "RWP";
    // `vcc_lo` is written when printed among the definitions (first, or
    // right after vdst as a carry-out), read when printed later.
    let is_dst = (idx == 0 && s.fld == Fld::Vdst) || (idx <= 1 && s.fld == Fld::Vcc);
    if name.starts_with("v_swap") && matches!(s.fld, Fld::Vdst | Fld::Src0) {
        return RW;
    }
    match s.fld {
        Fld::Sdst => W,
        Fld::Vcc if is_dst => W,
        Fld::Vcc => R,
        Fld::Vdst if !is_dst => R,
        Fld::Vdst => {
            if name == "v_writelane_b32"
                || name.starts_with("v_permlane")
                || (s.width == 1 && dst_is_16(name))
            {
                RWP
            } else if name == "v_interp_p2_f32"
                || name.starts_with("v_mac")
                || name.starts_with("v_fmac")
                || (name.starts_with("v_dot") && name.contains("c_"))
                || name == "v_pk_fmac_f16"
            {
                RW
            } else {
                W
            }
        }
        _ => R,
    }
}

/// True for instructions whose destination is a single 16-bit value.
fn dst_is_16(name: &str) -> bool {
    if name.starts_with("v_cmp") || name.starts_with("v_pk_") {
        return false;
    }
    // Packed or widening results write all 32 bits.
    const FULL: [&str; 9] = [
        "v_cvt_pkrtz_f16_f32",
        "v_cvt_pknorm_i16_f16",
        "v_cvt_pknorm_u16_f16",
        "v_cvt_pknorm_i16_f32",
        "v_cvt_pknorm_u16_f32",
        "v_cvt_pk_u16_u32",
        "v_cvt_pk_i16_i32",
        "v_pack_b32_f16",
        "v_interp_p1ll_f16",
    ];
    if FULL.contains(&name) || name == "v_interp_p1lv_f16" || name.starts_with("v_dot") {
        return false;
    }
    if name == "v_fma_mixlo_f16" || name == "v_fma_mixhi_f16" || name == "v_sat_pk_u8_i16" {
        return true;
    }
    // v_sad_u16 accumulates into 32 bits.
    if name == "v_sad_u16" {
        return false;
    }
    if name.starts_with("v_fma_mix") {
        return false;
    }
    // The first type token is the result type (`v_cvt_f32_f16` is f32,
    // `v_mad_u32_u16` is u32, `v_add_f16` is f16).
    type_tokens(name).first().map(|t| is_16(t)).unwrap_or(false)
}

/// Value type of an operand. Lane masks are `Mask`; 16-bit, 64-bit and
/// packed sources take the kind LLVM prints constants with; the rest
/// follows the mnemonic (`v_cvt_<dst>_<src>`; otherwise the first type
/// token is the result and the last the sources), with the exceptions
/// listed in [`type_override`].
fn val_type(name: &str, s: &Slot, idx: usize) -> &'static str {
    if matches!(s.fld, Fld::Vcc | Fld::Sdst) {
        return "Mask";
    }
    let is_dst = idx == 0 && s.fld == Fld::Vdst;
    if is_dst && s.cls.sgpr && !s.cls.vgpr {
        return if name.starts_with("v_cmp") {
            "Mask"
        } else {
            "B32"
        };
    }
    if (s.fld == Fld::Src2 && (name.starts_with("v_cndmask") || name.contains("_co_ci_")))
        || (s.fld == Fld::Src1 && name.starts_with("v_cndmask") && s.cls.sgpr && !s.cls.vgpr)
    {
        return "Mask";
    }
    match s.fld {
        Fld::KLit => return if s.imm == Imm::K16 { "F16" } else { "F32" },
        Fld::Attr | Fld::Param => return "B32",
        _ => {}
    }
    if let Some(t) = type_override(name, s.fld, is_dst) {
        return t;
    }
    let toks = type_tokens(name);
    let ty_of = |t: &str, w: u32| -> &'static str {
        match (t.as_bytes()[0], &t[1..], w) {
            (b'f', "64", 2) => "F64",
            (_, _, 2) => "B64",
            (b'f', "16", _) => "F16",
            (b'f', "32", _) => "F32",
            (_, "16", _) => "B16",
            _ => "B32",
        }
    };
    if is_dst {
        return toks
            .first()
            .map(|t| ty_of(t, s.width.min(2)))
            .unwrap_or("B32");
    }
    match s.imm {
        Imm::F16 => return "F16",
        Imm::I16 => return "B16",
        Imm::F64 => return "F64",
        Imm::I64 => return "B64",
        Imm::V2F16 => return "V2F16",
        Imm::V2I16 => return "V2B16",
        _ => {}
    }
    toks.last()
        .map(|t| ty_of(t, s.width.min(2)))
        .unwrap_or("B32")
}

/// Operands whose type the mnemonic does not tell (from the RDNA ISA
/// documentation's operation descriptions).
fn type_override(name: &str, fld: Fld, is_dst: bool) -> Option<&'static str> {
    let src1 = matches!(fld, Fld::Src1 | Fld::Vsrc1);
    Some(match name {
        // Integer second operands of float instructions.
        _ if (name.starts_with("v_ldexp") || name.starts_with("v_trig_preop")) && src1 => "B32",
        _ if (name.starts_with("v_cmp_class") || name.starts_with("v_cmpx_class")) && src1 => "B32",
        // Shift amounts are 32-bit even for 64-bit shifts.
        "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64" if fld == Fld::Src0 => "B32",
        // Byte conversions read a 32-bit integer.
        _ if name.starts_with("v_cvt_f32_ubyte") && !is_dst => "B32",
        // Packed results.
        _ if is_dst && (name.starts_with("v_cvt_pkrtz") || name == "v_pack_b32_f16") => "V2F16",
        _ if is_dst
            && (name.starts_with("v_cvt_pknorm")
                || name.starts_with("v_cvt_pk_u16")
                || name.starts_with("v_cvt_pk_i16")) =>
        {
            "V2B16"
        }
        "v_cvt_pk_u8_f32" if is_dst => "B32",
        "v_cvt_pk_u8_f32" if fld != Fld::Src0 => "B32",
        "v_sat_pk_u8_i16" if is_dst => "B16",
        // Four 32-bit results / accumulators.
        "v_mqsad_u32_u8" if is_dst || fld == Fld::Src2 => "B32",
        // 16-bit sources accumulating into 32 bits.
        "v_sad_u16" if is_dst || fld == Fld::Src2 => "B32",
        "v_mad_u32_u16" | "v_mad_i32_i16" if fld == Fld::Src2 => "B32",
        // Interpolation: i/j coordinates and P1 results are f32; p1lv's
        // src2 is the packed f16 P0/P10 pair.
        "v_interp_p1ll_f16" | "v_interp_p1lv_f16" if is_dst => "F32",
        "v_interp_p1lv_f16" if fld == Fld::Src2 => "V2F16",
        _ if name.starts_with("v_interp_") && !is_dst => "F32",
        // Packed math.
        _ if name.starts_with("v_pk_") => {
            if name.ends_with("f16") {
                "V2F16"
            } else {
                "V2B16"
            }
        }
        "v_dot2c_f32_f16" | "v_dot2_f32_f16" if !is_dst && fld != Fld::Src2 => "V2F16",
        "v_dot2_f32_f16" if fld == Fld::Src2 => "F32",
        "v_dot2_i32_i16" | "v_dot2_u32_u16" if !is_dst && fld != Fld::Src2 => "V2B16",
        _ if name.starts_with("v_dot") && !is_dst => "B32",
        // fma_mix sources are f32, or f16 halves when op_sel_hi selects it.
        _ if name.starts_with("v_fma_mix") && !is_dst => "F32",
        "v_fma_mix_f32" => "F32",
        _ => return None,
    })
}

/// Implicit accesses (flag names of `isa::Implicit`):
/// - `v_cmpx*` writes EXEC (on gfx10 only EXEC);
/// - instructions that write a lane mask (compares, carry-outs,
///   `v_div_scale`) and `v_readfirstlane_b32` read EXEC: inactive lanes
///   give 0 / are skipped, so the value depends on EXEC;
/// - `v_div_fmas_*` reads VCC without naming it;
/// - `v_readlane`, `v_writelane`, `v_readfirstlane`, `v_permlane*` move
///   data between lanes (CROSS_LANE); permlane reads EXEC (inactive
///   source lanes);
/// - `v_movrel*`, `v_swaprel` read M0 and access *printed VGPR + M0*;
/// - VOP3 `v_interp_*` read M0 (the attribute data's LDS offset).
fn implicit(name: &str) -> Vec<&'static str> {
    let mut f = Vec::new();
    let writes_mask = name.starts_with("v_cmp_")
        || name.contains("_co_u32")
        || name.contains("_co_ci_u32")
        || name.starts_with("v_div_scale")
        || name.starts_with("v_mad_u64_u32")
        || name.starts_with("v_mad_i64_i32");
    if name.starts_with("v_cmpx_") {
        f.push("READ_EXEC");
        f.push("WRITE_EXEC");
    } else if writes_mask || name == "v_readfirstlane_b32" || name.starts_with("v_permlane") {
        f.push("READ_EXEC");
    }
    if name.starts_with("v_div_fmas") {
        f.push("READ_VCC");
    }
    if name.starts_with("v_movrel") || name == "v_swaprel_b32" {
        f.push("READ_M0");
        f.push("RELATIVE");
    }
    if name.starts_with("v_interp_") {
        // M0 holds the LDS offset of the primitive's attribute data. As for
        // the VINTRP encoding, reading that data is not counted as an LDS
        // access (it lives outside the shader's own LDS allocation).
        f.push("READ_M0");
    }
    if name == "v_readlane_b32"
        || name == "v_writelane_b32"
        || name == "v_readfirstlane_b32"
        || name.starts_with("v_permlane")
    {
        f.push("CROSS_LANE");
    }
    f
}

// ---------------------------------------------------------------------------
// Index assignment and emission

/// One instruction of the table: its index and forms per target.
#[derive(Clone, Debug, Default)]
struct Entry {
    name: String,
    e32: Option<Form>,
    e32_targets: u8,
    e64: Option<Form>,
    e64_targets: u8,
}

/// The opcode-index assignment: per target (in [`TARGETS`] order) the
/// `OpSpace::Vop` index of each native opcode of each encoding.
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    /// (encoding, native opcode, target index) → opcode index.
    pub map: BTreeMap<(Enc, u32, usize), u16>,
    /// Opcode index → base mnemonic.
    pub names: BTreeMap<u16, String>,
}

fn analyse_all(rec: &Recording, encs: &[Enc]) -> (Assignment, BTreeMap<u16, Entry>) {
    // Forms per target.
    let mut forms: BTreeMap<(Enc, u32), Vec<(usize, Form)>> = BTreeMap::new();
    for &enc in encs {
        for op in 0..enc.count() {
            for (ti, cpu) in TARGETS.iter().enumerate() {
                if let Some(f) = analyse(rec, cpu, enc, op) {
                    forms.entry((enc, op)).or_default().push((ti, f));
                }
            }
        }
    }
    // Base indices.
    let vop3_name = |op: u32, name: &str| -> bool {
        forms
            .get(&(Enc::Vop3, op))
            .map(|v| v.iter().any(|(_, f)| f.name == name))
            .unwrap_or(false)
    };
    let mut asg = Assignment::default();
    let mut entries: BTreeMap<u16, Entry> = BTreeMap::new();
    // The gfx10.3 name of each base index, to resolve renames.
    let mut primary: BTreeMap<u16, String> = BTreeMap::new();
    let base_index = |enc: Enc, op: u32, name: &str| -> u16 {
        match enc {
            Enc::Vop3 | Enc::Vopc | Enc::Vop3p => op as u16,
            Enc::Vop2 if vop3_name(0x100 + op, name) => (0x100 + op) as u16,
            Enc::Vop2 => (0x400 + op) as u16,
            Enc::Vop1 if vop3_name(0x180 + op, name) => (0x180 + op) as u16,
            Enc::Vop1 => (0x480 + op) as u16,
        }
    };
    let gfx1030 = TARGETS
        .iter()
        .position(|t| *t == "gfx1030")
        .expect("gfx1030");
    for ((enc, op), v) in &forms {
        for (ti, f) in v {
            if *ti == gfx1030 {
                primary.insert(base_index(*enc, *op, &f.name), f.name.clone());
            }
        }
    }
    for ((enc, op), v) in &forms {
        for (ti, f) in v {
            let mut idx = base_index(*enc, *op, &f.name);
            if let Some(p) = primary.get(&idx) {
                if *p != f.name {
                    idx = 0x500 + (idx & 0xff);
                }
            }
            asg.map.insert((*enc, *op, *ti), idx);
            if let Some(n) = asg.names.get(&idx) {
                assert_eq!(*n, f.name, "index {idx:#x} has two names");
            }
            asg.names.insert(idx, f.name.clone());
            let e = entries.entry(idx).or_default();
            e.name = f.name.clone();
            let (slot, mask) = if *enc == Enc::Vop3 || *enc == Enc::Vop3p {
                (&mut e.e64, &mut e.e64_targets)
            } else {
                (&mut e.e32, &mut e.e32_targets)
            };
            match slot {
                None => *slot = Some(f.clone()),
                Some(old) => assert_eq!(
                    old, f,
                    "{} {:?} {op:#x}: forms differ between targets",
                    f.name, enc
                ),
            }
            *mask |= 1 << ti;
        }
    }
    // Semantics.
    for e in entries.values_mut() {
        let name = e.name.clone();
        for form in [&mut e.e32, &mut e.e64].into_iter().flatten() {
            let n = form.slots.len();
            for i in 0..n {
                let s = form.slots[i].clone();
                form.slots[i].access = access(&name, &s, i);
                form.slots[i].ty = val_type(&name, &s, i);
            }
        }
    }
    (asg, entries)
}

/// The opcode indices of every VOP1/VOP2/VOPC/VOP3 opcode, for sibling
/// generators (DPP16, DPP8 and SDWA reuse them).
pub fn assignment(rec: &Recording) -> Assignment {
    analyse_all(rec, &ENCS).0
}

/// One operand of an `_e32` form, as sibling generators need it: the
/// field (`Fld` variant name), width, constant kind (`Imm` variant name),
/// access and value type (`isa` names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct E32Slot {
    /// `Vdst`, `Src0`, `Vsrc1`, `Vcc`, ...
    pub fld: String,
    /// Width in registers.
    pub width: u32,
    /// `B32`, `F16`, `I16`, ...
    pub imm: String,
    /// `R`, `W`, `RW` or `RWP`.
    pub access: &'static str,
    /// `B32`, `F16`, `Mask`, ...
    pub ty: &'static str,
}

/// The opcode assignment plus, per opcode index, the `_e32` operands
/// (for the DPP16/DPP8/SDWA generator, whose forms print the same
/// operands with the same semantics).
pub fn e32_slots(rec: &Recording) -> (Assignment, BTreeMap<u16, Vec<E32Slot>>) {
    let (asg, entries) = analyse_all(rec, &ENCS);
    let mut out = BTreeMap::new();
    for (idx, e) in &entries {
        if let Some(f) = &e.e32 {
            let v = f
                .slots
                .iter()
                .map(|s| E32Slot {
                    fld: format!("{:?}", s.fld),
                    width: s.width,
                    imm: format!("{:?}", s.imm),
                    access: s.access,
                    ty: s.ty,
                })
                .collect();
            out.insert(*idx, v);
        }
    }
    (asg, out)
}

fn cls_src(c: &Cls, text: &mut TextBlock) -> String {
    format!(
        "C {{ name: {}, vgpr: {}, sgpr: {}, lds: {}, imm: {} }}",
        text.text(&c.name),
        c.vgpr,
        c.sgpr,
        c.lds,
        c.imm
    )
}

fn access_src(a: &str) -> &'static str {
    match a {
        "R" => "R",
        "W" => "W",
        "RW" => "RW",
        "RWP" => "RWP",
        _ => panic!("access {a}"),
    }
}

/// The slot and bit lists of a table file, and its strings.
struct Pool {
    slots: FlatPool,
    bits: FlatPool,
    text: TextBlock,
}

fn form_src(f: &Form, targets: u8, pool: &mut Pool) -> String {
    let slots: Vec<String> = f
        .slots
        .iter()
        .map(|s| {
            format!(
                "S {{ fld: {:?}, width: {}, cls: {}, imm: Imm::{:?}, access: {}, ty: T::{} }}",
                s.fld,
                s.width,
                cls_src(&s.cls, &mut pool.text),
                s.imm,
                access_src(s.access),
                s.ty
            )
        })
        .collect();
    let bits: Vec<String> = f
        .bits
        .iter()
        .map(|(r, s)| {
            let r = match r {
                Role::OpSel(p) => format!("OpSel({p})"),
                Role::OpSelHi(p) => format!("OpSelHi({p})"),
                Role::NegLo(p) => format!("NegLo({p})"),
                Role::NegHi(p) => format!("NegHi({p})"),
                other => format!("{other:?}"),
            };
            format!("B {{ role: Role::{r}, slot: {s} }}")
        })
        .collect();
    let (slot_at, slot_n) = pool.slots.get(&slots);
    let (bit_at, bit_n) = pool.bits.get(&bits);
    format!(
        "VopForm {{ family: Family::{}, op: {:#x}, targets: {targets:#05b}, suffix: {}, fixed: [{:#x}, {:#x}], ignored: [{:#x}, {:#x}], lists: {:?}, packed: {}, slot_at: {slot_at}, slot_n: {slot_n}, bit_at: {bit_at}, bit_n: {bit_n} }}",
        f.enc.family(),
        f.op,
        f.suffix,
        f.fixed[0],
        f.fixed[1],
        f.ignored[0],
        f.ignored[1],
        f.lists,
        f.packed,
    )
}

fn implicit_src(name: &str) -> String {
    let imp = implicit(name);
    if imp.is_empty() {
        "I::empty()".into()
    } else {
        format!(
            "I::from_bits_retain({})",
            imp.iter()
                .map(|f| format!("I::{f}.bits()"))
                .collect::<Vec<_>>()
                .join(" | ")
        )
    }
}

fn emit_common(
    rec: &Recording,
    encs: &[Enc],
    space: &str,
    table: &str,
    block: &'static str,
    out: &mut String,
) {
    let (asg, entries) = analyse_all(rec, encs);
    let _ = writeln!(
        out,
        "use crate::family::vop::{{Bit as B, Cls as C, Fld::*, Imm, Role, VopForm, VopInfo, VopSlot as S}};\nuse crate::family::Text;\nuse crate::inst::{{Family, OpSpace, Opcode}};\nuse crate::operand::{{Access, Implicit as I, ValType as T}};\n\n#[allow(dead_code)]\nconst R: Access = Access::READ;\n#[allow(dead_code)]\nconst W: Access = Access::WRITE;\n#[allow(dead_code)]\nconst RW: Access = Access::READ.union(Access::WRITE);\n#[allow(dead_code)]\nconst RWP: Access = Access::READ.union(Access::WRITE).union(Access::PARTIAL);\n"
    );
    let _ = writeln!(out, "/// Every instruction, in opcode-index order.");
    let _ = writeln!(
        out,
        "pub(crate) static {table}: [VopInfo; {}] = [",
        entries.len()
    );
    let mut pos: BTreeMap<u16, usize> = BTreeMap::new();
    let mut pool = Pool {
        slots: FlatPool::default(),
        bits: FlatPool::default(),
        text: TextBlock::new(block),
    };
    for (i, (idx, e)) in entries.iter().enumerate() {
        pos.insert(*idx, i);
        let e32 = e
            .e32
            .as_ref()
            .map(|f| format!("Some({})", form_src(f, e.e32_targets, &mut pool)))
            .unwrap_or_else(|| "None".into());
        let e64 = e
            .e64
            .as_ref()
            .map(|f| format!("Some({})", form_src(f, e.e64_targets, &mut pool)))
            .unwrap_or_else(|| "None".into());
        let _ = writeln!(
            out,
            "    VopInfo {{ index: {idx:#x}, name: {}, implicit: {}, e32: {e32}, e64: {e64} }},",
            pool.text.text(&e.name),
            implicit_src(&e.name)
        );
    }
    let _ = writeln!(out, "];\n");
    pool.slots.emit(
        out,
        "Every form's operand slots (`VopForm::slots`).",
        "SLOTS",
        "S",
    );
    pool.bits.emit(
        out,
        "Every form's modifier bits (`VopForm::bits`).",
        "BITS",
        "B",
    );
    pool.text.emit(out);
    // Index → position.
    let max = entries.keys().max().copied().unwrap_or(0) as usize + 1;
    let _ = writeln!(
        out,
        "/// Opcode index → position in `{table}` (`u16::MAX`: none)."
    );
    let _ = write!(out, "pub(crate) static {table}_POS: [u16; {max}] = [");
    for i in 0..max {
        if i % 16 == 0 {
            out.push_str("\n   ");
        }
        let p = pos.get(&(i as u16)).map(|p| *p as u16).unwrap_or(u16::MAX);
        let _ = write!(out, " {p},");
    }
    let _ = writeln!(out, "\n];\n");
    // Native opcode → position, per encoding and target.
    for &enc in encs {
        let n = enc.count();
        let name = match enc {
            Enc::Vop2 => "MAP_VOP2",
            Enc::Vop1 => "MAP_VOP1",
            Enc::Vopc => "MAP_VOPC",
            Enc::Vop3 => "MAP_VOP3",
            Enc::Vop3p => "MAP_VOP3P",
        };
        let _ = writeln!(
            out,
            "/// {} native opcode → position in `{table}`, per target (gfx1010, gfx1013, gfx1030).",
            enc.family()
        );
        let _ = writeln!(out, "pub(crate) static {name}: [[u16; {n}]; 3] = [");
        for ti in 0..TARGETS.len() {
            out.push_str("    [");
            for op in 0..n {
                if op % 16 == 0 {
                    out.push_str("\n       ");
                }
                let p = asg
                    .map
                    .get(&(enc, op, ti))
                    .and_then(|idx| pos.get(idx))
                    .map(|p| *p as u16)
                    .unwrap_or(u16::MAX);
                let _ = write!(out, " {p},");
            }
            out.push_str("\n    ],\n");
        }
        let _ = writeln!(out, "];\n");
    }
    let _ = writeln!(
        out,
        "/// Mnemonic of an opcode index in this space.\npub fn name(index: u16) -> Option<&'static str> {{\n    let p = *{table}_POS.get(index as usize)?;\n    {table}.get(p as usize).map(|i| i.name.as_str())\n}}\n"
    );
    let consts: Vec<(u16, String)> = entries.iter().map(|(i, e)| (*i, e.name.clone())).collect();
    emit_consts(out, space, &consts);
}

fn emit(rec: &Recording) -> String {
    let mut out = header("vop");
    emit_common(rec, &ENCS, "Vop", "VOP", "VOP", &mut out);
    out
}

fn emit_vop3p(rec: &Recording) -> String {
    let mut out = header("vop").replace("oracle/vop.tsv", "oracle/vop3p.tsv");
    emit_common(rec, &[Enc::Vop3p], "Vop3p", "VOP3P", "VOP3P", &mut out);
    out
}
