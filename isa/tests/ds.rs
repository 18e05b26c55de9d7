//! DS semantics and quirks. Encodings come from the Mesa corpus or were
//! checked against llvm-objdump-19.

use isa::family::ds::{addr_offset, DsAddrOffset};
use isa::{decode, encode, Access, Formatter, Implicit, Instruction, Operand, Target};

/// Bytes as in the fixtures (hex, in memory order), padded with `s_nop 0`.
fn bytes(hex: &str) -> Vec<u8> {
    let mut b: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    b.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
    b
}

fn dec(hex: &str, t: Target) -> Result<Instruction, isa::DecodeError> {
    decode(&bytes(hex), t)
}

fn text(i: &Instruction) -> String {
    Formatter::new(Target::Gfx1030).display(i).to_string()
}

/// (bytes, LLVM text, operand widths in order, access of each operand).
const CASES: &[(&str, &str, &[u8], &[Access])] = &[
    (
        "0203dcd80500000b",
        "ds_read2_b32 v[11:12], v5 offset0:2 offset1:3",
        &[2, 1],
        &[Access::WRITE, Access::READ],
    ),
    (
        "0c00d8d80a00000b",
        "ds_read_b32 v11, v10 offset:12",
        &[1, 1],
        &[Access::WRITE, Access::READ],
    ),
    (
        "0000d8d901000005",
        "ds_read_b64 v[5:6], v1",
        &[2, 1],
        &[Access::WRITE, Access::READ],
    ),
    (
        "7f01dcd901000005",
        "ds_read2_b64 v[5:8], v1 offset0:127 offset1:1",
        &[4, 1],
        &[Access::WRITE, Access::READ],
    ),
    (
        "0000fcdb01000005",
        "ds_read_b128 v[5:8], v1",
        &[4, 1],
        &[Access::WRITE, Access::READ],
    ),
    (
        "020338d80b040200",
        "ds_write2_b32 v11, v4, v2 offset0:2 offset1:3",
        &[1, 1, 1],
        &[Access::READ, Access::READ, Access::READ],
    ),
    (
        "100078d8000b0000",
        "ds_write_b8 v0, v11 offset:16",
        &[1, 1],
        &[Access::READ, Access::READ],
    ),
    (
        "000000d800010000",
        "ds_add_u32 v0, v1",
        &[1, 1],
        &[Access::READ, Access::READ],
    ),
    (
        "0000c0d901020305",
        "ds_cmpst_rtn_b64 v[5:6], v1, v[2:3], v[3:4]",
        &[2, 1, 2, 2],
        &[Access::WRITE, Access::READ, Access::READ, Access::READ],
    ),
];

#[test]
fn operands_have_llvm_text_widths_and_roles() {
    for &(hex, want, widths, access) in CASES {
        let i = dec(hex, Target::Gfx1030).unwrap();
        assert_eq!(text(&i), want);
        let got_w: Vec<u8> = i
            .operands
            .iter()
            .map(|s| match s.op {
                Operand::Reg { count, .. } => count,
                _ => 0,
            })
            .collect();
        assert_eq!(got_w, widths, "{want}");
        let got_a: Vec<Access> = i.operands.iter().map(|s| s.access).collect();
        assert_eq!(got_a, access, "{want}");
        assert_eq!(i.implicit(), Implicit::LDS, "{want}");
        let e = encode(&i, Target::Gfx1030).unwrap();
        assert_eq!(e.as_bytes(), &bytes(hex)[..8], "{want}");
    }
}

#[test]
fn atomics_with_return_write_vdst_and_without_do_not() {
    let rtn = dec("0000c0d901020305", Target::Gfx1030).unwrap();
    assert_eq!(rtn.defs().count(), 1);
    let noret = dec("000000d800010000", Target::Gfx1030).unwrap();
    assert_eq!(noret.defs().count(), 0);
}

#[test]
fn d16_loads_write_half_of_vdst() {
    for (hex, want) in [
        ("100088da0900000b", "ds_read_u8_d16 v11, v9 offset:16"),
        ("00009cda01000005", "ds_read_u16_d16_hi v5, v1"),
    ] {
        let i = dec(hex, Target::Gfx1030).unwrap();
        assert_eq!(text(&i), want);
        assert_eq!(
            i.operands[0].access,
            Access::WRITE | Access::PARTIAL,
            "{want}"
        );
    }
    // A full-width load is not partial.
    let i = dec("1100e8d800000000", Target::Gfx1030).unwrap();
    assert_eq!(text(&i), "ds_read_u8 v0, v0 offset:17");
    assert_eq!(i.operands[0].access, Access::WRITE);
}

