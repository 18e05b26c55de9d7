//! `shaderlift run`: translate a vertex shader, execute it on a Vulkan
//! device (lavapipe by default) for every draw of a DRAWS.json, and compare
//! every export of every vertex with the reference interpreter's.
//!
//! Per draw:
//! 1. drawbind binds each traced descriptor ([`BindPlan::bind`]); the bytes
//!    of each range are copied from guest memory into that descriptor's
//!    storage buffer, and its guest base, size and (with `--checked`)
//!    narrowed last record go into the parameters the manifest lists (push
//!    constants, and the params buffer for words past 128 bytes);
//! 2. the fallback window binding gets the guest bytes spanning every
//!    descriptor's baseline range (reads past a narrowed binding land
//!    there, as the baseline would have read them);
//! 3. each chunk of the draw (the whole draw when unsplit) is one host
//!    draw: `firstVertex` is the chunk's first vertex id and
//!    `firstInstance` 0, so the guest ids are the host indices; the
//!    translation's test mode stores each export into the output buffer;
//! 4. the interpreter runs the same draw; its exports and the device's
//!    are compared word by word ([`compare::compare`]).
//!
//! It prints one line per draw and ends with `N vertices, M mismatches`;
//! the exit code is 1 when M > 0, and when no export word was compared
//! (unless `--allow-skip`).

pub mod compare;
pub mod dispatch;
pub mod fragment;
pub mod images;
pub mod ngg;
pub mod pointers;
pub mod synth;
pub mod tree;

use super::{CaptureArgs, CliError};
use compare::{compare, Verdict};
use corpus::{Capture, WaveSize};
use drawbind::draws::{DrawSpec, DrawsFile};
use drawbind::{BindPlan, BindRange, GuestMemory, SparseMemory};
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;
use translator::host::{guest_reader, HostBinder, HostBinding};
use translator::manifest::{BindingKind, DrawParams, Manifest};
use translator::{translate, Options};
use vkharness::{Binding, DeviceChoice, DrawCall, Harness, Interface};

/// Execute a translated vertex shader on a Vulkan device for each draw of a
/// DRAWS.json and compare its exports with the reference interpreter's.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// The draws, user data and guest memory (the format of `shaderlift
    /// bind`); required for vertex shaders. A pixel shader runs over its
    /// own scene instead (one triangle over a 16×16 area with exact
    /// barycentrics, `run::fragment`).
    #[arg(long, value_name = "DRAWS.json")]
    pub draws: Option<PathBuf>,

    /// Compile the --checked guards in and report the violations each draw
    /// counts in the feedback buffer.
    #[arg(long)]
    pub checked: bool,

    /// The Vulkan device, by its index in the loader's list (default: the
    /// first CPU device, lavapipe).
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// Exit 0 even when nothing was compared (every draw skipped, or every
    /// export word undefined); the report still says so. Without it such a
    /// run fails: a check that compared nothing proves nothing.
    #[arg(long)]
    pub allow_skip: bool,

    /// Negative control for --checked: bind every narrowed descriptor one
    /// record short (bytes and checked bound), as a wrong narrowing would;
    /// the violations must then be counted while the exports stay right.
    #[arg(long, hide = true)]
    pub one_record_short: bool,

    /// FILE is a directory tree of captures: run only those whose path
    /// contains this text.
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,

    /// Write the DRAWS.json a compute shader's run synthesized (when it has
    /// no --draws) to this file.
    #[arg(long, value_name = "FILE")]
    pub emit_dispatch: Option<PathBuf>,

    /// Translate in fast mode (the host's f32 built-ins for v_rcp, v_rsq,
    /// v_sqrt, v_exp, v_log, v_sin, v_cos) instead of precise mode. The
    /// interpreter computes those correctly rounded, so fast-mode words
    /// may differ by the host's error (README: "Precise and fast mode").
    #[arg(long)]
    pub fast: bool,

    /// Trust that every per-lane descriptor table index stays below 8 where
    /// the shader does not prove it (an image read at a per-lane table slot
    /// is then expanded over 8 slots; an index past them would read 0, not
    /// the guest's descriptor). Without it such a shader is refused.
    #[arg(long)]
    pub trust_lane_table_slots: bool,
}

/// The vertex ids of an indexed draw as the interpreter reads them from
/// its index buffer (restart indices removed, base vertex added; `None`
/// without `index_addr`, or for a non-indexed draw).
pub(crate) fn index_ids(mem: &SparseMemory, spec: &DrawSpec) -> Result<Option<Vec<u32>>, String> {
    let Some((ib, restart)) = spec.index_buffer() else {
        return Ok(None);
    };
    let DrawSpec::Indexed { base_vertex, .. } = spec else {
        return Ok(None);
    };
    interp::index_buffer_ids(
        mem,
        ib.addr,
        ib.format.bytes() as u32,
        ib.first_index,
        ib.count,
        restart,
        *base_vertex,
    )
    .map(Some)
}

/// Bytes of guest memory the fallback window may span.
const WINDOW_LIMIT: u64 = 64 << 20;
/// Bytes one descriptor binding may hold, at most (larger ranges are cut to
/// this or the device's storage-buffer range; the rest is read through the
/// window).
const BINDING_LIMIT: u64 = 256 << 20;
/// Mismatches listed per draw.
const LISTED: usize = 16;

