//! `shaderlift run DIR`: every capture under a directory tree (the bundled
//! `corpus/radv`, the developer set) run on the device and compared with
//! the interpreter, one summary line per entry and totals.
//!
//! Each capture's inputs ([`Inputs`]): the `DRAWS.json` in its directory
//! when there is one; else a compute shader's synthesized dispatches
//! ([`super::synth`]), a pixel shader's own scene ([`super::fragment`]), a
//! vertex shader's default scene ([`interp::scene::synthesize`]). NGG
//! shaders the direct path refuses for cross-lane constructs run as the NGG
//! compute pass ([`super::ngg`]).
//!
//! An entry that is not run says why with a [`NotRunReason`]; one that ran
//! counts its units (vertices, pixels or invocations' words), compared
//! words, mismatches and interpreter findings. The exit status is 1 when
//! any entry has a mismatch, a finding or failed.

use super::{dispatch, fragment, ngg, synth};
use crate::CliError;
use corpus::{Capture, CaptureOptions};
use serde::Serialize;
use std::path::{Path, PathBuf};
use translator::{TranslateError, UnsupportedList};
use vkharness::Harness;

/// Where an entry's inputs came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Inputs {
    /// The entry's own `DRAWS.json`.
    DrawsJson,
    /// Dispatches synthesized from the trace ([`synth`]).
    Synthesized,
    /// The default scene (a vertex shader's, or a pixel shader's own).
    Scene,
}

/// Why an entry was not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRunReason {
    /// The capture could not be read.
    Unreadable,
    /// The translator refuses the shader (unsupported constructs).
    Untranslatable,
    /// The shader translates, but the run does not cover what it needs
    /// (images in a dispatch, a feature the device lacks): a typed
    /// [`CliError::NotRun`].
    NotCovered,
    /// A compute shader without its entry state (workgroup size, entry
    /// registers), so no dispatch can be made.
    NoEntryState,
    /// A compute shader whose code has no instruction that writes guest
    /// memory (no buffer, global, flat, scratch, scalar or image store or
    /// atomic): no input makes it store, so there is no word to compare.
    /// It still ran, and the device left the dispatch window unchanged.
    NoStores,
}

/// One entry's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// It ran and compared.
    Ran {
        /// What it ran on.
        inputs: Inputs,
        /// Vertices, pixels or dispatches.
        units: u64,
        /// What `units` counts.
        unit: &'static str,
        /// Words compared.
        words: u64,
        /// Words that differ.
        mismatches: u64,
        /// Interpreter findings (accesses it could not check).
        findings: usize,
    },
    /// It was not run.
    NotRun {
        /// Why, typed.
        reason: NotRunReason,
        /// Why, in words.
        detail: String,
    },
    /// The run itself failed (an error other than a typed "not run").
    Failed {
        /// The error.
        error: String,
    },
}

impl Outcome {
    /// A mismatch, a finding or a failure.
    pub fn is_failure(&self) -> bool {
        match self {
            Outcome::Ran {
                mismatches,
                findings,
                ..
            } => *mismatches > 0 || *findings > 0,
            Outcome::NotRun { .. } => false,
            Outcome::Failed { .. } => true,
        }
    }
}

/// One entry of the tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryReport {
    /// The capture's path.
    pub path: PathBuf,
    /// Its name.
    pub name: String,
    /// Its hardware stage (`ngg`, `vs`, `ps`, `cs`; empty when unreadable).
    pub stage: String,
    /// What happened.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Totals over the tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Entries found.
    pub entries: usize,
    /// Entries run.
    pub ran: usize,
    /// Entries run with 0 mismatches and 0 findings that compared a word.
    pub clean: usize,
    /// Entries run that compared no word.
    pub compared_nothing: usize,
    /// Words compared.
    pub words: u64,
    /// Words that differ.
    pub mismatches: u64,
    /// Interpreter findings.
    pub findings: usize,
    /// Entries not run, per reason (in [`NotRunReason`] order).
    pub not_run: Vec<(NotRunReason, usize)>,
    /// Entries whose run failed.
    pub failed: usize,
}

/// The whole tree's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TreeReport {
    /// The Vulkan device.
    pub device: String,
    /// Per entry, in walk order.
    pub entries: Vec<EntryReport>,
    /// Totals.
    pub totals: Totals,
}

