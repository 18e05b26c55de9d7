//! Input-driven sizes have documented limits with clear errors: code size
//! for the analysing subcommands, invocations per draw for `verify` and
//! `run`, and `corpus --jobs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_limits");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run the binary. Limits are pinned by their errors, never by timing
/// (the refusal comes before any work in size of the input).
fn shaderlift<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Output, ()) {
    let o = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run shaderlift");
    (o, ())
}

#[test]
fn code_past_16_mib_is_refused_by_every_analysing_subcommand() {
    let dir = scratch().join("big");
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.bin");
    // 17 MiB of s_nop 0.
    let nops: Vec<u8> = [0x00, 0x00, 0x80, 0xbf].repeat((17 << 20) / 4);
    std::fs::write(&big, nops).unwrap();
    let big = big.to_str().unwrap();
    for cmd in [
        vec!["trace", big],
        vec!["cfg", big],
        vec!["translate", big, "-o", "/dev/null"],
    ] {
        let (o, ()) = shaderlift(&cmd);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {err}");
        assert!(err.contains("16 MiB"), "{cmd:?}: {err}");
    }
    let (o, _) = shaderlift(&["corpus", dir.to_str().unwrap(), "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows[0]["failed"], true);
    assert!(rows[0]["error"].as_str().unwrap().contains("16 MiB"));
}

#[test]
fn a_draw_of_2_pow_32_minus_1_vertices_is_refused_before_it_runs() {
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("cli/tests/draws/cube.json")).unwrap(),
    )
    .unwrap();
    for draw in [
        serde_json::json!({"kind": "auto", "vertex_count": 4294967295u32}),
        serde_json::json!({"kind": "auto", "vertex_count": 3, "instance_count": 4294967295u32}),
    ] {
        v["draws"] = serde_json::json!([draw]);
        let path = scratch().join("huge-draw.json");
        std::fs::write(&path, v.to_string()).unwrap();
        for cmd in ["verify", "run"] {
            let (o, ()) = shaderlift(&[
                cmd.as_ref(),
                "corpus/radv/cube".as_ref(),
                "--draws".as_ref(),
                path.as_os_str(),
            ]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{cmd} {draw}: {err}");
            assert!(err.contains("more than the limit"), "{cmd} {draw}: {err}");
        }
    }
}

#[test]
fn corpus_jobs_past_256_is_a_usage_error() {
    let (o, _) = shaderlift(&["corpus", "corpus/radv/cube", "--jobs", "100000"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (o, _) = shaderlift(&["corpus", "corpus/radv/cube", "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A DRAWS.json file with the cube's user data and memory and `draws`.
fn cube_draws_file(name: &str, draws: serde_json::Value) -> PathBuf {
    let text = std::fs::read_to_string(repo().join("cli/tests/draws/cube.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["draws"] = draws;
    let path = scratch().join(name);
    std::fs::write(&path, v.to_string()).unwrap();
    path
}

#[test]
fn bind_json_streams_one_line_per_draw() {
    let draw = serde_json::json!({"kind": "auto", "first_vertex": 3, "vertex_count": 36});
    let n = 5000;
    let path = cube_draws_file("many.json", serde_json::Value::Array(vec![draw; n]));
    let (o, ()) = shaderlift(&[
        "bind",
        "corpus/radv/cube",
        "--draws",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    // The document opens and closes on lines of its own, one draw per line
    // in between: written as each draw is bound, never held whole.
    assert_eq!(text.lines().count(), n + 2);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["draws"].as_array().unwrap().len(), n);
    assert_eq!(v["draws"][n - 1]["ranges"][0]["narrowed"], true);
    let path = cube_draws_file("none.json", serde_json::json!([]));
    let (o, ()) = shaderlift(&[
        "bind",
        "corpus/radv/cube",
        "--draws",
        path.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["draws"], serde_json::json!([]));
}

#[test]
fn bind_prints_nothing_when_a_later_draw_fails() {
    let ok = serde_json::json!({"kind": "auto", "vertex_count": 3});
    // An index buffer the file's memory does not hold.
    let bad = serde_json::json!({"kind": "indexed", "index_count": 4,
        "index_addr": "0x9000", "index_format": "u32"});
    let path = cube_draws_file("late-error.json", serde_json::json!([ok, ok, bad]));
    for json in [true, false] {
        let mut cmd = vec![
            "bind",
            "corpus/radv/cube",
            "--draws",
            path.to_str().unwrap(),
        ];
        if json {
            cmd.push("--json");
        }
        let (o, ()) = shaderlift(&cmd);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("draw 2: index buffer"), "{err}");
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

#[test]
fn bind_narrows_an_index_read_back_from_lds_only_under_the_contract() {
    let draw = serde_json::json!({"kind": "auto", "first_vertex": 0, "vertex_count": 36});
    let path = cube_draws_file("nggc.json", serde_json::json!([draw]));
    let run = |extra: &[&str]| {
        let mut cmd = vec![
            "bind",
            "corpus/radv/cube-nggc",
            "--draws",
            path.to_str().unwrap(),
            "--json",
        ];
        cmd.extend(extra);
        let (o, ()) = shaderlift(&cmd);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["draws"][0]["ranges"][0].clone()
    };
    let plain = run(&[]);
    assert_eq!(plain["reason"], "lds-contract");
    assert_eq!(plain["narrowed"], false);
    let honoured = run(&["--lds-contract"]);
    assert_eq!(honoured["narrowed"], true);
    assert!(honoured["size"].as_u64() < plain["size"].as_u64());
}
