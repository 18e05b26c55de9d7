//! MIMG: operand roles and widths (vdata from dmask/d16/tfe, vaddr from
//! the opcode, dim and a16, NSA address lists), descriptor widths, and the
//! places where the hardware's widths differ from what LLVM prints.

use isa::family::mimg::{self, MimgKind, MimgMods};
use isa::{decode, encode, Access, Formatter, Implicit, Instruction, Modifiers, Operand, Target};

fn bytes(list: &str) -> Vec<u8> {
    list.split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect(b))
        .collect()
}

fn dec_on(list: &str, target: Target) -> Instruction {
    let mut b = bytes(list);
    while b.len() < 20 {
        b.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
    }
    decode(&b, target).unwrap_or_else(|e| panic!("{list}: {e}"))
}

fn text_on(i: &Instruction, target: Target) -> String {
    let mut s = String::new();
    Formatter::new(target).write(i, &mut s).unwrap();
    s
}

fn mods(i: &Instruction) -> MimgMods {
    match i.mods {
        Modifiers::Mimg(m) => m,
        other => panic!("not MIMG: {other:?}"),
    }
}

/// (access, register count) of every operand.
fn roles(i: &Instruction) -> Vec<(Access, u8)> {
    i.operands
        .iter()
        .map(|s| match s.op {
            Operand::Reg { count, .. } => (s.access, count),
            _ => (s.access, 0),
        })
        .collect()
}

const R: Access = Access::READ;
const W: Access = Access::WRITE;
const P: Access = Access::PARTIAL;
const NONE: Access = Access::empty();

type Case = (&'static str, &'static str, &'static [(Access, u8)]);

/// (encoding, LLVM 19 text, roles of vdata, addresses, srsrc[, ssamp]).
const CASES: &[Case] = &[
    (
        "0x08,0x0f,0x80,0xf0,0x04,0x00,0x82,0x00",
        "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &[(W, 4), (R, 2), (R, 8), (R, 4)],
    ),
    (
        "0x08,0x07,0x80,0xf0,0x04,0x00,0x82,0x80",
        "image_sample v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D d16",
        &[(W.union(P), 2), (R, 2), (R, 8), (R, 4)],
    ),
    (
        "0x00,0x01,0x01,0xf0,0x04,0x00,0x02,0x00",
        "image_load v[0:1], v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D tfe",
        &[(W, 2), (R, 1), (R, 8)],
    ),
    (
        "0x00,0x81,0x00,0xf0,0x04,0x00,0x02,0x00",
        "image_load v0, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D r128",
        &[(W, 1), (R, 1), (R, 4)],
    ),
    (
        "0x12,0x0f,0x00,0xf0,0x04,0x00,0x02,0x00,0x09,0x02,0x00,0x00",
        "image_load v[0:3], [v4, v9, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D",
        &[(W, 4), (R, 1), (R, 1), (R, 1), (R, 8)],
    ),
    (
        "0x08,0x0f,0x20,0xf0,0x04,0x00,0x02,0x00",
        "image_store v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &[(R, 4), (R, 2), (R, 8)],
    ),
    (
        "0x08,0x21,0x44,0xf0,0x04,0x00,0x02,0x00",
        "image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D glc",
        &[(R.union(W), 1), (R, 2), (R, 8)],
    ),
    (
        "0x08,0x23,0x40,0xf0,0x04,0x00,0x02,0x00",
        "image_atomic_cmpswap v[0:1], v[4:5], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D glc",
        &[(R.union(W).union(P), 2), (R, 2), (R, 8)],
    ),
    (
        "0x08,0x03,0x40,0xf0,0x04,0x00,0x02,0x00",
        "image_atomic_cmpswap v[0:1], v[4:5], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D",
        &[(R, 2), (R, 2), (R, 8)],
    ),
    (
        "0x08,0x01,0x00,0xf1,0x04,0x00,0x82,0x00",
        "image_gather4 v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &[(W, 4), (R, 2), (R, 8), (R, 4)],
    ),
    (
        "0x08,0x01,0x00,0xf1,0x04,0x00,0x82,0x80",
        "image_gather4 v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D d16",
        &[(W, 2), (R, 2), (R, 8), (R, 4)],
    ),
    (
        "0x08,0x0f,0x38,0xf0,0x04,0x00,0x02,0x00",
        "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &[(W, 4), (R, 1), (R, 8)],
    ),
    (
        "0x0c,0x0f,0xe8,0xf0,0x04,0x00,0x82,0x00,0x01,0x07,0x08,0x09,0x0a,0x0b,0x0c,0x00",
        "image_sample_c_d_o  v[0:3], [v4, v1, v7, v8, v9, v10, v11, v12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &[
            (W, 4),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 1),
            (R, 8),
            (R, 4),
        ],
    ),
];

#[test]
fn image_operands_have_hardware_roles_and_widths() {
    for &(enc, want, r) in CASES {
        let i = dec_on(enc, Target::Gfx1030);
        assert_eq!(text_on(&i, Target::Gfx1030), want, "{enc}");
        assert_eq!(i.len as usize, bytes(enc).len(), "{want}: length");
        assert_eq!(roles(&i), r, "{want}");
        let e = encode(&i, Target::Gfx1030).unwrap();
        assert_eq!(e.as_bytes(), &bytes(enc)[..], "{want}: round trip");
    }
}

