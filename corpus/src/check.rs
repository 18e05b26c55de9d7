//! The whole pipeline on one capture, as `shaderlift corpus` runs it per
//! row: decode → trace → bind the default draws (narrowed and baseline) →
//! verify them with the reference interpreter → translate to SPIR-V
//! (validated by naga, and by `spirv-val` when [`CheckOptions::spirv_val`]
//! names it).
//!
//! The default draws are [`interp::scene`]'s: user data and memory laid out
//! from the trace alone, with the standard auto, split, instanced and
//! indexed draws; the code and its constant data are mapped at
//! [`drawbind::draws::DEFAULT_CODE_ADDR`]. Binding and verifying run for
//! vertex stages only.
//!
//! [`check_capture`] never fails as a whole: what went wrong is in the row
//! ([`CheckRow::failed`], [`CheckRow::error`] and the typed
//! [`CheckRow::cause`]). Running the translation on a device is the
//! caller's (the CLI's `--run`); [`CheckRow::runnable`] says whether it
//! applies.
//!
//! ```
//! let cube = corpus::bundled_root().join("cube");
//! let capture = corpus::Capture::open(cube, &Default::default()).unwrap();
//! let row = corpus::check::check_capture(&capture, &Default::default());
//! assert!(!row.failed && row.violations == 0, "{:?}", row.error);
//! assert!(row.translate.starts_with("ok"));
//! ```

use crate::{Capture, WaveSize};
use analysis::trace::{trace_code, ShaderTrace, TraceConfig, Unbound};
use drawbind::{BindError, BindPlan, BindRange, IndexError, PlanError};
use interp::scene::synthesize;
use interp::{verify, Shader, VerifyError, VerifyOptions};
use isa::{Decoder, Instruction, Mode};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use translator::TranslateError;

/// What [`check_capture`] does besides the fixed pipeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// The `spirv-val` program (SPIRV-Tools) to validate each translated
    /// module with (`--target-env vulkan1.1`); `None` validates with naga
    /// only.
    pub spirv_val: Option<PathBuf>,
}

