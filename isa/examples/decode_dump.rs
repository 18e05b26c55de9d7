//! Print the full decode (`Debug` of the instruction or the error) of every
//! fixture word window and of pseudo-random words, one line each, so two
//! builds of the decoder can be compared byte for byte:
//!
//! ```text
//! cargo build --release -p isa --example decode_dump
//! target/release/examples/decode_dump [RANDOM_WINDOWS] | md5sum
//! ```
//!
//! A speed change to the decoder must leave this output unchanged (compare
//! against `main`'s build; `diff` the two outputs to find the first
//! difference). Every window is decoded for gfx1030 wave32 and wave64 and
//! for gfx1013 wave32; `RANDOM_WINDOWS` defaults to 200,000.

use isa::{decode, Mode, Target};
use std::io::Write as _;

/// SplitMix64: reproducible pseudo-random words.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn main() {
    let random: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    let modes = [
        Mode::wave32(Target::Gfx1030),
        Mode::wave64(Target::Gfx1030),
        Mode::wave32(Target::Gfx1013),
    ];
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut line = |tag: &str, bytes: &[u8]| {
        for m in modes {
            let r = decode(bytes, m);
            let _ = writeln!(out, "{tag} {m:?} {r:?}");
        }
    };
    let fixtures = [
        include_str!("../tests/fixtures/llvm-mc-gfx1030.tsv"),
        include_str!("../tests/fixtures/llvm-mc-gfx1013.tsv"),
        include_str!("../tests/fixtures/llvm-mc-gfx1030-w64.tsv"),
    ];
    for src in fixtures {
        for l in src.lines().filter(|l| !l.starts_with('#')) {
            let Some(hex) = l.split('\t').next() else {
                continue;
            };
            let bytes: Vec<u8> = (0..hex.len() / 2)
                .filter_map(|j| u8::from_str_radix(&hex[2 * j..2 * j + 2], 16).ok())
                .collect();
            line(hex, &bytes);
        }
    }
    // Random windows of five dwords; every prefix length a dword apart is
    // covered by the truncation cases of the fixtures, so whole windows
    // suffice here.
    let mut s = 0x5eed_u64;
    for i in 0..random {
        let mut bytes = [0u8; 20];
        for c in bytes.chunks_mut(8) {
            let w = splitmix(&mut s).to_le_bytes();
            c.copy_from_slice(&w[..c.len()]);
        }
        line(&format!("r{i}"), &bytes);
    }
}
