//! `shaderlift corpus`: every capture under a directory through the whole
//! pipeline, one row per shader.
//!
//! For each capture (any form [`::corpus::find_captures`] recognises):
//! decode → trace → bind the default draws → verify them with the reference
//! interpreter → translate to SPIR-V (validated by naga, and by `spirv-val`
//! when it is installed), which is [`::corpus::check::check_capture`] →
//! with `--run`, execute on the Vulkan device. The
//! default draws come from the capture's metadata when it has them, else
//! from [`interp::scene`]: a scene laid out from the trace with the standard
//! auto, split, instanced and indexed draws.
//!
//! Captures run in parallel (rayon); the rows come out in the walk's order.
//! A panic inside one capture is caught and reported as that row's failure.
//! Exit status 1 when any row has a violation or failed (a draw not fully
//! verified fails its row; so does a `--run` that compared nothing, unless
//! `--allow-skip`); an unsupported construct in
//! translation is a status, not a failure.

use super::args::{resolve_stage_abi, AbiPreset};
use super::error::output_result;
use super::CliError;
use analysis::trace::{trace_code, TraceConfig};
use corpus::check::{CheckOptions, CheckRow};
use corpus::{Capture, CaptureOptions, WaveSize};
use indicatif::{ProgressBar, ProgressStyle};
use interp::scene::synthesize;
use isa::Stage;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The most worker threads `--jobs` may ask for.
pub const MAX_JOBS: usize = 256;

/// Run every check on each capture under the given directories (default:
/// the bundled corpus) and print one row per shader.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directories (or capture files) to search for captures.
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    /// Print the rows as a JSON array.
    #[arg(long)]
    pub json: bool,

    /// Worker threads, 1..=256 (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Hardware stage (ngg, vs, ps, cs) for captures without metadata (raw
    /// code, code objects); captures with metadata keep theirs.
    #[arg(long)]
    pub stage: Option<Stage>,

    /// Entry-register ABI preset for captures without metadata (raw code,
    /// code objects); alone it selects its stage too, as for every
    /// subcommand. Captures with metadata keep theirs.
    #[arg(long, value_name = "PRESET", value_parser = super::args::parse_abi)]
    pub abi: Option<AbiPreset>,

    /// Also run each translated shader on the Vulkan device and compare its
    /// outputs with the interpreter's (lavapipe by default).
    #[arg(long)]
    pub run: bool,

    /// With --run: accept a run that checked nothing (no Vulkan device, or
    /// a shader whose run compared no export word) instead of failing its
    /// rows; the rows still say so.
    #[arg(long)]
    pub allow_skip: bool,
}

/// One row of the report ([`::corpus::check::CheckRow`]).
pub type Row = CheckRow;

