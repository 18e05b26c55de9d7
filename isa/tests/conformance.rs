//! Conformance against LLVM 19's disassembler, from committed fixtures.
//!
//! Fixtures (`tests/fixtures/*.tsv`) were made by `llvm-oracle` (see
//! `isa/oracle` and `tests/fixtures/README.md`): each line is a region of
//! bytes, the number of bytes llvm-objdump-19 consumed for the first
//! instruction, and the text it printed. Regions are padded with `s_nop 0`
//! exactly as the oracle padded them.
//!
//! `tests/fixtures/deviations.tsv` lists every deliberate difference from
//! LLVM, with the reason; those lines must match the listed text instead.
//!
//! Environment knobs for working on a family: `CONFORMANCE_FAMILY=vop2`
//! restricts the report, `CONFORMANCE_SHOW=N` prints N mismatches.

use isa::{classify, decode, dont_care_mask, encode, Family, Formatter, Mode, Target};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

const PAD: u32 = 0xbf80_0000;

struct Case {
    line: usize,
    bytes: Vec<u8>,
    len: usize,
    text: String,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for (i, l) in src.lines().enumerate() {
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        let mut it = l.splitn(3, '\t');
        let hex = it.next().unwrap();
        let len: usize = it.next().unwrap().parse().unwrap();
        let text = it.next().unwrap_or("").to_string();
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|j| u8::from_str_radix(&hex[j..j + 2], 16).unwrap())
            .collect();
        out.push(Case {
            line: i + 1,
            bytes,
            len,
            text,
        });
    }
    out
}

fn pad(mut b: Vec<u8>) -> Vec<u8> {
    while b.len() < 20 || !b.len().is_multiple_of(4) {
        if !b.len().is_multiple_of(4) {
            b.push(0);
        } else {
            b.extend_from_slice(&PAD.to_le_bytes());
        }
    }
    b
}

fn deviations() -> HashMap<(String, String), (String, String)> {
    let path = format!(
        "{}/tests/fixtures/deviations.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut m = HashMap::new();
    if let Ok(src) = std::fs::read_to_string(path) {
        for l in src.lines() {
            if l.starts_with('#') || l.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() >= 4,
                "deviations.tsv: need target, bytes, our text, reason: {l}"
            );
            m.insert(
                (f[0].to_string(), f[1].to_string()),
                (f[2].to_string(), f[3].to_string()),
            );
        }
    }
    m
}

#[derive(Default)]
struct Tally {
    total: usize,
    ok: usize,
    crash: usize,
}

struct Report {
    per_family: BTreeMap<String, Tally>,
    mismatches: Vec<String>,
    total: usize,
    ok: usize,
    round_trip_fail: Vec<String>,
    unpinned_crashes: Vec<String>,
}

fn family_name(b: &[u8]) -> String {
    let d0 = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    classify(d0).map(Family::name).unwrap_or("none").to_string()
}

fn run(name: &str, mode: Mode, overlay: Option<&str>) -> Report {
    let target = mode.target;
    let mut cases = load(name);
    // Wave64: the overlay lists the lines whose text differs from wave32.
    if let Some(o) = overlay {
        let diff: HashMap<Vec<u8>, (usize, String)> = load(o)
            .into_iter()
            .map(|c| (c.bytes, (c.len, c.text)))
            .collect();
        for c in &mut cases {
            if let Some((len, text)) = diff.get(&c.bytes) {
                c.len = *len;
                c.text = text.clone();
            }
        }
    }
    let devs = deviations();
    let only = std::env::var("CONFORMANCE_FAMILY").ok();
    let fmt = Formatter::new(target);
    let mut r = Report {
        per_family: BTreeMap::new(),
        mismatches: Vec::new(),
        total: 0,
        ok: 0,
        round_trip_fail: Vec::new(),
        unpinned_crashes: Vec::new(),
    };
    for c in &cases {
        let fam = family_name(&c.bytes);
        if let Some(o) = &only {
            if *o != fam {
                continue;
            }
        }
        let t = r.per_family.entry(fam.clone()).or_default();
        t.total += 1;
        let hex: String = c.bytes.iter().map(|b| format!("{b:02x}")).collect();
        if c.text == "<crash>" && !devs.contains_key(&(target.mcpu().to_string(), hex.clone())) {
            // llvm-objdump aborted: our answer must be pinned in deviations.tsv.
            t.crash += 1;
            r.unpinned_crashes.push(format!("{name}:{} {hex}", c.line));
            continue;
        }
        r.total += 1;
        let padded = pad(c.bytes.clone());
        let (want_len, want_text) = match devs.get(&(target.mcpu().to_string(), hex.clone())) {
            Some((text, _why)) => (c.len, text.clone()),
            None => (c.len, c.text.clone()),
        };
        let (got_len, got_text) = match decode(&padded, mode) {
            Ok(i) => {
                let mut s = String::new();
                fmt.write(&i, &mut s).unwrap();
                // Round trip, masked.
                match encode(&i, target) {
                    Ok(e) => {
                        let mask = dont_care_mask(&i, target);
                        let mut bad = e.len() != i.len as usize;
                        for k in 0..(i.len as usize / 4).min(e.len() / 4) {
                            let a =
                                u32::from_le_bytes(padded[k * 4..k * 4 + 4].try_into().unwrap());
                            let b = u32::from_le_bytes(
                                e.as_bytes()[k * 4..k * 4 + 4].try_into().unwrap(),
                            );
                            let m = if k < 5 { !mask[k] } else { !0 };
                            if a & m != b & m {
                                bad = true;
                            }
                        }
                        if bad {
                            r.round_trip_fail.push(format!(
                                "{name}:{} {hex} {s} -> {:02x?}",
                                c.line,
                                e.as_bytes()
                            ));
                        }
                    }
                    Err(e) => r
                        .round_trip_fail
                        .push(format!("{name}:{} {hex} {s}: encode error: {e}", c.line)),
                }
                (i.len as usize, s)
            }
            Err(_) => {
                let mut s = String::new();
                fmt.write_invalid(u32::from_le_bytes(padded[0..4].try_into().unwrap()), &mut s)
                    .unwrap();
                (4, s)
            }
        };
        if got_len == want_len && got_text == want_text {
            t.ok += 1;
            r.ok += 1;
        } else {
            r.mismatches.push(format!(
                "{name}:{} [{fam}] {hex}\n    llvm: ({want_len}) {want_text}\n    ours: ({got_len}) {got_text}",
                c.line
            ));
        }
    }
    r
}

