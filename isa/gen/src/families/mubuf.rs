//! MUBUF (untyped buffer memory).
//!
//! Probes: every 8-bit opcode value (bits 24:18 of the first dword plus bit
//! 25 as opcode bit 7) with vaddr = v5, vdata = v1, srsrc = `s[8:11]` and
//! soffset = s3, once plain and once with each of `tfe`, `lds`, `glc`,
//! `dlc`, `slc`, `idxen`, `offen` and `idxen offen` set. The printed text
//! gives the mnemonic, the vdata width and which bits an opcode accepts.
//!
//! Knowledge that is not in the printed text comes from the rules at the
//! bottom of this file (from the RDNA2 ISA documentation): what kind of
//! access an opcode makes, how many bytes per lane it moves, and how 16-bit
//! data lands in the VGPRs. The generator checks the rules against the
//! recorded vdata widths and panics when they disagree.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "mubuf",
        out_file: "mubuf.rs",
        probes,
        emit,
    }
}

/// Probe variants: (name, dword-0 bits, dword-1 bits).
const VARIANTS: [(&str, u32, u32); 9] = [
    ("base", 0, 0),
    ("tfe", 0, 1 << 23),
    ("lds", 1 << 16, 0),
    ("glc", 1 << 14, 0),
    ("dlc", 1 << 15, 0),
    ("slc", 0, 1 << 22),
    ("idxen", 1 << 13, 0),
    ("offen", 1 << 12, 0),
    ("both", 3 << 12, 0),
];

fn probe(op: u32, v: usize) -> Vec<u8> {
    let (_, a, b) = VARIANTS[v];
    let d0 = (0x38 << 26) | ((op & 0x7f) << 18) | ((op >> 7) << 25) | a;
    // soffset s3, srsrc s[8:11], vdata v1, vaddr v5
    let d1 = 0x0302_0105 | b;
    dwords(&[d0, d1])
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..256 {
        for k in 0..VARIANTS.len() {
            v.push(probe(op, k));
        }
    }
    v
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    kind: &'static str,
    vdata: u32,
    lds_ok: bool,
    tfe_ok: bool,
    dlc_ok: bool,
    mem_bytes: u32,
    components: u32,
    d16: &'static str,
}

fn analyse(op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    let text = rec.text(cpu, &probe(op, 0))?;
    let ok = |v: usize| rec.text(cpu, &probe(op, v)).is_some();
    let (mn, ops) = split_operands(text);
    let name = mn.to_string();
    let kind = kind(&name);
    let vdata = if kind == "Invalidate" {
        assert!(ops.is_empty(), "{cpu} {name}: operands on an invalidate");
        0
    } else {
        assert_eq!(ops.len(), 4, "{cpu} {text}");
        assert_eq!(ops[1], "off", "{cpu} {text}: vaddr");
        assert_eq!(ops[2], "s[8:11]", "{cpu} {text}: srsrc");
        assert_eq!(ops[3], "s3", "{cpu} {text}: soffset");
        let (first, n) = parse_vreg(&ops[0]).unwrap_or_else(|| panic!("{cpu} {text}: vdata"));
        assert_eq!(first, 1, "{cpu} {text}: vdata");
        n
    };
    let tfe_ok = ok(1);
    if tfe_ok {
        let t = rec.text(cpu, &probe(op, 1)).unwrap_or("");
        let (_, tops) = split_operands(t);
        assert_eq!(
            tops.first().and_then(|o| parse_vreg(o)).map(|r| r.1),
            Some(vdata + 1),
            "{cpu} {t}: tfe adds one VGPR"
        );
    }
    let (mem_bytes, components, d16) = memory(&name);
    let info = Info {
        kind,
        vdata,
        lds_ok: ok(2),
        tfe_ok,
        dlc_ok: ok(4),
        mem_bytes,
        components,
        d16,
        name,
    };
    check(&info, cpu, ok);
    Some(info)
}

/// Cross-check the rules below with what LLVM accepted.
fn check(i: &Info, cpu: &str, ok: impl Fn(usize) -> bool) {
    let want = match (i.kind, i.d16) {
        ("Invalidate", _) => 0,
        ("Atomic", _) => {
            let x2 = if i.name.ends_with("_x2") { 2 } else { 1 };
            let cmp = if i.name.contains("cmpswap") { 2 } else { 1 };
            x2 * cmp
        }
        (_, "Packed") => i.components.div_ceil(2),
        (_, "Lo") | (_, "Hi") => 1,
        _ if i.components > 0 => i.components,
        _ => i.mem_bytes.div_ceil(4),
    };
    assert_eq!(i.vdata, want, "{cpu} {}: vdata width rule", i.name);
    // Every non-invalidate accepts glc, slc and the three addressing modes;
    // an invalidate accepts none of the flag bits except slc.
    for v in [3, 5, 6, 7, 8] {
        let accepted = ok(v);
        let want = i.kind != "Invalidate" || v == 5;
        assert_eq!(accepted, want, "{cpu} {}: {}", i.name, VARIANTS[v].0);
    }
    if i.kind == "Atomic" || i.kind == "Invalidate" {
        assert!(!i.tfe_ok && !i.lds_ok && !i.dlc_ok, "{cpu} {}", i.name);
    }
}

