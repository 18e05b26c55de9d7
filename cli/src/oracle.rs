//! `shaderlift oracle`: the source-level oracle for the interpreter.
//!
//! For a corpus entry that carries the GLSL it was compiled from
//! (`shader.vert` beside `code.bin` and RADV's `meta.json`), this runs the
//! *source* on a Vulkan device and the driver's *machine code* in the
//! interpreter, on the same inputs, and compares what both output. It checks
//! the interpreter's ISA semantics against the program's meaning, not
//! against ourselves (the translator is not involved).
//!
//! Per entry:
//! 1. glslangValidator compiles the GLSL; a small SPIR-V reflection
//!    ([`spirv`]) lists its outputs, buffer blocks and push-constant block;
//! 2. the GLSL is rewritten minimally: `main` is renamed and a new `main`
//!    calls it, then stores `gl_Position` and every `out` variable's words
//!    into a storage buffer in a set of its own, indexed by
//!    `(gl_InstanceIndex − firstInstance) · vertices + gl_VertexIndex −
//!    firstVertex`;
//! 3. one scene is built from `meta.json`: vertex buffers for its vertex
//!    input state (values by format), every uniform/storage block and the
//!    push-constant block filled member by member by type (floats k/1024 in
//!    [−1.5, 1.5), integers 0 or 1), and for the interpreter the guest memory
//!    RADV would read: the vertex-buffer table (one V# per used binding,
//!    `vertex_buffer_slots` order), descriptor sets laid out as RADV 22.3
//!    lays them out, the push constants (inlined words and the pointer
//!    block) and the user-data words named by `entry_sgprs`;
//! 4. the source runs on lavapipe with that vertex input state; the
//!    interpreter runs the machine code; position (`pos0`) and each output
//!    location (`param k` for the k-th location in ascending order, RADV's
//!    assignment for linked outputs) are compared: integers exactly, floats
//!    within [`FLOAT_BOUND_ULPS`] (see [`float_verdict`]).
//!
//! What it cannot run is reported with the reason (images or samplers,
//! 16- or 64-bit outputs, user-data roles it does not know, vertex formats
//! the harness does not know), never counted as agreement.

pub mod spirv;

use crate::CliError;
use corpus::{Capture, CaptureOptions, WaveSize};
use drawbind::SparseMemory;
use serde::Serialize;
use serde_json::Value;
use spirv::{Module, OutputSlot, Scalar};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use vkharness::{
    DescriptorBuffer, DescriptorDesc, DescriptorKind, DrawCall, Harness, SourceInterface,
    VertexAttributeDesc, VertexBindingDesc, VertexBuffer, VertexFormat,
};

/// Run the GLSL of corpus entries on a Vulkan device and the entries'
/// machine code in the interpreter, and compare their outputs (the
/// source-level oracle). Each DIR is an entry (a directory with
/// `shader.vert`, `code.bin` and `meta.json`) or a directory of entries.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Entries, or directories of entries.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Only entries whose name contains this.
    #[arg(long, value_name = "SUBSTR")]
    pub only: Option<String>,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The oracle's draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OracleDraw {
    /// Vertices per instance.
    pub vertices: u32,
    /// Instances.
    pub instances: u32,
    /// `firstVertex` (RADV's `base_vertex` user-data word).
    pub first_vertex: u32,
    /// `firstInstance` (RADV's `start_instance` user-data word).
    pub first_instance: u32,
}

impl OracleDraw {
    /// The draw for a GLSL source: 12 vertices from 3 and 2 instances from
    /// 1 (so the base words are exercised), but from 0, and 3 vertices,
    /// when the source reads `gl_VertexIndex` (shaders index constant arrays
    /// with it; past their end GLSL is undefined), and instances from 0
    /// when it reads `gl_InstanceIndex`.
    pub fn for_source(source: &str) -> OracleDraw {
        let vid = source.contains("gl_VertexIndex");
        let iid = source.contains("gl_InstanceIndex");
        OracleDraw {
            vertices: if vid { 3 } else { 12 },
            instances: 2,
            first_vertex: if vid { 0 } else { 3 },
            first_instance: if iid { 0 } else { 1 },
        }
    }
}

/// Float words agree when they are equal, both NaN, or no more than this
/// many units in the last place of `max(|a|, |b|, 1)` apart. Why this
/// bound: the source and the machine code are two compilations of one
/// program (lavapipe's LLVM and RADV's ACO); both may contract a multiply
/// and an add into one fma and reassociate nothing else, and GLSL lets
/// built-ins like `normalize`, `inversesqrt`, `exp2` and `pow` be computed
/// with a few ulp of error. With inputs of magnitude ≤ 1.5, the rounding
/// differences of a few such steps stay below 2⁻¹⁵ absolute (256 ulp of
/// 1.0) where a result cancels towards 0, and below 256 ulp relative for
/// larger results; a wrong operation (a swapped operand, a lost term, a
/// wrong conversion) is off by far more. Integers are compared exactly.
pub const FLOAT_BOUND_ULPS: u32 = 256;

/// How two words compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Bit-identical (or both NaN).
    Exact,
    /// Floats within the bound.
    WithinBound,
    /// Different.
    Mismatch,
}

/// Compare float words: see [`FLOAT_BOUND_ULPS`].
pub fn float_verdict(a: u32, b: u32) -> Verdict {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if a == b || (fa.is_nan() && fb.is_nan()) {
        return Verdict::Exact;
    }
    if fa.is_nan() || fb.is_nan() || fa.is_infinite() || fb.is_infinite() {
        return Verdict::Mismatch;
    }
    let scale = fa.abs().max(fb.abs()).max(1.0);
    // One ulp of `scale`: 2^(exponent - 23).
    let ulp = f32::from_bits((scale.to_bits() & 0x7f80_0000).saturating_sub(23 << 23));
    let diff = (f64::from(fa) - f64::from(fb)).abs();
    if diff <= f64::from(ulp) * f64::from(FLOAT_BOUND_ULPS) {
        Verdict::WithinBound
    } else {
        Verdict::Mismatch
    }
}

