//! FLAT, GLOBAL and SCRATCH (one encoding, three segments).
//!
//! Encoding (64 bits): `offset` 11:0, `dlc` 12, `lds` 13, `seg` 15:14
//! (0 flat, 1 scratch, 2 global), `glc` 16, `slc` 17, `op` 24:18,
//! `0b110111` 31:26; then `vaddr` 39:32, `data` 47:40, `saddr` 54:48, bit
//! 55 (must be zero on gfx10), `vdst` 63:56.
//!
//! The `saddr` field selects the addressing mode: `0x7d` (`null`) means no
//! scalar address ("off"; a 64-bit `vaddr` for flat and global, a 32-bit
//! one for scratch), a register means a scalar base plus a 32-bit `vaddr`
//! offset (global) or the scalar address alone (scratch), and on gfx10.3
//! `0x7f` selects scratch's "ST" mode (no address register at all).
//!
//! Probes, per segment and opcode, with `vaddr` = v10, `data` = v20, `vdst`
//! = v40 and `offset` = 0xfff (prints 4095 unsigned, -1 signed): the three
//! `saddr` modes (0x7d, s20, 0x7f) each plain, with `glc` (atomics return
//! the old value) and with `lds` (the load goes to LDS); plus one probe with
//! every register field zero, which catches fields LLVM wants zero. And per
//! segment, `load_dword` with each of the 128 `saddr` codes, which gives the
//! register class of `saddr` on each target.
//!
//! Access rules, implicit accesses and the partial writes of the `_d16`
//! loads come from the rules at the bottom of this file.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "flat",
        out_file: "flat.rs",
        probes,
        emit,
    }
}

const SEGS: [(u32, &str, &str); 3] = [
    (0, "Flat", "FLAT"),
    (1, "Scratch", "SCRATCH"),
    (2, "Global", "GLOBAL"),
];
/// `saddr` codes of the three addressing modes.
const MODES: [u32; 3] = [0x7d, 20, 0x7f];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Var {
    Plain,
    Glc,
    Lds,
}
const VARS: [Var; 3] = [Var::Plain, Var::Glc, Var::Lds];

fn word(seg: u32, op: u32, saddr: u32, var: Var, regs: bool) -> Vec<u8> {
    let (glc, lds) = match var {
        Var::Plain => (0, 0),
        Var::Glc => (1, 0),
        Var::Lds => (0, 1),
    };
    let d0 = (0x37 << 26) | (op << 18) | (glc << 16) | (seg << 14) | (lds << 13) | 0xfff;
    let d1 = if regs {
        (40 << 24) | (saddr << 16) | (20 << 8) | 10
    } else {
        saddr << 16
    };
    dwords(&[d0, d1])
}

/// `load_dword` (opcode 12) in segment `seg` with `saddr` = `code`, a
/// load to LDS when `lds`.
fn saddr_word(seg: u32, code: u32, lds: bool) -> Vec<u8> {
    let d0 = (0x37 << 26) | (12 << 18) | (seg << 14) | ((lds as u32) << 13);
    let d1 = (40 << 24) | (code << 16) | 10;
    dwords(&[d0, d1])
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for seg in 0..3 {
        for op in 0..128 {
            for m in MODES {
                for var in VARS {
                    v.push(word(seg, op, m, var, true));
                }
            }
            v.push(word(seg, op, 0x7d, Var::Plain, false));
        }
    }
    // Segment 3 is reserved: one probe per opcode shows nothing decodes.
    for op in 0..128 {
        v.push(word(3, op, 0x7d, Var::Plain, true));
    }
    for (seg, _, _) in SEGS {
        for lds in [false, true] {
            for code in 0..128 {
                v.push(saddr_word(seg, code, lds));
            }
        }
        v.push(bit25_word(seg));
    }
    v
}

/// `load_dword` in segment `seg` with bit 25 set: LLVM ignores that bit.
fn bit25_word(seg: u32) -> Vec<u8> {
    let mut w = saddr_word(seg, 0x7d, false);
    w[3] |= 0x02;
    w
}

fn text<'a>(rec: &'a Recording, cpu: &str, w: &[u8]) -> Option<&'a str> {
    let t = rec.text(cpu, w)?;
    (rec.len(cpu, w)? == 8).then_some(t)
}

/// An address operand as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addr {
    Absent,
    Off,
    Reg(u32),
}

impl Addr {
    fn rust(self) -> String {
        match self {
            Addr::Absent => "FlatAddr::Absent".into(),
            Addr::Off => "FlatAddr::Off".into(),
            Addr::Reg(w) => format!("FlatAddr::Reg({w})"),
        }
    }
}

