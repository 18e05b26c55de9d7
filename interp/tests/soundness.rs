//! Soundness on real code: every vertex shader of `corpus/radv`, culling
//! ones included, through ≥ 1000 random draws each (first vertex, counts,
//! instance counts, split chunks, base-vertex/start-instance words,
//! ring-like descriptors with large `num_records`, descriptors short of the
//! draw, workgroup sizes, culling settings): trace → bind → interpret →
//! check. Every fetched byte must lie in drawbind's range (0 violations),
//! every draw must be fully checked (no interpreter error, no access with an
//! undefined address), and every binding narrowed below the cap (reason
//! `narrowed`) of a draw that fetched through it must be tight (1.0).
//!
//! Prints a summary table (`cargo test -p interp --test soundness --
//! --nocapture`).

mod common;

use common::soundness::{case, indexed_case, Layout, Rng};
use corpus::{Capture, CaptureOptions};
use interp::{Shader, Verifier, VerifyOptions};
use std::time::Instant;

const DRAWS: usize = 1000;

const SHADERS: [&str; 10] = [
    "cube",
    "cube-nggc",
    "cube-legacy-vs",
    "cube-w32",
    "cube-nggc-w32",
    "instanced",
    "instanced-nggc",
    "instanced-legacy-vs",
    "instanced-w32",
    "instanced-nggc-w32",
];

#[derive(Default)]
struct Row {
    draws: usize,
    fetches: usize,
    narrowed: usize,
    tight: usize,
    culled_last: usize,
    capped: usize,
    baseline: usize,
    violations: usize,
    unverified: usize,
    /// Bindings kept at the baseline for an unhonoured LDS contract.
    lds_contract: usize,
}

#[test]
fn every_fetch_of_random_draws_lies_inside_drawbinds_ranges() {
    soundness_over(case, 0x5eed_0000);
}

/// The same for indexed draws: u8/u16/u32 index buffers, restart on and
/// off, random first index and hardware base vertex. Vertex-id bindings
/// narrow to the largest scanned index, so they must be tight too.
#[test]
fn every_fetch_of_random_indexed_draws_lies_inside_drawbinds_ranges() {
    soundness_over(indexed_case, 0x1dec_0000);
}

fn soundness_over(make: fn(&mut Rng, Layout) -> common::soundness::Case, seed: u64) {
    let mut table = Vec::new();
    let mut failures = Vec::new();
    for (k, name) in SHADERS.iter().enumerate() {
        let t0 = Instant::now();
        let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
        let cap = Capture::open(&dir, &CaptureOptions::default()).unwrap();
        let shader = Shader {
            name,
            code: &cap.code,
            target: cap.meta.target,
            stage: cap.meta.stage,
            abi: cap.meta.abi,
            wave64: cap.meta.wave_size.lanes() == 64,
        };
        let mut v = Verifier::new(shader, &VerifyOptions::default()).unwrap();
        let layout = Layout::of(name);
        let mut rng = Rng(seed + k as u64);
        let mut row = Row::default();
        for i in 0..DRAWS {
            let c = make(&mut rng, layout);
            v.config_mut().group_prims = c.group_prims;
            let r = v.draw(i, &c.draw, &c.user_data, &c.mem);
            row.draws += 1;
            row.violations += r.check.violations.len();
            if !r.verified() {
                row.unverified += 1;
            }
            if failures.len() < 5 && (!r.check.violations.is_empty() || !r.verified()) {
                failures.push(format!(
                    "{name} draw {i}: {:?} ud {:?} error {:?} undefined {:?} violations {:#?}",
                    c.draw,
                    c.user_data,
                    r.error,
                    r.check.undefined.first(),
                    r.check.violations.first()
                ));
            }
            for b in &r.check.bindings {
                row.fetches += b.fetches;
                match (b.narrowed, b.reason.as_str()) {
                    (true, _) => {
                        row.narrowed += 1;
                        match b.tightness {
                            Some(1.0) => row.tight += 1,
                            Some(_) if layout.culling => row.culled_last += 1,
                            None => {}
                            Some(t) => failures.push(format!(
                                "{name} draw {i}: narrowed binding {} not tight ({t}): {:?} ud {:?} {b:?}",
                                b.source, c.draw, c.user_data
                            )),
                        }
                    }
                    (false, "capped") => row.capped += 1,
                    (false, "lds-contract") => {
                        row.lds_contract += 1;
                        row.baseline += 1;
                    }
                    _ => row.baseline += 1,
                }
            }
        }
        table.push((name, row, t0.elapsed()));
    }
    println!(
        "\n{:<22} {:>6} {:>8} {:>9} {:>6} {:>8} {:>7} {:>9} {:>10} {:>10} {:>7}",
        "shader",
        "draws",
        "fetches",
        "narrowed",
        "tight",
        "culled*",
        "capped",
        "baseline",
        "violations",
        "unverified",
        "time"
    );
    for (name, r, t) in &table {
        println!(
            "{:<22} {:>6} {:>8} {:>9} {:>6} {:>8} {:>7} {:>9} {:>10} {:>10} {:>6.2}s",
            name,
            r.draws,
            r.fetches,
            r.narrowed,
            r.tight,
            r.culled_last,
            r.capped,
            r.baseline,
            r.violations,
            r.unverified,
            t.as_secs_f64()
        );
    }
    println!("culled*: narrowed bindings of culling shaders whose last record was only partly fetched (its vertex was culled)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (name, r, _) in &table {
        assert!(r.draws >= 1000, "{name}");
        assert_eq!((r.violations, r.unverified), (0, 0), "{name}");
        assert!(r.fetches > 0, "{name}: nothing was fetched");
        // Culling shaders read ids back from LDS: bound under the LDS
        // contract, which verify honours on both sides by default (the
        // interpreter initialises the contract's cells), so they narrow too.
        assert!(r.narrowed > 0, "{name}: no binding was narrowed");
        assert_eq!(r.lds_contract, 0, "{name}: a binding kept lds-contract");
    }
}
