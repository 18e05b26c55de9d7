//! Opcode-level differential testing (issue 16): for every vector-ALU
//! instruction form the translator accepts, a generated single-instruction
//! shader (`opcode_diff/gen.rs`) runs on lavapipe through `shaderlift run`'s
//! pipeline with edge and seeded random operands (denormals, ±0, NaN, inf,
//! INT_MIN, shifts ≥ 32, ...), and every result word is compared with the
//! reference interpreter's.
//!
//! - `sampled_opcodes_match_the_interpreter_on_lavapipe` (in `cargo test`):
//!   every lifted form in wave64 with 64 vertices, and the lane-mask
//!   results again in wave32.
//! - `all_opcodes_match_the_interpreter_on_lavapipe_full_run` (`--ignored`):
//!   every lifted form in wave64 and wave32, the first two sources walking
//!   every pair of edge values, plus random vertices.
//!
//! - `scalar_opcodes_match_the_interpreter_on_lavapipe` (in `cargo test`,
//!   all pairs with `--ignored`): every 32-bit SOP1/SOP2/SOPK/SOPC
//!   instruction the translator lifts (`opcode_diff/scalar.rs`), four
//!   operand sets per shader loaded from memory, results and SCC exported.
//!
//! A mismatch fails the test unless `tests/fixtures/opcode_diff_known.tsv`
//! lists it (mnemonic, class of disagreement, reason, issue); words within
//! one ulp are counted apart and fail only for integer and mask results.
//! `--nocapture` prints the summary table. Without Vulkan the tests print a
//! note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

#![forbid(unsafe_code)]

#[path = "opcode_diff/gen.rs"]
mod gen;
#[path = "opcode_diff/scalar.rs"]
mod scalar;

use corpus::meta::Meta;
use corpus::{Capture, WaveSize};
use gen::{Case, ResultKind, RECORD_WORDS};
use isa::{Stage, Target};
use shaderlift_cli::run::compare::{compare, Verdict};
use shaderlift_cli::run::{execute, DrawReport, Mismatch, RunOptions};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;
use translator::{translate, Options, ShaderInput, TranslateError};
use vkharness::Harness;

/// Vertices per draw (the run lists at most 16 mismatching words per
/// draw; a draw with more is run again in draws of [`SMALL_DRAW`]).
const DRAW: u32 = 64;
/// Vertices per draw when every mismatch must be listed: at most four
/// result words each.
const SMALL_DRAW: u32 = 4;
/// The operand seed.
const SEED: u64 = 0x0dd5_eed5_1607_c0de;

/// The operand seed of a case.
fn seed(case: &Case) -> u64 {
    SEED ^ u64::from(case.inst.opcode.raw())
}

/// One line of the allow-list.
#[derive(Clone, Debug)]
struct Known {
    /// Base mnemonic, or a case name (`v_rcp_f32_e64`).
    op: String,
    /// `denormal`, `nan`, `ulp<=N` or `any`.
    class: String,
    reason: String,
    issue: String,
}

fn allow_list() -> Vec<Known> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/opcode_diff_known.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_allow_list(&text)
}

fn parse_allow_list(text: &str) -> Vec<Known> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() == 4 && f.iter().all(|x| !x.trim().is_empty()),
                "allow-list line needs 4 non-empty tab-separated fields (op, class, reason, issue): {l:?}"
            );
            let class = f[1].to_string();
            assert!(
                matches!(class.as_str(), "denormal" | "nan" | "inf" | "any")
                    || class
                        .strip_prefix("ulp<=")
                        .is_some_and(|n| n.parse::<u32>().is_ok()),
                "unknown class {class:?} in {l:?}"
            );
            Known {
                op: f[0].to_string(),
                class,
                reason: f[2].to_string(),
                issue: f[3].to_string(),
            }
        })
        .collect()
}

fn is_nan(w: u32) -> bool {
    w & 0x7f80_0000 == 0x7f80_0000 && w & 0x007f_ffff != 0
}

fn is_denormal(w: u32) -> bool {
    w & 0x7f80_0000 == 0 && w & 0x007f_ffff != 0
}

/// Distance of two finite floats in ulps (`None` when either is not
/// finite).
fn ulps(a: u32, b: u32) -> Option<u64> {
    let fin = |w: u32| w & 0x7f80_0000 != 0x7f80_0000;
    let ord = |w: u32| {
        if w & 0x8000_0000 != 0 {
            -i64::from(w & 0x7fff_ffff) - 1
        } else {
            i64::from(w)
        }
    };
    (fin(a) && fin(b)).then(|| (ord(a) - ord(b)).unsigned_abs())
}

/// One disagreeing word with its operands.
#[derive(Clone, Debug)]
struct Detail {
    vertex: u32,
    word: String,
    operands: Vec<String>,
    device: Option<u32>,
    reference: Option<u32>,
    /// Its classes (`nan`, `denormal`, `inf`, joined by `+`), or `other`.
    class: String,
    /// The allow-list line that accepts it.
    allowed_by: Option<usize>,
}

impl Detail {
    fn show(&self) -> String {
        let w = |x: Option<u32>| x.map_or("missing".into(), |x| format!("{x:#010x}"));
        format!(
            "vertex {} {}: operands [{}] device {} interpreter {} ({})",
            self.vertex,
            self.word,
            self.operands.join(", "),
            w(self.device),
            w(self.reference),
            self.class
        )
    }
}

