//! MIMG (image memory), including gfx1013's ray-tracing instructions.
//!
//! Probes:
//! - every 8-bit opcode (bits 24:18 of the first dword plus bit 0 as
//!   opcode bit 7) with dmask 1, vaddr = v5, vdata = v1, srsrc = `s[8:15]`,
//!   once with the sampler field 0 and once with `s[12:15]`: the mnemonic,
//!   the target validity, and whether the opcode takes a sampler (LLVM
//!   rejects a non-zero sampler field on the others);
//! - every opcode in the ray-tracing form (dmask 0xf, unorm, r128, a16 off
//!   and on);
//! - for every opcode that decodes, a validation set: each dimension with
//!   and without a16 (dmask 0xf), several dmask/tfe/d16 combinations, NSA
//!   encodings with 1, 2 and 3 address dwords, and register ranges that
//!   run past v255.
//!
//! LLVM decodes an MIMG word to a default variant and then widens vdata
//! and vaddr to the sizes that dmask/d16/tfe and the opcode/dim/a16 imply,
//! when a variant of those sizes exists and the registers fit
//! (`AMDGPUDisassembler::convertMIMGInst`). The rules at the bottom of this
//! file give, from the mnemonic, the address components of each opcode and
//! the variant sizes LLVM defines (`MIMGInstructions.td`); the generator
//! predicts every validation probe from them and panics on a disagreement
//! with the recording, so the emitted table is LLVM's behaviour.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "mimg",
        out_file: "mimg.rs",
        probes,
        emit,
    }
}

/// The fields of one probe word.
#[derive(Clone, Copy, Default)]
struct W {
    op: u32,
    dmask: u32,
    dim: u32,
    nsa: u32,
    unorm: u32,
    r128: u32,
    tfe: u32,
    a16: u32,
    d16: u32,
    vaddr: u32,
    vdata: u32,
    rsrc: u32,
    samp: u32,
}

impl W {
    fn base(op: u32) -> W {
        W {
            op,
            dmask: 1,
            vaddr: 5,
            vdata: 1,
            rsrc: 2,
            ..W::default()
        }
    }
    fn bytes(&self) -> Vec<u8> {
        let d0 = (0x3c << 26)
            | ((self.op & 0x7f) << 18)
            | (self.op >> 7)
            | (self.nsa << 1)
            | (self.dim << 3)
            | (self.dmask << 8)
            | (self.unorm << 12)
            | (self.r128 << 15)
            | (self.tfe << 16);
        let d1 = self.vaddr
            | (self.vdata << 8)
            | (self.rsrc << 16)
            | (self.samp << 21)
            | (self.a16 << 30)
            | (self.d16 << 31);
        let mut w = vec![d0, d1];
        // NSA address bytes: v10, v11, v12 ...
        for k in 0..self.nsa {
            let b = 10 + 4 * k;
            w.push(b | ((b + 1) << 8) | ((b + 2) << 16) | ((b + 3) << 24));
        }
        dwords(&w)
    }
}

fn probe_base(op: u32, samp: u32) -> Vec<u8> {
    W {
        samp,
        ..W::base(op)
    }
    .bytes()
}

fn probe_bvh(op: u32, a16: u32) -> Vec<u8> {
    W {
        dmask: 0xf,
        unorm: 1,
        r128: 1,
        a16,
        ..W::base(op)
    }
    .bytes()
}

/// Opcodes that get the validation set. Checked in `emit`: every opcode
/// that decodes must be listed.
fn candidates() -> impl Iterator<Item = u32> {
    (0x00..=0x6f)
        .chain([0x80])
        .chain(0xa0..=0xbf)
        .chain(0xe0..=0xef)
}

