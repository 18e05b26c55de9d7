//! Scalar families (SOP1/SOP2/SOPK/SOPC/SOPP and SMEM): the generator's
//! recorded LLVM answers as a second conformance set (every target,
//! including gfx1010), and named tests for the rules that are easy to get
//! wrong.

use isa::family::smem::SmemAddress;
use isa::{decode, Access, Family, Formatter, Implicit, Instruction, Opcode, Operand, Target};

const PAD: u32 = 0xbf80_0000;

fn pad(mut b: Vec<u8>) -> Vec<u8> {
    while b.len() < 20 || !b.len().is_multiple_of(4) {
        if !b.len().is_multiple_of(4) {
            b.push(0);
        } else {
            b.extend_from_slice(&PAD.to_le_bytes());
        }
    }
    b
}

fn bytes_of(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&hex[j..j + 2], 16).unwrap())
        .collect()
}

fn dwords(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn text(bytes: &[u8], target: Target) -> (usize, String) {
    let padded = pad(bytes.to_vec());
    let f = Formatter::new(target);
    match decode(&padded, target) {
        Ok(i) => {
            let mut s = String::new();
            f.write(&i, &mut s).unwrap();
            (i.len as usize, s)
        }
        Err(_) => {
            let mut s = String::new();
            let d0 = u32::from_le_bytes(padded[0..4].try_into().unwrap());
            f.write_invalid(d0, &mut s).unwrap();
            (4, s)
        }
    }
}

fn inst(words: &[u32], target: Target) -> Instruction {
    decode(&pad(dwords(words)), target).unwrap()
}

/// Every answer the generator recorded for `family` prints identically.
fn recording_prints_identically(family: &str) {
    let path = format!("{}/gen/oracle/{family}.tsv", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let mut bad = Vec::new();
    let mut n = 0;
    for l in src.lines() {
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        let f: Vec<&str> = l.splitn(4, '\t').collect();
        if f[3] == "<crash>" {
            continue;
        }
        let target: Target = f[0].parse().unwrap();
        let want_len: usize = f[2].parse().unwrap();
        let got = text(&bytes_of(f[1]), target);
        n += 1;
        if got != (want_len, f[3].to_string()) {
            bad.push(format!(
                "{} {}\n    llvm: ({want_len}) {}\n    ours: ({}) {}",
                f[0], f[1], f[3], got.0, got.1
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{}/{n} recorded {family} probes differ:\n{}",
        bad.len(),
        bad.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn recorded_sop_probes_print_identically_on_every_target() {
    recording_prints_identically("sop");
}

#[test]
fn recorded_smem_probes_print_identically_on_every_target() {
    recording_prints_identically("smem");
}

// ---------------------------------------------------------------- SOPP/SOPK

#[test]
fn operandless_sopp_decodes_only_with_a_zero_immediate() {
    // s_barrier with simm16 = 0 and = 1.
    assert_eq!(
        text(&dwords(&[0xbf8a_0000]), Target::Gfx1030).1,
        "s_barrier"
    );
    assert_eq!(
        text(&dwords(&[0xbf8a_0001]), Target::Gfx1030).1,
        ".long 0xbf8a0001"
    );
    assert_eq!(
        text(&dwords(&[0xbf9f_0000]), Target::Gfx1030).1,
        "s_code_end"
    );
}

#[test]
fn depctr_has_hold_cnt_only_on_gfx1030() {
    let w = dwords(&[0xbfa3_0000]);
    assert_eq!(
        text(&w, Target::Gfx1013).1,
        "s_waitcnt_depctr depctr_sa_sdst(0) depctr_va_vdst(0) depctr_va_sdst(0) depctr_va_ssrc(0) depctr_va_vcc(0) depctr_vm_vsrc(0)"
    );
    assert_eq!(
        text(&w, Target::Gfx1030).1,
        "s_waitcnt_depctr depctr_hold_cnt(0) depctr_sa_sdst(0) depctr_va_vdst(0) depctr_va_sdst(0) depctr_va_ssrc(0) depctr_va_vcc(0) depctr_vm_vsrc(0)"
    );
    // Bit 7 is a counter on gfx1030 only: elsewhere the value prints raw.
    let w = dwords(&[0xbfa3_ff9f]);
    assert_eq!(text(&w, Target::Gfx1013).1, "s_waitcnt_depctr 0xff9f");
}

#[test]
fn hwreg_names_depend_on_the_target() {
    // id 22 is XNACK_MASK before gfx10.3, id 29 SHADER_CYCLES from gfx10.3.
    let xnack = dwords(&[0xb902_f816]);
    assert_eq!(
        text(&xnack, Target::Gfx1013).1,
        "s_getreg_b32 s2, hwreg(HW_REG_XNACK_MASK)"
    );
    assert_eq!(
        text(&xnack, Target::Gfx1030).1,
        "s_getreg_b32 s2, hwreg(22)"
    );
    let cycles = dwords(&[0xb902_f81d]);
    assert_eq!(
        text(&cycles, Target::Gfx1030).1,
        "s_getreg_b32 s2, hwreg(HW_REG_SHADER_CYCLES)"
    );
    assert_eq!(
        text(&cycles, Target::Gfx1013).1,
        "s_getreg_b32 s2, hwreg(29)"
    );
}

#[test]
fn literal_equal_to_an_inline_float_prints_as_the_float() {
    assert_eq!(
        text(&dwords(&[0xbe80_03ff, 0x3f80_0000]), Target::Gfx1030).1,
        "s_mov_b32 s0, 1.0"
    );
    assert_eq!(
        text(&dwords(&[0xbe80_03ff, 0xffff_fff0]), Target::Gfx1030).1,
        "s_mov_b32 s0, -16"
    );
    // In a 64-bit operand the literal is zero-extended: no float, no sign.
    assert_eq!(
        text(&dwords(&[0xbe80_04ff, 0x3f80_0000]), Target::Gfx1030).1,
        "s_mov_b64 s[0:1], 0x3f800000"
    );
    assert_eq!(
        text(&dwords(&[0xba80_0000, 0x3f80_0000]), Target::Gfx1030).1,
        "s_setreg_imm32_b32 hwreg(0, 0, 1), 1.0"
    );
}

#[test]
fn branch_offsets_print_unsigned_but_decode_signed() {
    let i = inst(&[0xbf82_fffe], Target::Gfx1030);
    assert_eq!(i.opcode, Opcode::S_BRANCH);
    assert_eq!(i.operands[0].op, Operand::Imm(-2));
    assert!(i.implicit().contains(Implicit::BRANCH));
    assert_eq!(
        text(&dwords(&[0xbf82_fffe]), Target::Gfx1030).1,
        "s_branch 65534"
    );
}

#[test]
fn sopk_immediates_are_signed_only_for_signed_operations() {
    let movk = inst(&[0xb009_8000], Target::Gfx1030);
    assert_eq!(movk.operands[1].op, Operand::Imm(-32768));
    let cmpk_u = inst(&[0xb489_8000], Target::Gfx1030);
    assert_eq!(cmpk_u.opcode, Opcode::S_CMPK_EQ_U32);
    assert_eq!(cmpk_u.operands[1].op, Operand::Imm(0x8000));
}

// ------------------------------------------------------- SOP semantics

fn access_of(i: &Instruction, k: usize) -> Access {
    i.operands[k].access
}

#[test]
fn conditional_and_in_place_scalar_writes_also_read_the_destination() {
    // s_cmov_b32 s0, s1 keeps s0 when SCC = 0.
    let cmov = inst(&[0xbe80_0501], Target::Gfx1030);
    assert_eq!(cmov.opcode, Opcode::S_CMOV_B32);
    assert_eq!(access_of(&cmov, 0), Access::READ | Access::WRITE);
    assert!(cmov.implicit().contains(Implicit::READ_SCC));
    // s_addk_i32 s0, 1: s0 += 1.
    let addk = inst(&[0xb780_0001], Target::Gfx1030);
    assert_eq!(addk.opcode, Opcode::S_ADDK_I32);
    assert_eq!(access_of(&addk, 0), Access::READ | Access::WRITE);
    assert!(addk.implicit().contains(Implicit::WRITE_SCC));
    // s_cmpk_eq_u32 s0, 1 only reads s0.
    let cmpk = inst(&[0xb480_0001], Target::Gfx1030);
    assert_eq!(access_of(&cmpk, 0), Access::READ);
}

#[test]
fn saveexec_reads_and_writes_exec_and_scc() {
    // s_and_saveexec_b64 s[0:1], s[2:3]
    let i = inst(&[0xbe80_2402], Target::Gfx1030);
    assert_eq!(i.opcode, Opcode::S_AND_SAVEEXEC_B64);
    let imp = i.implicit();
    assert!(imp.contains(Implicit::READ_EXEC | Implicit::WRITE_EXEC | Implicit::WRITE_SCC));
    assert_eq!(access_of(&i, 0), Access::WRITE);
}

#[test]
fn movreld_destination_is_a_partial_write() {
    // s_movreld_b32 s0, s1 writes s[0 + M0].
    let i = inst(&[0xbe80_3001], Target::Gfx1030);
    assert_eq!(i.opcode, Opcode::S_MOVRELD_B32);
    assert!(access_of(&i, 0).contains(Access::WRITE | Access::PARTIAL));
    assert!(i.implicit().contains(Implicit::READ_M0));
}

#[test]
fn program_end_markers_end_the_program() {
    for w in [0xbf81_0000u32, 0xbf9f_0000, 0xbf9b_0000] {
        assert!(inst(&[w], Target::Gfx1030)
            .implicit()
            .contains(Implicit::END));
    }
}

#[test]
fn sendmsg_reads_m0_and_exec() {
    let i = inst(&[0xbf90_0009], Target::Gfx1030);
    assert!(i
        .implicit()
        .contains(Implicit::READ_M0 | Implicit::READ_EXEC));
}

#[test]
fn subvector_loops_read_and_write_exec() {
    let i = inst(&[0xbd80_0004], Target::Gfx1030);
    assert_eq!(i.opcode, Opcode::S_SUBVECTOR_LOOP_BEGIN);
    let imp = i.implicit();
    assert!(imp.contains(Implicit::READ_EXEC | Implicit::WRITE_EXEC | Implicit::BRANCH));
    assert_eq!(access_of(&i, 0), Access::READ | Access::WRITE);
}

// ---------------------------------------------------------------- SMEM

#[test]
fn smem_load_defines_its_whole_destination_and_reads_its_base() {
    // s_load_dwordx4 s[4:7], s[8:9], null (from the RADV corpus).
    let i = inst(&[0xf408_0104, 0xfa00_0000], Target::Gfx1030);
    assert_eq!(i.family, Family::Smem);
    assert_eq!(i.opcode, Opcode::S_LOAD_DWORDX4);
    assert_eq!(i.operands[0].op, Operand::sgprs(4, 4));
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert_eq!(i.operands[1].op, Operand::sgprs(8, 2));
    assert_eq!(i.operands[1].access, Access::READ);
    assert!(i.implicit().contains(Implicit::MEMORY));
    assert_eq!(
        text(&dwords(&[0xf408_0104, 0xfa00_0000]), Target::Gfx1030).1,
        "s_load_dwordx4 s[4:7], s[8:9], null"
    );
}

#[test]
fn smem_address_gives_base_sgpr_offset_and_immediate_offset() {
    // s_buffer_load_dwordx4 s[4:7], s[0:3], 0x30
    let i = inst(&[0xf428_0100, 0xfa00_0030], Target::Gfx1030);
    let a = SmemAddress::of(&i).unwrap();
    assert_eq!(a.base, Operand::sgprs(0, 4));
    assert_eq!(a.soffset, None);
    assert_eq!(a.offset, 0x30);
    assert_eq!(
        text(&dwords(&[0xf428_0100, 0xfa00_0030]), Target::Gfx1030).1,
        "s_buffer_load_dwordx4 s[4:7], s[0:3], 0x30"
    );
    // s_load_dword s5, s[2:3], s7 offset:-0x10
    let i = inst(&[0xf400_0141, 0x0e1f_fff0], Target::Gfx1030);
    let a = SmemAddress::of(&i).unwrap();
    assert_eq!(a.base, Operand::sgprs(2, 2));
    assert_eq!(a.soffset, Some(Operand::sgpr(7)));
    assert_eq!(a.offset, -0x10);
    assert_eq!(
        text(&dwords(&[0xf400_0141, 0x0e1f_fff0]), Target::Gfx1030).1,
        "s_load_dword s5, s[2:3], s7 offset:-0x10"
    );
    // No address for s_memtime.
    assert!(SmemAddress::of(&inst(&[0xf490_0280, 0], Target::Gfx1030)).is_none());
}

#[test]
fn smem_atomic_with_glc_returns_into_the_low_half_of_its_data() {
    // s_atomic_cmpswap s[10:11], s[20:21], s30 glc (gfx10.1 only)
    let i = inst(&[0xf605_028a, 0x3c00_0000], Target::Gfx1013);
    assert_eq!(i.opcode, Opcode::S_ATOMIC_CMPSWAP);
    assert_eq!(
        i.operands[0].access,
        Access::READ | Access::WRITE | Access::PARTIAL
    );
    // Without glc nothing is returned.
    let i = inst(&[0xf604_028a, 0x3c00_0000], Target::Gfx1013);
    assert_eq!(i.operands[0].access, Access::READ);
    // A returning swap overwrites its whole data register.
    let i = inst(&[0xf601_028a, 0x3c00_0000], Target::Gfx1013);
    assert_eq!(i.operands[0].access, Access::READ | Access::WRITE);
}

#[test]
fn smem_stores_and_atomics_do_not_exist_on_gfx1030() {
    let store = dwords(&[0xf440_028a, 0x3c00_1234]);
    assert_eq!(text(&store, Target::Gfx1030).1, ".long 0xf440028a");
    assert_eq!(
        text(&store, Target::Gfx1013).1,
        "s_store_dword s10, s[20:21], s30 offset:0x1234"
    );
    let i = inst(&[0xf440_028a, 0x3c00_1234], Target::Gfx1013);
    assert_eq!(i.operands[0].access, Access::READ);
    assert!(i.implicit().contains(Implicit::MEMORY));
}

#[test]
fn smem_misaligned_register_tuples_round_down_as_llvm_prints_them() {
    // sdata field 10 for a 4-dword load is s[8:11].
    assert_eq!(
        text(&dwords(&[0xf408_028a, 0x3c00_1234]), Target::Gfx1030).1,
        "s_load_dwordx4 s[8:11], s[20:21], s30 offset:0x1234"
    );
    // A buffer descriptor in exec is not a valid 128-bit register.
    assert_eq!(
        text(&dwords(&[0xf420_1f7f, 0xfa1f_ffff]), Target::Gfx1030).1,
        "s_buffer_load_dword null, exec/*Invalid register, operand has 'SReg_128' register class*/, -0x1"
    );
}

// ---------------------------------------------------------------- corpus

/// Every scalar instruction of the RADV corpus (`corpus/radv/*`, disassembled
/// by llvm-mc-19 with encodings) decodes to the same text and re-encodes to
/// the same bytes.
#[test]
fn corpus_scalar_instructions_print_and_round_trip() {
    let root = format!("{}/../corpus/radv", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path().join("llvm19_disasm.txt");
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
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
            let fam = isa::classify(d0).unwrap();
            if !matches!(
                fam,
                Family::Sop1
                    | Family::Sop2
                    | Family::Sopk
                    | Family::Sopc
                    | Family::Sopp
                    | Family::Smem
            ) {
                continue;
            }
            seen += 1;
            let target = Target::Gfx1030;
            let (len, got) = text(&bytes, target);
            if len != bytes.len() || got != want {
                bad.push(format!("{want}: ours ({len}) {got}"));
                continue;
            }
            let i = decode(&bytes, target).unwrap();
            let e = isa::encode(&i, target).unwrap();
            if e.as_bytes() != bytes.as_slice() {
                bad.push(format!("{want}: re-encoded as {:02x?}", e.as_bytes()));
            }
        }
    }
    assert!(
        seen > 500,
        "only {seen} scalar instructions found under {root}"
    );
    assert!(
        bad.is_empty(),
        "{} of {seen} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

// ------------------------------------------------------------ robustness

/// Random words with every scalar family's prefix: decoding, printing and
/// encoding never panic, and whatever decodes re-encodes to the same bytes
/// under the don't-care mask, with the same length.
#[test]
fn random_scalar_words_decode_print_and_reencode_without_panicking() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s as u32
    };
    // (prefix, prefix mask) of SOP2/SOPK (0b10..), SOP1, SOPC, SOPP, SMEM.
    let prefixes = [
        (0x8000_0000u32, 0xc000_0000u32),
        (0xbe80_0000, 0xff80_0000),
        (0xbf00_0000, 0xff80_0000),
        (0xbf80_0000, 0xff80_0000),
        (0xf400_0000, 0xfc00_0000),
    ];
    let f = Formatter::new(Target::Gfx1030);
    let mut decoded = 0;
    for n in 0..200_000u32 {
        let (p, m) = prefixes[(n % 5) as usize];
        let words = [(next() & !m) | p, next(), next()];
        for target in Target::ALL {
            let bytes = dwords(&words);
            let Ok(i) = decode(&bytes, target) else {
                continue;
            };
            decoded += 1;
            let mut out = String::new();
            f.write(&i, &mut out).unwrap();
            let e = isa::encode(&i, target).unwrap();
            assert_eq!(e.len(), i.len as usize, "{out}");
            let mask = isa::dont_care_mask(&i, target);
            for k in 0..e.len() / 4 {
                let a = words[k] & !mask[k];
                let b = u32::from_le_bytes(e.as_bytes()[k * 4..k * 4 + 4].try_into().unwrap());
                assert_eq!(a, b & !mask[k], "{out}: dword {k}");
            }
            // Truncated input is an error, not a panic.
            let _ = decode(&bytes[..i.len as usize - 1], target);
        }
    }
    assert!(decoded > 100_000, "only {decoded} decoded");
}
