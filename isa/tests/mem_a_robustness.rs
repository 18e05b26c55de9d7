//! DS, FLAT, EXP and VINTRP never panic: every word with their prefix
//! decodes or is rejected, and whatever decodes prints and re-encodes
//! within the don't-care bits.

use isa::{decode, dont_care_mask, encode, Formatter, Target};

/// xorshift64*: deterministic pseudo-random words.
fn words(seed: u64) -> impl Iterator<Item = u32> {
    let mut s = seed;
    std::iter::repeat_with(move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    })
}

#[test]
fn random_words_with_memory_family_prefixes_round_trip() {
    let mut w = words(0x5eed);
    for t in Target::ALL {
        let f = Formatter::new(t);
        for prefix in [0x32u32, 0x36, 0x37, 0x3e] {
            for _ in 0..20_000 {
                let d0 = (prefix << 26) | (w.next().unwrap() & 0x03ff_ffff);
                let d1 = w.next().unwrap();
                let mut b = Vec::new();
                b.extend_from_slice(&d0.to_le_bytes());
                b.extend_from_slice(&d1.to_le_bytes());
                let Ok(i) = decode(&b, t) else { continue };
                let _ = f.display(&i).to_string();
                let _ = i.implicit();
                let e = encode(&i, t).unwrap_or_else(|e| panic!("{d0:#x} {d1:#x}: {e}"));
                let m = dont_care_mask(&i, t);
                assert_eq!(e.len(), i.len as usize);
                for (k, want) in [d0, d1].iter().take(i.len as usize / 4).enumerate() {
                    let got =
                        u32::from_le_bytes(e.as_bytes()[k * 4..k * 4 + 4].try_into().unwrap());
                    assert_eq!((got ^ want) & !m[k], 0, "{t} {d0:#010x} {d1:#010x}");
                }
            }
        }
    }
}

#[test]
fn truncated_memory_instructions_are_errors() {
    for d0 in [0xd8d8_0000u32, 0xdc30_8000, 0xf800_000f] {
        assert!(decode(&d0.to_le_bytes(), Target::Gfx1030).is_err());
    }
}

#[test]
fn encoder_rejects_operands_outside_the_vgpr_file() {
    // ds_read_b32 v11, v10 offset:12; exp pos0 v0, v1, v2, v3 done;
    // v_interp_p1_f32_e32 v3, v0, attr0.x.
    let cases: [&[u8]; 3] = [
        &[0x0c, 0x00, 0xd8, 0xd8, 0x0a, 0x00, 0x00, 0x0b],
        &[0xcf, 0x08, 0x00, 0xf8, 0x00, 0x01, 0x02, 0x03],
        &[0x00, 0x00, 0x0c, 0xc8],
    ];
    for b in cases {
        let mut i = decode(b, Target::Gfx1030).unwrap();
        assert!(encode(&i, Target::Gfx1030).is_ok());
        i.operands[0].op = isa::Operand::Reg {
            code: 600,
            count: 1,
        };
        assert!(encode(&i, Target::Gfx1030).is_err(), "{b:02x?}");
        i.operands[0].op = isa::Operand::Reg {
            code: u16::MAX,
            count: 1,
        };
        assert!(encode(&i, Target::Gfx1030).is_err(), "{b:02x?}");
    }
}