/// The operands of one probe's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sig {
    vdst: u32,
    vaddr: Addr,
    data: u32,
    saddr: Addr,
    /// The `saddr` register is `exec_hi` with an invalid-register note
    /// (gfx10.1 has no ST mode).
    saddr_note: bool,
}

/// `text` without `/*...*/` comments, and the first comment's body.
fn strip_note(text: &str) -> (String, Option<&str>) {
    match text.split_once("/*") {
        Some((a, rest)) => {
            let (note, b) = rest.split_once("*/").unwrap_or((rest, ""));
            (format!("{a}{b}"), Some(note))
        }
        None => (text.to_string(), None),
    }
}

fn parse_sig(seg: u32, mn: &str, text: &str) -> Sig {
    let (stripped, note) = strip_note(text);
    let (m, ops) = split_operands(&stripped);
    assert_eq!(m, mn, "{text}");
    let mut toks: Vec<String> = ops
        .iter()
        .map(|o| o.split(' ').next().unwrap_or("").to_string())
        .collect();
    let mut sig = Sig {
        vdst: 0,
        vaddr: Addr::Absent,
        data: 0,
        saddr: Addr::Absent,
        saddr_note: false,
    };
    // Global and scratch print saddr (a register or `off`) last.
    if seg != 0 {
        let last = toks.pop().unwrap_or_else(|| panic!("{text}: no saddr"));
        sig.saddr = if last == "off" {
            Addr::Off
        } else if last == "s[20:21]" {
            Addr::Reg(2)
        } else if last == "s20" {
            Addr::Reg(1)
        } else if last == "exec_hi" && note.is_some() {
            sig.saddr_note = true;
            Addr::Reg(1)
        } else {
            panic!("{text}: unexpected saddr {last}")
        };
    }
    // The rest: [vdst] [vaddr or `off`] [data].
    for tok in &toks {
        if let Some((n, w)) = parse_vreg(tok) {
            match n {
                40 => sig.vdst = w,
                10 => sig.vaddr = Addr::Reg(w),
                20 => sig.data = w,
                _ => panic!("{text}: unexpected register {tok}"),
            }
        } else if tok == "off" {
            sig.vaddr = Addr::Off;
        } else {
            panic!("{text}: unexpected operand {tok}");
        }
    }
    sig
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    /// Returned dwords (loads; atomics with glc).
    vdst: u32,
    data: u32,
    atomic: bool,
    lds: bool,
    signed_offset: bool,
    modes: [Option<(Addr, Addr)>; 3],
}

fn analyse(rec: &Recording, cpu: &str, seg: u32, op: u32) -> Option<Info> {
    let mut name: Option<String> = None;
    let mut modes: [Option<(Addr, Addr)>; 3] = [None; 3];
    let mut vdst = 0;
    let mut data = 0;
    let mut atomic = false;
    let mut lds = false;
    let mut signed = None;
    for (mi, m) in MODES.iter().enumerate() {
        let Some(plain) = text(rec, cpu, &word(seg, op, *m, Var::Plain, true)) else {
            continue;
        };
        let mn = split_operands(plain).0.to_string();
        if let Some(n) = &name {
            assert_eq!(n, &mn, "{cpu} seg {seg} op {op}");
        }
        name = Some(mn.clone());
        signed = Some(plain.contains("offset:-1"));
        let sig = parse_sig(seg, &mn, plain);
        // Which mode did this probe select? 0x7f on gfx10.1 is a plain
        // (invalid-register) saddr: that is the saddr mode, already probed.
        let mode = if sig.saddr_note { 1 } else { mi };
        if mode != mi {
            continue;
        }
        let glc =
            text(rec, cpu, &word(seg, op, *m, Var::Glc, true)).map(|t| parse_sig(seg, &mn, t));
        let ldsv = text(rec, cpu, &word(seg, op, *m, Var::Lds, true));
        let glc = glc.unwrap_or_else(|| panic!("{cpu} {mn}: glc rejected"));
        if glc.vdst != sig.vdst {
            assert_eq!(sig.vdst, 0, "{cpu} {mn}");
            atomic = true;
            vdst = glc.vdst;
        } else {
            vdst = sig.vdst;
        }
        assert_eq!(
            (glc.vaddr, glc.saddr, glc.data),
            (sig.vaddr, sig.saddr, sig.data)
        );
        if let Some(t) = ldsv {
            assert!(t.ends_with(" lds"), "{cpu}: {t}");
            let l = parse_sig(seg, &mn, t);
            assert_eq!(l.vdst, 0, "{cpu}: {t}");
            assert_eq!(
                (l.vaddr, l.saddr, l.data),
                (sig.vaddr, sig.saddr, sig.data),
                "{t}"
            );
            lds = true;
        }
        data = sig.data;
        modes[mode] = Some((sig.vaddr, sig.saddr));
    }
    let name = name.or_else(|| {
        let z = text(rec, cpu, &word(seg, op, 0x7d, Var::Plain, false));
        assert!(
            z.is_none(),
            "{cpu} seg {seg} op {op}: only decodes with zero registers: {z:?}"
        );
        None
    })?;
    Some(Info {
        name,
        vdst,
        data,
        atomic,
        lds,
        signed_offset: signed.unwrap_or(false),
        modes,
    })
}

