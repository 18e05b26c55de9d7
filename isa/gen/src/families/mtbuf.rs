//! MTBUF (typed buffer memory) and the gfx10 unified buffer formats.
//!
//! Probes: every 4-bit opcode value (bits 18:16 of the first dword, bit 21
//! of the second as opcode bit 3) with vaddr = v5, vdata = v1,
//! srsrc = `s[8:11]`, soffset = s3 and format 1, once plain and once with
//! each of `tfe`, `glc`, `dlc`, `slc`, `idxen`, `offen` and `idxen offen`;
//! and `tbuffer_load_format_x` with each of the 128 format values, whose
//! printed `format:` operand names the format (or is a bare number, or is
//! absent for the default format 1).
//!
//! Rules not in the text (from the RDNA2 ISA documentation) are at the
//! bottom: the access kind and the 16-bit layout from the mnemonic, and the
//! bytes of one element of each format from the channel widths in its name.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "mtbuf",
        out_file: "mtbuf.rs",
        probes,
        emit,
    }
}

/// Probe variants: (name, dword-0 bits, dword-1 bits).
const VARIANTS: [(&str, u32, u32); 8] = [
    ("base", 0, 0),
    ("tfe", 0, 1 << 23),
    ("glc", 1 << 14, 0),
    ("dlc", 1 << 15, 0),
    ("slc", 0, 1 << 22),
    ("idxen", 1 << 13, 0),
    ("offen", 1 << 12, 0),
    ("both", 3 << 12, 0),
];

fn word(op: u32, format: u32, a: u32, b: u32) -> Vec<u8> {
    let d0 = (0x3a << 26) | (format << 19) | ((op & 7) << 16) | a;
    let d1 = 0x0302_0105 | ((op >> 3) << 21) | b;
    dwords(&[d0, d1])
}

fn probe(op: u32, v: usize) -> Vec<u8> {
    let (_, a, b) = VARIANTS[v];
    word(op, 1, a, b)
}

fn probe_format(f: u32) -> Vec<u8> {
    word(0, f, 0, 0)
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..16 {
        for k in 0..VARIANTS.len() {
            v.push(probe(op, k));
        }
    }
    for f in 0..128 {
        v.push(probe_format(f));
    }
    v
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    kind: &'static str,
    vdata: u32,
    components: u32,
    d16: &'static str,
}

fn analyse(op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    let text = rec.text(cpu, &probe(op, 0))?;
    let (mn, ops) = split_operands(text);
    assert_eq!(ops.len(), 4, "{cpu} {text}");
    assert_eq!(
        (ops[1].as_str(), ops[2].as_str(), ops[3].as_str()),
        ("off", "s[8:11]", "s3"),
        "{cpu} {text}"
    );
    let (first, vdata) = parse_vreg(&ops[0]).unwrap_or_else(|| panic!("{cpu} {text}"));
    assert_eq!(first, 1, "{cpu} {text}");
    let name = mn.to_string();
    let kind = if name.starts_with("tbuffer_load_") {
        "Load"
    } else if name.starts_with("tbuffer_store_") {
        "Store"
    } else {
        panic!("unknown MTBUF mnemonic {name}")
    };
    let suffix = name.rsplit('_').next().unwrap_or("");
    assert!(matches!(suffix, "x" | "xy" | "xyz" | "xyzw"), "{name}");
    let components = suffix.len() as u32;
    let d16 = if name.contains("_d16") {
        "Packed"
    } else {
        "No"
    };
    let want = if d16 == "Packed" {
        components.div_ceil(2)
    } else {
        components
    };
    assert_eq!(vdata, want, "{cpu} {name}: vdata width rule");
    // LLVM 19 rejects every MTBUF encoding with tfe; all other bits are
    // accepted by every opcode.
    for (v, (flag, _, _)) in VARIANTS.iter().enumerate().skip(1) {
        let ok = rec.text(cpu, &probe(op, v)).is_some();
        assert_eq!(ok, *flag != "tfe", "{cpu} {name}: {flag}");
    }
    Some(Info {
        name,
        kind,
        vdata,
        components,
        d16,
    })
}

