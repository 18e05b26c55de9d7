//! `shaderlift run` on vertex shaders that sample images (lavapipe): the
//! real-corpus terrain shader (`textureLod(samplerHeight, inUV, 0.0).r`,
//! NGG and legacy VS) over a DRAWS.json whose descriptor set holds zeros
//! where the T# and S# are read, so the run synthesizes the texture
//! (`run::images::draws_images`). Instances whose UV is a texel centre are
//! compared word for word; an instance whose UV lies on a texel border is
//! not compared (undefined), and flipped texel rows in the reference turn
//! the comparison red (the negative control).
//!
//! Without Vulkan the tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use drawbind::draws::DrawsFile;
use shaderlift_cli::run::{execute, ngg, text_report, RunOptions, RunReport};
use vkharness::Harness;

fn capture(name: &str) -> Capture {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    Capture::open(
        format!("{root}/translator/tests/fixtures/images/{name}"),
        &CaptureOptions::default(),
    )
    .unwrap()
}

/// f32 → f16 bits for values exact in f16.
fn f16(x: f32) -> u32 {
    let b = x.to_bits();
    if x == 0.0 {
        return 0;
    }
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&e), "{x} is not a normal f16");
    assert_eq!(b & 0x1fff, 0, "{x} is not exact in f16");
    (b >> 16) & 0x8000 | (e as u32) << 10 | (b >> 13) & 0x3ff
}

/// The UV of instance `i`: texel centres `(2i+1)/32, (2·(i mod 7)+1)/32`
/// of a 16-texel image, except instance 3, on the border u = 0.
fn uv(i: u32) -> (f32, f32) {
    if i == 3 {
        return (0.0, 0.5 / 16.0);
    }
    ((2 * i + 1) as f32 / 32.0, (2 * (i % 7) + 1) as f32 / 32.0)
}

const INSTANCES: u32 = 6;
const VERTICES: u32 = 10;

/// User data (vertex buffers, base vertex, start instance, descriptor set
/// 0, the model matrix), the vertex-buffer table and buffers, and a zeroed
/// descriptor set (a zero UBO V#, no T#/S#).
fn draws() -> DrawsFile {
    let hi = 0x8000u64 << 32;
    let (table, set0) = (0x1000u64, 0x4000u64);
    let mut ud = vec![table as u32, 0, 0, set0 as u32];
    for k in 0..16 {
        // An identity-like model matrix with a translation.
        let v = match k {
            0 | 5 | 10 | 15 => 1.0f32,
            12 => 0.5,
            _ => 0.0,
        };
        ud.push(v.to_bits());
    }
    let vs = |i: u64, stride: u32, recs: u32| -> [u32; 4] {
        let base = 0x1_0000_0000u64 + i * 0x100_0000;
        let w3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 77 << 12 | 1 << 24 | 1 << 28;
        [
            base as u32,
            ((base >> 32) as u32 & 0xffff) | stride << 16,
            recs,
            w3,
        ]
    };
    let mut t = Vec::new();
    t.extend(vs(0, 12, 1024));
    t.extend(vs(1, 4, 1024));
    t.extend(vs(2, 4, 1024));
    let pos: Vec<u32> = (0..VERTICES * 3)
        .map(|k| (k as f32 * 0.25 - 1.0).to_bits())
        .collect();
    let normals: Vec<u32> = (0..VERTICES)
        .map(|k| 0x1234_5678 ^ (k * 0x0101_0101))
        .collect();
    let uvs: Vec<u32> = (0..INSTANCES)
        .map(|i| {
            let (u, v) = uv(i);
            f16(u) | f16(v) << 16
        })
        .collect();
    let block = |addr: u64, words: &[u32]| serde_json::json!({"addr": format!("{addr:#x}"), "words": words});
    let json = serde_json::json!({
        "user_data": ud,
        "memory": [
            block(hi | table, &t),
            block(hi | set0, &[0u32; 64]),
            block(0x1_0000_0000, &pos),
            block(0x1_0100_0000, &normals),
            block(0x1_0200_0000, &uvs),
        ],
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": VERTICES, "instance_count": INSTANCES},
            {"kind": "auto", "first_vertex": 2, "vertex_count": 5, "instance_count": 2,
             "chunks": [[2, 3], [5, 2]]}
        ]
    });
    DrawsFile::parse(&json.to_string()).unwrap()
}

fn run(h: &Harness, name: &str, opts: &RunOptions) -> RunReport {
    let r = execute(&capture(name), &draws(), opts, h).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprint!("{name}:\n{}", text_report(&r));
    r
}

#[test]
fn a_sampled_height_reaches_the_vertex_exports_and_flipped_rows_turn_it_red() {
    let Some(h) = Harness::shared_or_skip("vertex images") else {
        return;
    };
    for name in [
        "shader-object-terrain-vert",
        "shader-object-terrain-vert-legacy-vs",
    ] {
        let r = run(h, name, &RunOptions::default());
        assert_eq!(r.mismatches, 0, "{name}: {:?}", r.draws[0].first_mismatches);
        assert_eq!(
            r.vertices,
            u64::from(VERTICES * INSTANCES + 5 * 2),
            "{name}"
        );
        // Instance 3 samples on a texel border: its sampled words (the
        // position and pos.y) are not compared; the others are.
        assert!(r.undefined > 0, "{name}: the border instance was compared");
        assert!(
            r.undefined <= u64::from(VERTICES) * 5,
            "{name}: {} undefined words, more than the border instance's",
            r.undefined
        );
        // Negative control: the interpreter's texture with its rows reversed.
        let broken = RunOptions {
            flip_texel_rows_in_reference: true,
            ..RunOptions::default()
        };
        let r = run(h, name, &broken);
        assert!(
            r.mismatches > 0,
            "{name}: flipped texel rows went unnoticed"
        );
    }
}