/// A vertex's source operands as text (`f32:0x3f800000`).
fn operands(case: &Case, record: &[u32; RECORD_WORDS]) -> Vec<String> {
    case.sources
        .iter()
        .enumerate()
        .map(|(k, t)| match t {
            isa::ValType::F64 | isa::ValType::B64 => format!(
                "{}:{:#018x}",
                ty_name(*t),
                u64::from(record[2 * k]) | u64::from(record[2 * k + 1]) << 32
            ),
            _ => format!("{}:{:#010x}", ty_name(*t), record[2 * k]),
        })
        .collect()
}

fn ty_name(t: isa::ValType) -> &'static str {
    match t {
        isa::ValType::F32 => "f32",
        isa::ValType::F64 => "f64",
        isa::ValType::B64 => "b64",
        isa::ValType::F16 => "f16",
        isa::ValType::B16 => "b16",
        _ => "b32",
    }
}

/// Float-operand facts of a vertex: some operand is a NaN, a denormal, an
/// infinity.
fn float_operands(case: &Case, record: &[u32; RECORD_WORDS]) -> (bool, bool, bool) {
    let (mut nan, mut den, mut inf) = (false, false, false);
    for (k, t) in case.sources.iter().enumerate() {
        match t {
            isa::ValType::F32 => {
                let w = record[2 * k];
                nan |= is_nan(w);
                den |= is_denormal(w);
                inf |= w & 0x7fff_ffff == 0x7f80_0000;
            }
            isa::ValType::F64 => {
                let v = u64::from(record[2 * k]) | u64::from(record[2 * k + 1]) << 32;
                let (e, m) = (v & 0x7ff0_0000_0000_0000, v & 0x000f_ffff_ffff_ffff);
                nan |= e == 0x7ff0_0000_0000_0000 && m != 0;
                den |= e == 0 && m != 0;
                inf |= e == 0x7ff0_0000_0000_0000 && m == 0;
            }
            _ => {}
        }
    }
    (nan, den, inf)
}

/// The classes of a disagreement, joined by `+`: `nan` when a float
/// operand or either word is a NaN, `denormal` when one is a denormal,
/// `inf` when a float operand is an infinity; `other` when none holds.
fn classify(case: &Case, record: &[u32; RECORD_WORDS], d: &Mismatch) -> String {
    let words = [d.device, d.reference];
    let (nan, den, inf) = float_operands(case, record);
    let nan = nan || words.iter().flatten().any(|&w| is_nan(w));
    let den = den || words.iter().flatten().any(|&w| is_denormal(w));
    let tags: Vec<&str> = [(nan, "nan"), (den, "denormal"), (inf, "inf")]
        .into_iter()
        .filter_map(|(on, t)| on.then_some(t))
        .collect();
    if tags.is_empty() {
        "other".into()
    } else {
        tags.join("+")
    }
}

/// The allow-list line accepting a disagreement, if any.
fn accepted(known: &[Known], case: &Case, d: &Detail) -> Option<usize> {
    known.iter().position(|k| {
        let op = k.op == case.mnemonic || case.name.starts_with(&format!("{} ", k.op)) || {
            let base = case.name.split(' ').next().unwrap_or("");
            base == k.op
        };
        op && match k.class.as_str() {
            "any" => true,
            "nan" | "denormal" | "inf" => d.class.split('+').any(|c| c == k.class),
            c => {
                let n: u64 = c["ulp<=".len()..].parse().unwrap_or(0);
                matches!((d.device, d.reference), (Some(a), Some(b)) if ulps(a, b).is_some_and(|u| u <= n))
            }
        }
    })
}

/// Per case: what was compared and how it went.
#[derive(Clone, Debug, Default)]
struct Tally {
    vertices: u64,
    words: u64,
    exact: u64,
    within_ulp: u64,
    mismatches: u64,
    undefined: u64,
    /// Mismatches the allow-list accepts.
    allowed: u64,
    details: Vec<Detail>,
    /// Vertices with words within one ulp, and their operands.
    ulp_vertices: Vec<(u32, Vec<String>)>,
}

/// Turn a run into a tally; the mismatches of `report` are all listed
/// (checked by the caller).
fn tally(
    case: &Case,
    records: &[[u32; RECORD_WORDS]],
    known: &[Known],
    draws: Vec<DrawReport>,
) -> Tally {
    let mut t = Tally::default();
    for d in &draws {
        t.vertices += d.vertices;
        t.words += d.words;
        t.within_ulp += d.within_ulp;
        t.mismatches += d.mismatches;
        t.undefined += d.undefined;
        for m in &d.first_mismatches {
            let record = &records[m.vertex as usize];
            let comp = ["x", "y", "z", "w"][m.component as usize & 3];
            let mut det = Detail {
                vertex: m.vertex,
                word: format!("{}.{comp}", m.export),
                operands: operands(case, record),
                device: m.device,
                reference: m.reference,
                class: classify(case, record, m),
                allowed_by: None,
            };
            if m.export == "param0" {
                det.allowed_by = accepted(known, case, &det);
            }
            t.allowed += u64::from(det.allowed_by.is_some());
            t.details.push(det);
        }
    }
    t.exact = t.words - t.within_ulp - t.mismatches;
    t
}

/// What happened to one case.
enum Outcome {
    /// The translator refused it.
    NotLifted(String),
    /// It ran.
    Ran(Box<Tally>),
}

