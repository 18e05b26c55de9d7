//! SOP1, SOP2, SOPK, SOPC and SOPP.
//!
//! Probes, for every opcode value of every encoding:
//!
//! - distinct register numbers in each field (sdst = s10, ssrc0 = s20,
//!   ssrc1 = s30, simm16 = 0x1e14), so the printed operands name the field
//!   they came from and their width;
//! - both sources set to the inline constant 1/(2π) (code 248), which prints
//!   as `0.15915494309189532` for 64-bit operands and with an
//!   `/*Invalid immediate*/` note for register-only operands;
//! - for SOPK and SOPP, simm16 = 0 and simm16 = 5 as well: together with
//!   0x1e14 and 0xf8f8 they tell how the 16-bit immediate prints (see
//!   `Simm16Kind`) and whether LLVM accepts a non-zero value at all.
//!
//! Extra probes record symbolic immediates: `s_getreg_b32` with every
//! hardware-register id (the names differ between targets), and
//! `s_sendmsg`/`s_waitcnt_depctr`/`s_version`/`s_waitcnt` with selected
//! values. Only the hwreg names go into the table; the other answers are
//! checked by `isa/tests/scalar.rs`, which prints every recorded probe.
//!
//! Knowledge that is not in the printed text (which fields an instruction
//! reads although they print as a destination, partial writes, and implicit
//! SCC/EXEC/VCC/M0 accesses) comes from the rules at the bottom of this
//! file, written from the RDNA2 ISA documentation.

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
    /// True for the encodings with a 16-bit immediate.
    fn has_simm16(self) -> bool {
        matches!(self, Kind::Sopk | Kind::Sopp)
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
/// The simm16 values probed (regs probe, inline probe, and the two extra).
const IMM_REGS: u32 = 0x1e14;
const IMM_INLINE: u32 = 0xf8f8;
const IMM_EXTRA: [u32; 2] = [0, 5];

/// SOPK opcode of `s_getreg_b32` (checked against its name in `emit`).
const SOPK_GETREG: u32 = 18;
/// SOPP opcodes of `s_sendmsg`, `s_waitcnt` and `s_waitcnt_depctr`, SOPK
/// opcode of `s_version` (checked against their names in `emit`).
const SOPP_SENDMSG: u32 = 16;
const SOPP_WAITCNT: u32 = 12;
const SOPP_DEPCTR: u32 = 35;
const SOPK_VERSION: u32 = 1;

fn probe_regs(k: Kind, op: u32) -> Vec<u8> {
    dwords(&[k.word(op, 10, 20, 30, IMM_REGS), LIT])
}
fn probe_inline(k: Kind, op: u32) -> Vec<u8> {
    dwords(&[k.word(op, 10, 248, 248, IMM_INLINE), LIT])
}
fn probe_imm(k: Kind, op: u32, imm: u32) -> Vec<u8> {
    dwords(&[k.word(op, 10, 20, 30, imm), LIT])
}
fn probe_hwreg(id: u32) -> Vec<u8> {
    // offset 0, width 32: prints `hwreg(NAME)` when the id has a name.
    probe_imm(Kind::Sopk, SOPK_GETREG, (31 << 11) | id)
}

/// Symbolic-immediate values probed for the printing test.
fn symbolic_probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for id in 0..16u32 {
        for op in 0..8u32 {
            for stream in 0..4u32 {
                v.push(probe_imm(
                    Kind::Sopp,
                    SOPP_SENDMSG,
                    id | (op << 4) | (stream << 8),
                ));
            }
        }
    }
    for imm in [0x8000u32, 0x1234, 0xffff, 0x0400, 0x0100] {
        v.push(probe_imm(Kind::Sopp, SOPP_SENDMSG, imm));
    }
    for imm in [
        0u32, 0xffff, 0xff1f, 0xff9f, 0xff7f, 0xffbf, 0x0080, 0x0020, 0x0040, 0x7f1f, 0xf01e,
        0xe11d, 0xfe9b, 0x8000, 0x0001,
    ] {
        v.push(probe_imm(Kind::Sopp, SOPP_DEPCTR, imm));
    }
    for imm in [
        0u32, 1, 4, 6, 9, 10, 88, 255, 0x2000, 0x4000, 0x8000, 0xe000, 0x6004, 0xa009, 0xc006,
        0x0100, 0x1000, 0xffff,
    ] {
        v.push(probe_imm(Kind::Sopk, SOPK_VERSION, imm));
    }
    for imm in [
        0u32, 0xffff, 0x3f70, 0xc07f, 0x0007, 0x0080, 0xff0f, 0x3f0f, 0xc000, 0x1234, 0xfe7f,
    ] {
        v.push(probe_imm(Kind::Sopp, SOPP_WAITCNT, imm));
    }
    v
}