#[test]
fn the_culling_shader_samples_through_the_ngg_pass_and_flipped_rows_turn_it_red() {
    let Some(h) = Harness::shared_or_skip("vertex images (NGG pass)") else {
        return;
    };
    // The culling variant runs as the NGG compute pass (run::ngg), with
    // the same images; its split draw is not modelled there (skipped).
    let cap = capture("shader-object-terrain-vert-nggc");
    assert!(shaderlift_cli::run::needs_ngg_pass(&cap));
    let input = cap.shader_input();
    let entry = translator::ngg_entry_of(&input);
    let opts = translator::Options {
        precise: true,
        ..translator::Options::default()
    };
    let tr = translator::translate_ngg(&input, &entry, &opts).expect("translates");
    let r = ngg::execute_with(&cap, &draws(), h, &tr, false).expect("runs");
    eprint!("{}", r.text());
    assert_eq!(r.mismatches, 0, "{:?}", r.draws[0].first_mismatches);
    assert_eq!(r.findings, 0);
    assert!(r.words > 0);
    assert!(
        r.draws.iter().any(|d| d.undefined > 0),
        "the border instance was compared"
    );
    let r = ngg::execute_with(&cap, &draws(), h, &tr, true).expect("runs");
    assert!(r.mismatches > 0, "flipped texel rows went unnoticed");
}

#[test]
fn a_descriptor_the_scene_cannot_place_is_a_typed_not_run() {
    let Some(h) = Harness::shared_or_skip("vertex images (not run)") else {
        return;
    };
    // Without user-data word 3 (the descriptor-set pointer) the T# is not
    // in the file and the scene has nowhere to write it.
    let json = serde_json::json!({
        "user_data": [0x1000],
        "memory": [],
        "draws": [{"kind": "auto", "vertex_count": 3, "instance_count": 1}]
    });
    let file = DrawsFile::parse(&json.to_string()).unwrap();
    match execute(
        &capture("shader-object-terrain-vert"),
        &file,
        &RunOptions::default(),
        h,
    ) {
        Err(shaderlift_cli::CliError::NotRun(why)) => {
            assert!(why.contains("user-data word 3"), "{why}")
        }
        Err(e) => panic!("expected a typed not run, got the error {e}"),
        Ok(r) => panic!("expected a typed not run, got a run:\n{}", text_report(&r)),
    }
    assert_eq!(
        shaderlift_cli::CliError::NotRun(String::new()).exit_code(),
        3
    );
}

/// The default scene `shaderlift run DIR` gives a vertex shader without a
/// DRAWS.json (`interp::scene` + `run::tree::complete_scene_memory`).
fn default_scene(cap: &Capture) -> DrawsFile {
    let trace = shaderlift_cli::trace::trace_capture(cap);
    let mut file = interp::scene::synthesize(&trace, &cap.abi()).to_draws_file();
    shaderlift_cli::run::tree::complete_scene_memory(cap, &trace, &mut file);
    file
}

#[test]
fn the_default_scene_leaves_the_descriptor_to_the_image_scene_and_flipped_rows_turn_it_red() {
    // The terrain shader reads its T#/S# words as data too (push words of
    // its manifest); the default scene must not fill them with its data
    // value (1.0f reads as swizzle mode 24, SW_64KB_Z_X, which neither side
    // models), so the image scene writes a linear T# both sides read.
    let Some(h) = Harness::shared_or_skip("vertex images (default scene)") else {
        return;
    };
    for name in [
        "shader-object-terrain-vert",
        "shader-object-terrain-vert-legacy-vs",
    ] {
        let cap = capture(name);
        let file = default_scene(&cap);
        let r = execute(&cap, &file, &RunOptions::default(), h)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.mismatches, 0, "{name}: {:?}", r.draws[0].first_mismatches);
        assert!(r.words > 0, "{name}: nothing compared");
        let broken = RunOptions {
            flip_texel_rows_in_reference: true,
            ..RunOptions::default()
        };
        let r = execute(&cap, &file, &broken, h).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name} (flipped rows): {} mismatches of {} words",
            r.mismatches, r.words
        );
        assert!(
            r.mismatches > 0,
            "{name}: flipped texel rows went unnoticed"
        );
    }
    let cap = capture("shader-object-terrain-vert-nggc");
    let file = default_scene(&cap);
    let input = cap.shader_input();
    let opts = translator::Options {
        precise: true,
        ..translator::Options::default()
    };
    let tr = translator::translate_ngg(&input, &translator::ngg_entry_of(&input), &opts)
        .expect("translates");
    let r = ngg::execute_with(&cap, &file, h, &tr, false).expect("runs");
    assert_eq!(r.mismatches, 0, "{:?}", r.draws[0].first_mismatches);
    assert_eq!(r.findings, 0);
    assert!(r.words > 0);
    let r = ngg::execute_with(&cap, &file, h, &tr, true).expect("runs");
    eprintln!(
        "nggc (flipped rows): {} mismatches of {} words",
        r.mismatches, r.words
    );
    assert!(r.mismatches > 0, "flipped texel rows went unnoticed");
}