fn capture(case: &Case) -> Capture {
    Capture::new(
        case.name.clone(),
        case.code.clone(),
        Meta::new(
            Target::Gfx1030,
            Stage::LegacyVs,
            if case.wave64 {
                WaveSize::W64
            } else {
                WaveSize::W32
            },
        ),
    )
}

/// The translator's answer for a case: `Err(reasons)` when unsupported.
fn lifts(case: &Case) -> Result<(), String> {
    let input = ShaderInput {
        code: &case.code,
        target: Target::Gfx1030,
        stage: Stage::LegacyVs,
        abi: isa::Abi::legacy_vs(),
        wave_size: if case.wave64 { 64 } else { 32 },
    };
    let trace = translator::trace_for(&input);
    let opts = Options {
        checked: false,
        test_outputs: true,
        validate: true,
        precise: true,
        trust_lane_table_slots: false,
        shading_rate: Default::default(),
        lane_table_arrays: true,
        faults: Default::default(),
    };
    match translate(&input, trace.as_ref(), &opts) {
        Ok(_) => Ok(()),
        Err(TranslateError::Unsupported(list)) => {
            let mut reasons: Vec<String> = list.0.iter().map(|u| u.construct.to_string()).collect();
            reasons.dedup();
            Err(reasons.join("; "))
        }
        Err(e) => panic!(
            "{}: translation failed outright (a translator bug): {e}",
            case.name
        ),
    }
}

fn ranges(first: u32, count: u32, per: u32) -> Vec<(u32, u32)> {
    (first..first + count)
        .step_by(per as usize)
        .map(|f| (f, per.min(first + count - f)))
        .collect()
}

/// Run one case over `vertices` vertices; draws whose mismatches are not
/// all listed run again in small draws.
fn run_case(h: &Harness, case: &Case, vertices: u32, known: &[Known]) -> Outcome {
    run_case_in(h, case, vertices, known, &RunOptions::default())
}

/// [`run_case`] with the run's options (fast mode for the controls).
fn run_case_in(
    h: &Harness,
    case: &Case,
    vertices: u32,
    known: &[Known],
    opts: &RunOptions,
) -> Outcome {
    if let Err(why) = lifts(case) {
        return Outcome::NotLifted(why);
    }
    let records = gen::records(case, vertices, seed(case));
    let cap = capture(case);
    let run = |rs: &[(u32, u32)]| {
        let file = gen::draws(&records, rs);
        let r = execute(&cap, &file, opts, h).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        rs.iter().copied().zip(r.draws).collect::<Vec<_>>()
    };
    // Draws with unlisted mismatches run again in small draws.
    let mut draws = Vec::new();
    let mut redo = Vec::new();
    for (range, d) in run(&ranges(0, vertices, DRAW)) {
        if d.first_mismatches.len() as u64 == d.mismatches {
            draws.push((range, d));
        } else {
            redo.extend(ranges(range.0, range.1, SMALL_DRAW));
        }
    }
    if !redo.is_empty() {
        for (range, d) in run(&redo) {
            assert_eq!(
                d.first_mismatches.len() as u64,
                d.mismatches,
                "{}: a draw of {SMALL_DRAW} vertices lists every mismatch",
                case.name
            );
            draws.push((range, d));
        }
    }
    // The vertices of words within one ulp: their draws again, one vertex
    // per draw (the run counts such words but does not list them).
    let ulp_ranges: Vec<(u32, u32)> = draws
        .iter()
        .filter(|(_, d)| d.within_ulp > 0)
        .flat_map(|&((first, count), _)| ranges(first, count, 1))
        .collect();
    let mut ulp_vertices = Vec::new();
    if !ulp_ranges.is_empty() {
        for ((v, _), d) in run(&ulp_ranges) {
            if d.within_ulp > 0 {
                ulp_vertices.push((v, operands(case, &records[v as usize])));
            }
        }
    }
    let report_draws = draws.into_iter().map(|(_, d)| d).collect();
    let mut t = tally(case, &records, known, report_draws);
    t.ulp_vertices = ulp_vertices;
    Outcome::Ran(Box::new(t))
}

/// Everything a run found.
#[derive(Default)]
struct Summary {
    table_instructions: usize,
    tried: usize,
    not_built: BTreeMap<String, usize>,
    not_lifted: BTreeMap<String, Vec<String>>,
    ran: Vec<(Case, Tally)>,
    seconds: f64,
}

