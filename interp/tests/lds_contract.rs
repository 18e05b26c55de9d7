//! The LDS contract (issue 14) end to end: a bound that went through LDS
//! narrows only when verify honours the contract on both sides (the plan
//! narrows, the interpreter fills the contract's cells with the draw's
//! first id), and each way of breaking it turns the check red:
//!
//! - skipping the initialisation while the plan narrows: a lane reads a
//!   cell no write reached, its index is undefined and the draw is not
//!   verified;
//! - a tracer that ignores a second write of another value into the class
//!   (`TraceFaults::lds_first_write_wins`): violations.
//!
//! The shader is hand-assembled (llvm-mc-19, gfx1030; run as NGG wave64):
//! vertex lanes with id < 2 write their vertex id (and, in the
//! `other value` form, the id + 1000 after it) to byte 20 of a 28-byte
//! record per lane; after the barrier every vertex lane reads byte 20 of
//! its own record back, adds the base vertex (ud1) and fetches through
//! `ud12..ud15`.

mod common;

use analysis::trace::{trace_with, TraceConfig, TraceFaults, TraceOptions};
use common::soundness::{case, Layout, Rng};
use drawbind::draws::DrawSpec;
use drawbind::vsharp::{encode_linear, OobSelect};
use drawbind::SparseMemory;
use interp::{Shader, Verifier, VerifyOptions};
use isa::{Abi, Stage, Target};

/// The shader without and with the second write (`v6 = v5 + 1000`).
fn code(other_value: bool) -> Vec<u8> {
    let mut b: Vec<&[u8]> = vec![
        &[0x03, 0x80, 0x80, 0x92], // s_bfm_b64 s[0:1], s3, 0
        &[0x03, 0x86, 0x0d, 0xbf], // s_bitcmp1_b32 s3, 6
        &[0xc1, 0x00, 0xfe, 0x85], // s_cselect_b64 exec, -1, s[0:1]
        &[0x7e, 0x04, 0x80, 0xbe], // s_mov_b64 s[0:1], exec
        &[0x82, 0x0a, 0x88, 0x7d], // v_cmp_gt_u32_e32 vcc, 2, v5
        &[0xc1, 0x04, 0xfe, 0xbe], // s_mov_b64 exec, -1
        &[0x03, 0x00, 0x65, 0xd7, 0xc1, 0x00, 0x01, 0x00], // v_mbcnt_lo_u32_b32 v3, -1, 0
        &[0x03, 0x00, 0x66, 0xd7, 0xc1, 0x06, 0x02, 0x00], // v_mbcnt_hi_u32_b32 v3, -1, v3
        &[0x9c, 0x06, 0x12, 0x16], // v_mul_u32_u24_e32 v9, 28, v3
        &[0x6a, 0x04, 0xfe, 0xbe], // s_mov_b64 exec, vcc
        &[0x14, 0x00, 0x34, 0xd8, 0x09, 0x05, 0x00, 0x00], // ds_write_b32 v9, v5 offset:20
    ];
    if other_value {
        b.push(&[0xff, 0x0a, 0x0c, 0x4a, 0xe8, 0x03, 0x00, 0x00]); // v_add_nc_u32_e32 v6, 0x3e8, v5
        b.push(&[0x14, 0x00, 0x34, 0xd8, 0x09, 0x06, 0x00, 0x00]); // ds_write_b32 v9, v6 offset:20
    }
    b.extend_from_slice(&[
        &[0x00, 0x04, 0xfe, 0xbe],                         // s_mov_b64 exec, s[0:1]
        &[0x7f, 0xc0, 0x8c, 0xbf],                         // s_waitcnt lgkmcnt(0)
        &[0x00, 0x00, 0x8a, 0xbf],                         // s_barrier
        &[0x14, 0x00, 0xd8, 0xd8, 0x09, 0x00, 0x00, 0x02], // ds_read_b32 v2, v9 offset:20
        &[0x7f, 0xc0, 0x8c, 0xbf],                         // s_waitcnt lgkmcnt(0)
        &[0x09, 0x04, 0x00, 0x4a],                         // v_add_nc_u32_e32 v0, s9, v2
        &[0x00, 0x20, 0x38, 0xe0, 0x00, 0x0a, 0x05, 0x80], // buffer_load_dwordx4 v[10:13], v0, s[20:23], 0 idxen
        &[0x70, 0x3f, 0x8c, 0xbf],                         // s_waitcnt vmcnt(0)
        &[0x00, 0x00, 0x81, 0xbf],                         // s_endpgm
    ]);
    b.concat()
}

const VB: u64 = 0x8000_0010_0000;
const RECORDS: u32 = 4096;

