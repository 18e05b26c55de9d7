//! `Formatter::write_into` (the listing fast path, which writes into a
//! caller's byte slice) gives exactly `Formatter::write`'s text, and a
//! buffer too short for the text gives `None`, never a panic or a cut line.

use isa::{Decoder, Formatter, Instruction, Mode, Target};

/// Every fixture region (the LLVM MC tests and random words), decoded on
/// every target in both wave sizes.
fn regions() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for name in [
        "llvm-mc-gfx1030.tsv",
        "random-gfx1030.tsv",
        "random-ext-gfx1030.tsv",
    ] {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for l in src.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let hex = l.split('\t').next().unwrap_or("");
            let bytes: Vec<u8> = (0..hex.len() / 2)
                .map(|j| u8::from_str_radix(&hex[2 * j..2 * j + 2], 16).unwrap())
                .collect();
            out.push(bytes);
        }
    }
    assert!(out.len() > 1000, "fixtures not found");
    out
}

#[test]
fn write_into_writes_the_same_text_as_write_and_rejects_short_buffers() {
    let mut text = String::new();
    let mut buf = vec![0u8; 1024];
    let mut checked = 0usize;
    for bytes in regions() {
        for target in [Target::Gfx1030, Target::Gfx1010, Target::Gfx1013] {
            for wave in [32, 64] {
                let f = Formatter::new(target);
                let mut inst = Instruction::default();
                let mut d = Decoder::new(&bytes, Mode::with_wave_size(target, wave));
                while let Some((_, r)) = d.next_into(&mut inst) {
                    if r.is_err() {
                        continue;
                    }
                    text.clear();
                    f.write(&inst, &mut text).unwrap();
                    buf.fill(b'#');
                    let n = f.write_into(&inst, &mut buf).expect("fits in 1 KiB");
                    assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), text);
                    // Shorter buffers: the whole text or nothing.
                    for len in [0, text.len() / 2, text.len().saturating_sub(1), text.len()] {
                        let mut small = vec![0u8; len];
                        if let Some(n) = f.write_into(&inst, &mut small) {
                            assert_eq!(&small[..n], text.as_bytes());
                        } else {
                            assert!(len < text.len() + 32, "{text}: None with {len} bytes");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} instructions checked");
}