/// The meaning of each `saddr` code for one segment on one target (for
/// loads to LDS when `lds`).
fn saddr_table(rec: &Recording, cpu: &str, seg: u32, lds: bool) -> Vec<String> {
    (0..128u32)
        .map(|code| {
            let Some(t) = text(rec, cpu, &saddr_word(seg, code, lds)) else {
                return "Saddr::Invalid".to_string();
            };
            let (stripped, note) = strip_note(t);
            let (_, ops) = split_operands(&stripped);
            let toks: Vec<&str> = ops
                .iter()
                .map(|s| s.split(' ').next().unwrap_or(""))
                .collect();
            let last = *toks.last().unwrap_or_else(|| panic!("{cpu}: {t}"));
            if seg == 0 {
                // flat: no saddr operand is printed.
                return "Saddr::Off".to_string();
            }
            // The address operands: loads print `vdst` first, loads to
            // LDS do not.
            let addr = if lds { 0 } else { 1 };
            if last == "off" {
                return if toks.get(addr) == Some(&"off") {
                    "Saddr::St".to_string()
                } else {
                    "Saddr::Off".to_string()
                };
            }
            let reg = last;
            let (c, n) = reg_code(reg).unwrap_or_else(|| panic!("{cpu}: saddr {reg}"));
            match note {
                Some(t) => format!("Saddr::Reg {{ code: {c}, count: {n}, note: Some(\"{t}\") }}"),
                None => format!("Saddr::Reg {{ code: {c}, count: {n}, note: None }}"),
            }
        })
        .collect()
}

/// Code and count of a printed scalar register.
fn reg_code(r: &str) -> Option<(u32, u32)> {
    let named = |n: &str| -> Option<(u32, u32)> {
        Some(match n {
            "vcc" => (106, 2),
            "vcc_lo" => (106, 1),
            "vcc_hi" => (107, 1),
            "m0" => (124, 1),
            "null" => (125, 1),
            "exec" => (126, 2),
            "exec_lo" => (126, 1),
            "exec_hi" => (127, 1),
            _ => return None,
        })
    };
    if let Some(x) = named(r) {
        return Some(x);
    }
    let (base, body) = if let Some(b) = r.strip_prefix("ttmp") {
        (108, b)
    } else if let Some(b) = r.strip_prefix('s') {
        (0, b)
    } else {
        return None;
    };
    if let Some(b) = body.strip_prefix('[') {
        let (a, z) = b.strip_suffix(']')?.split_once(':')?;
        let (a, z): (u32, u32) = (a.parse().ok()?, z.parse().ok()?);
        Some((base + a, z - a + 1))
    } else {
        Some((base + body.parse::<u32>().ok()?, 1))
    }
}

// ---------------------------------------------------------------------------
// Rules: knowledge that is not in the printed text.
// ---------------------------------------------------------------------------

/// `vdst` access: the `_d16` loads write one 16-bit half and keep the
/// other, so the write is partial; every other load and returning atomic
/// replaces the whole register.
fn vdst_access(name: &str) -> &'static str {
    if name.contains("_load_") && name.contains("_d16") {
        "Access::WRITE.union(Access::PARTIAL)"
    } else {
        "Access::WRITE"
    }
}

/// Implicit accesses. Every opcode of these segments reads or writes
/// memory. A flat address may also point into the LDS aperture, so flat
/// opcodes touch LDS too. (The `lds` bit, load-to-LDS through M0, adds
/// `LDS` and `READ_M0` per instruction; see `isa::family::flat`.)
fn implicit(seg: &str) -> &'static str {
    match seg {
        "Flat" => "I::from_bits_retain(I::MEMORY.bits() | I::LDS.bits())",
        _ => "I::MEMORY",
    }
}