/// One word that disagrees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Vertex index within the draw (0-based).
    pub vertex: u32,
    /// Instance within the draw (0-based).
    pub instance: u32,
    /// `pos0` or `paramN`.
    pub export: String,
    /// The GLSL expression (`gl_Position`, an output's name).
    pub source: String,
    /// Component.
    pub component: u32,
    /// The source shader's word on the device.
    pub device: u32,
    /// The interpreter's word (`None`: not exported).
    pub interpreter: Option<u32>,
}

/// What happened to one entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryReport {
    /// The entry's name.
    pub name: String,
    /// Why it could not run (`None`: it ran).
    pub cannot_run: Option<String>,
    /// Vertices compared.
    pub vertices: u64,
    /// Words compared.
    pub words: u64,
    /// Bit-identical words.
    pub exact: u64,
    /// Float words within the bound but not identical.
    pub within_bound: u64,
    /// Words that disagree.
    pub mismatches: u64,
    /// Words the interpreter left undefined (not compared).
    pub undefined: u64,
    /// Output components RADV's linker removed (constant or a duplicate of
    /// another; not compared).
    pub dropped: u64,
    /// The largest float difference seen, in ulp of `max(|a|, |b|, 1)`.
    pub max_ulps: f64,
    /// Output locations and the params they were compared with.
    pub mapping: Vec<(u32, String)>,
    /// The first mismatches.
    pub first_mismatches: Vec<Mismatch>,
}

impl EntryReport {
    fn new(name: &str) -> EntryReport {
        EntryReport {
            name: name.to_string(),
            cannot_run: None,
            vertices: 0,
            words: 0,
            exact: 0,
            within_bound: 0,
            mismatches: 0,
            undefined: 0,
            dropped: 0,
            max_ulps: 0.0,
            mapping: Vec::new(),
            first_mismatches: Vec::new(),
        }
    }

    /// It ran and every compared word agreed (and some word was compared).
    pub fn agrees(&self) -> bool {
        self.cannot_run.is_none() && self.mismatches == 0 && self.words > 0
    }
}

/// Why an entry cannot be run (reported, not a failure of the oracle).
#[derive(Debug)]
struct CannotRun(String);

/// A harness error: the device cannot run this entry (a limit, a module
/// naga or the device refuses) or the machinery failed (a Vulkan call, a
/// timeout), which stops the whole run.
fn device_error(e: vkharness::HarnessError) -> CannotRun {
    use vkharness::HarnessError as H;
    match e {
        H::Shader(_) | H::Input(_) | H::Unsupported { .. } => CannotRun(format!("device: {e}")),
        e => CannotRun(format!("{FATAL}{e}")),
    }
}

/// Prefix of a [`CannotRun`] that is a failure of the machinery.
const FATAL: &str = "fatal: ";

impl<E: std::fmt::Display> From<E> for CannotRun {
    fn from(e: E) -> Self {
        CannotRun(e.to_string())
    }
}

fn cannot<T>(s: impl Into<String>) -> Result<T, CannotRun> {
    Err(CannotRun(s.into()))
}

/// Run `shaderlift oracle`.
pub fn run(args: Args) -> Result<(), CliError> {
    let mut entries = Vec::new();
    for d in &args.dirs {
        entries.extend(entry_dirs(d)?);
    }
    if let Some(s) = &args.only {
        entries.retain(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(s))
        });
    }
    if entries.is_empty() {
        return Err(CliError::Input(
            "no entry with shader.vert, code.bin and meta.json".into(),
        ));
    }
    let harness = Harness::shared().map_err(|e| CliError::Input(e.to_string()))?;
    let mut reports = Vec::new();
    for e in &entries {
        let r = check_entry(e, harness)?;
        if !args.json {
            println!("{}", entry_line(&r));
        }
        reports.push(r);
    }
    let ran = reports.iter().filter(|r| r.cannot_run.is_none()).count();
    let agree = reports.iter().filter(|r| r.agrees()).count();
    let disagree = reports
        .iter()
        .filter(|r| r.cannot_run.is_none() && r.mismatches > 0)
        .count();
    if args.json {
        let out = serde_json::json!({
            "entries": reports,
            "ran": ran,
            "agree": agree,
            "disagree": disagree,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!(
            "{} entries: {ran} ran, {agree} agree, {disagree} disagree, {} cannot run",
            reports.len(),
            reports.len() - ran
        );
    }
    if disagree > 0 {
        return Err(CliError::Failed(format!(
            "{disagree} entries disagree with their source"
        )));
    }
    if ran > 0 && agree == 0 {
        return Err(CliError::Failed("no entry compared a word".into()));
    }
    Ok(())
}

/// One line for an entry.
pub fn entry_line(r: &EntryReport) -> String {
    if let Some(why) = &r.cannot_run {
        return format!("{}: cannot run: {why}", r.name);
    }
    let mut s = format!(
        "{}: {} ({} vertices, {} words: {} exact, {} within bound, {} mismatches, {} undefined; max {:.1} ulp)",
        r.name,
        if r.agrees() { "agree" } else { "DISAGREE" },
        r.vertices,
        r.words,
        r.exact,
        r.within_bound,
        r.mismatches,
        r.undefined,
        r.max_ulps
    );
    for m in &r.first_mismatches {
        s.push_str(&format!(
            "\n  vertex {} instance {} {} ({}).{}: source {:#010x} ({}) interpreter {}",
            m.vertex,
            m.instance,
            m.export,
            m.source,
            ["x", "y", "z", "w"][m.component as usize & 3],
            m.device,
            f32::from_bits(m.device),
            m.interpreter
                .map(|w| format!("{w:#010x} ({})", f32::from_bits(w)))
                .unwrap_or_else(|| "missing".into())
        ));
    }
    s
}

/// The entry directories under `dir` (itself when it is one), sorted.
pub fn entry_dirs(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let is_entry = |p: &Path| {
        p.join("shader.vert").is_file()
            && p.join("code.bin").is_file()
            && p.join("meta.json").is_file()
    };
    if is_entry(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let rd =
        std::fs::read_dir(dir).map_err(|e| CliError::Input(format!("{}: {e}", dir.display())))?;
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_entry(p))
        .collect();
    out.sort();
    Ok(out)
}

/// Check one entry. Errors are failures of the machinery (the device);
/// an entry the oracle cannot run is a report with `cannot_run`.
pub fn check_entry(dir: &Path, harness: &Harness) -> Result<EntryReport, CliError> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut report = EntryReport::new(&name);
    match check(dir, harness, &mut report) {
        Ok(()) => Ok(report),
        Err(CannotRun(why)) => {
            if let Some(why) = why.strip_prefix(FATAL) {
                return Err(CliError::Input(format!("{name}: {why}")));
            }
            // One line: naga's messages span several.
            let mut line: String = why
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('│') && !l.starts_with('┌'))
                .collect::<Vec<_>>()
                .join(" / ");
            if line.len() > 300 {
                let cut = (0..=300)
                    .rev()
                    .find(|&i| line.is_char_boundary(i))
                    .unwrap_or(0);
                line.truncate(cut);
            }
            report.cannot_run = Some(line);
            Ok(report)
        }
    }
}

