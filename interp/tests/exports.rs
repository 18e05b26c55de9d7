//! The interpreter's exports for `corpus/radv/cube` and `instanced` (NGG,
//! legacy VS and wave32) on a small instanced draw are the transformed
//! positions: checked against a hand computation of MVP × position, and
//! pinned with insta snapshots.
//!
//! Guest memory (RADV's layout, read from the code):
//! - user-data word 0: the vertex-buffer table pointer (low half; the
//!   shader makes the high half `0xffff8000`, so the table is at guest
//!   address `0x8000_0000_1000`), one 16-byte V# per binding;
//! - word 1: base vertex; `instanced` word 2: start instance;
//! - next word: the descriptor-set-0 pointer (set 0 at `0x8000_0000_2000`);
//!   its first 16 bytes are the UBO's V# (raw, 64 bytes at `0x3_0000`)
//!   holding the MVP, column-major: the shader loads column `c` with
//!   `s_buffer_load_dwordx4 … 0x10·c`;
//! - `cube`: binding 0 at `0x1_0000`, stride 32: position vec4 at 0,
//!   colour vec4 at 16. `instanced`: binding 0 at `0x1_0000`, stride 12,
//!   vec3 position; binding 1 (table slot 0x10) at `0x2_0000`, stride 32:
//!   offset vec4 (xyz + scale in w) at 0, colour vec4 at 16.
//!
//! Every value is a small multiple of 1/2, so every product and sum is
//! exact and the hand computation is bit-exact whatever the order.

mod common;

use common::Mem;
use corpus::{Capture, CaptureOptions};
use interp::{run_draw, Draw, DrawConfig, Program};
use serde::Serialize;

const TABLE: u64 = 0x8000_0000_1000;
const SET0: u64 = 0x8000_0000_2000;
const UBO: u64 = 0x3_0000;
const VB0: u64 = 0x1_0000;
const VB1: u64 = 0x2_0000;
const BASE_VERTEX: u32 = 3;
const START_INSTANCE: u32 = 1;

/// The MVP, column-major.
const MVP: [[f32; 4]; 4] = [
    [2.0, 0.0, 0.0, 0.0],
    [0.0, 3.0, 0.0, 1.0],
    [1.0, 0.0, -1.0, 0.0],
    [0.5, -1.0, 4.0, 2.0],
];

fn vsharp(base: u64, stride: u32, records: u32, oob: u32) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 | stride << 16,
        records,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 1 << 24 | oob << 28,
    ]
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Vertex record `r` of the cube's binding: position and colour.
fn cube_vertex(r: u32) -> ([f32; 4], [f32; 4]) {
    let x = r as f32;
    ([x, 0.5 * x, -x, 1.0], [x / 4.0, 1.0, 0.0, 0.5])
}

fn inst_position(r: u32) -> [f32; 3] {
    let x = r as f32;
    [x, 1.0 - x, 0.5 * x]
}

fn inst_record(r: u32) -> ([f32; 4], [f32; 4]) {
    let k = r as f32;
    ([10.0 * k, -k, 0.0, 1.0 + k], [k, 0.0, 1.0, 1.0])
}

fn mvp_times(p: [f32; 4]) -> [f32; 4] {
    let mut out = [0.0f32; 4];
    for (row, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|c| MVP[c][row] * p[c]).sum();
    }
    out
}

fn memory(instanced: bool) -> Mem {
    let mut m = Mem::default();
    let mvp: Vec<f32> = MVP.iter().flatten().copied().collect();
    m.write(UBO, &bits(&mvp));
    m.write(SET0, &vsharp(UBO, 0, 64, 3));
    if instanced {
        m.write(TABLE, &vsharp(VB0, 12, 64, 1));
        m.write(TABLE + 0x10, &vsharp(VB1, 32, 8, 1));
        for r in 0..64 {
            m.write(VB0 + 12 * r as u64, &bits(&inst_position(r)));
        }
        for r in 0..8 {
            let (o, c) = inst_record(r);
            m.write(VB1 + 32 * r as u64, &bits(&o));
            m.write(VB1 + 32 * r as u64 + 16, &bits(&c));
        }
    } else {
        m.write(TABLE, &vsharp(VB0, 32, 64, 1));
        for r in 0..64 {
            let (p, c) = cube_vertex(r);
            m.write(VB0 + 32 * r as u64, &bits(&p));
            m.write(VB0 + 32 * r as u64 + 16, &bits(&c));
        }
    }
    m
}

#[derive(Serialize, PartialEq, Debug)]
struct Vertex {
    instance: u32,
    vertex_id: u32,
    pos0: [f32; 4],
    param0: [f32; 4],
}

#[derive(Serialize)]
struct Snapshot {
    shader: String,
    waves: usize,
    /// `instance/vertex id: pos0 | param0`.
    vertices: Vec<String>,
    /// Per wave, the primitive exports (NGG).
    prims: Vec<Vec<String>>,
    fetches: usize,
}

