//! `shaderlift bind`: the buffer ranges each draw of a DRAWS.json file
//! binds, per descriptor, with the narrowing rule (see `drawbind::plan`).
//!
//! Order of checks: the capture, then the DRAWS.json file (bad JSON names
//! line and column), then the ABI (the shader must run as a vertex or
//! primitive shader with a vertex-id VGPR, and the file may not give more
//! user-data words than the ABI has user SGPRs), then the trace, then each
//! draw (memory a table read needs but the file does not give is an error
//! naming the address and the descriptor word).

use super::error::output_result;
use super::{CaptureArgs, CliError};
use analysis::trace::ShaderTrace;
use corpus::Capture;
use drawbind::draws::{DrawSpec, DrawsFile};
use drawbind::memory::SparseMemory;
use drawbind::{BindPlan, BindRange};
use isa::Abi;
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::PathBuf;

/// Compute the buffer bind ranges of each draw in a DRAWS.json file.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader.
    #[command(flatten)]
    pub capture: CaptureArgs,

    /// The draws, user data and guest memory (DRAWS.json; see the README).
    #[arg(long, value_name = "DRAWS.json")]
    pub draws: PathBuf,

    /// Print JSON: `{"draws": [{"draw": {...}, "ranges": [{"source", "base",
    /// "size", "narrowed", "reason"}]}]}`.
    #[arg(long)]
    pub json: bool,

    /// Declare that the consumer honours the trace's LDS initialisation
    /// contracts (before each workgroup, every cell of a contract's class
    /// holds an id of the draw), so bindings whose index comes back from
    /// LDS narrow. Without it they keep the baseline (`lds-contract`).
    #[arg(long)]
    pub lds_contract: bool,
}

/// Run `shaderlift bind`.
///
/// The output streams: memory does not grow with the number of draws. Every
/// draw is bound once before anything is printed, so a draw that fails
/// leaves no half-written report behind (the second pass prints).
pub fn run(args: Args) -> Result<(), CliError> {
    let capture = args.capture.open_for_analysis()?;
    let text = std::fs::read_to_string(&args.draws)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.draws.display())))?;
    let file = DrawsFile::parse(&text)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.draws.display())))?;
    check_abi(&capture, &file)?;
    let trace = trace(&capture)?;
    let binder = Binder::new(&trace, &capture, &file)?.honour_lds_init(args.lds_contract);
    binder.for_each(&file, |_, _| Ok(()))?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let count = file.draws.len();
    let printed = binder.for_each(&file, |i, draw| {
        if args.json {
            write_json_draw(&mut out, i, count, &draw)
        } else {
            write_text_draw(&mut out, i, &draw)
        }
        .map_err(CliError::Output)
    });
    let printed = match printed {
        Ok(()) if args.json && count == 0 => writeln!(out, "{{\"draws\": []}}"),
        Ok(()) => Ok(()),
        Err(CliError::Output(e)) => Err(e),
        Err(e) => return Err(e),
    };
    output_result(printed.and_then(|_| out.flush()))
}

/// The shader must run vertex work under an ABI with a vertex-id VGPR,
/// and the file's user data must fit the ABI's user SGPRs.
pub fn check_abi(capture: &Capture, file: &DrawsFile) -> Result<(), CliError> {
    let abi: Abi = capture.abi();
    let stage = capture.stage();
    if !stage.is_vertex() {
        return Err(CliError::Input(format!(
            "{}: bind needs a vertex or primitive shader (stage ngg or vs), not stage `{stage}`",
            capture.path.display()
        )));
    }
    if abi.vertex_id_vgpr.is_none() {
        return Err(CliError::Input(format!(
            "{}: the entry ABI has no vertex-id VGPR; bind needs a vertex ABI (--abi ngg or legacy-vs)",
            capture.path.display()
        )));
    }
    if file.user_data.len() > abi.user_data_count as usize {
        return Err(CliError::Input(format!(
            "the DRAWS.json file gives {} user-data words but the entry ABI has {} user SGPRs (from s{})",
            file.user_data.len(),
            abi.user_data_count,
            abi.user_data_sgpr
        )));
    }
    Ok(())
}

