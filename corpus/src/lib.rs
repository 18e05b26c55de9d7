//! Captured shaders: code bytes plus the metadata needed to analyse them.
//!
//! A [`Capture`] is the shader's code and its [`Meta`]: target, stage,
//! wave size, entry-register ABI, the user-data words when known, and
//! provenance. [`Capture::open`] reads four forms and tells them apart by
//! themselves:
//!
//! | form | what it is | metadata from |
//! |---|---|---|
//! | raw | a `.bin` file (or any file with [`CaptureOptions::raw`]) | [`CaptureOptions`] |
//! | directory | `code.bin` + `meta.json` (the RADV corpus's, or a [`Meta`] document) | `meta.json` |
//! | ELF capture | AMDGPU ELF, code in `.text`, [`Meta`] JSON in `.shaderlift.meta` | the section |
//! | code object | AMDGPU ELF from `llvm-mc -filetype=obj` (no `.shaderlift.meta`) | target from `e_flags`, the rest from [`CaptureOptions`] |
//!
//! [`Capture::to_elf`] writes the ELF capture form, which
//! `llvm-objdump-19 -d` also reads. [`find_captures`] lists every capture
//! under a directory; [`bundled`] loads the bundled RADV corpus.
//! [`Capture::shader_input`] is what [`translator::translate`] takes, and
//! [`check::check_capture`] runs the whole pipeline (decode, trace, bind and
//! verify default draws, translate, validate) on one capture.
//!
//! An emulator writes a capture like this:
//!
//! ```no_run
//! # fn main() -> Result<(), corpus::CaptureError> {
//! let code_bytes: Vec<u8> = vec![0x00, 0x00, 0x81, 0xbf]; // s_endpgm
//! let user_sgprs = [0xffff_8000u32, 0, 0x1000];
//! let mut meta = corpus::Meta::new(isa::Target::Gfx1030, isa::Stage::Ngg, corpus::WaveSize::W64);
//! meta.user_data = Some(user_sgprs.to_vec());
//! meta.provenance.insert("emulator".into(), "example-emu 0.9".into());
//! corpus::Capture::new("draw-1200", code_bytes, meta).write_elf("draw-1200.elf")?;
//! # Ok(())
//! # }
//! ```
//!
//! No input makes this crate panic: bad files are [`CaptureError`] values
//! that name the file, what is wrong and where.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod elf;
mod error;
pub mod meta;
mod radv;
mod walk;

pub use error::{CaptureError, Note};
pub use meta::{abi_preset, default_abi, Meta, UnknownWaveSize, WaveSize, META_VERSION};
pub use walk::{bundled, bundled_root, find_captures, walk_captures};

use isa::{Abi, Stage, Target};
use std::fs;
use std::path::{Path, PathBuf};

impl<'a> From<&'a Capture> for translator::ShaderInput<'a> {
    /// [`Capture::shader_input`].
    fn from(c: &'a Capture) -> translator::ShaderInput<'a> {
        c.shader_input()
    }
}

/// Choices the caller makes about a capture, usually from command-line
/// flags. Every `Some` value replaces what the file records (the capture
/// gets a [`Note::Overridden`] when it differs); for raw code and code
/// objects, which record nothing, unset values take the defaults below.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureOptions {
    /// Read the file as raw code whatever its name or content.
    pub raw: bool,
    /// The target (default gfx1030).
    pub target: Option<Target>,
    /// The stage (default [`Stage::Ngg`]). Changing the stage without
    /// giving [`CaptureOptions::abi`] also switches to the new stage's
    /// [`default_abi`].
    pub stage: Option<Stage>,
    /// The entry ABI (default: the stage's [`default_abi`]).
    pub abi: Option<Abi>,
    /// The wave size (default 64).
    pub wave_size: Option<WaveSize>,
    /// Replace the ABI's first user-data SGPR.
    pub user_data_sgpr: Option<u8>,
    /// Replace the ABI's vertex-id VGPR.
    pub vertex_id_vgpr: Option<u8>,
    /// Replace the ABI's instance-id VGPR.
    pub instance_id_vgpr: Option<u8>,
    /// Apply the values above only to forms that record no metadata (raw
    /// code and code objects); captures with metadata keep all of theirs.
    /// `shaderlift corpus` sets it, so one flag cannot silently re-model
    /// every capture of a walk.
    pub only_unrecorded: bool,
}

