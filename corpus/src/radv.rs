//! The `meta.json` of the bundled RADV/ACO corpus (`corpus/radv/<name>/`),
//! mapped onto [`Meta`].
//!
//! Facts from `corpus/radv/README.md` (Mesa 22.3.6, gfx10.3):
//! - `aco_stage` `vertex_ngg` is an NGG primitive shader: eight system SGPRs
//!   (`s[0:1]` ring offsets, `s2` gs_tg_info, `s3` merged_wave_info, ...),
//!   user SGPRs from `s8`.
//! - `vertex_vs` (legacy VS), `fragment_fs` and `compute_cs` have the 64-bit
//!   ring pointer in `s[0:1]` and their own user SGPRs from `s2`.
//! - The user SGPRs end at the first system SGPR after them (scratch
//!   offset, workgroup id, prim_mask); `entry_sgprs` names each register.
//! - `vertex_id_vgpr` / `instance_id_vgpr` name the id VGPRs (`v5`/`v8` for
//!   NGG, `v0`/`v3` for legacy VS).

use crate::error::{CaptureError, Note};
use crate::meta::{default_abi, parse_reg, Meta, WaveSize, META_VERSION};
use isa::{Stage, Target};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

#[derive(Deserialize)]
struct RadvMeta {
    #[serde(default)]
    name: Option<String>,
    aco_stage: String,
    wave_size: WaveSize,
    llvm_target: String,
    #[serde(default)]
    vertex_id_vgpr: Option<String>,
    #[serde(default)]
    instance_id_vgpr: Option<String>,
    #[serde(default)]
    entry_sgprs: Option<Vec<EntryReg>>,
    #[serde(default)]
    entry_vgprs: Option<Vec<EntryReg>>,
    #[serde(default)]
    code_checks: Option<CodeChecks>,
    #[serde(default)]
    driver: Option<String>,
    #[serde(default)]
    config_description: Option<String>,
    #[serde(default)]
    family: Option<String>,
    #[serde(default)]
    source_original: Option<String>,
    #[serde(default)]
    pipeline: Option<String>,
}

#[derive(Deserialize)]
struct EntryReg {
    reg: String,
    name: String,
}

#[derive(Deserialize)]
struct CodeChecks {
    #[serde(default)]
    code_bin_bytes: Option<u64>,
}

/// Probe: does a `meta.json` look like the RADV corpus's?
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    aco_stage: Option<serde::de::IgnoredAny>,
}

/// True if the JSON document has an `aco_stage` field (RADV corpus form).
/// Syntax errors are reported with their position.
pub(crate) fn is_radv(path: &Path, json: &[u8]) -> Result<bool, CaptureError> {
    let probe: Probe =
        serde_json::from_slice(json).map_err(|e| CaptureError::json(path, "", &e))?;
    Ok(probe.aco_stage.is_some())
}

/// RADV system-SGPR argument names: the user SGPRs end at the first of
/// these.
const SYSTEM_SGPRS: &[&str] = &[
    "ring_offsets",
    "gs_tg_info",
    "merged_wave_info",
    "tess_offchip_offset",
    "scratch_offset",
    "prim_mask",
    "workgroup_id_x",
    "workgroup_id_y",
    "workgroup_id_z",
    "tg_size",
    "(unused)",
];

/// The first SGPR of a register name `sN` or `s[N:M]`, and the count.
fn sgpr_range(reg: &str) -> Option<(u8, u8)> {
    if let Some(inner) = reg.strip_prefix("s[").and_then(|r| r.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
        return (b >= a).then(|| (a, b - a + 1));
    }
    Some((reg.strip_prefix('s')?.parse::<u8>().ok()?, 1))
}

/// `SPI_PS_INPUT_ENA` from the names of a pixel shader's entry VGPRs (in
/// Mesa's `radv_shader_args.c` words): each name sets its input's bit, and
/// the registers must be where [`isa::ps_input_vgprs`] packs them.
fn ps_input_ena(regs: &[EntryReg]) -> Result<u16, String> {
    const NAMES: [&str; 16] = [
        "persp_sample",
        "persp_center",
        "persp_centroid",
        "pull_model",
        "linear_sample",
        "linear_center",
        "linear_centroid",
        "line_stipple",
        "frag_pos.x",
        "frag_pos.y",
        "frag_pos.z",
        "frag_pos.w",
        "front_face",
        "ancillary",
        "sample_coverage",
        "pos_fixed_pt",
    ];
    let mut ena = 0u16;
    let mut at = Vec::new();
    for r in regs {
        let name = r.name.split(' ').next().unwrap_or("");
        let Some(k) = NAMES.iter().position(|n| *n == name) else {
            return Err(format!("unknown pixel-shader entry VGPR `{}`", r.name));
        };
        ena |= 1 << k;
        let first = r
            .reg
            .trim_start_matches("v[")
            .trim_start_matches('v')
            .split([':', ']'])
            .next()
            .and_then(|x| x.parse::<u8>().ok())
            .ok_or_else(|| format!("bad register `{}`", r.reg))?;
        at.push((k, first));
    }
    for (input, first, _) in isa::ps_input_vgprs(ena) {
        let k = isa::abi::PS_INPUTS
            .iter()
            .position(|(i, _)| *i == input)
            .unwrap_or(0);
        if !at.contains(&(k, first)) {
            return Err(format!(
                "entry VGPR `{}` is not at v{first}, where SPI_PS_INPUT_ENA {ena:#x} puts it",
                NAMES[k]
            ));
        }
    }
    Ok(ena)
}