/// The shader's trace.
fn trace(capture: &Capture) -> Result<ShaderTrace, CliError> {
    Ok(super::trace::trace_capture(capture))
}

/// Binds the draws of one DRAWS.json file: the plan, the guest memory and
/// the descriptor names, built once.
pub struct Binder<'a> {
    plan: BindPlan,
    trace: &'a ShaderTrace,
    user_data: Vec<u32>,
    memory: SparseMemory,
}

impl<'a> Binder<'a> {
    /// Plan the shader's bind for the file's user data and memory.
    pub fn new(
        trace: &'a ShaderTrace,
        capture: &Capture,
        file: &DrawsFile,
    ) -> Result<Binder<'a>, CliError> {
        let plan = BindPlan::new(trace, capture.stage())
            .map_err(|e| {
                CliError::Input(format!(
                    "{}: cannot plan the bind: {e}",
                    capture.path.display()
                ))
            })?
            .with_code_address(file.code_addr());
        Ok(Binder {
            plan,
            trace,
            user_data: file.user_data(),
            memory: file.memory_with_code(&capture.code_and_constants()),
        })
    }

    /// Narrow the bindings whose index comes back from LDS (the consumer
    /// honours the trace's initialisation contracts; see
    /// [`BindPlan::honour_lds_init`]).
    pub fn honour_lds_init(mut self, yes: bool) -> Binder<'a> {
        self.plan.set_honour_lds_init(yes);
        self
    }

    /// Bind every draw of `file` in order and hand each result to `f`; the
    /// first error (of a draw, or from `f`) ends the walk.
    pub fn for_each(
        &self,
        file: &DrawsFile,
        mut f: impl FnMut(usize, Value) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let mut out = vec![BindRange::EMPTY; self.plan.len()];
        for (i, spec) in file.draws.iter().enumerate() {
            let draw = spec
                .as_draw_scanned(&self.memory)
                .map_err(|e| CliError::Input(format!("draw {i}: {e}")))?;
            let n = self
                .plan
                .bind(&draw, &self.user_data, &self.memory, &mut out)
                .map_err(|e| CliError::Input(format!("draw {i}: {e}")))?;
            f(i, self.draw_value(spec, &out[..n]))?;
        }
        Ok(())
    }

    /// One draw's entry of the report: `{"draw": spec, "ranges": [...]}`.
    fn draw_value(&self, spec: &DrawSpec, ranges: &[BindRange]) -> Value {
        let trace = self.trace;
        let ranges: Vec<Value> = ranges
            .iter()
            .map(|r| {
                let source = trace
                    .descriptors
                    .iter()
                    .find(|d| d.id == r.descriptor)
                    .map(|d| trace.descriptor_source(d))
                    .unwrap_or_else(|| format!("descriptor {}", r.descriptor.0));
                json!({
                    "source": source,
                    "base": format!("{:#x}", r.base),
                    "size": r.size,
                    "narrowed": r.narrowed,
                    "reason": r.reason.as_str(),
                })
            })
            .collect();
        json!({ "draw": spec, "ranges": ranges })
    }
}

/// Bind every draw into one report value (`{"draws": [...]}`), held whole
/// in memory: for tests and small files. `shaderlift bind` streams instead.
pub fn bind_all(
    trace: &ShaderTrace,
    capture: &Capture,
    file: &DrawsFile,
) -> Result<Value, CliError> {
    let binder = Binder::new(trace, capture, file)?;
    let mut draws = Vec::with_capacity(file.draws.len());
    binder.for_each(file, |_, d| {
        draws.push(d);
        Ok(())
    })?;
    Ok(json!({ "draws": draws }))
}