impl Summary {
    /// Failures: unaccepted mismatches, within-ulp integer or mask words,
    /// cases that compared nothing.
    fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (case, t) in &self.ran {
            if t.words == 0 || t.words == t.undefined {
                out.push(format!("{}: nothing was compared", case.name));
            }
            for d in t.details.iter().filter(|d| d.allowed_by.is_none()) {
                out.push(format!("{} ({}): {}", case.name, case.text, d.show()));
            }
            if t.mismatches > t.details.len() as u64 {
                out.push(format!(
                    "{}: {} mismatches, only {} listed",
                    case.name,
                    t.mismatches,
                    t.details.len()
                ));
            }
            if t.within_ulp > 0 && APPROXIMATE.contains(&case.mnemonic) {
                out.push(format!(
                    "{} ({}): {} words within 1 ulp: precise mode must be bit-exact",
                    case.name, case.text, t.within_ulp
                ));
            }
            if t.within_ulp > 0 && !case.float_result() {
                out.push(format!(
                    "{} ({}): {} integer or mask words one off (within 1 ulp as floats)",
                    case.name, case.text, t.within_ulp
                ));
            }
        }
        out
    }

    fn table(&self, known: &[Known]) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<34} {:>7} {:>7} {:>6} {:>6} {:>7} {:>6}",
            "case", "words", "exact", "ulp", "mism", "allowed", "undef"
        );
        let mut tot = Tally::default();
        for (case, t) in &self.ran {
            let _ = writeln!(
                s,
                "{:<34} {:>7} {:>7} {:>6} {:>6} {:>7} {:>6}",
                case.name, t.words, t.exact, t.within_ulp, t.mismatches, t.allowed, t.undefined
            );
            tot.vertices += t.vertices;
            tot.words += t.words;
            tot.exact += t.exact;
            tot.within_ulp += t.within_ulp;
            tot.mismatches += t.mismatches;
            tot.allowed += t.allowed;
            tot.undefined += t.undefined;
        }
        let lifted = self.ran.len();
        let _ = writeln!(
            s,
            "{:<34} {:>7} {:>7} {:>6} {:>6} {:>7} {:>6}",
            "total",
            tot.words,
            tot.exact,
            tot.within_ulp,
            tot.mismatches,
            tot.allowed,
            tot.undefined
        );
        let clean = self
            .ran
            .iter()
            .filter(|(_, t)| t.mismatches == 0 && t.within_ulp == 0)
            .count();
        let with_ulp = self.ran.iter().filter(|(_, t)| t.within_ulp > 0).count();
        let with_mism = self.ran.iter().filter(|(_, t)| t.mismatches > 0).count();
        let not_lifted: usize = self.not_lifted.values().map(Vec::len).sum();
        let not_built: usize = self.not_built.values().sum();
        let _ = writeln!(
            s,
            "{} vector-ALU instructions in isa's tables; {} forms tried: {} not built, {} not lifted, {} lifted and run ({} vertices)",
            self.table_instructions, self.tried, not_built, not_lifted, lifted, tot.vertices
        );
        let mnemonics: std::collections::BTreeSet<&str> =
            self.ran.iter().map(|(c, _)| c.mnemonic).collect();
        let _ = writeln!(
            s,
            "{} distinct instructions lifted (every form, variant and wave size counted once above)",
            mnemonics.len()
        );
        let _ = writeln!(
            s,
            "lifted cases: {clean} bit-exact, {with_ulp} with words within 1 ulp, {with_mism} with mismatches ({} mismatching words, {} accepted by the allow-list); {:.1} s",
            tot.mismatches, tot.allowed, self.seconds
        );
        let _ = writeln!(s, "not built, by reason:");
        for (why, n) in &self.not_built {
            let _ = writeln!(s, "  {n:>4}  {why}");
        }
        let _ = writeln!(s, "not lifted, by reason:");
        for (why, cases) in &self.not_lifted {
            let _ = writeln!(s, "  {:>4}  {why}", cases.len());
            let mut names = cases.clone();
            names.truncate(8);
            let _ = writeln!(
                s,
                "        e.g. {}{}",
                names.join(", "),
                if cases.len() > 8 { ", ..." } else { "" }
            );
        }
        let mut shown_ulp = false;
        for (case, t) in &self.ran {
            if t.ulp_vertices.is_empty() {
                continue;
            }
            if !shown_ulp {
                let _ = writeln!(s, "words within 1 ulp (first few vertices per case):");
                shown_ulp = true;
            }
            for (v, ops) in t.ulp_vertices.iter().take(4) {
                let _ = writeln!(
                    s,
                    "  {} `{}`: vertex {v}: operands [{}]",
                    case.name,
                    case.text,
                    ops.join(", ")
                );
            }
        }
        let mut shown = false;
        for (case, t) in &self.ran {
            for d in t.details.iter().take(6) {
                if !shown {
                    let _ = writeln!(s, "disagreements (first few per case):");
                    shown = true;
                }
                let why = d
                    .allowed_by
                    .map(|i| format!(" accepted: {} ({})", known[i].reason, known[i].issue))
                    .unwrap_or_else(|| " NOT ACCEPTED".into());
                let _ = writeln!(s, "  {} `{}`: {}{why}", case.name, case.text, d.show());
            }
        }
        s
    }
}

/// `SHADERLIFT_OPCODE_DIFF_ONLY=A,B` runs only the cases whose name
/// contains `A` or `B` (for a quick look at some opcodes; the `ran >= 50`
/// floor still applies to a whole run).
fn only(case: &Case) -> bool {
    std::env::var("SHADERLIFT_OPCODE_DIFF_ONLY")
        .map_or(true, |s| s.split(',').any(|p| case.name.contains(p)))
}

/// The approximate operations: translated in precise mode, they must
/// match the interpreter bit for bit (no word even within one ulp).
const APPROXIMATE: [&str; 7] = [
    "v_rcp_f32",
    "v_rsq_f32",
    "v_sqrt_f32",
    "v_exp_f32",
    "v_log_f32",
    "v_sin_f32",
    "v_cos_f32",
];

