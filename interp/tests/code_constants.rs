//! Constant data after the code, reached with `s_getpc_b64`: the tracer
//! names those descriptor words as code addresses, the bind plan resolves
//! them from the code's guest address, and the interpreter's `s_getpc_b64`
//! counts from the same address. Every fetch through the constant
//! descriptors must lie in their ranges; a plan told the wrong code address
//! must turn the check red.
//!
//! The program is `analysis/tests/programs/code_constants.s` (its llvm-mc-19
//! encodings are read from that folder's `encodings.tsv`).

mod common;

use analysis::trace::{trace_code, TraceConfig};
use drawbind::draws::{DrawSpec, DEFAULT_CODE_ADDR};
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::{BindPlan, SparseMemory};
use interp::{Shader, Verifier, VerifyOptions};
use isa::{Abi, Stage, Target};

/// The program's bytes, from the tracer tests' data file.
fn program() -> Vec<u8> {
    common::encoded_program("code_constants")
}

/// Vertex data for the vertex buffer in ud12..15.
const VB: u64 = 0x1_0000_0000;
/// The raw buffer the table in the constant data describes.
const RAW: u64 = 0x2_0000_0000;

/// Code and constant data mapped at `code_addr`: 0x78.. is the constant
/// array (72 bytes), 0x154.. the descriptor the program loads through
/// `code + 0x144` with offset 0x10.
fn memory(code: &[u8], code_addr: u64) -> SparseMemory {
    let mut image = code.to_vec();
    image.resize(0x200, 0);
    for (i, b) in image.iter_mut().enumerate().skip(0x78).take(72) {
        *b = i as u8;
    }
    let raw = encode_linear(RAW, 0, 64, OobSelect::Raw);
    for (k, w) in raw.iter().enumerate() {
        image[0x154 + 4 * k..0x158 + 4 * k].copy_from_slice(&w.to_le_bytes());
    }
    let mut m = SparseMemory::new();
    m.write_bytes(code_addr, &image);
    // The same image 4 KiB higher, where the negative control's plan looks.
    m.write_bytes(code_addr + 0x1000, &image);
    m.write_bytes(VB, &vec![0x3c; 16 * 1000]);
    m.write_bytes(RAW, &[7; 64]);
    m
}

fn user_data() -> Vec<u32> {
    let mut ud = vec![0u32; 16];
    ud[5] = 3; // base vertex
    ud[12..16].copy_from_slice(&encode_linear(VB, 16, 1000, OobSelect::Structured));
    ud
}

/// Violations of one 36-vertex draw, with the plan told `plan_code_addr`
/// while the code really lives at [`DEFAULT_CODE_ADDR`].
fn violations(plan_code_addr: u64) -> (usize, usize) {
    let code = program();
    let shader = Shader {
        name: "code_constants",
        code: &code,
        target: Target::Gfx1030,
        stage: Stage::Ngg,
        abi: Abi::ngg(),
        wave64: true,
    };
    let trace = trace_code(&code, Target::Gfx1030, &TraceConfig::ngg());
    assert!(trace.notes.is_empty(), "{:?}", trace.notes);
    let plan = BindPlan::new(&trace, Stage::Ngg)
        .unwrap()
        .with_code_address(plan_code_addr);
    let mut v = Verifier::with_plan(shader, trace, plan, &VerifyOptions::default());
    let draw = DrawSpec::Auto {
        first_vertex: 0,
        vertex_count: 36,
        instance_count: 1,
        chunks: Vec::new(),
    };
    let r = v.draw(0, &draw, &user_data(), &memory(&code, DEFAULT_CODE_ADDR));
    assert!(
        r.verified(),
        "{:?} {:?}",
        r.error,
        r.check.undefined.first()
    );
    let fetched_through_code: usize = r
        .check
        .bindings
        .iter()
        .filter(|b| b.source.contains("code"))
        .map(|b| b.fetches)
        .sum();
    (r.check.violations.len(), fetched_through_code)
}

#[test]
fn fetches_of_constant_data_lie_in_the_ranges_the_code_address_gives() {
    let (violations, fetches) = violations(DEFAULT_CODE_ADDR);
    assert!(fetches > 0, "the constant descriptors were fetched through");
    assert_eq!(violations, 0);
}

#[test]
fn a_plan_told_the_wrong_code_address_turns_the_check_red() {
    let (violations, _) = violations(DEFAULT_CODE_ADDR + 0x1000);
    assert!(violations > 0);
}

#[test]
fn a_plan_never_told_the_code_address_fails_the_bind_naming_it() {
    let code = program();
    let trace = trace_code(&code, Target::Gfx1030, &TraceConfig::ngg());
    let plan = BindPlan::new(&trace, Stage::Ngg).unwrap();
    assert!(plan.needs_code_address());
    let mut out = vec![drawbind::BindRange::EMPTY; plan.len()];
    let e = plan
        .bind(
            &drawbind::Draw::auto(0, 3, 1),
            &user_data(),
            &memory(&code, DEFAULT_CODE_ADDR),
            &mut out,
        )
        .unwrap_err();
    assert!(e.to_string().contains("s_getpc_b64"), "{e}");
    assert!(!plan
        .with_code_address(DEFAULT_CODE_ADDR)
        .needs_code_address());
}
