//! MUBUF/MTBUF: semantics the analysis crates rely on (operand roles and
//! widths, addressing fields, bytes per lane, implicit accesses), and the
//! buffer instructions of the RADV corpus.

use isa::family::buf::{self, BufKind, BufMods};
use isa::{
    decode, encode, Access, Formatter, Implicit, Instruction, Modifiers, Operand, Target, ValType,
};

fn bytes(list: &str) -> Vec<u8> {
    list.split(',')
        .map(|b| {
            let b = b.trim();
            u8::from_str_radix(b.trim_start_matches("0x"), 16).expect(b)
        })
        .collect()
}

fn dec(list: &str) -> Instruction {
    let mut b = bytes(list);
    // pad with s_nop 0 as the fixtures do
    while b.len() < 20 {
        b.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
    }
    decode(&b, Target::Gfx1030).unwrap_or_else(|e| panic!("{list}: {e}"))
}

fn text(i: &Instruction) -> String {
    let mut s = String::new();
    Formatter::new(Target::Gfx1030).write(i, &mut s).unwrap();
    s
}

fn mods(i: &Instruction) -> BufMods {
    match i.mods {
        Modifiers::Buf(m) => m,
        other => panic!("not a buffer instruction: {other:?}"),
    }
}

/// (access, VGPR/SGPR count) of operand `k`.
fn role(i: &Instruction, k: usize) -> (Access, u8) {
    let s = i.operands[k];
    let n = match s.op {
        Operand::Reg { count, .. } => count,
        _ => 0,
    };
    (s.access, n)
}

const R: Access = Access::READ;
const W: Access = Access::WRITE;

/// (encoding, LLVM 19 text, vdata role or None, vaddr count, bytes per lane)
type Case = (
    &'static str,
    &'static str,
    Option<(Access, u8)>,
    u8,
    Option<u32>,
);

const CASES: &[Case] = &[
    (
        "0x10,0x20,0x38,0xe0,0x03,0x08,0x01,0x80",
        "buffer_load_dwordx4 v[8:11], v3, s[4:7], 0 idxen offset:16",
        Some((W, 4)),
        1,
        Some(16),
    ),
    (
        "0x00,0x20,0x3c,0xe0,0x02,0x02,0x05,0x80",
        "buffer_load_dwordx3 v[2:4], v2, s[20:23], 0 idxen",
        Some((W, 3)),
        1,
        Some(12),
    ),
    (
        "0x00,0x50,0x78,0xe0,0x00,0x01,0x04,0x80",
        "buffer_store_dwordx4 v[1:4], v0, s[16:19], 0 offen glc",
        Some((R, 4)),
        1,
        Some(16),
    ),
    (
        "0x00,0x20,0x38,0xe0,0x00,0x04,0x81,0x80",
        "buffer_load_dwordx4 v[4:8], v0, s[4:7], 0 idxen tfe",
        Some((W, 5)),
        1,
        Some(16),
    ),
    (
        "0x00,0x30,0x3a,0xea,0x01,0x04,0x22,0x80",
        "tbuffer_load_format_d16_xyz v[4:5], v[1:2], s[8:11], 0 format:[BUF_FMT_16_16_16_16_FLOAT] idxen offen",
        Some((W.union(Access::PARTIAL), 2)),
        2,
        Some(8),
    ),
    (
        "0x00,0x20,0x0c,0xe2,0x00,0x04,0x01,0x80",
        "buffer_load_format_d16_xyzw v[4:5], v0, s[4:7], 0 idxen",
        Some((W, 2)),
        1,
        None,
    ),
    (
        "0x00,0x10,0x94,0xe0,0x00,0x04,0x01,0x80",
        "buffer_load_short_d16_hi v4, v0, s[4:7], 0 offen",
        Some((W.union(Access::PARTIAL), 1)),
        1,
        Some(2),
    ),
    (
        "0x00,0x50,0xc8,0xe0,0x00,0x04,0x01,0x80",
        "buffer_atomic_add v4, v0, s[4:7], 0 offen glc",
        Some((R.union(W), 1)),
        1,
        Some(4),
    ),
    (
        "0x00,0x10,0xc8,0xe0,0x00,0x04,0x01,0x80",
        "buffer_atomic_add v4, v0, s[4:7], 0 offen",
        Some((R, 1)),
        1,
        Some(4),
    ),
    (
        "0x00,0x50,0xc4,0xe0,0x00,0x04,0x01,0x80",
        "buffer_atomic_cmpswap v[4:5], v0, s[4:7], 0 offen glc",
        Some((R.union(W).union(Access::PARTIAL), 2)),
        1,
        Some(4),
    ),
    (
        "0x00,0x10,0x44,0xe1,0x00,0x04,0x01,0x80",
        "buffer_atomic_cmpswap_x2 v[4:7], v0, s[4:7], 0 offen",
        Some((R, 4)),
        1,
        Some(8),
    ),
    (
        "0x00,0x10,0x31,0xe0,0x00,0x00,0x01,0x80",
        "buffer_load_dword v0, s[4:7], 0 offen lds",
        None,
        1,
        Some(4),
    ),
    (
        "0x00,0x00,0x20,0xe0,0x00,0x01,0x01,0xff,0x34,0x12,0x00,0x00",
        "buffer_load_ubyte v1, off, s[4:7], 0x1234",
        Some((W, 1)),
        0,
        Some(1),
    ),
    (
        "0x00,0x20,0x6b,0xea,0x00,0x04,0x01,0x80",
        "tbuffer_load_format_xyzw v[4:7], v0, s[4:7], 0 format:[BUF_FMT_32_32_32_32_FLOAT] idxen",
        Some((W, 4)),
        1,
        Some(16),
    ),
    (
        "0x0c,0x20,0x52,0xea,0x00,0x04,0x02,0x80",
        "tbuffer_load_format_xyz v[4:6], v0, s[8:11], 0 format:[BUF_FMT_32_32_32_FLOAT] idxen offset:12",
        Some((W, 3)),
        1,
        Some(12),
    ),
    (
        "0x04,0x20,0xb9,0xe8,0x01,0x04,0x02,0x02",
        "tbuffer_load_format_xy v[4:5], v1, s[8:11], s2 format:[BUF_FMT_16_16_UNORM] idxen offset:4",
        Some((W, 2)),
        1,
        Some(4),
    ),
    (
        "0x04,0x20,0x08,0xe8,0x01,0x04,0x02,0x80",
        "tbuffer_load_format_x v4, v1, s[8:11], 0 idxen offset:4",
        Some((W, 1)),
        1,
        Some(1),
    ),
];

