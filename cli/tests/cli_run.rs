//! `shaderlift run`, as a process: the report, `--json`, `--checked`,
//! exit codes and messages. Skips (with a note) without Vulkan, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vkharness::Harness;

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

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const CUBE: &str = "cli/tests/draws/cube.json";

#[test]
fn run_prints_a_line_per_draw_and_the_total_and_exits_0_when_all_match() {
    if Harness::shared_or_skip("cli run").is_none() {
        return;
    }
    let out = shaderlift(&["run", "corpus/radv/cube", "--abi", "ngg", "--draws", CUBE]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.starts_with("device: llvmpipe"), "{stdout}");
    assert!(
        stdout.contains("draw 0: 36 vertices, 288 words, 0 mismatches"),
        "{stdout}"
    );
    assert!(stdout.contains("draw 2: 72 vertices"), "{stdout}");
    assert!(
        stdout.ends_with("\n208 vertices, 0 mismatches\n"),
        "{stdout}"
    );
}

#[test]
fn run_json_reports_every_draw_and_binding() {
    if Harness::shared_or_skip("cli run json").is_none() {
        return;
    }
    let out = shaderlift(&[
        "run",
        "corpus/radv/cube-legacy-vs",
        "--draws",
        CUBE,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["vertices"], 208);
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["checked"], false);
    let draws = v["draws"].as_array().unwrap();
    assert_eq!(draws.len(), 3);
    let b = &draws[1]["bindings"][0];
    assert_eq!(b["source"], "table(ud0)+0x0");
    assert_eq!(b["base"], 0x1_0000_0000u64);
    assert_eq!(b["narrowed"], true);
    // Vertex ids 5..=104 plus the base-vertex word 7, 32-byte records.
    assert_eq!(b["last_record"], 111);
    assert_eq!(b["size"], 112 * 32);
}

#[test]
fn run_checked_reports_violations_per_draw() {
    if Harness::shared_or_skip("cli run checked").is_none() {
        return;
    }
    let out = shaderlift(&["run", "corpus/radv/cube-w32", "--draws", CUBE, "--checked"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout.matches(", 0 violations\n").count(), 3, "{stdout}");
    let out = shaderlift(&[
        "run",
        "corpus/radv/cube-w32",
        "--draws",
        CUBE,
        "--checked",
        "--one-record-short",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("draw 0: 36 vertices, 288 words, 0 mismatches, 0 within 1 ulp, 0 undefined, 2 violations"), "{stdout}");
    assert!(stdout.contains("draw 2: 72 vertices, 576 words, 0 mismatches, 0 within 1 ulp, 0 undefined, 6 violations"), "{stdout}");
}

#[test]
fn indexed_draws_run_each_distinct_vertex_once_and_match_the_interpreter() {
    if Harness::shared_or_skip("cli run indexed").is_none() {
        return;
    }
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(repo_root().join(CUBE)).unwrap()).unwrap();
    // 16-bit indices from index 1: 2, 1, 0xffff (restart), 5, 6, 7, 1, 40;
    // the ids run are 1, 2, 5..=7 and 40 (three host draws).
    v["memory"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"addr": "0x9000", "words": ["0x00020063", "0xffff0001", "0x00060005", "0x00010007", "0x00000028"]}));
    v["draws"] = serde_json::json!([
        {"kind": "indexed", "index_count": 8, "first_index": 1, "index_addr": "0x9000",
         "index_format": "u16", "restart": "0xffff", "instance_count": 2},
        {"kind": "indexed", "index_count": 6},
        {"kind": "auto", "vertex_count": 3}
    ]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_run");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("indexed.json");
    fs::write(&path, v.to_string()).unwrap();
    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", path.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("draw 0: 12 vertices,"), "{stdout}");
    assert!(
        stdout
            .contains("draw 1: skipped: an indexed draw without index_addr has unknown vertex ids"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("\n15 vertices, 0 mismatches\n"),
        "{stdout}"
    );
}

#[test]
fn bad_devices_and_missing_files_exit_1_with_a_message() {
    if Harness::shared_or_skip("cli run errors").is_none() {
        return;
    }
    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", CUBE, "--device", "99"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("no Vulkan device 99"), "{err}");

    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", "no/such/draws.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("no/such/draws.json"), "{err}");

    let out = shaderlift(&["run", "corpus/radv/cube"]);
    assert_eq!(out.status.code(), Some(2), "--draws is required");

    // No guest memory: the vertex-buffer table cannot be read.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_run");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("no_memory.json");
    fs::write(
        &path,
        r#"{"user_data": [4096, 0, 8192], "draws": [{"kind": "auto", "vertex_count": 3}]}"#,
    )
    .unwrap();
    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("draw 0") && err.contains("0x800000001000"),
        "{err}"
    );
}

#[test]
fn untranslatable_shaders_exit_1_listing_what_is_unsupported() {
    if Harness::shared_or_skip("cli run compute").is_none() {
        return;
    }
    let out = shaderlift(&["run", "corpus/radv/compute", "--draws", CUBE]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("unsupported construct"), "{err}");
    assert!(err.contains("pc 0x"), "{err}");
}

/// A run whose draws are all skipped compared nothing: it fails and says
/// so, unless `--allow-skip`.
#[test]
fn a_run_that_compares_nothing_fails_unless_allow_skip() {
    if Harness::shared_or_skip("cli run nothing compared").is_none() {
        return;
    }
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(repo_root().join(CUBE)).unwrap()).unwrap();
    v["draws"] = serde_json::json!([{"kind": "indexed", "index_count": 6}]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_run");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("only-indexed.json");
    fs::write(&path, v.to_string()).unwrap();
    let draws = path.to_str().unwrap();
    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", draws]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("nothing was compared"), "{stdout}");
    assert!(
        text(&out.stderr).contains("--allow-skip"),
        "{}",
        text(&out.stderr)
    );
    let out = shaderlift(&["run", "corpus/radv/cube", "--draws", draws, "--allow-skip"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("nothing was compared"));
}