fn summary(name: &str, r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{name}: {}/{} identical ({:.4}%)",
        r.ok,
        r.total,
        100.0 * r.ok as f64 / r.total.max(1) as f64
    );
    for (f, t) in &r.per_family {
        let _ = writeln!(
            s,
            "  {f:8} {:6}/{:6} {}",
            t.ok,
            t.total - t.crash,
            if t.crash > 0 {
                format!("({} llvm crashes skipped)", t.crash)
            } else {
                String::new()
            }
        );
    }
    let show: usize = std::env::var("CONFORMANCE_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    for m in r.mismatches.iter().take(show) {
        let _ = writeln!(s, "{m}");
    }
    for m in r.round_trip_fail.iter().take(show) {
        let _ = writeln!(s, "round trip: {m}");
    }
    s
}

fn check(name: &str, target: Target, min_ratio: f64) {
    check_mode(name, Mode::wave32(target), None, min_ratio)
}

fn check_mode(name: &str, mode: Mode, overlay: Option<&str>, min_ratio: f64) {
    let r = run(name, mode, overlay);
    let s = summary(name, &r);
    println!("{s}");
    let ratio = if r.total == 0 {
        1.0
    } else {
        r.ok as f64 / r.total as f64
    };
    assert!(
        ratio >= min_ratio,
        "{name}: agreement {ratio:.5} below {min_ratio}\n{s}"
    );
    assert!(
        r.round_trip_fail.is_empty(),
        "{name}: {} round-trip failures\n{s}",
        r.round_trip_fail.len()
    );
    assert!(
        r.unpinned_crashes.is_empty(),
        "{name}: llvm-objdump-19 crashed on these lines; pin our text in deviations.tsv:\n{}",
        r.unpinned_crashes.join("\n")
    );
}

#[test]
fn llvm_mc_test_encodings_print_identically_gfx1030() {
    check("llvm-mc-gfx1030.tsv", Target::Gfx1030, 1.0);
}

#[test]
fn llvm_mc_test_encodings_print_identically_gfx1013() {
    check("llvm-mc-gfx1013.tsv", Target::Gfx1013, 1.0);
}

#[test]
fn random_words_agree_with_llvm_gfx1030() {
    check("random-gfx1030.tsv", Target::Gfx1030, 0.999);
}

#[test]
fn random_words_agree_with_llvm_gfx1013() {
    check("random-gfx1013.tsv", Target::Gfx1013, 0.999);
}

#[test]
fn llvm_mc_test_encodings_print_identically_gfx1030_wave64() {
    check_mode(
        "llvm-mc-gfx1030.tsv",
        Mode::wave64(Target::Gfx1030),
        Some("llvm-mc-gfx1030-w64.tsv"),
        1.0,
    );
}

#[test]
fn random_words_agree_with_llvm_gfx1030_wave64() {
    check_mode(
        "random-gfx1030.tsv",
        Mode::wave64(Target::Gfx1030),
        Some("random-gfx1030-w64.tsv"),
        0.999,
    );
}