#[test]
fn ray_tracing_reads_its_fixed_address_count_and_a_128_bit_descriptor() {
    let cases: &[(&str, &str, usize, usize)] = &[
        (
            "0x01,0x9f,0x98,0xf1,0x09,0x04,0x01,0x00",
            "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]",
            11,
            1,
        ),
        (
            "0x01,0x9f,0x98,0xf1,0x09,0x04,0x01,0x40",
            "image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16",
            8,
            1,
        ),
        (
            "0x07,0x9f,0x9c,0xf1,0x09,0x04,0x01,0x00,0x0a,0x0b,0x0c,0x0d,0x0e,0x0f,0x10,0x11,0x12,0x13,0x14,0x00",
            "image_bvh64_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20], s[4:7]",
            12,
            12,
        ),
    ];
    for &(enc, want, naddr, nslots) in cases {
        let i = dec_on(enc, Target::Gfx1013);
        assert_eq!(text_on(&i, Target::Gfx1013), want);
        assert_eq!(i.len as usize, bytes(enc).len(), "{want}");
        let r = roles(&i);
        assert_eq!(r[0], (W, 4), "{want}: vdata");
        assert_eq!(r.len(), 2 + nslots, "{want}");
        let read: usize = r[1..=nslots].iter().map(|x| x.1 as usize).sum();
        assert_eq!(read, naddr, "{want}: address VGPRs");
        assert_eq!(r[nslots + 1], (R, 4), "{want}: srsrc");
        let m = mods(&i);
        let info = mimg::mimg_info(i.opcode).unwrap();
        assert_eq!(info.kind, MimgKind::Bvh);
        assert_eq!(mimg::addr_dwords(info, &m) as usize, naddr);
        assert!(i.implicit().contains(Implicit::MEMORY));
        assert_eq!(
            encode(&i, Target::Gfx1013).unwrap().as_bytes(),
            &bytes(enc)[..]
        );
    }
}

#[test]
fn lwe_returns_a_status_dword_that_llvm_does_not_print() {
    // LLVM widens vdata for tfe only; the hardware writes the status dword
    // for lwe too, so the operand is wider than the text.
    let i = dec_on("0x00,0x01,0x0e,0xf0,0x00,0x05,0x02,0x00", Target::Gfx1030);
    assert_eq!(
        text_on(&i, Target::Gfx1030),
        "image_load_pck_sgn v5, v0, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D lwe"
    );
    assert_eq!(roles(&i)[0], (W, 2));
}

#[test]
fn vdata_past_v255_prints_llvm_fallback_and_clamps_the_operand() {
    // dmask 0xf from v255: LLVM keeps its 1-register default; the operand
    // covers what exists.
    let i = dec_on("0x10,0x0f,0x00,0xf0,0x05,0xff,0x02,0x00", Target::Gfx1030);
    assert_eq!(
        text_on(&i, Target::Gfx1030),
        "image_load v255, v5, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D"
    );
    assert_eq!(roles(&i)[0], (W, 1));
    assert_eq!(roles(&i)[1], (R, 3), "3D coordinates");
}

#[test]
fn nsa_addresses_the_opcode_does_not_need_are_kept_but_not_read() {
    // image_load with 1D needs one address; the NSA variant LLVM decodes
    // has four, and it prints all four (no 1-address NSA variant exists).
    let i = dec_on(
        "0x02,0x01,0x00,0xf0,0x05,0x01,0x02,0x00,0x0a,0x0b,0x0c,0x0d",
        Target::Gfx1030,
    );
    assert_eq!(
        text_on(&i, Target::Gfx1030),
        "image_load v1, [v5, v10, v11, v12], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D"
    );
    let r = roles(&i);
    assert_eq!(&r[1..5], &[(R, 1), (NONE, 1), (NONE, 1), (NONE, 1)]);
}

#[test]
fn descriptor_queries_touch_no_memory() {
    let i = dec_on("0x08,0x0f,0x38,0xf0,0x04,0x00,0x02,0x00", Target::Gfx1030);
    assert_eq!(i.implicit(), Implicit::empty());
    let s = dec_on("0x08,0x0f,0x80,0xf0,0x04,0x00,0x82,0x00", Target::Gfx1030);
    assert_eq!(s.implicit(), Implicit::MEMORY);
}

#[test]
fn a_sampler_field_on_a_non_sampler_opcode_is_invalid() {
    // image_load with ssamp = s[12:15]
    let mut b = bytes("0x00,0x01,0x00,0xf0,0x05,0x01,0x62,0x00");
    b.extend_from_slice(&[0; 12]);
    assert!(decode(&b, Target::Gfx1030).is_err());
}

#[test]
fn msaa_load_is_counted_as_four_components() {
    let i = dec_on("0x31,0x01,0x00,0xf0,0x04,0x00,0x02,0x00", Target::Gfx1030);
    assert_eq!(
        text_on(&i, Target::Gfx1030),
        "image_msaa_load v0, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA"
    );
    assert_eq!(roles(&i)[0], (W, 4));
}
