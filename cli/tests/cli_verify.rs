//! `shaderlift verify`, run as a process: the report, its last line, exit
//! codes and messages.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shaderlift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("run shaderlift")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

const DRAWS: &str = "cli/tests/fixtures/verify-cube.json";

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn verify_prints_bindings_per_draw_and_ends_with_the_count_line() {
    let o = shaderlift(&[
        "verify",
        "corpus/radv/cube",
        "--abi",
        "ngg",
        "--draws",
        DRAWS,
    ]);
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().last(), Some("3 draws, 0 violations"));
    insta::assert_snapshot!(out);
}

#[test]
fn verify_json_lists_draws_bindings_and_totals() {
    let o = shaderlift(&[
        "verify",
        "corpus/radv/cube-nggc",
        "--abi",
        "ngg",
        "--draws",
        DRAWS,
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["violations"], 0);
    assert_eq!(v["unverified"], 0);
    let d = &v["draws"][0];
    assert_eq!(d["bindings"][0]["source"], "table(ud0)+0x0");
    assert_eq!(
        d["bindings"][0]["narrowed"], true,
        "the culling shader's slot 0 is bound through LDS; verify honours the contract"
    );
    assert!(d["bindings"][0]["fetches"].as_u64().unwrap() > 0);
    assert!(d["violations"].as_array().unwrap().is_empty());
    // Without the contract the plan keeps the baseline, for that reason.
    let o = shaderlift(&[
        "verify",
        "corpus/radv/cube-nggc",
        "--abi",
        "ngg",
        "--draws",
        DRAWS,
        "--json",
        "--no-lds-contract",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["violations"], 0);
    let b = &v["draws"][0]["bindings"][0];
    assert_eq!(b["narrowed"], false);
    assert_eq!(b["reason"], "lds-contract");
}

#[test]
fn a_draw_that_cannot_be_checked_fails_with_exit_code_1() {
    // The table is not in memory: drawbind cannot read the descriptor.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_verify");
    fs::create_dir_all(&dir).unwrap();
    let p = dir.join("no-table.json");
    fs::write(
        &p,
        r#"{"user_data": [4096, 0, 8192], "draws": [{"kind": "auto", "vertex_count": 3}]}"#,
    )
    .unwrap();
    let o = shaderlift(&[
        "verify",
        "corpus/radv/cube",
        "--abi",
        "ngg",
        "--draws",
        p.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("not checked: bind: guest memory at 0x800000001000"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("1 draws, 0 violations"));
}

#[test]
fn verify_refuses_shaders_without_vertex_work() {
    let o = shaderlift(&["verify", "corpus/radv/fragment-color", "--draws", DRAWS]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("vertex"), "{err}");
}
