//! `shaderlift translate`, run as a process.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_translate")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn translate_writes_the_module_and_its_manifest_and_prints_wgsl() {
    let d = out_dir("cube");
    let spv = d.join("cube.spv");
    let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(["translate", "corpus/radv/cube", "--wgsl", "-o"])
        .arg(&spv)
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let wgsl = String::from_utf8(out.stdout).unwrap();
    assert!(wgsl.contains("@vertex"), "{wgsl}");
    assert!(wgsl.contains("@builtin(position)"), "{wgsl}");
    let words = std::fs::read(&spv).unwrap();
    assert_eq!(&words[..4], &0x0723_0203u32.to_le_bytes());
    let manifest = std::fs::read_to_string(d.join("cube.spv.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["spirv"], "1.3");
    assert!(v["bindings"].as_array().unwrap().len() >= 2);
}

#[test]
fn an_untranslatable_shader_lists_its_constructs_and_exits_1() {
    // A legacy vertex shader writing the LDS (`ds_write_b32 v0, v1
    // offset:12; s_endpgm`): no execution model of a vertex stage has it.
    let d = out_dir("lds-vs");
    let code = d.join("lds.bin");
    std::fs::write(
        &code,
        [
            0x0c, 0x00, 0x34, 0xd8, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x81, 0xbf,
        ],
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(["translate", "--stage", "vs"])
        .arg(&code)
        .arg("-o")
        .arg(d.join("x.spv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsupported construct(s)"), "{err}");
    assert!(err.contains("pc 0x0000: ds_write_b32"), "{err}");
    assert!(!d.join("x.spv").exists());
}

#[test]
fn translate_of_garbage_is_an_error_not_a_panic() {
    let d = out_dir("garbage");
    let g = d.join("garbage.bin");
    std::fs::write(&g, [0xffu8; 12]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(["translate"])
        .arg(&g)
        .arg("-o")
        .arg(d.join("g.spv"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn translate_in(dir: &Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .arg("translate")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn cube_dir() -> PathBuf {
    repo().join("corpus/radv/cube")
}

#[test]
fn translate_refuses_to_write_its_default_output_over_its_input() {
    let d = out_dir("over-input");
    let code = std::fs::read(cube_dir().join("code.bin")).unwrap();
    std::fs::write(d.join("x.spv"), &code).unwrap();
    let out = translate_in(&d, &["--raw".as_ref(), "x.spv".as_ref()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("is an input"));
    assert_eq!(std::fs::read(d.join("x.spv")).unwrap(), code, "input kept");
    // -o naming the input is refused too.
    let out = translate_in(
        &d,
        &[
            "--raw".as_ref(),
            "x.spv".as_ref(),
            "-o".as_ref(),
            "./x.spv".as_ref(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_failed_manifest_write_leaves_no_module_behind() {
    let d = out_dir("manifest-fails");
    let _ = std::fs::remove_file(d.join("m.spv"));
    // A directory where the manifest should go: it cannot be written.
    std::fs::create_dir_all(d.join("m.spv.json")).unwrap();
    let out = translate_in(
        &d,
        &[cube_dir().as_os_str(), "-o".as_ref(), "m.spv".as_ref()],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!d.join("m.spv").exists(), "the module was written alone");
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["m.spv.json"], "no temporary left");
}

#[test]
fn output_to_dev_null_writes_no_manifest_beside_it_and_manifest_names_one() {
    let d = out_dir("dev-null");
    let existed = Path::new("/dev/null.json").exists();
    let out = translate_in(
        &d,
        &[cube_dir().as_os_str(), "-o".as_ref(), "/dev/null".as_ref()],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no manifest"));
    if !existed {
        assert!(!Path::new("/dev/null.json").exists());
    }
    let out = translate_in(
        &d,
        &[
            cube_dir().as_os_str(),
            "-o".as_ref(),
            "/dev/null".as_ref(),
            "--manifest".as_ref(),
            "cube.json".as_ref(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let m = std::fs::read_to_string(d.join("cube.json")).unwrap();
    assert!(m.contains("\"bindings\""), "{m}");
}

/// Raw compute code carries no entry state; the compute entry flags supply
/// it, and then the translation is the one the capture directory (whose
/// metadata records the entry) gives. Missing or contradictory flags are
/// usage errors (exit 2), and without the flags raw compute code is refused.
#[test]
fn compute_entry_flags_translate_raw_compute_code_like_its_capture() {
    let d = out_dir("compute-entry");
    let run = |args: &[&str], out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_shaderlift"))
            .arg("translate")
            .args(args)
            .arg("-o")
            .arg(out)
            .current_dir(repo())
            .output()
            .unwrap()
    };
    let from_dir = d.join("dir.spv");
    let o = run(&["corpus/radv/compute"], &from_dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let raw = [
        "corpus/radv/compute/code.bin",
        "--raw",
        "--stage",
        "cs",
        "--workgroup-size",
        "64",
        "--workgroup-id-sgpr",
        "s5",
        "--workgroup-id",
        "x",
    ];
    let from_raw = d.join("raw.spv");
    let o = run(&raw, &from_raw);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&from_dir).unwrap(),
        std::fs::read(&from_raw).unwrap()
    );
    // Without the entry: refused (exit 1), naming what is missing.
    let o = run(&raw[..4], &d.join("none.spv"));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("entry state"));
    // Half an entry, a wrong stage, or flags that contradict the capture's
    // own metadata: usage errors.
    for args in [
        &raw[..6],
        &[
            "corpus/radv/cube",
            "--workgroup-size",
            "64",
            "--workgroup-id-sgpr",
            "s5",
        ][..],
        &[
            "corpus/radv/compute",
            "--workgroup-size",
            "32",
            "--workgroup-id-sgpr",
            "s5",
        ][..],
        &["corpus/radv/compute", "--workgroup-id", "zx"][..],
    ] {
        let o = run(args, &d.join("bad.spv"));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}