/// Knobs of [`execute`] beyond the CLI's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// `--checked`.
    pub checked: bool,
    /// Negative control: bind every narrowed descriptor one record short
    /// (its bytes and its checked last record), as a wrong narrowing would.
    pub one_record_short: bool,
    /// Translate in fast mode ([`translator::Options::precise`] off): the
    /// device's approximate operations then differ from the interpreter's
    /// correctly rounded ones by the host's error.
    pub fast: bool,
    /// [`translator::Options::trust_lane_table_slots`].
    pub trust_lane_table_slots: bool,
    /// Negative controls of the translator's lowerings
    /// ([`translator::Faults`]); none by default.
    #[doc(hidden)]
    pub translator_faults: translator::Faults,
    /// Negative control of the image runs: give the interpreter every
    /// image with its texel rows in reverse order (a wrong row address).
    #[doc(hidden)]
    pub flip_texel_rows_in_reference: bool,
    /// Negative control of vertex shaders' `global_load`s: bind the window
    /// over the descriptors' span only, as if the manifest's `global_reads`
    /// asked for nothing.
    #[doc(hidden)]
    pub window_ignores_global_reads: bool,
}

/// One device word that disagrees with the interpreter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Guest vertex id.
    pub vertex: u32,
    /// Guest instance id.
    pub instance: u32,
    /// The export (`pos0`, `param0`, ...).
    pub export: String,
    /// Component 0..=3.
    pub component: u8,
    /// The device's word (`None`: the device did not write the record).
    pub device: Option<u32>,
    /// The interpreter's word (`None`: the interpreter did not export it).
    pub reference: Option<u32>,
}

/// One descriptor binding of a draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoundDescriptor {
    /// Binding number in set 0.
    pub binding: u32,
    /// The descriptor's source.
    pub source: String,
    /// Guest base.
    pub base: u64,
    /// Bytes bound.
    pub size: u64,
    /// drawbind narrowed it.
    pub narrowed: bool,
    /// The last record the checked guard allows (`None`: not narrowed).
    pub last_record: Option<u32>,
    /// Bytes of the range that guest memory does not hold (bound as 0).
    pub unmapped_bytes: u64,
}

/// One draw's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawReport {
    /// Its index in the DRAWS.json.
    pub index: usize,
    /// Why it was not run (indexed draws).
    pub skipped: Option<String>,
    /// Vertices compared (vertices × instances).
    pub vertices: u64,
    /// Export words compared.
    pub words: u64,
    /// Words within one ulp but not bit-identical.
    pub within_ulp: u64,
    /// Words that disagree (or are missing on one side).
    pub mismatches: u64,
    /// Words the interpreter left undefined (not compared).
    pub undefined: u64,
    /// `--checked`: violations the feedback buffer counted.
    pub violations: Option<u32>,
    /// The descriptor bindings.
    pub bindings: Vec<BoundDescriptor>,
    /// The fallback window: guest base and bytes.
    pub window: (u64, u64),
    /// The window spans less than every descriptor's baseline range (it is
    /// capped at 64 MiB).
    pub window_capped: bool,
    /// The first mismatches.
    pub first_mismatches: Vec<Mismatch>,
    /// Seconds on the device (all chunks).
    pub device_seconds: f64,
    /// Seconds in the interpreter.
    pub interp_seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// The Vulkan device.
    pub device: String,
    /// `--checked`.
    pub checked: bool,
    /// Per draw.
    pub draws: Vec<DrawReport>,
    /// Vertices compared (pixels for a pixel shader: see `unit`).
    pub vertices: u64,
    /// What `vertices` counts: `"vertices"`, or `"pixels"` for a pixel
    /// shader's run (its mismatches name the pixel `y * 16 + x`).
    pub unit: &'static str,
    /// Mismatching words.
    pub mismatches: u64,
    /// Export words compared (all draws).
    pub words: u64,
    /// Export words the interpreter left undefined (not compared).
    pub undefined: u64,
    /// Draws not run (indexed draws).
    pub skipped_draws: usize,
    /// Seconds to translate.
    pub translate_seconds: f64,
    /// Seconds to make the pipeline.
    pub pipeline_seconds: f64,
}

/// [`RunReport::unit`] of a vertex shader's run.
pub const VERTICES: &str = "vertices";
/// [`RunReport::unit`] of a pixel shader's run.
pub const PIXELS: &str = "pixels";

