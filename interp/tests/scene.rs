//! The default scene (`interp::scene`) for every corpus vertex shader: the
//! standard draws run, verify with no violation, and the vertex bindings
//! narrow (so the corpus report shows real savings).

use analysis::trace::{trace_code, TraceConfig};
use interp::scene::synthesize;
use interp::{verify, Shader, VerifyOptions};
use isa::{Abi, Stage, Target};

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../corpus/radv/{name}/code.bin",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn check(name: &str) -> (usize, usize) {
    let legacy = name.contains("legacy");
    let (stage, abi) = if legacy {
        (Stage::LegacyVs, Abi::legacy_vs())
    } else {
        (Stage::Ngg, Abi::ngg())
    };
    let wave64 = !name.ends_with("w32");
    let code = corpus(name);
    let trace = trace_code(
        &code,
        Target::Gfx1030,
        &TraceConfig::new(stage, abi, !wave64),
    );
    let scene = synthesize(&trace, &abi);
    let shader = Shader {
        name,
        code: &code,
        target: Target::Gfx1030,
        stage,
        abi,
        wave64,
    };
    let r = verify(
        &shader,
        &scene.draws,
        &scene.user_data,
        &scene.memory,
        &VerifyOptions::default(),
    )
    .unwrap();
    assert_eq!(r.violations, 0, "{name}: {r:?}");
    let mut narrowed = 0;
    let mut fetched = 0;
    for d in &r.draws {
        // The indexed draw runs ids 0..index_count (no index buffer).
        assert!(d.error.is_none(), "{name} draw {}: {:?}", d.index, d.error);
        for b in &d.check.bindings {
            narrowed += b.narrowed as usize;
            fetched += (b.fetches > 0) as usize;
        }
    }
    (narrowed, fetched)
}

#[test]
fn standard_draws_verify_cleanly_and_narrow_on_every_corpus_vertex_shader() {
    for name in [
        "cube",
        "cube-w32",
        "cube-legacy-vs",
        "instanced",
        "instanced-w32",
        "instanced-legacy-vs",
        "cube-nggc",
        "cube-nggc-w32",
        "instanced-nggc",
        "instanced-nggc-w32",
    ] {
        let (narrowed, fetched) = check(name);
        assert!(fetched > 0, "{name}: the scene must feed real fetches");
        if !name.contains("nggc") {
            assert!(narrowed > 0, "{name}: vertex bindings should narrow");
        }
    }
}
