//! Inputs the `decode` fuzz target found, replayed without the fuzzer.
//! Each file in `tests/fixtures/fuzz/` is a fuzz input: one selector byte
//! (target = byte % 3, wave64 if bit 2) followed by code.

use isa::{decode, dont_care_mask, encode, Decoder, Instruction, Mode, Target};

fn replay(data: &[u8]) {
    let Some((&sel, code)) = data.split_first() else {
        return;
    };
    let target = Target::ALL[(sel as usize) % 3];
    let mode = if sel & 4 != 0 {
        Mode::wave64(target)
    } else {
        Mode::wave32(target)
    };
    let mut inst = Instruction::default();
    let mut d = Decoder::new(code, mode);
    while let Some((pc, r)) = d.next_into(&mut inst) {
        if r.is_err() {
            continue;
        }
        let e = encode(&inst, target).expect("encodes");
        let mask = dont_care_mask(&inst, target);
        for (k, (a, b)) in e.as_bytes().chunks(4).zip(code[pc..].chunks(4)).enumerate() {
            let m = if k < 5 { !mask[k] } else { !0 };
            let a = u32::from_le_bytes(a.try_into().unwrap());
            let b = u32::from_le_bytes(b.try_into().unwrap());
            assert_eq!(a & m, b & m);
        }
        assert_eq!(decode(e.as_bytes(), mode).unwrap(), inst, "at {pc:#x}");
    }
}

/// Decoding into a reused `Instruction` leaves stale operand storage past
/// the operand count; equality must ignore it (found by the fuzzer).
#[test]
fn reused_instruction_equals_a_fresh_decode() {
    replay(include_bytes!(
        "fixtures/fuzz/decode-reused-instruction.bin"
    ));
}
