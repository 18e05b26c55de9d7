//! Decoder fuzz target: any bytes → decode every instruction (for every
//! target and wave size) → format → re-encode → decode again.
//!
//! Asserts: no panic; every decoded instruction formats; its encoding, under
//! the don't-care mask, equals the input bytes and decodes back to the same
//! instruction; the decoder always advances and stays inside the input.
//!
//! Run: `cargo +nightly fuzz run decode -- -max_total_time=600`
//! (or `RUSTC_BOOTSTRAP=1 cargo fuzz run decode ...` on stable).

#![no_main]

use isa::{decode, dont_care_mask, encode, Decoder, Formatter, Instruction, Mode, Target};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, code)) = data.split_first() else {
        return;
    };
    let target = Target::ALL[(sel as usize) % 3];
    let mode = if sel & 4 != 0 {
        Mode::wave64(target)
    } else {
        Mode::wave32(target)
    };
    let fmt = Formatter::new(target);
    let mut text = String::new();
    let mut inst = Instruction::default();
    let mut d = Decoder::new(code, mode);
    let mut last = None;
    while let Some((pc, r)) = d.next_into(&mut inst) {
        assert!(last.is_none_or(|l| pc > l), "decoder did not advance");
        assert!(pc < code.len());
        last = Some(pc);
        text.clear();
        match r {
            Ok(()) => {
                let len = inst.len as usize;
                assert!((4..=20).contains(&len) && pc + len <= code.len());
                fmt.write(&inst, &mut text).expect("format");
                assert!(!text.is_empty());
                let e = encode(&inst, target).expect("decoded instruction must encode");
                assert_eq!(e.len(), len, "{text}");
                let mask = dont_care_mask(&inst, target);
                for (k, (a, b)) in e.as_bytes().chunks(4).zip(code[pc..pc + len].chunks(4)).enumerate() {
                    let a = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
                    let b = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    let m = if k < 5 { !mask[k] } else { !0 };
                    assert_eq!(a & m, b & m, "round trip of {text}");
                }
                let again = decode(e.as_bytes(), mode).expect("re-encoded bytes must decode");
                assert_eq!(again, inst, "{text}");
            }
            Err(err) => {
                assert_eq!(err.offset, pc);
                let _ = write!(text, "{err}");
            }
        }
    }
});
