//! DPP16, DPP8 and SDWA: the extended forms of VOP1, VOP2 and VOPC.
//!
//! A 32-bit VOP1/VOP2/VOPC word whose src0 field is 0xFA (DPP16), 0xE9 or
//! 0xEA (DPP8) or 0xF9 (SDWA) is followed by a second dword that holds the
//! real src0 and the form's controls. The instruction is the one the
//! native opcode names in the `_e32` encoding, so these forms reuse the
//! VOP opcode indices ([`super::vop::assignment`]); this generator only
//! learns, per instruction and target, whether each form exists, which
//! operands it prints and what its control bits do.
//!
//! # Second-dword layouts (from the RDNA ISA documentation)
//!
//! ```text
//! DPP16: 7:0 src0 VGPR, 16:8 dpp_ctrl, 18 fi, 19 bound_ctrl, 20 src0 neg,
//!        21 src0 abs, 22 src1 neg, 23 src1 abs, 27:24 bank_mask, 31:28 row_mask
//! DPP8:  7:0 src0 VGPR, 31:8 eight 3-bit lane selects (lane 0 lowest);
//!        fi is the src0 marker of the first dword (0xEA)
//! SDWA:  7:0 src0, 10:8 dst_sel, 12:11 dst_unused, 13 clamp, 15:14 omod,
//!        18:16 src0_sel, 19 src0 sext, 20 src0 neg, 21 src0 abs, 23 S0
//!        (src0 is scalar/constant), 26:24 src1_sel, 27 src1 sext, 28 src1
//!        neg, 29 src1 abs, 31 S1; VOPC: 14:8 sdst, 15 SD (0: vcc)
//! ```
//!
//! # How the tables are learned
//!
//! 1. **Bases.** Every VOP1/VOP2/VOPC opcode that has an `_e32` form is
//!    probed in each form with vdst `v10`, vsrc1 `v30`, src0 `v20` (and
//!    with fewer first-dword fields set); SDWA selects start at `BYTE_0`,
//!    DPP16 at the identity `quad_perm` with full masks, DPP8 at the
//!    identity lane selects. The first base that decodes is the form.
//! 2. **Flips.** Each register field is changed by 4, and each control
//!    bit of the second dword is flipped alone (all 24 for SDWA; the
//!    reserved bit, fi, bound_ctrl, the four neg/abs bits and one bit of
//!    dpp_ctrl and of each mask for DPP16; one lane-select bit and the fi
//!    marker for DPP8). What changes in the text says what the bit does
//!    (`-x`, `|x|`, `sext(x)`, `clamp`, `mul:2`, a select word, a scalar
//!    source, the VOPC `sdst`); a rejected flip marks a must-be-zero bit,
//!    an unchanged text an ignored one.
//! 3. **Constants.** Each SDWA source is set to the scalar code 248
//!    (1/(2π)) and to `src_lds_direct`: whether they decode, and how the
//!    constant prints (`0.15915494`, or `0x3118` for 16-bit integer
//!    operands), give the operand class.
//! 4. **Controls.** `v_mov_b32_dpp` is probed with every dpp_ctrl value,
//!    and SDWA with the reserved select value 7 (LLVM 19 aborts) and
//!    `dst_unused` 3 (LLVM 19 prints `UNUSED_PAD`). The formatter's
//!    spelling of every control is checked against these answers by
//!    `isa/tests/vop_ext.rs`.
//!
//! # Semantics
//!
//! Operand access and value types are the `_e32` form's (same operands,
//! same meaning). What depends on the control fields (partial writes of
//! SDWA `dst_sel` and of DPP lanes that are not written, cross-lane reads)
//! is decided at decode time in `isa` (see `isa::family::vop_ext`).

use super::vop::text::{parse, reg, Text, Tok};
use super::vop::{self, E32Slot, Enc};
use super::{FlatPool, TextBlock};
use crate::recording::{dwords, Recording};
use crate::{header, recording_path, FamilyGen, TARGETS};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The generator (`tables/vop_ext.rs`).
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "vop_ext",
        out_file: "vop_ext.rs",
        probes,
        emit,
    }
}

