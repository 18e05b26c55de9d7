//! SOP1, SOP2, SOPK, SOPC and SOPP.
//!
//! Probes: every opcode value with distinct register numbers in each
//! field (sdst = s10, ssrc0 = s20, ssrc1 = s30, simm16 = 0x1e14), so the
//! printed operands name the field they came from and their width; and the
//! same with both sources set to the inline constant 1/(2π) (code 248),
//! which prints as `0.15915494309189532` for 64-bit operands and with an
//! `/*Invalid immediate*/` note for register-only operands.
//!
//! Knowledge that is not in the printed text (which fields an instruction
//! reads although they print as a destination, and implicit SCC/EXEC/VCC/M0
//! accesses) comes from the rules at the bottom of this file, written from
//! the RDNA2 ISA documentation.

use super::{emit_consts, parse_sreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "sop",
        out_file: "sop.rs",
        probes,
        emit,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
}

impl Kind {
    fn count(self) -> u32 {
        match self {
            Kind::Sop2 => 128,
            Kind::Sopk => 32,
            Kind::Sop1 => 256,
            Kind::Sopc => 128,
            Kind::Sopp => 128,
        }
    }
    fn space(self) -> &'static str {
        match self {
            Kind::Sop2 => "Sop2",
            Kind::Sopk => "Sopk",
            Kind::Sop1 => "Sop1",
            Kind::Sopc => "Sopc",
            Kind::Sopp => "Sopp",
        }
    }
    fn table(self) -> &'static str {
        match self {
            Kind::Sop2 => "SOP2",
            Kind::Sopk => "SOPK",
            Kind::Sop1 => "SOP1",
            Kind::Sopc => "SOPC",
            Kind::Sopp => "SOPP",
        }
    }
    /// The first dword with opcode `op` and the given field values.
    fn word(self, op: u32, sdst: u32, s0: u32, s1: u32, imm: u32) -> u32 {
        match self {
            Kind::Sop2 => (0b10 << 30) | (op << 23) | (sdst << 16) | (s1 << 8) | s0,
            Kind::Sopk => (0b1011 << 28) | (op << 23) | (sdst << 16) | imm,
            Kind::Sop1 => (0x17d << 23) | (sdst << 16) | (op << 8) | s0,
            Kind::Sopc => (0x17e << 23) | (op << 16) | (s1 << 8) | s0,
            Kind::Sopp => (0x17f << 23) | (op << 16) | imm,
        }
    }
}

const KINDS: [Kind; 5] = [Kind::Sop2, Kind::Sopk, Kind::Sop1, Kind::Sopc, Kind::Sopp];
const LIT: u32 = 0x1234_5678;

fn probe_regs(k: Kind, op: u32) -> Vec<u8> {
    dwords(&[k.word(op, 10, 20, 30, 0x1e14), LIT])
}
fn probe_inline(k: Kind, op: u32) -> Vec<u8> {
    dwords(&[k.word(op, 10, 248, 248, 0xf8f8), LIT])
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for k in KINDS {
        for op in 0..k.count() {
            v.push(probe_regs(k, op));
            v.push(probe_inline(k, op));
        }
    }
    v
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    fld: &'static str,
    width: u32,
    imm_ok: bool,
    f64: bool,
    access: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    slots: Vec<Slot>,
    literal: bool,
}

fn analyse(k: Kind, op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    let text = rec.text(cpu, &probe_regs(k, op))?;
    let len = rec.len(cpu, &probe_regs(k, op))?;
    let (mn, ops) = split_operands(text);
    // Reject what decodes as another family (SOP2 opcodes >= 0x60 are SOPK etc.).
    let inline_text = rec.text(cpu, &probe_inline(k, op));
    let inline_ops = inline_text.map(|t| split_operands(t).1).unwrap_or_default();
    let mut slots = Vec::new();
    for (i, tok) in ops.iter().enumerate() {
        let itok = inline_ops.get(i).map(|s| s.as_str()).unwrap_or("");
        let slot = if let Some((first, count)) = parse_sreg(tok) {
            let fld = match first {
                10 | 11 => "Sdst",
                20 | 21 => "Ssrc0",
                30 | 31 => "Ssrc1",
                _ => panic!("{cpu} {mn}: unexpected register {tok}"),
            };
            Slot {
                fld,
                width: count,
                imm_ok: !itok.contains("Invalid immediate"),
                f64: itok.starts_with("0.15915494309189532"),
                access: if fld == "Sdst" { "W" } else { "R" },
            }
        } else {
            Slot {
                fld: "Simm16",
                width: 1,
                imm_ok: true,
                f64: false,
                access: "R",
            }
        };
        slots.push(slot);
    }
    Some(Info {
        name: mn.to_string(),
        slots,
        literal: len == 8 && k == Kind::Sopk,
    })
}

/// Fields that print like a destination but are read (or read and
/// written), and implicit register accesses, by mnemonic.
fn fix_access(name: &str, slots: &mut [Slot]) {
    for s in slots.iter_mut() {
        if s.fld != "Sdst" {
            continue;
        }
        if name.starts_with("s_cmpk_")
            || name == "s_setreg_b32"
            || name.starts_with("s_waitcnt_")
            || name == "s_subvector_loop_end"
        {
            s.access = "R";
        } else if name.starts_with("s_cmov")
            || name == "s_addk_i32"
            || name == "s_mulk_i32"
            || name.starts_with("s_bitset")
            || name == "s_subvector_loop_begin"
        {
            s.access = "RW";
        }
    }
}