/// Whether `path` is a tree of captures rather than one capture: a
/// directory without `code.bin`.
pub fn is_tree(path: &Path) -> bool {
    path.is_dir() && !path.join("code.bin").exists()
}

/// The refusal of a translation, typed.
fn untranslatable(list: &UnsupportedList) -> Outcome {
    let first = list
        .0
        .first()
        .map(|u| format!(" (first: pc {:#06x}: {})", u.pc, u.construct))
        .unwrap_or_default();
    Outcome::NotRun {
        reason: NotRunReason::Untranslatable,
        detail: format!(
            "{} unsupported construct(s): {}{first}",
            list.0.len(),
            list.codes().join(",")
        ),
    }
}

/// A run's error as an outcome: a typed "not run" stays one.
fn from_error(e: CliError) -> Outcome {
    match e {
        CliError::NotRun(detail) => Outcome::NotRun {
            reason: NotRunReason::NotCovered,
            detail,
        },
        e => Outcome::Failed {
            error: e.to_string(),
        },
    }
}

/// Run one capture on its default inputs: `draws` (a DRAWS.json's text)
/// when given, else synthesized ones (see the module documentation).
pub fn run_capture(capture: &Capture, draws: Option<&str>, harness: &Harness) -> Outcome {
    match run_capture_inner(capture, draws, harness) {
        Ok(o) => o,
        Err(e) => from_error(e),
    }
}

fn run_capture_inner(
    capture: &Capture,
    draws: Option<&str>,
    harness: &Harness,
) -> Result<Outcome, CliError> {
    let name = &capture.name;
    let parse = |text: &str| {
        drawbind::draws::DrawsFile::parse(text).map_err(|e| CliError::Input(format!("{name}: {e}")))
    };
    match capture.stage() {
        isa::Stage::Cs => {
            let Some(entry) = capture.compute_entry() else {
                return Ok(Outcome::NotRun {
                    reason: NotRunReason::NoEntryState,
                    detail: synth::SynthError::NotCompute.to_string(),
                });
            };
            let opts = translator::Options {
                precise: true,
                ..translator::Options::default()
            };
            match translator::translate_compute(&capture.shader_input(), &entry, &opts) {
                Err(TranslateError::Unsupported(list)) => return Ok(untranslatable(&list)),
                Err(e) => return Err(CliError::Input(format!("{name}: {e}"))),
                Ok(_) => {}
            }
            let (r, inputs) = match draws {
                Some(text) => match dispatch::split(text)
                    .map_err(|e| CliError::Input(format!("{name}: {e}")))?
                {
                    Some((f, g)) => (
                        dispatch::execute(capture, &f, &g, harness)?,
                        Inputs::DrawsJson,
                    ),
                    None => {
                        return Err(CliError::Input(format!(
                            "{name}: its DRAWS.json has no dispatch"
                        )))
                    }
                },
                None => (
                    synth::execute(capture, harness, dispatch::DispatchFaults::default())?.1,
                    Inputs::Synthesized,
                ),
            };
            if r.words == 0 && r.mismatches == 0 && r.findings == 0 && !writes_guest_memory(capture)
            {
                return Ok(Outcome::NotRun {
                    reason: NotRunReason::NoStores,
                    detail: format!(
                        "{name}: no instruction of the code writes guest memory, so no input makes it store; the device left the window unchanged over {} dispatches",
                        r.dispatches.len()
                    ),
                });
            }
            Ok(Outcome::Ran {
                inputs,
                units: r.dispatches.len() as u64,
                unit: "dispatches",
                words: r.words,
                mismatches: r.mismatches,
                findings: r.findings,
            })
        }
        isa::Stage::Ps => {
            if let Err(TranslateError::Unsupported(list)) = translator::translate(
                &capture.shader_input(),
                None,
                &translator::Options::default(),
            ) {
                return Ok(untranslatable(&list));
            }
            let r = match fragment::execute_fragment(capture, harness, &Default::default())? {
                fragment::FragmentOutcome::Ran(r) => r,
                fragment::FragmentOutcome::NotRun(why) => return Err(CliError::NotRun(why)),
            };
            Ok(Outcome::Ran {
                inputs: Inputs::Scene,
                units: r.vertices,
                unit: super::PIXELS,
                words: r.words,
                mismatches: r.mismatches,
                findings: 0,
            })
        }
        isa::Stage::Ngg | isa::Stage::LegacyVs => {
            let (file, inputs) = match draws {
                Some(text) => (parse(text)?, Inputs::DrawsJson),
                None => (default_scene(capture), Inputs::Scene),
            };
            let input = capture.shader_input();
            let (units, words, mismatches, findings) =
                match translator::translate(&input, None, &translator::Options::default()) {
                    Err(TranslateError::Unsupported(list))
                        if translator::wants_ngg_pass(&input, &list) =>
                    {
                        let entry = translator::ngg_entry_of(&input);
                        let opts = translator::Options {
                            precise: true,
                            ..translator::Options::default()
                        };
                        let tr = match translator::translate_ngg(&input, &entry, &opts) {
                            Ok(t) => t,
                            Err(TranslateError::Unsupported(list)) => {
                                return Ok(untranslatable(&list))
                            }
                            Err(e) => return Err(CliError::Input(format!("{name}: {e}"))),
                        };
                        let r = ngg::execute_translation(capture, &file, harness, &tr)?;
                        (r.vertices, r.words, r.mismatches, r.findings)
                    }
                    Err(TranslateError::Unsupported(list)) => return Ok(untranslatable(&list)),
                    _ => {
                        let r =
                            super::execute(capture, &file, &super::RunOptions::default(), harness)?;
                        (r.vertices, r.words, r.mismatches, 0)
                    }
                };
            Ok(Outcome::Ran {
                inputs,
                units,
                unit: super::VERTICES,
                words,
                mismatches,
                findings,
            })
        }
    }
}