fn probes() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for k in KINDS {
        for op in 0..k.count() {
            v.push(probe_regs(k, op));
            v.push(probe_inline(k, op));
            if k.has_simm16() {
                for imm in IMM_EXTRA {
                    v.push(probe_imm(k, op, imm));
                }
            }
        }
    }
    for id in 0..64 {
        v.push(probe_hwreg(id));
    }
    v.extend(symbolic_probes());
    v
}

/// How a SOPK/SOPP 16-bit immediate prints (mirrors
/// `isa::family::sop::Simm16Kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Simm16Kind {
    None,
    Zero,
    Imm,
    Hex,
    Branch,
    Endpgm,
    Waitcnt,
    SendMsg,
    Hwreg,
    DepCtr,
    Version,
}

impl Simm16Kind {
    fn rust(self) -> &'static str {
        match self {
            Simm16Kind::None => "None",
            Simm16Kind::Zero => "Zero",
            Simm16Kind::Imm => "Imm",
            Simm16Kind::Hex => "Hex",
            Simm16Kind::Branch => "Branch",
            Simm16Kind::Endpgm => "Endpgm",
            Simm16Kind::Waitcnt => "Waitcnt",
            Simm16Kind::SendMsg => "SendMsg",
            Simm16Kind::Hwreg => "Hwreg",
            Simm16Kind::DepCtr => "DepCtr",
            Simm16Kind::Version => "Version",
        }
    }
    /// The text a plain-number kind prints for `v`, `None` for "nothing".
    fn render(self, v: u32) -> Option<String> {
        match self {
            Simm16Kind::Imm if v <= 64 => Some(format!("{v}")),
            Simm16Kind::Imm | Simm16Kind::Hex => Some(format!("{v:#x}")),
            Simm16Kind::Branch => Some(format!("{v}")),
            Simm16Kind::Endpgm if v == 0 => None,
            Simm16Kind::Endpgm => Some(format!("{v}")),
            _ => None,
        }
    }
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
    imm: Simm16Kind,
}

/// The printed simm16 token of a probe with immediate `imm`, given the
/// position of the simm16 operand (`None`: no token expected there).
fn imm_token(rec: &Recording, cpu: &str, k: Kind, op: u32, imm: u32, pos: usize) -> Option<String> {
    let probe = if imm == IMM_INLINE {
        probe_inline(k, op)
    } else {
        probe_imm(k, op, imm)
    };
    let text = rec.text(cpu, &probe)?;
    split_operands(text).1.get(pos).cloned()
}

/// Decide how the immediate prints from the recorded texts.
fn simm16_kind(rec: &Recording, cpu: &str, k: Kind, op: u32, pos: Option<usize>) -> Simm16Kind {
    let regs_ok = rec.text(cpu, &probe_regs(k, op)).is_some();
    let zero_ok = rec.text(cpu, &probe_imm(k, op, 0)).is_some();
    let Some(pos) = pos else {
        // No immediate printed for 0x1e14: either LLVM rejects non-zero
        // values (fixed zero), or (s_endpgm) zero prints nothing.
        return if !regs_ok && zero_ok {
            Simm16Kind::Zero
        } else {
            Simm16Kind::None
        };
    };
    let tok = |imm| imm_token(rec, cpu, k, op, imm, pos);
    let t = tok(IMM_REGS).unwrap_or_default();
    let symbolic = [
        ("vmcnt(", Simm16Kind::Waitcnt),
        ("expcnt(", Simm16Kind::Waitcnt),
        ("lgkmcnt(", Simm16Kind::Waitcnt),
        ("hwreg(", Simm16Kind::Hwreg),
        ("depctr_", Simm16Kind::DepCtr),
    ];
    for (prefix, kind) in symbolic {
        if t.starts_with(prefix) {
            return kind;
        }
    }
    if tok(0).is_some_and(|z| z.starts_with("sendmsg(")) {
        return Simm16Kind::SendMsg;
    }
    if tok(0).is_some_and(|z| z.starts_with("UC_VERSION")) {
        return Simm16Kind::Version;
    }
    for kind in [
        Simm16Kind::Imm,
        Simm16Kind::Hex,
        Simm16Kind::Branch,
        Simm16Kind::Endpgm,
    ] {
        let all = [IMM_REGS, IMM_INLINE, 0, 5]
            .iter()
            .all(|&v| tok(v) == kind.render(v));
        if all {
            return kind;
        }
    }
    panic!("{cpu} {:?} op {op}: cannot classify the immediate `{t}`", k);
}

