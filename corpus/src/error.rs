//! Errors and notes produced while reading and writing captures.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a capture could not be read or written.
///
/// Every variant names the file it is about; where the problem has a
/// position (a JSON line and column, an ELF field) the message gives it too.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureError {
    /// The file or directory could not be read (missing, permissions, ...).
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating-system error.
        #[source]
        source: io::Error,
    },
    /// A capture directory lacks one of its files.
    #[error("{dir}: capture directory has no {file}")]
    MissingFile {
        /// The capture directory.
        dir: PathBuf,
        /// The missing file's name (`code.bin`, `meta.json`).
        file: &'static str,
    },
    /// The code is empty: there is nothing to analyse.
    #[error("{}: the shader code is empty (0 bytes)", loc(path, where_))]
    EmptyCode {
        /// The file.
        path: PathBuf,
        /// Where in the file the code was looked for (`section .text`), or
        /// empty when the whole file is the code.
        where_: String,
    },
    /// The metadata JSON does not parse, or holds a value of the wrong type
    /// or out of range.
    #[error("{}: line {line}, column {column}: {message}", loc(path, where_))]
    Json {
        /// The file.
        path: PathBuf,
        /// Which part of the file holds the JSON (`section
        /// .shaderlift.meta`), or empty when the whole file is JSON.
        where_: String,
        /// 1-based line of the error in that document (0 if unknown).
        line: usize,
        /// 1-based column of the error (0 if unknown).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The metadata parses but one field's value makes no sense.
    #[error("{}: field `{field}`: {message}", loc(path, where_))]
    BadField {
        /// The file.
        path: PathBuf,
        /// Which part of the file holds the JSON, or empty.
        where_: String,
        /// The field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The file starts like an ELF file but is not a well-formed one.
    #[error("{path}: malformed ELF file: {message}")]
    BadElf {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the offset or field where known.
        message: String,
    },
    /// A well-formed ELF file that is not an AMDGPU capture.
    #[error("{path}: not an AMDGPU ELF capture: {message}")]
    NotAmdgpu {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        message: String,
    },
    /// The ELF file names a GPU this crate does not decode.
    #[error(
        "{path}: ELF e_flags {e_flags:#x}: EF_AMDGPU_MACH {mach:#x} ({name}) is not a supported \
         target (gfx1010, gfx1013, gfx1030); pass a target explicitly to force one"
    )]
    UnsupportedMach {
        /// The file.
        path: PathBuf,
        /// The whole `e_flags` word.
        e_flags: u32,
        /// Its `EF_AMDGPU_MACH` field.
        mach: u32,
        /// The LLVM name of that machine, or `unknown`.
        name: &'static str,
    },
    /// Two sources in one file disagree (for example the ELF header's
    /// target and the metadata's).
    #[error("{path}: inconsistent capture: {message}")]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// What disagrees with what.
        message: String,
    },
    /// The caller's [`crate::CaptureOptions`] make an impossible ABI (for
    /// example the vertex id and the instance id in one VGPR). The CLI
    /// reports it as a usage error.
    #[error("{path}: the options give an impossible entry ABI: {message}")]
    BadOptions {
        /// The capture.
        path: PathBuf,
        /// What is impossible.
        message: String,
    },
    /// The file is no capture form this crate recognises.
    #[error(
        "{path}: not a recognised capture ({found}); expected a capture directory \
         (code.bin + meta.json), an ELF file, or raw code (a `.bin` file, or pass --raw)"
    )]
    Unrecognised {
        /// The file.
        path: PathBuf,
        /// What the first bytes look like.
        found: String,
    },
    /// Writing a capture failed.
    #[error("{path}: cannot write capture: {message}")]
    Write {
        /// The file (or `<memory>`).
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

/// `path`, or `path: where_` when `where_` names a part of the file.
fn loc(path: &Path, where_: &str) -> String {
    if where_.is_empty() {
        path.display().to_string()
    } else {
        format!("{}: {where_}", path.display())
    }
}

impl CaptureError {
    pub(crate) fn json(
        path: impl Into<PathBuf>,
        where_: impl Into<String>,
        e: &serde_json::Error,
    ) -> CaptureError {
        // serde_json appends " at line L column C" to its messages; the
        // position is reported in fields of its own, so strip it.
        let mut message = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        if message.ends_with(&suffix) {
            message.truncate(message.len() - suffix.len());
        }
        CaptureError::Json {
            path: path.into(),
            where_: where_.into(),
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

/// Something worth telling the user about a capture that is still usable.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// The code length is not a multiple of four bytes, so the last
    /// `len % 4` bytes cannot be a whole instruction dword.
    UnalignedLength {
        /// Code length in bytes.
        len: usize,
    },
    /// The metadata records a code length that differs from the code's.
    LengthMismatch {
        /// Length the metadata records.
        recorded: u64,
        /// Actual length.
        actual: usize,
    },
    /// A command-line option replaced a value the capture recorded.
    Overridden {
        /// Which value (`target`, `stage`, `abi`, `wave size`).
        what: &'static str,
        /// The recorded value.
        recorded: String,
        /// The value used instead.
        used: String,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::UnalignedLength { len } => write!(
                f,
                "code length {len} is not a multiple of 4; the last {} byte(s) are a partial dword",
                len % 4
            ),
            Note::LengthMismatch { recorded, actual } => write!(
                f,
                "metadata records {recorded} code bytes but the code has {actual}"
            ),
            Note::Overridden {
                what,
                recorded,
                used,
            } => write!(f, "{what}: using {used} instead of the recorded {recorded}"),
        }
    }
}
