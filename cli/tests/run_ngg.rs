//! `shaderlift run` of NGG shaders as a compute pass on lavapipe
//! (`translator::translate_ngg`, `cli/src/run/ngg.rs`): every exported
//! position, parameter, primitive (with its null bit) and each subgroup's
//! alloc counts equal the interpreter's over several draws, and a broken
//! lowering turns the check red.
//!
//! One Vulkan device serves the whole test binary. Without Vulkan the tests
//! print a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::ngg::{execute, execute_translation, NggRunReport};
use translator::wave::ComputeFaults;
use vkharness::Harness;

fn root() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/..")
}

fn capture(name: &str) -> Capture {
    Capture::open(
        format!("{}/corpus/radv/{name}", root()),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn draws(name: &str) -> drawbind::draws::DrawsFile {
    let path = format!("{}/cli/tests/draws/{name}.json", root());
    drawbind::draws::DrawsFile::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn harness() -> Option<&'static Harness> {
    match Harness::shared() {
        Ok(h) => Some(h),
        Err(e) => {
            assert!(
                std::env::var_os("SHADERLIFT_REQUIRE_VULKAN").is_none(),
                "no Vulkan device: {e}"
            );
            eprintln!("note: no Vulkan device ({e}); skipped");
            None
        }
    }
}

fn assert_identical(shader: &str, r: &NggRunReport) {
    eprint!("{shader}:\n{}", r.text());
    assert!(r.draws.len() >= 2, "{shader}: {} draws ran", r.draws.len());
    for d in &r.draws {
        assert!(d.words > 0, "{shader} draw {}: nothing compared", d.index);
        assert!(d.primitives > 0, "{shader} draw {}: no primitive", d.index);
        assert_eq!(
            (d.mismatches, d.undefined, d.findings),
            (0, 0, 0),
            "{shader} draw {}: {:?}",
            d.index,
            d.first_mismatches
        );
    }
}

#[test]
fn passthrough_ngg_shaders_as_a_compute_pass_export_the_interpreters_words() {
    let Some(h) = harness() else { return };
    for (shader, file) in [
        ("cube", "cube"),
        ("cube-w32", "cube"),
        ("instanced", "instanced"),
        ("instanced-w32", "instanced"),
    ] {
        let c = capture(shader);
        let r = execute(&c, &draws(file), h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_identical(shader, &r);
    }
}

/// Translate `c` as an NGG compute pass with `faults` and run it.
fn run_broken(h: &Harness, c: &Capture, file: &str, faults: ComputeFaults) -> NggRunReport {
    let input = c.shader_input();
    let entry = translator::ngg_entry_of(&input);
    let opts = translator::Options {
        precise: true,
        ..Default::default()
    };
    let tr = translator::translate_ngg_with_faults(&input, &entry, &opts, faults).unwrap();
    execute_translation(c, &draws(file), h, &tr).unwrap()
}

#[test]
fn culling_shaders_export_the_interpreters_words_and_cull_decisions() {
    let Some(h) = harness() else { return };
    for (shader, file) in [
        ("cube-nggc", "cube-nggc"),
        ("cube-nggc-w32", "cube-nggc"),
        ("instanced-nggc", "instanced-nggc"),
        ("instanced-nggc-w32", "instanced-nggc"),
    ] {
        let c = capture(shader);
        let r = execute(&c, &draws(file), h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        assert_identical(shader, &r);
        assert_eq!(r.draws.len(), 3, "{shader}: every draw of the file runs");
        // The scene culls some primitives and keeps others.
        let culled: u64 = r.draws.iter().map(|d| d.culled).sum();
        let prims: u64 = r.draws.iter().map(|d| d.primitives).sum();
        assert!(
            culled > 0 && culled < prims,
            "{shader}: {culled}/{prims} culled"
        );
    }
}

#[test]
fn a_broken_mbcnt_turns_the_culling_run_red() {
    let Some(h) = harness() else { return };
    let faults = ComputeFaults {
        mbcnt_at_or_below: true,
        ..Default::default()
    };
    for shader in ["cube-nggc", "cube-nggc-w32"] {
        let r = run_broken(h, &capture(shader), "cube-nggc", faults);
        eprint!("{shader} (mbcnt at or below):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the broken mbcnt went unnoticed"
        );
    }
}

#[test]
fn a_wrong_ngg_entry_state_turns_the_ngg_pass_run_red() {
    let Some(h) = harness() else { return };
    let faults = ComputeFaults {
        ngg_vertex_ids_shifted: true,
        ..Default::default()
    };
    for shader in ["cube", "cube-w32"] {
        let r = run_broken(h, &capture(shader), "cube", faults);
        eprint!("{shader} (vertex ids shifted):\n{}", r.text());
        assert!(
            r.mismatches > 0,
            "{shader}: the broken entry state went unnoticed"
        );
    }
}

/// `cube-nggc.json` with a denormal matrix (every word of the uniform
/// block `0x00400000`, about 5.9e-39) and the first 16 vertices at
/// (4, 4, 4, 4): RADV's float mode flushes f32 denormals in and out of every
/// f32 operation, so those positions are zeros on the GPU and in the
/// interpreter, while a host that keeps denormals in compute (lavapipe)
/// multiplies them into normal numbers (about 2.4e-38 each).
fn denormal_draws() -> drawbind::draws::DrawsFile {
    let mut d = draws("cube-nggc");
    for b in d.memory.iter_mut() {
        let fill = match b.addr.0 {
            0x1_0000_0000 => 4.0f32.to_bits(),
            0x1_0010_0000 => 0x0040_0000,
            _ => continue,
        };
        for w in b.words.iter_mut().take(64) {
            *w = drawbind::draws::Word32(fill);
        }
    }
    d
}

#[test]
fn denormal_products_are_flushed_as_radvs_float_mode_does() {
    let Some(h) = harness() else { return };
    for shader in ["cube-nggc", "cube-nggc-w32"] {
        let r = execute(&capture(shader), &denormal_draws(), h)
            .unwrap_or_else(|e| panic!("{shader}: {e}"));
        eprint!("{shader} (denormal matrix):\n{}", r.text());
        assert_eq!(r.draws.len(), 3, "{shader}: every draw of the file runs");
        assert_eq!(
            (r.mismatches, r.findings),
            (0, 0),
            "{shader}: {:?}",
            r.draws
                .iter()
                .map(|d| &d.first_mismatches)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn leaving_denormals_to_the_host_turns_the_run_red() {
    let Some(h) = harness() else { return };
    let faults = ComputeFaults {
        keep_denormals: true,
        ..Default::default()
    };
    let c = capture("cube-nggc");
    let input = c.shader_input();
    let entry = translator::ngg_entry_of(&input);
    let opts = translator::Options {
        precise: true,
        ..Default::default()
    };
    let tr = translator::translate_ngg_with_faults(&input, &entry, &opts, faults).unwrap();
    let r = execute_translation(&c, &denormal_draws(), h, &tr).unwrap();
    eprint!("cube-nggc (denormals kept):\n{}", r.text());
    assert!(r.mismatches > 0, "keeping denormals went unnoticed");
}

/// The scene `shaderlift corpus --run` synthesizes from the trace alone
/// (`interp::scene`): its descriptor tables lie far from the data (RADV's
/// `0xffff8000` high half) and its index buffer below it, so a window
/// spanning every memory block missed the vertex data (1,152 of 1,204
/// words mismatched). The window spans the traced descriptors' ranges.
#[test]
fn culling_shaders_match_on_the_synthesized_corpus_scene() {
    let Some(h) = harness() else { return };
    for shader in [
        "cube-nggc",
        "cube-nggc-w32",
        "instanced-nggc",
        "instanced-nggc-w32",
    ] {
        let c = capture(shader);
        let r = execute(&c, &scene(&c), h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        eprint!("{shader} (synthesized scene):\n{}", r.text());
        assert!(r.words > 0, "{shader}: nothing compared");
        // The scene's split draw runs chunk by chunk and its indexed draw
        // as listed subgroups; nothing is skipped.
        assert!(
            r.skipped_draws.is_empty(),
            "{shader}: {:?}",
            r.skipped_draws
        );
        for kind in ["chunk 0", "chunk 1", "indexed"] {
            assert!(
                r.draws
                    .iter()
                    .any(|d| d.part.starts_with(kind) && d.words > 0 && d.primitives > 0),
                "{shader}: no {kind} part compared"
            );
        }
        assert_eq!(
            (r.mismatches, r.findings),
            (0, 0),
            "{shader}: {:?}",
            r.draws
                .iter()
                .map(|d| &d.first_mismatches)
                .collect::<Vec<_>>()
        );
    }
}

/// The scene `shaderlift corpus --run` synthesizes from the trace alone
/// (`interp::scene`): an auto, a split, an instanced and an indexed draw
/// whose 36 indices name 24 vertices.
fn scene(c: &Capture) -> drawbind::draws::DrawsFile {
    let config = analysis::trace::TraceConfig::new(
        c.stage(),
        c.abi(),
        c.wave_size() == corpus::WaveSize::W32,
    );
    let trace = analysis::trace::trace_code(&c.code, c.target(), &config);
    interp::scene::synthesize(&trace, &c.abi()).to_draws_file()
}

/// An indexed draw runs as listed subgroups (the interpreter's vertex
/// reuse: 24 vertices for 36 indices); its primitives' vertex indices
/// come from the list. Rotating them breaks only the indexed part, and
/// shifting the vertex ids breaks it too.
#[test]
fn wrong_listed_subgroups_turn_the_indexed_draw_red() {
    let Some(h) = harness() else { return };
    let rotated = ComputeFaults {
        ngg_listed_prims_rotated: true,
        ..Default::default()
    };
    let shifted = ComputeFaults {
        ngg_vertex_ids_shifted: true,
        ..Default::default()
    };
    for shader in ["cube-nggc", "cube-nggc-w32"] {
        let c = capture(shader);
        let input = c.shader_input();
        let entry = translator::ngg_entry_of(&input);
        let opts = translator::Options {
            precise: true,
            ..Default::default()
        };
        for (what, faults) in [("rotated primitives", rotated), ("shifted ids", shifted)] {
            let tr = translator::translate_ngg_with_faults(&input, &entry, &opts, faults).unwrap();
            let r = execute_translation(&c, &scene(&c), h, &tr).unwrap();
            eprint!("{shader} ({what}):\n{}", r.text());
            let indexed = r
                .draws
                .iter()
                .find(|d| d.part.starts_with("indexed"))
                .expect("the scene has an indexed draw");
            assert!(indexed.mismatches > 0, "{shader}: {what} went unnoticed");
            if what == "rotated primitives" {
                assert_eq!(
                    r.mismatches, indexed.mismatches,
                    "{shader}: the fault reached a counted subgroup"
                );
            }
        }
    }
}

/// cube-nggc.json with its uniform block's descriptor all zeros (base 0,
/// no records: every uniform reads 0 on both sides). That empty range's
/// base 0 must not pull the one window of the pass away from the vertex
/// data at `0x1_0000_0000` (the parameters are copied from it), as it did
/// on three real-corpus shaders.
#[test]
fn a_zero_descriptor_does_not_move_the_window_off_the_data() {
    let Some(h) = harness() else { return };
    let mut d = draws("cube-nggc");
    let table = d
        .memory
        .iter_mut()
        .find(|b| b.addr.0 == 0x8000_0000_2000)
        .expect("cube-nggc.json has the uniform descriptor at 0x8000_0000_2000");
    for w in &mut table.words {
        *w = drawbind::draws::Word32(0);
    }
    for shader in ["cube-nggc", "cube-nggc-w32"] {
        let r = execute(&capture(shader), &d, h).unwrap_or_else(|e| panic!("{shader}: {e}"));
        eprint!("{shader} (zero uniform descriptor):\n{}", r.text());
        assert!(r.words > 0, "{shader}: nothing compared");
        assert_eq!(
            (r.mismatches, r.findings),
            (0, 0),
            "{shader}: {:?}",
            r.draws
                .iter()
                .map(|d| &d.first_mismatches)
                .collect::<Vec<_>>()
        );
    }
}

/// A culling shader whose constant array (`triangleColors[gl_VertexIndex %
/// 6]`) is read through `s_getpc` from the code's constant data
/// (`cli/tests/fixtures/ngg-code-constants`: the real-corpus capture of
/// Sascha Willems' fragment_shader_barycentric object.vert, RADV nggc
/// wave64). The pass reads everything through one window, so the run places
/// the code after the data when the file does not say where it lies; at
/// the default code address (`0x7000_0000_0000`, far from the data) the run
/// is refused as not compared instead of mismatching.
#[test]
fn code_constants_share_the_window_with_the_data() {
    let Some(h) = harness() else { return };
    let dir = format!("{}/cli/tests/fixtures/ngg-code-constants", root());
    let opts = CaptureOptions {
        abi: Some(isa::Abi::ngg()),
        ..Default::default()
    };
    let c = Capture::open(&dir, &opts).unwrap();
    let text = std::fs::read_to_string(format!("{dir}/draws.json")).unwrap();
    let mut d = drawbind::draws::DrawsFile::parse(&text).unwrap();
    assert!(d.code_addr.is_none());
    let r = execute(&c, &d, h).unwrap_or_else(|e| panic!("{e}"));
    eprint!("ngg-code-constants:\n{}", r.text());
    assert_eq!(r.draws.len(), 3, "every draw of the file runs");
    assert!(r.words > 0, "nothing compared");
    assert_eq!(
        (r.mismatches, r.findings),
        (0, 0),
        "{:?}",
        r.draws
            .iter()
            .map(|d| &d.first_mismatches)
            .collect::<Vec<_>>()
    );
    d.code_addr = Some(drawbind::draws::Addr(drawbind::draws::DEFAULT_CODE_ADDR));
    let e = execute(&c, &d, h).expect_err("code and data cannot share one window");
    assert!(e.to_string().contains("not compared"), "{e}");
}