/// Which form a capture was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Raw code bytes; the metadata came from [`CaptureOptions`].
    Raw,
    /// A directory with `code.bin` and a shaderlift [`Meta`] `meta.json`.
    Directory,
    /// A directory of the bundled RADV corpus (`code.bin` + RADV's
    /// `meta.json`).
    RadvDirectory,
    /// The single-file ELF capture form (`.shaderlift.meta` present).
    Elf,
    /// An AMDGPU code object without shaderlift metadata.
    CodeObject,
    /// Built in memory ([`Capture::new`]).
    Memory,
}

impl Form {
    /// Short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Form::Raw => "raw code",
            Form::Directory => "capture directory",
            Form::RadvDirectory => "RADV corpus directory",
            Form::Elf => "ELF capture",
            Form::CodeObject => "AMDGPU code object",
            Form::Memory => "in-memory capture",
        }
    }
}

/// A captured shader: code bytes plus metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// A short name: the directory name or the file stem.
    pub name: String,
    /// Where it was read from (empty for [`Form::Memory`]).
    pub path: PathBuf,
    /// The form it was read from.
    pub form: Form,
    /// The machine code, little-endian, starting at the entry point. Its
    /// length need not be a multiple of 4 (see [`Note::UnalignedLength`]);
    /// it is never empty when read from a file.
    pub code: Vec<u8>,
    /// Target, stage, wave size, ABI, user data, provenance.
    pub meta: Meta,
    /// What follows the code in guest memory, when the capture holds it:
    /// padding and the constant data a shader reaches with `s_getpc_b64`
    /// (the tail of a directory's `code_full.bin`, which starts with
    /// `code.bin`). Empty otherwise.
    pub constants: Vec<u8>,
    /// Things worth telling the user that did not stop the capture loading.
    pub notes: Vec<Note>,
}

impl Capture {
    /// A capture built in memory (for example by an emulator before
    /// [`Capture::write_elf`]).
    pub fn new(name: impl Into<String>, code: Vec<u8>, meta: Meta) -> Capture {
        let mut notes = Vec::new();
        if !code.len().is_multiple_of(4) {
            notes.push(Note::UnalignedLength { len: code.len() });
        }
        Capture {
            name: name.into(),
            path: PathBuf::new(),
            form: Form::Memory,
            code,
            meta,
            notes,
            constants: Vec::new(),
        }
    }

    /// Read a capture in any form, telling the forms apart by themselves:
    /// a directory is a capture directory; with `opts.raw` or a `.bin`
    /// name a file is raw code; a file starting with the ELF magic is an
    /// ELF capture or code object. Anything else is refused.
    pub fn open(path: impl AsRef<Path>, opts: &CaptureOptions) -> Result<Capture, CaptureError> {
        let path = path.as_ref();
        let io = |source| CaptureError::Io {
            path: path.to_path_buf(),
            source,
        };
        let md = fs::metadata(path).map_err(io)?;
        if md.is_dir() {
            return Capture::open_dir(path, opts);
        }
        let data = fs::read(path).map_err(io)?;
        Capture::from_file_bytes(path, data, opts)
    }