/// Build and run every form (`keep` picks the cases).
fn sweep(
    h: &Harness,
    waves: &[bool],
    vertices: impl Fn(&Case) -> u32,
    keep: impl Fn(&Case) -> bool,
    known: &[Known],
) -> Summary {
    let t0 = Instant::now();
    let all = gen::all_vop();
    let mut s = Summary {
        table_instructions: all.len(),
        ..Summary::default()
    };
    for &wave64 in waves {
        for info in &all {
            for e64 in [false, true] {
                let has = if e64 {
                    info.e64.is_some()
                } else {
                    info.e32.is_some()
                };
                if !has {
                    continue;
                }
                for variant in gen::variants(info, e64) {
                    s.tried += 1;
                    let case = match gen::build(info, e64, variant, wave64) {
                        Ok(c) => c,
                        Err(why) => {
                            *s.not_built.entry(why).or_default() += 1;
                            continue;
                        }
                    };
                    if !keep(&case) || !only(&case) {
                        s.tried -= 1;
                        continue;
                    }
                    match run_case(h, &case, vertices(&case), known) {
                        Outcome::NotLifted(why) => {
                            s.not_lifted.entry(why).or_default().push(case.name.clone())
                        }
                        Outcome::Ran(t) => s.ran.push((case, *t)),
                    }
                }
            }
        }
    }
    s.seconds = t0.elapsed().as_secs_f64();
    s
}

fn finish(s: &Summary, known: &[Known]) {
    eprint!("{}", s.table(known));
    // Lines that accepted nothing in this run (a fixed bug, or a class the
    // sampled operands did not reach): a note, so stale lines get noticed.
    let used: std::collections::BTreeSet<usize> = s
        .ran
        .iter()
        .flat_map(|(_, t)| t.details.iter().filter_map(|d| d.allowed_by))
        .collect();
    for (i, k) in known.iter().enumerate().filter(|(i, _)| !used.contains(i)) {
        eprintln!(
            "note: allow-list entry {} ({} {}, {}) accepted nothing in this run",
            i + 1,
            k.op,
            k.class,
            k.issue
        );
    }
    assert!(
        s.ran.len() >= 50 || std::env::var_os("SHADERLIFT_OPCODE_DIFF_ONLY").is_some(),
        "only {} cases were lifted and run",
        s.ran.len()
    );
    let failures = s.failures();
    assert!(
        failures.is_empty(),
        "{} disagreements with the interpreter that the allow-list does not accept:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn sampled_opcodes_match_the_interpreter_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("opcode diff (sampled)") else {
        return;
    };
    let known = allow_list();
    // wave64: every lifted form, 64 vertices; wave32: the forms with
    // lane-mask results (one SGPR instead of a pair).
    let s = sweep(
        h,
        &[true, false],
        |_| 64,
        |c| c.wave64 || c.results.contains(&ResultKind::Mask),
        &known,
    );
    finish(&s, &known);
}

#[test]
#[ignore = "the full run: every lifted form, both wave sizes, every pair of edge values (minutes)"]
fn all_opcodes_match_the_interpreter_on_lavapipe_full_run() {
    let Some(h) = Harness::shared_or_skip("opcode diff (full)") else {
        return;
    };
    let known = allow_list();
    let s = sweep(
        h,
        &[true, false],
        |c| {
            let n0 = c.sources.first().map_or(1, |&t| gen::edges(t));
            let n1 = c.sources.get(1).map_or(1, |&t| gen::edges(t));
            (n0 * n1 + n0 * n1 / 4 + 256) as u32
        },
        |_| true,
        &known,
    );
    finish(&s, &known);
}

/// The negative control: a real run of `v_mov_b32` (which copies its
/// operand, so the right answer is known) is clean; the same run with the
/// interpreter's answer for one word changed, as a wrong translation would
/// make it, fails the check, and only an allow-list line for that opcode
/// and class accepts it.
#[test]
fn a_wrong_result_word_fails_the_check_unless_the_allow_list_names_it() {
    let Some(h) = Harness::shared_or_skip("opcode diff (negative control)") else {
        return;
    };
    let info = gen::all_vop()
        .into_iter()
        .find(|i| i.name == "v_mov_b32")
        .expect("v_mov_b32");
    let case = gen::build(info, false, gen::Variant::Plain, true).expect("v_mov_b32_e32 builds");
    let records = gen::records(&case, 16, seed(&case));
    let file = gen::draws(&records, &[(0, 16)]);
    let clean = execute(&capture(&case), &file, &RunOptions::default(), h).expect("runs");
    let judge = |draws: Vec<DrawReport>, known: &[Known]| {
        let t = tally(&case, &records, known, draws);
        Summary {
            ran: vec![(case.clone(), t)],
            ..Summary::default()
        }
        .failures()
    };
    assert_eq!(clean.mismatches, 0);
    assert!(judge(clean.draws.clone(), &[]).is_empty());

    // The interpreter's answer for every vertex is its operand: the
    // operands reach the instruction (the device agreed with all of it).
    let program = interp::Program::new(&case.code, Target::Gfx1030);
    let mut cfg = interp::DrawConfig::new(&program, Stage::LegacyVs, isa::Abi::legacy_vs(), true);
    cfg.code_addr = file.code_addr();
    let draw = interp::Draw::Auto {
        first_vertex: 0,
        vertex_count: 16,
        instance_count: 1,
        chunks: Vec::new(),
    };
    let mem = file.memory_with_code(&case.code);
    let run =
        interp::run_draw(&program, &mem, &file.user_data(), &draw, &cfg).expect("interpreter");
    let mut seen = 0;
    for e in run
        .obs
        .exports
        .iter()
        .filter(|e| e.target_name() == "param0")
    {
        let vid = run.waves[e.wave as usize].vertex_ids[e.lane as usize];
        assert_eq!(e.values[0], records[vid as usize][0], "vertex {vid}");
        seen += 1;
    }
    assert_eq!(seen, 16);

    // A vertex whose answer is an ordinary float pattern (no NaN or
    // denormal class); the device word with a flipped low bit is "within
    // one ulp" as a float, with bit 8 flipped a mismatch: the verdicts the
    // run gives such words.
    let v = (0..16)
        .find(|&v| {
            let e = records[v][0] & 0x7f80_0000;
            e != 0 && e != 0x7f80_0000
        })
        .expect("an ordinary operand among 16");
    let want = records[v][0];
    assert_eq!(compare(want ^ 1, want), Verdict::WithinUlp);
    let bad = want ^ 0x100;
    assert_eq!(compare(bad, want), Verdict::Mismatch);

    // An integer result one off: fails.
    let mut off_by_one = clean.draws.clone();
    off_by_one[0].within_ulp += 1;
    let f = judge(off_by_one, &[]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("one off"), "{f:?}");

    // A wrong word: fails, naming the vertex, operands and both words.
    let mut wrong = clean.draws.clone();
    wrong[0].mismatches += 1;
    wrong[0].first_mismatches.push(Mismatch {
        vertex: v as u32,
        instance: 0,
        export: "param0".into(),
        component: 0,
        device: Some(bad),
        reference: Some(want),
    });
    let f = judge(wrong.clone(), &[]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains(&format!("vertex {v} param0.x")) && f[0].contains(&format!("{bad:#010x}")),
        "{f:?}"
    );
    // A line for another class or opcode does not accept it; one for
    // this opcode and `any` does.
    let other =
        parse_allow_list("v_mov_b32\tdenormal\tcontrol\t#16\nv_not_b32\tany\tcontrol\t#16\n");
    assert_eq!(judge(wrong.clone(), &other).len(), 1);
    let any = parse_allow_list("v_mov_b32\tany\tcontrol\t#16\n");
    assert!(judge(wrong.clone(), &any).is_empty());
    // A mismatch the run counted but did not list fails too.
    let mut unlisted = wrong;
    unlisted[0].mismatches += 1;
    assert_eq!(judge(unlisted, &any).len(), 1);
}

