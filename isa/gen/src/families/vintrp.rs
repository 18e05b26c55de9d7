//! VINTRP (parameter interpolation, 32-bit encoding).
//!
//! Encoding (32 bits): `vsrc` 7:0, `attrchan` 9:8, `attr` 15:10, `op`
//! 17:16, `vdst` 25:18, `0b110010` 31:26.
//!
//! Probes, per opcode: `vsrc` = 10, `attr` = 5, `attrchan` = 2, `vdst` =
//! 40. `vsrc` prints as `v10` when it is a VGPR and as `invalid_param_10`
//! when it selects an interpolation parameter (`v_interp_mov_f32`: 0 `p10`,
//! 1 `p20`, 2 `p0`).
//!
//! Rules not in the text: `v_interp_p2_f32` accumulates into its
//! destination (`vdst = P10 * j + vdst`, LLVM ties `vdst` to a source), so
//! its `vdst` is read and written. Every opcode reads M0 (the LDS offset
//! of the primitive's attribute data). The attribute data lives in LDS
//! outside the shader's own allocation; like LLVM, `isa` does not count
//! that as an LDS access.

use super::{emit_consts, parse_vreg, split_operands};
use crate::recording::{dwords, Recording};
use crate::{header, FamilyGen, TARGETS};
use std::fmt::Write as _;

/// The generator entry.
pub fn gen() -> FamilyGen {
    FamilyGen {
        name: "vintrp",
        out_file: "vintrp.rs",
        probes,
        emit,
    }
}

fn word(op: u32) -> Vec<u8> {
    dwords(&[(0x32 << 26) | (40 << 18) | (op << 16) | (5 << 10) | (2 << 8) | 10])
}

fn probes() -> Vec<Vec<u8>> {
    (0..4).map(word).collect()
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    name: String,
    /// `Vgpr` or `Param`.
    vsrc: &'static str,
}

fn analyse(rec: &Recording, cpu: &str, op: u32) -> Option<Info> {
    let t = rec.text(cpu, &word(op))?;
    let (mn, ops) = split_operands(t);
    let name = mn
        .strip_suffix("_e32")
        .unwrap_or_else(|| panic!("{cpu}: {t}"));
    assert_eq!(ops.len(), 3, "{cpu}: {t}");
    assert_eq!(parse_vreg(&ops[0]), Some((40, 1)), "{cpu}: {t}");
    assert_eq!(ops[2], "attr5.z", "{cpu}: {t}");
    let vsrc = match ops[1].as_str() {
        "v10" => "Vgpr",
        "invalid_param_10" => "Param",
        o => panic!("{cpu}: unexpected vsrc {o}"),
    };
    Some(Info {
        name: name.to_string(),
        vsrc,
    })
}

/// `vdst` access: `v_interp_p2_f32` reads the `v_interp_p1_f32` result it
/// finishes (see the module docs).
fn vdst_access(name: &str) -> &'static str {
    if name == "v_interp_p2_f32" {
        "Access::READ.union(Access::WRITE)"
    } else {
        "Access::WRITE"
    }
}

fn emit(rec: &Recording) -> String {
    let mut out = header("vintrp");
    out.push_str(
        "use crate::family::vintrp::{VintrpInfo, VintrpSrc};\n\
         use crate::inst::{OpSpace, Opcode};\n\
         use crate::operand::{Access, Implicit as I};\n\n",
    );
    let mut rows = Vec::new();
    let mut consts = Vec::new();
    for op in 0..4u32 {
        let per: Vec<(usize, Info)> = TARGETS
            .iter()
            .enumerate()
            .filter_map(|(ti, cpu)| analyse(rec, cpu, op).map(|i| (ti, i)))
            .collect();
        let Some((_, info)) = per.first().cloned() else {
            rows.push("None".to_string());
            continue;
        };
        for (ti, other) in &per {
            assert_eq!(other, &info, "VINTRP op {op}: differs on {}", TARGETS[*ti]);
        }
        let mask: u32 = per.iter().map(|(ti, _)| 1u32 << ti).sum();
        rows.push(format!(
            "Some(VintrpInfo {{ name: \"{}\", targets: {mask:#05b}, vsrc: VintrpSrc::{}, vdst_access: {}, implicit: I::READ_M0 }})",
            info.name,
            info.vsrc,
            vdst_access(&info.name)
        ));
        // `_E32`: the VOP3 (`_e64`) forms of these opcodes live in the VOP
        // opcode space under the plain names.
        consts.push((op as u16, format!("{}_e32", info.name)));
    }
    let _ = writeln!(out, "/// VINTRP opcodes by native opcode number.");
    let _ = writeln!(out, "pub(crate) static VINTRP: [Option<VintrpInfo>; 4] = [");
    for r in rows {
        let _ = writeln!(out, "    {r},");
    }
    let _ = writeln!(out, "];\n");
    out.push_str(
        "/// Mnemonic of an opcode index in this space.\n\
         pub fn name(index: u16) -> Option<&'static str> {\n    \
         VINTRP.get(index as usize).and_then(|r| r.as_ref()).map(|r| r.name)\n}\n\n",
    );
    emit_consts(&mut out, "Vintrp", &consts);
    out
}