fn emit(rec: &Recording) -> String {
    let mut out = header("flat");
    let mut names = super::TextBlock::new("FLAT");
    out.push_str(
        "use crate::family::flat::{FlatAddr, FlatInfo, FlatMode, Saddr};\n\
         use crate::family::Text;\nuse crate::inst::{OpSpace, Opcode};\n\
         use crate::operand::{Access, Implicit as I};\n\n",
    );
    for (seg, space, table) in SEGS {
        let mut rows = Vec::new();
        let mut consts = Vec::new();
        for op in 0..128u32 {
            let mut per: Vec<(usize, Info)> = Vec::new();
            for (ti, cpu) in TARGETS.iter().enumerate() {
                if let Some(i) = analyse(rec, cpu, seg, op) {
                    per.push((ti, i));
                }
            }
            let Some((_, mut info)) = per.first().cloned() else {
                rows.push("None".to_string());
                continue;
            };
            // Modes: the union over targets (gfx10.1 has no ST mode; its
            // saddr table maps 0x7f to a register instead).
            for (ti, other) in &per {
                let a = Info {
                    modes: [None; 3],
                    ..other.clone()
                };
                let b = Info {
                    modes: [None; 3],
                    ..info.clone()
                };
                assert_eq!(a, b, "{space} op {op}: differs on {}", TARGETS[*ti]);
                for m in 0..3 {
                    match (info.modes[m], other.modes[m]) {
                        (None, Some(x)) => info.modes[m] = Some(x),
                        (Some(x), Some(y)) => assert_eq!(x, y, "{space} op {op} mode {m}"),
                        _ => {}
                    }
                }
            }
            let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
            let modes: Vec<String> = info
                .modes
                .iter()
                .map(|m| match m {
                    None => "None".to_string(),
                    Some((v, s)) => format!(
                        "Some(FlatMode {{ vaddr: {}, saddr: {} }})",
                        v.rust(),
                        s.rust()
                    ),
                })
                .collect();
            rows.push(format!(
                "Some(FlatInfo {{ name: {}, targets: {mask:#05b}, vdst: {}, vdst_access: {}, data: {}, \
                 atomic: {}, lds: {}, signed_offset: {}, implicit: {}, modes: [{}] }})",
                names.text(&info.name),
                info.vdst,
                vdst_access(&info.name),
                info.data,
                info.atomic,
                info.lds,
                info.signed_offset,
                implicit(space),
                modes.join(", ")
            ));
            consts.push((op as u16, info.name.clone()));
        }
        let _ = writeln!(out, "/// {space} opcodes by native opcode number.");
        let _ = writeln!(
            out,
            "pub(crate) static {table}: [Option<FlatInfo>; 128] = ["
        );
        for r in rows {
            let _ = writeln!(out, "    {r},");
        }
        let _ = writeln!(out, "];\n");
        emit_consts(&mut out, space, &consts);
    }
    // Segment 3 is reserved: check that nothing decodes there.
    for cpu in TARGETS {
        for op in 0..128 {
            let w = word(3, op, 0x7d, Var::Plain, true);
            assert!(
                text(rec, cpu, &w).is_none(),
                "{cpu}: segment 3 op {op} decodes"
            );
        }
    }
    for (seg, space, table) in SEGS {
        for lds in [false, true] {
            if lds && seg == 0 {
                continue; // flat has no loads to LDS
            }
            let (what, suffix) = if lds {
                ("loads to LDS", "_LDS")
            } else {
                ("opcodes", "")
            };
            let _ = writeln!(
                out,
                "/// Meaning of each `saddr` code for {space} {what}, per target\n/// (gfx1010, gfx1013, gfx1030)."
            );
            let _ = writeln!(
                out,
                "pub(crate) static {table}{suffix}_SADDR: [[Saddr; 128]; 3] = ["
            );
            for cpu in TARGETS {
                let _ = writeln!(out, "    [");
                for e in saddr_table(rec, cpu, seg, lds) {
                    let _ = writeln!(out, "        {e},");
                }
                let _ = writeln!(out, "    ],");
            }
            let _ = writeln!(out, "];\n");
        }
        for cpu in TARGETS {
            let plain = text(rec, cpu, &saddr_word(seg, 0x7d, false));
            assert_eq!(
                text(rec, cpu, &bit25_word(seg)),
                plain,
                "{cpu}: bit 25 matters"
            );
        }
    }
    names.emit(&mut out);
    out.push_str(
        "/// Mnemonic of an opcode index in a FLAT/GLOBAL/SCRATCH space.\n\
         pub fn name(space: OpSpace, index: u16) -> Option<&'static str> {\n    \
         info(space, index).map(|r| r.name.as_str())\n}\n\n\
         /// Table row of an opcode index in a FLAT/GLOBAL/SCRATCH space.\n\
         pub(crate) fn info(space: OpSpace, index: u16) -> Option<&'static FlatInfo> {\n    \
         let t: &'static [Option<FlatInfo>; 128] = match space {\n        \
         OpSpace::Flat => &FLAT,\n        OpSpace::Global => &GLOBAL,\n        \
         OpSpace::Scratch => &SCRATCH,\n        _ => return None,\n    };\n    \
         t.get(index as usize)?.as_ref()\n}\n",
    );
    out
}