/// The negative control of precise mode: the approximate operations
/// translated in fast mode (the host's f32 built-ins) disagree with the
/// interpreter's correctly rounded results, and the check says so.
#[test]
fn fast_mode_approximate_ops_fail_the_bit_exact_check() {
    let Some(h) = Harness::shared_or_skip("opcode diff (fast mode control)") else {
        return;
    };
    let fast = RunOptions {
        fast: true,
        ..RunOptions::default()
    };
    for name in ["v_exp_f32", "v_sin_f32"] {
        let info = gen::all_vop()
            .into_iter()
            .find(|i| i.name == name)
            .expect(name);
        let case = gen::build(info, false, gen::Variant::Plain, true).expect("builds");
        let Outcome::Ran(t) = run_case_in(h, &case, 256, &[], &fast) else {
            panic!("{name} is lifted");
        };
        let s = Summary {
            ran: vec![(case.clone(), *t)],
            ..Summary::default()
        };
        assert!(
            !s.failures().is_empty(),
            "{name} in fast mode matched the interpreter bit for bit"
        );
        // The same case in precise mode passes.
        let Outcome::Ran(t) = run_case(h, &case, 256, &[]) else {
            panic!("{name} is lifted");
        };
        let s = Summary {
            ran: vec![(case, *t)],
            ..Summary::default()
        };
        assert!(s.failures().is_empty(), "{:?}", s.failures());
    }
}

/// Fast mode's error on this host: the largest distance in ulps between
/// the device's word and the correctly rounded one, per approximate
/// operation, over the full run's operands (edge pairs and random
/// values). Printed for the README; nothing is asserted beyond the run
/// itself.
#[test]
#[ignore = "a measurement for the README (about a minute)"]
fn fast_mode_error_bound_measurement() {
    let Some(h) = Harness::shared_or_skip("opcode diff (fast mode error)") else {
        return;
    };
    let fast = RunOptions {
        fast: true,
        ..RunOptions::default()
    };
    for name in APPROXIMATE {
        let info = gen::all_vop()
            .into_iter()
            .find(|i| i.name == name)
            .expect(name);
        let case = gen::build(info, false, gen::Variant::Plain, true).expect("builds");
        let Outcome::Ran(t) = run_case_in(h, &case, 4096, &[], &fast) else {
            panic!("{name} is lifted");
        };
        let mut max = 0u64;
        let mut non_finite = 0;
        for d in &t.details {
            match (d.device, d.reference) {
                (Some(a), Some(b)) => match ulps(a, b) {
                    Some(u) => max = max.max(u),
                    None => non_finite += 1,
                },
                _ => non_finite += 1,
            }
        }
        eprintln!(
            "{name}: {} words, {} exact, {} within 1 ulp, {} mismatches: largest finite distance {max} ulp, {non_finite} with a non-finite word",
            t.words, t.exact, t.within_ulp, t.mismatches
        );
    }
}

/// What the scalar sweep found.
#[derive(Default)]
struct ScalarSummary {
    cases: Vec<(String, u64, u64)>,
    not_lifted: Vec<(String, String)>,
    not_built: Vec<(String, String)>,
    failures: Vec<String>,
}

