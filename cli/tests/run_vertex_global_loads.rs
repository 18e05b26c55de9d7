//! Vertex shaders that read memory through computed pointers
//! (`global_load_dwordx2` of a pointer read through a user-data pointer,
//! then of that pointer plus the vertex index): Vulkan-Samples'
//! buffer_device_address render.vert as RADV/ACO compiled it, NGG and legacy
//! VS (`tests/fixtures/bda-render-vert*`). The manifest lists the loads in
//! `global_reads`; `shaderlift run` then binds the window over every memory
//! block of the DRAWS.json (`tests/draws/bda-render.json`, made by
//! `make_bda.py`), and every export matches the interpreter. Without Vulkan
//! the tests print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use drawbind::draws::DrawsFile;
use shaderlift_cli::run::{execute, RunOptions, RunReport};
use vkharness::Harness;

const SHADERS: [&str; 2] = ["bda-render-vert", "bda-render-vert-legacy-vs"];

fn capture(name: &str) -> Capture {
    Capture::open(
        format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR")),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn draws() -> DrawsFile {
    let path = format!("{}/tests/draws/bda-render.json", env!("CARGO_MANIFEST_DIR"));
    DrawsFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn run(h: &Harness, c: &Capture, opts: &RunOptions) -> RunReport {
    let r = execute(c, &draws(), opts, h).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    eprint!("{}:\n{}", c.name, shaderlift_cli::run::text_report(&r));
    r
}

#[test]
fn the_manifest_names_every_global_load_of_a_vertex_shader() {
    for name in SHADERS {
        let c = capture(name);
        let t = translator::translate(&c.shader_input(), None, &translator::Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.manifest.global_reads.len(), 2, "{name}");
        assert!(t
            .manifest
            .bindings
            .iter()
            .any(|b| b.kind == translator::manifest::BindingKind::Window));
    }
}

#[test]
fn global_loads_through_pointer_chains_match_the_interpreter_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("vertex global loads") else {
        return;
    };
    for name in SHADERS {
        let r = run(h, &capture(name), &RunOptions::default());
        assert_eq!(r.draws.len(), 3, "{name}");
        for d in &r.draws {
            assert_eq!(d.skipped, None, "{name} draw {}", d.index);
            assert!(!d.window_capped, "{name} draw {}", d.index);
            assert!(d.vertices > 0 && d.words >= 4 * d.vertices, "{name}");
            assert_eq!(d.undefined, 0, "{name} draw {}", d.index);
            assert_eq!(
                (d.mismatches, d.within_ulp),
                (0, 0),
                "{name} draw {}: {:?}",
                d.index,
                d.first_mismatches
            );
        }
        assert_eq!(r.vertices, 60 + 300 + 180, "{name}");
    }
}

/// The negative control: a window over the descriptors' span only (none
/// here) reads 0 for every pointer, and the run turns red.
#[test]
fn a_window_that_ignores_global_reads_turns_the_run_red() {
    let Some(h) = Harness::shared_or_skip("vertex global loads, short window") else {
        return;
    };
    let opts = RunOptions {
        window_ignores_global_reads: true,
        ..RunOptions::default()
    };
    for name in SHADERS {
        let r = run(h, &capture(name), &opts);
        assert!(
            r.mismatches > 0,
            "{name}: the short window must turn the run red"
        );
    }
}