/// Map a RADV corpus `meta.json` to [`Meta`], with notes about the code.
pub(crate) fn parse(
    path: &Path,
    json: &[u8],
    code_len: usize,
    notes: &mut Vec<Note>,
) -> Result<Meta, CaptureError> {
    let where_ = "";
    let m: RadvMeta =
        serde_json::from_slice(json).map_err(|e| CaptureError::json(path, where_, &e))?;
    let field = |field: &'static str, message: String| CaptureError::BadField {
        path: path.to_path_buf(),
        where_: where_.into(),
        field,
        message,
    };

    let stage = match m.aco_stage.as_str() {
        "vertex_ngg" => Stage::Ngg,
        "vertex_vs" => Stage::LegacyVs,
        s if s.starts_with("fragment") => Stage::Ps,
        s if s.starts_with("compute") => Stage::Cs,
        s => {
            return Err(field(
                "aco_stage",
                format!(
                "`{s}` is not a supported stage (vertex_ngg, vertex_vs, fragment_fs, compute_cs)"
            ),
            ))
        }
    };
    let target =
        Target::from_str(&m.llvm_target).map_err(|e| field("llvm_target", e.to_string()))?;

    let mut abi = default_abi(stage);
    if let Some(regs) = &m.entry_sgprs {
        let mut named = BTreeMap::new();
        for r in regs {
            if let Some((first, count)) = sgpr_range(&r.reg) {
                if count == 1 {
                    named.insert(first, r.name.as_str());
                }
            }
        }
        if let Some((&s, _)) = named.iter().find(|(_, &n)| n == "merged_wave_info") {
            abi.merged_wave_info_sgpr = Some(s);
        }
        if let Some((&s, _)) = named.iter().find(|(_, &n)| n == "gs_tg_info") {
            abi.gs_tg_info_sgpr = Some(s);
        }
        // User SGPRs run from the ABI's first one to the first system SGPR.
        let mut count = 0u8;
        let mut reg = abi.user_data_sgpr;
        while reg <= 105 {
            match named.get(&reg) {
                Some(name) if !SYSTEM_SGPRS.contains(name) => {
                    count += 1;
                    reg += 1;
                }
                _ => break,
            }
        }
        abi.user_data_count = count;
    }
    if let Some(v) = &m.vertex_id_vgpr {
        abi.vertex_id_vgpr = Some(parse_reg(v, true).map_err(|e| field("vertex_id_vgpr", e))?);
    }
    if let Some(v) = &m.instance_id_vgpr {
        abi.instance_id_vgpr = Some(parse_reg(v, true).map_err(|e| field("instance_id_vgpr", e))?);
    }

    if stage == Stage::Ps {
        if let Some(regs) = &m.entry_vgprs {
            abi.ps_input_ena = ps_input_ena(regs).map_err(|e| field("entry_vgprs", e))?;
        }
    }

    crate::meta::check_abi(&abi).map_err(|e| field("instance_id_vgpr", e))?;

    let compute = if stage == Stage::Cs {
        compute_entry(path, &abi, m.entry_sgprs.as_deref().unwrap_or(&[]))
    } else {
        None
    };

    if let Some(recorded) = m.code_checks.as_ref().and_then(|c| c.code_bin_bytes) {
        if recorded != code_len as u64 {
            notes.push(Note::LengthMismatch {
                recorded,
                actual: code_len,
            });
        }
    }

    let mut provenance = BTreeMap::new();
    provenance.insert("form".to_string(), "radv-corpus".to_string());
    provenance.insert("aco_stage".to_string(), m.aco_stage.clone());
    for (k, v) in [
        ("name", m.name),
        ("driver", m.driver),
        ("config", m.config_description),
        ("family", m.family),
        ("source", m.source_original),
        ("pipeline", m.pipeline),
    ] {
        if let Some(v) = v {
            provenance.insert(k.to_string(), v);
        }
    }

    Ok(Meta {
        version: META_VERSION,
        target,
        stage,
        wave_size: m.wave_size,
        abi,
        user_data: None,
        provenance,
        compute,
    })
}

