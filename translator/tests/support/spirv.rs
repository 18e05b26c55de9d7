//! Checks on translated SPIR-V modules shared by the translator's
//! integration tests: running spirv-val on a module (skipped, not failed,
//! where spirv-val is not installed) and counting one opcode in the
//! functions' bodies.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where spirv-val is: `/usr/bin/spirv-val`, else the first one on `PATH`.
pub fn spirv_val_tool() -> Option<PathBuf> {
    let usr = Path::new("/usr/bin/spirv-val");
    if usr.exists() {
        return Some(usr.into());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("spirv-val"))
            .find(|p| p.exists())
    })
}

/// Run spirv-val (Vulkan 1.1 rules) on a module written to
/// `$CARGO_TARGET_TMPDIR/<subdir>/<name>.spv`; `None` (with a note naming
/// `name`) when spirv-val is not installed, else its verdict with its
/// output as the error.
pub fn spirv_val(subdir: &str, name: &str, words: &[u32]) -> Option<Result<(), String>> {
    let Some(tool) = spirv_val_tool() else {
        eprintln!("note: spirv-val is not installed; skipping its check of {name}");
        return None;
    };
    Some(spirv_val_with(&tool, subdir, name, words))
}

/// [`spirv_val`] with the tool already found.
pub fn spirv_val_with(tool: &Path, subdir: &str, name: &str, words: &[u32]) -> Result<(), String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(subdir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, bytes).unwrap();
    let out = Command::new(tool)
        .args(["--target-env", "vulkan1.1"])
        .arg(&p)
        .output()
        .expect("run spirv-val");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// How many instructions with opcode `op` the module's functions hold.
pub fn count_ops(words: &[u32], op: spirv::Op) -> usize {
    let module = rspirv::dr::load_words(words).expect("load our own module");
    module
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.instructions)
        .filter(|i| i.class.opcode == op)
        .count()
}
