//! Interpreting a 1000-vertex draw of the culling cube shader
//! (`corpus/radv/cube-nggc`, wave64): 333 triangles of a clip-space grid,
//! half of them back-facing and culled, in workgroups of 42 triangles.
//!
//! Run: `cargo bench -p interp --bench draw`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{scene, Mem};
use interp::{run_draw, Draw, DrawConfig, Program};

fn main() {
    divan::main();
}

struct Setup {
    program: Program,
    mem: Mem,
    cfg: DrawConfig,
    ud: Vec<u32>,
}

fn setup(name: &str) -> Setup {
    let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
    let code = std::fs::read(format!("{dir}/code.bin")).expect("corpus code");
    let program = Program::new(
        &code,
        isa::Mode::with_wave_size(
            isa::Target::Gfx1030,
            if name.ends_with("w32") { 32 } else { 64 },
        ),
    );
    let mut mem = Mem::default();
    scene::write_ubo(&mut mem, &scene::identity());
    mem.write(scene::TABLE, &scene::vsharp(0x10_0000, 32, 1000, 1));
    scene::write_cube_vertices(&mut mem, 0x10_0000, 0, 1000);
    let cfg = DrawConfig::new(
        &program,
        isa::Stage::Ngg,
        isa::Abi::ngg(),
        !name.ends_with("w32"),
    );
    // table, base vertex, set 0, culling settings (back faces), viewport
    // scale x/y, translate x/y.
    let ud = vec![
        0x1000,
        0,
        0x2000,
        0x2,
        0x4300_0000,
        0x4300_0000,
        0x4300_0000,
        0x4300_0000,
    ];
    Setup {
        program,
        mem,
        cfg,
        ud,
    }
}

const DRAW: Draw = Draw::Auto {
    first_vertex: 0,
    vertex_count: 1000,
    instance_count: 1,
    chunks: Vec::new(),
};

#[divan::bench(args = ["cube-nggc", "cube-nggc-w32", "cube"])]
fn draw_1000_vertices(bencher: divan::Bencher, name: &str) {
    let s = setup(name);
    let run = run_draw(&s.program, &s.mem, &s.ud, &DRAW, &s.cfg).expect("the draw runs");
    assert!(
        run.obs.exports.iter().any(|e| e.target == 12),
        "some triangles survive"
    );
    bencher.bench_local(|| {
        run_draw(&s.program, &s.mem, &s.ud, &DRAW, &s.cfg).map(|r| r.obs.fetches.len())
    });
}