/// A compute capture's entry state: the user SGPRs end at the ABI's last
/// user-data SGPR, the workgroup ids are the named `workgroup_id_*` SGPRs
/// (consecutive after them, as the hardware loads them), the local ids
/// `v0..v2` (gfx10), and the workgroup size comes from `nir.txt`
/// (`workgroup-size: x, y, z`) or the GLSL source beside `meta.json`
/// (`local_size_x = N`; a specialization constant at its default), and a
/// named `tg_size` SGPR right after the workgroup ids is TG_SIZE. `None`
/// when the size is not recorded (no source) or a register is not where
/// the hardware puts it.
fn compute_entry(
    meta_path: &Path,
    abi: &isa::Abi,
    regs: &[EntryReg],
) -> Option<translator::wave::ComputeEntry> {
    let user_sgprs = abi.user_data_sgpr.saturating_add(abi.user_data_count);
    let mut workgroup_id = [false; 3];
    let mut next = user_sgprs;
    for (k, name) in ["workgroup_id_x", "workgroup_id_y", "workgroup_id_z"]
        .iter()
        .enumerate()
    {
        if let Some(r) = regs.iter().find(|r| r.name == *name) {
            // The hardware puts them right after the user SGPRs, in order.
            if sgpr_range(&r.reg) != Some((next, 1)) {
                return None;
            }
            workgroup_id[k] = true;
            next += 1;
        }
    }
    // TG_SIZE follows the workgroup ids.
    let tg_size = match regs.iter().find(|r| r.name == "tg_size") {
        Some(r) if sgpr_range(&r.reg) == Some((next, 1)) => true,
        Some(_) => return None,
        None => false,
    };
    let dir = meta_path.parent()?;
    let size = std::fs::read_to_string(dir.join("nir.txt"))
        .ok()
        .and_then(|t| nir_workgroup_size(&t))
        .or_else(|| {
            let src = std::fs::read_to_string(dir.join("shader.comp")).ok()?;
            glsl_local_size(&src)
        })?;
    Some(translator::wave::ComputeEntry {
        workgroup_size: size,
        user_sgprs,
        workgroup_id,
        local_id_vgprs: 3,
        tg_size,
    })
}

/// `workgroup-size: 64, 1, 1` in a NIR listing.
fn nir_workgroup_size(text: &str) -> Option<[u32; 3]> {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("workgroup-size:"))?;
    let v: Vec<u32> = line
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// `layout(local_size_x = 8, local_size_y = 8) in;` in GLSL: literal sizes;
/// a missing component is 1, and so is a component given only as a
/// specialization constant (`local_size_x_id = N` without a literal: GLSL's
/// default). That default is the size only when the capture was compiled
/// with its specialization constants at their defaults, as the RADV
/// captures here are (the developer set's README says so); a capture
/// compiled otherwise must record its size (`nir.txt`, or the CLI's
/// `--workgroup-size`).
fn glsl_local_size(src: &str) -> Option<[u32; 3]> {
    let mut size = [1u32; 3];
    let mut found = false;
    for (k, key) in ["local_size_x", "local_size_y", "local_size_z"]
        .iter()
        .enumerate()
    {
        for (i, _) in src.match_indices(key) {
            let rest = &src[i + key.len()..];
            if rest.starts_with("_id") {
                found = true;
                continue;
            }
            let rest = rest.trim_start().strip_prefix('=')?.trim_start();
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            size[k] = digits.parse().ok()?;
            found = true;
        }
    }
    found.then_some(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glsl_workgroup_sizes_take_literals_and_specialization_defaults() {
        let s = "layout(local_size_x = 8, local_size_y = 8) in;";
        assert_eq!(glsl_local_size(s), Some([8, 8, 1]));
        // A specialization constant without a literal: GLSL's default, 1.
        assert_eq!(
            glsl_local_size("layout (local_size_x_id = 0) in;"),
            Some([1, 1, 1])
        );
        let s = "layout(local_size_x_id = 0, local_size_x = 64, local_size_y = 2) in;";
        assert_eq!(glsl_local_size(s), Some([64, 2, 1]));
        assert_eq!(glsl_local_size("void main() {}"), None);
    }

    #[test]
    fn sgpr_names_parse_as_ranges() {
        assert_eq!(sgpr_range("s8"), Some((8, 1)));
        assert_eq!(sgpr_range("s[0:1]"), Some((0, 2)));
        assert_eq!(sgpr_range("s[3:1]"), None);
        assert_eq!(sgpr_range("v5"), None);
        assert_eq!(sgpr_range("s"), None);
    }
}
