//! DS (local and global data share).
//!
//! Encoding (64 bits): `offset0` 7:0, `offset1` 15:8, bit 16 unused, `gds`
//! 17, `op` 25:18, `0b110110` 31:26; then `addr` 39:32, `data0` 47:40,
//! `data1` 55:48, `vdst` 63:56.
//!
//! LLVM encodes a field an opcode does not use as zero and its decoder
//! rejects the word when such a field is not zero, so one probe with every
//! field set would decode almost nothing. Instead, per opcode and per value
//! of the `gds` bit there is one probe with every field zero (is the opcode
//! valid at all, with this `gds`?) and one probe per field with only that
//! field set to a distinct value: `addr` = v10, `data0` = v20, `data1` =
//! v30, `vdst` = v40, `offset0:offset1` = 1:2 (prints `offset:513`,
//! `offset0:1 offset1:2` or `offset:swizzle(...)`), and bit 16. A field
//! whose probe is rejected must be zero; a field whose probe decodes but
//! does not show up in the text is ignored (a don't-care field); otherwise
//! the printed register tells the operand's position and width.
//!
//! What the text does not say (which operands are written, partial writes,
//! implicit M0/LDS/GDS accesses, the offset unit of two-address opcodes)
//! comes from the rules at the bottom of this file, written from the RDNA2
//! ISA documentation and LLVM's instruction definitions.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "ds",
        out_file: "ds.rs",
        probes,
        emit,
    }
}

/// One field varied by a probe.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Probe {
    /// Every field zero.
    Base,
    Addr,
    Data0,
    Data1,
    Vdst,
    /// `offset0` = 1, `offset1` = 2.
    Offset,
    /// Bit 16 of the first dword.
    Bit16,
}

const PROBES: [Probe; 7] = [
    Probe::Base,
    Probe::Addr,
    Probe::Data0,
    Probe::Data1,
    Probe::Vdst,
    Probe::Offset,
    Probe::Bit16,
];

/// The register number a field probe puts in its field.
fn probe_reg(p: Probe) -> Option<u32> {
    match p {
        Probe::Addr => Some(10),
        Probe::Data0 => Some(20),
        Probe::Data1 => Some(30),
        Probe::Vdst => Some(40),
        _ => None,
    }
}

fn word(op: u32, gds: u32, p: Probe) -> Vec<u8> {
    let mut d0 = (0x36 << 26) | (op << 18) | (gds << 17);
    let mut d1 = 0u32;
    match p {
        Probe::Base => {}
        Probe::Addr => d1 |= 10,
        Probe::Data0 => d1 |= 20 << 8,
        Probe::Data1 => d1 |= 30 << 16,
        Probe::Vdst => d1 |= 40 << 24,
        Probe::Offset => d0 |= 0x0201,
        Probe::Bit16 => d0 |= 1 << 16,
    }
    dwords(&[d0, d1])
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for op in 0..256 {
        for gds in 0..2 {
            for p in PROBES {
                v.push(word(op, gds, p));
            }
        }
    }
    v
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    fld: &'static str,
    width: u32,
    pos: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    /// `Flag`, `Always`, `Never` or `Ignored`.
    gds: &'static str,
    /// `None`, `Single`, `Pair`, `Swizzle`.
    offset: &'static str,
    slots: Vec<Slot>,
    /// Don't-care bits of the two dwords.
    dont_care: [u32; 2],
}

/// The decoded text of a probe, or `None` when LLVM rejects it (or it is
/// not an 8-byte DS instruction).
fn text<'a>(rec: &'a Recording, cpu: &str, op: u32, gds: u32, p: Probe) -> Option<&'a str> {
    let w = word(op, gds, p);
    let t = rec.text(cpu, &w)?;
    (rec.len(cpu, &w)? == 8).then_some(t)
}

/// Operand tokens of a text: comma-separated, each cut at the first space
/// (the trailing modifiers follow the last operand after a space).
fn operand_tokens(text: &str) -> (String, Vec<String>) {
    let (mn, ops) = split_operands(text);
    let toks = ops
        .iter()
        .map(|o| o.split(' ').next().unwrap_or("").to_string())
        .filter(|t| t.starts_with('v'))
        .collect();
    (mn.to_string(), toks)
}

