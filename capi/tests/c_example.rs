//! `examples/bind.c`, compiled with the system C compiler against the
//! staticlib (built by the test with `cargo build -p shaderlift-capi
//! --lib`, since `cargo test` links tests against the rlib), prints exactly what
//! `shaderlift bind` prints for the bundled corpus draws.
//!
//! The expected text comes from the CLI's own code (`shaderlift_cli::bind`:
//! `check_abi`, `bind_all`, `write_text`, the functions `shaderlift bind`
//! runs), so the two are compared in one process without building the
//! `shaderlift` binary.

use corpus::{Capture, CaptureOptions};
use drawbind::draws::DrawsFile;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// `target/<profile>`: this test binary lives in `target/<profile>/deps`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

/// What `shaderlift bind CAPTURE --draws DRAWS` prints.
fn shaderlift_bind(capture: &str, draws: &str) -> String {
    let root = root();
    let cap = Capture::open(root.join(capture), &CaptureOptions::default()).expect(capture);
    let text = std::fs::read_to_string(root.join(draws)).expect(draws);
    let file = DrawsFile::parse(&text).expect(draws);
    shaderlift_cli::bind::check_abi(&cap, &file).expect("a vertex shader");
    let trace = shaderlift_cli::trace::trace_capture(&cap);
    let report = shaderlift_cli::bind::bind_all(&trace, &cap, &file).expect("binds");
    let mut out = Vec::new();
    shaderlift_cli::bind::write_text(&mut out, &report).expect("writes");
    String::from_utf8(out).expect("UTF-8")
}

/// Compile `examples/bind.c` against the staticlib (once per run); the
/// executable's path.
fn build_example() -> PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(compile).clone()
}

fn compile() -> PathBuf {
    let dir = profile_dir();
    let lib = dir.join("libshaderlift_capi.a");
    // `cargo test` links tests against the rlib only, so build the
    // staticlib explicitly (quick when it is up to date), into this run's
    // target directory and profile.
    let target_dir = dir.parent().expect("target/<profile>");
    let mut build = Command::new(env!("CARGO"));
    build
        .args([
            "build",
            "--quiet",
            "-p",
            "shaderlift-capi",
            "--lib",
            "--target-dir",
        ])
        .arg(target_dir)
        .current_dir(root());
    if dir.file_name().is_some_and(|n| n == "release") {
        build.arg("--release");
    }
    let status = build.status().expect("run cargo build for the staticlib");
    assert!(
        status.success(),
        "cargo build -p shaderlift-capi --lib: {status}"
    );
    assert!(
        lib.exists(),
        "{} is missing after building the staticlib",
        lib.display()
    );
    let out_dir = dir.join("capi-example");
    std::fs::create_dir_all(&out_dir).expect("output directory");
    let exe = out_dir.join("bind");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(manifest.join("include"))
        .arg(manifest.join("examples/bind.c"))
        .arg(&lib)
        .args(["-lm", "-lpthread", "-ldl", "-o"])
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(status.success(), "{cc} failed on examples/bind.c: {status}");
    exe
}

#[test]
fn c_example_prints_what_shaderlift_bind_prints_for_cube_and_instanced() {
    let pairs = [
        ("corpus/radv/cube", "cli/tests/draws/cube.json"),
        ("corpus/radv/instanced", "cli/tests/draws/instanced.json"),
    ];
    let want: String = pairs.iter().map(|(c, d)| shaderlift_bind(c, d)).collect();
    assert!(
        want.contains("narrowed") && want.matches("draw ").count() >= 4,
        "the bundled draws bind several draws with narrowed ranges:\n{want}"
    );
    let exe = build_example();
    let out = Command::new(&exe)
        .current_dir(root())
        .args(pairs.iter().flat_map(|(c, d)| [*c, *d]))
        .output()
        .expect("run the C example");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bind.c failed: {stderr}");
    let got = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(got, want, "bind.c and shaderlift bind differ");
}

#[test]
fn c_example_reports_a_missing_capture_with_the_status_text_and_detail() {
    let exe = build_example();
    let out = Command::new(&exe)
        .current_dir(root())
        .args(["no/such/capture", "cli/tests/draws/cube.json"])
        .output()
        .expect("run the C example");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the capture cannot be read") && stderr.contains("no/such/capture"),
        "{stderr}"
    );
}

#[test]
fn header_compiles_as_cpp_with_typed_enums() {
    let dir = profile_dir().join("capi-example");
    std::fs::create_dir_all(&dir).expect("output directory");
    let src = dir.join("header_check.cpp");
    std::fs::write(
        &src,
        r#"#include "shaderlift.h"
static_assert(sizeof(shaderlift_draw_kind) == 4, "uint32_t-based enums");
static_assert(sizeof(shaderlift_chunk) == 8, "two uint32_t");
int check(const shaderlift_plan *plan, const shaderlift_draw *draw) {
    shaderlift_range out[4];
    size_t n = 0;
    shaderlift_draw d = *draw;
    d.kind = SHADERLIFT_DRAW_KIND_INDEXED;
    d.index_format = SHADERLIFT_INDEX_FORMAT_U16;
    shaderlift_status s = shaderlift_bind(plan, &d, nullptr, 0, shaderlift_draws_read, nullptr,
                                          out, 4, &n);
    return s == SHADERLIFT_STATUS_OK ? static_cast<int>(out[0].reason) : -1;
}
"#,
    )
    .expect("write the C++ file");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let status = Command::new(&cxx)
        .args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            "-I",
        ])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("include"))
        .arg(&src)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C++ compiler `{cxx}`: {e}"));
    assert!(status.success(), "{cxx} rejected shaderlift.h: {status}");
}