#[test]
fn buffer_operands_have_the_roles_widths_and_bytes_analysis_relies_on() {
    for &(enc, want, vdata, naddr, nbytes) in CASES {
        let i = dec(enc);
        assert_eq!(text(&i), want, "{enc}");
        assert_eq!(i.len as usize, bytes(enc).len(), "{want}: length");
        let mut k = 0;
        if let Some(v) = vdata {
            assert_eq!(role(&i, 0), v, "{want}: vdata");
            assert_eq!(i.operands[0].ty, ValType::Data, "{want}");
            k = 1;
        }
        let vaddr = i.operands[k];
        assert_eq!(vaddr.access, R, "{want}: vaddr");
        match vaddr.op {
            Operand::Reg { count, .. } => assert_eq!(count, naddr, "{want}: vaddr"),
            Operand::Off => assert_eq!(naddr, 0, "{want}: vaddr"),
            other => panic!("{want}: vaddr {other:?}"),
        }
        assert_eq!(role(&i, k + 1), (R, 4), "{want}: srsrc is a 4-SGPR read");
        assert_eq!(i.operands[k + 2].access, R, "{want}: soffset");
        assert_eq!(i.operands.len(), k + 3, "{want}: operand count");
        assert_eq!(
            buf::access_bytes(i.opcode, &mods(&i)),
            nbytes,
            "{want}: bytes"
        );
        assert!(i.implicit().contains(Implicit::MEMORY), "{want}");
        let e = encode(&i, Target::Gfx1030).unwrap();
        assert_eq!(e.as_bytes(), &bytes(enc)[..], "{want}: round trip");
    }
}

#[test]
fn buffer_mods_expose_the_addressing_fields() {
    let i = dec("0x10,0x20,0x38,0xe0,0x03,0x08,0x01,0x80");
    let m = mods(&i);
    assert_eq!(
        (m.offset, m.idxen, m.offen, m.glc, m.slc, m.dlc, m.lds, m.tfe),
        (16, true, false, false, false, false, false, false)
    );
    let i = dec("0x00,0x30,0x3a,0xea,0x01,0x04,0x22,0x80");
    let m = mods(&i);
    assert!(m.idxen && m.offen);
    assert_eq!(m.format, 71);
    assert_eq!(
        buf::format_name(m.format),
        Some("BUF_FMT_16_16_16_16_FLOAT")
    );
}