/// Run every scalar case over the edge pairs and `random` random operand
/// sets, every `step`-th group of four.
fn scalar_sweep(h: &Harness, random: usize, step: usize) -> ScalarSummary {
    let mut s = ScalarSummary::default();
    for (op, shape) in scalar::all_salu() {
        if std::env::var("SHADERLIFT_OPCODE_DIFF_ONLY")
            .is_ok_and(|f| !f.split(',').any(|p| op.name().contains(p)))
        {
            continue;
        }
        let case = match scalar::build(op, shape) {
            Ok(c) => c,
            Err(why) => {
                s.not_built.push((op.name().to_string(), why));
                continue;
            }
        };
        let cap = Capture::new(
            case.name.to_string(),
            case.code.clone(),
            Meta::new(Target::Gfx1030, Stage::LegacyVs, WaveSize::W64),
        );
        let input = cap.shader_input();
        let trace = translator::trace_for(&input);
        let opts = Options {
            test_outputs: true,
            precise: true,
            trust_lane_table_slots: false,
            shading_rate: Default::default(),
            lane_table_arrays: true,
            ..Options::default()
        };
        match translate(&input, trace.as_ref(), &opts) {
            Ok(_) => {}
            Err(TranslateError::Unsupported(list)) => {
                s.not_lifted
                    .push((case.name.to_string(), list.0[0].construct.to_string()));
                continue;
            }
            Err(e) => panic!("{}: translation failed outright: {e}", case.name),
        }
        let (mut words, mut bad) = (0u64, 0u64);
        let seed = SEED ^ u64::from(op.raw());
        for group in scalar::operand_sets(random, seed).into_iter().step_by(step) {
            let file = scalar::draws(&group, 1);
            let r = execute(&cap, &file, &RunOptions::default(), h)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            words += r.words;
            // Integer and SCC words: exact or wrong (within 1 ulp is wrong too).
            let wrong = r.mismatches + r.draws.iter().map(|d| d.within_ulp).sum::<u64>();
            bad += wrong;
            if wrong > 0 {
                for d in &r.draws {
                    for m in &d.first_mismatches {
                        let set = m.component as usize;
                        s.failures.push(format!(
                            "{} (`{}`): {}.{}: operands a={:#010x} b={:#010x} scc={}: device {:?} interpreter {:?}",
                            case.name,
                            case.text,
                            m.export,
                            ["x", "y", "z", "w"][set & 3],
                            group[set][0],
                            group[set][1],
                            group[set][2],
                            m.device.map(|x| format!("{x:#010x}")),
                            m.reference.map(|x| format!("{x:#010x}")),
                        ));
                    }
                }
                if r.draws.iter().any(|d| d.within_ulp > 0) {
                    s.failures
                        .push(format!("{}: integer words one off", case.name));
                }
            }
            if r.words == 0 {
                s.failures
                    .push(format!("{}: nothing was compared", case.name));
            }
        }
        s.cases.push((case.name.to_string(), words, bad));
    }
    s
}

fn scalar_finish(s: &ScalarSummary) {
    let words: u64 = s.cases.iter().map(|c| c.1).sum();
    eprintln!(
        "scalar: {} instructions run ({words} words), {} not lifted, {} not built",
        s.cases.len(),
        s.not_lifted.len(),
        s.not_built.len()
    );
    for (n, why) in &s.not_lifted {
        eprintln!("  not lifted: {n}: {why}");
    }
    for (n, why) in &s.not_built {
        eprintln!("  not built: {n}: {why}");
    }
    for f in s.failures.iter().take(40) {
        eprintln!("  {f}");
    }
    if std::env::var_os("SHADERLIFT_OPCODE_DIFF_ONLY").is_none() {
        assert!(
            s.cases.len() >= 40,
            "only {} scalar cases ran",
            s.cases.len()
        );
    }
    assert!(
        s.failures.is_empty(),
        "{} scalar disagreements:\n{}",
        s.failures.len(),
        s.failures.join("\n")
    );
}

#[test]
fn scalar_opcodes_match_the_interpreter_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("opcode diff (scalar)") else {
        return;
    };
    // Sampled: every eighth group of edge pairs (32 operand sets).
    scalar_finish(&scalar_sweep(h, 0, 8));
}

#[test]
#[ignore = "every pair of scalar edge values plus random sets (minutes)"]
fn scalar_opcodes_match_the_interpreter_on_lavapipe_full_run() {
    let Some(h) = Harness::shared_or_skip("opcode diff (scalar, full)") else {
        return;
    };
    scalar_finish(&scalar_sweep(h, 64, 1));
}

