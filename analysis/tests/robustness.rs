//! Bad input never panics the tracer: garbage, code that jumps outside
//! itself, empty code. Each gives notes and no bound descriptor.

use analysis::trace::{trace_code, ShaderTrace, TraceConfig};

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn trace(bytes: &[u8]) -> ShaderTrace {
    trace_code(bytes, isa::Target::Gfx1030, &TraceConfig::ngg())
}

fn assert_all_unbound(t: &ShaderTrace) {
    for d in &t.descriptors {
        assert!(d.bound.is_none(), "{t:#?}");
        assert!(d.reason.is_some(), "{t:#?}");
    }
}

/// A small xorshift so the garbage is the same on every run.
fn garbage(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn garbage_bytes_trace_to_notes_and_no_bound() {
    for seed in 1..200u64 {
        for len in [0usize, 1, 3, 4, 7, 64, 1000] {
            let t = trace(&garbage(seed, len));
            assert_all_unbound(&t);
            if len > 0 {
                assert!(!t.notes.is_empty(), "seed {seed} len {len}: no notes");
            }
        }
    }
}

#[test]
fn empty_code_is_an_empty_trace_with_a_note() {
    let t = trace(&[]);
    assert!(t.descriptors.is_empty() && t.accesses.is_empty());
    assert_eq!(t.notes, vec!["the code is empty".to_string()]);
}

#[test]
fn jump_outside_the_code_leaves_every_descriptor_unbound() {
    // The prologue, a fetch of v5 through table(ud0)+0x0 (bound on its
    // own), then a branch 1 KiB past the end.
    let mut code = words(&[
        0x9280_8003, // s_bfm_b64 s[0:1], s3, 0
        0xbf0d_8603, // s_bitcmp1_b32 s3, 6
        0x85fe_00c1, // s_cselect_b64 exec, -1, s[0:1]
        0xb009_8000, // s_movk_i32 s9, 0x8000
        0xf408_0104,
        0xfa00_0000, // s_load_dwordx4 s[4:7], s[8:9], null
        0xbf8c_c07f, // s_waitcnt lgkmcnt(0)
        0xe038_2000,
        0x8001_0005, // buffer_load_dwordx4 v[0:3], v5, s[4:7], 0 idxen
    ]);
    let ok = trace(&[code.clone(), words(&[0xbf81_0000])].concat());
    assert!(ok.descriptors[0].bound.is_some(), "{ok:#?}");
    code.extend(words(&[0xbf82_0100, 0xbf81_0000])); // s_branch 256; s_endpgm
    let t = trace(&code);
    assert_all_unbound(&t);
    assert!(
        t.descriptors[0]
            .reason
            .as_ref()
            .is_some_and(|r| r.to_string().contains("outside the code")),
        "{t:#?}"
    );
}

#[test]
fn indirect_jump_leaves_every_descriptor_unbound() {
    let code = words(&[
        0x9280_8003,
        0xbf0d_8603,
        0x85fe_00c1,
        0xb009_8000,
        0xf408_0104,
        0xfa00_0000,
        0xbf8c_c07f,
        0xe038_2000,
        0x8001_0005,
        0xbe80_2000, // s_setpc_b64 s[0:1]
    ]);
    let t = trace(&code);
    assert_all_unbound(&t);
    assert!(t.notes.iter().any(|n| n.contains("s_setpc_b64")), "{t:#?}");
}