/// An extended form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Ext {
    Dpp16,
    Dpp8,
    Sdwa,
}

const EXTS: [Ext; 3] = [Ext::Dpp16, Ext::Dpp8, Ext::Sdwa];
const SHORT: [Enc; 3] = [Enc::Vop2, Enc::Vop1, Enc::Vopc];

impl Ext {
    fn suffix(self) -> &'static str {
        match self {
            Ext::Dpp16 | Ext::Dpp8 => "_dpp",
            Ext::Sdwa => "_sdwa",
        }
    }
    /// The second dword of a base probe.
    fn base_d1(self) -> u32 {
        match self {
            // quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
            Ext::Dpp16 => 20 | (0xe4 << 8) | (0xff << 24),
            // dpp8:[0,1,2,3,4,5,6,7]
            Ext::Dpp8 => 20 | (dpp8_identity() << 8),
            // every select BYTE_0, dst_unused UNUSED_PAD
            Ext::Sdwa => 20,
        }
    }
    /// The control bits flipped one at a time.
    fn bits(self) -> Vec<u32> {
        match self {
            Ext::Dpp16 => vec![8, 17, 18, 19, 20, 21, 22, 23, 24, 28],
            Ext::Dpp8 => vec![8],
            Ext::Sdwa => (8..32).collect(),
        }
    }
}

fn dpp8_identity() -> u32 {
    (0..8).fold(0, |a, i| a | (i << (3 * i)))
}

/// A register field of the first dword.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum F {
    Vdst,
    Vsrc1,
    /// src0 in the second dword.
    Src0,
}

fn fields(enc: Enc) -> &'static [F] {
    match enc {
        Enc::Vop2 => &[F::Vdst, F::Vsrc1],
        Enc::Vop1 => &[F::Vdst],
        _ => &[F::Vsrc1],
    }
}

/// One probe.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct P {
    ext: Ext,
    enc: Enc,
    op: u32,
    vdst: u32,
    vsrc1: u32,
    d1: u32,
    /// DPP8: the 0xEA marker (fi:1).
    fi8: bool,
}

impl P {
    fn words(&self) -> [u32; 2] {
        let marker = match self.ext {
            Ext::Dpp16 => 0xfa,
            Ext::Dpp8 if self.fi8 => 0xea,
            Ext::Dpp8 => 0xe9,
            Ext::Sdwa => 0xf9,
        };
        let op = self.op;
        let d0 = match self.enc {
            Enc::Vop2 => (op << 25) | (self.vdst << 17) | (self.vsrc1 << 9) | marker,
            Enc::Vop1 => (0x3f << 25) | (self.vdst << 17) | (op << 9) | marker,
            _ => (0x3e << 25) | (op << 17) | (self.vsrc1 << 9) | marker,
        };
        [d0, self.d1]
    }
    fn bytes(&self) -> Vec<u8> {
        dwords(&self.words())
    }
    fn flip(mut self, fl: Flip) -> P {
        match fl {
            Flip::Field(F::Vdst) => self.vdst ^= 4,
            Flip::Field(F::Vsrc1) => self.vsrc1 ^= 4,
            Flip::Field(F::Src0) => self.d1 ^= 4,
            Flip::Bit(b) => self.d1 ^= 1 << b,
            Flip::Fi8 => self.fi8 = !self.fi8,
            Flip::Scalar(0, code) => self.d1 = (self.d1 & !0xff) | code | (1 << 23),
            Flip::Scalar(_, code) => {
                self.vsrc1 = code;
                self.d1 |= 1 << 31;
            }
        }
        self
    }
}

/// A change to a base probe.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Flip {
    Field(F),
    /// Flip bit `n` of the second dword.
    Bit(u32),
    /// DPP8: the other marker.
    Fi8,
    /// SDWA: source 0 or 1 as the scalar code.
    Scalar(u8, u32),
}