/// Every typed buffer format (`tbuffer_load_format_xyzw`, the format in the
/// instruction) converts on lavapipe exactly as the interpreter converts
/// it: 64 vertices of edge and random element bits per format, every
/// result word compared (no allow-list: conversions are exact).
#[test]
fn typed_buffer_formats_match_the_interpreter_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("opcode diff (typed buffer formats)") else {
        return;
    };
    let mut ran = 0;
    let mut failures = Vec::new();
    for format in 1..=127u8 {
        let Ok(case) = gen::build_typed_load(format, true) else {
            continue;
        };
        lifts(&case).unwrap_or_else(|why| panic!("{} is not lifted: {why}", case.name));
        let records = gen::records(&case, 64, seed(&case) ^ u64::from(format));
        let file = gen::draws(&records, &ranges(0, 64, 4));
        let r = execute(&capture(&case), &file, &RunOptions::default(), h)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        ran += 1;
        if r.mismatches > 0 || r.draws.iter().any(|d| d.within_ulp > 0) {
            let first = r.draws.iter().flat_map(|d| &d.first_mismatches).next();
            failures.push(format!(
                "{}: {} mismatches, first {first:?}",
                case.name, r.mismatches
            ));
        }
    }
    assert!(ran >= 70, "only {ran} formats ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The negative controls of the lowerings issue 13 added: with one rule
/// broken in the translator (`translator::Faults`), the differential run of
/// a case that exercises it counts mismatches; the same case without the
/// fault counts none.
#[test]
fn broken_alu_lowerings_turn_the_differential_run_red() {
    let Some(h) = Harness::shared_or_skip("opcode diff (lowering negative controls)") else {
        return;
    };
    let vop = |name: &str, e64: bool, variant: gen::Variant| {
        let info = gen::all_vop()
            .into_iter()
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("{name}"));
        gen::build(info, e64, variant, true).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let f = translator::Faults::default;
    let cases = [
        (
            gen::build_typed_load(51, true).expect("2_10_10_10_SNORM"),
            translator::Faults {
                format_name_order: true,
                ..f()
            },
        ),
        (
            gen::build_typed_load(51, true).expect("2_10_10_10_SNORM"),
            translator::Faults {
                format_no_sign_extension: true,
                ..f()
            },
        ),
        (
            vop("v_fma_mixlo_f16", true, gen::Variant::MixF16),
            translator::Faults {
                mix_round_toward_zero: true,
                ..f()
            },
        ),
        (
            vop("v_add_f32", true, gen::Variant::Omod(3)),
            translator::Faults {
                omod_ignored: true,
                ..f()
            },
        ),
        (
            vop("v_lshlrev_b64", true, gen::Variant::Plain),
            translator::Faults {
                shift64_no_carry: true,
                ..f()
            },
        ),
    ];
    let sdwa = |words: [u32; 2]| gen::build_sdwa_mov(words, true).expect("sdwa case");
    let cases = cases.into_iter().chain([
        (
            vop("v_cmp_nge_f16", false, gen::Variant::Plain),
            translator::Faults {
                float_compare_nan_ordered: true,
                ..f()
            },
        ),
        (
            vop("v_cmp_nge_f64", false, gen::Variant::Plain),
            translator::Faults {
                float_compare_nan_ordered: true,
                ..f()
            },
        ),
        (
            vop("v_fma_f16", true, gen::Variant::Plain),
            translator::Faults {
                f16_fma_double_rounding: true,
                ..f()
            },
        ),
        (
            vop("v_pk_add_f16", true, gen::Variant::Plain),
            translator::Faults {
                packed_op_sel_hi_ignored: true,
                ..f()
            },
        ),
        (
            vop("v_dot4_u32_u8", true, gen::Variant::Plain),
            translator::Faults {
                dot4_bytes_signed: true,
                ..f()
            },
        ),
        (
            // v_mov_b32_sdwa v24, v10 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
            sdwa([0x7e30_02f9, 0x0004_150a]),
            translator::Faults {
                sdwa_preserve_zero_fill: true,
                ..f()
            },
        ),
        (
            // v_mov_b32_sdwa v24, v10 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0
            sdwa([0x7e30_02f9, 0x0000_090a]),
            translator::Faults {
                sdwa_preserve_zero_fill: true,
                ..f()
            },
        ),
        (
            // An f16 result into a word (lift/half.rs):
            // v_cvt_f16_f32_sdwa v24, v10 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
            sdwa([0x7e30_14f9, 0x0006_150a]),
            translator::Faults {
                sdwa_preserve_zero_fill: true,
                ..f()
            },
        ),
    ]);
    for (case, faults) in cases {
        lifts(&case).unwrap_or_else(|why| panic!("{} is not lifted: {why}", case.name));
        let mut records = gen::records(&case, 64, seed(&case));
        if case.mnemonic == "v_fma_f16" {
            // fma(1.5, 683/1024, ±2^-24): the product is 1 + 2^-11, an f16
            // midpoint, so only the fused sum rounds right (0x3c01 and
            // 0x3c00); an f32 sum rounded again to f16 ties to even.
            // The tied destination (its kept half) is the first source
            // word pair, the three operands the last three.
            let k = 2 * (case.sources.len() - 3);
            for (i, r) in records.iter_mut().take(8).enumerate() {
                r[k] = 0x3e00;
                r[k + 2] = 0x3956;
                r[k + 4] = if i % 2 == 0 { 0x0001 } else { 0x8001 };
            }
        }
        let file = gen::draws(&records, &[(0, 64)]);
        let cap = capture(&case);
        // Words one ulp off count too (a wrong f16 rounding is one ulp of
        // the word read as an f32); the clean run may have some (NaN
        // payloads, signed zeros), the broken one must have more.
        let ulp =
            |r: &shaderlift_cli::run::RunReport| r.draws.iter().map(|d| d.within_ulp).sum::<u64>();
        let clean = execute(&cap, &file, &RunOptions::default(), h).expect("runs");
        assert_eq!(clean.mismatches, 0, "{} without a fault", case.name);
        let opts = RunOptions {
            translator_faults: faults,
            ..RunOptions::default()
        };
        let broken = execute(&cap, &file, &opts, h).expect("runs");
        assert!(
            broken.mismatches > 0 || ulp(&broken) > ulp(&clean),
            "{} with {faults:?}: the broken lowering went unnoticed",
            case.name
        );
    }
}
