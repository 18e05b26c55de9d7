//! An access whose descriptor is not fully traced but whose base words are
//! (`analysis/tests/programs/untraced_alias.s`): the vertex buffer in
//! ud12..15 keeps its bound, and the bind plan keeps its baseline on the
//! draws where the untraced access's base (ud8/ud9) equals the vertex
//! buffer's (`Reason::UntracedAlias`). The check counts a fetch of the
//! untraced access through a narrowed binding's buffer outside its range
//! as a violation; a plan that ignores the alias turns it red.

mod common;

use analysis::trace::{trace_with, TraceConfig, TraceFaults, TraceOptions};
use common::soundness::Rng;
use drawbind::draws::DrawSpec;
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::{BindFaults, BindPlan, SparseMemory};
use interp::{Shader, Verifier, VerifyOptions};
use isa::{Abi, Stage, Target};

/// The program's bytes, from the tracer tests' data file.
fn program() -> Vec<u8> {
    common::encoded_program("untraced_alias")
}

const VB: u64 = 0x1_0000_0000;
const OTHER: u64 = 0x2_0000_0000;

/// Violations and aliased (kept) bindings over random draws; on about half
/// of them the untraced access's base is the vertex buffer's.
fn run(faults: BindFaults, draws: usize) -> (usize, usize) {
    run_traced(TraceFaults::default(), faults, draws)
}

fn run_traced(tfaults: TraceFaults, faults: BindFaults, draws: usize) -> (usize, usize) {
    let code = program();
    let shader = Shader {
        name: "untraced_alias",
        code: &code,
        target: Target::Gfx1030,
        stage: Stage::Ngg,
        abi: Abi::ngg(),
        wave64: true,
    };
    let trace = trace_with(
        &code,
        Target::Gfx1030,
        &TraceConfig::ngg(),
        &TraceOptions { faults: tfaults },
    );
    assert!(trace.notes.is_empty(), "{:?}", trace.notes);
    let plan = BindPlan::new(&trace, Stage::Ngg)
        .unwrap()
        .with_faults(faults);
    let mut v = Verifier::with_plan(shader, trace, plan, &VerifyOptions::default());
    let mut m = SparseMemory::new();
    m.write_bytes(VB, &vec![0x3c; 16 * 2000]);
    m.write_bytes(OTHER, &vec![0x5a; 16 * 2000]);
    let mut rng = Rng(0xa11a5);
    let (mut bad, mut kept) = (0, 0);
    for i in 0..draws {
        let vb = encode_linear(VB, 16, 2000, OobSelect::Structured);
        let base = if rng.chance(50) { VB } else { OTHER };
        let other = encode_linear(base, 16, 2000, OobSelect::Structured);
        let mut ud = vec![0u32; 16];
        ud[5] = rng.below(20) as u32;
        ud[8] = other[0];
        ud[9] = other[1];
        ud[10] = 2000;
        ud[11] = 3000;
        ud[12..16].copy_from_slice(&vb);
        let draw = DrawSpec::Auto {
            first_vertex: rng.below(50) as u32,
            vertex_count: rng.range(3, 100) as u32,
            instance_count: 1,
            chunks: Vec::new(),
        };
        let r = v.draw(i, &draw, &ud, &m);
        assert!(r.verified(), "draw {i}: {:?}", r.error);
        bad += r.check.violations.len();
        kept += r
            .check
            .bindings
            .iter()
            .filter(|b| b.reason == "untraced-alias")
            .count();
    }
    (bad, kept)
}

#[test]
fn an_untraced_access_keeps_the_baseline_only_where_it_aliases() {
    let (bad, kept) = run(BindFaults::default(), 100);
    assert_eq!(bad, 0);
    assert!(kept > 0 && kept < 100, "{kept} of 100 draws aliased");
}

#[test]
fn narrowing_a_buffer_an_untraced_access_aliases_turns_the_check_red() {
    let faults = BindFaults {
        ignore_untraced_alias: true,
        ..BindFaults::default()
    };
    let (bad, _) = run(faults, 100);
    assert!(bad > 0);
}

#[test]
fn a_tracer_that_ignores_untraced_accesses_turns_the_check_red() {
    let faults = TraceFaults {
        untraced_unbinds_nothing: true,
        ..TraceFaults::default()
    };
    let (bad, _) = run_traced(faults, BindFaults::default(), 100);
    assert!(bad > 0);
}
