//! `shaderlift replay`: a draw stream through the reference buffer cache,
//! with the baseline (D733) bind ranges, the narrowed (D879) ones, and the
//! narrowed ones with indexed draws' index buffers scanned, in the same
//! process; the three telemetry sets side by side.
//!
//! The shader is the real `corpus/radv/cube` (its code is built into the
//! binary), traced by the register-source tracer like any capture, or any
//! vertex-shader capture given with `--shader` whose user data follow the
//! cube's layout (ud0: the vertex-buffer table, ud1: the base vertex), as
//! RADV's other vertex shaders of the corpus do (the culling cube too).

use super::error::output_result;
use super::CliError;
use analysis::trace::{trace_code, TraceConfig};
use drawbind::replay::{self, Comparison, Event, ReplayStats, RingConfig};
use drawbind::BindPlan;
use isa::{Abi, Stage, Target};
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;

/// A built-in draw stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// Every draw streams its vertices into a 4 MiB upload ring; each
    /// binding's records reach the end of the ring; the frames repeat.
    MesaRing,
    /// The same ring with indexed draws: each draw also streams a 16-bit
    /// index buffer, which the third run scans for its largest index.
    MesaRingIndexed,
}

/// Replay a draw stream through the reference buffer cache with the
/// baseline and the narrowed bind ranges, and print both telemetry sets.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The built-in stream to replay.
    #[arg(
        long,
        value_enum,
        conflicts_with = "stream",
        required_unless_present = "stream"
    )]
    pub scenario: Option<Scenario>,

    /// Draws in the scenario.
    #[arg(
        long,
        default_value_t = 17_000,
        value_name = "N",
        conflicts_with = "stream"
    )]
    pub draws: usize,

    /// A recorded stream instead: JSON lines of `map`, `write`, `draw` and
    /// `steady` events (see the README).
    #[arg(long, value_name = "FILE")]
    pub stream: Option<PathBuf>,

    /// Also write the scenario's stream to FILE as JSON lines.
    #[arg(long, value_name = "FILE", conflicts_with = "stream")]
    pub write_stream: Option<PathBuf>,

    /// The shader whose bind plan the stream goes through (a capture, as for
    /// `trace`); default: the built-in `corpus/radv/cube`.
    #[arg(long, value_name = "CAPTURE")]
    pub shader: Option<PathBuf>,

    /// Model an emulator that honours the trace's LDS initialisation
    /// contracts (as `shaderlift verify` does by default), so a culling
    /// shader's bindings whose index comes back from LDS narrow too.
    #[arg(long)]
    pub lds_contract: bool,

    /// Print `{"baseline": {...}, "narrowed": {...}, "narrowed_scan": {...}}`.
    #[arg(long)]
    pub json: bool,
}

/// The code of `corpus/radv/cube` (RADV NGG, wave64, gfx1030).
const CUBE_CODE: &[u8] = include_bytes!("../../corpus/radv/cube/code.bin");

/// The tracer's result for `corpus/radv/cube`.
pub fn cube_trace() -> analysis::trace::ShaderTrace {
    let config = TraceConfig::new(Stage::Ngg, Abi::ngg(), false);
    trace_code(CUBE_CODE, Target::Gfx1030, &config)
}

/// The plan of the replayed shader and its name.
fn shader_plan(shader: Option<&PathBuf>) -> Result<(BindPlan, String), CliError> {
    let Some(path) = shader else {
        let plan = BindPlan::new(&cube_trace(), Stage::Ngg)
            .map_err(|e| CliError::Input(format!("corpus/radv/cube: {e}")))?;
        return Ok((plan, "corpus/radv/cube".into()));
    };
    let name = path.display().to_string();
    let capture = super::CaptureArgs::for_file(path.clone()).open_for_analysis()?;
    if !capture.stage().is_vertex() {
        return Err(CliError::Input(format!(
            "{name}: replay needs a vertex or primitive shader (stage ngg or vs), not stage `{}`",
            capture.stage()
        )));
    }
    let trace = super::trace::trace_capture(&capture);
    let plan = BindPlan::new(&trace, capture.stage())
        .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
    if plan.needs_code_address() {
        return Err(CliError::Input(format!(
            "{name}: the shader reads its own constant data; the replay streams do not map shader code"
        )));
    }
    Ok((plan, name))
}

