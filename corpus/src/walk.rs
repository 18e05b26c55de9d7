//! Finding captures under a directory, and the bundled corpus.

use crate::error::CaptureError;
use crate::{Capture, CaptureOptions};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The directory of the bundled RADV/ACO corpus (`corpus/radv` in the
/// source tree).
pub fn bundled_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("radv")
}

/// Every capture of the bundled corpus, in [`find_captures`] order, read
/// with default options.
pub fn bundled() -> Result<Vec<Capture>, CaptureError> {
    find_captures(bundled_root())?
        .into_iter()
        .map(|p| Capture::open(p, &CaptureOptions::default()))
        .collect()
}

/// Every capture under `root`, in a deterministic order (depth first,
/// entries sorted by file name byte-wise).
///
/// - A directory holding both `code.bin` and `meta.json` is one capture;
///   the walk does not look inside it.
/// - A file starting with the ELF magic is a capture (ELF form or code
///   object), whatever its name.
/// - Any other file named `*.bin` is a capture of raw code.
///
/// Names starting with `.` are skipped, and symbolic links to directories
/// are not followed. `root` itself may be a capture.
pub fn find_captures(root: impl AsRef<Path>) -> Result<Vec<PathBuf>, CaptureError> {
    let root = root.as_ref();
    let mut out = Vec::new();
    let md = fs::metadata(root).map_err(|source| CaptureError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    if md.is_dir() {
        if is_capture_dir(root) {
            out.push(root.to_path_buf());
        } else {
            walk(root, &mut out)?;
        }
    } else if is_capture_file(root) {
        out.push(root.to_path_buf());
    }
    Ok(out)
}

fn is_capture_dir(dir: &Path) -> bool {
    dir.join("code.bin").is_file() && dir.join("meta.json").is_file()
}

fn is_capture_file(path: &Path) -> bool {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"))
    {
        return true;
    }
    let mut magic = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && crate::elf::is_elf(&magic)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CaptureError> {
    let io = |source| CaptureError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries = Vec::new();
    for e in fs::read_dir(dir).map_err(io)? {
        let e = e.map_err(io)?;
        entries.push(e.path());
    }
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
        if hidden {
            continue;
        }
        let lmd = fs::symlink_metadata(&path).map_err(|source| CaptureError::Io {
            path: path.clone(),
            source,
        })?;
        if lmd.is_dir() {
            if is_capture_dir(&path) {
                out.push(path);
            } else {
                walk(&path, out)?;
            }
        } else if path.is_file() && is_capture_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}