    /// Open a raw code file to be read in pieces (a listing of a large file
    /// need not hold it whole, nor pay for faulting in a buffer of its
    /// size). When `path` is raw code as [`Capture::open`] decides it
    /// (`opts.raw` or a `.bin` name, and not a directory), returns the
    /// capture holding the file's first bytes (up to `head`, rounded down
    /// to whole dwords, at least four) and the file positioned after them:
    /// the caller reads the rest. Anything else is `None` (open it with
    /// [`Capture::open`]). Errors and notes are [`Capture::open`]'s for the
    /// whole file.
    pub fn open_raw_head(
        path: impl AsRef<Path>,
        opts: &CaptureOptions,
        head: usize,
    ) -> Result<Option<(Capture, fs::File)>, CaptureError> {
        use std::io::Read as _;
        let path = path.as_ref();
        if !is_raw(path, opts) {
            return Ok(None);
        }
        let io = |source| CaptureError::Io {
            path: path.to_path_buf(),
            source,
        };
        let md = fs::metadata(path).map_err(io)?;
        if md.is_dir() {
            return Ok(None);
        }
        let mut file = fs::File::open(path).map_err(io)?;
        let mut data = vec![0u8; (head & !3).max(4)];
        let mut n = 0;
        while n < data.len() {
            match file.read(&mut data[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io(e)),
            }
        }
        let more = n == data.len();
        data.truncate(n);
        let mut capture = Capture::from_file_bytes(path, data, opts)?;
        // The head is whole dwords when more follows: the length note is
        // the whole file's.
        let total = md.len();
        if more && !total.is_multiple_of(4) {
            capture.notes.insert(
                0,
                Note::UnalignedLength {
                    len: usize::try_from(total).unwrap_or(usize::MAX),
                },
            );
        }
        Ok(Some((capture, file)))
    }

    /// Interpret the bytes of a file already read from `path` (raw or ELF;
    /// `path` names it in messages and decides the `.bin` rule).
    pub fn from_file_bytes(
        path: impl AsRef<Path>,
        data: Vec<u8>,
        opts: &CaptureOptions,
    ) -> Result<Capture, CaptureError> {
        let path = path.as_ref();
        if data.is_empty() {
            return Err(CaptureError::EmptyCode {
                path: path.to_path_buf(),
                where_: String::new(),
            });
        }
        if is_raw(path, opts) {
            let meta = defaults(opts, None);
            return Capture::checked(path, Form::Raw, data, meta, Vec::new());
        }
        if elf::is_elf(&data) {
            return Capture::from_elf(path, &data, opts);
        }
        let n = data.len().min(8);
        let mut found = String::from("first bytes");
        for b in &data[..n] {
            found.push_str(&format!(" {b:02x}"));
        }
        Err(CaptureError::Unrecognised {
            path: path.to_path_buf(),
            found,
        })
    }

    fn from_elf(path: &Path, data: &[u8], opts: &CaptureOptions) -> Result<Capture, CaptureError> {
        let contents = elf::read(path, data)?;
        let mach = contents.e_flags & elf::EF_AMDGPU_MACH;
        if contents.code.is_empty() {
            return Err(CaptureError::EmptyCode {
                path: path.to_path_buf(),
                where_: "section .text".into(),
            });
        }
        match contents.meta {
            Some(meta) => {
                check_version(path, "section .shaderlift.meta", &meta)?;
                if let Some(t) = elf::target_of_mach(mach) {
                    if t != meta.target {
                        return Err(CaptureError::Inconsistent {
                            path: path.to_path_buf(),
                            message: format!(
                                "ELF e_flags say {t} but section {} says {}",
                                elf::META_SECTION,
                                meta.target
                            ),
                        });
                    }
                }
                let mut notes = Vec::new();
                let meta = apply(opts, meta, &mut notes);
                Capture::checked(path, Form::Elf, contents.code, meta, notes)
            }
            None => {
                let target = match opts.target {
                    Some(t) => t,
                    None => elf::target_of_mach(mach).ok_or(CaptureError::UnsupportedMach {
                        path: path.to_path_buf(),
                        e_flags: contents.e_flags,
                        mach,
                        name: elf::mach_name(mach),
                    })?,
                };
                let meta = defaults(opts, Some(target));
                Capture::checked(path, Form::CodeObject, contents.code, meta, Vec::new())
            }
        }
    }

