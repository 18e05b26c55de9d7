//! Vector-ALU (VOP1, VOP2, VOPC, VOP3, VOP3P) behaviour: the RADV corpus,
//! and one named test per semantic rule that printing does not show.

use isa::{
    decode, dont_care_mask, encode, Access, Family, Formatter, Implicit, Instruction, OpMods,
    Operand, Target, ValType,
};

const PAD: [u8; 16] = [
    0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf,
];

fn is_vop(f: Family) -> bool {
    matches!(
        f,
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p
    )
}

fn dec(words: &[u32]) -> Instruction {
    let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    b.extend_from_slice(&PAD);
    decode(&b, Target::Gfx1030).unwrap_or_else(|e| panic!("{e}"))
}

fn text(i: &Instruction) -> String {
    Formatter::new(Target::Gfx1030).display(i).to_string()
}

fn round_trips(i: &Instruction, words: &[u32]) {
    let e = encode(i, Target::Gfx1030).unwrap_or_else(|e| panic!("{}: {e}", text(i)));
    let mask = dont_care_mask(i, Target::Gfx1030);
    assert_eq!(e.len(), i.len as usize, "{}", text(i));
    for (k, c) in e.as_bytes().chunks(4).enumerate() {
        let got = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let m = if k < 5 { !mask[k] } else { !0 };
        assert_eq!(got & m, words[k] & m, "{}: dword {k}", text(i));
    }
}

/// Every VOP instruction of the Mesa corpus decodes, round-trips, and (for
/// wave32 shaders, which LLVM disassembled with wave32 names) prints
/// exactly as llvm-objdump-19 does.
#[test]
fn corpus_vector_alu_instructions_decode_print_and_round_trip() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/radv");
    let mut seen = 0;
    for entry in std::fs::read_dir(root).expect("corpus") {
        let dir = entry.expect("entry").path();
        let Ok(listing) = std::fs::read_to_string(dir.join("listing.txt")) else {
            continue;
        };
        let meta = std::fs::read_to_string(dir.join("meta.json")).expect("meta");
        let wave32 = meta.contains("\"wave_size\": 32");
        let llvm = std::fs::read_to_string(dir.join("llvm19_disasm.txt")).expect("disasm");
        let llvm: Vec<&str> = llvm
            .lines()
            .filter(|l| l.starts_with('\t') && !l.trim_start().starts_with('.'))
            .map(|l| l.split(';').next().unwrap_or("").trim())
            .collect();
        let insts: Vec<Vec<u32>> = listing
            .lines()
            .filter_map(|l| {
                let (_, rest) = l.split_once(": ")?;
                let words: Vec<u32> = rest
                    .split_whitespace()
                    .map_while(|w| {
                        (w.len() == 8)
                            .then(|| u32::from_str_radix(w, 16).ok())
                            .flatten()
                    })
                    .collect();
                (!words.is_empty()).then_some(words)
            })
            .collect();
        assert_eq!(insts.len(), llvm.len(), "{}", dir.display());
        for (words, want) in insts.iter().zip(&llvm) {
            let d0 = words[0];
            let fam = isa::classify(d0).expect("family");
            if !is_vop(fam) {
                continue;
            }
            let i = dec(words);
            seen += 1;
            assert_eq!(i.len as usize, words.len() * 4, "{want}");
            round_trips(&i, words);
            let got = text(&i);
            if wave32 {
                assert_eq!(got, *want, "{}", dir.display());
            } else {
                let mn = |s: &str| s.split(' ').next().unwrap_or("").to_string();
                assert_eq!(mn(&got), mn(want), "{}", dir.display());
            }
        }
    }
    assert!(seen > 400, "only {seen} VOP instructions in the corpus");
}

fn accesses(i: &Instruction) -> Vec<Access> {
    i.operands.iter().map(|s| s.access).collect()
}

#[test]
fn vopc_e32_writes_vcc_as_an_explicit_mask_operand() {
    // v_cmp_gt_u32_e32 vcc_lo, s3, v0
    let i = dec(&[0x7d88_0003]);
    assert_eq!(text(&i), "v_cmp_gt_u32_e32 vcc_lo, s3, v0");
    assert_eq!(
        i.operands[0].op,
        Operand::Reg {
            code: 106,
            count: 1
        }
    );
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert_eq!(i.operands[0].ty, ValType::Mask);
    assert!(i.implicit().contains(Implicit::READ_EXEC));
    assert!(!i.implicit().contains(Implicit::WRITE_EXEC));
}