/// The access kind, from the mnemonic.
fn kind(name: &str) -> &'static str {
    if name.starts_with("buffer_load_") {
        "Load"
    } else if name.starts_with("buffer_store_") {
        "Store"
    } else if name.starts_with("buffer_atomic_") {
        "Atomic"
    } else if name.starts_with("buffer_gl") && name.ends_with("_inv") {
        "Invalidate"
    } else {
        panic!("unknown MUBUF mnemonic {name}")
    }
}

/// (bytes per lane in memory, format components, 16-bit layout), from the
/// mnemonic (RDNA2 ISA, "MUBUF instructions"):
/// - `*_format_{x,xy,xyz,xyzw}`: the resource's format decides the bytes
///   (0 here); the suffix is the component count. `_format_d16_*` packs two
///   16-bit components per VGPR; `_format_d16_hi_x` writes/reads the high
///   half of one VGPR.
/// - byte (`ubyte`, `sbyte`, `byte`): 1; short (`ushort`, `sshort`,
///   `short`): 2; `dword`: 4, `dwordx2`: 8, `dwordx3`: 12, `dwordx4`: 16.
///   The `_d16` loads fill the low half of the VGPR and keep the high half;
///   `_d16_hi` loads and stores use the high half.
/// - atomics: one dword, two for `_x2` (`cmpswap` moves one dword in memory
///   although its vdata holds data and compare value).
/// - invalidates: no memory data.
fn memory(name: &str) -> (u32, u32, &'static str) {
    let d16 = if name.contains("_d16_hi") {
        "Hi"
    } else if name.contains("format_d16") {
        "Packed"
    } else if name.contains("_d16") {
        "Lo"
    } else {
        "No"
    };
    if name.contains("_format_") {
        let suffix = name.rsplit('_').next().unwrap_or("");
        assert!(
            matches!(suffix, "x" | "xy" | "xyz" | "xyzw"),
            "format suffix of {name}"
        );
        return (0, suffix.len() as u32, d16);
    }
    if name.starts_with("buffer_atomic_") {
        return (if name.ends_with("_x2") { 8 } else { 4 }, 0, "No");
    }
    if name.starts_with("buffer_gl") {
        return (0, 0, "No");
    }
    let bytes = if name.contains("byte") {
        1
    } else if name.contains("short") {
        2
    } else if name.ends_with("dwordx2") {
        8
    } else if name.ends_with("dwordx3") {
        12
    } else if name.ends_with("dwordx4") {
        16
    } else if name.ends_with("dword") {
        4
    } else {
        panic!("memory size of {name}")
    };
    (bytes, 0, d16)
}

fn emit(rec: &Recording) -> String {
    let mut out = header("mubuf");
    let mut text = super::TextBlock::new("MUBUF");
    out.push_str(
        "use crate::family::buf::{BufKind, MubufInfo, D16};\nuse crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\n",
    );
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..256u32 {
        let mut per: Vec<(usize, Info)> = Vec::new();
        for (ti, cpu) in TARGETS.iter().enumerate() {
            if let Some(info) = analyse(op, rec, cpu) {
                per.push((ti, info));
            }
        }
        let Some((_, info)) = per.first() else {
            rows.push("None".to_string());
            continue;
        };
        for (ti, other) in &per {
            assert_eq!(other, info, "MUBUF op {op:#x}: differs on {}", TARGETS[*ti]);
        }
        let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        rows.push(format!(
            "Some(MubufInfo {{ name: {}, targets: {mask:#05b}, kind: BufKind::{}, vdata: {}, lds_ok: {}, tfe_ok: {}, dlc_ok: {}, mem_bytes: {}, components: {}, d16: D16::{} }})",
            text.text(&info.name), info.kind, info.vdata, info.lds_ok, info.tfe_ok, info.dlc_ok, info.mem_bytes, info.components, info.d16
        ));
        consts.push((op as u16, info.name.clone()));
    }
    let _ = writeln!(out, "/// MUBUF opcodes by native 8-bit opcode number.");
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub(crate) static MUBUF: [Option<MubufInfo>; 256] = [");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// Mnemonic of an opcode index in this space.\npub fn name(index: u16) -> Option<&'static str> {{\n    MUBUF.get(index as usize)?.as_ref().map(|i| i.name.as_str())\n}}\n"
    );
    text.emit(&mut out);
    emit_consts(&mut out, "Mubuf", &consts);
    super::finish(out)
}