#[test]
fn two_address_offsets_scale_by_element_size_and_st64() {
    let cases = [
        ("0203dcd80500000b", DsAddrOffset::Pair(8, 12)),
        ("0203e0d80500000b", DsAddrOffset::Pair(2 * 256, 3 * 256)),
        ("0203dcd90500000a", DsAddrOffset::Pair(16, 24)),
        ("0203e0d90500000a", DsAddrOffset::Pair(2 * 512, 3 * 512)),
        ("000ed8d80b00000b", DsAddrOffset::Single(3584)),
    ];
    for (hex, want) in cases {
        let i = dec(hex, Target::Gfx1030).unwrap();
        assert_eq!(addr_offset(&i), Some(want), "{}", text(&i));
    }
}

#[test]
fn gds_bit_turns_lds_access_into_memory_reading_m0() {
    let i = dec("000002d800010000", Target::Gfx1030).unwrap();
    assert_eq!(text(&i), "ds_add_u32 v0, v1 gds");
    assert_eq!(i.implicit(), Implicit::MEMORY | Implicit::READ_M0);
}

#[test]
fn gws_and_ordered_count_always_use_gds() {
    let i = dec("341266d800000000", Target::Gfx1030).unwrap();
    assert_eq!(text(&i), "ds_gws_init v0 offset:4660 gds");
    assert_eq!(i.implicit(), Implicit::MEMORY | Implicit::READ_M0);
    assert_eq!(i.operands[0].access, Access::READ);
    // Without the gds bit LLVM rejects it.
    assert!(dec("341264d800000000", Target::Gfx1030).is_err());
    let i = dec("0400fed801000005", Target::Gfx1030).unwrap();
    assert_eq!(text(&i), "ds_ordered_count v5, v1 offset:4 gds");
    assert_eq!(i.implicit(), Implicit::MEMORY | Implicit::READ_M0);
}

#[test]
fn append_consume_and_addtid_read_m0() {
    for (hex, want) in [
        ("0400f8d800000005", "ds_append v5 offset:4"),
        ("0000c4da00000005", "ds_read_addtid_b32 v5"),
        ("0000c0da00050000", "ds_write_addtid_b32 v5"),
    ] {
        let i = dec(hex, Target::Gfx1030).unwrap();
        assert_eq!(text(&i), want);
        assert_eq!(i.implicit(), Implicit::LDS | Implicit::READ_M0, "{want}");
    }
}

#[test]
fn lane_shuffles_cross_lanes_without_touching_lds() {
    for (hex, want) in [
        ("0000ccda01020000", "ds_bpermute_b32 v0, v1, v2"),
        (
            "0400d4d801000005",
            "ds_swizzle_b32 v5, v1 offset:swizzle(BITMASK_PERM,\"00p00\")",
        ),
    ] {
        let i = dec(hex, Target::Gfx1030).unwrap();
        assert_eq!(text(&i), want);
        assert_eq!(i.implicit(), Implicit::CROSS_LANE, "{want}");
    }
}

#[test]
fn swizzle_patterns_print_like_llvm() {
    // The offset field of ds_swizzle_b32 v5, v1 and LLVM 19's text.
    for (off, want) in [
        (0x80e4u16, " offset:swizzle(QUAD_PERM,0,1,2,3)"),
        (0x041f, " offset:swizzle(SWAP,1)"),
        (0x1c1f, " offset:swizzle(REVERSE,8)"),
        (0x003c, " offset:swizzle(BROADCAST,4,1)"),
        (0x8100, " offset:33024"),
        (0xffff, " offset:65535"),
    ] {
        let [lo, hi] = off.to_le_bytes();
        let i = dec(&format!("{lo:02x}{hi:02x}d4d801000005"), Target::Gfx1030).unwrap();
        assert_eq!(text(&i), format!("ds_swizzle_b32 v5, v1{want}"));
    }
}

#[test]
fn nonzero_unused_field_is_rejected() {
    // ds_write_b32 v0, v1 with vdst = v1: LLVM prints `.long`.
    assert!(dec("000034d800010001", Target::Gfx1030).is_err());
    // ds_nop with an offset.
    assert!(dec("010050d800000000", Target::Gfx1030).is_err());
}

#[test]
fn register_range_past_v255_is_rejected() {
    assert!(dec("0000d8d9010000ff", Target::Gfx1030).is_err());
    assert!(dec("0000d8d9010000fe", Target::Gfx1030).is_ok());
}

#[test]
fn src2_opcodes_exist_only_on_gfx10_1() {
    let hex = "000000da01000000";
    assert_eq!(
        text(&dec(hex, Target::Gfx1013).unwrap()),
        "ds_add_src2_u32 v1"
    );
    assert!(dec(hex, Target::Gfx1030).is_err());
}