/// Why a row failed (the typed form of [`CheckRow::error`]).
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckError {
    /// No bind plan could be made from the trace.
    #[error("bind plan: {0}")]
    Plan(#[source] PlanError),
    /// The baseline bind of the default scene failed.
    #[error("baseline bind: {0}")]
    Baseline(#[source] BindError),
    /// An index buffer of the default scene could not be scanned.
    #[error("bind: {0}")]
    Index(#[source] IndexError),
    /// A draw of the default scene could not be bound.
    #[error("bind: {0}")]
    Bind(#[source] BindError),
    /// The interpreter could not verify anything.
    #[error(transparent)]
    Verify(VerifyError),
    /// Some draws could not be checked completely (never silently clean).
    #[error("{unverified} of {draws} draws could not be checked completely (first: {first})")]
    Unverified {
        /// Draws not checked completely.
        unverified: usize,
        /// Draws run.
        draws: usize,
        /// Why the first of them was not (`-` when unknown).
        first: String,
    },
    /// The translation failed for another reason than unsupported
    /// constructs (those are a status, [`CheckRow::translate`]).
    #[error(transparent)]
    Translate(Arc<TranslateError>),
    /// `spirv-val` rejected the module, or could not be run.
    #[error("spirv-val rejected the module: {0}")]
    SpirvVal(String),
}

/// One descriptor's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// Where its words come from (`table(ud0)+0x10`).
    pub source: String,
    /// The agreed index source (`vertex_id + ud1`), or null.
    pub bound: Option<String>,
    /// Why it is unbound.
    pub reason: Option<String>,
    /// The reason's short code ([`analysis::trace::Unbound::code`]), for
    /// tables.
    #[serde(skip)]
    pub reason_code: Option<&'static str>,
}

/// One capture's results (a row of `shaderlift corpus`; its JSON form is
/// the `--json` output).
#[derive(Clone, Debug, Serialize)]
pub struct CheckRow {
    /// The capture (the caller may replace it by a path relative to the
    /// directory searched).
    pub name: String,
    /// `ngg`, `vs`, `ps`, `cs` (empty when the capture did not open).
    pub stage: String,
    /// Lanes per wave.
    pub wave: u32,
    /// Decoded instructions.
    pub instructions: usize,
    /// Undecodable dwords.
    pub invalid: usize,
    /// Descriptors with their verdicts.
    pub descriptors: Vec<Verdict>,
    /// Draws bound and verified.
    pub draws: usize,
    /// Bytes bound over the default draws with narrowing.
    pub narrowed_bytes: u64,
    /// Bytes the baseline rules bind over the same draws.
    pub baseline_bytes: u64,
    /// Bindings (one per descriptor per draw) the draws bound.
    pub bindings: usize,
    /// Of those, how many were narrowed.
    pub narrowed_bindings: usize,
    /// Fetched bytes outside their bound range.
    pub violations: usize,
    /// Draws the interpreter could not check completely.
    pub unverified: usize,
    /// Translation: `ok (naga)`, `ok (naga, spirv-val)`, `unsupported (N: codes)`
    /// (how many constructs, and their [`translator::Construct::code`]s),
    /// `invalid` or `error`.
    pub translate: String,
    /// Device run: [`check_capture`] says `not requested`; a caller that
    /// runs the translation on a device writes its result here.
    pub run: String,
    /// True when the row counts as a failure (violation, panic, unreadable
    /// capture, internal error).
    pub failed: bool,
    /// What failed, when something did.
    pub error: Option<String>,
    /// [`CheckRow::error`] as a value, when the pipeline set it.
    #[serde(skip)]
    pub cause: Option<CheckError>,
    /// A vertex or pixel shader, or a compute shader with its entry state,
    /// that translated: a device run applies.
    #[serde(skip)]
    pub runnable: bool,
}

impl CheckRow {
    /// A row for a capture that could not be checked at all (it did not
    /// open, it is too large, the caller caught a panic): `failed`, with
    /// `error` and nothing else.
    pub fn failed(name: String, error: String) -> CheckRow {
        CheckRow {
            name,
            stage: String::new(),
            wave: 0,
            instructions: 0,
            invalid: 0,
            descriptors: Vec::new(),
            draws: 0,
            narrowed_bytes: 0,
            baseline_bytes: 0,
            bindings: 0,
            narrowed_bindings: 0,
            violations: 0,
            unverified: 0,
            translate: "-".into(),
            run: "-".into(),
            failed: true,
            error: Some(error),
            cause: None,
            runnable: false,
        }
    }

    /// Mark the row failed by `e`.
    fn fail(&mut self, e: CheckError) {
        self.failed = true;
        self.error = Some(e.to_string());
        self.cause = Some(e);
    }
}

/// The whole pipeline for one capture; see the [module docs](self). The
/// caller bounds the code size first if the capture comes from untrusted
/// input (the CLI refuses more than 16 MiB).
pub fn check_capture(capture: &Capture, opts: &CheckOptions) -> CheckRow {
    let stage = capture.stage();
    let abi = capture.abi();
    let wave64 = capture.wave_size() == WaveSize::W64;
    let mode = Mode::with_wave_size(capture.target(), capture.wave_size().lanes());
    let mut row = CheckRow {
        name: capture.name.clone(),
        stage: stage.name().to_string(),
        wave: capture.wave_size().lanes(),
        failed: false,
        error: None,
        ..CheckRow::failed(capture.name.clone(), String::new())
    };

    // Decode.
    let mut inst = Instruction::default();
    let mut d = Decoder::new(&capture.code, mode);
    while let Some((_, r)) = d.next_into(&mut inst) {
        match r {
            Ok(()) => row.instructions += 1,
            Err(_) => row.invalid += 1,
        }
    }

    // Trace.
    let config = TraceConfig::new(stage, abi, !wave64);
    let trace = trace_code(&capture.code, capture.target(), &config);
    row.descriptors = verdicts(&trace);

    // Bind and verify the default draws (vertex stages only).
    if stage.is_vertex() {
        match bind_and_verify(capture, &trace, wave64) {
            Ok(b) => {
                row.draws = b.draws;
                row.narrowed_bytes = b.narrowed;
                row.baseline_bytes = b.baseline;
                row.bindings = b.bindings;
                row.narrowed_bindings = b.narrowed_bindings;
                row.violations = b.violations;
                row.unverified = b.unverified;
                if b.unverified > 0 {
                    // As for `shaderlift verify`: a draw the interpreter
                    // could not check completely is never silently clean.
                    row.fail(CheckError::Unverified {
                        unverified: b.unverified,
                        draws: b.draws,
                        first: b.first_unverified.unwrap_or_else(|| "-".into()),
                    });
                }
            }
            Err(e) => row.fail(e),
        }
    }

    // Translate and validate.
    let input = capture.shader_input();
    // Compute captures that record their entry state translate under the
    // compute model (`translator::wave`).
    let translated = match capture.compute_entry() {
        Some(entry) => {
            translator::translate_compute(&input, &entry, &translator::Options::default())
        }
        None => {
            let opts = translator::Options::default();
            match translator::translate(&input, Some(&trace), &opts) {
                // NGG shaders with constructs that need the other lanes
                // (culling shaders): the NGG compute pass.
                Err(TranslateError::Unsupported(list))
                    if translator::wants_ngg_pass(&input, &list) =>
                {
                    let entry = translator::ngg_entry_of(&input);
                    translator::translate_ngg(&input, &entry, &opts)
                }
                r => r,
            }
        }
    };
    row.translate = match translated {
        Ok(t) => match opts
            .spirv_val
            .as_deref()
            .map(|tool| spirv_val_ok(tool, &t.spirv))
        {
            Some(Ok(())) => "ok (naga, spirv-val)".into(),
            Some(Err(e)) => {
                row.fail(CheckError::SpirvVal(e));
                "invalid".into()
            }
            None => "ok (naga)".into(),
        },
        Err(TranslateError::Unsupported(list)) => {
            format!("unsupported ({}: {})", list.0.len(), list.codes().join(","))
        }
        Err(e) => {
            row.fail(CheckError::Translate(Arc::new(e)));
            "error".into()
        }
    };
    row.runnable = (stage.is_vertex()
        || stage == isa::Stage::Ps
        || (stage == isa::Stage::Cs && capture.compute_entry().is_some()))
        && row.translate.starts_with("ok");
    row.run = "not requested".into();
    row
}

/// The descriptors' verdicts, as `shaderlift trace` names them.
pub fn verdicts(trace: &ShaderTrace) -> Vec<Verdict> {
    let n = trace.namer();
    trace
        .descriptors
        .iter()
        .map(|d| Verdict {
            source: trace.descriptor_source(d),
            bound: d.bound.map(|b| {
                let mut s = b.id.name().to_string();
                if let Some(w) = b.plus {
                    let _ = write!(s, " + {}", n.word_string(w));
                }
                s
            }),
            reason: d.reason.as_ref().map(ToString::to_string),
            reason_code: d.reason.as_ref().map(Unbound::code),
        })
        .collect()
}

struct BindFigures {
    draws: usize,
    bindings: usize,
    narrowed_bindings: usize,
    narrowed: u64,
    baseline: u64,
    violations: usize,
    unverified: usize,
    /// Why the first unverified draw was not checked completely.
    first_unverified: Option<String>,
}

fn bind_and_verify(
    capture: &Capture,
    trace: &ShaderTrace,
    wave64: bool,
) -> Result<BindFigures, CheckError> {
    let abi = capture.abi();
    let stage = capture.stage();
    let mut scene = synthesize(trace, &abi);
    // The code and its constant data, where the tools map them.
    let code_addr = drawbind::draws::DEFAULT_CODE_ADDR;
    scene
        .memory
        .write_bytes(code_addr, &capture.code_and_constants());
    // Verify (below) honours the trace's LDS contracts on both sides (the
    // interpreter fills the contract's cells), so the figures do too.
    let plan = BindPlan::new(trace, stage)
        .map_err(CheckError::Plan)?
        .with_code_address(code_addr)
        .honour_lds_init(true);
    let mut out = vec![BindRange::EMPTY; trace.descriptors.len()];
    let n = plan
        .bind_baseline(&scene.user_data, &scene.memory, &mut out)
        .map_err(CheckError::Baseline)?;
    let baseline_one: u64 = out[..n].iter().map(|r| r.size).sum();
    let mut narrowed = 0u64;
    let (mut bindings, mut narrowed_bindings) = (0, 0);
    for d in &scene.draws {
        let draw = d
            .as_draw_scanned(&scene.memory)
            .map_err(CheckError::Index)?;
        let n = plan
            .bind(&draw, &scene.user_data, &scene.memory, &mut out)
            .map_err(CheckError::Bind)?;
        narrowed += out[..n].iter().map(|r| r.size).sum::<u64>();
        bindings += n;
        narrowed_bindings += out[..n].iter().filter(|r| r.narrowed).count();
    }
    let shader = Shader {
        name: capture.path.to_str().unwrap_or("capture"),
        code: &capture.code,
        target: capture.target(),
        stage,
        abi,
        wave64,
    };
    let report = verify(
        &shader,
        &scene.draws,
        &scene.user_data,
        &scene.memory,
        &VerifyOptions::default(),
    )
    .map_err(CheckError::Verify)?;
    let first_unverified = report.draws.iter().find(|d| !d.verified()).map(|d| {
        match (&d.error, d.check.undefined.first()) {
            (Some(e), _) => e.clone(),
            (None, Some(f)) => format!("{f:?}"),
            (None, None) => "not checked completely".into(),
        }
    });
    Ok(BindFigures {
        first_unverified,
        draws: scene.draws.len(),
        bindings,
        narrowed_bindings,
        narrowed,
        baseline: baseline_one * scene.draws.len() as u64,
        violations: report.violations,
        unverified: report.unverified,
    })
}

/// Run `spirv-val` on a module (written to a temporary file, removed
/// after); its complaint when it rejects it.
fn spirv_val_ok(tool: &Path, words: &[u32]) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!(
        "shaderlift-corpus-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("m.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
    let out = Command::new(tool)
        .args(["--target-env", "vulkan1.1"])
        .arg(&file)
        .output()
        .map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}