    fn open_dir(dir: &Path, opts: &CaptureOptions) -> Result<Capture, CaptureError> {
        let code_path = dir.join("code.bin");
        let meta_path = dir.join("meta.json");
        if !code_path.is_file() {
            return Err(CaptureError::MissingFile {
                dir: dir.to_path_buf(),
                file: "code.bin",
            });
        }
        if !meta_path.is_file() {
            return Err(CaptureError::MissingFile {
                dir: dir.to_path_buf(),
                file: "meta.json",
            });
        }
        let code = fs::read(&code_path).map_err(|source| CaptureError::Io {
            path: code_path.clone(),
            source,
        })?;
        let json = fs::read(&meta_path).map_err(|source| CaptureError::Io {
            path: meta_path.clone(),
            source,
        })?;
        if code.is_empty() {
            return Err(CaptureError::EmptyCode {
                path: code_path,
                where_: String::new(),
            });
        }
        let mut notes = Vec::new();
        let (form, meta) = if radv::is_radv(&meta_path, &json)? {
            let meta = radv::parse(&meta_path, &json, code.len(), &mut notes)?;
            (Form::RadvDirectory, meta)
        } else {
            let meta: Meta = serde_json::from_slice(&json)
                .map_err(|e| CaptureError::json(&meta_path, "", &e))?;
            check_version(&meta_path, "", &meta)?;
            (Form::Directory, meta)
        };
        let meta = apply(opts, meta, &mut notes);
        // `code_full.bin`, when present and starting with the code: what
        // follows the code (padding, constant data).
        let constants = match fs::read(dir.join("code_full.bin")) {
            Ok(full) if full.len() > code.len() && full.starts_with(&code) => {
                full[code.len()..].to_vec()
            }
            _ => Vec::new(),
        };
        let mut cap = Capture::checked(dir, form, code, meta, notes)?;
        cap.constants = constants;
        Ok(cap)
    }

    /// Check the ABI the options left (the recorded one was checked when
    /// it was read).
    fn checked(
        path: &Path,
        form: Form,
        code: Vec<u8>,
        meta: Meta,
        notes: Vec<Note>,
    ) -> Result<Capture, CaptureError> {
        meta::check_abi(&meta.abi).map_err(|message| CaptureError::BadOptions {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(Capture::finish(path, form, code, meta, notes))
    }

    fn finish(path: &Path, form: Form, code: Vec<u8>, meta: Meta, mut notes: Vec<Note>) -> Capture {
        if !code.len().is_multiple_of(4) {
            notes.insert(0, Note::UnalignedLength { len: code.len() });
        }
        let name = match form {
            Form::Directory | Form::RadvDirectory => path.file_name(),
            _ => path.file_stem(),
        }
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
        Capture {
            name,
            path: path.to_path_buf(),
            form,
            code,
            meta,
            notes,
            constants: Vec::new(),
        }
    }

    /// The code followed by [`Capture::constants`]: the bytes to map at the
    /// code's guest address.
    pub fn code_and_constants(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.code.len() + self.constants.len());
        b.extend_from_slice(&self.code);
        b.extend_from_slice(&self.constants);
        b
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.meta.target
    }
    /// The stage.
    pub fn stage(&self) -> Stage {
        self.meta.stage
    }
    /// The entry ABI.
    pub fn abi(&self) -> Abi {
        self.meta.abi
    }
    /// The wave size.
    pub fn wave_size(&self) -> WaveSize {
        self.meta.wave_size
    }

    /// A compute capture's entry state, when its metadata records it.
    pub fn compute_entry(&self) -> Option<translator::wave::ComputeEntry> {
        self.meta.compute.filter(|_| self.stage() == isa::Stage::Cs)
    }

    /// The shader to translate ([`translator::translate`]): the code with
    /// its target, stage, ABI and wave size.
    pub fn shader_input(&self) -> translator::ShaderInput<'_> {
        translator::ShaderInput {
            code: &self.code,
            target: self.target(),
            stage: self.stage(),
            abi: self.abi(),
            wave_size: self.wave_size().lanes(),
        }
    }

