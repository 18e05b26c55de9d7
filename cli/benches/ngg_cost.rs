//! The host cost of the NGG culling path on lavapipe: the translated culling
//! cube (`corpus/radv/cube-nggc`, `-w32`) run as the NGG compute pass
//! against the non-culling cube (`cube`, `cube-w32`) run as the direct
//! vertex shader, over the same draws (the default scene's unsplit,
//! non-indexed draws: 36 vertices, and 36 × 3 instances), in the same run.
//!
//! `whole_run` times what `shaderlift run` does per shader (device run,
//! interpreter, comparison; the pipeline is made inside too); after divan's
//! table the binary prints the device-only seconds of the same runs (the
//! reports' `device_seconds`) and both ratios, culling / plain.
//!
//! Run: `cargo bench -p shaderlift --bench ngg_cost`. Without a Vulkan
//! device it prints a note and measures nothing.

use corpus::{Capture, CaptureOptions};
use drawbind::draws::{DrawSpec, DrawsFile};
use shaderlift_cli::run::{self, ngg, RunOptions};
use vkharness::Harness;

fn main() {
    if Harness::shared().is_err() {
        eprintln!("ngg_cost: no Vulkan device; nothing measured");
        return;
    }
    divan::main();
    device_only();
}

const SHADERS: [&str; 4] = ["cube-nggc", "cube-nggc-w32", "cube", "cube-w32"];

fn capture(name: &str) -> Capture {
    Capture::open(
        format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR")),
        &CaptureOptions::default(),
    )
    .expect("bundled capture")
}

/// The default scene of `c`, keeping the draws both paths run (the NGG pass
/// does not model split or indexed draws).
fn scene(c: &Capture) -> DrawsFile {
    let trace = shaderlift_cli::trace::trace_capture(c);
    let mut f = interp::scene::synthesize(&trace, &c.abi()).to_draws_file();
    f.draws
        .retain(|d| matches!(d, DrawSpec::Auto { chunks, .. } if chunks.is_empty()));
    f
}

/// One whole run; its device seconds and compared words.
fn run_once(c: &Capture, f: &DrawsFile, h: &Harness) -> (f64, u64) {
    if run::needs_ngg_pass(c) {
        let r = ngg::execute(c, f, h).expect("the NGG pass runs");
        assert_eq!(r.mismatches, 0);
        (r.draws.iter().map(|d| d.device_seconds).sum(), r.words)
    } else {
        let r = run::execute(c, f, &RunOptions::default(), h).expect("the direct run runs");
        assert_eq!(r.mismatches, 0);
        (r.draws.iter().map(|d| d.device_seconds).sum(), r.words)
    }
}

#[divan::bench(args = SHADERS)]
fn whole_run(bencher: divan::Bencher, name: &str) {
    let h = Harness::shared().expect("device");
    let c = capture(name);
    let f = scene(&c);
    bencher.bench_local(|| run_once(&c, &f, h));
}

/// Device-only seconds per run (the mean of 20 runs after one warm-up) and
/// the ratios.
fn device_only() {
    let h = Harness::shared().expect("device");
    let mut mean = Vec::new();
    for name in SHADERS {
        let c = capture(name);
        let f = scene(&c);
        let _ = run_once(&c, &f, h);
        let mut total = 0.0;
        let mut words = 0;
        for _ in 0..20 {
            let (s, w) = run_once(&c, &f, h);
            total += s;
            words = w;
        }
        let m = total / 20.0;
        println!(
            "device only: {name:<14} {:>9.1} µs per run ({words} words compared)",
            m * 1e6
        );
        mean.push(m);
    }
    println!(
        "device only, culling / plain: wave64 {:.2}x, wave32 {:.2}x",
        mean[0] / mean[2],
        mean[1] / mean[3]
    );
}