/// Implicit accesses as flag names of `isa::Implicit`.
fn implicit(k: Kind, name: &str) -> Vec<&'static str> {
    let mut f = Vec::new();
    let writes_scc = match k {
        Kind::Sopc => true,
        Kind::Sop2 => {
            !(name.starts_with("s_cselect")
                || name.starts_with("s_bfm")
                || name == "s_mul_i32"
                || name.starts_with("s_mul_hi")
                || name.starts_with("s_pack"))
        }
        Kind::Sop1 => {
            name.starts_with("s_not")
                || name.starts_with("s_wqm")
                || name.starts_with("s_bcnt")
                || name.contains("saveexec")
                || name.contains("wrexec")
                || name.starts_with("s_quadmask")
                || name == "s_abs_i32"
        }
        Kind::Sopk => name.starts_with("s_cmpk_") || name == "s_addk_i32",
        Kind::Sopp => false,
    };
    if writes_scc {
        f.push("WRITE_SCC");
    }
    if name.starts_with("s_cselect")
        || name.starts_with("s_cmov")
        || name == "s_addc_u32"
        || name == "s_subb_u32"
        || name.starts_with("s_cbranch_scc")
    {
        f.push("READ_SCC");
    }
    if name.contains("saveexec") || name.contains("wrexec") {
        f.push("READ_EXEC");
        f.push("WRITE_EXEC");
    }
    if name.starts_with("s_cbranch_exec") {
        f.push("READ_EXEC");
    }
    if name.starts_with("s_cbranch_vcc") {
        f.push("READ_VCC");
    }
    if name.starts_with("s_movrel") || name.starts_with("s_sendmsg") {
        f.push("READ_M0");
    }
    if name == "s_endpgm" || name.starts_with("s_endpgm_") {
        f.push("END");
    }
    if name.starts_with("s_setpc")
        || name.starts_with("s_swappc")
        || name.starts_with("s_rfe")
        || name.starts_with("s_call")
        || name == "s_branch"
        || name.starts_with("s_cbranch")
        || name.starts_with("s_subvector_loop")
    {
        f.push("BRANCH");
    }
    f
}

fn emit(rec: &Recording) -> String {
    let mut out = header("sop");
    out.push_str("use crate::family::sop::{SopFld::*, SopInfo, SopSlot};\nuse crate::inst::{OpSpace, Opcode};\nuse crate::operand::{Access, Implicit as I};\n\n");
    const R: &str = "Access::READ";
    const W: &str = "Access::WRITE";
    const RW: &str = "Access::READ.union(Access::WRITE)";
    for k in KINDS {
        let mut consts = Vec::new();
        let mut rows = Vec::new();
        for op in 0..k.count() {
            let mut per: Vec<(usize, Info)> = Vec::new();
            for (ti, cpu) in TARGETS.iter().enumerate() {
                if let Some(mut info) = analyse(k, op, rec, cpu) {
                    // Keep only answers that belong to this family.
                    let d0 = k.word(op, 10, 20, 30, 0x1e14);
                    if !belongs(k, d0) {
                        continue;
                    }
                    fix_access(&info.name, &mut info.slots);
                    per.push((ti, info));
                }
            }
            if per.is_empty() {
                rows.push("None".to_string());
                continue;
            }
            let info = per[0].1.clone();
            for (ti, other) in &per {
                assert_eq!(
                    other.name, info.name,
                    "{:?} op {op}: name differs on {}",
                    k, TARGETS[*ti]
                );
            }
            let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
            let slots: Vec<String> = info
                .slots
                .iter()
                .map(|s| {
                    format!(
                        "SopSlot {{ fld: {}, width: {}, imm_ok: {}, f64: {}, access: {} }}",
                        s.fld,
                        s.width,
                        s.imm_ok,
                        s.f64,
                        match s.access {
                            "R" => R,
                            "W" => W,
                            _ => RW,
                        }
                    )
                })
                .collect();
            let imp = implicit(k, &info.name);
            let imp = if imp.is_empty() {
                "I::empty()".to_string()
            } else {
                imp.iter()
                    .map(|f| format!("I::{f}.bits()"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            let imp = if imp.starts_with("I::empty") {
                imp
            } else {
                format!("I::from_bits_retain({imp})")
            };
            rows.push(format!(
                "Some(SopInfo {{ name: \"{}\", targets: {mask:#b}, literal: {}, implicit: {imp}, slots: &[{}] }})",
                info.name,
                info.literal,
                slots.join(", ")
            ));
            consts.push((op as u16, info.name.clone()));
        }
        let _ = writeln!(out, "/// {} opcodes by native opcode number.", k.table());
        let _ = writeln!(
            out,
            "pub(crate) static {}: [Option<SopInfo>; {}] = [",
            k.table(),
            k.count()
        );
        for r in rows {
            let _ = writeln!(out, "    {r},");
        }
        let _ = writeln!(out, "];\n");
        emit_consts(&mut out, k.space(), &consts);
    }
    out
}

fn belongs(k: Kind, d0: u32) -> bool {
    let is_sopk_prefix = d0 >> 28 == 0b1011;
    match k {
        Kind::Sop2 => !is_sopk_prefix,
        Kind::Sopk => !matches!(d0 >> 23, 0x17d..=0x17f),
        Kind::Sop1 => d0 >> 23 == 0x17d,
        Kind::Sopc => d0 >> 23 == 0x17e,
        Kind::Sopp => d0 >> 23 == 0x17f,
    }
}
