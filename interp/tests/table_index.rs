//! Descriptors at a user-data-dependent table offset (bindless style): the
//! tracer names the descriptor `table(ud2+ud3*0x10)+0x10`, the bind plan
//! evaluates the offset per draw, and the interpreter (the oracle) fetches
//! through whatever descriptor the draw's ud3 selects. Random draws with
//! random ud3 (some of them large enough that `ud3·16` wraps at 2³²) must
//! give 0 violations; a tracer that drops the table index must turn the
//! check red.
//!
//! The program is `analysis/tests/programs/table_index.s` (its llvm-mc-19
//! encodings are read from that folder's `encodings.tsv`).

mod common;

use analysis::trace::{trace_with, TraceConfig, TraceFaults, TraceOptions};
use common::soundness::Rng;
use drawbind::draws::DrawSpec;
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::{BindError, BindPlan, SparseMemory, WordRole};
use interp::{Shader, Verifier, VerifyOptions};
use isa::{Abi, Stage, Target};

/// The program's bytes, from the tracer tests' data file.
fn program() -> Vec<u8> {
    common::encoded_program("table_index")
}

/// The table ud2 points to (RADV's 32-bit pointer, high half 0xffff8000).
const TABLE_LO: u32 = 0x3000;
const TABLE: u64 = 0x8000_0000_3000;
/// Vertex data of slot k at `VB + k·0x1_0000`.
const VB: u64 = 0x1_0000_0000;
const SLOTS: u64 = 8;

/// Slot k (at `TABLE + 0x10 + 16·k`) describes 16-byte records at
/// `VB + k·0x1_0000`, `40 + 20·k` of them.
fn memory() -> SparseMemory {
    let mut m = SparseMemory::new();
    for k in 0..SLOTS {
        let v = encode_linear(
            VB + k * 0x1_0000,
            16,
            40 + 20 * k as u32,
            OobSelect::Structured,
        );
        m.write_words(TABLE + 0x10 + 16 * k, &v);
        m.write_bytes(VB + k * 0x1_0000, &vec![0x3c; 16 * 200]);
    }
    m
}

fn user_data(slot: u32, base_vertex: u32) -> Vec<u32> {
    let mut ud = vec![0u32; 16];
    ud[2] = TABLE_LO;
    ud[3] = slot;
    ud[5] = base_vertex;
    ud
}

fn shader(code: &[u8]) -> Shader<'_> {
    Shader {
        name: "table_index",
        code,
        target: Target::Gfx1030,
        stage: Stage::Ngg,
        abi: Abi::ngg(),
        wave64: true,
    }
}

/// Violations over `draws` random draws with random ud3, traced with
/// `faults`; also the fetches through the indexed descriptor on draws it
/// was narrowed for.
fn violations(faults: TraceFaults, draws: usize) -> (usize, usize) {
    let code = program();
    let trace = trace_with(
        &code,
        Target::Gfx1030,
        &TraceConfig::ngg(),
        &TraceOptions { faults },
    );
    assert!(trace.notes.is_empty(), "{:?}", trace.notes);
    let plan = BindPlan::new(&trace, Stage::Ngg).unwrap();
    let mut v = Verifier::with_plan(shader(&code), trace, plan, &VerifyOptions::default());
    let mem = memory();
    let mut rng = Rng(0x7ab1e);
    let (mut bad, mut fetches) = (0, 0);
    for i in 0..draws {
        // Some slots are written as slot + 2^28: ud3·16 wraps at 2^32 to
        // the same byte offset, as the hardware's 32-bit shift does.
        let slot = rng.below(SLOTS) as u32 + if rng.chance(25) { 1 << 28 } else { 0 };
        let draw = DrawSpec::Auto {
            first_vertex: rng.below(100) as u32,
            vertex_count: rng.range(1, 120) as u32,
            instance_count: 1,
            chunks: Vec::new(),
        };
        let ud = user_data(slot, rng.below(30) as u32);
        let r = v.draw(i, &draw, &ud, &mem);
        assert!(r.verified(), "draw {i}: {:?}", r.error);
        bad += r.check.violations.len();
        fetches += r
            .check
            .bindings
            .iter()
            .filter(|b| b.source.contains("ud3") && b.narrowed)
            .map(|b| b.fetches)
            .sum::<usize>();
    }
    (bad, fetches)
}

#[test]
fn fetches_through_a_table_indexed_by_user_data_lie_in_the_per_draw_ranges() {
    let (bad, fetches) = violations(TraceFaults::default(), 200);
    assert!(
        fetches > 0,
        "the indexed descriptor was narrowed and fetched through"
    );
    assert_eq!(bad, 0);
}

#[test]
fn a_tracer_that_ignores_the_table_index_turns_the_check_red() {
    let faults = TraceFaults {
        ignore_table_index: true,
        ..TraceFaults::default()
    };
    let (bad, _) = violations(faults, 200);
    assert!(bad > 0);
}

#[test]
fn a_table_index_past_mapped_memory_fails_the_bind_naming_the_descriptor_word() {
    let code = program();
    let trace = analysis::trace::trace_code(&code, Target::Gfx1030, &TraceConfig::ngg());
    let plan = BindPlan::new(&trace, Stage::Ngg).unwrap();
    let mut out = vec![drawbind::BindRange::EMPTY; plan.len()];
    // Slot 1000 is past the table: its words cannot be read.
    let e = plan
        .bind(
            &drawbind::Draw::auto(0, 3, 1),
            &user_data(1000, 0),
            &memory(),
            &mut out,
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            BindError::Unreadable {
                addr,
                role: WordRole::Descriptor { .. }
            } if addr == TABLE + 0x10 + 16 * 1000
        ),
        "{e:?}"
    );
    // The user-data word itself missing is named as the table index.
    let e = plan
        .bind(
            &drawbind::Draw::auto(0, 3, 1),
            &[0, 0, TABLE_LO],
            &memory(),
            &mut out,
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            BindError::MissingUserData {
                k: 3,
                role: WordRole::TableIndex { .. },
                ..
            }
        ),
        "{e:?}"
    );
}