/// The validation probes of one opcode (sampler field 0, which every
/// opcode accepts).
fn validation(op: u32) -> Vec<W> {
    let b = W::base(op);
    let mut v = Vec::new();
    for dim in 0..8 {
        for a16 in 0..2 {
            v.push(W {
                dim,
                a16,
                dmask: 0xf,
                ..b
            });
        }
    }
    for dmask in [1, 3, 7] {
        for tfe in 0..2 {
            v.push(W {
                dim: 1,
                dmask,
                tfe,
                ..b
            });
        }
    }
    for dmask in [7, 0xf] {
        v.push(W {
            dim: 1,
            dmask,
            d16: 1,
            ..b
        });
    }
    for nsa in 1..4 {
        for dim in [0, 2, 5, 7] {
            for a16 in 0..2 {
                v.push(W {
                    nsa,
                    dim,
                    a16,
                    dmask: 0xf,
                    ..b
                });
            }
        }
    }
    v.push(W {
        vdata: 255,
        dmask: 0xf,
        dim: 2,
        ..b
    });
    v.push(W {
        vaddr: 255,
        dim: 7,
        ..b
    });
    v
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..256 {
        v.push(probe_base(op, 0));
        v.push(probe_base(op, 3));
        v.push(probe_bvh(op, 0));
        v.push(probe_bvh(op, 1));
    }
    for op in candidates() {
        for w in validation(op) {
            v.push(w.bytes());
        }
    }
    v
}

/// The access class of an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Load,
    Store,
    Atomic,
    Sample,
    Gather4,
    Bvh,
    ResInfo,
    GetLod,
    MsaaLoad,
}

/// What the rules say about an opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    kind: Kind,
    sampler: bool,
    d16: bool,
    /// Address dwords before the coordinates (offset, bias, z-compare).
    extra: u32,
    coords: bool,
    /// One more address component: lod, clamp or mip level.
    lod: bool,
    gradients: bool,
    g16: bool,
    /// Atomics with two data dwords per component (cmpswap).
    x2: bool,
    /// Address dwords of the non-NSA variants LLVM defines (bit n = n dwords).
    addr: u32,
    /// The non-NSA default variant's address dwords.
    a0: u32,
    /// Address dwords of the NSA variants (bit n).
    addr_nsa: u32,
    /// Address count of the NSA variant LLVM decodes, per NSA dword count.
    nsa_dec: [u32; 3],
    /// Data dwords LLVM's variant for a computed data size has (index =
    /// computed size 0..=5; 0 = no variant).
    data: [u32; 6],
    /// The default variant's data size (key into `data`).
    d0: u32,
    /// Ray tracing: address dwords without and with a16.
    bvh: [u32; 2],
}

/// Coordinates and gradients of each `dim` value (LLVM's `AMDGPUDimProps`:
/// the coordinates include the array slice, cube face and fragment id; two
/// gradients per spatial coordinate).
const DIMS: [(&str, u32, u32); 8] = [
    ("1D", 1, 2),
    ("2D", 2, 4),
    ("3D", 3, 6),
    ("CUBE", 3, 4),
    ("1D_ARRAY", 2, 2),
    ("2D_ARRAY", 3, 4),
    ("2D_MSAA", 3, 4),
    ("2D_MSAA_ARRAY", 4, 4),
];