/// Candidate bases, most first-dword fields set first.
fn bases(ext: Ext, enc: Enc, op: u32) -> Vec<P> {
    let f = fields(enc);
    let mut subsets: Vec<u32> = (0..(1u32 << f.len())).collect();
    subsets.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    subsets
        .into_iter()
        .map(|m| {
            let mut p = P {
                ext,
                enc,
                op,
                vdst: 0,
                vsrc1: 0,
                d1: ext.base_d1(),
                fi8: false,
            };
            for (i, x) in f.iter().enumerate() {
                if m & (1 << i) != 0 {
                    match x {
                        F::Vdst => p.vdst = 10,
                        _ => p.vsrc1 = 30,
                    }
                }
            }
            p
        })
        .collect()
}

const CONSTS: [u32; 2] = [248, 254];

fn flips(base: &P) -> Vec<Flip> {
    let mut v: Vec<Flip> = fields(base.enc)
        .iter()
        .chain([F::Src0].iter())
        .map(|f| Flip::Field(*f))
        .collect();
    v.extend(base.ext.bits().into_iter().map(Flip::Bit));
    match base.ext {
        Ext::Dpp8 => v.push(Flip::Fi8),
        Ext::Sdwa => {
            for c in CONSTS {
                v.push(Flip::Scalar(0, c));
                if base.enc != Enc::Vop1 {
                    v.push(Flip::Scalar(1, c));
                }
            }
        }
        Ext::Dpp16 => {}
    }
    v
}

/// The VOP opcodes with an `_e32` form on some target.
fn short_ops(asg: &vop::Assignment) -> BTreeSet<(Enc, u32)> {
    asg.map
        .keys()
        .filter(|(e, _, _)| SHORT.contains(e))
        .map(|(e, op, _)| (*e, *op))
        .collect()
}

