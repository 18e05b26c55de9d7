//! `shaderlift verify`: run each draw of a DRAWS.json file through the
//! reference interpreter and check every byte it fetches against the range
//! `shaderlift bind` computes for its descriptor (see `interp::verify`).
//!
//! The text output lists, per draw and binding, whether the range was
//! narrowed, the bytes fetched, violations and tightness, then each
//! violation with what it takes to reproduce it; the last line is
//! `N draws, V violations`. The exit code is 1 when V > 0 or when a draw
//! could not be checked completely (an interpreter error, a bind error, or
//! a fetch whose address was undefined).

use super::bind::check_abi;
use super::error::output_result;
use super::{CaptureArgs, CliError};
use drawbind::draws::{DrawSpec, DrawsFile};
use interp::{DrawReport, PrimLayout, Report, Shader, VerifyOptions};
use std::io::{self, Write};
use std::path::PathBuf;

/// Check a shader's bind ranges against the reference interpreter.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// The draws, user data and guest memory (DRAWS.json, as for `bind`).
    #[arg(long, value_name = "DRAWS.json")]
    pub draws: PathBuf,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// NGG: primitives per workgroup (1..=42, default 42).
    #[arg(long, value_name = "N", default_value_t = interp::driver::MAX_GROUP_PRIMS)]
    pub group_prims: u32,

    /// NGG: what the primitive VGPRs hold: `passthrough` (v0 = the packed
    /// primitive export, RADV without culling) or `indices` (v0 = two
    /// 16-bit vertex indices, v1 = the third; culling shaders). Default:
    /// detected from the code.
    #[arg(long, value_name = "LAYOUT", value_parser = parse_layout)]
    pub ngg_prims: Option<PrimLayout>,

    /// Do not honour the trace's LDS contracts: the plan keeps the baseline
    /// for bindings whose index is read back from LDS (`lds-contract`) and
    /// the interpreter leaves fresh LDS undefined. By default both sides
    /// honour them (the interpreter fills the contract's cells with the
    /// draw's first id before each workgroup, as a translated shader must).
    #[arg(long)]
    pub no_lds_contract: bool,
}

fn parse_layout(s: &str) -> Result<PrimLayout, String> {
    match s {
        "passthrough" => Ok(PrimLayout::Passthrough),
        "indices" => Ok(PrimLayout::Indices),
        _ => Err(format!(
            "unknown primitive layout `{s}` (expected passthrough or indices)"
        )),
    }
}

/// Run `shaderlift verify`.
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open_for_analysis()?;
    let text = std::fs::read_to_string(&args.draws)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.draws.display())))?;
    let file = DrawsFile::parse(&text)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.draws.display())))?;
    check_abi(&capture, &file)?;
    super::args::check_draw_budget(&file)?;
    if !(1..=interp::driver::MAX_GROUP_PRIMS).contains(&args.group_prims) {
        return Err(CliError::Usage(format!(
            "--group-prims {} is outside 1..={}",
            args.group_prims,
            interp::driver::MAX_GROUP_PRIMS
        )));
    }
    let shader = Shader {
        name: &capture.name,
        code: &capture.code,
        target: capture.meta.target,
        stage: capture.stage(),
        abi: capture.abi(),
        wave64: capture.wave_size().lanes() == 64,
    };
    let opts = VerifyOptions {
        group_prims: args.group_prims,
        prim_layout: args.ngg_prims,
        code_addr: file.code_addr(),
        honour_lds_contract: !args.no_lds_contract,
        init_lds: !args.no_lds_contract,
        ..VerifyOptions::default()
    };
    let user_data = file.user_data();
    let memory = file.memory_with_code(&capture.code_and_constants());
    let report = interp::verify(&shader, &file.draws, &user_data, &memory, &opts)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let r = if args.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        write_text(&mut out, &report)
    };
    output_result(r)?;
    if report.violations > 0 || report.unverified > 0 {
        return Err(CliError::Input(format!(
            "{} violations, {} draws not fully checked",
            report.violations, report.unverified
        )));
    }
    Ok(())
}

fn describe(d: &DrawSpec) -> String {
    match d {
        DrawSpec::Auto {
            first_vertex,
            vertex_count,
            instance_count,
            chunks,
        } => {
            let mut s =
                format!("auto: vertices {first_vertex}+{vertex_count}, instances {instance_count}");
            if !chunks.is_empty() {
                let c: Vec<String> = chunks.iter().map(|(f, n)| format!("{f}+{n}")).collect();
                s.push_str(&format!(", chunks {}", c.join(" ")));
            }
            s
        }
        DrawSpec::Indexed { index_count, .. } => {
            let s = super::bind::describe_indexed(d);
            if d.index_buffer().is_some() {
                s
            } else {
                s.replace(
                    "(index values unknown)",
                    &format!("(index values unknown: run as ids 0..{index_count})"),
                )
            }
        }
        _ => "a draw of a kind this version does not describe".into(),
    }
}

fn write_draw(out: &mut impl Write, d: &DrawReport) -> io::Result<()> {
    writeln!(out, "draw {}: {}", d.index, describe(&d.draw))?;
    if let Some(e) = &d.error {
        writeln!(out, "  not checked: {e}")?;
        return Ok(());
    }
    for b in &d.check.bindings {
        let fetched = match b.fetched {
            Some([lo, hi]) => format!("{lo:#x}..{hi:#x} ({} fetches)", b.fetches),
            None => "nothing".into(),
        };
        let tight = match b.tightness {
            Some(t) => format!("{t:.3}"),
            None => "-".into(),
        };
        writeln!(
            out,
            "  {:<18} {:<14} base {:#x} size {:<8} fetched {:<34} violations {:<3} tightness {}",
            b.source,
            if b.narrowed {
                "narrowed"
            } else {
                b.reason.as_str()
            },
            b.base,
            b.size,
            fetched,
            b.violations,
            tight
        )?;
    }
    for v in &d.check.violations {
        writeln!(
            out,
            "  VIOLATION {:?}: {} pc {:#x} wave {} lane {} instance {} entry vertex {} index {} bytes {:#x}+{} range {:#x}..{:#x}",
            v.kind,
            v.source,
            v.pc,
            v.wave,
            v.lane,
            v.instance,
            v.entry_vertex_id.map_or("-".into(), |x| x.to_string()),
            v.index.map_or("-".into(), |x| x.to_string()),
            v.addr,
            v.len,
            v.range[0],
            v.range[1]
        )?;
    }
    for u in &d.check.unchecked_overreads {
        writeln!(
            out,
            "  note: unchecked descriptor {} read {:#x}+{} past its declared extent {:#x}..{:#x} (pc {:#x}, lane {})",
            u.source, u.addr, u.len, u.range[0], u.range[1], u.pc, u.lane
        )?;
    }
    for f in &d.check.undefined {
        writeln!(
            out,
            "  not checked: {}",
            serde_json::to_string(f).unwrap_or_default()
        )?;
    }
    if d.check.untraced > 0 {
        writeln!(
            out,
            "  note: {} fetches by instructions the trace names no descriptor for",
            d.check.untraced
        )?;
    }
    Ok(())
}

fn write_text(out: &mut impl Write, r: &Report) -> io::Result<()> {
    for d in &r.draws {
        write_draw(out, d)?;
    }
    if r.unverified > 0 {
        writeln!(
            out,
            "{} draws could not be checked completely",
            r.unverified
        )?;
    }
    writeln!(out, "{} draws, {} violations", r.draws.len(), r.violations)
}