/// The rules: address components and variant sizes from the mnemonic
/// (RDNA2 ISA "Image instructions"; variant sets from LLVM's
/// `MIMGInstructions.td`).
///
/// - Sample/gather suffixes: `_c` (z-compare), `_o` (offset) and `_b`
///   (bias) add one address dword each before the coordinates; `_d`/`_cd`
///   add gradients; `_l` (lod) and `_cl` (clamp) add one component after
///   the coordinates; `_g16` packs gradients in 16 bits.
/// - `image_load_mip*`/`image_store_mip*` add the mip level; `_pck` forms
///   have no d16; `image_get_resinfo` takes only the mip level;
///   `image_get_lod` has no d16.
/// - Non-sampler opcodes have variants with 1..=4 address dwords (NSA:
///   2..=4, and LLVM decodes NSA as 4 addresses). Sample/gather variants
///   cover every count their dims and a16 can need (NSA: every count of
///   2..=12 in that set, decoded as the largest of each NSA size class;
///   non-NSA: the register classes 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16
///   that can hold one of them, the smallest decoded).
/// - Data variants: 1..=5 dwords; gather4: 2, 4, 5 (4 decoded); atomics:
///   1, 2 and a 5-register variant for 4, cmpswap: 2 and 4 (LLVM's table
///   quirk, recorded as it prints).
fn rules(name: &str, sampler: bool) -> Info {
    let mut i = Info {
        name: name.to_string(),
        kind: Kind::Load,
        sampler,
        d16: false,
        extra: 0,
        coords: true,
        lod: false,
        gradients: false,
        g16: false,
        x2: false,
        addr: 0,
        a0: 1,
        addr_nsa: 0,
        nsa_dec: [0; 3],
        data: [0, 1, 2, 3, 4, 5],
        d0: 1,
        bvh: [0; 2],
    };
    let toks: Vec<&str> = name
        .strip_prefix("image_")
        .unwrap_or_else(|| panic!("{name}"))
        .split('_')
        .collect();
    if toks[0].starts_with("bvh") {
        i.kind = Kind::Bvh;
        i.coords = false;
        i.bvh = if toks[0] == "bvh64" { [12, 9] } else { [11, 8] };
        i.data = [0, 0, 0, 0, 4, 0];
        i.d0 = 4;
        return i;
    }
    let simple = |i: &mut Info| {
        i.addr = 0b11110;
        i.a0 = 1;
        i.addr_nsa = 0b11100;
        i.nsa_dec = [4, 0, 0];
    };
    match toks[0] {
        "atomic" => {
            i.kind = Kind::Atomic;
            i.x2 = toks[1].ends_with("cmpswap");
            if i.x2 {
                i.data = [0, 0, 2, 0, 4, 0];
                i.d0 = 2;
            } else {
                i.data = [0, 1, 2, 0, 5, 0];
            }
            simple(&mut i);
            return i;
        }
        "load" | "store" | "msaa" => {
            i.kind = match toks[0] {
                "store" => Kind::Store,
                "msaa" => Kind::MsaaLoad,
                _ => Kind::Load,
            };
            i.lod = toks.contains(&"mip");
            i.d16 = !toks.contains(&"pck");
            simple(&mut i);
            return i;
        }
        "get" if toks[1] == "resinfo" => {
            i.kind = Kind::ResInfo;
            i.coords = false;
            i.lod = true;
            simple(&mut i);
            return i;
        }
        "get" if toks[1] == "lod" => {
            i.kind = Kind::GetLod;
        }
        "sample" => {
            i.kind = Kind::Sample;
            i.d16 = true;
        }
        t if t.starts_with("gather4") => {
            i.kind = Kind::Gather4;
            i.d16 = true;
            i.data = [0, 0, 2, 0, 4, 5];
            i.d0 = 4;
        }
        _ => panic!("unknown MIMG mnemonic {name}"),
    }
    if i.kind != Kind::GetLod {
        for t in &toks[1..] {
            match *t {
                "c" | "o" | "b" => i.extra += 1,
                "d" | "cd" => i.gradients = true,
                "cl" | "l" => i.lod = true,
                "g16" => i.g16 = true,
                "lz" => {}
                _ => panic!("unknown suffix {t} of {name}"),
            }
        }
    }
    // Address dword counts the variants cover.
    let words: Vec<u32> = match (i.gradients, i.g16, i.lod) {
        (true, true, false) => (2..=7).collect(),
        (true, true, true) => (2..=8).collect(),
        (true, false, false) => (2..=9).collect(),
        (true, false, true) => (2..=10).collect(),
        (false, _, false) => (1..=3).collect(),
        (false, _, true) => (1..=4).collect(),
    };
    let words: Vec<u32> = words.iter().map(|w| w + i.extra).collect();
    let classes: [(u32, u32); 13] = [
        (1, 1),
        (2, 2),
        (3, 3),
        (3, 4),
        (5, 5),
        (6, 6),
        (7, 7),
        (5, 8),
        (9, 9),
        (10, 10),
        (11, 11),
        (12, 12),
        (13, 16),
    ];
    let mut first = None;
    for (lo, hi) in classes {
        if words.iter().any(|w| (lo..=hi).contains(w)) {
            i.addr |= 1 << hi;
            first.get_or_insert(hi);
        }
    }
    i.a0 = first.unwrap_or(1);
    for w in &words {
        if (2..=12).contains(w) {
            i.addr_nsa |= 1 << w;
        }
    }
    for (k, group) in [[5, 4, 3, 2], [9, 8, 7, 6], [12, 11, 10, 0]]
        .iter()
        .enumerate()
    {
        i.nsa_dec[k] = group
            .iter()
            .copied()
            .find(|w| words.contains(w))
            .unwrap_or(0);
    }
    i
}

