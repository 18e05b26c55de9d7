//! One test per translation rule, each with a near-identical negative
//! control. Programs are gfx1030 wave64 encodings from llvm-mc-19 (text in
//! the comments), run with the legacy-VS ABI (user data from s2, vertex id
//! in v0).

use rspirv::binary::Disassemble;
use translator::manifest::{BindingKind, PushKind};
use translator::{translate, Options, ShaderInput, TranslateError, Translation};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// gfx1030 wave64 code as `stage` with `abi`.
fn input(code: &[u8], stage: isa::Stage, abi: isa::Abi) -> ShaderInput<'_> {
    ShaderInput {
        code,
        target: isa::Target::Gfx1030,
        stage,
        abi,
        wave_size: 64,
    }
}

fn run(words: &[u32], opts: Options) -> Result<Translation, TranslateError> {
    let code = bytes(words);
    let input = input(&code, isa::Stage::LegacyVs, isa::Abi::legacy_vs());
    translate(&input, None, &opts)
}

fn asm(t: &Translation) -> String {
    let mut l = rspirv::dr::Loader::new();
    rspirv::binary::parse_words(&t.spirv, &mut l).unwrap();
    l.module().disassemble()
}

fn unsupported(r: Result<Translation, TranslateError>) -> Vec<(u32, String)> {
    match r {
        Err(TranslateError::Unsupported(l)) => {
            l.0.into_iter()
                .map(|u| (u.pc, u.construct.to_string()))
                .collect()
        }
        Ok(_) => panic!("translated, expected a refusal"),
        Err(e) => panic!("expected unsupported constructs, got {e}"),
    }
}

const DIVERGENT: &[u32] = &[
    0xd4c40000, 0x00020084, // v_cmp_gt_u32_e64 s[0:1], 4, v0
    0xbe842400, // s_and_saveexec_b64 s[4:5], s[0:1]
    0xbf880001, // s_cbranch_execz 1
    0x7e0202f2, // v_mov_b32_e32 v1, 1.0
    0x88fe047e, // s_or_b64 exec, exec, s[4:5]
    0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
    0xbf810000, // s_endpgm
];

#[test]
fn an_execz_skip_over_a_masked_region_becomes_a_per_lane_selection() {
    let t = run(DIVERGENT, Options::default()).unwrap();
    let a = asm(&t);
    assert!(a.contains("OpSelectionMerge"), "{a}");
    // Negative control: exec set to a uniform all-ones value makes the same
    // branch constant; no selection remains.
    let mut uniform = DIVERGENT.to_vec();
    uniform[0] = 0xbefe04c1; // s_mov_b64 exec, -1
    uniform[1] = 0xbf800000; // s_nop 0
    uniform[2] = 0xbf800000; // s_nop 0 (instead of s_and_saveexec)
    let t = run(&uniform, Options::default()).unwrap();
    assert!(!asm(&t).contains("OpSelectionMerge"));
}

const SCALAR_IN_REGION: &[u32] = &[
    0xd4c40000, 0x00020084, // v_cmp_gt_u32_e64 s[0:1], 4, v0
    0xbe842400, // s_and_saveexec_b64 s[4:5], s[0:1]
    0xbf880002, // s_cbranch_execz 2
    0xbe860385, // s_mov_b32 s6, 5
    0x7e0202f2, // v_mov_b32_e32 v1, 1.0
    0x88fe047e, // s_or_b64 exec, exec, s[4:5]
    0x7e040206, // v_mov_b32_e32 v2, s6
    0xf80008cf, 0x01010201, // exp pos0 v1, v2, v1, v1 done
    0xbf810000, // s_endpgm
];

#[test]
fn an_sgpr_written_in_a_skipped_region_and_read_after_it_is_refused() {
    let u = unsupported(run(SCALAR_IN_REGION, Options::default()));
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].0, 0xc, "{u:?}");
    assert!(
        u[0].1
            .contains("s6 is written inside an exec-masked region"),
        "{u:?}"
    );
    // Negative control: export v1 instead of v2, so s6 is dead after the
    // region.
    let mut dead = SCALAR_IN_REGION.to_vec();
    dead[9] = 0x01010101;
    run(&dead, Options::default()).unwrap();
}