/// The splitmix64 finaliser: a deterministic value per (seed, address).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A float k/1024 in [−1.5, 1.5) (exact in f16 too).
fn float_value(h: u64) -> f32 {
    ((h % 3072) as i32 - 1536) as f32 / 1024.0
}

/// A small integer, 0 or 1 (indices, loop counts and switch selectors stay
/// small and in range: a selector no case handles leaves outputs undefined).
fn int_value(h: u64) -> u32 {
    (h % 2) as u32
}

/// f32 → f16 bits for values that are exact in f16 (the k/1024 above).
fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x == 0.0 {
        return sign;
    }
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// What a vertex format's components are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Comp {
    F32,
    F16,
    Int,
    Bits,
}

/// Components and per-component bytes of a format name.
fn format_layout(name: &str) -> Option<(Comp, u32, u32)> {
    if name.ends_with("_PACK32") {
        return Some((Comp::Bits, 1, 4));
    }
    let (body, ty) = name.split_once('_')?;
    let n = body.matches(|c: char| c.is_ascii_alphabetic()).count() as u32;
    let bits: u32 = body
        .split(|c: char| c.is_ascii_alphabetic())
        .find(|s| !s.is_empty())?
        .parse()
        .ok()?;
    let comp = match (ty, bits) {
        ("SFLOAT", 32) => Comp::F32,
        ("SFLOAT", 16) => Comp::F16,
        ("UINT" | "SINT", _) => Comp::Int,
        ("UNORM" | "SNORM", _) => Comp::Bits,
        _ => return None,
    };
    Some((comp, n, bits / 8))
}

/// Write one attribute's bytes at `at`.
fn fill_attribute(bytes: &mut [u8], at: usize, name: &str, seed: u64) -> Result<(), CannotRun> {
    let Some((comp, n, size)) = format_layout(name) else {
        return cannot(format!("vertex format {name}"));
    };
    for c in 0..n as usize {
        let h = mix(seed ^ (at as u64 + c as u64 * 4099));
        let o = at + c * size as usize;
        let v: u32 = match comp {
            Comp::F32 => float_value(h).to_bits(),
            Comp::F16 => u32::from(f16_bits(float_value(h))),
            Comp::Int => int_value(h),
            Comp::Bits => h as u32,
        };
        bytes[o..o + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
    }
    Ok(())
}

/// RADV 22.3's descriptor size and alignment per type (`radv_descriptor_set.c`).
fn descriptor_size_align(ty: &str) -> Option<(u32, u32)> {
    Some(match ty {
        "UNIFORM_BUFFER"
        | "STORAGE_BUFFER"
        | "UNIFORM_TEXEL_BUFFER"
        | "STORAGE_TEXEL_BUFFER"
        | "SAMPLER"
        | "ACCELERATION_STRUCTURE_KHR" => (16, 16),
        "SAMPLED_IMAGE" | "STORAGE_IMAGE" | "INPUT_ATTACHMENT" => (64, 32),
        "COMBINED_IMAGE_SAMPLER" => (96, 32),
        "UNIFORM_BUFFER_DYNAMIC" | "STORAGE_BUFFER_DYNAMIC" => (0, 1),
        _ => return None,
    })
}

/// The byte offset of each binding of a set, as RADV 22.3 lays a set out:
/// bindings in binding order, in two passes (first those whose alignment
/// is `first`, then the others), where `first` is 16 when the last
/// binding's alignment is 32 and 32 otherwise.
fn set_offsets(bindings: &[(u32, String, u32)]) -> Result<BTreeMap<u32, u32>, CannotRun> {
    let mut sorted: Vec<&(u32, String, u32)> = bindings.iter().collect();
    sorted.sort_by_key(|b| b.0);
    let first = match sorted.last() {
        Some((_, ty, _)) => match descriptor_size_align(ty) {
            Some((_, 32)) => 16,
            Some(_) => 32,
            None => return cannot(format!("descriptor type {ty}")),
        },
        None => 32,
    };
    let mut offsets = BTreeMap::new();
    let mut size = 0u32;
    for pass in 0..2 {
        for (b, ty, count) in &sorted {
            let Some((s, align)) = descriptor_size_align(ty) else {
                return cannot(format!("descriptor type {ty}"));
            };
            if (pass == 0) != (align == first) {
                continue;
            }
            size = size.next_multiple_of(align);
            offsets.insert(*b, size);
            size += s * (*count).max(1);
        }
    }
    Ok(offsets)
}

/// Guest addresses (low 32 bits of RADV's 32-bit pointers; the high half
/// is RADV's `0xffff8000`).
const VB_TABLE: u32 = 0x0010_0000;
const SET_TABLES: u32 = 0x0020_0000;
const PUSH_BLOCK: u32 = 0x0030_0000;
/// Where data buffers start (48-bit), 1 MiB apart.
const DATA: u64 = 0x1_0000_0000;
/// The high half RADV's 32-bit pointers carry.
const ADDRESS32_HI: u64 = 0xffff_8000;
/// The code address.
const CODE: u64 = drawbind::draws::DEFAULT_CODE_ADDR;

fn ptr32(low: u32) -> u64 {
    ((ADDRESS32_HI << 32) | u64::from(low)) & ((1 << 48) - 1)
}

/// The gfx10 buffer descriptor RADV writes: word 3 = DST_SEL xyzw,
/// format, OOB_SELECT, RESOURCE_LEVEL.
fn vsharp(base: u64, stride: u32, num_records: u32, format: u32, oob: u32) -> [u32; 4] {
    [
        base as u32,
        ((base >> 32) as u32 & 0xffff) | (stride & 0x3fff) << 16,
        num_records,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | format << 12 | 1 << 24 | oob << 28,
    ]
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

/// Compile GLSL (vertex stage) to SPIR-V 1.3 with glslangValidator.
pub fn compile_glsl(source: &str, tag: &str) -> Result<Vec<u32>, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let n = N.fetch_add(1, Ordering::Relaxed);
    let stem = format!("shaderlift-oracle-{}-{n}-{tag}", std::process::id());
    let src = dir.join(format!("{stem}.vert"));
    let spv = dir.join(format!("{stem}.spv"));
    std::fs::write(&src, source).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-S", "vert", "-o"])
        .arg(&spv)
        .arg(&src)
        .output();
    let _ = std::fs::remove_file(&src);
    let out = out.map_err(|e| {
        format!("cannot run glslangValidator ({e}); install it (apt-get install glslang-tools)")
    })?;
    let bytes = std::fs::read(&spv);
    let _ = std::fs::remove_file(&spv);
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stdout);
        let first: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("ERROR"))
            .take(2)
            .collect();
        return Err(format!("glslangValidator fails: {}", first.join("; ")));
    }
    let bytes = bytes.map_err(|e| format!("glslangValidator wrote nothing: {e}"))?;
    Ok(words_of(&bytes))
}