/// Run `shaderlift run`.
pub fn run(args: Args) -> Result<(), CliError> {
    if tree::is_tree(&args.capture.file) {
        return run_tree(&args);
    }
    let capture = args.capture.open_for_analysis()?;
    let report = if capture.stage() == isa::Stage::Ps {
        if args.checked || args.draws.is_some() {
            return Err(CliError::Usage(
                "a pixel shader runs over its own scene: --draws and --checked do not apply".into(),
            ));
        }
        let harness = open_device(&args)?;
        fragment::execute_fragment(
            &capture,
            &harness,
            &fragment::FragmentOptions {
                trust_lane_table_slots: args.trust_lane_table_slots,
                ..Default::default()
            },
        )?
        .report()?
    } else {
        let Some(path) = &args.draws else {
            if capture.stage() == isa::Stage::Cs {
                if let Some(out) = &args.emit_dispatch {
                    // Checked before the run: never overwrite the capture.
                    let files = crate::output::capture_inputs(&capture.path);
                    let inputs: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
                    crate::output::refuse_input(out, &inputs, "--emit-dispatch")?;
                }
                let harness = open_device(&args)?;
                let (inputs, report) =
                    synth::execute(&capture, &harness, dispatch::DispatchFaults::default())?;
                if let Some(out) = &args.emit_dispatch {
                    let text = serde_json::to_string_pretty(&synth::to_json(&inputs))
                        .map_err(|e| CliError::Input(format!("{}: {e}", out.display())))?;
                    let mut staged = crate::output::Staged::new();
                    staged.write_bytes(out, (text + "\n").as_bytes())?;
                    staged.commit()?;
                }
                return judge_dispatches(&args, &report);
            }
            return Err(CliError::Usage(
                "--draws DRAWS.json is required for a vertex shader (a compute shader's dispatches are synthesized without it)".into(),
            ));
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let split = dispatch::split(&text)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        if let Some((draws, groups)) = split {
            return run_dispatches(&args, &capture, &draws, &groups);
        }
        let draws = DrawsFile::parse(&text)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        super::args::check_draw_budget(&draws)?;
        if needs_ngg_pass(&capture) {
            if args.checked {
                return Err(CliError::Usage(
                    "--checked does not apply to the NGG compute pass (it has no bind ranges)"
                        .into(),
                ));
            }
            return run_ngg(&args, &capture, &draws);
        }
        let harness = open_device(&args)?;
        let opts = RunOptions {
            checked: args.checked,
            one_record_short: args.one_record_short,
            fast: args.fast,
            trust_lane_table_slots: args.trust_lane_table_slots,
            ..RunOptions::default()
        };
        execute(&capture, &draws, &opts, &harness)?
    };
    let out = if args.json {
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        text_report(&report)
    };
    super::error::output_result(std::io::Write::write_all(
        &mut std::io::stdout(),
        out.as_bytes(),
    ))?;
    if report.mismatches > 0 {
        return Err(CliError::Input(format!(
            "{} of the device's export words differ from the interpreter's",
            report.mismatches
        )));
    }
    if let Some(why) = nothing_compared(&report) {
        if !args.allow_skip {
            return Err(CliError::Failed(format!(
                "{why} (pass --allow-skip to accept a run that checks nothing)"
            )));
        }
        eprintln!("shaderlift: note: {why}");
    }
    Ok(())
}

/// `shaderlift run DIR` over a tree of captures ([`tree`]).
fn run_tree(args: &Args) -> Result<(), CliError> {
    if args.draws.is_some() || args.checked || args.emit_dispatch.is_some() {
        return Err(CliError::Usage(
            "a tree of captures runs each on its own inputs: --draws, --checked and --emit-dispatch do not apply".into(),
        ));
    }
    let harness = open_device(args)?;
    let report = tree::run_tree(
        &args.capture.file,
        args.only.as_deref(),
        &args.capture.options()?,
        &harness,
    )?;
    let out = if args.json {
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        report.text()
    };
    super::error::output_result(std::io::Write::write_all(
        &mut std::io::stdout(),
        out.as_bytes(),
    ))?;
    let failing = report
        .entries
        .iter()
        .filter(|e| e.outcome.is_failure())
        .count();
    if failing > 0 {
        return Err(CliError::Failed(format!(
            "{failing} entries have mismatches, findings or failed runs"
        )));
    }
    Ok(())
}

/// Whether a capture runs as the NGG compute pass ([`ngg`]): an NGG shader
/// the direct vertex path refuses for constructs that need the other lanes.
pub fn needs_ngg_pass(capture: &Capture) -> bool {
    if capture.stage() != isa::Stage::Ngg {
        return false;
    }
    let input = capture.shader_input();
    match translator::translate(&input, None, &Options::default()) {
        Err(translator::TranslateError::Unsupported(list)) => {
            translator::wants_ngg_pass(&input, &list)
        }
        _ => false,
    }
}

/// `shaderlift run` of an NGG shader as a compute pass ([`ngg`]).
fn run_ngg(args: &Args, capture: &Capture, draws: &DrawsFile) -> Result<(), CliError> {
    let report = ngg::execute(capture, draws, &open_device(args)?)?;
    let tally = Tally {
        mismatches: report.mismatches,
        findings: report.findings,
        words: report.words,
    };
    print_and_judge(
        args,
        &report,
        report.text(),
        tally,
        "output",
        "no draw exported",
    )
}

/// `shaderlift run` of a compute shader's dispatches ([`dispatch`]).
fn run_dispatches(
    args: &Args,
    capture: &Capture,
    draws: &DrawsFile,
    groups: &[[u32; 3]],
) -> Result<(), CliError> {
    let report = dispatch::execute(capture, draws, groups, &open_device(args)?)?;
    judge_dispatches(args, &report)
}

/// Print a dispatch run's report and judge it.
fn judge_dispatches(args: &Args, report: &dispatch::DispatchRunReport) -> Result<(), CliError> {
    let tally = Tally {
        mismatches: report.mismatches,
        findings: report.findings,
        words: report.words,
    };
    print_and_judge(
        args,
        &report,
        report.text(),
        tally,
        "written",
        "no dispatch wrote",
    )
}

/// The device `--device` names (the default one without it).
fn open_device(args: &Args) -> Result<Harness, CliError> {
    let choice = match args.device {
        Some(n) => DeviceChoice::Index(n),
        None => DeviceChoice::Default,
    };
    Harness::new(choice).map_err(|e| CliError::Input(e.to_string()))
}

/// What a compute-pass or dispatch run's verdict depends on.
struct Tally {
    mismatches: u64,
    findings: usize,
    words: u64,
}

/// Print a pass or dispatch report (`--json` or text) and turn its tally
/// into the exit status: mismatches are an input error, findings and an
/// empty comparison (without `--allow-skip`) failures. `kind` names the
/// compared words ("output", "written"); `none` says why nothing was
/// compared ("no draw exported").
fn print_and_judge<R: serde::Serialize>(
    args: &Args,
    report: &R,
    text: String,
    tally: Tally,
    kind: &str,
    none: &str,
) -> Result<(), CliError> {
    let out = if args.json {
        serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
    } else {
        text
    };
    super::error::output_result(std::io::Write::write_all(
        &mut std::io::stdout(),
        out.as_bytes(),
    ))?;
    if tally.mismatches > 0 {
        return Err(CliError::Input(format!(
            "{} of the device's {kind} words differ from the interpreter's",
            tally.mismatches
        )));
    }
    if tally.findings > 0 {
        return Err(CliError::Failed(format!(
            "the interpreter could not check every access ({} findings)",
            tally.findings
        )));
    }
    if tally.words == 0 && !args.allow_skip {
        return Err(CliError::Failed(format!(
            "nothing was compared: {none} a word (pass --allow-skip to accept a run that checks nothing)"
        )));
    }
    Ok(())
}

/// A harness error of shader `name`: what the device lacks
/// ([`vkharness::HarnessError::Unsupported`]) is a typed "not run"
/// ([`CliError::NotRun`]), anything else an error.
pub fn harness_error(name: &str, e: vkharness::HarnessError) -> CliError {
    match e {
        vkharness::HarnessError::Unsupported { .. } => CliError::NotRun(format!("{name}: {e}")),
        e => CliError::Input(format!("{name}: {e}")),
    }
}

/// Why a run proves nothing: `Some` when it compared no export word.
pub fn nothing_compared(r: &RunReport) -> Option<String> {
    (r.words == 0).then(|| {
        format!(
            "nothing was compared: {} draws, {} skipped, {} vertices, {} undefined words",
            r.draws.len(),
            r.skipped_draws,
            r.vertices,
            r.undefined
        )
    })
}

/// The report as text: a line per draw, then `N vertices, M mismatches`.
pub fn text_report(r: &RunReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "device: {}", r.device);
    for d in &r.draws {
        if let Some(why) = &d.skipped {
            let _ = writeln!(s, "draw {}: skipped: {why}", d.index);
            continue;
        }
        let _ = write!(
            s,
            "draw {}: {} {}, {} words, {} mismatches, {} within 1 ulp, {} undefined",
            d.index, d.vertices, r.unit, d.words, d.mismatches, d.within_ulp, d.undefined
        );
        if let Some(v) = d.violations {
            let _ = write!(s, ", {v} violations");
        }
        let _ = writeln!(s);
        if d.window_capped {
            let _ = writeln!(
                s,
                "  note: the window covers only {:#x}..{:#x} of the descriptors' baseline ranges",
                d.window.0,
                d.window.0 + d.window.1
            );
        }
        for b in &d.bindings {
            let _ = writeln!(
                s,
                "  binding {} {}: base {:#x} size {}{}{}",
                b.binding,
                b.source,
                b.base,
                b.size,
                if b.narrowed { " narrowed" } else { "" },
                b.last_record
                    .map(|l| format!(" last record {l}"))
                    .unwrap_or_default()
            );
            if b.unmapped_bytes > 0 {
                let _ = writeln!(
                    s,
                    "    note: guest memory lacks {} of these bytes (bound as 0)",
                    b.unmapped_bytes
                );
            }
        }
        for m in &d.first_mismatches {
            let show = |w: Option<u32>| match w {
                Some(w) => format!("{w:#010x} ({})", f32::from_bits(w)),
                None => "missing".into(),
            };
            let at = if r.unit == PIXELS {
                format!("pixel {}", m.vertex)
            } else {
                format!("vertex {} instance {}", m.vertex, m.instance)
            };
            let _ = writeln!(
                s,
                "  {at} {}.{}: device {} interpreter {}",
                m.export,
                ["x", "y", "z", "w"][m.component as usize & 3],
                show(m.device),
                show(m.reference)
            );
        }
    }
    let _ = writeln!(s, "{} {}, {} mismatches", r.vertices, r.unit, r.mismatches);
    if let Some(why) = nothing_compared(r) {
        let _ = writeln!(s, "{why}");
    }
    s
}

