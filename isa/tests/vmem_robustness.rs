//! Random words with the MUBUF, MTBUF and MIMG prefixes: decoding,
//! formatting, encoding and the don't-care mask never panic (debug builds
//! check arithmetic overflow), decoded operands stay inside the register
//! files, and what decodes round-trips.

use isa::{decode, dont_care_mask, encode, Formatter, Operand, Target};

/// SplitMix64, for reproducible words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u32
    }
}

#[test]
fn random_buffer_and_image_words_decode_without_panics_and_round_trip() {
    let mut rng = Rng(0x5eed);
    let mut decoded = 0;
    for target in [Target::Gfx1010, Target::Gfx1013, Target::Gfx1030] {
        let fmt = Formatter::new(target);
        for n in 0..60_000u32 {
            let prefix = [0x38u32, 0x3a, 0x3c][(n % 3) as usize];
            let mut words = [0u32; 5];
            for w in &mut words {
                *w = rng.next();
            }
            words[0] = (words[0] & 0x03ff_ffff) | (prefix << 26);
            // Often clear the sampler field, which non-sampler images need.
            if n % 2 == 0 {
                words[1] &= !(0x1f << 21);
            }
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            // Every truncation of the region must fail or decode cleanly.
            for cut in [4, 8, 12, 20] {
                let _ = decode(&bytes[..cut], target);
            }
            let Ok(i) = decode(&bytes, target) else {
                continue;
            };
            decoded += 1;
            let mut s = String::new();
            fmt.write(&i, &mut s).unwrap();
            for slot in i.operands.iter() {
                if let Operand::Reg { code, count } = slot.op {
                    assert!(count >= 1, "{s}");
                    if code >= 256 {
                        assert!(code as u32 + count as u32 <= 512, "{s}: past v255");
                    }
                }
            }
            let e = encode(&i, target).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(e.len(), i.len as usize, "{s}");
            let m = dont_care_mask(&i, target);
            for (k, c) in e.as_bytes().chunks(4).enumerate() {
                let got = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                let keep = if k < 5 { !m[k] } else { !0 };
                assert_eq!(got & keep, words[k] & keep, "{s}: dword {k}");
            }
        }
    }
    assert!(decoded > 10_000, "only {decoded} words decoded");
}

#[test]
fn encoders_reject_vgpr_codes_outside_the_register_file() {
    // buffer_load_dwordx4 v[8:11], v3, s[4:7], 0 idxen offset:16
    let mut b = vec![0x10, 0x20, 0x38, 0xe0, 0x03, 0x08, 0x01, 0x80];
    b.extend_from_slice(&[0; 12]);
    let mut i = decode(&b, Target::Gfx1030).unwrap();
    i.operands[0].op = Operand::Reg {
        code: 600,
        count: 4,
    };
    assert!(encode(&i, Target::Gfx1030).is_err());
    // image_load v0, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D r128
    let mut b = vec![0x00, 0x81, 0x00, 0xf0, 0x04, 0x00, 0x02, 0x00];
    b.extend_from_slice(&[0; 12]);
    let mut i = decode(&b, Target::Gfx1030).unwrap();
    i.operands[1].op = Operand::Reg {
        code: 700,
        count: 1,
    };
    assert!(encode(&i, Target::Gfx1030).is_err());
}
