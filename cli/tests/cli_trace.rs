//! `shaderlift trace` and `shaderlift cfg`, run as a process.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shaderlift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap())
        .output()
        .expect("run shaderlift")
}

fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_trace");
    fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn trace_table_shows_the_bound_of_cube() {
    let o = shaderlift(&["trace", "corpus/radv/cube"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = stdout(&o);
    assert!(out.contains("table(ud0)+0x0"), "{out}");
    assert!(out.contains("vertex_id + ud1"), "{out}");
}

#[test]
fn trace_json_has_the_stable_field_names() {
    let o = shaderlift(&["trace", "corpus/radv/instanced", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let descs = v["descriptors"].as_array().expect("descriptors");
    let slot1 = descs
        .iter()
        .find(|d| d["source"] == "table(ud0)+0x10")
        .expect("slot 0x10");
    assert_eq!(slot1["bound"]["id"], "instance_id");
    assert_eq!(slot1["bound"]["plus"], "ud2");
    assert!(slot1["reason"].is_null());
    assert!(slot1["accesses"].as_array().is_some_and(|a| !a.is_empty()));
    assert!(v["accesses"].as_array().is_some_and(|a| !a.is_empty()));
}

#[test]
fn abi_legacy_vs_traces_raw_code_as_a_legacy_vs() {
    let code = fs::read("../corpus/radv/cube-legacy-vs/code.bin")
        .or_else(|_| fs::read("corpus/radv/cube-legacy-vs/code.bin"))
        .expect("code");
    let p = scratch_file("legacy.bin", &code);
    let o = shaderlift(&["trace", p.to_str().unwrap(), "--abi", "legacy-vs", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["descriptors"][0]["bound"]["id"], "vertex_id", "{v}");
}

#[test]
fn garbage_and_escaping_code_trace_to_notes_without_failing() {
    let garbage: Vec<u8> = (0..997u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let escaping = words(&[0xbf82_0100, 0xbf81_0000]); // s_branch 256; s_endpgm
    for (name, bytes) in [("garbage.bin", garbage), ("escape.bin", escaping)] {
        let p = scratch_file(name, &bytes);
        let o = shaderlift(&["trace", p.to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert!(
            v["notes"].as_array().is_some_and(|n| !n.is_empty()),
            "{name}: {v}"
        );
        for d in v["descriptors"].as_array().unwrap() {
            assert!(d["bound"].is_null(), "{name}: {d}");
        }
    }
}

#[test]
fn empty_code_is_a_clear_error() {
    let p = scratch_file("empty.bin", &[]);
    let o = shaderlift(&["trace", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty"));
}

#[test]
fn cfg_prints_blocks_and_dot() {
    let o = shaderlift(&["cfg", "corpus/radv/cube"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("b0"));
    let o = shaderlift(&["cfg", "corpus/radv/cube", "--dot"]);
    let dot = stdout(&o);
    assert!(
        dot.starts_with("digraph cfg {") && dot.contains("exec=0"),
        "{dot}"
    );
}