/// Address dwords the opcode needs for a dim and a16 (LLVM's
/// `getAddrSizeMIMGOp`).
fn addr_size(i: &Info, dim: u32, a16: bool) -> u32 {
    let (_, coords, grads) = DIMS[dim as usize];
    let comps = if i.coords { coords } else { 0 } + i.lod as u32;
    let mut w = i.extra + if a16 { comps.div_ceil(2) } else { comps };
    // LLVM packs derivatives in pairs only for `_g16` opcodes: every gfx10
    // target counts as having 16-bit derivatives, so a16 alone does not
    // pack them (checked by the probes).
    if i.gradients {
        w += if i.g16 {
            (grads / 2).div_ceil(2) * 2
        } else {
            grads
        };
    }
    w
}

/// What LLVM prints for a probe, per the rules: `None` when it does not
/// decode, else (bytes, vdata registers, address registers).
fn predict(i: &Info, w: &W) -> Option<(usize, u32, u32)> {
    if i.kind == Kind::Bvh {
        let n = i.bvh[w.a16 as usize];
        let fixed = w.dmask == 0xf && w.unorm == 1 && w.r128 == 1 && w.dim == 0;
        let nsa_ok = w.nsa == 0 || w.nsa == (n - 1).div_ceil(4);
        if !fixed || !nsa_ok || w.samp != 0 || w.d16 != 0 || w.tfe != 0 || w.vdata + 4 > 256 {
            return None;
        }
        if w.nsa == 0 && w.vaddr + n > 256 {
            return None;
        }
        return Some((8 + 4 * w.nsa as usize, 4, n));
    }
    if (!i.sampler && w.samp != 0) || (!i.d16 && w.d16 != 0) {
        return None;
    }
    let nsa = w.nsa > 0;
    let va = if nsa {
        i.nsa_dec[w.nsa as usize - 1]
    } else {
        i.a0
    };
    let dw0 = i.data[i.d0 as usize];
    if va == 0 || w.vdata + dw0 > 256 || (!nsa && w.vaddr + va > 256) {
        return None;
    }
    let len = 8 + 4 * (va - 1).div_ceil(4) as usize * nsa as usize;
    let mut asz = addr_size(i, w.dim, w.a16 != 0);
    if !nsa && asz > 12 {
        asz = 16;
    }
    let keep = Some((len, dw0, va));
    if nsa && asz > va {
        return keep;
    }
    let mut ds = if i.kind == Kind::Gather4 {
        4
    } else {
        w.dmask.count_ones().max(1)
    };
    if w.d16 != 0 {
        ds = ds.div_ceil(2);
    }
    ds += w.tfe;
    if ds == i.d0 && asz == va {
        return keep;
    }
    let avail = if nsa { i.addr_nsa } else { i.addr };
    let dw = i.data.get(ds as usize).copied().unwrap_or(0);
    if dw == 0 || avail & (1 << asz) == 0 || w.vdata + dw > 256 {
        return keep;
    }
    if !nsa && w.vaddr + asz > 256 {
        return keep;
    }
    Some((len, dw, asz))
}

/// (vdata registers, address registers) of an LLVM text.
fn shape(text: &str) -> (u32, u32) {
    let (_, ops) = split_operands(text);
    let dw = parse_vreg(&ops[0]).map(|r| r.1).unwrap_or(0);
    let a = &ops[1];
    let aw = if a.starts_with('[') {
        a.split(',').count() as u32
    } else {
        parse_vreg(a).map(|r| r.1).unwrap_or(0)
    };
    (dw, aw)
}