/// Copy `len` guest bytes at `base`; unmapped dwords read 0. Returns the
/// bytes and how many were unmapped.
/// The most host draws one indexed draw becomes (one per run of
/// consecutive distinct vertex ids).
const MAX_INDEXED_RUNS: usize = 256;

/// The distinct ids, sorted, as runs `(first, count)` of consecutive ids:
/// the host draws that run each vertex of an indexed draw exactly once.
fn id_runs(ids: &[u32]) -> Vec<(u32, u32)> {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for id in sorted {
        match runs.last_mut() {
            Some((first, count)) if first.wrapping_add(*count) == id && *count < u32::MAX => {
                *count += 1
            }
            _ => runs.push((id, 1)),
        }
    }
    runs
}

/// A window spanning `w` and every block of `blocks` (address, bytes), at
/// most `limit` bytes (`capped` when they span more).
fn file_memory_window(
    blocks: &[(u64, u64)],
    w: translator::host::HostWindow,
    limit: u64,
) -> translator::host::HostWindow {
    let spans = blocks
        .iter()
        .copied()
        .filter(|&(_, len)| len > 0)
        .chain((w.size > 0).then_some((w.base, w.size)));
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    for (a, len) in spans {
        lo = lo.min(a);
        hi = hi.max(a.saturating_add(len));
    }
    if hi <= lo {
        return w;
    }
    let size = (hi - lo).min(limit) & !3;
    translator::host::HostWindow {
        base: lo,
        size,
        capped: w.capped || hi - lo > size,
    }
}

