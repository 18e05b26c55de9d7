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