fn analyse(k: Kind, op: u32, rec: &Recording, cpu: &str) -> Option<Info> {
    // Opcodes that only accept simm16 == 0 print nothing for the regs
    // probe; take their name from the zero probe.
    let regs = probe_regs(k, op);
    let zero = probe_imm(k, op, 0);
    let (text, len) = match rec.text(cpu, &regs) {
        Some(t) => (t, rec.len(cpu, &regs)?),
        None if k.has_simm16() => (rec.text(cpu, &zero)?, rec.len(cpu, &zero)?),
        None => return None,
    };
    let (mn, ops) = split_operands(text);
    let inline_text = rec.text(cpu, &probe_inline(k, op));
    let inline_ops = inline_text.map(|t| split_operands(t).1).unwrap_or_default();
    let literal = len == 8 && k == Kind::Sopk;
    let mut slots = Vec::new();
    let mut imm_pos = None;
    for (i, tok) in ops.iter().enumerate() {
        let itok = inline_ops.get(i).map(|s| s.as_str()).unwrap_or("");
        if let Some((first, count)) = parse_sreg(tok) {
            let fld = match first {
                10 | 11 => "Sdst",
                20 | 21 => "Ssrc0",
                30 | 31 => "Ssrc1",
                _ => panic!("{cpu} {mn}: unexpected register {tok}"),
            };
            slots.push(Slot {
                fld,
                width: count,
                imm_ok: !itok.contains("Invalid immediate"),
                f64: itok.starts_with("0.15915494309189532"),
                access: if fld == "Sdst" { "W" } else { "R" },
            });
        } else if literal && tok.starts_with("0x12345678") {
            // s_setreg_imm32_b32: the literal dword, not a field.
            continue;
        } else {
            imm_pos = Some(i);
            slots.push(Slot {
                fld: "Simm16",
                width: 1,
                imm_ok: true,
                f64: false,
                access: "R",
            });
        }
    }
    let imm = if k.has_simm16() {
        simm16_kind(rec, cpu, k, op, imm_pos)
    } else {
        Simm16Kind::None
    };
    Some(Info {
        name: mn.to_string(),
        slots,
        literal,
        imm,
    })
}

/// Fields that print like a destination but are read (or read and
/// written), and partial writes, by mnemonic.
fn fix_access(name: &str, slots: &mut [Slot]) {
    for s in slots.iter_mut() {
        if s.fld != "Sdst" {
            continue;
        }
        if name.starts_with("s_cmpk_") || name == "s_setreg_b32" || name.starts_with("s_waitcnt_") {
            // Compares, the value to write to a hardware register, and the
            // counter operand of s_waitcnt_*cnt are sources.
            s.access = "R";
        } else if name.starts_with("s_cmov")
            || name == "s_addk_i32"
            || name == "s_mulk_i32"
            || name.starts_with("s_bitset")
            || name.starts_with("s_subvector_loop_")
        {
            // Conditional moves keep the old value when SCC = 0; SOPK
            // arithmetic and bitset modify the register in place; the
            // subvector loop instructions save/restore EXEC through sdst
            // (LLVM models loop_end's sdst as a use only; the ISA document
            // has both saving and restoring, so both read and may write).
            s.access = "RW";
        } else if name.starts_with("s_movreld") || name == "s_movrelsd_2_b32" {
            // s_movreld writes SGPR[sdst + M0] (s_movrelsd_2 SGPR[sdst +
            // M0[25:16]]): the named register is written only when the
            // index is 0, another one otherwise.
            s.access = "WP";
        }
    }
}