#[test]
fn turning_lanes_on_inside_a_per_lane_region_is_refused() {
    let raise = [
        0xd4c40000, 0x00020084, // v_cmp_gt_u32_e64 s[0:1], 4, v0
        0xbe842400, // s_and_saveexec_b64 s[4:5], s[0:1]
        0xbf880002, // s_cbranch_execz 2
        0xbefe0404, // s_mov_b64 exec, s[4:5]
        0x7e0202f2, // v_mov_b32_e32 v1, 1.0
        0x88fe047e, // s_or_b64 exec, exec, s[4:5]
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let u = unsupported(run(&raise, Options::default()));
    assert!(
        u.iter()
            .any(|(pc, r)| *pc == 0x10 && r.contains("may turn on lanes")),
        "{u:?}"
    );
    // Negative control: narrowing EXEC inside the region is fine.
    let mut narrow = raise;
    narrow[4] = 0x87fe047e; // s_and_b64 exec, exec, s[4:5]
    run(&narrow, Options::default()).unwrap();
}

#[test]
fn a_uniform_do_while_loop_becomes_a_structured_loop() {
    let looped = [
        0xbe830380, // s_mov_b32 s3, 0
        0x7e020280, // v_mov_b32_e32 v1, 0
        0x4a020101, // v_add_nc_u32_e32 v1, v1, v0
        0x80038103, // s_add_u32 s3, s3, 1
        0xbf070203, // s_cmp_lg_u32 s3, s2
        0xbf85fffc, // s_cbranch_scc1 -4
        0x7e020d01, // v_cvt_f32_u32_e32 v1, v1
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let t = run(&looped, Options::default()).unwrap();
    let a = asm(&t);
    assert!(a.contains("OpLoopMerge"), "{a}");
    // Negative control: the same branch forward is no loop.
    let mut fwd = looped;
    fwd[5] = 0xbf850000; // s_cbranch_scc1 0
    assert!(!asm(&run(&fwd, Options::default()).unwrap()).contains("OpLoopMerge"));
}

#[test]
fn a_loop_that_repeats_per_lane_is_refused() {
    let per_lane = [
        0x7e020280, // v_mov_b32_e32 v1, 0
        0x4a020281, // v_add_nc_u32_e32 v1, 1, v1
        0xd4c40000, 0x00020300, // v_cmp_gt_u32_e64 s[0:1], v0, v1
        0x87fe007e, // s_and_b64 exec, exec, s[0:1]
        0xbf89fffb, // s_cbranch_execnz -5
        0xbefe04c1, // s_mov_b64 exec, -1
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let u = unsupported(run(&per_lane, Options::default()));
    assert!(
        u.iter()
            .any(|(pc, r)| *pc == 0x14 && r.contains("repeats per lane")),
        "{u:?}"
    );
}

/// A second exit (here to the same target) no longer refuses the loop:
/// the structurer rewrites it into one latch with an exit selector and
/// emits one structured loop.
#[test]
fn a_loop_with_a_second_exit_becomes_one_structured_loop() {
    let two_exits = [
        0xbe830380, // s_mov_b32 s3, 0
        0x80038103, // s_add_u32 s3, s3, 1
        0xbf068703, // s_cmp_eq_u32 s3, 7
        0xbf850002, // s_cbranch_scc1 2
        0xbf070203, // s_cmp_lg_u32 s3, s2
        0xbf85fffb, // s_cbranch_scc1 -5
        0xf80008cf, 0x00000000, // exp pos0 v0, v0, v0, v0 done
        0xbf810000, // s_endpgm
    ];
    let a = asm(&run(&two_exits, Options::default()).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(a.matches("OpLoopMerge").count(), 1, "{a}");
    // Without the early exit it is a plain loop, as before.
    let mut one = two_exits;
    one[3] = 0xbf800000; // s_nop 0
    let a = asm(&run(&one, Options::default()).unwrap());
    assert_eq!(a.matches("OpLoopMerge").count(), 1, "{a}");
}

#[test]
fn every_unsupported_construct_is_listed_with_its_pc() {
    let many = [
        0xd7650001, 0x000100c1, // v_mbcnt_lo_u32_b32 v1, -1, 0
        0xd8340000, 0x00000001, // ds_write_b32 v1, v0
        0xd7600004, 0x00010300, // v_readlane_b32 s4, v0, 1
        0x7e040204, // v_mov_b32_e32 v2, s4
        0xd8340004, 0x00000201, // ds_write_b32 v1, v2 offset:4
        0xf80008cf, 0x00000000, // exp pos0 v0, v0, v0, v0 done
        0xbf810000, // s_endpgm
    ];
    let u = unsupported(run(&many, Options::default()));
    let pcs: Vec<u32> = u.iter().map(|x| x.0).collect();
    assert_eq!(pcs, vec![0x0, 0x8, 0x10, 0x1c], "{u:?}");
}

#[test]
fn unsupported_constructs_are_typed_values_with_a_short_code() {
    use translator::{Construct, CrossLane, Lds};
    let many = [
        0xd7650001, 0x000100c1, // v_mbcnt_lo_u32_b32 v1, -1, 0
        0xd8340000, 0x00000001, // ds_write_b32 v1, v0
        0xd7600004, 0x00010300, // v_readlane_b32 s4, v0, 1
        0x7e040204, // v_mov_b32_e32 v2, s4
        0xd8340004, 0x00000201, // ds_write_b32 v1, v2 offset:4
        0xf80008cf, 0x00000000, // exp pos0 v0, v0, v0, v0 done
        0xbf810000, // s_endpgm
    ];
    let list = match run(&many, Options::default()) {
        Err(TranslateError::Unsupported(l)) => l,
        Ok(_) => panic!("translated, expected a refusal"),
        Err(e) => panic!("expected unsupported constructs, got {e}"),
    };
    let got: Vec<(u32, &Construct)> = list.0.iter().map(|u| (u.pc, &u.construct)).collect();
    assert_eq!(
        got,
        vec![
            (0x0, &Construct::CrossLane(CrossLane::Mbcnt)),
            (0x8, &Construct::Lds(Lds::Access)),
            (0x10, &Construct::CrossLane(CrossLane::Readlane)),
            (0x1c, &Construct::Lds(Lds::Access)),
        ]
    );
    let codes: Vec<&str> = list.0.iter().map(|u| u.construct.code()).collect();
    assert_eq!(codes, ["cross-lane", "lds", "cross-lane", "lds"]);
    assert_eq!(list.codes(), ["cross-lane", "lds"]);
    // The text is the value's Display, as the list prints it.
    assert!(list.to_string().contains(&format!(
        "v_mbcnt_lo_u32_b32 v1, -1, 0: {}",
        CrossLane::Mbcnt
    )));
    // Negative control: a translatable program lists nothing.
    let mut plain = many;
    for w in &mut plain[..9] {
        *w = 0xbf800000; // s_nop 0
    }
    run(&plain, Options::default()).unwrap();
}

#[test]
fn readfirstlane_of_a_value_uniform_across_lanes_is_that_value() {
    let uniform = [
        0x7e020202, // v_mov_b32_e32 v1, s2
        0x4a020284, // v_add_nc_u32_e32 v1, 4, v1
        0x7e080501, // v_readfirstlane_b32 s4, v1
        0x7e040204, // v_mov_b32_e32 v2, s4
        0xf80008cf, 0x02020202, // exp pos0 v2, v2, v2, v2 done
        0xbf810000, // s_endpgm
    ];
    run(&uniform, Options::default()).unwrap();
    // Negative control: the vertex id differs per lane.
    let mut per_lane = uniform;
    per_lane[2] = 0x7e080500; // v_readfirstlane_b32 s4, v0
    let u = unsupported(run(&per_lane, Options::default()));
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].0, 0x8);
}

#[test]
fn sdwa_selects_source_fields_and_places_the_result_field() {
    let prog = [
        0x7e0202ff, 0x12345678, // v_mov_b32_e32 v1, 0x12345678
        0x2c0402f9, 0x02860680, // v_lshrrev_b32_sdwa v2, 0, v1 ... src1_sel:BYTE_2
        0x380802f9,
        0x05000101, // v_or_b32_sdwa v4, v1, v1 dst_sel:BYTE_1 ... src0_sel:BYTE_0 src1_sel:WORD_1
        0x2c0a02f9, 0x03860680, // v_lshrrev_b32_sdwa v5, 0, v1 ... src1_sel:BYTE_3
        0xf80008cf, 0x01050402, // exp pos0 v2, v4, v5, v1 done
        0xbf810000, // s_endpgm
    ];
    let code = bytes(&prog);
    let input = input(&code, isa::Stage::LegacyVs, isa::Abi::legacy_vs());
    let f = translator::translate_ir(&input, None, &Options::default());
    let values = f
        .effects
        .iter()
        .find_map(|e| match e {
            translator::ir::Effect::Export { values, .. } => Some(*values),
            _ => None,
        })
        .unwrap();
    let got: Vec<Option<u32>> = values.iter().map(|v| v.and_then(|v| f.konst(v))).collect();
    // 0x34 (byte 2); (0x78 | 0x1234) placed in byte 1 with zeros elsewhere;
    // 0x12 (byte 3); the untouched source.
    assert_eq!(
        got,
        vec![Some(0x34), Some(0x7c00), Some(0x12), Some(0x1234_5678)]
    );
    run(&prog, Options::default()).unwrap();
}

#[test]
fn exec_from_a_non_constant_word_is_refused_but_all_ones_is_a_full_wave() {
    let from_ud = [
        0xbefe0402, // s_mov_b64 exec, s[2:3]
        0x7e0202f2, // v_mov_b32_e32 v1, 1.0
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let u = unsupported(run(&from_ud, Options::default()));
    assert!(u[0].1.contains("neither 0 nor all ones"), "{u:?}");
    let mut ones = from_ud;
    ones[0] = 0xbefe04c1; // s_mov_b64 exec, -1
    run(&ones, Options::default()).unwrap();
}

#[test]
fn scc_of_a_lane_mask_operation_is_refused_only_when_used() {
    let used = [
        0xd4c40000, 0x00020084, // v_cmp_gt_u32_e64 s[0:1], 4, v0
        0x87867e00, // s_and_b64 s[6:7], s[0:1], exec
        0x850880f2, // s_cselect_b32 s8, 1.0, 0
        0x7e020208, // v_mov_b32_e32 v1, s8
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let u = unsupported(run(&used, Options::default()));
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].0, 0x8);
    let unused = [
        0xd4c40000, 0x00020084, // v_cmp_gt_u32_e64 s[0:1], 4, v0
        0x87867e00, // s_and_b64 s[6:7], s[0:1], exec
        0xd5010001, 0x0019e480, // v_cndmask_b32_e64 v1, 0, 1.0, s[6:7]
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    run(&unused, Options::default()).unwrap();
}

fn cube() -> corpus::Capture {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("corpus/radv/cube");
    corpus::Capture::open(&dir, &Default::default()).unwrap()
}

#[test]
fn checked_mode_counts_accesses_past_the_narrowed_last_record() {
    let c = cube();
    let opts = Options {
        checked: true,
        ..Options::default()
    };
    let t = translate(&c.shader_input(), None, &opts).unwrap();
    let a = asm(&t);
    assert!(a.contains("OpAtomicIAdd"), "{a}");
    assert!(t
        .manifest
        .bindings
        .iter()
        .any(|b| matches!(b.kind, BindingKind::Feedback) && b.writable));
    assert!(t
        .manifest
        .push_constants
        .iter()
        .any(|w| matches!(w.kind, PushKind::BindingLastRecord { binding: 0 })));
    // Negative control: without --checked, no counter and no bound.
    let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
    assert!(!asm(&t).contains("OpAtomicIAdd"));
    assert!(!t
        .manifest
        .push_constants
        .iter()
        .any(|w| matches!(w.kind, PushKind::BindingLastRecord { .. })));
}

#[test]
fn test_mode_stores_every_export_per_vertex() {
    let c = cube();
    let opts = Options {
        test_outputs: true,
        ..Options::default()
    };
    let t = translate(&c.shader_input(), None, &opts).unwrap();
    assert!(t
        .manifest
        .bindings
        .iter()
        .any(|b| matches!(b.kind, BindingKind::TestOutputs)));
    let slots: Vec<(String, u32)> = t
        .manifest
        .outputs
        .iter()
        .map(|o| (o.export.clone(), o.test_slot))
        .collect();
    assert_eq!(slots, vec![("pos0".into(), 0), ("param0".into(), 1)]);
    // Eight stores: four words of pos0 and four of param0.
    let a = asm(&t);
    assert_eq!(a.matches("OpStore").count() - asm_plain_stores(), 8, "{a}");
}

fn asm_plain_stores() -> usize {
    let c = cube();
    let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
    asm(&t).matches("OpStore").count()
}

#[test]
fn push_words_resolve_from_user_data_and_guest_memory() {
    use translator::manifest::DrawParams;
    let c = cube();
    let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
    // ud0 = vertex-buffer table, ud1 = base vertex, ud2 = set-0 table.
    let ud = [0x1000u32, 7, 0x2000];
    // 0xffff8000 in the high half: guest address 0x8000_xxxxxxxx (48 bits).
    let hi = 0x8000u64 << 32;
    let mut mem = |a: u64| -> Option<u32> {
        match a {
            a if a >= hi | 0x1000 && a < hi | 0x1010 => {
                Some(0xa0 + ((a - (hi | 0x1000)) / 4) as u32)
            }
            // The UBO descriptor: base 0x5000, stride 0, 64 bytes.
            a if a == hi | 0x2000 => Some(0x5000),
            a if a == hi | 0x2004 => Some(0),
            a if a == hi | 0x2008 => Some(64),
            a if a == hi | 0x200c => Some(0),
            a if (0x5000..0x5040).contains(&a) => Some((a - 0x5000) as u32),
            _ => None,
        }
    };
    let w = t
        .manifest
        .push_words(&ud, &DrawParams::default(), &mut mem)
        .unwrap();
    let by = |name: &str| {
        let i = t
            .manifest
            .push_constants
            .iter()
            .position(|p| matches!(&p.kind, PushKind::Word { source, .. } if source == name))
            .unwrap_or_else(|| panic!("no push word {name}"));
        w[i]
    };
    assert_eq!(by("ud1"), 7);
    assert_eq!(by("table(ud0)+0x4"), 0xa1);
    assert_eq!(by("buf(table(ud2)+0x0)+0x30"), 0x30);
    // Negative control: memory without the table is an error, not a guess.
    let mut none = |_a: u64| -> Option<u32> { None };
    assert!(t
        .manifest
        .push_words(&ud, &DrawParams::default(), &mut none)
        .is_err());
}

#[test]
fn an_entry_vgpr_the_abi_does_not_define_is_refused_not_read_as_zero() {
    // NGG: the ABI defines v5 (vertex id) and v8 (instance id); v1 is
    // whatever the hardware left there.
    let reads_v1 = [
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let ngg = |code| input(code, isa::Stage::Ngg, isa::Abi::ngg());
    let code = bytes(&reads_v1);
    let u = unsupported(translate(&ngg(&code), None, &Options::default()));
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].0, 0);
    assert!(
        u[0].1.contains("v1 is read before the shader writes it"),
        "{u:?}"
    );
    // Negative control: the vertex id's VGPR, and a VGPR written first.
    let mut vertex_id = reads_v1;
    vertex_id[1] = 0x05050505; // exp pos0 v5, v5, v5, v5 done
    let code = bytes(&vertex_id);
    translate(&ngg(&code), None, &Options::default()).unwrap();
    let written = [
        0x7e0202f2, // v_mov_b32_e32 v1, 1.0
        0xf80008cf, 0x01010101, // exp pos0 v1, v1, v1, v1 done
        0xbf810000, // s_endpgm
    ];
    let code = bytes(&written);
    translate(&ngg(&code), None, &Options::default()).unwrap();
}

/// `s_denorm_mode IMM`, then `v_exp_f32 v1, v0` exported.
fn denorm_mode_program(imm: u32) -> Vec<u32> {
    vec![
        0xbfa5_0000 | imm, // s_denorm_mode IMM
        0x7e02_4b00,       // v_exp_f32_e32 v1, v0
        0xf800_08cf,
        0x0101_0101, // exp pos0 v1, v1, v1, v1 done
        0xbf81_0000, // s_endpgm
    ]
}

#[test]
fn s_denorm_mode_that_keeps_f32_flushing_translates_and_one_that_keeps_denormals_is_refused() {
    // RADV's mode (f32 flushed, f16/f64 kept) and flush-all: nothing
    // changes for the translation.
    for imm in [0xc, 0x0, 0x1, 0x2] {
        run(&denorm_mode_program(imm), Options::default())
            .unwrap_or_else(|e| panic!("s_denorm_mode {imm:#x}: {e}"));
    }
    // Negative control: f32 denormals kept (field 3) is refused at its pc.
    for imm in [0x3, 0xf] {
        let u = unsupported(run(&denorm_mode_program(imm), Options::default()));
        assert_eq!(u.len(), 1, "{u:?}");
        assert_eq!(u[0].0, 0);
        assert!(u[0].1.contains("keeps f32 denormals"), "{u:?}");
    }
}

#[test]
fn precise_mode_computes_approximate_ops_in_f64_and_fast_mode_does_not() {
    let precise = Options {
        precise: true,
        ..Options::default()
    };
    let t = run(&denorm_mode_program(0xc), precise).unwrap();
    let a = asm(&t);
    assert!(a.contains("OpCapability Float64"), "{a}");
    assert!(!a.contains("Exp2"), "{a}");
    assert!(t.manifest.notes.iter().any(|n| n.contains("precise mode")));
    // Negative control: the fast mode uses the host's Exp2 and no f64.
    let t = run(&denorm_mode_program(0xc), Options::default()).unwrap();
    let a = asm(&t);
    assert!(a.contains("Exp2") && !a.contains("Float64"), "{a}");
}