fn vop_recording() -> Recording {
    let path = recording_path("vop");
    Recording::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `v_mov_b32_dpp v10, v20` with dpp_ctrl `c`.
fn ctrl_probe(c: u32) -> P {
    P {
        ext: Ext::Dpp16,
        enc: Enc::Vop1,
        op: 1,
        vdst: 10,
        vsrc1: 0,
        d1: 20 | (c << 8) | (0xff << 24),
        fi8: false,
    }
}

/// `v_mov_b32_sdwa v10, v20` with reserved select or dst_unused values.
fn reserved_sdwa_probes() -> Vec<P> {
    let base = P {
        ext: Ext::Sdwa,
        enc: Enc::Vop1,
        op: 1,
        vdst: 10,
        vsrc1: 0,
        d1: 20 | (6 << 8) | (6 << 16),
        fi8: false,
    };
    vec![
        P {
            d1: 20 | (7 << 8) | (6 << 16),
            ..base
        },
        P {
            d1: 20 | (6 << 8) | (7 << 16),
            ..base
        },
        P {
            d1: base.d1 | (3 << 11),
            ..base
        },
    ]
}

fn probes() -> Vec<Vec<u8>> {
    let (asg, _) = vop::e32_slots(&vop_recording());
    let mut v = Vec::new();
    for (enc, op) in short_ops(&asg) {
        for ext in EXTS {
            for p in bases(ext, enc, op) {
                v.push(p.bytes());
            }
        }
    }
    for c in 0..512 {
        v.push(ctrl_probe(c).bytes());
    }
    for p in reserved_sdwa_probes() {
        v.push(p.bytes());
    }
    v
}

/// The probes wanted after seeing `rec`: the flips of every base found.
pub fn refine(rec: &Recording) -> Vec<Vec<u8>> {
    let (asg, _) = vop::e32_slots(&vop_recording());
    let mut out = Vec::new();
    for (enc, op) in short_ops(&asg) {
        for ext in EXTS {
            for cpu in TARGETS {
                if let Some((base, _)) = find_base(rec, cpu, ext, enc, op) {
                    for fl in flips(&base) {
                        out.push(base.flip(fl).bytes());
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Analysis

struct Ans {
    raw: String,
    text: Text,
}

/// `Some(None)`: LLVM rejects the probe; `None`: not recorded (or LLVM
/// crashed).
fn ask(rec: &Recording, cpu: &str, p: &P) -> Option<Option<Ans>> {
    let b = p.bytes();
    rec.len(cpu, &b)?;
    Some(rec.text(cpu, &b).map(|t| Ans {
        raw: t.to_string(),
        text: parse(t),
    }))
}

/// The base of a form: the first candidate that decodes as the form.
/// (Instructions whose `_e32` form ignores src0, such as `v_nop`, decode
/// the marker word as that 4-byte `_e32` instruction: no form.)
fn find_base(rec: &Recording, cpu: &str, ext: Ext, enc: Enc, op: u32) -> Option<(P, Ans)> {
    for p in bases(ext, enc, op) {
        if let Some(Some(a)) = ask(rec, cpu, &p) {
            if rec.len(cpu, &p.bytes()) == Some(4) {
                assert!(!a.text.mnem.ends_with(ext.suffix()), "{}", a.raw);
                return None;
            }
            return Some((p, a));
        }
    }
    None
}

/// What a flip did to the text.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Eff {
    /// LLVM rejects it.
    Fixed,
    /// Nothing printed changed.
    Ignored,
    /// Operand `i` changed its register or value.
    Core(usize),
    /// Operand `i` gained a prefix modifier (`-`, `|`, `sext`).
    Prefix(usize, &'static str),
    /// A modifier word (by name before `:`) changed or appeared.
    Word(String),
}

fn effect(base: &Ans, a: Option<Ans>, ctx: &str) -> Eff {
    let Some(a) = a else {
        return Eff::Fixed;
    };
    let (t, u) = (&base.text, &a.text);
    assert_eq!(t.mnem, u.mnem, "{ctx}: mnemonic changed: `{}`", a.raw);
    assert_eq!(
        t.toks.len(),
        u.toks.len(),
        "{ctx}: operand count changed: `{}`",
        a.raw
    );
    let diff: Vec<usize> = (0..t.toks.len())
        .filter(|&i| t.toks[i] != u.toks[i])
        .collect();
    let word_key = |w: &str| w.split(':').next().unwrap_or(w).to_string();
    let old: BTreeSet<&String> = t.words.iter().collect();
    let new: Vec<&String> = u.words.iter().filter(|w| !old.contains(w)).collect();
    let gone: Vec<&String> = t.words.iter().filter(|w| !u.words.contains(w)).collect();
    match (diff.as_slice(), new.as_slice()) {
        ([], []) if gone.is_empty() => Eff::Ignored,
        ([i], []) => {
            let (x, y) = (&t.toks[*i], &u.toks[*i]);
            if x.core != y.core {
                Eff::Core(*i)
            } else if x.abs != y.abs {
                Eff::Prefix(*i, "abs")
            } else if x.neg != y.neg || x.negfn != y.negfn {
                Eff::Prefix(*i, "neg")
            } else if x.sext != y.sext {
                Eff::Prefix(*i, "sext")
            } else {
                panic!("{ctx}: `{}`", a.raw)
            }
        }
        ([], [w]) => {
            if let Some(g) = gone.first() {
                assert_eq!(word_key(g), word_key(w), "{ctx}: `{}`", a.raw);
            }
            Eff::Word(word_key(w))
        }
        _ => panic!("{ctx}: flip changes too much: `{}`", a.raw),
    }
}

/// Which field an operand comes from (mirrors `isa::family::vop::Fld`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Fld {
    Vdst,
    Sdst,
    Src0,
    Vsrc1,
    Vcc,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Slot {
    fld: Fld,
    width: u32,
    /// LLVM's class name when it printed one.
    cls_name: String,
    vgpr: bool,
    sgpr: bool,
    lds: bool,
    imm: bool,
    /// `Imm` variant name.
    imm_kind: String,
    access: &'static str,
    ty: &'static str,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Form {
    name: String,
    slots: Vec<Slot>,
    fixed: [u32; 2],
    ignored: [u32; 2],
    /// Per source (src0, src1): NEG = 1, ABS = 2, SEXT = 4 (`isa::OpMods`).
    src_mods: [u8; 2],
    clamp: bool,
    omod: bool,
    dst_sel: bool,
    src_sel: [bool; 2],
}

fn field_mask(f: F, enc: Enc) -> (u32, u32) {
    match (f, enc) {
        (F::Vdst, _) => (0xff << 17, 0),
        (F::Vsrc1, _) => (0xff << 9, 0),
        (F::Src0, _) => (0, 0xff),
    }
}

#[allow(clippy::too_many_lines)]
fn analyse(
    rec: &Recording,
    cpu: &str,
    ext: Ext,
    enc: Enc,
    op: u32,
    vop_name: &str,
    e32: &[E32Slot],
) -> Option<Form> {
    let (base, ba) = find_base(rec, cpu, ext, enc, op)?;
    let ctx = format!("{cpu} {ext:?} {enc:?} {op:#x} `{}`", ba.raw);
    let name = ba
        .text
        .mnem
        .strip_suffix(ext.suffix())
        .unwrap_or_else(|| panic!("{ctx}: no {} suffix", ext.suffix()));
    assert_eq!(name, vop_name, "{ctx}: not the _e32 instruction");
    let n = ba.text.toks.len();
    let mut fld: Vec<Option<Fld>> = vec![None; n];
    let mut fixed = [0u32; 2];
    let mut ignored = [0u32; 2];
    let get = |fl: Flip| -> Option<Ans> {
        ask(rec, cpu, &base.flip(fl))
            .unwrap_or_else(|| panic!("{ctx}: {fl:?} not recorded; run `isa-gen probe vop_ext`"))
    };
    // Register fields.
    for &f in fields(enc).iter().chain([F::Src0].iter()) {
        let (m0, m1) = field_mask(f, enc);
        match effect(&ba, get(Flip::Field(f)), &ctx) {
            Eff::Core(i) => {
                assert!(fld[i].is_none(), "{ctx}: two fields print operand {i}");
                fld[i] = Some(match f {
                    F::Vdst => Fld::Vdst,
                    F::Vsrc1 => Fld::Vsrc1,
                    F::Src0 => Fld::Src0,
                });
            }
            Eff::Fixed => {
                fixed[0] |= m0;
                fixed[1] |= m1;
            }
            Eff::Ignored => {
                ignored[0] |= m0;
                ignored[1] |= m1;
            }
            e => panic!("{ctx}: field {f:?}: {e:?}"),
        }
    }
    // Control bits.
    let mut src_mods = [0u8; 2];
    let (mut clamp, mut omod, mut dst_sel) = (false, false, false);
    let mut src_sel = [false; 2];
    let mut scalar = [false; 2];
    let src_of = |fld: &[Option<Fld>], i: usize| -> usize {
        match fld[i] {
            Some(Fld::Src0) => 0,
            Some(Fld::Vsrc1) => 1,
            other => panic!("{ctx}: a source modifier on operand {i} ({other:?})"),
        }
    };
    for b in ext.bits() {
        let e = effect(&ba, get(Flip::Bit(b)), &ctx);
        match &e {
            Eff::Fixed => {
                fixed[1] |= 1 << b;
                continue;
            }
            Eff::Ignored => {
                ignored[1] |= 1 << b;
                continue;
            }
            _ => {}
        }
        match (ext, b, &e) {
            (Ext::Dpp16, 8, Eff::Word(w)) if w == "quad_perm" => {}
            (Ext::Dpp16, 18, Eff::Word(w)) if w == "fi" => {}
            (Ext::Dpp16, 19, Eff::Word(w)) if w == "bound_ctrl" => {}
            (Ext::Dpp16, 24, Eff::Word(w)) if w == "bank_mask" => {}
            (Ext::Dpp16, 28, Eff::Word(w)) if w == "row_mask" => {}
            // The neg bit of an operand with integer input modifiers
            // prints as `sext(x)` (`v_ldexp_f16` src1).
            (Ext::Dpp16, 20 | 22, Eff::Prefix(i, what @ ("neg" | "sext"))) => {
                let s = src_of(&fld, *i);
                assert_eq!(s as u32, (b - 20) / 2, "{ctx}: bit {b}");
                src_mods[s] |= if *what == "neg" { 1 } else { 4 };
            }
            (Ext::Dpp16, 21 | 23, Eff::Prefix(i, "abs")) => {
                let s = src_of(&fld, *i);
                assert_eq!(s as u32, (b - 21) / 2, "{ctx}: bit {b}");
                src_mods[s] |= 2;
            }
            (Ext::Dpp8, 8, Eff::Word(w)) if w == "dpp8" => {}
            (Ext::Sdwa, 8..=10, Eff::Word(w)) if w == "dst_sel" => dst_sel = true,
            (Ext::Sdwa, 11 | 12, Eff::Word(w)) if w == "dst_unused" => assert!(dst_sel, "{ctx}"),
            (Ext::Sdwa, 13, Eff::Word(w)) if w == "clamp" => clamp = true,
            (Ext::Sdwa, 14, Eff::Word(w)) if w == "mul" => omod = true,
            (Ext::Sdwa, 15, Eff::Word(w)) if w == "mul" => assert!(omod, "{ctx}"),
            (Ext::Sdwa, 16..=18, Eff::Word(w)) if w == "src0_sel" => src_sel[0] = true,
            (Ext::Sdwa, 24..=26, Eff::Word(w)) if w == "src1_sel" => src_sel[1] = true,
            (Ext::Sdwa, 19 | 20 | 21 | 27 | 28 | 29, Eff::Prefix(i, what)) => {
                let s = src_of(&fld, *i);
                let want = if b < 24 { 0 } else { 1 };
                assert_eq!(s, want, "{ctx}: bit {b}");
                let (flag, pos) = match *what {
                    "sext" => (4, 19),
                    "neg" => (1, 20),
                    _ => (2, 21),
                };
                assert_eq!(b, pos + 8 * want as u32, "{ctx}: bit {b} is {what}");
                src_mods[s] |= flag;
            }
            (Ext::Sdwa, 23 | 31, Eff::Core(i)) => {
                let s = src_of(&fld, *i);
                assert_eq!(s, if b == 23 { 0 } else { 1 }, "{ctx}: bit {b}");
                scalar[s] = true;
            }
            (Ext::Sdwa, 15, Eff::Core(i)) if enc == Enc::Vopc => {
                assert!(fld[*i].is_none(), "{ctx}: SD changes operand {i}");
                fld[*i] = Some(Fld::Sdst);
            }
            _ => panic!("{ctx}: bit {b}: {e:?}"),
        }
    }
    if ext == Ext::Dpp8 {
        let e = effect(&ba, get(Flip::Fi8), &ctx);
        assert_eq!(e, Eff::Word("fi".into()), "{ctx}: the 0xEA marker");
    }
    // VOPC SDWA with an sdst: the sdst bits are ignored while SD is 0
    // (the destination is vcc); they are not don't-care bits in general.
    if fld.contains(&Some(Fld::Sdst)) {
        assert_eq!(ignored[1] & 0x7f00, 0x7f00, "{ctx}: sdst bits");
        ignored[1] &= !0x7f00;
    }
    // Operands.
    let toks = &ba.text.toks;
    assert_eq!(toks.len(), e32.len(), "{ctx}: operands differ from _e32");
    let mut slots = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        let f = match fld[i] {
            Some(f) => f,
            None if tok.core == "vcc_lo" => Fld::Vcc,
            None => panic!("{ctx}: operand {i} `{}` comes from no field", tok.core),
        };
        let want = match f {
            Fld::Sdst => "Vcc",
            Fld::Vdst => "Vdst",
            Fld::Src0 => "Src0",
            Fld::Vsrc1 => "Vsrc1",
            Fld::Vcc => "Vcc",
        };
        let es = &e32[i];
        assert_eq!(
            es.fld, want,
            "{ctx}: operand {i} is {f:?}, _e32 has {}",
            es.fld
        );
        let width = reg(&tok.core).map(|r| r.2).unwrap_or(1);
        assert_eq!(width, es.width, "{ctx}: operand {i} width");
        let mut s = Slot {
            fld: f,
            width,
            cls_name: String::new(),
            vgpr: matches!(f, Fld::Vdst | Fld::Src0 | Fld::Vsrc1),
            sgpr: matches!(f, Fld::Sdst | Fld::Vcc),
            lds: false,
            imm: false,
            imm_kind: es.imm.clone(),
            access: es.access,
            ty: es.ty,
        };
        if let Some(note) = tok.note.as_deref() {
            panic!("{ctx}: operand {i} has a note in the base: {note}");
        }
        if matches!(f, Fld::Src0 | Fld::Vsrc1) && ext == Ext::Sdwa {
            let k = if f == Fld::Src0 { 0 } else { 1 };
            s.sgpr = scalar[k];
            if scalar[k] {
                let at = |code: u32| -> Option<Tok> {
                    get(Flip::Scalar(k as u8, code)).map(|a| a.text.toks[i].clone())
                };
                if let Some(t) = at(248) {
                    if let Some(n) = t.note.as_deref().and_then(class_name) {
                        s.cls_name = n;
                    } else {
                        s.imm = true;
                    }
                    s.imm_kind = match (t.core.as_str(), es.imm.as_str()) {
                        ("0.15915494", "B32" | "F16") => es.imm.clone(),
                        ("0.15915494", _) => "B32".into(),
                        ("0x3118", _) => "I16".into(),
                        (c, _) => panic!("{ctx}: operand {i} prints 1/(2pi) as {c}"),
                    };
                }
                if let Some(t) = at(254) {
                    match t.note.as_deref().and_then(class_name) {
                        Some(n) => s.cls_name = n,
                        None => s.lds = true,
                    }
                }
            }
        }
        slots.push(s);
    }
    Some(Form {
        name: name.to_string(),
        slots,
        fixed,
        ignored,
        src_mods,
        clamp,
        omod,
        dst_sel,
        src_sel,
    })
}

fn class_name(note: &str) -> Option<String> {
    let i = note.find("operand has '")?;
    let rest = &note[i + 13..];
    Some(rest[..rest.find('\'')?].to_string())
}

// ---------------------------------------------------------------------------
// Emission

#[derive(Default)]
struct Entry {
    forms: [Option<(Form, u8)>; 3],
}

fn analyse_all(rec: &Recording) -> BTreeMap<u16, Entry> {
    let (asg, e32) = vop::e32_slots(&vop_recording());
    let mut out: BTreeMap<u16, Entry> = BTreeMap::new();
    for (enc, op) in short_ops(&asg) {
        for (ti, cpu) in TARGETS.iter().enumerate() {
            let Some(idx) = asg.map.get(&(enc, op, ti)) else {
                continue;
            };
            let name = &asg.names[idx];
            let slots = e32.get(idx).map(|v| v.as_slice()).unwrap_or(&[]);
            for (k, ext) in EXTS.iter().enumerate() {
                let Some(f) = analyse(rec, cpu, *ext, enc, op, name, slots) else {
                    continue;
                };
                let e = out.entry(*idx).or_default();
                match &mut e.forms[k] {
                    None => e.forms[k] = Some((f, 1 << ti)),
                    Some((old, mask)) => {
                        assert_eq!(*old, f, "{name} {ext:?}: forms differ between targets");
                        *mask |= 1 << ti;
                    }
                }
            }
        }
    }
    out
}

/// The slot lists of the table file, and its strings.
struct Pool {
    slots: FlatPool,
    text: TextBlock,
}

fn form_src(f: &Form, targets: u8, pool: &mut Pool) -> String {
    let slots: Vec<String> = f
        .slots
        .iter()
        .map(|s| {
            format!(
                "S {{ fld: {:?}, width: {}, cls: C {{ name: {}, vgpr: {}, sgpr: {}, lds: {}, imm: {} }}, imm: Imm::{}, access: {}, ty: T::{} }}",
                s.fld, s.width, pool.text.text(&s.cls_name), s.vgpr, s.sgpr, s.lds, s.imm, s.imm_kind, s.access, s.ty
            )
        })
        .collect();
    let (slot_at, slot_n) = pool.slots.get(&slots);
    format!(
        "ExtForm {{ targets: {targets:#05b}, slot_at: {slot_at}, slot_n: {slot_n}, fixed: [{:#x}, {:#x}], ignored: [{:#x}, {:#x}], src_mods: [M::from_bits_retain({}), M::from_bits_retain({})], clamp: {}, omod: {}, dst_sel: {}, src_sel: {:?} }}",
        f.fixed[0],
        f.fixed[1],
        f.ignored[0],
        f.ignored[1],
        f.src_mods[0],
        f.src_mods[1],
        f.clamp,
        f.omod,
        f.dst_sel,
        f.src_sel,
    )
}

fn emit(rec: &Recording) -> String {
    let entries = analyse_all(rec);
    let mut out = header("vop_ext");
    out.push_str(
        "use crate::family::vop::{Cls as C, Fld::*, Imm, VopSlot as S};\n\
         use crate::family::vop_ext::{ExtForm, ExtInfo};\n\
         use crate::family::Text;\n\
         use crate::operand::{Access, OpMods as M, ValType as T};\n\n\
         #[allow(dead_code)]\nconst R: Access = Access::READ;\n\
         #[allow(dead_code)]\nconst W: Access = Access::WRITE;\n\
         #[allow(dead_code)]\nconst RW: Access = Access::READ.union(Access::WRITE);\n\
         #[allow(dead_code)]\nconst RWP: Access = Access::READ.union(Access::WRITE).union(Access::PARTIAL);\n\n",
    );
    let _ = writeln!(
        out,
        "/// The DPP16, DPP8 and SDWA forms of every VOP1/VOP2/VOPC instruction\n/// that has one, in opcode-index order."
    );
    let _ = writeln!(
        out,
        "pub(crate) static EXT: [ExtInfo; {}] = [",
        entries.len()
    );
    let mut pool = Pool {
        slots: FlatPool::default(),
        text: TextBlock::new("VOP_EXT"),
    };
    let mut pos = BTreeMap::new();
    for (i, (idx, e)) in entries.iter().enumerate() {
        pos.insert(*idx, i);
        let forms: Vec<String> = e
            .forms
            .iter()
            .map(|f| match f {
                Some((f, t)) => format!("Some({})", form_src(f, *t, &mut pool)),
                None => "None".into(),
            })
            .collect();
        let _ = writeln!(
            out,
            "    ExtInfo {{ index: {idx:#x}, dpp16: {}, dpp8: {}, sdwa: {} }},",
            forms[0], forms[1], forms[2]
        );
    }
    let _ = writeln!(out, "];\n");
    pool.slots.emit(
        &mut out,
        "Every form's operand slots (`ExtForm::slots`).",
        "SLOTS",
        "S",
    );
    pool.text.emit(&mut out);
    let max = entries.keys().max().copied().unwrap_or(0) as usize + 1;
    let _ = writeln!(
        out,
        "/// Opcode index (`OpSpace::Vop`) → position in `EXT` (`u16::MAX`: none)."
    );
    let _ = write!(out, "pub(crate) static EXT_POS: [u16; {max}] = [");
    for i in 0..max {
        if i % 16 == 0 {
            out.push_str("\n   ");
        }
        let p = pos.get(&(i as u16)).map(|p| *p as u16).unwrap_or(u16::MAX);
        let _ = write!(out, " {p},");
    }
    let _ = writeln!(out, "\n];");
    super::finish(out)
}