/// One draw of the `--json` report, as a line of the streamed document
/// `{"draws": [` … `]}` (draw `i` of `count`; the first opens the document
/// and the last closes it).
fn write_json_draw(out: &mut impl Write, i: usize, count: usize, draw: &Value) -> io::Result<()> {
    out.write_all(if i == 0 { b"{\"draws\": [\n" } else { b",\n" })?;
    serde_json::to_writer(&mut *out, draw).map_err(io::Error::from)?;
    if i + 1 == count {
        out.write_all(b"\n]}\n")?;
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
        DrawSpec::Indexed { .. } => describe_indexed(d),
        _ => "a draw of a kind this version does not describe".into(),
    }
}

/// `indexed: N <format> indices from F at ADDR[, restart R][, base vertex B], instances I`
/// (`indices unknown` without an index buffer).
pub fn describe_indexed(d: &DrawSpec) -> String {
    let DrawSpec::Indexed {
        index_count,
        instance_count,
        first_index,
        base_vertex,
        ..
    } = d
    else {
        return String::new();
    };
    let mut s = format!("indexed: {index_count} indices");
    match d.index_buffer() {
        Some((ib, restart)) => {
            s = format!(
                "indexed: {index_count} {} indices from {first_index} at {:#x}",
                ib.format, ib.addr
            );
            if let Some(r) = restart {
                s.push_str(&format!(", restart {r:#x}"));
            }
        }
        None => s.push_str(" (index values unknown)"),
    }
    if *base_vertex != 0 {
        s.push_str(&format!(", base vertex {base_vertex}"));
    }
    s.push_str(&format!(", instances {instance_count}"));
    s
}

