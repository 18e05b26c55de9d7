//! Writing output files without losing data.
//!
//! Every file a subcommand writes goes through [`Staged`]: the bytes go to
//! a temporary file in the destination's own directory (so the rename
//! cannot cross file systems), and only when every output of the command
//! was written are they renamed over their destinations. A failure leaves
//! the old files untouched and removes the temporary ones. A destination
//! that exists and is not a regular file (`/dev/null`, a FIFO, a
//! terminal) is written in place: there is nothing to replace.
//!
//! No output may be one of the command's inputs ([`refuse_input`]).

use super::CliError;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Whether `path` names a regular file or nothing yet (a destination that
/// is replaced by a rename), rather than a device, FIFO or directory.
pub fn is_regular_destination(path: &Path) -> bool {
    match fs::metadata(path) {
        Ok(md) => md.is_file(),
        Err(_) => true,
    }
}

/// Refuse (as a usage error) an output that is one of the inputs. `what`
/// names the output in the message (`-o`, `the default output`, ...).
pub fn refuse_input(output: &Path, inputs: &[&Path], what: &str) -> Result<(), CliError> {
    let Ok(out) = fs::canonicalize(output) else {
        return Ok(()); // does not exist yet: it is no input
    };
    for input in inputs {
        if fs::canonicalize(input).is_ok_and(|i| i == out) {
            return Err(CliError::Usage(format!(
                "{what} {} is an input of this command; refusing to overwrite it (name another output with -o)",
                output.display()
            )));
        }
    }
    Ok(())
}

/// The files a capture at `path` is read from, for [`refuse_input`]: the
/// path itself, and for a capture directory its `code.bin` and `meta.json`.
pub fn capture_inputs(path: &Path) -> Vec<PathBuf> {
    let mut inputs = vec![path.to_path_buf()];
    if path.is_dir() {
        inputs.extend([path.join("code.bin"), path.join("meta.json")]);
    }
    inputs
}

/// Outputs written to temporary files, renamed over their destinations by
/// [`Staged::commit`]; dropping it uncommitted removes the temporaries.
#[derive(Debug, Default)]
pub struct Staged {
    /// (temporary, destination); `None` when written in place.
    files: Vec<(Option<PathBuf>, PathBuf)>,
}

impl Staged {
    /// Nothing staged yet.
    pub fn new() -> Staged {
        Staged::default()
    }

    /// Write one output with `write`, staged.
    pub fn write(
        &mut self,
        dest: &Path,
        write: impl FnOnce(&mut io::BufWriter<File>) -> io::Result<()>,
    ) -> Result<(), CliError> {
        let cannot =
            |e: io::Error| CliError::Input(format!("cannot write {}: {e}", dest.display()));
        if !is_regular_destination(dest) {
            let f = OpenOptions::new().write(true).open(dest).map_err(cannot)?;
            let mut w = io::BufWriter::new(f);
            write(&mut w).and_then(|_| w.flush()).map_err(cannot)?;
            self.files.push((None, dest.to_path_buf()));
            return Ok(());
        }
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        let tmp = dir.join(format!(
            ".{name}.shaderlift-{}-{}.tmp",
            std::process::id(),
            self.files.len()
        ));
        let f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(cannot)?;
        // Registered before writing, so a failure below removes it.
        self.files.push((Some(tmp), dest.to_path_buf()));
        let mut w = io::BufWriter::new(f);
        write(&mut w)
            .and_then(|_| w.flush())
            .and_then(|_| w.get_ref().sync_all())
            .map_err(cannot)
    }

    /// Write `bytes` to `dest`, staged.
    pub fn write_bytes(&mut self, dest: &Path, bytes: &[u8]) -> Result<(), CliError> {
        self.write(dest, |w| w.write_all(bytes))
    }

    /// Rename every staged file over its destination.
    pub fn commit(mut self) -> Result<(), CliError> {
        let files = std::mem::take(&mut self.files);
        let mut result = Ok(());
        for (tmp, dest) in files {
            let Some(tmp) = tmp else { continue };
            if result.is_ok() {
                if let Err(e) = fs::rename(&tmp, &dest) {
                    result = Err(CliError::Input(format!(
                        "cannot write {}: {e}",
                        dest.display()
                    )));
                }
            }
            let _ = fs::remove_file(&tmp);
        }
        result
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            if let Some(tmp) = tmp {
                let _ = fs::remove_file(tmp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("shaderlift-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failed_write_leaves_the_old_files_and_no_temporary() {
        let d = scratch("fail");
        let (a, b) = (d.join("a.spv"), d.join("b.json"));
        fs::write(&a, "old a").unwrap();
        fs::write(&b, "old b").unwrap();
        let mut s = Staged::new();
        s.write_bytes(&a, b"new a").unwrap();
        let e = s.write(&b, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(e.is_err());
        drop(s);
        assert_eq!(fs::read_to_string(&a).unwrap(), "old a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "old b");
        assert_eq!(entries(&d), ["a.spv", "b.json"]);
        // Committed: both replaced, no temporary left.
        let mut s = Staged::new();
        s.write_bytes(&a, b"new a").unwrap();
        s.write_bytes(&b, b"new b").unwrap();
        s.commit().unwrap();
        assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(entries(&d), ["a.spv", "b.json"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn an_output_that_is_an_input_is_a_usage_error() {
        let d = scratch("input");
        let x = d.join("x.spv");
        fs::write(&x, "code").unwrap();
        let e = refuse_input(&d.join(".").join("x.spv"), &[&x], "-o").unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        refuse_input(&d.join("y.spv"), &[&x], "-o").unwrap();
        let _ = fs::remove_dir_all(&d);
    }
}