fn analyse(rec: &Recording, cpu: &str, op: u32) -> Option<Info> {
    let v0 = text(rec, cpu, op, 0, Probe::Base);
    let v1 = text(rec, cpu, op, 1, Probe::Base);
    let (g, gds) = match (v0, v1) {
        (None, None) => return None,
        (Some(_), Some(t1)) if t1.ends_with(" gds") => (0, "Flag"),
        (Some(_), Some(_)) => (0, "Ignored"),
        (None, Some(t1)) => {
            assert!(t1.ends_with(" gds"), "{cpu} op {op}: {t1}");
            (1, "Always")
        }
        (Some(_), None) => (0, "Never"),
    };
    let base = text(rec, cpu, op, g, Probe::Base)?;
    let (name, base_toks) = operand_tokens(base);
    let mut slots = Vec::new();
    let mut dont_care = [0u32, 0u32];
    if gds == "Ignored" {
        dont_care[0] |= 1 << 17;
    }
    for p in [Probe::Addr, Probe::Data0, Probe::Data1, Probe::Vdst] {
        let reg = probe_reg(p).unwrap_or(0);
        let shift = match p {
            Probe::Addr => 0,
            Probe::Data0 => 8,
            Probe::Data1 => 16,
            _ => 24,
        };
        let Some(t) = text(rec, cpu, op, g, p) else {
            continue; // must be zero
        };
        let (mn, toks) = operand_tokens(t);
        assert_eq!(mn, name, "{cpu} op {op}");
        match toks
            .iter()
            .enumerate()
            .find_map(|(i, tok)| parse_vreg(tok).filter(|r| r.0 == reg).map(|r| (i, r.1)))
        {
            Some((pos, width)) => slots.push(Slot {
                fld: match p {
                    Probe::Addr => "Addr",
                    Probe::Data0 => "Data0",
                    Probe::Data1 => "Data1",
                    _ => "Vdst",
                },
                width,
                pos,
            }),
            None => dont_care[1] |= 0xff << shift,
        }
    }
    slots.sort_by_key(|s| s.pos);
    assert_eq!(
        slots.len(),
        base_toks.len(),
        "{cpu} {name}: operand fields {slots:?} do not cover {base}"
    );
    let offset = match text(rec, cpu, op, g, Probe::Offset) {
        None => "None",
        Some(t) if t.contains(" offset:swizzle(") => "Swizzle",
        Some(t) if t.contains(" offset:513") => "Single",
        Some(t) if t.contains(" offset0:1 offset1:2") => "Pair",
        Some(t) => {
            assert_eq!(t, base, "{cpu} op {op}: unexpected offset text");
            dont_care[0] |= 0xffff;
            "None"
        }
    };
    if let Some(t) = text(rec, cpu, op, g, Probe::Bit16) {
        assert_eq!(t, base, "{cpu} op {op}: bit 16 changes the text");
        dont_care[0] |= 1 << 16;
    }
    Some(Info {
        name,
        gds,
        offset,
        slots,
        dont_care,
    })
}

// ---------------------------------------------------------------------------
// Rules: knowledge that is not in the printed text.
// ---------------------------------------------------------------------------

/// Access of an operand field. `vdst` is written; the `_d16` loads write
/// one 16-bit half of it and keep the other (`ds_read_u8_d16` writes bits
/// 15:0, `..._d16_hi` bits 31:16), so their write is partial. Every other
/// field is read.
fn access(name: &str, fld: &str) -> &'static str {
    match fld {
        "Vdst" if name.contains("_d16") => "Access::WRITE.union(Access::PARTIAL)",
        "Vdst" => "Access::WRITE",
        _ => "Access::READ",
    }
}

/// Value type of an operand field: `addr` is an LDS/GDS byte address except
/// for the GWS opcodes, which encode their data operand in the `addr` field.
fn val_type(name: &str, fld: &str) -> &'static str {
    match fld {
        "Addr" if name.starts_with("ds_gws_") => "ValType::Data",
        "Addr" => "ValType::Addr",
        _ => "ValType::Data",
    }
}