/// Run `shaderlift replay`.
pub fn run(args: Args) -> Result<(), CliError> {
    let (plan, shader) = shader_plan(args.shader.as_ref())?;
    let plan = plan.honour_lds_init(args.lds_contract);
    let (title, cmp) = match &args.stream {
        Some(path) => {
            let f = File::open(path)
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            let events = replay::read_stream(BufReader::new(f))
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            let draws = events
                .iter()
                .filter(|e| matches!(e, Event::Draw { .. }))
                .count();
            let cmp = replay::compare(&plan, &events)
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            (format!("{}: {draws} draws", path.display()), cmp)
        }
        None => {
            let (cfg, name) = match args.scenario {
                Some(Scenario::MesaRingIndexed) => (RingConfig::MESA_INDEXED, "mesa-ring-indexed"),
                _ => (RingConfig::MESA, "mesa-ring"),
            };
            if let Some(path) = &args.write_stream {
                // Staged: a failure leaves an existing FILE as it was.
                let events: Vec<Event> = cfg.stream(args.draws).collect();
                let mut staged = super::output::Staged::new();
                staged.write(path, |w| {
                    replay::write_stream(&events, w).map_err(|e| match e {
                        replay::ReplayError::Io(e) => e,
                        other => io::Error::other(other.to_string()),
                    })
                })?;
                staged.commit()?;
            }
            let cmp = replay::compare_with(&plan, || cfg.stream(args.draws))
                .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
            (format!("{name}: {} draws, 4 MiB ring", args.draws), cmp)
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let r = if args.json {
        serde_json::to_writer_pretty(&mut out, &cmp)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        write_table(&mut out, &title, &shader, &cmp)
    };
    output_result(r)
}

fn ratio(b: f64, n: f64) -> String {
    if n == 0.0 {
        if b == 0.0 {
            "-".into()
        } else {
            "inf".into()
        }
    } else {
        format!("{:.1}x", b / n)
    }
}

fn pct(hits: u64, misses: u64) -> String {
    let all = hits + misses;
    if all == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * hits as f64 / all as f64)
    }
}

/// One row's figure of a run.
type Figure = fn(&ReplayStats) -> u64;

/// The side-by-side table: baseline, narrowed, narrowed with index scans,
/// and the baseline's ratio to the last.
fn write_table(out: &mut impl Write, title: &str, shader: &str, c: &Comparison) -> io::Result<()> {
    let (b, n, x): (&ReplayStats, &ReplayStats, &ReplayStats) =
        (&c.baseline, &c.narrowed, &c.narrowed_scan);
    writeln!(out, "{title}, shader {shader}")?;
    writeln!(
        out,
        "{:<22} {:>14} {:>14} {:>14} {:>10}",
        "", "baseline", "narrowed", "narrowed+scan", "base/scan"
    )?;
    let rows: [(&str, Figure); 11] = [
        ("hits", |s| s.hits),
        ("misses", |s| s.misses),
        ("steady_hits", |s| s.steady_hits),
        ("steady_misses", |s| s.steady_misses),
        ("bytes_copied", |s| s.bytes_copied),
        ("bytes_hashed", |s| s.bytes_hashed),
        ("distinct_keys", |s| s.distinct_keys),
        ("index_hits", |s| s.index_hits),
        ("index_misses", |s| s.index_misses),
        ("index_bytes", |s| s.index_bytes),
        ("bytes moved (all)", ReplayStats::bytes_moved),
    ];
    for (name, f) in rows {
        let (p, q, r) = (f(b), f(n), f(x));
        writeln!(
            out,
            "{name:<22} {p:>14} {q:>14} {r:>14} {:>10}",
            ratio(p as f64, r as f64)
        )?;
    }
    writeln!(
        out,
        "{:<22} {:>14} {:>14} {:>14}",
        "steady hit rate",
        pct(b.steady_hits, b.steady_misses),
        pct(n.steady_hits, n.steady_misses),
        pct(x.steady_hits, x.steady_misses)
    )?;
    writeln!(
        out,
        "{:<22} {:>14.4} {:>14.4} {:>14.4} {:>10}",
        "seconds",
        b.seconds,
        n.seconds,
        x.seconds,
        ratio(b.seconds, x.seconds)
    )
}