/// A vertex shader's default scene as `shaderlift run DIR` runs it: the
/// trace-driven scene ([`interp::scene::synthesize`]), the words its
/// manifest reads through pointers ([`complete_scene_memory`]) and memory
/// where its untraced pointers point ([`scene_pointers`]).
pub fn default_scene(capture: &Capture) -> drawbind::draws::DrawsFile {
    let trace = crate::trace::trace_capture(capture);
    let mut file = interp::scene::synthesize(&trace, &capture.abi()).to_draws_file();
    complete_scene_memory(capture, &trace, &mut file);
    scene_pointers(capture, &mut file);
    file
}

/// Whether some instruction of `capture`'s code may write guest memory: a
/// store or atomic of any unit but LDS/GDS, or a line that does not decode
/// (unknown, so it may).
pub fn writes_guest_memory(capture: &Capture) -> bool {
    let mode = isa::Mode {
        target: capture.target(),
        wave64: capture.wave_size().lanes() == 64,
    };
    analysis::cfg::Program::decode(&capture.code, mode)
        .lines
        .iter()
        .any(|l| match &l.inst {
            Ok(inst) => {
                let f = inst.opcode.facts();
                f.writes_memory() && f.mem.is_some_and(|m| m.unit != isa::MemUnit::Ds)
            }
            Err(_) => true,
        })
}

/// The value of every dword [`complete_scene_memory`] adds (1.0f).
pub const SCENE_FILL: u32 = 0x3f80_0000;