/// Implicit accesses as flag names of `isa::Implicit`, for the opcode with
/// `gds` clear. When an instruction has its `gds` bit set, `isa` replaces
/// `LDS` by `MEMORY` and adds `READ_M0` (M0 holds the GDS base and size).
///
/// - `ds_nop` does nothing.
/// - `ds_swizzle_b32`, `ds_permute_b32` and `ds_bpermute_b32` move data
///   between lanes through the LDS crossbar without touching LDS memory.
/// - The GWS opcodes and `ds_ordered_count` always use the global data
///   share / global wave sync hardware (outside LDS) and take their
///   resource base from M0.
/// - `ds_append`/`ds_consume` and the `_addtid` opcodes take their base
///   address from M0.
/// - Every other opcode reads and/or writes LDS.
fn implicit(name: &str) -> Vec<&'static str> {
    match name {
        "ds_nop" => vec![],
        "ds_swizzle_b32" | "ds_permute_b32" | "ds_bpermute_b32" => vec!["CROSS_LANE"],
        "ds_ordered_count" => vec!["MEMORY", "READ_M0"],
        "ds_append" | "ds_consume" | "ds_read_addtid_b32" | "ds_write_addtid_b32" => {
            vec!["LDS", "READ_M0"]
        }
        _ if name.starts_with("ds_gws_") => vec!["MEMORY", "READ_M0"],
        _ => vec!["LDS"],
    }
}

/// Bytes per unit of `offset0`/`offset1` for the two-address opcodes
/// (`read2`, `write2`, `wrxchg2` and their `st64` forms): the element size,
/// times 64 for `st64`. 1 for every other opcode.
fn stride(name: &str) -> u32 {
    let two = name.starts_with("ds_read2")
        || name.starts_with("ds_write2")
        || name.starts_with("ds_wrxchg2");
    if !two {
        return 1;
    }
    let elem = if name.ends_with("_b64") { 8 } else { 4 };
    if name.contains("st64") {
        elem * 64
    } else {
        elem
    }
}

fn emit(rec: &Recording) -> String {
    let mut out = header("ds");
    let mut text = super::TextBlock::new("DS");
    let mut pool = super::FlatPool::default();
    out.push_str(
        "use crate::family::ds::{DsFld::*, DsGds, DsInfo, DsOffset, DsSlot};\n\
         use crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\
         use crate::operand::{Access, Implicit as I, ValType};\n\n",
    );
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..256u32 {
        let mut per: Vec<(usize, Info)> = Vec::new();
        for (ti, cpu) in TARGETS.iter().enumerate() {
            if let Some(info) = analyse(rec, cpu, op) {
                per.push((ti, info));
            }
        }
        let Some((_, info)) = per.first().cloned() else {
            rows.push("None".to_string());
            continue;
        };
        for (ti, other) in &per {
            assert_eq!(other, &info, "DS op {op}: differs on {}", TARGETS[*ti]);
        }
        let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        let slots: Vec<String> = info
            .slots
            .iter()
            .map(|s| {
                format!(
                    "DsSlot {{ fld: {}, width: {}, access: {}, ty: {} }}",
                    s.fld,
                    s.width,
                    access(&info.name, s.fld),
                    val_type(&info.name, s.fld)
                )
            })
            .collect();
        let imp = implicit(&info.name);
        let imp = if imp.is_empty() {
            "I::empty()".to_string()
        } else {
            format!(
                "I::from_bits_retain({})",
                imp.iter()
                    .map(|f| format!("I::{f}.bits()"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        };
        let (slot_at, slot_n) = pool.get(&slots);
        rows.push(format!(
            "Some(DsInfo {{ name: {}, targets: {mask:#05b}, gds: DsGds::{}, offset: DsOffset::{}, \
             stride: {}, dont_care: [{:#010x}, {:#010x}], implicit: {imp}, slot_at: {slot_at}, slot_n: {slot_n} }})",
            text.text(&info.name),
            info.gds,
            info.offset,
            stride(&info.name),
            info.dont_care[0],
            info.dont_care[1],
        ));
        consts.push((op as u16, info.name.clone()));
    }
    let _ = writeln!(out, "/// DS opcodes by native opcode number.");
    let _ = writeln!(out, "pub(crate) static DS: [Option<DsInfo>; 256] = [");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    let _ = writeln!(out, "];\n");
    out.push_str(
        "/// Mnemonic of an opcode index in this space.\n\
         pub fn name(index: u16) -> Option<&'static str> {\n    \
         DS.get(index as usize).and_then(|r| r.as_ref()).map(|r| r.name.as_str())\n}\n\n",
    );
    pool.emit(
        &mut out,
        "Every opcode's operand slots (`DsInfo::slots`).",
        "SLOTS",
        "DsSlot",
    );
    text.emit(&mut out);
    emit_consts(&mut out, "Ds", &consts);
    out
}