/// One block per draw, one line per descriptor.
pub fn write_text(out: &mut impl Write, report: &Value) -> io::Result<()> {
    let draws = report["draws"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for (i, d) in draws.iter().enumerate() {
        write_text_draw(out, i, d)?;
    }
    Ok(())
}

/// The text block of draw `i` (one entry of the report).
fn write_text_draw(out: &mut impl Write, i: usize, d: &Value) -> io::Result<()> {
    let spec: Option<DrawSpec> = serde_json::from_value(d["draw"].clone()).ok();
    let what = spec.as_ref().map(describe).unwrap_or_default();
    writeln!(out, "draw {i} ({what})")?;
    for r in d["ranges"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        writeln!(
            out,
            "  {:<20} base {:>16}  size {:>12}  {:<9} {}",
            r["source"].as_str().unwrap_or("?"),
            r["base"].as_str().unwrap_or("?"),
            r["size"],
            if r["narrowed"] == true {
                "narrowed"
            } else {
                "baseline"
            },
            r["reason"].as_str().unwrap_or("?"),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use drawbind::fixtures::{cube_trace, instanced_trace};

    fn capture(name: &str) -> Capture {
        let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
        Capture::open(&dir, &Default::default()).expect("corpus capture")
    }

    const DRAWS: &str = r#"{
        "user_data": [4096, 100, 5],
        "memory": [{"addr": "0x800000001000", "words": [
            "0x00100000", "0x000c8000", 100000, "0x1104dfac",
            "0x00200000", "0x00208000", 64, "0x1104dfac"]}],
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 4},
            {"kind": "auto", "vertex_count": 36, "chunks": [[0, 18], [18, 18]]},
            {"kind": "indexed", "index_count": 36, "instance_count": 2}
        ]}"#;

    #[test]
    fn reports_each_draw_and_descriptor_with_source_base_size_and_reason() {
        let file = DrawsFile::parse(DRAWS).unwrap();
        let cap = capture("instanced");
        check_abi(&cap, &file).unwrap();
        let report = bind_all(&instanced_trace(), &cap, &file).unwrap();
        let r0 = &report["draws"][0]["ranges"];
        assert_eq!(r0[0]["source"], "table(ud0)+0x0");
        assert_eq!(r0[0]["base"], "0x800000100000");
        assert_eq!(r0[0]["size"], 136 * 12);
        assert_eq!(r0[1]["source"], "table(ud0)+0x10");
        assert_eq!(
            (r0[1]["size"].as_u64(), r0[1]["narrowed"].as_bool()),
            (Some(9 * 32), Some(true))
        );
        let r2 = &report["draws"][2]["ranges"];
        assert_eq!(r2[0]["reason"], "indexed-draw");
        assert_eq!(r2[1]["size"], 7 * 32);
        let mut text = Vec::new();
        write_text(&mut text, &report).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("draw 1 (auto: vertices 0+36, instances 1, chunks 0+18 18+18)"),
            "{text}"
        );
    }

    #[test]
    fn an_indexed_draw_with_its_index_buffer_narrows_to_its_largest_index() {
        // Indices from first index 2: 7, 40, 0xffff (restart), 3; hardware
        // base vertex 10, shader base vertex (ud1) 100: records up to 150.
        let file = DrawsFile::parse(
            r#"{"user_data": [4096, 100, 5],
            "memory": [{"addr": "0x800000001000", "words": [
                "0x00100000", "0x000c8000", 100000, "0x1104dfac",
                "0x00200000", "0x00208000", 64, "0x1104dfac"]},
                {"addr": "0x9000", "words": ["0x00630063", "0x00280007", "0x0003ffff"]}],
            "draws": [{"kind": "indexed", "index_count": 4, "first_index": 2, "index_addr": "0x9000",
                       "index_format": "u16", "restart": "0xffff", "base_vertex": 10}]}"#,
        )
        .unwrap();
        let cap = capture("instanced");
        let report = bind_all(&instanced_trace(), &cap, &file).unwrap();
        let r = &report["draws"][0]["ranges"][0];
        assert_eq!(
            (r["size"].as_u64(), r["reason"].as_str()),
            (Some(151 * 12), Some("narrowed"))
        );
        let mut text = Vec::new();
        write_text(&mut text, &report).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains("draw 0 (indexed: 4 u16 indices from 2 at 0x9000, restart 0xffff, base vertex 10, instances 1)"),
            "{text}"
        );
        // An index buffer that is not in memory is an error naming it.
        let file = DrawsFile::parse(
            r#"{"user_data": [4096, 100, 5],
            "memory": [{"addr": "0x800000001000", "words": [
                "0x00100000", "0x000c8000", 100000, "0x1104dfac",
                "0x00200000", "0x00208000", 64, "0x1104dfac"]}],
            "draws": [{"kind": "indexed", "index_count": 4, "index_addr": "0x9000", "index_format": "u32"}]}"#,
        )
        .unwrap();
        let e = bind_all(&instanced_trace(), &cap, &file)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("draw 0: index buffer: the 16 bytes at 0x9000"),
            "{e}"
        );
    }

    #[test]
    fn missing_memory_names_the_draw_address_and_word() {
        let file = DrawsFile::parse(
            r#"{"user_data": [8192, 0], "draws": [{"kind": "auto", "vertex_count": 3}]}"#,
        )
        .unwrap();
        let e = bind_all(&cube_trace(), &capture("cube"), &file)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "draw 0: guest memory at 0x800000002000 cannot be read (word 0 of descriptor 0)"
        );
    }

    #[test]
    fn non_vertex_shaders_and_oversized_user_data_are_refused() {
        let file = DrawsFile::parse(r#"{"draws": []}"#).unwrap();
        let e = check_abi(&capture("fragment-color"), &file)
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs a vertex or primitive shader"), "{e}");
        let many = format!(
            r#"{{"user_data": [{}], "draws": []}}"#,
            vec!["0"; 40].join(",")
        );
        let e = check_abi(&capture("cube"), &DrawsFile::parse(&many).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("gives 40 user-data words"), "{e}");
    }
}