#[test]
fn cmpx_writes_exec_and_nothing_else_on_gfx10() {
    // v_cmpx_gt_u32_e32 s3, v0 and v_cmpx_gt_u32_e64 v20, v30
    for w in [&[0x7da8_0003u32][..], &[0xd4d4_0000, 0x0002_3d14]] {
        let i = dec(w);
        assert!(i
            .implicit()
            .contains(Implicit::WRITE_EXEC | Implicit::READ_EXEC));
        assert!(i.defs().next().is_none(), "{}", text(&i));
    }
}

#[test]
fn carry_e32_writes_the_first_vcc_and_reads_the_last() {
    // v_add_co_ci_u32_e32 v10, vcc_lo, v20, v30, vcc_lo
    let i = dec(&[0x5014_3d14]);
    assert_eq!(
        text(&i),
        "v_add_co_ci_u32_e32 v10, vcc_lo, v20, v30, vcc_lo"
    );
    assert_eq!(
        accesses(&i),
        [
            Access::WRITE,
            Access::WRITE,
            Access::READ,
            Access::READ,
            Access::READ
        ]
    );
    assert_eq!(i.operands[4].ty, ValType::Mask);
}

#[test]
fn cndmask_reads_its_lane_mask() {
    // v_cndmask_b32_e64 v11, v11, -v11, vcc_hi
    let i = dec(&[0xd501_000b, 0x41ae_170b]);
    assert_eq!(text(&i), "v_cndmask_b32_e64 v11, v11, -v11, vcc_hi");
    assert_eq!(
        i.operands[3].op,
        Operand::Reg {
            code: 107,
            count: 1
        }
    );
    assert_eq!(i.operands[3].access, Access::READ);
    assert_eq!(i.operands[3].ty, ValType::Mask);
    assert_eq!(i.operands[2].mods, OpMods::NEG);
}

#[test]
fn readlane_writes_a_scalar_and_crosses_lanes() {
    // v_readlane_b32 s3, v3, s1
    let i = dec(&[0xd760_0003, 0x0000_0303]);
    assert_eq!(text(&i), "v_readlane_b32 s3, v3, s1");
    assert_eq!(i.operands[0].op, Operand::sgpr(3));
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert!(i.implicit().contains(Implicit::CROSS_LANE));
}

#[test]
fn writelane_is_a_partial_write_of_its_vgpr() {
    // v_writelane_b32 v3, s3, s1
    let i = dec(&[0xd761_0003, 0x0000_0203]);
    assert_eq!(text(&i), "v_writelane_b32 v3, s3, s1");
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
    assert!(i.implicit().contains(Implicit::CROSS_LANE));
}

#[test]
fn readfirstlane_depends_on_exec() {
    // v_readfirstlane_b32 s5, v1
    let i = dec(&[0x7e0a_0501]);
    assert_eq!(text(&i), "v_readfirstlane_b32 s5, v1");
    assert!(i
        .implicit()
        .contains(Implicit::READ_EXEC | Implicit::CROSS_LANE));
}

#[test]
fn swap_reads_and_writes_both_operands() {
    // v_swap_b32 v1, v2
    let i = dec(&[0x7e02_cb02]);
    assert_eq!(text(&i), "v_swap_b32 v1, v2");
    assert_eq!(accesses(&i), [Access::READ | Access::WRITE; 2]);
}

#[test]
fn movrel_accesses_are_marked_m0_relative() {
    // v_movreld_b32_e32 v5, v20 / v_movrels_b32_e32 v5, v20
    for w in [0x7e0a_8514u32, 0x7e0a_8714] {
        let i = dec(&[w]);
        assert!(
            i.implicit()
                .contains(Implicit::READ_M0 | Implicit::RELATIVE),
            "{}",
            text(&i)
        );
    }
}

#[test]
fn permlane_keeps_old_lanes_and_prints_fi_bc_as_op_sel() {
    // v_permlane16_b32 v10, v20, s30, s40 op_sel:[1,1]
    let i = dec(&[0xd777_180a, 0x00a0_3d14]);
    assert_eq!(text(&i), "v_permlane16_b32 v10, v20, s30, s40 op_sel:[1,1]");
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
    assert!(i.operands[1].mods.contains(OpMods::OP_SEL));
    assert!(i.operands[2].mods.contains(OpMods::OP_SEL));
    assert!(i.implicit().contains(Implicit::CROSS_LANE));
}

