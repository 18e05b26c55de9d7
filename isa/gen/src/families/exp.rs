//! EXP (exports). One opcode, `Opcode::EXP` in `OpSpace::Exp`; what the
//! generator learns from LLVM is the name of each of the 64 export targets
//! on each target GPU.
//!
//! Encoding (64 bits): `en` 3:0, `target` 9:4, `compr` 10, `done` 11, `vm`
//! 12, bits 25:13 unused, `0b111110` 31:26; then `vsrc0`..`vsrc3` in the
//! four bytes of the second dword.
//!
//! Probes: every target id with `en` = 0xf and `vsrc0..3` = v10, v20, v30,
//! v40; the text is `exp <target> v10, v20, v30, v40`.

use super::split_operands;
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "exp",
        out_file: "exp.rs",
        probes,
        emit,
    }
}

fn word(tgt: u32) -> Vec<u8> {
    dwords(&[
        (0x3e << 26) | (tgt << 4) | 0xf,
        (40 << 24) | (30 << 16) | (20 << 8) | 10,
    ])
}

fn probes() -> Vec<Vec<u8>> {
    (0..64).map(word).collect()
}

/// The printed name of target `tgt` on `cpu`, `None` when LLVM prints
/// `invalid_target_<id>`.
fn target_name(rec: &Recording, cpu: &str, tgt: u32) -> Option<String> {
    let t = rec
        .text(cpu, &word(tgt))
        .unwrap_or_else(|| panic!("{cpu}: exp target {tgt} rejected"));
    let (mn, ops) = split_operands(t);
    assert_eq!(mn, "exp", "{cpu}: {t}");
    assert_eq!(ops.len(), 4, "{cpu}: {t}");
    let (name, first) = ops[0].split_once(' ').unwrap_or_else(|| panic!("{t}"));
    assert_eq!(
        (first, ops[1].as_str(), ops[2].as_str(), ops[3].as_str()),
        ("v10", "v20", "v30", "v40"),
        "{cpu}: {t}"
    );
    if name == format!("invalid_target_{tgt}") {
        None
    } else {
        Some(name.to_string())
    }
}

fn emit(rec: &Recording) -> String {
    let mut out = header("exp");
    out.push_str("use crate::family::exp::ExpTgt;\nuse crate::inst::{OpSpace, Opcode};\n\n");
    let _ = writeln!(
        out,
        "/// Export target names by target id; on targets whose bit is clear in\n\
         /// `targets`, LLVM prints `invalid_target_<id>`."
    );
    let _ = writeln!(out, "pub(crate) static EXP_TARGETS: [ExpTgt; 64] = [");
    for tgt in 0..64 {
        let mut name: Option<String> = None;
        let mut mask = 0u32;
        for (ti, cpu) in TARGETS.iter().enumerate() {
            if let Some(n) = target_name(rec, cpu, tgt) {
                if let Some(m) = &name {
                    assert_eq!(m, &n, "exp target {tgt}");
                }
                name = Some(n);
                mask |= 1 << ti;
            }
        }
        let _ = writeln!(
            out,
            "    ExpTgt {{ name: \"{}\", targets: {mask:#05b} }},",
            name.unwrap_or_default()
        );
    }
    let _ = writeln!(out, "];\n");
    out.push_str(
        "impl Opcode {\n    /// `exp`: the only opcode of the EXP encoding.\n    \
         pub const EXP: Opcode = Opcode::new(OpSpace::Exp, 0);\n}\n",
    );
    out
}