fn analyse(op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    let plain = rec.text(cpu, &probe_base(op, 0));
    let samp = rec.text(cpu, &probe_base(op, 3));
    let bvh = rec.text(cpu, &probe_bvh(op, 0));
    let text = plain.or(bvh)?;
    let name = split_operands(text).0.to_string();
    let info = rules(&name, samp.is_some());
    if info.kind == Kind::Bvh {
        assert!(plain.is_none() && samp.is_none(), "{cpu} {name}");
    }
    // Check every recorded probe of this opcode against the rules.
    let mut probes = vec![
        (W { ..W::base(op) }, plain),
        (
            W {
                samp: 3,
                ..W::base(op)
            },
            samp,
        ),
    ];
    for a16 in 0..2 {
        let w = W {
            dmask: 0xf,
            unorm: 1,
            r128: 1,
            a16,
            ..W::base(op)
        };
        probes.push((w, rec.text(cpu, &w.bytes())));
    }
    for w in validation(op) {
        probes.push((w, rec.text(cpu, &w.bytes())));
    }
    for (w, got) in probes {
        let bytes = w.bytes();
        if rec.get(cpu, &bytes).is_none() {
            continue; // not probed (opcode outside the candidates)
        }
        let want = predict(&info, &w);
        let got = got.map(|t| (rec.len(cpu, &bytes).unwrap_or(0), shape(t)));
        let want = want.map(|(l, d, a)| (l, (d, a)));
        assert_eq!(got, want, "{cpu} {name}: probe {}", hex(&bytes));
    }
    Some(info)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn mask(bits: u32) -> String {
    format!("{bits:#06x}")
}

fn emit(rec: &Recording) -> String {
    let mut out = header("mimg");
    let mut text = super::TextBlock::new("MIMG");
    out.push_str(
        "use crate::family::mimg::{MimgDim, MimgInfo, MimgKind};\nuse crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\n",
    );
    let cands: Vec<u32> = candidates().collect();
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..256u32 {
        let mut per: Vec<(usize, Info)> = Vec::new();
        for (ti, cpu) in TARGETS.iter().enumerate() {
            if let Some(info) = analyse(op, rec, cpu) {
                per.push((ti, info));
            }
        }
        let Some((_, i)) = per.first() else {
            rows.push("None".to_string());
            continue;
        };
        assert!(
            cands.contains(&op),
            "MIMG op {op:#x} decodes but is not validated"
        );
        for (ti, other) in &per {
            assert_eq!(other, i, "MIMG op {op:#x}: differs on {}", TARGETS[*ti]);
        }
        let targets: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        rows.push(format!(
            "Some(MimgInfo {{ name: {}, targets: {targets:#05b}, kind: MimgKind::{:?}, sampler: {}, d16: {}, extra: {}, coords: {}, lod: {}, gradients: {}, g16: {}, x2: {}, addr: {}, a0: {}, addr_nsa: {}, nsa_dec: {:?}, data: {:?}, d0: {}, bvh: {:?} }})",
            text.text(&i.name), i.kind, i.sampler, i.d16, i.extra, i.coords, i.lod, i.gradients, i.g16, i.x2,
            mask(i.addr), i.a0, mask(i.addr_nsa), i.nsa_dec, i.data, i.d0, i.bvh
        ));
        consts.push((op as u16, i.name.clone()));
    }
    // Dim names as printed (checked against the recording).
    for (d, (n, _, _)) in DIMS.iter().enumerate() {
        let w = W {
            dim: d as u32,
            dmask: 0xf,
            ..W::base(0)
        };
        let t = rec.text(TARGETS[2], &w.bytes()).unwrap_or("");
        let want = format!("dim:SQ_RSRC_IMG_{n}");
        assert!(t.split(' ').any(|tok| tok == want), "dim {d}: {t}");
    }
    let _ = writeln!(out, "/// MIMG opcodes by native 8-bit opcode number.");
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub(crate) static MIMG: [Option<MimgInfo>; 256] = [");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// The `dim` values: printed name, coordinates, gradients."
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub(crate) static DIMS: [MimgDim; 8] = [");
    for (n, c, g) in DIMS {
        let _ = writeln!(
            out,
            "    MimgDim {{ name: {}, coords: {c}, gradients: {g} }},",
            text.text(n)
        );
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// Mnemonic of an opcode index in this space.\npub fn name(index: u16) -> Option<&'static str> {{\n    MIMG.get(index as usize)?.as_ref().map(|i| i.name.as_str())\n}}\n"
    );
    text.emit(&mut out);
    emit_consts(&mut out, "Mimg", &consts);
    super::finish(out)
}
