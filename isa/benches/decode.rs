//! Decoder throughput on a 1 MiB blob of valid gfx1030 code built from the
//! LLVM MC-test fixture (every instruction LLVM decodes, repeated).
//!
//! Run: `cargo bench -p isa --bench decode`. Figures are bytes/s; compare
//! `decode_only` with `decode_and_format` in the same run.

use isa::{Decoder, Formatter, Instruction, Target};
use std::fmt::Write as _;

fn main() {
    divan::main();
}

/// Valid instructions from the fixture, concatenated until at least 1 MiB.
fn blob() -> Vec<u8> {
    let src = include_str!("../tests/fixtures/llvm-mc-gfx1030.tsv");
    let mut insts: Vec<Vec<u8>> = Vec::new();
    for l in src.lines() {
        if l.starts_with('#') {
            continue;
        }
        let mut it = l.splitn(3, '\t');
        let (Some(hex), Some(len), Some(text)) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        if text.starts_with(".long") || text == "<crash>" {
            continue;
        }
        let len: usize = len.parse().unwrap_or(0);
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .filter_map(|j| u8::from_str_radix(&hex[j..j + 2], 16).ok())
            .collect();
        if len == 0 || len > bytes.len() {
            continue;
        }
        // Only keep what our decoder also decodes to the same length, so
        // the blob stays in sync instruction by instruction.
        match isa::decode(&bytes, Target::Gfx1030) {
            Ok(i) if i.len as usize == len => insts.push(bytes[..len].to_vec()),
            _ => {}
        }
    }
    let mut out = Vec::with_capacity(1 << 20);
    'fill: loop {
        for i in &insts {
            out.extend_from_slice(i);
            if out.len() >= 1 << 20 {
                break 'fill;
            }
        }
        if insts.is_empty() {
            break;
        }
    }
    out
}

#[divan::bench]
fn decode_only(bencher: divan::Bencher) {
    let b = blob();
    bencher
        .counter(divan::counter::BytesCount::new(b.len()))
        .bench(|| {
            let mut n = 0usize;
            let mut inst = Instruction::default();
            let mut d = Decoder::new(divan::black_box(&b), Target::Gfx1030);
            while let Some((_, r)) = d.next_into(&mut inst) {
                n += r.is_ok() as usize;
            }
            n
        });
}

#[divan::bench]
fn decode_and_format(bencher: divan::Bencher) {
    let b = blob();
    let f = Formatter::new(Target::Gfx1030);
    let mut s = String::with_capacity(256);
    bencher
        .counter(divan::counter::BytesCount::new(b.len()))
        .bench_local(|| {
            let mut total = 0usize;
            let mut inst = Instruction::default();
            let mut d = Decoder::new(divan::black_box(&b), Target::Gfx1030);
            while let Some((_, r)) = d.next_into(&mut inst) {
                s.clear();
                match r {
                    Ok(()) => f.write(&inst, &mut s).unwrap(),
                    Err(e) => {
                        let _ = write!(s, "{e}");
                    }
                }
                total += s.len();
            }
            total
        });
}