#[test]
fn lds_loads_write_lds_at_m0_and_no_vgprs() {
    let i = dec("0x00,0x10,0x31,0xe0,0x00,0x00,0x01,0x80");
    assert!(i.defs().next().is_none());
    assert_eq!(
        i.implicit(),
        Implicit::MEMORY | Implicit::LDS | Implicit::READ_M0
    );
    let a = buf::access(i.opcode, &mods(&i)).unwrap();
    assert!(a.to_lds && !a.returns && a.kind == BufKind::Load);
}

#[test]
fn atomics_return_data_only_with_glc() {
    let with = dec("0x00,0x50,0xc8,0xe0,0x00,0x04,0x01,0x80");
    let without = dec("0x00,0x10,0xc8,0xe0,0x00,0x04,0x01,0x80");
    assert!(buf::access(with.opcode, &mods(&with)).unwrap().returns);
    assert!(
        !buf::access(without.opcode, &mods(&without))
            .unwrap()
            .returns
    );
    assert_eq!(with.defs().count(), 1);
    assert_eq!(without.defs().count(), 0);
}

#[test]
fn format_loads_without_a_format_field_report_the_bound_only() {
    let i = dec("0x00,0x20,0x0c,0xe2,0x00,0x04,0x01,0x80");
    let a = buf::access(i.opcode, &mods(&i)).unwrap();
    assert_eq!((a.bytes, a.max_bytes), (None, 16));
    // MTBUF reserved formats have no size either.
    assert_eq!(buf::format_bytes(78), None);
    assert_eq!(buf::format_bytes(0), None);
    assert_eq!(buf::format_bytes(1), Some(1));
    assert_eq!(buf::format_bytes(77), Some(16));
}

#[test]
fn the_default_mtbuf_format_is_not_printed() {
    // format 1 (BUF_FMT_8_UNORM) is omitted, 78 printed as a number.
    assert_eq!(
        text(&dec("0x04,0x20,0x08,0xe8,0x01,0x04,0x02,0x80")),
        "tbuffer_load_format_x v4, v1, s[8:11], 0 idxen offset:4"
    );
    assert_eq!(
        text(&dec("0x00,0x00,0x73,0xea,0x00,0x00,0x00,0x80")),
        "tbuffer_load_format_xyzw v[0:3], off, s[0:3], 0 format:78"
    );
}

#[test]
fn tfe_is_invalid_on_every_mtbuf_instruction() {
    let mut b = bytes("0x00,0x20,0x6b,0xea,0x00,0x04,0x81,0x80");
    b.extend_from_slice(&[0; 12]);
    assert!(decode(&b, Target::Gfx1030).is_err());
}

#[test]
fn cache_invalidations_have_no_operands_and_ignore_slc() {
    let i = dec("0x00,0x00,0xc4,0xe1,0x00,0x00,0x40,0x00");
    assert_eq!(text(&i), "buffer_gl0_inv");
    assert!(i.operands.is_empty());
    assert_eq!(
        buf::access(i.opcode, &mods(&i)).unwrap().kind,
        BufKind::Invalidate
    );
}

#[test]
fn buffer_atomic_csub_is_gfx103_only() {
    let mut b = bytes("0x00,0x40,0xd0,0xe0,0x00,0x05,0x02,0x03");
    b.extend_from_slice(&[0; 12]);
    assert!(decode(&b, Target::Gfx1030).is_ok());
    assert!(decode(&b, Target::Gfx1013).is_err());
}

/// Every buffer instruction in the RADV corpus decodes, prints as LLVM 19
/// printed it, and encodes back to the same bytes.
#[test]
fn corpus_buffer_instructions_decode_print_and_round_trip() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/radv");
    let mut seen = 0;
    for entry in std::fs::read_dir(root).unwrap() {
        let p = entry.unwrap().path().join("llvm19_disasm.txt");
        let Ok(src) = std::fs::read_to_string(&p) else {
            continue;
        };
        for l in src.lines() {
            let l = l.trim();
            if !(l.starts_with("buffer_") || l.starts_with("tbuffer_")) {
                continue;
            }
            let Some((want, enc)) = l.split_once(" ; encoding: [") else {
                continue;
            };
            let enc = enc.trim_end_matches(']');
            let i = dec(enc);
            assert_eq!(text(&i), want.trim(), "{}", p.display());
            let e = encode(&i, Target::Gfx1030).unwrap();
            assert_eq!(e.as_bytes(), &bytes(enc)[..], "{want}");
            seen += 1;
        }
    }
    assert!(seen > 0, "no buffer instructions found in the corpus");
}