    /// The capture in the single-file ELF form: an ELF64 little-endian
    /// AMDGPU object (`e_machine` 224, OS/ABI AMDGPU HSA, `e_flags` the
    /// target's EF_AMDGPU_MACH) whose `.text` is the code and whose
    /// `.shaderlift.meta` is the metadata JSON.
    pub fn to_elf(&self) -> Result<Vec<u8>, CaptureError> {
        elf::write(&self.code, &self.meta)
    }

    /// Write [`Capture::to_elf`] to `path`.
    pub fn write_elf(&self, path: impl AsRef<Path>) -> Result<(), CaptureError> {
        let path = path.as_ref();
        let bytes = self.to_elf().map_err(|e| match e {
            CaptureError::Write { message, .. } => CaptureError::Write {
                path: path.to_path_buf(),
                message,
            },
            other => other,
        })?;
        fs::write(path, bytes).map_err(|e| CaptureError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }
}

fn check_version(path: &Path, where_: &str, meta: &Meta) -> Result<(), CaptureError> {
    if meta.version == 0 || meta.version > META_VERSION {
        return Err(CaptureError::BadField {
            path: path.to_path_buf(),
            where_: where_.into(),
            field: "version",
            message: format!(
                "version {} is not supported (this build reads versions 1..={META_VERSION})",
                meta.version
            ),
        });
    }
    Ok(())
}

/// Metadata for a form that records none: the options, else the defaults.
/// Whether a file is raw code: `opts.raw` or a `.bin` name.
fn is_raw(path: &Path, opts: &CaptureOptions) -> bool {
    opts.raw
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("bin"))
}

fn defaults(opts: &CaptureOptions, target: Option<Target>) -> Meta {
    let stage = opts.stage.unwrap_or(Stage::Ngg);
    let mut meta = Meta::new(
        target.or(opts.target).unwrap_or_default(),
        stage,
        opts.wave_size.unwrap_or_default(),
    );
    if let Some(abi) = opts.abi {
        meta.abi = abi;
    }
    edit_abi(opts, &mut meta.abi);
    meta
}

/// Apply the options to metadata a file recorded, noting what changes.
fn apply(opts: &CaptureOptions, mut meta: Meta, notes: &mut Vec<Note>) -> Meta {
    if opts.only_unrecorded {
        return meta;
    }
    fn set<T: PartialEq + Copy + std::fmt::Debug>(
        what: &'static str,
        slot: &mut T,
        new: Option<T>,
        show: impl Fn(T) -> String,
        notes: &mut Vec<Note>,
    ) -> bool {
        match new {
            Some(v) if v != *slot => {
                notes.push(Note::Overridden {
                    what,
                    recorded: show(*slot),
                    used: show(v),
                });
                *slot = v;
                true
            }
            _ => false,
        }
    }
    set(
        "target",
        &mut meta.target,
        opts.target,
        |t| t.to_string(),
        notes,
    );
    let stage_changed = set(
        "stage",
        &mut meta.stage,
        opts.stage,
        |s| s.to_string(),
        notes,
    );
    let abi = opts
        .abi
        .or_else(|| stage_changed.then(|| default_abi(meta.stage)));
    set("abi", &mut meta.abi, abi, |a| format!("{a:?}"), notes);
    set(
        "wave size",
        &mut meta.wave_size,
        opts.wave_size,
        |w| w.to_string(),
        notes,
    );
    let before = meta.abi;
    edit_abi(opts, &mut meta.abi);
    if meta.abi != before {
        notes.push(Note::Overridden {
            what: "abi registers",
            recorded: format!("{before:?}"),
            used: format!("{:?}", meta.abi),
        });
    }
    meta
}

fn edit_abi(opts: &CaptureOptions, abi: &mut Abi) {
    if let Some(s) = opts.user_data_sgpr {
        let s = s.min(105);
        abi.user_data_sgpr = s;
        abi.user_data_count = abi.user_data_count.min(106 - s);
    }
    if let Some(v) = opts.vertex_id_vgpr {
        abi.vertex_id_vgpr = Some(v);
    }
    if let Some(v) = opts.instance_id_vgpr {
        abi.instance_id_vgpr = Some(v);
    }
}