fn guest_bytes(mem: &SparseMemory, base: u64, len: u64) -> (Vec<u8>, u64) {
    let mut out = vec![0u8; len as usize];
    let mut missing = 0;
    let mut i = 0u64;
    while i < len {
        let a = base.wrapping_add(i);
        let aligned = a & !3;
        let skip = (a - aligned) as usize;
        let take = (4 - skip).min((len - i) as usize);
        match mem.read_u32(aligned) {
            Some(w) => {
                let b = w.to_le_bytes();
                out[i as usize..i as usize + take].copy_from_slice(&b[skip..skip + take]);
            }
            None => missing += take as u64,
        }
        i += take as u64;
    }
    (out, missing)
}

/// One export of one vertex as the interpreter gave it: the four words,
/// the enable mask and the defined mask.
type RefExport = ([u32; 4], u8, u8);

/// Key of a vertex of a draw: (guest vertex id, instance id).
type VertexKey = (u32, u32);

/// Everything a shader's draws share.
struct Session<'a> {
    capture: &'a Capture,
    manifest: Manifest,
    /// The manifest's descriptor bindings over the plan (the guest facts of
    /// each draw's bindings and window).
    binder: HostBinder,
    user_data: Vec<u32>,
    mem: SparseMemory,
    /// The interpreter's memory when it differs from `mem` (a negative
    /// control).
    ref_mem: Option<SparseMemory>,
    /// The images of every draw (host side).
    images: Vec<images::HostImage>,
    iprog: interp::Program,
    icfg: interp::DrawConfig,
    opts: &'a RunOptions,
    binding_limit: u64,
    /// The DRAWS.json memory blocks (address, bytes): what a window for
    /// loads through computed pointers spans.
    file_memory: Vec<(u64, u64)>,
}

/// The storage buffers of one draw, in manifest order: (binding, bytes,
/// size, read back).
pub(crate) type DrawBuffers = Vec<(u32, Vec<u8>, u64, bool)>;

impl DrawReport {
    /// Draw `index` of `vertices` units, nothing compared or bound yet.
    pub(crate) fn new(index: usize, vertices: u64) -> DrawReport {
        DrawReport {
            index,
            skipped: None,
            vertices,
            words: 0,
            within_ulp: 0,
            mismatches: 0,
            undefined: 0,
            violations: None,
            bindings: Vec::new(),
            window: (0, 0),
            window_capped: false,
            first_mismatches: Vec::new(),
            device_seconds: 0.0,
            interp_seconds: 0.0,
        }
    }
}

/// What [`bind_guest_buffers`] binds from: a shader's descriptor bindings
/// and the guest inputs of its draws.
pub(crate) struct GuestInputs<'a> {
    /// The manifest's descriptor bindings over the plan.
    pub binder: &'a HostBinder,
    /// The translation's manifest.
    pub manifest: &'a Manifest,
    /// User data.
    pub user_data: &'a [u32],
    /// Guest memory.
    pub mem: &'a SparseMemory,
    /// The code's guest address.
    pub code_addr: u64,
    /// Bytes one descriptor binding may hold, at most.
    pub binding_limit: u64,
    /// Memory blocks (address, bytes) the window spans when the manifest
    /// lists `global_reads`; `None`: the descriptors' span only.
    pub file_memory: Option<&'a [(u64, u64)]>,
    /// Negative control: every narrowed descriptor one record short.
    pub one_record_short: bool,
}