/// Rename the GLSL's `void main(` to `void shaderlift_oracle_main(`.
fn rename_main(source: &str) -> Result<String, CannotRun> {
    let mut out = String::with_capacity(source.len() + 64);
    let mut rest = source;
    let mut n = 0;
    while let Some(i) = rest.find("main") {
        let (before, after) = rest.split_at(i);
        let prev_ok = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let tail = &after[4..];
        let next_ok = tail.trim_start().starts_with('(');
        let void_before = before.trim_end().ends_with("void");
        out.push_str(before);
        if prev_ok && next_ok && void_before {
            out.push_str("shaderlift_oracle_main");
            n += 1;
        } else {
            out.push_str("main");
        }
        rest = tail;
    }
    out.push_str(rest);
    if n == 0 {
        return cannot("no `void main(` in the GLSL");
    }
    Ok(out)
}

/// The wrapper: stores gl_Position (slot 0) and each location (slot 1 + its
/// rank) into `shaderlift_oracle_words` at set `set`.
fn wrapper(
    draw: &OracleDraw,
    source: &str,
    outputs: &[OutputSlot],
    ranks: &BTreeMap<u32, u32>,
    writes_position: bool,
    set: u32,
) -> Result<String, CannotRun> {
    let mut s = rename_main(source)?;
    let words = 4 * (1 + ranks.len() as u32);
    let (fi, vc, fv) = (draw.first_instance, draw.vertices, draw.first_vertex);
    s.push_str(&format!(
        "\n// shaderlift oracle wrapper\nlayout(set = {set}, binding = 0, std430) buffer ShaderliftOracleRecords {{ uint shaderlift_oracle_words[]; }};\n\
         void main() {{\n    shaderlift_oracle_main();\n    uint shaderlift_r = (uint(gl_InstanceIndex - {fi}) * {vc}u + uint(gl_VertexIndex - {fv})) * {words}u;\n"
    ));
    let sw = ["x", "y", "z", "w"];
    if writes_position {
        for (c, sw) in sw.iter().enumerate() {
            s.push_str(&format!(
                "    shaderlift_oracle_words[shaderlift_r + {c}u] = floatBitsToUint(gl_Position.{sw});\n"
            ));
        }
    }
    for o in outputs {
        let slot = 1 + ranks[&o.location];
        for j in 0..o.components {
            let e = if o.components == 1 {
                o.expr.clone()
            } else {
                format!("{}.{}", o.expr, sw[j as usize])
            };
            let conv = match o.scalar {
                Scalar::F32 => format!("floatBitsToUint({e})"),
                Scalar::I32 | Scalar::Bool => format!("uint({e})"),
                Scalar::U32 => e,
            };
            s.push_str(&format!(
                "    shaderlift_oracle_words[shaderlift_r + {}u] = {conv};\n",
                4 * slot + o.component + j
            ));
        }
    }
    s.push_str("}\n");
    Ok(s)
}

