//! LLVM 19's known disassembler faults, and what shaderlift does about each.
//! These are deliberate choices; the words come from the oracle runs that
//! found them (see `tests/fixtures/deviations.tsv` for fixture lines).

use isa::{decode, dont_care_mask, encode, DecodeErrorKind, Family, Formatter, Target};

fn bytes(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// llvm-objdump-19 aborts on SDWA words with a reserved select (7) on f16
/// operations. We cannot match a crash, so we reject the word with a reason
/// and the listing prints it as `.long`, like any other invalid word.
#[test]
fn sdwa_f16_word_that_crashes_llvm_is_a_decode_error() {
    let e = decode(&bytes(&[0x6402_04f9, 0x0607_0603]), Target::Gfx1030).unwrap_err();
    assert_eq!(e.offset, 0);
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::InvalidField {
                family: Family::Sdwa,
                ..
            }
        ),
        "{e}"
    );
    // The same word with a valid select decodes (the control).
    let i = decode(&bytes(&[0x6402_04f9, 0x0606_0603]), Target::Gfx1030).unwrap();
    assert_eq!(
        Formatter::new(Target::Gfx1030).display(&i).to_string(),
        "v_add_f16_sdwa v1, v3, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD"
    );
}

/// LLVM prints a 64-bit SGPR operand with an odd register rounded down
/// (`s[10:11]` for 11) and warns. The hardware also ignores the low bit, so
/// we follow LLVM: the operand is the even pair, and the low bit is a
/// don't-care bit of the encoding.
#[test]
fn misaligned_sgpr_pair_is_rounded_down_like_llvm_and_the_hardware() {
    let word: u32 = 0x878b_1e14; // s_and_b64 with sdst = 11, ssrc0 = 20, ssrc1 = 30
    let i = decode(&word.to_le_bytes(), Target::Gfx1030).unwrap();
    assert_eq!(
        Formatter::new(Target::Gfx1030).display(&i).to_string(),
        "s_and_b64 s[10:11], s[20:21], s[30:31]"
    );
    let e = encode(&i, Target::Gfx1030).unwrap();
    let got = u32::from_le_bytes(e.as_bytes()[..4].try_into().unwrap());
    let mask = dont_care_mask(&i, Target::Gfx1030)[0];
    assert_eq!(got & !mask, word & !mask);
    assert_ne!(
        mask & (1 << 16),
        0,
        "the low bit of sdst is a don't-care bit"
    );
}

/// LLVM 19 rejects every MTBUF (`tbuffer_*`) word with `tfe` set, though
/// the hardware defines it. We follow LLVM, so listings stay identical; the
/// same word without `tfe` decodes (the control).
#[test]
fn tbuffer_with_tfe_is_invalid_as_in_llvm() {
    let e = decode(&bytes(&[0xe8e0_bbff, 0x0080_0203]), Target::Gfx1030).unwrap_err();
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::InvalidField { .. } | DecodeErrorKind::UnknownOpcode { .. }
        ),
        "{e}"
    );
    let i = decode(&bytes(&[0xe8e0_bbff, 0x0000_0203]), Target::Gfx1030).unwrap();
    assert_eq!(i.family, Family::Mtbuf);
}