/// Lay out, in the default scene's file, what the translation reads
/// through pointers (push constants RADV keeps in memory, words behind a
/// pointer in user data) where the trace-driven scene left no memory: each
/// missing dword becomes [`SCENE_FILL`] in the file itself, so the device
/// (through the manifest's words) and the interpreter read the same bytes.
pub fn complete_scene_memory(
    capture: &Capture,
    trace: &analysis::trace::ShaderTrace,
    file: &mut drawbind::draws::DrawsFile,
) {
    let input = capture.shader_input();
    let opts = translator::Options::default();
    let manifest = match translator::translate(&input, Some(trace), &opts) {
        Ok(t) => t.manifest,
        Err(TranslateError::Unsupported(list)) if translator::wants_ngg_pass(&input, &list) => {
            match translator::translate_ngg(&input, &translator::ngg_entry_of(&input), &opts) {
                Ok(t) => t.manifest,
                Err(_) => return,
            }
        }
        Err(_) => return,
    };
    let mem = file.memory_with_code(&capture.code_and_constants());
    let user_data = file.user_data();
    let mut read = translator::host::guest_reader(&mem);
    let descriptors = image_descriptor_addresses(&manifest, &user_data, &mut read);
    let mut missing = std::collections::BTreeMap::new();
    for w in manifest.push_constants.iter().chain(&manifest.param_buffer) {
        if let translator::manifest::PushKind::Word { expr, .. } = &w.kind {
            let _ = expr.eval(&user_data, &mut |a| {
                let a48 = a & drawbind::word::ADDRESS_MASK;
                read(a).or_else(|| {
                    // A T#/S# word the shader also reads as data stays
                    // unmapped: the image scene (`images::draws_images`)
                    // writes a descriptor both sides model there.
                    if descriptors.contains(&a48) {
                        return None;
                    }
                    Some(*missing.entry(a48).or_insert(SCENE_FILL))
                })
            });
        }
    }
    for (addr, v) in missing {
        file.memory.push(drawbind::draws::MemoryBlock {
            addr: drawbind::draws::Addr(addr),
            words: vec![drawbind::draws::Word32(v)],
        });
    }
}

/// Lay out, in the default scene's file, memory where the shader's untraced
/// pointers point ([`super::pointers::lay_out`], floats): the interpreter
/// runs the file's draws as the probe; the regions follow the scene's
/// highest block below the code. Unchanged when every read stays in guest
/// memory.
pub fn scene_pointers(capture: &Capture, file: &mut drawbind::draws::DrawsFile) {
    use drawbind::draws::DrawSpec;
    let iprog = interp::Program::new(&capture.code, capture.target());
    let code = capture.code_and_constants();
    let above = match super::pointers::blocks_end_below(file, drawbind::draws::DEFAULT_CODE_ADDR) {
        0 => interp::scene::DATA,
        end => end,
    };
    super::pointers::lay_out(file, above, super::pointers::Fill::Floats, |f| {
        let mem = f.memory_with_code(&code);
        let rec = super::pointers::Recording::new(&mem);
        let mut cfg = interp::DrawConfig::new(
            &iprog,
            capture.stage(),
            capture.abi(),
            capture.wave_size() == corpus::WaveSize::W64,
        );
        cfg.code_addr = f.code_addr();
        let user_data = f.user_data();
        for spec in &f.draws {
            let draw = match spec {
                DrawSpec::Auto {
                    first_vertex,
                    vertex_count,
                    instance_count,
                    chunks,
                } => interp::Draw::Auto {
                    first_vertex: *first_vertex,
                    vertex_count: *vertex_count,
                    instance_count: *instance_count,
                    chunks: chunks.clone(),
                },
                DrawSpec::Indexed { instance_count, .. } => match super::index_ids(&mem, spec) {
                    Ok(Some(ids)) => interp::Draw::Ids {
                        ids,
                        instance_count: *instance_count,
                    },
                    _ => continue,
                },
                _ => continue,
            };
            let _ = interp::run_draw(&iprog, &rec, &user_data, &draw, &cfg);
        }
        rec.into_touched()
    });
}

/// The guest addresses (48-bit) of the T# and S# words of `m`'s images
/// that the file's memory leaves unmapped: the dword each word's
/// expression reads last (its index word, if any, is read before it).
fn image_descriptor_addresses(
    m: &translator::manifest::Manifest,
    user_data: &[u32],
    read: &mut dyn FnMut(u64) -> Option<u32>,
) -> std::collections::BTreeSet<u64> {
    let mut out = std::collections::BTreeSet::new();
    for b in &m.images {
        for e in b.texture.iter().chain(b.sampler.iter().flatten()) {
            let mut last = None;
            let _ = e.eval(user_data, &mut |a| {
                let v = read(a);
                last = Some((a & drawbind::word::ADDRESS_MASK, v.is_some()));
                Some(v.unwrap_or(0))
            });
            if let Some((a, false)) = last {
                out.insert(a);
            }
        }
    }
    out
}