/// Where RADV 22.3 puts each output component: `(location, component)` →
/// `(param, component)`. RADV links VS and FS with Mesa's
/// `nir_compact_varyings`: components are sorted by interpolation type
/// (floats first, integers flat after), then by location and component,
/// and packed densely, four to a slot, a slot holding one interpolation
/// type only; params are the packed slots in order.
pub fn radv_packing(
    outputs: &[OutputSlot],
    dropped: &std::collections::BTreeSet<(u32, u32)>,
) -> BTreeMap<(u32, u32), (u32, u32)> {
    let mut comps: Vec<(u8, u32, u32)> = Vec::new();
    for o in outputs {
        let interp = match o.scalar {
            Scalar::F32 => 0,
            _ => 2,
        };
        for j in 0..o.components {
            if !dropped.contains(&(o.location, o.component + j)) {
                comps.push((interp, o.location, o.component + j));
            }
        }
    }
    comps.sort_unstable();
    let mut assigned: Vec<(u8, u8)> = Vec::new(); // (mask, interp)
    let (mut cursor, mut comp) = (0usize, 0u32);
    let mut out = BTreeMap::new();
    for (interp, loc, c) in comps {
        loop {
            if assigned.len() <= cursor {
                assigned.push((0, interp));
            }
            let (mask, ty) = assigned[cursor];
            if mask != 0 {
                if ty != interp {
                    comp = 0;
                    cursor += 1;
                    continue;
                }
                while comp < 4 && mask & (1 << comp) != 0 {
                    comp += 1;
                }
            }
            if comp == 4 {
                comp = 0;
                cursor += 1;
                continue;
            }
            assigned[cursor] = (mask | 1 << comp, interp);
            out.insert((loc, c), (cursor as u32, comp));
            comp += 1;
            break;
        }
    }
    out
}

/// One vertex buffer of a scene: binding, bytes, stride, records.
type VertexBytes = (u32, Vec<u8>, u32, u32);

/// One export of one vertex as the interpreter gave it: the words, the
/// enable mask and the defined mask.
type RefExport = ([u32; 4], u8, u8);

fn json_u32(v: &Value, key: &str) -> Result<u32, CannotRun> {
    v.get(key)
        .and_then(Value::as_u64)
        .and_then(|x| u32::try_from(x).ok())
        .ok_or_else(|| CannotRun(format!("meta.json: `{key}` missing or not a number")))
}