/// The storage buffers and per-draw parameters of a draw: each traced
/// descriptor at its drawbind range (its guest bytes), the window, and
/// empty placeholders for the feedback, parameter and output buffers (the
/// caller fills those), in manifest order; `dr` gets the bindings and the
/// window.
pub(crate) fn bind_guest_buffers(
    g: &GuestInputs<'_>,
    draw: &drawbind::Draw<'_>,
    dr: &mut DrawReport,
) -> Result<(DrawBuffers, DrawParams), String> {
    let mut scratch = vec![BindRange::EMPTY; g.binder.scratch_len()];
    let mut host = vec![HostBinding::EMPTY; g.binder.len()];
    g.binder
        .bind_draw(draw, g.user_data, g.mem, &mut scratch, &mut host)
        .map_err(|e| e.to_string())?;
    // The window spans every descriptor's baseline range (capped).
    let mut window = g
        .binder
        .window(g.user_data, g.mem, &mut scratch, WINDOW_LIMIT)
        .map_err(|e| e.to_string())?;
    if let Some(blocks) = g
        .file_memory
        .filter(|_| !g.manifest.global_reads.is_empty())
    {
        window = file_memory_window(blocks, window, WINDOW_LIMIT);
    }
    let (lo, window_len) = (window.base, window.size);
    dr.window = (lo, window_len);
    dr.window_capped = window.capped;
    let mut params = DrawParams {
        window: (lo, window_len as u32),
        code_addr: g.code_addr,
        ..DrawParams::default()
    };
    let mut buffers = Vec::new();
    // `host` lists the descriptor bindings in manifest order.
    let mut host = host.iter();
    for b in &g.manifest.bindings {
        match &b.kind {
            BindingKind::Descriptor { source, .. } => {
                let Some(h) = host.next().filter(|h| h.binding == b.binding) else {
                    return Err(format!(
                        "binding {} ({source}) has no bind range",
                        b.binding
                    ));
                };
                let mut h = *h;
                if g.one_record_short {
                    if let Some(l) = h.last_record {
                        h.last_record = l.checked_sub(1);
                        h.size = h.size.saturating_sub(u64::from(h.stride));
                    }
                }
                let range = h.range(g.binding_limit);
                let size = u64::from(range.size);
                let (bytes, unmapped) = guest_bytes(g.mem, h.base, size);
                params.bindings.push(range);
                dr.bindings.push(BoundDescriptor {
                    binding: b.binding,
                    source: source.clone(),
                    base: h.base,
                    size,
                    narrowed: h.narrowed,
                    last_record: h.last_record,
                    unmapped_bytes: unmapped,
                });
                buffers.push((b.binding, bytes, size, false));
            }
            BindingKind::Window => {
                let (bytes, _) = guest_bytes(g.mem, lo, window_len);
                buffers.push((b.binding, bytes, window_len, false));
            }
            BindingKind::Feedback => buffers.push((b.binding, Vec::new(), 4, true)),
            // Both are filled per host draw by the caller.
            BindingKind::Params | BindingKind::TestOutputs => {
                buffers.push((b.binding, Vec::new(), 0, false))
            }
            // The NGG compute pass runs through `run::ngg`, never here.
            BindingKind::NggOutput | BindingKind::NggSubgroups => {
                return Err("an NGG compute-pass module in a draw runner".into())
            }
        }
    }
    Ok((buffers, params))
}

/// Translate, bind, run on the device and compare, for every draw.
pub fn execute(
    capture: &Capture,
    draws: &DrawsFile,
    opts: &RunOptions,
    harness: &Harness,
) -> Result<RunReport, CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let t0 = Instant::now();
    let trace = crate::trace::trace_capture(capture);
    let tr = translate(
        &capture.shader_input(),
        Some(&trace),
        &Options {
            checked: opts.checked,
            test_outputs: true,
            validate: true,
            precise: !opts.fast,
            trust_lane_table_slots: opts.trust_lane_table_slots,
            shading_rate: Default::default(),
            // Descriptor arrays at a per-lane table slot: only the pixel
            // scene binds their slots and checks the interpreter's reads
            // of them (`run::images::uncovered_slot_reads`); here such an
            // instruction stays refused.
            lane_table_arrays: false,
            faults: opts.translator_faults,
        },
    )
    .map_err(|e| named(&e))?;
    let translate_seconds = t0.elapsed().as_secs_f64();

    // Images: the descriptors the draws' memory gives, or the scene's.
    let user_data = draws.user_data();
    let mut mem = draws.memory_with_code(&capture.code_and_constants());
    let host_images = images::capture_images(capture, &tr.manifest, &user_data, &mut mem)?;
    let ref_mem = opts
        .flip_texel_rows_in_reference
        .then(|| images::flip_rows(&mem, &host_images));
    let slots = images::slots(&tr.manifest);

    let t0 = Instant::now();
    let interface = Interface {
        entry_point: "main".into(),
        bindings: tr.manifest.bindings.iter().map(|b| b.binding).collect(),
        push_constant_bytes: tr.manifest.push_constant_bytes,
    };
    let program = harness
        .program_with_images(&tr.spirv, &interface, &slots)
        .map_err(|e| harness_error(&capture.name, e))?;
    let pipeline_seconds = t0.elapsed().as_secs_f64();

    let plan = BindPlan::new(&trace, capture.stage())
        .map_err(|e| named(&e))?
        .with_code_address(draws.code_addr());
    let iprog = interp::Program::new(&capture.code, capture.target());
    let mut icfg = interp::DrawConfig::new(
        &iprog,
        capture.stage(),
        capture.abi(),
        capture.wave_size() == WaveSize::W64,
    );
    icfg.code_addr = draws.code_addr();
    let binder = HostBinder::new(&tr.manifest, trace, plan, Some(draws.code_addr()));
    let session = Session {
        capture,
        manifest: tr.manifest,
        binder,
        user_data,
        mem,
        ref_mem,
        images: host_images,
        iprog,
        icfg,
        opts,
        binding_limit: BINDING_LIMIT.min(harness.max_storage_buffer_range()),
        file_memory: draws
            .memory
            .iter()
            .map(|b| (b.addr.0, 4 * b.words.len() as u64))
            .collect(),
    };

    let mut report = RunReport {
        device: harness.device_info().name.clone(),
        checked: opts.checked,
        draws: Vec::new(),
        vertices: 0,
        unit: VERTICES,
        mismatches: 0,
        words: 0,
        undefined: 0,
        skipped_draws: 0,
        translate_seconds,
        pipeline_seconds,
    };
    for (index, spec) in draws.draws.iter().enumerate() {
        let dr = session.draw(index, spec, &program)?;
        report.vertices += dr.vertices;
        report.mismatches += dr.mismatches;
        report.words += dr.words;
        report.undefined += dr.undefined;
        report.skipped_draws += usize::from(dr.skipped.is_some());
        report.draws.push(dr);
    }
    Ok(report)
}

