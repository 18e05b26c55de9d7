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
/// - Any other file named `*.bin` is a capture of raw code, unless it
///   starts with a Vulkan pipeline-cache header (`pipeline_cache.bin` as
///   drivers and capture tools save it: a driver's cache, not shader code),
///   which the walk skips below `root`.
///
/// Names starting with `.` are skipped, and symbolic links to directories
/// are not followed. `root` itself may be a capture.
pub fn find_captures(root: impl AsRef<Path>) -> Result<Vec<PathBuf>, CaptureError> {
    walk_captures(root)?.into_iter().collect()
}

/// Like [`find_captures`], but a directory below `root` that cannot be
/// read (or an entry whose metadata cannot be read) is an `Err` item in
/// its place in the walk order, and the walk goes on. Only an unreadable
/// `root` is an error of the whole walk.
pub fn walk_captures(
    root: impl AsRef<Path>,
) -> Result<Vec<Result<PathBuf, CaptureError>>, CaptureError> {
    walk_captures_with(root.as_ref(), &read_dir_paths)
}

/// The entries of a directory, as paths.
fn read_dir_paths(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect()
}

/// [`walk_captures`] with the directory reader given (tests inject
/// failures: as root, no permission makes a directory unreadable).
fn walk_captures_with(
    root: &Path,
    read_dir: &dyn Fn(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> Result<Vec<Result<PathBuf, CaptureError>>, CaptureError> {
    let mut out = Vec::new();
    let md = fs::metadata(root).map_err(|source| CaptureError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    if md.is_dir() {
        if is_capture_dir(root) {
            out.push(Ok(root.to_path_buf()));
        } else {
            let entries = read_dir(root).map_err(|source| CaptureError::Io {
                path: root.to_path_buf(),
                source,
            })?;
            walk(entries, &mut out, read_dir);
        }
    } else if is_capture_file(root) {
        out.push(Ok(root.to_path_buf()));
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

fn walk(
    mut entries: Vec<PathBuf>,
    out: &mut Vec<Result<PathBuf, CaptureError>>,
    read_dir: &dyn Fn(&Path) -> std::io::Result<Vec<PathBuf>>,
) {
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
        if hidden {
            continue;
        }
        let lmd = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(source) => {
                out.push(Err(CaptureError::Io { path, source }));
                continue;
            }
        };
        if lmd.is_dir() {
            if is_capture_dir(&path) {
                out.push(Ok(path));
            } else {
                match read_dir(&path) {
                    Ok(entries) => walk(entries, out, read_dir),
                    Err(source) => out.push(Err(CaptureError::Io { path, source })),
                }
            }
        } else if path.is_file() && is_capture_file(&path) && !is_pipeline_cache(&path) {
            out.push(Ok(path));
        }
    }
}

/// Whether `path` starts with a `VkPipelineCacheHeaderVersionOne`: header
/// size (32 or more), header version 1, a PCI vendor id (16 bits, nonzero),
/// then the device id and the cache UUID. As raw gfx10 code those words
/// would be three VOP2 instructions; a capture of raw code that begins so
/// must be named directly instead of being found by a walk.
fn is_pipeline_cache(path: &Path) -> bool {
    let mut head = [0u8; 12];
    if fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_err()
    {
        return false;
    }
    let word = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    let (size, version, vendor) = (word(0), word(4), word(8));
    (32..=4096).contains(&size) && version == 1 && vendor != 0 && vendor <= 0xffff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_directory_is_an_item_of_the_walk_which_goes_on() {
        let root = std::env::temp_dir().join(format!("corpus-walk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for d in ["a", "b-locked", "c"] {
            fs::create_dir_all(root.join(d)).unwrap();
            fs::write(root.join(d).join("x.bin"), [0, 0, 0x81, 0xbf]).unwrap();
        }
        let locked = root.join("b-locked");
        let reader = |dir: &Path| {
            if dir == locked {
                Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied))
            } else {
                read_dir_paths(dir)
            }
        };
        let items = walk_captures_with(&root, &reader).unwrap();
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[0].as_ref().unwrap(), &root.join("a/x.bin"));
        let e = items[1].as_ref().unwrap_err().to_string();
        assert!(e.contains("b-locked"), "{e}");
        assert_eq!(items[2].as_ref().unwrap(), &root.join("c/x.bin"));
        // find_captures stays strict.
        assert_eq!(find_captures(&root).unwrap().len(), 3);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_vulkan_pipeline_cache_below_the_root_is_not_a_capture_but_raw_code_is() {
        let root = std::env::temp_dir().join(format!("corpus-cache-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        // VkPipelineCacheHeaderVersionOne: 32, version 1, AMD, device, UUID.
        let mut cache = vec![];
        for w in [32u32, 1, 0x1002, 0x73a0] {
            cache.extend_from_slice(&w.to_le_bytes());
        }
        cache.extend_from_slice(&[0x5a; 16 + 64]);
        fs::write(root.join("pipeline_cache.bin"), &cache).unwrap();
        // The same words with header version 2 are raw code again
        // (negative control of the version check).
        cache[4] = 2;
        fs::write(root.join("raw.bin"), &cache).unwrap();
        fs::write(root.join("s_endpgm.bin"), [0, 0, 0x81, 0xbf]).unwrap();
        let found = find_captures(&root).unwrap();
        assert_eq!(found, [root.join("raw.bin"), root.join("s_endpgm.bin")]);
        // Named directly, the file is still read (as raw code).
        assert_eq!(
            find_captures(root.join("pipeline_cache.bin"))
                .unwrap()
                .len(),
            1
        );
        let _ = fs::remove_dir_all(&root);
    }
}