#[test]
fn sixteen_bit_results_preserve_the_other_half() {
    // v_add_f16_e32 v10, v20, v30 and v_add_nc_u16 v5, v1, v2 op_sel:[0,0,1]
    let a = dec(&[0x6414_3d14]);
    assert_eq!(text(&a), "v_add_f16_e32 v10, v20, v30");
    let b = dec(&[0xd703_4005, 0x0002_0501]);
    assert_eq!(text(&b), "v_add_nc_u16 v5, v1, v2 op_sel:[0,0,1]");
    for i in [a, b] {
        assert_eq!(
            i.operands[0].access,
            Access::READ | Access::WRITE | Access::PARTIAL
        );
    }
    // A 32-bit result does not.
    let c = dec(&[0x0614_3d14]);
    assert_eq!(text(&c), "v_add_f32_e32 v10, v20, v30");
    assert_eq!(c.operands[0].access, Access::WRITE);
}

#[test]
fn accumulators_read_their_destination() {
    // v_fmac_f32_e32 v1, s8, v6
    let i = dec(&[0x5602_0c08]);
    assert_eq!(text(&i), "v_fmac_f32_e32 v1, s8, v6");
    assert_eq!(i.operands[0].access, Access::READ | Access::WRITE);
}

#[test]
fn sixty_four_bit_operands_are_register_pairs() {
    // v_add_f64 v[10:11], v[20:21], s[30:31]
    let i = dec(&[0xd564_000a, 0x0000_3d14]);
    assert_eq!(text(&i), "v_add_f64 v[10:11], v[20:21], s[30:31]");
    for s in i.operands.iter() {
        assert!(matches!(s.op, Operand::Reg { count: 2, .. }));
        assert_eq!(s.ty, ValType::F64);
    }
}

#[test]
fn div_fmas_reads_vcc_implicitly() {
    // v_div_fmas_f32 v10, v20, v30, v40
    let i = dec(&[0xd56f_000a, 0x04a2_3d14]);
    assert!(i.implicit().contains(Implicit::READ_VCC));
}

#[test]
fn lds_direct_source_reads_lds_and_m0() {
    // v_mov_b32_e32 v10, src_lds_direct
    let i = dec(&[0x7e14_02fe]);
    assert_eq!(text(&i), "v_mov_b32_e32 v10, src_lds_direct");
    assert!(i.implicit().contains(Implicit::LDS | Implicit::READ_M0));
}

#[test]
fn literal_constants_extend_the_instruction() {
    // v_fmamk_f32 v10, v20, 0x3ff00000, v30 (VOP2-only, K literal) and a
    // VOP3 literal: v_cmp_gt_f32_e64 s7, 0x7f800000, |v11|.
    let i = dec(&[0x5814_3d14, 0x3ff0_0000]);
    assert_eq!(text(&i), "v_fmamk_f32 v10, v20, 0x3ff00000, v30");
    assert_eq!(i.len, 8);
    assert_eq!(i.opcode.index(), 0x42c);
    let w = [0xd404_0207, 0x0002_16ff, 0x7f80_0000];
    let j = dec(&w);
    assert_eq!(text(&j), "v_cmp_gt_f32_e64 s7, 0x7f800000, |v11|");
    assert_eq!(j.len, 12);
    round_trips(&j, &w);
}

#[test]
fn e32_and_e64_forms_share_one_opcode() {
    let a = dec(&[0x0614_3d14]); // v_add_f32_e32
    let b = dec(&[0xd503_000a, 0x0002_3d14]); // v_add_f32_e64
    assert_eq!(a.opcode, b.opcode);
    assert_eq!(a.opcode.index(), 0x103);
    assert_eq!(a.family, Family::Vop2);
    assert_eq!(b.family, Family::Vop3);
}

#[test]
fn renamed_gfx101_opcodes_get_their_own_index() {
    let w = [0x0c14_3d14u32, 0, 0, 0, 0]; // VOP2 opcode 6
    let b: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
    let new = decode(&b, Target::Gfx1030).expect("gfx1030");
    let old = decode(&b, Target::Gfx1013).expect("gfx1013");
    assert_eq!(new.opcode.name(), "v_fmac_legacy_f32");
    assert_eq!(old.opcode.name(), "v_mac_legacy_f32");
    assert_eq!(new.opcode.index(), 0x106);
    assert_eq!(old.opcode.index(), 0x506);
}

#[test]
fn gfx101_only_encodings_are_rejected_on_gfx103() {
    // v_mac_f32_e32 v10, v20, v30
    let w = [0x3e14_3d14u32, 0, 0, 0, 0];
    let b: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert!(decode(&b, Target::Gfx1030).is_err());
    let i = decode(&b, Target::Gfx1013).expect("gfx1013");
    assert_eq!(i.opcode.name(), "v_mac_f32");
}

