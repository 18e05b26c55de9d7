//! DPP16, DPP8 and SDWA: the RADV corpus, every recorded oracle probe, and
//! one named test per semantic rule that printing does not show (partial
//! writes, cross-lane reads, source selects).

use isa::family::vop_ext::{Dpp16Mods, Dpp8Mods, DppCtrl, DstUnused, SdwaMods, SdwaSel};
use isa::{
    decode, dont_care_mask, encode, Access, Family, Formatter, Implicit, Instruction, Mode,
    Modifiers, OpMods, Operand, Target, ValType,
};

const PAD: u32 = 0xbf80_0000;

fn dwords(words: &[u32]) -> Vec<u8> {
    let mut v: Vec<u32> = words.to_vec();
    while v.len() < 5 {
        v.push(PAD);
    }
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn dec_mode(words: &[u32], mode: Mode) -> Instruction {
    decode(&dwords(words), mode).unwrap_or_else(|e| panic!("{e}"))
}

fn dec(words: &[u32]) -> Instruction {
    dec_mode(words, Mode::wave32(Target::Gfx1030))
}

fn text(i: &Instruction) -> String {
    Formatter::new(Target::Gfx1030).display(i).to_string()
}

fn is_ext(f: Family) -> bool {
    matches!(f, Family::Dpp16 | Family::Dpp8 | Family::Sdwa)
}

/// `encode(i) == bytes` outside the don't-care bits.
fn round_trips(i: &Instruction, bytes: &[u8], target: Target) -> Result<(), String> {
    let e = encode(i, target).map_err(|e| e.to_string())?;
    if e.len() != i.len as usize {
        return Err(format!("encoded {} bytes", e.len()));
    }
    let mask = dont_care_mask(i, target);
    for k in 0..e.len() / 4 {
        let a = u32::from_le_bytes(bytes[k * 4..k * 4 + 4].try_into().unwrap());
        let b = u32::from_le_bytes(e.as_bytes()[k * 4..k * 4 + 4].try_into().unwrap());
        if a & !mask[k] != b & !mask[k] {
            return Err(format!("dword {k}: {a:#010x} re-encoded as {b:#010x}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- corpus

/// Every DPP/SDWA instruction of the RADV corpus (the culling shaders use
/// `v_mul_u32_u24_sdwa`, `v_or_b32_sdwa`, `v_lshlrev_b32_sdwa`) decodes in
/// the entry's wave size, prints as llvm-mc-19 printed it (wave64 entries
/// were printed with wave64 names) and re-encodes to the same bytes.
#[test]
fn corpus_dpp_and_sdwa_instructions_decode_print_and_round_trip() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/radv");
    let mut seen = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(root).expect("corpus") {
        let dir = entry.expect("entry").path();
        let Ok(src) = std::fs::read_to_string(dir.join("llvm19_disasm.txt")) else {
            continue;
        };
        let meta = std::fs::read_to_string(dir.join("meta.json")).expect("meta");
        let wave = if meta.contains("\"wave_size\": 32") {
            32
        } else {
            64
        };
        let mode = Mode::with_wave_size(Target::Gfx1030, wave);
        for line in src.lines() {
            let Some((want, enc)) = line.split_once("; encoding: [") else {
                continue;
            };
            let want = want.trim();
            let bytes: Vec<u8> = enc
                .trim_end_matches(']')
                .split(',')
                .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
                .collect();
            let d0 = u32::from_le_bytes(bytes[0..4].try_into().unwrap());
            if !is_ext(isa::classify(d0).unwrap()) {
                continue;
            }
            seen += 1;
            let mut padded = bytes.clone();
            padded.extend_from_slice(&[0, 0, 0x80, 0xbf].repeat(3));
            let i = match decode(&padded, mode) {
                Ok(i) => i,
                Err(e) => {
                    bad.push(format!("{want}: {e}"));
                    continue;
                }
            };
            let got = text(&i);
            if got != want || i.len as usize != bytes.len() {
                bad.push(format!("{want}: ours ({}) {got}", i.len));
            }
            if let Err(e) = round_trips(&i, &padded, Target::Gfx1030) {
                bad.push(format!("{want}: {e}"));
            }
        }
    }
    assert!(
        seen >= 20,
        "only {seen} DPP/SDWA instructions in the corpus"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The corpus's `v_mul_u32_u24_sdwa v10, 28, v0 ... src1_sel:WORD_0`: a
/// constant src0 (S0), a word select on src1, and a full DWORD write.
#[test]
fn corpus_sdwa_word_select_reads_half_of_src1_and_writes_the_whole_dst() {
    let i = dec(&[0x1614_00f9, 0x0486_069c]);
    assert_eq!(
        text(&i),
        "v_mul_u32_u24_sdwa v10, 28, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0"
    );
    assert_eq!(i.family, Family::Sdwa);
    assert_eq!(i.opcode, isa::Opcode::V_MUL_U32_U24);
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert_eq!(i.operands[1].op, Operand::Inline(156));
    assert_eq!(i.operands[2].op, Operand::vgpr(0));
    let Modifiers::Sdwa(m) = i.mods else {
        panic!("{:?}", i.mods)
    };
    assert_eq!(m.src0_sel, SdwaSel::Dword);
    assert_eq!(m.src1_sel, SdwaSel::Word0);
    assert_eq!(m.src1_sel.range(), (0, 16));
    assert!(!i.implicit().contains(Implicit::CROSS_LANE));
}

// ------------------------------------------------------ recorded probes

/// Every answer recorded by `isa-gen probe vop_ext` (about 33 000 words on
/// gfx1010, gfx1013 and gfx1030: every form's base, each control bit
/// flipped, scalar constants, every dpp_ctrl value, the reserved SDWA
/// values) decodes to LLVM's length and text, or fails where LLVM printed
/// `.long`; whatever decodes re-encodes to the same bytes.
#[test]
fn every_recorded_probe_prints_as_llvm_19_did() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/gen/oracle/vop_ext.tsv");
    let src = std::fs::read_to_string(path).expect("recording");
    let mut n = 0;
    let mut bad = Vec::new();
    for l in src.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.splitn(4, '\t').collect();
        let target: Target = f[0].parse().unwrap();
        let mut bytes: Vec<u8> = (0..f[1].len())
            .step_by(2)
            .map(|j| u8::from_str_radix(&f[1][j..j + 2], 16).unwrap())
            .collect();
        while bytes.len() < 20 {
            bytes.extend_from_slice(&PAD.to_le_bytes());
        }
        let (len, want) = (f[2].parse::<usize>().unwrap(), f[3]);
        if want == "<crash>" {
            // LLVM 19 aborts on the reserved SDWA select 7; it is an error.
            assert!(decode(&bytes, target).is_err(), "{l}");
            continue;
        }
        n += 1;
        let fmt = Formatter::new(target);
        let got = match decode(&bytes, target) {
            Ok(i) => {
                if let Err(e) = round_trips(&i, &bytes, target) {
                    bad.push(format!("{l}\n    round trip: {e}"));
                }
                (i.len as usize, fmt.display(&i).to_string())
            }
            Err(_) => (
                4,
                format!(
                    ".long {:#010x}",
                    u32::from_le_bytes(bytes[0..4].try_into().unwrap())
                ),
            ),
        };
        if got != (len, want.to_string()) {
            bad.push(format!("{l}\n    ours: ({}) {}", got.0, got.1));
        }
    }
    assert!(n > 30_000, "only {n} probes");
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

// ----------------------------------------------------- random fixtures

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&s[j..j + 2], 16).unwrap())
        .collect()
}

fn fixture(name: &str) -> Vec<(Vec<u8>, usize, String)> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    src.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            (hex(f[0]), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

/// Every line of a random DPP/SDWA fixture (and its wave64 overlay) prints
/// as llvm-objdump-19 printed it, and re-encodes to its bytes.
fn check_random_fixture(name: &str, mode: Mode, overlay: Option<&str>) {
    let mut cases = fixture(name);
    if let Some(o) = overlay {
        let diff: std::collections::HashMap<Vec<u8>, (usize, String)> = fixture(o)
            .into_iter()
            .map(|(b, l, t)| (b, (l, t)))
            .collect();
        for c in &mut cases {
            if let Some((l, t)) = diff.get(&c.0) {
                c.1 = *l;
                c.2 = t.clone();
            }
        }
    }
    let fmt = Formatter::new(mode.target);
    let mut bad = Vec::new();
    let mut decoded = 0;
    for (bytes, len, want) in &cases {
        let mut b = bytes.clone();
        while b.len() < 20 {
            b.extend_from_slice(&PAD.to_le_bytes());
        }
        let got = match decode(&b, mode) {
            Ok(i) => {
                decoded += 1;
                if let Err(e) = round_trips(&i, &b, mode.target) {
                    bad.push(format!("{want}: {e}"));
                }
                (i.len as usize, fmt.display(&i).to_string())
            }
            Err(_) => (
                4,
                format!(
                    ".long {:#010x}",
                    u32::from_le_bytes(b[0..4].try_into().unwrap())
                ),
            ),
        };
        if got != (*len, want.clone()) {
            bad.push(format!(
                "llvm: ({len}) {want}\n    ours: ({}) {}",
                got.0, got.1
            ));
        }
    }
    assert!(decoded > 2500, "{name}: only {decoded} decoded");
    assert!(
        bad.is_empty(),
        "{name}: {} of {} differ:\n{}",
        bad.len(),
        cases.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

#[test]
fn random_dpp_and_sdwa_words_print_as_llvm_19_gfx1030() {
    check_random_fixture(
        "random-ext-gfx1030.tsv",
        Mode::wave32(Target::Gfx1030),
        None,
    );
}

#[test]
fn random_dpp_and_sdwa_words_print_as_llvm_19_gfx1013() {
    check_random_fixture(
        "random-ext-gfx1013.tsv",
        Mode::wave32(Target::Gfx1013),
        None,
    );
}

#[test]
fn random_dpp_and_sdwa_words_print_as_llvm_19_gfx1030_wave64() {
    check_random_fixture(
        "random-ext-gfx1030.tsv",
        Mode::wave64(Target::Gfx1030),
        Some("random-ext-gfx1030-w64.tsv"),
    );
}

// ------------------------------------------------------------ SDWA rules

/// `v_mov_b32_sdwa v10, v20` with the given second-dword controls.
fn sdwa_mov(dst_sel: u32, dst_unused: u32) -> Instruction {
    dec(&[
        0x7e14_02f9,
        20 | (dst_sel << 8) | (dst_unused << 11) | (6 << 16),
    ])
}

#[test]
fn sdwa_dst_sel_with_unused_preserve_is_a_partial_write() {
    let i = sdwa_mov(4, 2);
    assert_eq!(
        text(&i),
        "v_mov_b32_sdwa v10, v20 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD"
    );
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
}

#[test]
fn sdwa_dst_sel_with_unused_pad_or_sext_writes_all_32_bits() {
    for unused in [0, 1] {
        let i = sdwa_mov(1, unused);
        assert_eq!(i.operands[0].access, Access::WRITE, "{}", text(&i));
    }
}

#[test]
fn sdwa_dword_destination_keeps_the_e32_access() {
    // v_mov_b32: a full write whatever dst_unused says.
    assert_eq!(sdwa_mov(6, 2).operands[0].access, Access::WRITE);
    // v_add_f16_sdwa v10, v20, v30 dst_sel:DWORD: a 16-bit result keeps
    // the e32 form's partial write (conservative).
    let i = dec(&[0x6414_3cf9, 0x0606_0614]);
    assert_eq!(
        text(&i),
        "v_add_f16_sdwa v10, v20, v30 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD"
    );
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
    // ... and a 16-bit result placed in WORD_1 with zero padding writes
    // the whole register.
    let i = dec(&[0x6414_3cf9, 0x0606_0514]);
    assert_eq!(i.operands[0].access, Access::WRITE);
}

#[test]
fn sdwa_reserved_dst_unused_prints_as_llvm_does_and_counts_as_preserving() {
    let i = sdwa_mov(0, 3);
    assert_eq!(
        text(&i),
        "v_mov_b32_sdwa v10, v20 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:DWORD"
    );
    let Modifiers::Sdwa(m) = i.mods else { panic!() };
    assert_eq!(m.dst_unused, DstUnused::Reserved);
    assert!(i.operands[0].access.contains(Access::PARTIAL));
    // It round-trips (the value is kept).
    round_trips(
        &i,
        &dwords(&[0x7e14_02f9, 20 | (3 << 11) | (6 << 16)]),
        Target::Gfx1030,
    )
    .unwrap();
}

#[test]
fn sdwa_reserved_select_is_a_decode_error() {
    // LLVM 19 aborts on select 7 (the fixtures record `<crash>`).
    for d1 in [20 | (7 << 8) | (6 << 16), 20 | (6 << 8) | (7 << 16)] {
        assert!(decode(&dwords(&[0x7e14_02f9, d1]), Target::Gfx1030).is_err());
    }
}

#[test]
fn sdwa_selects_and_sext_are_source_modifiers() {
    // v_add_nc_u32_sdwa v10, sext(v20), v30 ... src0_sel:BYTE_1 src1_sel:WORD_1
    let i = dec(&[0x4a14_3cf9, 0x0509_0614 | (1 << 19)]);
    assert_eq!(
        text(&i),
        "v_add_nc_u32_sdwa v10, sext(v20), v30 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1"
    );
    assert_eq!(i.operands[1].mods, OpMods::SEXT);
    assert_eq!(i.operands[1].access, Access::READ);
    assert_eq!(i.operands[2].mods, OpMods::empty());
    let Modifiers::Sdwa(m) = i.mods else { panic!() };
    assert_eq!((m.src0_sel, m.src1_sel), (SdwaSel::Byte1, SdwaSel::Word1));
}

#[test]
fn sdwa_float_sources_take_neg_and_abs_and_scalar_sources() {
    // v_add_f32_sdwa v10, -|s20|, neg(0.5) ... clamp mul:2
    let d1 =
        20 | (1 << 23) | (3 << 20) | (1 << 28) | (1 << 31) | (1 << 13) | (1 << 14) | 0x0606_0600;
    let i = dec(&[0x0615_e0f9, d1]);
    assert_eq!(
        text(&i),
        "v_add_f32_sdwa v10, -|s20|, neg(0.5) clamp mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD"
    );
    assert_eq!(i.operands[1].op, Operand::sgpr(20));
    assert_eq!(i.operands[2].op, Operand::Inline(240));
    round_trips(&i, &dwords(&[0x0615_e0f9, d1]), Target::Gfx1030).unwrap();
}

#[test]
fn sdwa_vopc_writes_vcc_or_an_sgpr_mask_whole() {
    // v_cmp_lt_f32_sdwa vcc_lo, v20, v30 (SD = 0)
    let i = dec(&[0x7c02_3cf9, 0x0606_0014]);
    assert_eq!(
        text(&i),
        "v_cmp_lt_f32_sdwa vcc_lo, v20, v30 src0_sel:DWORD src1_sel:DWORD"
    );
    assert_eq!(
        i.operands[0].op,
        Operand::Reg {
            code: 106,
            count: 1
        }
    );
    assert_eq!(
        (i.operands[0].access, i.operands[0].ty),
        (Access::WRITE, ValType::Mask)
    );
    // SD = 1, sdst = s6; wave64: s[6:7].
    let w = [0x7c02_3cf9, 0x0606_8614];
    assert_eq!(
        text(&dec(&w)),
        "v_cmp_lt_f32_sdwa s6, v20, v30 src0_sel:DWORD src1_sel:DWORD"
    );
    let i = dec_mode(&w, Mode::wave64(Target::Gfx1030));
    assert_eq!(
        text(&i),
        "v_cmp_lt_f32_sdwa s[6:7], v20, v30 src0_sel:DWORD src1_sel:DWORD"
    );
    assert_eq!(i.operands[0].access, Access::WRITE);
    // SD = 1 with sdst = vcc_lo is vcc again (and re-encodes with SD = 0
    // under the don't-care mask).
    let w = [0x7c02_3cf9, 0x0606_ea14];
    let i = dec(&w);
    assert_eq!(
        i.operands[0].op,
        Operand::Reg {
            code: 106,
            count: 1
        }
    );
    round_trips(&i, &dwords(&w), Target::Gfx1030).unwrap();
}

#[test]
fn sdwa_vopc_wave64_sdst_pairs_round_down_and_reject_unpaired_registers() {
    let w64 = Mode::wave64(Target::Gfx1030);
    // sdst s7 → s[6:7]
    let i = dec_mode(&[0x7c02_3cf9, 0x0606_8714], w64);
    assert_eq!(i.operands[0].op, Operand::sgprs(6, 2));
    // vcc_hi, m0 and exec_hi have no 64-bit form.
    for code in [107u32, 124, 127] {
        let w = dwords(&[0x7c02_3cf9, 0x0606_8014 | (code << 8)]);
        assert!(decode(&w, w64).is_err(), "{code}");
        assert!(decode(&w, Target::Gfx1030).is_ok(), "{code}");
    }
}

#[test]
fn cmpx_sdwa_writes_exec_only() {
    // v_cmpx_lt_f32_sdwa v20, v30
    let i = dec(&[0x7c22_3cf9, 0x0606_0014]);
    assert_eq!(
        text(&i),
        "v_cmpx_lt_f32_sdwa v20, v30 src0_sel:DWORD src1_sel:DWORD"
    );
    assert!(i.defs().next().is_none());
    assert!(i.implicit().contains(Implicit::WRITE_EXEC));
}

// ------------------------------------------------------------ DPP rules

/// `v_add_f32_dpp v10, v20, v30` with the given DPP16 second dword.
fn dpp_add(d1: u32) -> Instruction {
    dec(&[0x0614_3cfa, d1 | 20])
}

#[test]
fn dpp16_full_masks_with_bound_ctrl_write_every_lane() {
    // quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
    let i = dpp_add(0xff08_b100);
    assert_eq!(
        text(&i),
        "v_add_f32_dpp v10, v20, v30 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1"
    );
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert!(i
        .implicit()
        .contains(Implicit::CROSS_LANE | Implicit::READ_EXEC));
}

#[test]
fn dpp16_disabled_rows_or_banks_leave_lanes_unwritten() {
    let rwp = Access::READ | Access::WRITE | Access::PARTIAL;
    // bank_mask:0x7
    assert_eq!(dpp_add(0xf708_e400).operands[0].access, rwp);
    // row_mask:0xe (row 0 off) in wave32 and wave64
    assert_eq!(dpp_add(0xef08_e400).operands[0].access, rwp);
    // row_mask:0x3 covers both rows of a wave32, not the four of a wave64.
    let w = [0x0614_3cfa, 0x3f08_e414];
    assert_eq!(dec(&w).operands[0].access, Access::WRITE);
    assert_eq!(
        dec_mode(&w, Mode::wave64(Target::Gfx1030)).operands[0].access,
        rwp
    );
}

#[test]
fn dpp16_without_bound_ctrl_is_partial_unless_fi_and_an_in_row_control() {
    let rwp = Access::READ | Access::WRITE | Access::PARTIAL;
    // No bound_ctrl, no fi: an inactive source lane disables the write.
    assert_eq!(dpp_add(0xff00_e400).operands[0].access, rwp);
    // fi with row_mirror: every source is in the row and fetched.
    let i = dpp_add(0xff05_4000);
    assert_eq!(
        text(&i),
        "v_add_f32_dpp v10, v20, v30 row_mirror row_mask:0xf bank_mask:0xf fi:1"
    );
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert_eq!(i.implicit() & Implicit::READ_EXEC, Implicit::empty());
    // fi with row_shr:1: lane 0 of each row has no source.
    assert_eq!(dpp_add(0xff05_1100).operands[0].access, rwp);
}

#[test]
fn dpp16_carry_out_is_partial_like_the_destination() {
    // v_add_co_ci_u32_dpp v10, vcc_lo, v20, v30, vcc_lo row_shl:1 (no bound_ctrl)
    let i = dec(&[0x5014_3cfa, 0xff01_0114]);
    assert_eq!(
        text(&i),
        "v_add_co_ci_u32_dpp v10, vcc_lo, v20, v30, vcc_lo row_shl:1 row_mask:0xf bank_mask:0xf"
    );
    let rwp = Access::READ | Access::WRITE | Access::PARTIAL;
    assert_eq!(i.operands[0].access, rwp);
    assert_eq!(i.operands[1].access, rwp);
    assert_eq!(i.operands[4].access, Access::READ);
}

#[test]
fn dpp16_controls_name_their_source_lanes() {
    let c = DppCtrl::from_raw;
    // quad_perm:[3,2,1,0]
    assert_eq!(c(0x1b).source_lane(5), Some(6));
    // row_shl:2 / row_shr:2 run out at the row edges.
    assert_eq!(c(0x102).source_lane(13), Some(15));
    assert_eq!(c(0x102).source_lane(14), None);
    assert_eq!(c(0x112).source_lane(17), None);
    assert_eq!(c(0x112).source_lane(18), Some(16));
    // row_ror:1 wraps.
    assert_eq!(c(0x121).source_lane(16), Some(31));
    assert_eq!(c(0x140).source_lane(17), Some(30)); // row_mirror
    assert_eq!(c(0x141).source_lane(9), Some(14)); // row_half_mirror
    assert_eq!(c(0x153).source_lane(20), Some(19)); // row_share:3
    assert_eq!(c(0x161).source_lane(20), Some(21)); // row_xmask:1
                                                    // gfx8/9 controls are not gfx10 ones.
    assert_eq!(c(0x130).source_lane(3), None);
    assert!(!c(0x142).is_gfx10());
    for raw in 0..512u16 {
        assert_eq!(c(raw).raw(), raw);
    }
}

#[test]
fn dpp16_source_modifiers_follow_the_instruction_type() {
    // v_ldexp_f16_dpp v10, -|v20|, sext(v30): src1 is an integer.
    let i = dec(&[0x7614_3cfa, 0xff70_e414]);
    assert_eq!(
        text(&i),
        "v_ldexp_f16_dpp v10, -|v20|, sext(v30) quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"
    );
    assert_eq!(i.operands[1].mods, OpMods::NEG | OpMods::ABS);
    assert_eq!(i.operands[2].mods, OpMods::SEXT);
    // Integer DPP16 sources reject neg/abs.
    assert!(decode(&dwords(&[0x4a14_3cfa, 0xff10_e414]), Target::Gfx1030).is_err());
}

#[test]
fn dpp8_reads_the_selected_lane_of_each_group_of_eight() {
    // v_mov_b32_dpp v10, v20 dpp8:[7,6,5,4,3,2,1,0]
    let i = dec(&[0x7e14_02e9, 0x0539_7714]);
    assert_eq!(text(&i), "v_mov_b32_dpp v10, v20 dpp8:[7,6,5,4,3,2,1,0]");
    let Modifiers::Dpp8(m) = i.mods else { panic!() };
    assert_eq!(m.source_lane(9), 14);
    assert_eq!(m, Dpp8Mods::from_raw(m.raw(), false));
    // Without fi an inactive source lane may leave the lane unwritten.
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
    assert!(i
        .implicit()
        .contains(Implicit::CROSS_LANE | Implicit::READ_EXEC));
    // fi:1 (marker 0xEA) fetches every source lane: a full write.
    let i = dec(&[0x7e14_02ea, 0x0539_7714]);
    assert_eq!(
        text(&i),
        "v_mov_b32_dpp v10, v20 dpp8:[7,6,5,4,3,2,1,0] fi:1"
    );
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert!(i.implicit().contains(Implicit::CROSS_LANE));
}

#[test]
fn dpp_marker_on_an_instruction_without_the_form_is_its_e32_form_or_invalid() {
    // v_nop ignores src0, so LLVM decodes 0x7e0000fa as a 4-byte v_nop.
    let i = dec(&[0x7e00_00fa, 0]);
    assert_eq!(
        (text(&i), i.len, i.family),
        ("v_nop".into(), 4, Family::Vop1)
    );
    // VOPC has no DPP on gfx10.
    let e = decode(&dwords(&[0x7c02_3cfa, 0xff00_e414]), Target::Gfx1030).unwrap_err();
    assert!(matches!(
        e.kind,
        isa::DecodeErrorKind::UnknownOpcode {
            family: Family::Dpp16,
            ..
        }
    ));
}

#[test]
fn mods_built_by_hand_encode_and_decode_back() {
    let mut i = dpp_add(0xff08_e400);
    i.mods = Modifiers::Dpp16(Dpp16Mods {
        ctrl: DppCtrl::RowShare(5),
        row_mask: 0xa,
        bank_mask: 0x3,
        bound_ctrl: false,
        fi: true,
    });
    let e = encode(&i, Target::Gfx1030).unwrap();
    let mut b = e.as_bytes().to_vec();
    b.extend_from_slice(&PAD.to_le_bytes());
    let j = decode(&b, Target::Gfx1030).unwrap();
    assert_eq!(j.mods, i.mods);
    assert_eq!(
        text(&j),
        "v_add_f32_dpp v10, v20, v30 row_share:5 row_mask:0xa bank_mask:0x3 fi:1"
    );
    // SDWA fields a form lacks cannot be encoded.
    let mut c = dec(&[0x7c02_3cf9, 0x0606_0014]);
    c.mods = Modifiers::Sdwa(SdwaMods {
        dst_sel: SdwaSel::Byte0,
        ..SdwaMods::default()
    });
    assert!(encode(&c, Target::Gfx1030).is_err());
}

// ------------------------------------------------------------ robustness

/// Random second dwords behind every marker and opcode: decoding, printing
/// and encoding never panic, whatever decodes re-encodes to the same bytes
/// under the don't-care mask, and truncated input is an error.
#[test]
fn random_dpp_and_sdwa_words_decode_print_and_reencode_without_panicking() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s as u32
    };
    let f = Formatter::new(Target::Gfx1030);
    let mut decoded = 0;
    for n in 0..120_000u32 {
        let marker = [0xfa, 0xe9, 0xea, 0xf9][(n % 4) as usize];
        let d0 = (next() & 0x7fff_fe00) | marker;
        let words = [d0, next(), next()];
        let bytes = dwords(&words);
        for target in Target::ALL {
            for mode in [Mode::wave32(target), Mode::wave64(target)] {
                let Ok(i) = decode(&bytes, mode) else {
                    continue;
                };
                decoded += 1;
                let mut out = String::new();
                f.write(&i, &mut out).unwrap();
                round_trips(&i, &bytes, target).unwrap_or_else(|e| panic!("{out}: {e}"));
                assert!(decode(&bytes[..i.len as usize - 1], mode).is_err());
            }
        }
    }
    assert!(decoded > 20_000, "only {decoded} decoded");
}