/// Verify `draws` random-ish auto draws of the hand shader; returns
/// (violations, unverified draws, bindings narrowed, bindings kept for the
/// LDS contract).
fn run(
    other_value: bool,
    faults: TraceFaults,
    opts: VerifyOptions,
) -> (usize, usize, usize, usize) {
    let code = code(other_value);
    let abi = Abi::ngg();
    let shader = Shader {
        name: "lds-contract",
        code: &code,
        target: Target::Gfx1030,
        stage: Stage::Ngg,
        abi,
        wave64: true,
    };
    let trace = trace_with(
        &code,
        Target::Gfx1030,
        &TraceConfig::new(Stage::Ngg, abi, false),
        &TraceOptions { faults },
    );
    let mut v = Verifier::with_trace(shader, trace, &opts).unwrap();
    let mut mem = SparseMemory::new();
    mem.write_words(VB, &vec![0u32; (RECORDS as usize) * 4]);
    let mut ud = vec![0u32; 16];
    ud[1] = 7;
    ud[12..16].copy_from_slice(&encode_linear(VB, 16, RECORDS, OobSelect::Structured));
    let (mut viol, mut unverified, mut narrowed, mut kept) = (0, 0, 0, 0);
    for (i, (first, count)) in [(0u32, 40u32), (5, 64), (100, 3), (0, 130), (2000, 70)]
        .into_iter()
        .enumerate()
    {
        let draw = DrawSpec::Auto {
            first_vertex: first,
            vertex_count: count,
            instance_count: 1,
            chunks: vec![],
        };
        let r = v.draw(i, &draw, &ud, &mem);
        assert!(r.error.is_none(), "{:?}", r.error);
        viol += r.check.violations.len();
        unverified += !r.verified() as usize;
        narrowed += r.check.bindings.iter().filter(|b| b.narrowed).count();
        kept += r
            .check
            .bindings
            .iter()
            .filter(|b| b.reason == "lds-contract")
            .count();
    }
    (viol, unverified, narrowed, kept)
}

fn both(on: bool) -> VerifyOptions {
    VerifyOptions {
        honour_lds_contract: on,
        init_lds: on,
        ..VerifyOptions::default()
    }
}

#[test]
fn honoured_on_both_sides_the_binding_narrows_and_every_draw_is_clean() {
    let (viol, unverified, narrowed, kept) = run(false, TraceFaults::default(), both(true));
    assert_eq!((viol, unverified, kept), (0, 0, 0));
    assert_eq!(narrowed, 5, "every draw narrows the binding");
}

#[test]
fn not_honoured_the_binding_keeps_its_baseline_and_lanes_read_undefined_cells() {
    // Neither side: the plan keeps the baseline (lds-contract), and lanes
    // that read cells no write reached fetch with an undefined index, so
    // the draws are not fully checked: exactly why the contract exists.
    let (viol, unverified, narrowed, kept) = run(false, TraceFaults::default(), both(false));
    assert_eq!((viol, narrowed, kept), (0, 0, 5));
    assert_eq!(unverified, 5);
}

#[test]
fn skipping_the_initialisation_while_narrowing_turns_the_check_red() {
    let opts = VerifyOptions {
        honour_lds_contract: true,
        init_lds: false,
        ..VerifyOptions::default()
    };
    let (_, unverified, narrowed, _) = run(false, TraceFaults::default(), opts);
    assert_eq!(narrowed, 5);
    assert_eq!(unverified, 5, "no draw may count as verified");
}

#[test]
fn a_write_of_another_value_keeps_the_binding_unbound_unless_the_tracer_is_broken() {
    // Correct tracer: the second write (id + 1000) makes the class hold no
    // one source, the binding keeps its baseline and nothing is violated
    // (with no contract nothing is initialised, so lanes reading unwritten
    // cells leave the draws not fully checked, as without this work).
    let (viol, _, narrowed, kept) = run(true, TraceFaults::default(), both(true));
    assert_eq!((viol, narrowed, kept), (0, 0, 0));
    // Broken tracer (the first write wins): narrowed by vertex_id + ud1,
    // but lanes fetch id + 1000 + ud1.
    let faults = TraceFaults {
        lds_first_write_wins: true,
        ..TraceFaults::default()
    };
    let (viol, _, narrowed, _) = run(true, faults, both(true));
    assert!(narrowed > 0);
    assert!(viol > 0, "negative control: the broken rule must show");
}

#[test]
fn culling_shaders_narrow_only_when_the_contract_is_honoured() {
    for name in ["cube-nggc", "instanced-nggc"] {
        let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
        let cap = corpus::Capture::open(&dir, &corpus::CaptureOptions::default()).unwrap();
        let shader = Shader {
            name,
            code: &cap.code,
            target: cap.meta.target,
            stage: cap.meta.stage,
            abi: cap.meta.abi,
            wave64: cap.meta.wave_size.lanes() == 64,
        };
        let lds_source = if name.starts_with("cube") {
            "table(ud0)+0x0"
        } else {
            "table(ud0)+0x10"
        };
        for on in [true, false] {
            let mut v = Verifier::new(shader, &both(on)).unwrap();
            let mut rng = Rng(0x1d5 + on as u64);
            let layout = Layout::of(name);
            let (mut narrowed, mut kept) = (0, 0);
            for i in 0..40 {
                let c = case(&mut rng, layout);
                v.config_mut().group_prims = c.group_prims;
                let r = v.draw(i, &c.draw, &c.user_data, &c.mem);
                assert!(r.verified(), "{name} draw {i}: {:?}", r.error);
                assert!(r.check.violations.is_empty(), "{name} draw {i}");
                for b in r.check.bindings.iter().filter(|b| b.source == lds_source) {
                    narrowed += b.narrowed as usize;
                    kept += (b.reason == "lds-contract") as usize;
                }
            }
            if on {
                assert!(narrowed > 0 && kept == 0, "{name}: {narrowed} {kept}");
            } else {
                assert!(narrowed == 0 && kept > 0, "{name}: {narrowed} {kept}");
            }
        }
    }
}