/// Run every capture under `root` whose path contains `only` (all without
/// it).
pub fn run_tree(
    root: &Path,
    only: Option<&str>,
    opts: &CaptureOptions,
    harness: &Harness,
) -> Result<TreeReport, CliError> {
    let paths = corpus::walk_captures(root)?;
    let mut entries = Vec::new();
    for p in paths {
        let (path, outcome, name, stage) = match p {
            Err(e) => (
                root.to_path_buf(),
                Outcome::NotRun {
                    reason: NotRunReason::Unreadable,
                    detail: e.to_string(),
                },
                String::new(),
                String::new(),
            ),
            Ok(path) => {
                if only.is_some_and(|s| !path.to_string_lossy().contains(s)) {
                    continue;
                }
                match Capture::open(&path, opts) {
                    Err(e) => (
                        path,
                        Outcome::NotRun {
                            reason: NotRunReason::Unreadable,
                            detail: e.to_string(),
                        },
                        String::new(),
                        String::new(),
                    ),
                    Ok(capture) => {
                        let draws = std::fs::read_to_string(path.join("DRAWS.json")).ok();
                        let outcome =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                run_capture(&capture, draws.as_deref(), harness)
                            }))
                            .unwrap_or_else(|_| Outcome::Failed {
                                error: "panic".into(),
                            });
                        let stage = capture.stage().to_string();
                        (path, outcome, capture.name.clone(), stage)
                    }
                }
            }
        };
        entries.push(EntryReport {
            path,
            name,
            stage,
            outcome,
        });
    }
    let totals = totals(&entries);
    Ok(TreeReport {
        device: harness.device_info().name.clone(),
        entries,
        totals,
    })
}

/// The totals of `entries`.
pub fn totals(entries: &[EntryReport]) -> Totals {
    let mut t = Totals {
        entries: entries.len(),
        ..Totals::default()
    };
    for e in entries {
        match &e.outcome {
            Outcome::Ran {
                words,
                mismatches,
                findings,
                ..
            } => {
                t.ran += 1;
                t.words += words;
                t.mismatches += mismatches;
                t.findings += findings;
                if *words == 0 {
                    t.compared_nothing += 1;
                } else if *mismatches == 0 && *findings == 0 {
                    t.clean += 1;
                }
            }
            Outcome::NotRun { reason, .. } => {
                match t.not_run.iter_mut().find(|(r, _)| r == reason) {
                    Some((_, n)) => *n += 1,
                    None => t.not_run.push((*reason, 1)),
                }
            }
            Outcome::Failed { .. } => t.failed += 1,
        }
    }
    t.not_run.sort_by_key(|(r, _)| *r as u8);
    t
}

impl TreeReport {
    /// A line per entry, then the totals.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "device: {}", self.device);
        for e in &self.entries {
            let what = match &e.outcome {
                Outcome::Ran {
                    inputs,
                    units,
                    unit,
                    words,
                    mismatches,
                    findings,
                } => format!(
                    "ran ({}): {units} {unit}, {words} words, {mismatches} mismatches{}",
                    serde_json::to_value(inputs)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    if *findings > 0 {
                        format!(", {findings} findings")
                    } else {
                        String::new()
                    }
                ),
                Outcome::NotRun { reason, detail } => {
                    format!("not run ({}): {detail}", reason_name(*reason))
                }
                Outcome::Failed { error } => format!("FAILED: {error}"),
            };
            let first_line = what.lines().next().unwrap_or_default();
            let _ = writeln!(s, "{:<52} {:<3} {first_line}", e.name, e.stage);
        }
        let t = &self.totals;
        let not_run: Vec<String> = t
            .not_run
            .iter()
            .map(|(r, n)| format!("{n} {}", reason_name(*r)))
            .collect();
        let _ = writeln!(
            s,
            "{} entries: {} ran ({} clean, {} compared nothing), {} words, {} mismatches, {} findings, {} failed, {} not run{}",
            t.entries,
            t.ran,
            t.clean,
            t.compared_nothing,
            t.words,
            t.mismatches,
            t.findings,
            t.failed,
            t.not_run.iter().map(|(_, n)| n).sum::<usize>(),
            if not_run.is_empty() {
                String::new()
            } else {
                format!(" ({})", not_run.join(", "))
            }
        );
        s
    }
}

/// A reason's JSON name.
fn reason_name(r: NotRunReason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