fn run(name: &str) -> Snapshot {
    let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
    let cap = Capture::open(&dir, &CaptureOptions::default()).unwrap();
    let program = Program::new(
        &cap.code,
        isa::Mode::with_wave_size(cap.meta.target, cap.meta.wave_size.lanes()),
    );
    let instanced = name.starts_with("instanced");
    let mem = memory(instanced);
    let ud: Vec<u32> = if instanced {
        vec![0x1000, BASE_VERTEX, START_INSTANCE, 0x2000]
    } else {
        vec![0x1000, BASE_VERTEX, 0x2000]
    };
    let cfg = DrawConfig::new(
        &program,
        cap.meta.stage,
        cap.meta.abi,
        cap.meta.wave_size.lanes() == 64,
    );
    let draw = Draw::Auto {
        first_vertex: 1,
        vertex_count: 6,
        instance_count: 2,
        chunks: vec![],
    };
    let r = run_draw(&program, &mem, &ud, &draw, &cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(r.obs.findings.is_empty(), "{name}: {:?}", r.obs.findings);
    let mut vertices = Vec::new();
    for e in r.obs.exports.iter().filter(|e| e.target == 12) {
        let w = &r.waves[e.wave as usize];
        let id = w.vertex_ids[e.lane as usize];
        let param = r
            .obs
            .exports
            .iter()
            .find(|p| p.target == 32 && p.wave == e.wave && p.lane == e.lane)
            .expect("a param0 export for every position");
        assert_eq!(
            (e.defined, param.defined),
            (0xf, 0xf),
            "{name}: undefined export"
        );
        vertices.push(Vertex {
            instance: w.instance,
            vertex_id: id,
            pos0: e.values.map(f32::from_bits),
            param0: param.values.map(f32::from_bits),
        });
    }
    vertices.sort_by_key(|v| (v.instance, v.vertex_id));
    // The hand computation.
    let mut expected = Vec::new();
    for instance in 0..2 {
        for vertex_id in 1..7 {
            let r = vertex_id + BASE_VERTEX;
            let (pos, colour) = if instanced {
                let p = inst_position(r);
                let (o, c) = inst_record(instance + START_INSTANCE);
                (
                    [
                        p[0] * o[3] + o[0],
                        p[1] * o[3] + o[1],
                        p[2] * o[3] + o[2],
                        1.0,
                    ],
                    c,
                )
            } else {
                cube_vertex(r)
            };
            expected.push(Vertex {
                instance,
                vertex_id,
                pos0: mvp_times(pos),
                param0: colour,
            });
        }
    }
    assert_eq!(
        vertices, expected,
        "{name}: exports differ from MVP × position"
    );
    let prims = r
        .waves
        .iter()
        .enumerate()
        .map(|(wi, _)| {
            r.obs
                .exports
                .iter()
                .filter(|e| e.target == 20 && e.wave == wi as u32)
                .map(|e| format!("{:#010x}", e.values[0]))
                .collect()
        })
        .collect();
    let fmt = |v: [f32; 4]| v.map(|x| x.to_string()).join(" ");
    Snapshot {
        shader: name.to_string(),
        waves: r.waves.len(),
        vertices: vertices
            .iter()
            .map(|v| {
                format!(
                    "{}/{}: {} | {}",
                    v.instance,
                    v.vertex_id,
                    fmt(v.pos0),
                    fmt(v.param0)
                )
            })
            .collect(),
        prims,
        fetches: r.obs.fetches.len(),
    }
}

macro_rules! exports_test {
    ($test:ident, $name:literal) => {
        #[test]
        fn $test() {
            let s = run($name);
            insta::assert_yaml_snapshot!(s);
        }
    };
}

exports_test!(cube_ngg_exports_mvp_times_position, "cube");
exports_test!(cube_legacy_vs_exports_mvp_times_position, "cube-legacy-vs");
exports_test!(cube_wave32_exports_mvp_times_position, "cube-w32");
exports_test!(instanced_ngg_exports_mvp_times_offset_position, "instanced");
exports_test!(
    instanced_legacy_vs_exports_mvp_times_offset_position,
    "instanced-legacy-vs"
);
exports_test!(
    instanced_wave32_exports_mvp_times_offset_position,
    "instanced-w32"
);

/// A draw's work is bounded as a whole (`Limits::max_run_steps`), not only
/// per wave: the same cube draw that runs under the default budget stops
/// with `RunStepLimit` when the budget is smaller than its waves' steps
/// together, though each wave stays under its own bound.
#[test]
fn a_draw_past_its_run_step_budget_is_an_error_not_a_long_run() {
    let dir = format!("{}/../corpus/radv/cube", env!("CARGO_MANIFEST_DIR"));
    let cap = Capture::open(&dir, &CaptureOptions::default()).unwrap();
    let program = Program::new(
        &cap.code,
        isa::Mode::with_wave_size(cap.meta.target, cap.meta.wave_size.lanes()),
    );
    let mem = memory(false);
    let ud = vec![0x1000, BASE_VERTEX, 0x2000];
    let mut cfg = DrawConfig::new(
        &program,
        cap.meta.stage,
        cap.meta.abi,
        cap.meta.wave_size.lanes() == 64,
    );
    // 8 instances of 24 vertices: 8 waves of well under 1000 steps each.
    let draw = Draw::Auto {
        first_vertex: 0,
        vertex_count: 24,
        instance_count: 8,
        chunks: vec![],
    };
    run_draw(&program, &mem, &ud, &draw, &cfg).expect("runs under the default budget");
    cfg.limits = interp::Limits {
        max_steps: 1000,
        max_run_steps: 200,
    };
    let err = run_draw(&program, &mem, &ud, &draw, &cfg).expect_err("budget spent");
    assert!(
        matches!(
            err.error,
            interp::InterpError::RunStepLimit { limit: 200, .. }
        ),
        "{err:?}"
    );
}
