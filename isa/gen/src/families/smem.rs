//! SMEM (scalar memory).
//!
//! The gfx10 SMEM encoding is two dwords:
//!
//! | bits | field |
//! |---|---|
//! | 5:0 | `sbase` (SGPR pair number: register code / 2) |
//! | 12:6 | `sdata` |
//! | 14 | `dlc` |
//! | 16 | `glc` |
//! | 25:18 | opcode |
//! | 31:26 | `0b111101` |
//! | 52:32 | `offset`, signed 21-bit byte offset |
//! | 63:57 | `soffset` (an SGPR code; `null` = none) |
//!
//! Probes, for every opcode value: distinct registers in each field (sdata =
//! s10, sbase = `s[20:21]`, soffset = s30, offset 0x1234), once without and
//! once with glc and dlc set, so the printed text names each operand, its
//! width, and the cache bits the instruction takes; and exec in the sdata
//! and sbase fields, whose `/*Invalid register, operand has 'X' register
//! class*/` notes name each operand's register class.
//!
//! Extra probes sweep the register fields of a few opcodes (every sdata
//! code for each data width, every sbase code for 64- and 128-bit bases,
//! every soffset code) and the offset forms; they are not used for the
//! table but `isa/tests/scalar.rs` checks that every recorded answer prints
//! identically.
//!
//! What each operand does (loads write sdata, stores read it, atomics
//! return into it only with glc) and the memory flag come from the rules at
//! the bottom of this file.

use super::{emit_consts, parse_sreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "smem",
        out_file: "smem.rs",
        probes,
        emit,
    }
}

/// Field values of one probe.
#[derive(Clone, Copy)]
struct Fields {
    sdata: u32,
    sbase: u32,
    soffset: u32,
    offset: u32,
    glc: bool,
    dlc: bool,
}

const BASE: Fields = Fields {
    sdata: 10,
    sbase: 10,
    soffset: 30,
    offset: 0x1234,
    glc: false,
    dlc: false,
};

fn word(op: u32, f: Fields) -> Vec<u8> {
    let d0 = (0x3d << 26)
        | (op << 18)
        | ((f.glc as u32) << 16)
        | ((f.dlc as u32) << 14)
        | (f.sdata << 6)
        | f.sbase;
    let d1 = (f.soffset << 25) | (f.offset & 0x1f_ffff);
    dwords(&[d0, d1])
}

fn probe_plain(op: u32) -> Vec<u8> {
    word(op, BASE)
}
fn probe_cache(op: u32) -> Vec<u8> {
    word(
        op,
        Fields {
            glc: true,
            dlc: true,
            ..BASE
        },
    )
}
fn probe_class(op: u32) -> Vec<u8> {
    word(
        op,
        Fields {
            sdata: 126,
            sbase: 63,
            ..BASE
        },
    )
}

/// Register and offset sweeps, for the printing test only.
fn sweep_probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    // s_load_dword .. s_load_dwordx16, s_store_dwordx2, s_atomic_cmpswap(_x2),
    // s_memtime: every sdata code.
    for op in [0u32, 1, 2, 3, 4, 0x11, 0x81, 0xa1, 0x24, 0x2a] {
        for sdata in 0..128 {
            v.push(word(op, Fields { sdata, ..BASE }));
        }
    }
    // s_load_dword and s_buffer_load_dword: every sbase field value.
    for op in [0u32, 8] {
        for sbase in 0..64 {
            v.push(word(op, Fields { sbase, ..BASE }));
        }
    }
    // Every soffset code, with and without an immediate offset.
    for soffset in 0..128 {
        v.push(word(0, Fields { soffset, ..BASE }));
        v.push(word(
            8,
            Fields {
                soffset,
                offset: 0,
                ..BASE
            },
        ));
    }
    // Offset forms.
    for offset in [0u32, 1, 0x30, 0xf_ffff, 0x10_0000, 0x1f_ffff, 0x1f_fff0] {
        for soffset in [30u32, 125] {
            v.push(word(
                2,
                Fields {
                    offset,
                    soffset,
                    ..BASE
                },
            ));
        }
    }
    v
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..256 {
        v.push(probe_plain(op));
        v.push(probe_cache(op));
        v.push(probe_class(op));
    }
    v.extend(sweep_probes());
    v
}

/// Register classes LLVM names in invalid-register notes (mirrors
/// `isa::family::smem::SregClass`).
fn class_variant(note: Option<&str>, width: u32, is_base: bool) -> &'static str {
    match note {
        Some("SReg_32_XM0_XEXEC") => "Sreg32XM0XExec",
        Some("SReg_64_XEXEC") => "Sreg64XExec",
        Some("SReg_128") | Some("SReg_256") | Some("SReg_512") => "SregTuple",
        None if width == 2 && is_base => "Sreg64",
        Some(n) => panic!("unknown register class {n}"),
        None => panic!("no invalid-register note for a {width}-dword operand"),
    }
}