/// Run `shaderlift corpus`.
pub fn run(args: Args) -> Result<(), CliError> {
    let roots = if args.dirs.is_empty() {
        vec![::corpus::bundled_root()]
    } else {
        args.dirs.clone()
    };
    // A directory the walk cannot read is a failed row in its place; the
    // walk goes on.
    let mut jobs: Vec<(PathBuf, String, Option<String>)> = Vec::new();
    for root in &roots {
        let found = ::corpus::walk_captures(root).map_err(|e| CliError::Input(e.to_string()))?;
        for item in found {
            match item {
                Ok(p) => {
                    let name = display_name(root, &p);
                    jobs.push((p, name, None));
                }
                Err(e) => {
                    let p = match &e {
                        ::corpus::CaptureError::Io { path, .. } => path.clone(),
                        _ => root.clone(),
                    };
                    let name = display_name(root, &p);
                    jobs.push((p, name, Some(e.to_string())));
                }
            }
        }
    }
    if jobs.is_empty() {
        return Err(CliError::Input(format!(
            "no captures found under {}",
            roots
                .iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let (stage, abi) = resolve_stage_abi(args.stage, args.abi)?;
    let opts = CaptureOptions {
        stage,
        abi,
        only_unrecorded: true,
        ..CaptureOptions::default()
    };
    let check = CheckOptions {
        spirv_val: find_tool("spirv-val"),
    };
    let progress = (!args.json && io::stderr().is_terminal()).then(|| {
        let pb = ProgressBar::new(jobs.len() as u64);
        pb.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    });
    let work = || -> Vec<Row> {
        jobs.par_iter()
            .map(|(path, name, walk_error)| {
                if let Some(e) = walk_error {
                    return Row::failed(name.clone(), e.clone());
                }
                let row = match catch_unwind(AssertUnwindSafe(|| {
                    check_capture(path, name, &opts, &check, args.run)
                })) {
                    Ok(row) => row,
                    Err(panic) => {
                        Row::failed(name.clone(), format!("panic: {}", panic_text(&panic)))
                    }
                };
                if let Some(pb) = &progress {
                    pb.set_message(name.clone());
                    pb.inc(1);
                }
                row
            })
            .collect()
    };
    let mut rows = match args.jobs {
        Some(n) if !(1..=MAX_JOBS).contains(&n) => {
            return Err(CliError::Usage(format!(
                "--jobs {n} is outside 1..={MAX_JOBS}"
            )))
        }
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| CliError::Input(format!("--jobs {n}: {e}")))?
            .install(work),
        None => work(),
    };
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    if args.run {
        run_on_device(&jobs, &mut rows, &opts, args.allow_skip);
    }
    let text = if args.json {
        let mut s =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Input(e.to_string()))?;
        s.push('\n');
        s
    } else {
        table(&rows)
    };
    output_result(io::stdout().lock().write_all(text.as_bytes()))?;
    let failed = rows.iter().filter(|r| r.failed || r.violations > 0).count();
    if failed > 0 {
        return Err(CliError::Failed(format!(
            "{failed} of {} shaders failed or have violations",
            rows.len()
        )));
    }
    Ok(())
}

/// The capture's name relative to the searched root (the root's own name
/// when the root is the capture).
fn display_name(root: &Path, p: &Path) -> String {
    match p.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string()),
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// One capture: open it (with the walk's options), refuse oversized code,
/// then [`::corpus::check::check_capture`]; the row is named as the walk
/// names it, and with `run` its device run is marked pending (or `n/a`).
fn check_capture(
    path: &Path,
    name: &str,
    opts: &CaptureOptions,
    check: &CheckOptions,
    run: bool,
) -> Row {
    let capture = match Capture::open(path, opts) {
        Ok(c) => c,
        Err(e) => return Row::failed(name.to_string(), e.to_string()),
    };
    if let Err(e) = super::args::check_code_size(&capture) {
        return Row::failed(name.to_string(), e.to_string());
    }
    let mut row = ::corpus::check::check_capture(&capture, check);
    row.name = name.to_string();
    if run {
        row.run = if row.runnable { "pending" } else { "n/a" }.into();
    }
    row
}

/// `--run`: every translated vertex shader on the Vulkan device (one device
/// for the whole run), its exports compared with the interpreter's on the
/// default scene's draws.
fn run_on_device(
    jobs: &[(PathBuf, String, Option<String>)],
    rows: &mut [Row],
    opts: &CaptureOptions,
    allow_skip: bool,
) {
    let skip = |r: &mut Row, why: String| {
        r.run = format!("skipped: {why}");
        if !allow_skip {
            r.failed = true;
            r.error = Some(format!(
                "--run checked nothing: {why} (pass --allow-skip to accept)"
            ));
        }
    };
    let harness = match vkharness::Harness::new(vkharness::DeviceChoice::Default) {
        Ok(h) => h,
        Err(e) => {
            for r in rows.iter_mut().filter(|r| r.run == "pending") {
                skip(r, format!("no Vulkan device ({e})"));
            }
            return;
        }
    };
    for ((path, _, _), row) in jobs.iter().zip(rows.iter_mut()) {
        if row.run != "pending" {
            continue;
        }
        let result = catch_unwind(AssertUnwindSafe(
            || -> Result<Result<String, String>, String> {
                let capture = Capture::open(path, opts).map_err(|e| e.to_string())?;
                let config = TraceConfig::new(
                    capture.stage(),
                    capture.abi(),
                    capture.wave_size() == WaveSize::W32,
                );
                // Compute shaders run the dispatches `shaderlift run`
                // synthesizes from the trace.
                if capture.stage() == isa::Stage::Cs {
                    use super::run::tree::{run_capture, Outcome};
                    return match run_capture(&capture, None, &harness) {
                        Outcome::Ran {
                            units,
                            unit,
                            words,
                            mismatches,
                            findings,
                            ..
                        } => {
                            if mismatches > 0 || findings > 0 {
                                Err(format!(
                                    "{units} {unit}, {mismatches} mismatches, {findings} findings"
                                ))
                            } else if words == 0 {
                                Ok(Err("the synthesized dispatches compared no word".into()))
                            } else {
                                Ok(Ok(format!(
                                    "{units} {unit}, {words} words, 0 mismatches (synthesized)"
                                )))
                            }
                        }
                        Outcome::NotRun { detail, .. } => Ok(Err(detail)),
                        Outcome::Failed { error } => Err(error),
                    };
                }
                if capture.stage() == isa::Stage::Ps {
                    let outcome = super::run::fragment::execute_fragment(
                        &capture,
                        &harness,
                        &Default::default(),
                    )
                    .map_err(|e| e.to_string())?;
                    let report = match outcome {
                        super::run::fragment::FragmentOutcome::Ran(r) => r,
                        super::run::fragment::FragmentOutcome::NotRun(why) => return Ok(Err(why)),
                    };
                    if report.mismatches > 0 {
                        return Err(format!(
                            "{} pixels, {} mismatches",
                            report.vertices, report.mismatches
                        ));
                    }
                    return Ok(Ok(format!("{} pixels, 0 mismatches", report.vertices)));
                }
                let trace = trace_code(&capture.code, capture.target(), &config);
                let scene = synthesize(&trace, &capture.abi()).to_draws_file();
                // NGG shaders the direct path refuses for cross-lane
                // constructs run as the NGG compute pass on the same scene
                // (an indexed draw without an index buffer is named).
                if super::run::needs_ngg_pass(&capture) {
                    let report = match super::run::ngg::execute(&capture, &scene, &harness) {
                        Ok(r) => r,
                        Err(crate::CliError::NotRun(why)) => return Ok(Err(why)),
                        Err(e) => return Err(e.to_string()),
                    };
                    if report.mismatches > 0 || report.findings > 0 {
                        return Err(format!(
                            "{} vertices, {} mismatches, {} findings (NGG compute pass)",
                            report.vertices, report.mismatches, report.findings
                        ));
                    }
                    if report.words == 0 {
                        return Ok(Err("the NGG compute pass compared no word".into()));
                    }
                    let skipped = if report.skipped_draws.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; draws {:?} not run: unknown vertex ids",
                            report.skipped_draws
                        )
                    };
                    return Ok(Ok(format!(
                        "{} vertices, 0 mismatches (NGG compute pass{skipped})",
                        report.vertices
                    )));
                }
                let report = match super::run::execute(
                    &capture,
                    &scene,
                    &super::run::RunOptions::default(),
                    &harness,
                ) {
                    Ok(r) => r,
                    // A typed "not run" (what the run does not cover) is a
                    // skip, as a pixel shader's is.
                    Err(crate::CliError::NotRun(why)) => return Ok(Err(why)),
                    Err(e) => return Err(e.to_string()),
                };
                if report.mismatches > 0 {
                    return Err(format!(
                        "{} vertices, {} mismatches",
                        report.vertices, report.mismatches
                    ));
                }
                if let Some(why) = super::run::nothing_compared(&report) {
                    return Ok(Err(why));
                }
                Ok(Ok(format!("{} vertices, 0 mismatches", report.vertices)))
            },
        ));
        match result {
            Ok(Ok(Ok(s))) => row.run = s,
            Ok(Ok(Err(why))) => skip(row, why),
            Ok(Err(e)) => {
                row.run = "mismatch or error".into();
                row.failed = true;
                row.error = Some(e);
            }
            Err(p) => {
                row.run = "panic".into();
                row.failed = true;
                row.error = Some(format!("panic: {}", panic_text(&p)));
            }
        }
    }
}

