//! `shaderlift replay --stream`, run as a process, on hostile streams:
//! errors with a message, never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

fn stream(name: &str, text: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_replay");
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_stream_writing_or_mapping_past_the_address_space_is_an_error_not_a_panic() {
    for (name, text, want) in [
        (
            "write-top.jsonl",
            r#"{"kind":"write","addr":"0xfffffffffffffffc","words":[1,2]}"#,
            "past the end of the 64-bit address space",
        ),
        (
            "map-all.jsonl",
            r#"{"kind":"map","addr":0,"bytes":18446744073709551615}"#,
            "past the limit",
        ),
    ] {
        let p = stream(name, text);
        let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
            .args(["replay", "--stream"])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
    }
}

fn replay_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .arg("replay")
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap())
        .output()
        .expect("run shaderlift");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn replay_shader_puts_the_ring_through_that_shaders_plan() {
    let ring = ["--scenario", "mesa-ring", "--draws", "30", "--json"];
    let with = |shader: &str| replay_json(&[&ring[..], &["--shader", shader]].concat());
    let builtin = replay_json(&ring);
    let cube = with("corpus/radv/cube");
    // The built-in shader is corpus/radv/cube: the same figures.
    for run in ["baseline", "narrowed"] {
        assert_eq!(
            builtin[run]["bytes_copied"], cube[run]["bytes_copied"],
            "{run}"
        );
    }
    assert!(cube["narrowed"]["bytes_copied"].as_u64() < cube["baseline"]["bytes_copied"].as_u64());
    // The culling cube reads its vertex ids back from LDS: without the
    // initialisation contract the plan keeps the baseline range; with it,
    // the culling cube narrows exactly like the plain cube.
    let culling = with("corpus/radv/cube-nggc");
    assert_eq!(
        culling["baseline"]["bytes_copied"],
        cube["baseline"]["bytes_copied"]
    );
    assert_eq!(
        culling["narrowed"]["bytes_copied"],
        culling["baseline"]["bytes_copied"]
    );
    let contract = replay_json(
        &[
            &ring[..],
            &["--shader", "corpus/radv/cube-nggc", "--lds-contract"],
        ]
        .concat(),
    );
    assert_eq!(
        contract["narrowed"]["bytes_copied"],
        cube["narrowed"]["bytes_copied"]
    );
    assert_eq!(
        contract["narrowed"]["steady_hits"],
        cube["narrowed"]["steady_hits"]
    );
}

#[test]
fn replay_shader_refuses_a_fragment_shader_with_a_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args([
            "replay",
            "--scenario",
            "mesa-ring",
            "--shader",
            "corpus/radv/fragment-color",
        ])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap())
        .output()
        .expect("run shaderlift");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("needs a vertex or primitive shader"), "{err}");
}