#[test]
fn dpp_and_sdwa_words_are_left_to_their_decoder() {
    for src0 in [0xf9u32, 0xfa, 0xe9, 0xea] {
        let w = [0x0614_3c00 | src0, 0, 0, 0, 0];
        let b: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        let i = decode(&b, Target::Gfx1030).expect("v_add_f32 has DPP and SDWA forms");
        assert_eq!(Some(i.family), isa::classify(w[0]));
        assert_eq!(i.opcode.name(), "v_add_f32");
    }
}

#[test]
fn vop3p_packed_modifiers_round_trip() {
    // v_pk_fma_f16 v175, 32, v30, v209 op_sel:[0,1,0] op_sel_hi:[1,0,1] neg_hi:[1,1,1] clamp
    let w = [0xcc0e_d7af, 0x0f46_3ca0];
    let i = dec(&w);
    assert_eq!(
        text(&i),
        "v_pk_fma_f16 v175, 32, v30, v209 op_sel:[0,1,0] op_sel_hi:[1,0,1] neg_hi:[1,1,1] clamp"
    );
    assert!(i.operands[2].mods.contains(OpMods::OP_SEL));
    assert!(!i.operands[2].mods.contains(OpMods::OP_SEL_HI));
    round_trips(&i, &w);
}

#[test]
fn truncated_literal_is_an_error_not_a_panic() {
    // v_mov_b32_e32 v10, <literal> with the literal missing.
    let b = 0x7e14_02ffu32.to_le_bytes();
    assert!(decode(&b, Target::Gfx1030).is_err());
    let b = [0x0a, 0x00, 0x03, 0xd5, 0xff];
    assert!(decode(&b, Target::Gfx1030).is_err());
}

/// SplitMix64, for reproducible random words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Random words of every vector-ALU encoding (with random modifier bits
/// and literals) never panic in decode, format or encode, and every word
/// that decodes re-encodes to itself outside the don't-care bits; every
/// truncation of them is an error, not a panic.
#[test]
fn random_vop_words_never_panic_and_round_trip() {
    let mut rng = Rng(0x005e_ed0f_0ba5);
    for target in Target::ALL {
        let fmt = Formatter::new(target);
        let mut decoded = 0;
        for n in 0..60_000u32 {
            let r = rng.next();
            let d0 = match n % 3 {
                0 => (r as u32) & 0x7fff_ffff,
                1 => 0xd400_0000 | ((r as u32) & 0x03ff_ffff),
                _ => 0xcc00_0000 | ((r as u32) & 0x03ff_ffff),
            };
            let words = [
                d0,
                (r >> 32) as u32,
                rng.next() as u32,
                0xbf80_0000,
                0xbf80_0000,
            ];
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            for cut in [3usize, 4, 7, 8, 11] {
                let _ = decode(&bytes[..cut], target);
            }
            let Ok(i) = decode(&bytes, target) else {
                continue;
            };
            decoded += 1;
            let mut s = String::new();
            fmt.write(&i, &mut s).expect("format");
            let e = encode(&i, target).unwrap_or_else(|e| panic!("{s}: {e}"));
            let mask = dont_care_mask(&i, target);
            assert_eq!(e.len(), i.len as usize, "{s}");
            for (k, c) in e.as_bytes().chunks(4).enumerate() {
                let got = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                let m = if k < 5 { !mask[k] } else { !0 };
                assert_eq!(
                    got & m,
                    words[k] & m,
                    "{target}: {s}: dword {k} of {words:08x?}"
                );
            }
        }
        assert!(decoded > 10_000, "{target}: only {decoded} decoded");
    }
}

#[test]
fn int16_operands_print_float_constants_as_f16_bit_patterns() {
    // Inline constant -4.0 (code 247) in an i16 compare.
    let i = dec(&[0x7d1a_d6f7]);
    assert_eq!(text(&i), "v_cmp_ne_i16_e32 vcc_lo, 0xc400, v107");
    assert_eq!(i.operands[1].op, Operand::Inline(247));
    assert_eq!(i.operands[1].ty, ValType::B16);
}

#[test]
fn f64_literals_are_the_high_dword() {
    // The literal 0x3ff00000 in an f64 operand is 1.0 (0x3ff00000_00000000).
    let w = [0xd564_000a, 0x0002_3cff, 0x3ff0_0000];
    let i = dec(&w);
    assert_eq!(text(&i), "v_add_f64 v[10:11], 1.0, v[30:31]");
    assert_eq!(i.operands[1].op, Operand::Literal(0x3ff0_0000));
    assert_eq!(i.len, 12);
    round_trips(&i, &w);
}
