//! `shaderlift corpus`, run as a process: the main job a new user runs
//! first.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn shaderlift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run shaderlift")
}

fn json_rows(o: &Output) -> Vec<Value> {
    let v: Value = serde_json::from_slice(&o.stdout).expect("--json prints JSON");
    v.as_array().expect("an array of rows").clone()
}

#[test]
fn bundled_corpus_reports_every_shader_with_no_violation() {
    let o = shaderlift(&["corpus", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = json_rows(&o);
    assert_eq!(rows.len(), 13, "one row per bundled capture");
    let mut vertex = 0;
    for r in &rows {
        let name = r["name"].as_str().unwrap();
        assert_eq!(r["failed"], false, "{name}: {}", r["error"]);
        if matches!(r["stage"].as_str(), Some("ngg" | "vs")) {
            vertex += 1;
            assert_eq!(r["violations"], 0, "{name}");
            assert_eq!(r["unverified"], 0, "{name}");
            assert!(
                r["draws"].as_u64().unwrap() >= 4,
                "{name}: the standard draws"
            );
        }
    }
    assert_eq!(vertex, 10);
}

/// The corpus rows give the same bound/unbound verdicts as `shaderlift
/// trace` (whose output the tracing snapshots pin).
#[test]
fn corpus_verdicts_equal_the_tracer_verdicts() {
    let rows = json_rows(&shaderlift(&["corpus", "--json"]));
    for r in &rows {
        let name = r["name"].as_str().unwrap();
        let t = shaderlift(&["trace", "--json", &format!("corpus/radv/{name}")]);
        assert_eq!(t.status.code(), Some(0));
        let trace: Value = serde_json::from_slice(&t.stdout).unwrap();
        let want: Vec<(String, bool, Value)> = trace["descriptors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["source"].as_str().unwrap().to_string(),
                    d["bound"].is_null(),
                    d["reason"].clone(),
                )
            })
            .collect();
        let got: Vec<(String, bool, Value)> = r["descriptors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["source"].as_str().unwrap().to_string(),
                    d["bound"].is_null(),
                    d["reason"].clone(),
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

/// Vertex bindings of the non-culling shaders narrow on the standard draws,
/// and the table names them.
#[test]
fn corpus_table_shows_narrowing_and_a_totals_line() {
    let o = shaderlift(&["corpus"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    let cube = out
        .lines()
        .find(|l| l.starts_with("cube "))
        .expect("a cube row");
    assert!(cube.contains("narrowed"), "{cube}");
    assert!(cube.contains("ok (naga"), "{cube}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("13 shaders:") && last.contains("0 violations"),
        "{last}"
    );
    assert!(
        o.stderr.is_empty(),
        "no progress bar when not on a terminal"
    );
}

/// A corrupt capture is one failed row with a clear reason; the run goes
/// on, the other rows are printed, and the exit status says it failed.
#[test]
fn corrupt_captures_fail_their_own_row_only() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus_corrupt");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    // A good capture.
    let good = dir.join("a-good");
    fs::create_dir_all(&good).unwrap();
    for f in ["code.bin", "meta.json"] {
        fs::copy(root().join("corpus/radv/cube").join(f), good.join(f)).unwrap();
    }
    // Bad metadata JSON.
    let bad_json = dir.join("b-bad-json");
    fs::create_dir_all(&bad_json).unwrap();
    fs::copy(
        root().join("corpus/radv/cube/code.bin"),
        bad_json.join("code.bin"),
    )
    .unwrap();
    fs::write(bad_json.join("meta.json"), "{ \"stage\": ").unwrap();
    // Wrong ABI.
    let bad_abi = dir.join("c-bad-abi");
    fs::create_dir_all(&bad_abi).unwrap();
    fs::copy(
        root().join("corpus/radv/cube/code.bin"),
        bad_abi.join("code.bin"),
    )
    .unwrap();
    fs::write(
        bad_abi.join("meta.json"),
        r#"{"version": 1, "target": "gfx1030", "stage": "ngg", "wave_size": 64, "abi": "bogus"}"#,
    )
    .unwrap();
    // Truncated code: cut inside the 64-bit instruction at offset 4.
    let cube = fs::read(root().join("corpus/radv/cube/code.bin")).unwrap();
    fs::write(dir.join("d-truncated.bin"), &cube[..6]).unwrap();

    let o = shaderlift(&["corpus", "--json", dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = json_rows(&o);
    let by_name = |n: &str| {
        rows.iter()
            .find(|r| r["name"] == n)
            .unwrap_or_else(|| panic!("row {n}"))
    };
    assert_eq!(by_name("a-good")["failed"], false);
    for n in ["b-bad-json", "c-bad-abi"] {
        let r = by_name(n);
        assert_eq!(r["failed"], true, "{n}");
        assert!(
            r["error"].as_str().unwrap().contains("meta.json"),
            "{n}: {}",
            r["error"]
        );
    }
    let t = by_name("d-truncated.bin");
    assert!(
        t["invalid"].as_u64().unwrap() > 0,
        "the cut instruction is reported as undecodable"
    );

    // The text form keeps the good row and names the failures.
    let o = shaderlift(&["corpus", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.lines()
            .any(|l| l.starts_with("a-good") && !l.contains("FAILED")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("b-bad-json") && l.contains("FAILED")),
        "{out}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("failed"));
}

/// `--run` executes every translated vertex shader (and the pixel shader
/// `fragment-color`, over its own scene) on the Vulkan device (lavapipe in
/// CI) and its exports equal the interpreter's.
#[test]
fn corpus_run_matches_the_interpreter_on_the_device() {
    let o = shaderlift(&["corpus", "--json", "--run"]);
    let rows = json_rows(&o);
    // Compute shaders translate too, but `--run` runs vertex shaders (their
    // dispatches are `shaderlift run`'s, `tests/run_dispatch.rs`).
    // The culling shaders translate as the NGG compute pass and run as it
    // on the same synthesized scene (its split and indexed draws named as
    // not modelled).
    let ran: Vec<&Value> = rows
        .iter()
        .filter(|r| r["translate"].as_str().unwrap_or("").starts_with("ok"))
        .filter(|r| r["stage"] != "cs")
        .collect();
    assert_eq!(ran.len(), 11);
    if ran[0]["run"].as_str().unwrap_or("").starts_with("skipped") {
        assert!(
            std::env::var_os("SHADERLIFT_REQUIRE_VULKAN").is_none(),
            "no Vulkan device: {}",
            ran[0]["run"]
        );
        // A run without a device is a failure, not a pass.
        assert_eq!(o.status.code(), Some(1));
        eprintln!("note: no Vulkan device; corpus --run not checked");
        return;
    }
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut ngg = 0;
    for r in ran {
        let run = r["run"].as_str().unwrap();
        if run.contains("(NGG compute pass") {
            ngg += 1;
            assert!(
                run.contains("vertices, 0 mismatches (NGG compute pass"),
                "{}: {run}",
                r["name"]
            );
            continue;
        }
        assert!(
            run.ends_with("vertices, 0 mismatches") || run.ends_with("pixels, 0 mismatches"),
            "{}: {run}",
            r["name"]
        );
    }
    assert_eq!(
        ngg, 4,
        "the four culling shaders run as the NGG compute pass"
    );
}

/// No Vulkan device (the loader pointed at no driver): `--run` fails the
/// rows it could not run, unless `--allow-skip`; both say so.
#[test]
fn corpus_run_without_a_device_fails_unless_allow_skip() {
    let run = |extra: &[&str]| {
        let mut cmd = vec!["corpus", "corpus/radv/cube", "--json", "--run"];
        cmd.extend(extra);
        Command::new(env!("CARGO_BIN_EXE_shaderlift"))
            .args(&cmd)
            .current_dir(root())
            .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
            .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
            .output()
            .expect("run shaderlift")
    };
    let o = run(&[]);
    let rows = json_rows(&o);
    assert!(rows[0]["run"]
        .as_str()
        .unwrap()
        .starts_with("skipped: no Vulkan device"));
    assert_eq!(rows[0]["failed"], true, "{:?}", rows[0]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["--allow-skip"]);
    let rows = json_rows(&o);
    assert!(rows[0]["run"]
        .as_str()
        .unwrap()
        .starts_with("skipped: no Vulkan device"));
    assert_eq!(rows[0]["failed"], false, "{:?}", rows[0]);
    assert_eq!(o.status.code(), Some(0));
}

/// A draw the interpreter could not check completely (here: a buffer load
/// at a VGPR offset the hardware never wrote) is not counted as verified,
/// and fails its row as it fails `shaderlift verify`.
#[test]
fn corpus_summary_counts_unverified_draws_apart() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus_unverified");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let code: Vec<u8> = [
        0xf4080101u32,
        0xfa000000, // s_load_dwordx4 s[4:7], s[2:3], 0x0
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0xe0301000,
        0x8001010a, // buffer_load_dword v1, v10, s[4:7], 0 offen
        0xbf8c3f70, // s_waitcnt vmcnt(0)
        0xf80008cf,
        0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ]
    .iter()
    .flat_map(|w| w.to_le_bytes())
    .collect();
    fs::write(dir.join("undefined-offset.bin"), code).unwrap();
    let o = shaderlift(&["corpus", dir.to_str().unwrap(), "--stage", "vs"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("1 shaders: 0 draws verified, 4 not verified"),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
}