/// The note of a probe-C operand token.
fn note(tok: &str) -> Option<&str> {
    let i = tok.find("operand has '")? + "operand has '".len();
    let rest = &tok[i..];
    Some(&rest[..rest.find('\'')?])
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    /// sdata: `None`, `Some((width, class))`; the probe's immediate sdata is
    /// `imm_data`.
    data: Option<(u32, &'static str)>,
    imm_data: bool,
    /// sbase width (2 or 4), `None` when absent.
    base: Option<(u32, &'static str)>,
    offset: bool,
    glc: bool,
    dlc: bool,
}

fn analyse(op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    let text = rec.text(cpu, &probe_plain(op))?;
    assert_eq!(rec.len(cpu, &probe_plain(op)), Some(8), "{cpu} op {op}");
    let (mn, ops) = split_operands(text);
    let cache = rec.text(cpu, &probe_cache(op)).unwrap_or("");
    // The notes contain a comma; keep each with its operand.
    let class_text = rec
        .text(cpu, &probe_class(op))
        .unwrap_or("")
        .replace("register, operand has", "register; operand has");
    let (_, class_ops) = split_operands(&class_text);
    let mut info = Info {
        name: mn.to_string(),
        data: None,
        imm_data: false,
        base: None,
        offset: false,
        glc: cache.contains(" glc"),
        dlc: cache.contains(" dlc"),
    };
    for (i, tok) in ops.iter().enumerate() {
        let ctok = class_ops.get(i).map(|s| s.as_str()).unwrap_or("");
        if tok == "10" {
            info.imm_data = true;
        } else if tok.starts_with("s30 offset:0x1234") {
            info.offset = true;
        } else if let Some((first, count)) = parse_sreg(tok) {
            match first {
                8..=11 => info.data = Some((count, class_variant(note(ctok), count, false))),
                20 => info.base = Some((count, class_variant(note(ctok), count, true))),
                _ => panic!("{cpu} {mn}: unexpected register {tok}"),
            }
        } else {
            panic!("{cpu} {mn}: unexpected operand {tok}");
        }
    }
    Some(info)
}

/// What the instruction does with its data operand, by mnemonic (RDNA ISA:
/// loads write sdata; stores read it; atomics read it and, with glc, return
/// the old memory value into it: the whole register for most, the low half
/// for cmpswap, whose high half is the compare value).
fn data_role(name: &str) -> &'static str {
    if name.starts_with("s_atomic_") || name.starts_with("s_buffer_atomic_") {
        if name.contains("cmpswap") {
            "AtomicCmpswap"
        } else {
            "Atomic"
        }
    } else if name.contains("_store_") {
        "Store"
    } else if name.contains("_load_")
        || name == "s_memtime"
        || name == "s_memrealtime"
        || name == "s_get_waveid_in_workgroup"
    {
        "Load"
    } else if name.starts_with("s_atc_probe") {
        "Imm"
    } else {
        "None"
    }
}

/// Implicit accesses: everything that reads, writes, probes or maintains
/// memory or its caches is MEMORY; the counters and the wave id are not.
fn implicit(name: &str) -> Vec<&'static str> {
    if name == "s_memtime" || name == "s_memrealtime" || name == "s_get_waveid_in_workgroup" {
        Vec::new()
    } else {
        vec!["MEMORY"]
    }
}

fn emit(rec: &Recording) -> String {
    let mut out = header("smem");
    let mut text = super::TextBlock::new("SMEM");
    out.push_str(
        "use crate::family::smem::{DataRole as D, SmemInfo, SregClass as C};\n\
         use crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\
         use crate::operand::Implicit as I;\n\n",
    );
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..256u32 {
        let per: Vec<(usize, Info)> = TARGETS
            .iter()
            .enumerate()
            .filter_map(|(ti, cpu)| analyse(op, rec, cpu).map(|i| (ti, i)))
            .collect();
        let Some((_, info)) = per.first().cloned() else {
            rows.push("None".to_string());
            continue;
        };
        for (ti, other) in &per {
            assert_eq!(other, &info, "op {op}: row differs on {}", TARGETS[*ti]);
        }
        let role = data_role(&info.name);
        assert_eq!(
            role == "Imm",
            info.imm_data,
            "{}: immediate data operand",
            info.name
        );
        assert_eq!(
            role == "None",
            info.data.is_none() && !info.imm_data,
            "{}: data operand",
            info.name
        );
        let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        let (data_width, data_class) = info.data.unwrap_or((0, "Sreg32XM0XExec"));
        let (base_width, base_class) = info.base.unwrap_or((0, "Sreg64"));
        let imp = implicit(&info.name);
        let imp = if imp.is_empty() {
            "I::empty()".to_string()
        } else {
            let bits = imp
                .iter()
                .map(|f| format!("I::{f}.bits()"))
                .collect::<Vec<_>>()
                .join(" | ");
            format!("I::from_bits_retain({bits})")
        };
        rows.push(format!(
            "Some(SmemInfo {{ name: {}, targets: {mask:#b}, data: D::{role}, data_width: {data_width}, data_class: C::{data_class}, base_width: {base_width}, base_class: C::{base_class}, offset: {}, glc: {}, dlc: {}, implicit: {imp} }})",
            text.text(&info.name), info.offset, info.glc, info.dlc
        ));
        consts.push((op as u16, info.name.clone()));
    }
    out.push_str("/// SMEM opcodes by native opcode number.\npub(crate) static SMEM: [Option<SmemInfo>; 256] = [\n");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    out.push_str("];\n\n");
    text.emit(&mut out);
    emit_consts(&mut out, "Smem", &consts);
    out.push_str(
        "/// Mnemonic of an opcode index in this space.\npub fn name(index: u16) -> Option<&'static str> {\n    SMEM.get(index as usize)?.as_ref().map(|r| r.name.as_str())\n}\n",
    );
    out
}