impl Session<'_> {
    /// Bind, run and compare one draw.
    fn draw(
        &self,
        index: usize,
        spec: &DrawSpec,
        program: &vkharness::VertexProgram<'_>,
    ) -> Result<DrawReport, CliError> {
        let mut dr = DrawReport::new(index, 0);
        let bad = |e: String| CliError::Input(format!("{}: draw {index}: {e}", self.capture.name));
        // The host draws (first vertex id, count) and the interpreter's draw.
        let (runs, instance_count, reference_draw): (Vec<(u32, u32)>, u32, interp::Draw) =
            match spec {
                DrawSpec::Auto {
                    first_vertex,
                    vertex_count,
                    instance_count,
                    chunks,
                } => (
                    // One host draw per chunk (the whole draw when unsplit).
                    if chunks.is_empty() {
                        vec![(*first_vertex, *vertex_count)]
                    } else {
                        chunks.clone()
                    },
                    *instance_count,
                    interp::Draw::Auto {
                        first_vertex: *first_vertex,
                        vertex_count: *vertex_count,
                        instance_count: *instance_count,
                        chunks: chunks.clone(),
                    },
                ),
                DrawSpec::Indexed { instance_count, .. } => {
                    let Some(ids) = index_ids(&self.mem, spec).map_err(bad)? else {
                        dr.skipped = Some(
                            "an indexed draw without index_addr has unknown vertex ids".into(),
                        );
                        return Ok(dr);
                    };
                    let runs = id_runs(&ids);
                    if runs.len() > MAX_INDEXED_RUNS {
                        dr.skipped = Some(format!(
                            "its {} distinct vertex ids form {} runs; at most {MAX_INDEXED_RUNS} host draws per draw",
                            ids.len(),
                            runs.len()
                        ));
                        return Ok(dr);
                    }
                    (
                        runs,
                        *instance_count,
                        interp::Draw::Ids {
                            ids,
                            instance_count: *instance_count,
                        },
                    )
                }
                _ => {
                    dr.skipped = Some("a draw kind `run` does not know".into());
                    return Ok(dr);
                }
            };
        let (buffers, mut params) = self.bind(spec, &mut dr).map_err(bad)?;
        let mut device = HashMap::new();
        let mut violations = 0u32;
        for &(first, count) in &runs {
            params.out_first_vertex = first;
            params.out_vertex_count = count;
            let t = Instant::now();
            let v = self
                .run_device(
                    program,
                    &buffers,
                    &params,
                    first,
                    count,
                    instance_count,
                    &mut device,
                )
                .map_err(|e| match e {
                    CliError::Input(m) => bad(m),
                    e => e,
                })?;
            dr.device_seconds += t.elapsed().as_secs_f64();
            violations = violations.saturating_add(v);
        }
        if self.manifest.checked {
            dr.violations = Some(violations);
        }
        let t = Instant::now();
        let reference = self.run_reference(&reference_draw).map_err(bad)?;
        dr.interp_seconds = t.elapsed().as_secs_f64();
        for &(first, count) in &runs {
            for instance in 0..instance_count {
                for v in 0..count {
                    let key = (first.wrapping_add(v), instance);
                    self.compare_vertex(key, device.get(&key), reference.get(&key), &mut dr);
                }
            }
        }
        Ok(dr)
    }

    /// The storage buffers and per-draw parameters of a draw
    /// ([`bind_guest_buffers`] over the session's inputs).
    fn bind(
        &self,
        spec: &DrawSpec,
        dr: &mut DrawReport,
    ) -> Result<(DrawBuffers, DrawParams), String> {
        let draw = spec.as_draw_scanned(&self.mem).map_err(|e| e.to_string())?;
        bind_guest_buffers(
            &GuestInputs {
                binder: &self.binder,
                manifest: &self.manifest,
                user_data: &self.user_data,
                mem: &self.mem,
                code_addr: self.icfg.code_addr,
                binding_limit: self.binding_limit,
                // Loads through computed pointers: the window spans every
                // guest byte the file names (the trace bounds none of those
                // pointers).
                file_memory: (!self.opts.window_ignores_global_reads)
                    .then_some(self.file_memory.as_slice()),
                one_record_short: self.opts.one_record_short,
            },
            &draw,
            dr,
        )
    }

    /// One host draw of vertex ids `first..first + count`; stores each
    /// vertex's output words in `device` and returns the violations the
    /// feedback buffer counted.
    #[allow(clippy::too_many_arguments)]
    fn run_device(
        &self,
        program: &vkharness::VertexProgram<'_>,
        buffers: &DrawBuffers,
        params: &DrawParams,
        first: u32,
        count: u32,
        instances: u32,
        device: &mut HashMap<VertexKey, Vec<u32>>,
    ) -> Result<u32, CliError> {
        // Guest addresses are 48-bit (the pointers RADV builds carry
        // 0xffff8000 in their high half).
        let mut read = guest_reader(&self.mem);
        let push = self
            .manifest
            .push_words(&self.user_data, params, &mut read)
            .map_err(|e| CliError::Input(e.to_string()))?;
        let push: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
        let params_words = self
            .manifest
            .param_buffer_words(&self.user_data, params, &mut read)
            .map_err(|e| CliError::Input(e.to_string()))?;
        let params_bytes: Vec<u8> = params_words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let per = 4 * self.manifest.outputs.len();
        let records = u64::from(count) * u64::from(instances);
        // Records the shader never writes keep this pattern.
        let unwritten = vec![0xa5u8; (records * per as u64 * 4) as usize];
        let kind = |binding: u32| {
            self.manifest
                .bindings
                .iter()
                .find(|m| m.binding == binding)
                .map(|m| &m.kind)
        };
        let bindings: Vec<Binding<'_>> = buffers
            .iter()
            .map(|(binding, bytes, size, read_back)| match kind(*binding) {
                Some(BindingKind::TestOutputs) => Binding {
                    binding: *binding,
                    bytes: &unwritten,
                    size: unwritten.len() as u64,
                    read_back: true,
                },
                Some(BindingKind::Params) => Binding::input(*binding, &params_bytes),
                _ => Binding {
                    binding: *binding,
                    bytes,
                    size: *size,
                    read_back: *read_back,
                },
            })
            .collect();
        let inputs: Vec<vkharness::ImageInput<'_>> =
            self.images.iter().map(|h| h.input()).collect();
        let out = program
            .run_with_images(
                &DrawCall {
                    vertex_count: count,
                    instance_count: instances,
                    first_vertex: first,
                    first_instance: 0,
                },
                &bindings,
                &inputs,
                &push,
            )
            .map_err(|e| match e {
                vkharness::HarnessError::Unsupported { .. } => harness_error(&self.capture.name, e),
                e => CliError::Input(e.to_string()),
            })?;
        let mut violations = 0u32;
        for m in &self.manifest.bindings {
            let Some(b) = out.buffer(m.binding) else {
                continue;
            };
            let words: Vec<u32> = b
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            match m.kind {
                BindingKind::Feedback => {
                    violations = violations.saturating_add(words.first().copied().unwrap_or(0));
                }
                BindingKind::TestOutputs => {
                    for (rec, w) in words.chunks_exact(per.max(1)).enumerate() {
                        if w.iter().all(|&x| x == 0xa5a5_a5a5) {
                            continue;
                        }
                        let rec = rec as u32;
                        let key = (first.wrapping_add(rec % count), rec / count);
                        device.insert(key, w.to_vec());
                    }
                }
                _ => {}
            }
        }
        Ok(violations)
    }

    /// The interpreter's exports of a draw, per vertex and output slot.
    fn run_reference(
        &self,
        draw: &interp::Draw,
    ) -> Result<HashMap<VertexKey, Vec<Option<RefExport>>>, String> {
        let mem = self.ref_mem.as_ref().unwrap_or(&self.mem);
        let run = interp::run_draw(&self.iprog, mem, &self.user_data, draw, &self.icfg)
            .map_err(|e| format!("interpreter: {e}"))?;
        let outputs = self.manifest.outputs.len();
        let mut reference: HashMap<VertexKey, Vec<Option<RefExport>>> = HashMap::new();
        for e in &run.obs.exports {
            let name = e.target_name();
            let Some(o) = self.manifest.outputs.iter().find(|o| o.export == name) else {
                continue;
            };
            let Some(w) = run.waves.get(e.wave as usize) else {
                continue;
            };
            let Some(&vid) = w.vertex_ids.get(e.lane as usize) else {
                continue;
            };
            let slots = reference
                .entry((vid, w.instance))
                .or_insert_with(|| vec![None; outputs]);
            if let Some(s) = slots.get_mut(o.test_slot as usize) {
                *s = Some((e.values, e.en, e.defined));
            }
        }
        Ok(reference)
    }

    /// Compare one vertex's outputs, component by component (only the
    /// components the interpreter's export enables).
    fn compare_vertex(
        &self,
        key: VertexKey,
        device: Option<&Vec<u32>>,
        reference: Option<&Vec<Option<RefExport>>>,
        dr: &mut DrawReport,
    ) {
        dr.vertices += 1;
        for o in &self.manifest.outputs {
            let s = o.test_slot as usize;
            let r = reference.and_then(|r| r.get(s).copied().flatten());
            for c in 0..4u8 {
                let bit = 1u8 << c;
                let rword = match r {
                    Some((_, en, _)) if en & bit == 0 => continue,
                    Some((_, _, def)) if def & bit == 0 => {
                        dr.undefined += 1;
                        continue;
                    }
                    Some((vals, _, _)) => Some(vals[c as usize]),
                    None => None,
                };
                let dword = device.and_then(|d| d.get(s * 4 + c as usize).copied());
                dr.words += 1;
                let verdict = match (dword, rword) {
                    (Some(d), Some(r)) => compare(d, r),
                    _ => Verdict::Mismatch,
                };
                match verdict {
                    Verdict::Exact => {}
                    Verdict::WithinUlp => dr.within_ulp += 1,
                    Verdict::Mismatch => {
                        dr.mismatches += 1;
                        if dr.first_mismatches.len() < LISTED {
                            dr.first_mismatches.push(Mismatch {
                                vertex: key.0,
                                instance: key.1,
                                export: o.export.clone(),
                                component: c,
                                device: dword,
                                reference: rword,
                            });
                        }
                    }
                }
            }
        }
    }
}