/// Whether the instruction uses its 16-bit immediate sign-extended: branch
/// offsets and the signed SOPK arithmetic (RDNA2 ISA: `SIMM16` is
/// sign-extended for s_movk/s_cmovk/s_addk/s_mulk and the signed compares,
/// zero-extended for the unsigned compares).
fn imm_signed(info: &Info) -> bool {
    let n = info.name.as_str();
    info.imm == Simm16Kind::Branch
        || matches!(
            n,
            "s_movk_i32" | "s_cmovk_i32" | "s_addk_i32" | "s_mulk_i32"
        )
        || (n.starts_with("s_cmpk_") && n.ends_with("_i32"))
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
    if name.contains("saveexec") || name.contains("wrexec") || name.starts_with("s_subvector_loop_")
    {
        f.push("READ_EXEC");
        f.push("WRITE_EXEC");
    }
    if name.starts_with("s_cbranch_exec") || name.starts_with("s_sendmsg") {
        // s_sendmsg: the message payload can depend on the active lanes
        // (LLVM lists EXEC as a use).
        f.push("READ_EXEC");
    }
    if name.starts_with("s_cbranch_vcc") {
        f.push("READ_VCC");
    }
    if name.starts_with("s_movrel") {
        f.push("RELATIVE");
    }
    if name.starts_with("s_movrel") || name.starts_with("s_sendmsg") || name == "s_ttracedata" {
        f.push("READ_M0");
    }
    if name == "s_endpgm" || name.starts_with("s_endpgm_") || name == "s_code_end" {
        // s_code_end pads the end of a shader; it is never executed, so
        // control never falls through it.
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
    out.push_str(
        "use crate::family::sop::{SopFld::*, SopInfo, SopSlot, Simm16Kind as K};\n\
         use crate::inst::{OpSpace, Opcode};\n\
         use crate::operand::{Access, Implicit as I};\n\n",
    );
    const R: &str = "Access::READ";
    const W: &str = "Access::WRITE";
    const RW: &str = "Access::READ.union(Access::WRITE)";
    const WP: &str = "Access::WRITE.union(Access::PARTIAL)";
    for k in KINDS {
        let mut consts = Vec::new();
        let mut rows = Vec::new();
        for op in 0..k.count() {
            let mut per: Vec<(usize, Info)> = Vec::new();
            for (ti, cpu) in TARGETS.iter().enumerate() {
                if let Some(mut info) = analyse(k, op, rec, cpu) {
                    // Keep only answers that belong to this family.
                    let d0 = k.word(op, 10, 20, 30, IMM_REGS);
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
                    other, &info,
                    "{:?} op {op}: row differs on {}",
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
                            "WP" => WP,
                            _ => RW,
                        }
                    )
                })
                .collect();
            let imp = implicit(k, &info.name);
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
                "Some(SopInfo {{ name: \"{}\", targets: {mask:#b}, literal: {}, imm: K::{}, imm_signed: {}, implicit: {imp}, slots: &[{}] }})",
                info.name,
                info.literal,
                info.imm.rust(),
                imm_signed(&info),
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
    emit_hwreg(rec, &mut out);
    out
}

/// Hardware-register names by id, with the targets that know them.
fn emit_hwreg(rec: &Recording, out: &mut String) {
    // The probe opcodes must be what this file assumes they are.
    for (k, op, want) in [
        (Kind::Sopk, SOPK_GETREG, "s_getreg_b32"),
        (Kind::Sopk, SOPK_VERSION, "s_version"),
        (Kind::Sopp, SOPP_SENDMSG, "s_sendmsg"),
        (Kind::Sopp, SOPP_WAITCNT, "s_waitcnt"),
        (Kind::Sopp, SOPP_DEPCTR, "s_waitcnt_depctr"),
    ] {
        for cpu in TARGETS {
            let text = rec.text(cpu, &probe_imm(k, op, 0)).unwrap_or("");
            assert_eq!(split_operands(text).0, want, "{cpu}: {k:?} op {op}");
        }
    }
    let _ = writeln!(
        out,
        "/// `hwreg(...)` names by register id, with the mask of targets that\n/// know the name (bit i: `isa_gen::TARGETS[i]`).\npub(crate) static HWREG_NAMES: [Option<(&str, u8)>; 64] = ["
    );
    for id in 0..64u32 {
        let mut name: Option<String> = None;
        let mut mask = 0u32;
        for (ti, cpu) in TARGETS.iter().enumerate() {
            let text = rec
                .text(cpu, &probe_hwreg(id))
                .unwrap_or_else(|| panic!("{cpu}: hwreg probe {id} missing"));
            let (_, ops) = split_operands(text);
            let arg = ops
                .get(1)
                .and_then(|t| t.strip_prefix("hwreg("))
                .and_then(|t| t.strip_suffix(')'))
                .unwrap_or_else(|| panic!("{cpu}: hwreg probe {id}: {text}"));
            if arg.starts_with("HW_REG_") {
                if let Some(n) = &name {
                    assert_eq!(n, arg, "hwreg {id}: name differs between targets");
                }
                name = Some(arg.to_string());
                mask |= 1 << ti;
            } else {
                assert_eq!(arg, id.to_string(), "{cpu}: hwreg probe {id}: {text}");
            }
        }
        match name {
            Some(n) => {
                let _ = writeln!(out, "    Some((\"{n}\", {mask:#b})),");
            }
            None => out.push_str("    None,\n"),
        }
    }
    out.push_str("];\n");
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
