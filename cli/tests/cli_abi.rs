//! One stage and ABI resolution for every subcommand: an `--abi` preset
//! alone selects its stage everywhere, contradictory flags are usage
//! errors (exit 2), an impossible ABI is refused, and `corpus` applies its
//! flags only to captures without metadata.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn shaderlift<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run shaderlift")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_abi")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const LEGACY_CODE: &str = "corpus/radv/cube-legacy-vs/code.bin";
const DRAWS: &str = "cli/tests/draws/cube.json";

#[test]
fn an_abi_preset_alone_selects_its_stage_in_trace_bind_and_verify() {
    for cmd in [
        vec!["trace", LEGACY_CODE, "--json"],
        vec!["bind", LEGACY_CODE, "--draws", DRAWS, "--json"],
        vec!["verify", LEGACY_CODE, "--draws", DRAWS, "--json"],
    ] {
        let mut alone = cmd.clone();
        alone.extend(["--abi", "legacy-vs"]);
        let mut both = alone.clone();
        both.extend(["--stage", "vs"]);
        let (a, b) = (shaderlift(&alone), shaderlift(&both));
        assert_eq!(b.status.code(), Some(0), "{}", text(&b));
        assert_eq!(a.status.code(), Some(0), "{}", text(&a));
        assert_eq!(
            String::from_utf8_lossy(&a.stdout),
            String::from_utf8_lossy(&b.stdout),
            "`{}` with --abi legacy-vs alone runs another model",
            cmd[0]
        );
    }
}

#[test]
fn an_abi_preset_of_another_stage_than_stage_is_a_usage_error() {
    for cmd in [
        vec!["trace", LEGACY_CODE, "--abi", "legacy-vs", "--stage", "ngg"],
        vec![
            "verify",
            LEGACY_CODE,
            "--draws",
            DRAWS,
            "--abi",
            "ngg",
            "--stage",
            "vs",
        ],
        vec!["corpus", "corpus/radv/cube", "--abi", "ps", "--stage", "cs"],
    ] {
        let o = shaderlift(&cmd);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--stage"),
            "{}",
            text(&o)
        );
    }
}

#[test]
fn the_vertex_id_and_the_instance_id_in_one_vgpr_are_refused() {
    // Two flags naming one VGPR, and one flag landing on the preset's
    // other id: usage errors.
    for extra in [
        &["--vertex-id-vgpr", "v4", "--instance-id-vgpr", "v4"][..],
        &["--abi", "ngg", "--vertex-id-vgpr", "v8"][..],
    ] {
        let mut cmd = vec!["trace", LEGACY_CODE];
        cmd.extend(extra);
        let o = shaderlift(&cmd);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("v8")
                || String::from_utf8_lossy(&o.stderr).contains("v4"),
            "{}",
            text(&o)
        );
    }
    // A capture whose own metadata does it: bad input.
    let d = scratch("same-vgpr");
    std::fs::copy(repo().join(LEGACY_CODE), d.join("code.bin")).unwrap();
    std::fs::write(
        d.join("meta.json"),
        r#"{"target":"gfx1030","stage":"vs","wave_size":64,
            "abi":{"user_data_sgpr":"s2","vertex_id_vgpr":"v0","instance_id_vgpr":"v0"}}"#,
    )
    .unwrap();
    let o = shaderlift(&[Path::new("trace"), &d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cannot both be in v0"),
        "{}",
        text(&o)
    );
}

#[test]
fn corpus_flags_apply_only_to_captures_without_metadata() {
    // A capture with metadata keeps its own stage and ABI: the rows with
    // and without --abi legacy-vs are the same.
    let plain = shaderlift(&["corpus", "corpus/radv/cube", "--json"]);
    let flagged = shaderlift(&["corpus", "corpus/radv/cube", "--json", "--abi", "legacy-vs"]);
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain));
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        String::from_utf8_lossy(&flagged.stdout),
        "{}",
        text(&flagged)
    );
    // Raw code takes them; --stage vs alone gives the legacy-VS ABI.
    let d = scratch("corpus-raw");
    std::fs::copy(repo().join(LEGACY_CODE), d.join("legacy.bin")).unwrap();
    for flags in [&["--stage", "vs"][..], &["--abi", "legacy-vs"][..]] {
        let mut cmd: Vec<std::ffi::OsString> = vec!["corpus".into(), d.clone().into()];
        cmd.push("--json".into());
        cmd.extend(flags.iter().map(|s| s.into()));
        let o = shaderlift(&cmd);
        assert_eq!(o.status.code(), Some(0), "{flags:?}: {}", text(&o));
        let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(rows[0]["stage"], "vs", "{flags:?}: {}", text(&o));
        assert_eq!(
            rows[0]["descriptors"][0]["bound"],
            "vertex_id + ud1",
            "{flags:?}: {}",
            text(&o)
        );
    }
}