/// The name in the printed `format:[NAME]` operand of a format probe;
/// `None` for a bare number or no operand.
fn format_name(rec: &Recording, f: u32) -> Option<String> {
    let text = rec.text(TARGETS[2], &probe_format(f))?;
    let tail = text.split(" format:").nth(1)?;
    let tok = tail.split(' ').next()?;
    let name = tok.strip_prefix('[')?.strip_suffix(']')?;
    Some(name.to_string())
}

/// Bytes of one element: the sum of the channel widths at the start of
/// the name (`BUF_FMT_10_11_11_FLOAT` = 32 bits), none for
/// `BUF_FMT_INVALID`.
fn format_bytes(name: &str) -> u32 {
    let body = name.strip_prefix("BUF_FMT_").unwrap_or("");
    let bits: u32 = body.split('_').map_while(|p| p.parse::<u32>().ok()).sum();
    assert!(bits.is_multiple_of(8), "{name}");
    bits / 8
}

fn emit(rec: &Recording) -> String {
    let mut out = header("mtbuf");
    let mut text = super::TextBlock::new("MTBUF");
    out.push_str(
        "use crate::family::buf::{BufKind, MtbufInfo, D16};\nuse crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\n",
    );
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..16u32 {
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
            assert_eq!(other, info, "MTBUF op {op}: differs on {}", TARGETS[*ti]);
        }
        let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        rows.push(format!(
            "Some(MtbufInfo {{ name: {}, targets: {mask:#05b}, kind: BufKind::{}, vdata: {}, components: {}, d16: D16::{} }})",
            text.text(&info.name), info.kind, info.vdata, info.components, info.d16
        ));
        consts.push((op as u16, info.name.clone()));
    }
    let _ = writeln!(out, "/// MTBUF opcodes by native 4-bit opcode number.");
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub(crate) static MTBUF: [Option<MtbufInfo>; 16] = [");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    let _ = writeln!(out, "];\n");

    // Formats: the same names on every target (checked).
    let mut names = Vec::new();
    let mut bytes = Vec::new();
    for f in 0..128u32 {
        for cpu in TARGETS {
            let a = rec.text(cpu, &probe_format(f)).map(|t| t.to_string());
            let b = rec
                .text(TARGETS[2], &probe_format(f))
                .map(|t| t.to_string());
            assert_eq!(a, b, "format {f} differs on {cpu}");
        }
        let n = format_name(rec, f);
        if f == 1 {
            // The default format is not printed; its name is known.
            assert!(n.is_none(), "format 1 printed");
            names.push("Some(\"BUF_FMT_8_UNORM\")".to_string());
            bytes.push(1);
            continue;
        }
        bytes.push(n.as_deref().map(format_bytes).unwrap_or(0));
        names.push(match n {
            Some(n) => format!("Some(\"{n}\")"),
            None => "None".to_string(),
        });
    }
    let _ = writeln!(
        out,
        "/// Names of the unified buffer formats as LLVM prints them; `None` for\n/// values printed as a number."
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(
        out,
        "pub(crate) static FORMAT_NAMES: [Option<&str>; 128] = ["
    );
    for n in names {
        let _ = writeln!(out, "    {n},");
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// Bytes of one element of each unified buffer format; 0 for invalid\n/// and reserved values."
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub(crate) static FORMAT_BYTES: [u8; 128] = [");
    for chunk in bytes.chunks(16) {
        let s: Vec<String> = chunk.iter().map(|b| b.to_string()).collect();
        let _ = writeln!(out, "    {},", s.join(", "));
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(
        out,
        "/// Mnemonic of an opcode index in this space.\npub fn name(index: u16) -> Option<&'static str> {{\n    MTBUF.get(index as usize)?.as_ref().map(|i| i.name.as_str())\n}}\n"
    );
    text.emit(&mut out);
    emit_consts(&mut out, "Mtbuf", &consts);
    super::finish(out)
}
