//! ACO's waterfall loop for a `nonuniformEXT` descriptor index
//! (`lift/waterfall.rs`): lifted as one pass in the lane's view, so the
//! body's scalar index is this lane's value and the descriptor load a
//! per-lane table slot; scalar state the loop leaves is refused where it
//! is read, and a value that may differ within a quad is refused.
//!
//! The fixture is `descriptor-indexing-nonuniform-quads-frag` of the
//! developer real corpus (`tests/fixtures/images/`).

#[path = "support/spirv.rs"]
mod spirv_check;

use spirv_check::spirv_val;
use std::path::Path;
use translator::{translate, Construct, CrossLane, Image, Options, TranslateError};

const FIXTURE: &str = "descriptor-indexing-nonuniform-quads-frag";

fn fixture() -> corpus::Capture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/images")
        .join(FIXTURE);
    corpus::Capture::open(&dir, &Default::default()).expect("open fixture")
}

/// The host's word that the per-lane table index stays below the slots.
fn trusted() -> Options {
    Options {
        trust_lane_table_slots: true,
        ..Default::default()
    }
}

/// The refusals of `code` (the fixture's ABI and wave size) with `opts`.
fn refusals(code: &[u8], opts: &Options) -> Vec<Construct> {
    let c = fixture();
    let mut input = c.shader_input();
    input.code = code;
    match translate(&input, None, opts) {
        Ok(_) => Vec::new(),
        Err(TranslateError::Unsupported(l)) => l.0.iter().map(|u| u.construct.clone()).collect(),
        Err(e) => panic!("{e}"),
    }
}

/// The fixture's code with `word` inserted after the loop's exit
/// (`s_mov_b64 exec, s[0:1]` at 0x74; no branch reaches past it).
fn with_read_after_loop(word: u32) -> Vec<u8> {
    let code = fixture().code.clone();
    let mut out = code[..0x78].to_vec();
    out.extend_from_slice(&word.to_le_bytes());
    out.extend_from_slice(&code[0x78..]);
    out
}

#[test]
fn a_waterfall_loop_over_a_flat_index_becomes_a_per_lane_table_slot() {
    let c = fixture();
    let t = translate(&c.shader_input(), None, &trusted()).expect("translates on the host's word");
    if let Some(r) = spirv_val("spirv_val_waterfall", FIXTURE, &t.spirv) {
        r.unwrap();
    }
    // The body's `s_load_dwordx8 s[16:23], s[12:13], s4` with
    // `s4 = readfirstlane(v1) << 6`: slot `in_texture_index` (flat input
    // attr1.x) of 64-byte T#s; the S# is one for every lane.
    let lanes: Vec<_> = t
        .manifest
        .lane_tables
        .iter()
        .map(|l| (l.pc, l.scale, l.slots, l.proved, l.input))
        .collect();
    assert_eq!(lanes, [(0x58, 64, 8, false, Some([1, 0]))]);
    // By default the per-lane slot reads the host descriptor array; with
    // neither the array nor the host's word it is the only refusal left.
    assert_eq!(refusals(&c.code, &Options::default()), []);
    let no_arrays = Options {
        lane_table_arrays: false,
        ..Options::default()
    };
    assert_eq!(
        refusals(&c.code, &no_arrays),
        [Construct::Image(Image::UnprovedTableSlot { slots: 8 })]
    );
}

#[test]
fn scalar_state_a_waterfall_loop_leaves_is_refused_where_read_unless_every_iteration_agrees() {
    // v_mov_b32 v0, s4 (the last iteration's index << 6): refused.
    let code = with_read_after_loop(0x7e00_0204);
    assert!(
        refusals(&code, &trusted()).contains(&Construct::CrossLane(CrossLane::WaterfallExit)),
        "{:?}",
        refusals(&code, &trusted())
    );
    // v_mov_b32 v0, s8 (descriptor set 1's address, the same in every
    // iteration): kept.
    let code = with_read_after_loop(0x7e00_0208);
    assert_eq!(refusals(&code, &trusted()), []);
}

#[test]
fn a_waterfall_loop_over_a_value_that_may_differ_within_a_quad_is_refused() {
    // readfirstlane and the compare of v0 (an interpolated coordinate)
    // instead of v1 (the flat index).
    let mut code = fixture().code.clone();
    code[0x20..0x24].copy_from_slice(&0x7e08_0500u32.to_le_bytes());
    code[0x28..0x2c].copy_from_slice(&0x7d24_0004u32.to_le_bytes());
    assert!(
        refusals(&code, &trusted()).contains(&Construct::CrossLane(CrossLane::WaterfallQuads)),
        "{:?}",
        refusals(&code, &trusted())
    );
}

#[test]
fn a_loop_that_saves_exec_after_the_compare_is_no_waterfall() {
    // `s_mov_b64 s[6:7], exec` after the v_cmpx: `saved` is then only the
    // matched lanes, so the loop leaves after one group; not the idiom,
    // and the readfirstlane stays refused.
    let mut code = fixture().code.clone();
    let (mov, cmpx) = (code[0x24..0x28].to_vec(), code[0x28..0x2c].to_vec());
    code[0x24..0x28].copy_from_slice(&cmpx);
    code[0x28..0x2c].copy_from_slice(&mov);
    assert!(
        refusals(&code, &trusted()).contains(&Construct::CrossLane(CrossLane::Readlane)),
        "{:?}",
        refusals(&code, &trusted())
    );
}