fn human_bytes(b: u64) -> String {
    const K: u64 = 1024;
    if b >= K * K * K {
        format!("{:.1} GiB", b as f64 / (K * K * K) as f64)
    } else if b >= K * K {
        format!("{:.1} MiB", b as f64 / (K * K) as f64)
    } else if b >= K {
        format!("{:.1} KiB", b as f64 / K as f64)
    } else {
        format!("{b} B")
    }
}

/// The text table.
fn table(rows: &[Row]) -> String {
    let mut lines: Vec<[String; 9]> = vec![[
        "shader".into(),
        "stage".into(),
        "insts".into(),
        "desc".into(),
        "bound/unbound".into(),
        "narrowed / baseline".into(),
        "violations".into(),
        "translate".into(),
        "run".into(),
    ]];
    for r in rows {
        if r.stage.is_empty() {
            lines.push([
                r.name.clone(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                format!("FAILED: {}", r.error.as_deref().unwrap_or("")),
            ]);
            continue;
        }
        let bound = r.descriptors.iter().filter(|d| d.bound.is_some()).count();
        let mut reasons: Vec<&str> = r.descriptors.iter().filter_map(|d| d.reason_code).collect();
        reasons.sort_unstable();
        reasons.dedup();
        let unbound = r.descriptors.len() - bound;
        let bu = if reasons.is_empty() {
            format!("{bound}/{unbound}")
        } else {
            format!("{bound}/{unbound} ({})", reasons.join(","))
        };
        let bytes = if r.draws == 0 {
            "-".into()
        } else {
            format!(
                "{} / {} ({}/{} narrowed)",
                human_bytes(r.narrowed_bytes),
                human_bytes(r.baseline_bytes),
                r.narrowed_bindings,
                r.bindings
            )
        };
        let violations = if r.draws == 0 {
            "-".into()
        } else if r.unverified > 0 {
            format!("{} ({} unverified)", r.violations, r.unverified)
        } else {
            r.violations.to_string()
        };
        let mut run = r.run.clone();
        if let Some(e) = &r.error {
            run = format!("{run}; FAILED: {e}");
        }
        lines.push([
            r.name.clone(),
            format!("{}/w{}", r.stage, r.wave),
            r.instructions.to_string(),
            r.descriptors.len().to_string(),
            bu,
            bytes,
            violations,
            r.translate.clone(),
            run,
        ]);
    }
    let mut width = [0usize; 9];
    for l in &lines {
        for (i, c) in l.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for l in &lines {
        for (i, c) in l.iter().enumerate() {
            if i == 8 {
                let _ = write!(s, "{c}");
            } else {
                let _ = write!(s, "{c:<w$}  ", w = width[i]);
            }
        }
        s = s.trim_end().to_string();
        s.push('\n');
    }
    let total_narrowed: u64 = rows.iter().map(|r| r.narrowed_bytes).sum();
    let total_baseline: u64 = rows.iter().map(|r| r.baseline_bytes).sum();
    let violations: usize = rows.iter().map(|r| r.violations).sum();
    let translated = rows
        .iter()
        .filter(|r| r.translate.starts_with("ok"))
        .count();
    let failed = rows.iter().filter(|r| r.failed).count();
    let draws: usize = rows.iter().map(|r| r.draws).sum();
    let unverified: usize = rows.iter().map(|r| r.unverified).sum();
    let skipped = rows.iter().filter(|r| r.run.starts_with("skipped")).count();
    let mut checked = format!("{} draws verified", draws - unverified.min(draws));
    if unverified > 0 {
        let _ = write!(checked, ", {unverified} not verified");
    }
    if skipped > 0 {
        let _ = write!(checked, ", {skipped} device runs skipped");
    }
    let _ = writeln!(
        s,
        "{} shaders: {}, {} violations, {} translated, {} failed; bound {} of {} baseline bytes ({:.0}x less)",
        rows.len(),
        checked,
        violations,
        translated,
        failed,
        human_bytes(total_narrowed),
        human_bytes(total_baseline),
        if total_narrowed > 0 {
            total_baseline as f64 / total_narrowed as f64
        } else {
            1.0
        }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_print_in_binary_units() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
    }
}