/// The entry's whole check.
fn check(dir: &Path, harness: &Harness, report: &mut EntryReport) -> Result<(), CannotRun> {
    let source = std::fs::read_to_string(dir.join("shader.vert"))?;
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json"))?)?;
    let capture = Capture::open(dir, &CaptureOptions::default())?;
    if !capture.stage().is_vertex() {
        return cannot("not a vertex shader");
    }

    // 1. Reflect the original.
    let original = compile_glsl(&source, "orig").map_err(CannotRun)?;
    let module = Module::parse(&original).map_err(CannotRun)?;
    let outputs = module.outputs().map_err(CannotRun)?;
    let mut ranks = BTreeMap::new();
    for o in &outputs {
        let n = ranks.len() as u32;
        ranks.entry(o.location).or_insert(n);
    }
    let mut blocks: Vec<(DescriptorDesc, u32)> = Vec::new();
    let mut push_type = None;
    for &(var, class, ty) in &module.variables {
        match class {
            spirv::UNIFORM | spirv::STORAGE_BUFFER => {
                let Some((set, binding)) = module.set_binding(var) else {
                    return cannot("a buffer without a binding");
                };
                if !matches!(module.types.get(&ty), Some(spirv::Ty::Struct { .. })) {
                    return cannot(format!("set {set} binding {binding}: an array of blocks"));
                }
                let kind = if class == spirv::STORAGE_BUFFER || module.decoration(ty, 3).is_some() {
                    DescriptorKind::Storage
                } else {
                    DescriptorKind::Uniform
                };
                blocks.push((DescriptorDesc { set, binding, kind }, ty));
            }
            spirv::PUSH_CONSTANT => push_type = Some(ty),
            spirv::UNIFORM_CONSTANT => {
                return cannot(format!(
                    "binds an image or sampler (`{}`)",
                    module.name(var)
                ))
            }
            _ => {}
        }
    }
    let writes_position = source.contains("gl_Position");
    let out_set = blocks.iter().map(|(d, _)| d.set + 1).max().unwrap_or(0);
    if out_set >= vkharness::MAX_SETS {
        return cannot("no descriptor set left for the output buffer");
    }

    // 2. The scene.
    let seed = 0x5eed_0000u64;
    let draw = OracleDraw::for_source(&source);
    let OracleDraw {
        vertices: n_vertices,
        instances: n_instances,
        first_vertex,
        first_instance,
    } = draw;
    let vi = meta.get("vertex_input").cloned().unwrap_or(Value::Null);
    let empty = Vec::new();
    let vbind = vi
        .get("bindings")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let vattr = vi
        .get("attributes")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut vertex_bindings = Vec::new();
    let mut vertex_attributes = Vec::new();
    for b in vbind {
        vertex_bindings.push(VertexBindingDesc {
            binding: json_u32(b, "binding")?,
            stride: json_u32(b, "stride")?,
            per_instance: b.get("inputRate").and_then(Value::as_str) == Some("INSTANCE"),
        });
    }
    let mut attr_formats = Vec::new();
    for a in vattr {
        let fname = a
            .get("format")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let Some(format) = VertexFormat::from_name(&fname) else {
            return cannot(format!("vertex format {fname}"));
        };
        vertex_attributes.push(VertexAttributeDesc {
            location: json_u32(a, "location")?,
            binding: json_u32(a, "binding")?,
            format,
            offset: json_u32(a, "offset")?,
        });
        attr_formats.push(fname);
    }
    let mut mem = SparseMemory::new();
    let mut next_data = DATA;
    let mut alloc = |len: u64| {
        let a = next_data;
        next_data += len.max(1).next_multiple_of(1 << 20);
        a
    };
    // Vertex buffers (per seed: the second run tells constants apart).
    let make_vb = |seed: u64| -> Result<Vec<VertexBytes>, CannotRun> {
        let mut out = Vec::new();
        for b in &vertex_bindings {
            let records = if b.per_instance {
                first_instance + n_instances
            } else {
                first_vertex + n_vertices
            };
            let attrs: Vec<(usize, &VertexAttributeDesc)> = vertex_attributes
                .iter()
                .enumerate()
                .filter(|(_, a)| a.binding == b.binding)
                .collect();
            let end = attrs
                .iter()
                .map(|(_, a)| a.offset + a.format.bytes)
                .max()
                .unwrap_or(0);
            let len = (records - 1) * b.stride + end.max(b.stride).max(4);
            let mut bytes = vec![0u8; len as usize];
            for r in 0..records {
                for (i, a) in &attrs {
                    let at = (r * b.stride + a.offset) as usize;
                    fill_attribute(
                        &mut bytes,
                        at,
                        &attr_formats[*i],
                        seed ^ u64::from(b.binding) << 40,
                    )?;
                }
            }
            out.push((b.binding, bytes, b.stride, records));
        }
        Ok(out)
    };
    let mut vb_bytes: Vec<(u32, Vec<u8>, u64, u32, u32)> = Vec::new(); // binding, bytes, addr, stride, records
    for (binding, bytes, stride, records) in make_vb(seed)? {
        let addr = alloc(bytes.len() as u64);
        mem.write_bytes(addr, &bytes);
        vb_bytes.push((binding, bytes, addr, stride, records));
    }
    // The vertex-buffer table: one V# per binding that owns a descriptor.
    let slots: Vec<(u32, u32)> = match meta.get("vertex_buffer_slots").and_then(Value::as_array) {
        Some(list) => list
            .iter()
            .map(|s| {
                let slot = s
                    .get("slot")
                    .and_then(Value::as_str)
                    .and_then(|t| u32::from_str_radix(t.trim_start_matches("0x"), 16).ok());
                Ok((
                    slot.ok_or_else(|| CannotRun("vertex_buffer_slots: a bad slot".into()))?,
                    json_u32(s, "binding")?,
                ))
            })
            .collect::<Result<_, CannotRun>>()?,
        None => {
            let mut used: Vec<u32> = vertex_attributes.iter().map(|a| a.binding).collect();
            used.sort_unstable();
            used.dedup();
            used.iter()
                .enumerate()
                .map(|(i, &b)| (16 * i as u32, b))
                .collect()
        }
    };
    for (slot, binding) in &slots {
        let Some((_, _, addr, stride, records)) = vb_bytes.iter().find(|v| v.0 == *binding) else {
            return cannot(format!("vertex_buffer_slots names binding {binding}"));
        };
        // Structured (OOB_SELECT 1) with a stride, raw (3) without; format 32_UINT.
        let (n, oob) = if *stride == 0 {
            (
                vb_bytes
                    .iter()
                    .find(|v| v.0 == *binding)
                    .map_or(0, |v| v.1.len() as u32),
                3,
            )
        } else {
            (*records, 1)
        };
        mem.write_words(ptr32(VB_TABLE + slot), &vsharp(*addr, *stride, n, 20, oob));
    }
    // Buffer blocks.
    let layout = meta.get("pipeline_layout").cloned().unwrap_or(Value::Null);
    let make_desc = |seed: u64| -> Result<Vec<(DescriptorDesc, Vec<u8>)>, CannotRun> {
        let mut out = Vec::new();
        for (d, ty) in &blocks {
            let mut bytes = Vec::new();
            let mut value = |s: Scalar, off: u32| {
                let h =
                    mix(seed
                        ^ (u64::from(d.set) << 48 | u64::from(d.binding) << 32 | u64::from(off)));
                match s {
                    Scalar::F32 => float_value(h).to_bits(),
                    Scalar::Bool => (h & 1) as u32,
                    _ => int_value(h),
                }
            };
            let end = module
                .fill(*ty, 0, spirv::Layout::default(), &mut bytes, &mut value)
                .map_err(CannotRun)?;
            bytes.resize((end.max(16) as usize).next_multiple_of(16), 0);
            out.push((*d, bytes));
        }
        Ok(out)
    };
    let desc_bytes = make_desc(seed)?;
    let mut sets: BTreeMap<u32, Vec<(u32, String, u32)>> = BTreeMap::new();
    if let Some(obj) = layout.as_object() {
        for (k, v) in obj {
            let Some(n) = k.strip_prefix("set").and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            let list = v.as_array().unwrap_or(&empty);
            let entry = sets.entry(n).or_default();
            for b in list {
                entry.push((
                    json_u32(b, "binding")?,
                    b.get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    b.get("count").and_then(Value::as_u64).unwrap_or(1) as u32,
                ));
            }
        }
    }
    for (d, bytes) in &desc_bytes {
        let Some(list) = sets.get(&d.set) else {
            return cannot(format!("pipeline_layout has no set {}", d.set));
        };
        let Some((_, ty, _)) = list.iter().find(|b| b.0 == d.binding) else {
            return cannot(format!(
                "pipeline_layout has no set {} binding {}",
                d.set, d.binding
            ));
        };
        if ty.ends_with("_DYNAMIC") {
            return cannot("a dynamic buffer descriptor");
        }
        let offsets = set_offsets(list)?;
        let addr = alloc(bytes.len() as u64);
        mem.write_bytes(addr, bytes);
        let at = ptr32(SET_TABLES + 0x1000 * d.set) + u64::from(offsets[&d.binding]);
        // RADV's buffer descriptor: raw (OOB_SELECT 3), range in bytes, 32_FLOAT.
        mem.write_words(at, &vsharp(addr, 0, bytes.len() as u32, 22, 3));
    }
    // Push constants.
    let push_size = layout
        .get("push_constants")
        .and_then(|p| p.get("size"))
        .and_then(Value::as_u64)
        .unwrap_or(0) as u32;
    let make_push = |seed: u64| -> Result<Vec<u8>, CannotRun> {
        let mut push = Vec::new();
        if let Some(ty) = push_type {
            let mut value = |s: Scalar, off: u32| {
                let h = mix(seed ^ 0xabcd_0000_0000 ^ u64::from(off));
                match s {
                    Scalar::F32 => float_value(h).to_bits(),
                    Scalar::Bool => (h & 1) as u32,
                    _ => int_value(h),
                }
            };
            module
                .fill(ty, 0, spirv::Layout::default(), &mut push, &mut value)
                .map_err(CannotRun)?;
        }
        // Rounded up to 16 as naga sizes a block (a vec4 and two floats: 32).
        let push_bytes = push_size.max(push.len() as u32).next_multiple_of(16);
        push.resize(push_bytes as usize, 0);
        Ok(push)
    };
    let push = make_push(seed)?;
    let push_bytes = push.len() as u32;
    let push_words = words_of(&push);
    if !push.is_empty() {
        mem.write_bytes(ptr32(PUSH_BLOCK), &push);
    }
    // User data.
    let abi = capture.abi();
    let inline_mask = meta
        .get("radv_shader_info")
        .and_then(|i| i.get("inline_push_constant_mask"))
        .and_then(Value::as_u64);
    let inline_dwords: Vec<u32> = match inline_mask {
        Some(m) => (0..64).filter(|b| m >> b & 1 != 0).collect(),
        None => (0..64).collect(),
    };
    let mut user_data = vec![0u32; usize::from(abi.user_data_count)];
    for e in meta
        .get("entry_sgprs")
        .and_then(Value::as_array)
        .unwrap_or(&empty)
    {
        let reg = e.get("reg").and_then(Value::as_str).unwrap_or("");
        let role = e.get("name").and_then(Value::as_str).unwrap_or("");
        let Some(n) = reg.strip_prefix('s').and_then(|n| n.parse::<u32>().ok()) else {
            continue; // pairs such as s[0:1] are system SGPRs
        };
        let Some(k) = n.checked_sub(u32::from(abi.user_data_sgpr)) else {
            continue;
        };
        let Some(slot) = user_data.get_mut(k as usize) else {
            continue;
        };
        *slot = match role {
            "vertex_buffers" => VB_TABLE,
            "base_vertex" => first_vertex,
            "start_instance" => first_instance,
            "draw_id" | "ngg_culling_settings" => 0,
            "ngg_viewport_scale_x" | "ngg_viewport_scale_y" => 1.0f32.to_bits(),
            "ngg_viewport_translate_x" | "ngg_viewport_translate_y" => 0,
            "push_constants" => PUSH_BLOCK,
            r if r.starts_with("descriptor_set_") => {
                let Ok(s) = r["descriptor_set_".len()..].parse::<u32>() else {
                    return cannot(format!("user-data role {r}"));
                };
                SET_TABLES + 0x1000 * s
            }
            r if r.starts_with("inline_push_const_") => {
                let Ok(i) = r["inline_push_const_".len()..].parse::<usize>() else {
                    return cannot(format!("user-data role {r}"));
                };
                let dw = inline_dwords.get(i).copied().unwrap_or(u32::MAX);
                push_words.get(dw as usize).copied().unwrap_or(0)
            }
            r if r.starts_with('(') => 0,
            r => return cannot(format!("user-data role `{r}`")),
        };
    }
    let code = capture.code_and_constants();
    mem.write_bytes(CODE, &code);

    // 3. The source on the device.
    let wrapped = wrapper(&draw, &source, &outputs, &ranks, writes_position, out_set)?;
    let spv = compile_glsl(&wrapped, "wrapped").map_err(|e| CannotRun(format!("wrapper: {e}")))?;
    let spv = spirv::flat_integer_outputs(&spv).map_err(CannotRun)?;
    let mut descriptors: Vec<DescriptorDesc> = blocks.iter().map(|(d, _)| *d).collect();
    let out_desc = DescriptorDesc {
        set: out_set,
        binding: 0,
        kind: DescriptorKind::Storage,
    };
    descriptors.push(out_desc);
    let interface = SourceInterface {
        entry_point: "main".into(),
        vertex_bindings: vertex_bindings.clone(),
        vertex_attributes: vertex_attributes.clone(),
        descriptors,
        push_constant_bytes: push_bytes,
    };
    let device = device_error;
    let program = harness.source_program(&spv, &interface).map_err(device)?;
    let words = 4 * (1 + ranks.len() as u32);
    let words_per = words;
    let records = n_vertices * n_instances;
    let unwritten = vec![0xa5u8; (records * words * 4) as usize];
    let run_source = |vb: &[(u32, &[u8])],
                      desc: &[(DescriptorDesc, Vec<u8>)],
                      push: &[u8]|
     -> Result<Vec<u32>, CannotRun> {
        let vbufs: Vec<VertexBuffer<'_>> = vb
            .iter()
            .map(|(binding, bytes)| VertexBuffer {
                binding: *binding,
                bytes,
            })
            .collect();
        let mut dbufs: Vec<DescriptorBuffer<'_>> = desc
            .iter()
            .map(|(d, bytes)| DescriptorBuffer {
                set: d.set,
                binding: d.binding,
                bytes,
                size: bytes.len() as u64,
                read_back: false,
            })
            .collect();
        dbufs.push(DescriptorBuffer {
            set: out_set,
            binding: 0,
            bytes: &unwritten,
            size: unwritten.len() as u64,
            read_back: true,
        });
        let out = program
            .run(
                &DrawCall {
                    vertex_count: n_vertices,
                    instance_count: n_instances,
                    first_vertex,
                    first_instance,
                },
                &vbufs,
                &dbufs,
                push,
            )
            .map_err(device)?;
        Ok(words_of(out.buffer(out_set, 0).unwrap_or(&[])))
    };
    let vb1: Vec<(u32, &[u8])> = vb_bytes.iter().map(|v| (v.0, v.1.as_slice())).collect();
    let dev_words = run_source(&vb1, &desc_bytes, &push)?;
    // A second run on other inputs: an output component equal in every
    // vertex of both runs is a constant, one equal to an earlier component
    // everywhere a duplicate; RADV's linker (nir_link_opt_varyings) gives
    // the fragment shader those directly and exports neither.
    let seed2 = seed ^ 0x0123_4567_89ab_cdef;
    let vb2_owned = make_vb(seed2)?;
    let vb2: Vec<(u32, &[u8])> = vb2_owned.iter().map(|v| (v.0, v.1.as_slice())).collect();
    let dev2 = run_source(&vb2, &make_desc(seed2)?, &make_push(seed2)?)?;

    // 4. The machine code in the interpreter.
    let iprog = interp::Program::new(&capture.code, capture.target());
    let mut icfg = interp::DrawConfig::new(
        &iprog,
        capture.stage(),
        abi,
        capture.wave_size() == WaveSize::W64,
    );
    icfg.code_addr = CODE;
    let run = interp::run_draw(
        &iprog,
        &mem,
        &user_data,
        &interp::Draw::Auto {
            first_vertex: 0,
            vertex_count: n_vertices,
            instance_count: n_instances,
            chunks: Vec::new(),
        },
        &icfg,
    )
    .map_err(|e| CannotRun(format!("interpreter: {e}")))?;
    // (vertex, instance) → export name → (values, en, defined)
    let mut reference: HashMap<(u32, u32), HashMap<String, RefExport>> = HashMap::new();
    for e in &run.obs.exports {
        let Some(w) = run.waves.get(e.wave as usize) else {
            continue;
        };
        let Some(&vid) = w.vertex_ids.get(e.lane as usize) else {
            continue;
        };
        reference
            .entry((vid, w.instance))
            .or_default()
            .insert(e.target_name(), (e.values, e.en, e.defined));
    }
    let params: std::collections::BTreeSet<String> = reference
        .values()
        .flat_map(|m| m.keys().filter(|k| k.starts_with("param")).cloned())
        .collect();
    let column = |words: &[u32], w: u32| -> Vec<u32> {
        (0..records)
            .map(|r| {
                words
                    .get((r * words_per + w) as usize)
                    .copied()
                    .unwrap_or(0)
            })
            .collect()
    };
    let mut dropped = std::collections::BTreeSet::new();
    let mut kept: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    for o in &outputs {
        for j in 0..o.components {
            let c = o.component + j;
            let w = 4 * (1 + ranks[&o.location]) + c;
            let (a, b) = (column(&dev_words, w), column(&dev2, w));
            let constant = a.iter().chain(&b).all(|&x| x == a[0]);
            if constant || kept.iter().any(|k| k.0 == a && k.1 == b) {
                dropped.insert((o.location, c));
            } else {
                kept.push((a, b));
            }
        }
    }
    let packing = radv_packing(&outputs, &dropped);
    let packed_slots = packing.values().map(|p| p.0 + 1).max().unwrap_or(0) as usize;
    if params.len() != packed_slots {
        return cannot(format!(
            "the code exports {} params ({}), the GLSL's outputs pack into {packed_slots}: RADV removed or merged an output",
            params.len(),
            params.iter().cloned().collect::<Vec<_>>().join(", "),
        ));
    }
    report.mapping = packing
        .iter()
        .map(|((loc, c), (p, pc))| (*loc, format!("{c} -> param{p}.{pc}")))
        .collect();

    // 5. Compare.
    let mut slots: Vec<(String, String, u32, u32, Scalar)> = Vec::new(); // export, source, word, component, scalar
    if writes_position {
        for c in 0..4 {
            slots.push(("pos0".into(), "gl_Position".into(), c, c, Scalar::F32));
        }
    }
    for o in &outputs {
        let r = ranks[&o.location];
        for j in 0..o.components {
            let c = o.component + j;
            let Some(&(p, pc)) = packing.get(&(o.location, c)) else {
                report.dropped += 1;
                continue;
            };
            slots.push((
                format!("param{p}"),
                o.expr.clone(),
                4 * (1 + r) + c,
                pc,
                o.scalar,
            ));
        }
    }
    for inst in 0..n_instances {
        for v in 0..n_vertices {
            report.vertices += 1;
            let rec = ((inst * n_vertices + v) * words) as usize;
            let refs = reference.get(&(v, inst));
            for (export, src, word, comp, scalar) in &slots {
                let dword = dev_words
                    .get(rec + *word as usize)
                    .copied()
                    .unwrap_or(0xa5a5_a5a5);
                let rword = match refs.and_then(|m| m.get(export)) {
                    Some((_, en, _)) if en >> comp & 1 == 0 => None,
                    Some((_, _, def)) if def >> comp & 1 == 0 => {
                        report.undefined += 1;
                        continue;
                    }
                    Some((vals, ..)) => Some(vals[*comp as usize]),
                    None => None,
                };
                report.words += 1;
                let verdict = match rword {
                    Some(r) if *scalar == Scalar::F32 => {
                        let (a, b) = (f32::from_bits(dword), f32::from_bits(r));
                        if a.is_finite() && b.is_finite() && dword != r {
                            let scale = a.abs().max(b.abs()).max(1.0);
                            let ulp = f32::from_bits(
                                (scale.to_bits() & 0x7f80_0000).saturating_sub(23 << 23),
                            );
                            let d = (f64::from(a) - f64::from(b)).abs() / f64::from(ulp);
                            report.max_ulps = report.max_ulps.max(d);
                        }
                        float_verdict(dword, r)
                    }
                    Some(r) if r == dword => Verdict::Exact,
                    _ => Verdict::Mismatch,
                };
                match verdict {
                    Verdict::Exact => report.exact += 1,
                    Verdict::WithinBound => report.within_bound += 1,
                    Verdict::Mismatch => {
                        report.mismatches += 1;
                        if report.first_mismatches.len() < 8 {
                            report.first_mismatches.push(Mismatch {
                                vertex: v,
                                instance: inst,
                                export: export.clone(),
                                source: src.clone(),
                                component: *comp,
                                device: dword,
                                interpreter: rword,
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
