//! Decode (and optionally format) a raw gfx1030 code file once, for
//! instruction-count profiling of the decoder and formatter alone:
//!
//! ```text
//! cargo build --release -p isa --example decode_blob
//! valgrind --tool=callgrind target/release/examples/decode_blob blob.bin [--format]
//! ```
//!
//! Prints the number of instructions decoded (and bytes of text formatted).
//! With `--repeat N` (after the optional `--format`) it also times N passes
//! of the same loop and prints the fastest, as a quick wall-time check
//! between callgrind runs (the divan bench is the reference figure).

use isa::{Decoder, Formatter, Instruction, Target};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: decode_blob FILE [--format]");
        std::process::exit(2);
    };
    let rest: Vec<String> = args.collect();
    let format = rest.iter().any(|a| a == "--format");
    let repeat: usize = rest
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| rest.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let code = match std::fs::read(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let f = Formatter::new(Target::Gfx1030);
    let mut text = String::with_capacity(256);
    let mut line = [0u8; 512];
    let (mut ok, mut bytes) = (0usize, 0usize);
    let mut inst = Instruction::default();
    let mut d = Decoder::new(&code, Target::Gfx1030);
    while let Some((_, r)) = d.next_into(&mut inst) {
        if r.is_ok() {
            ok += 1;
            if format {
                // As `shaderlift disasm` does: straight into a byte buffer.
                match f.write_into(&inst, &mut line) {
                    Some(n) => bytes += n,
                    None => {
                        text.clear();
                        let _ = f.write(&inst, &mut text);
                        bytes += text.len();
                    }
                }
            }
        }
    }
    println!("{ok} instructions, {bytes} bytes of text");
    let mut best = f64::INFINITY;
    for _ in 0..repeat {
        let t = std::time::Instant::now();
        let (mut n, mut b) = (0usize, 0usize);
        let mut d = Decoder::new(std::hint::black_box(&code), Target::Gfx1030);
        while let Some((_, r)) = d.next_into(&mut inst) {
            n += r.is_ok() as usize;
            if format && r.is_ok() {
                b += f.write_into(&inst, &mut line).unwrap_or(0);
            }
        }
        std::hint::black_box((n, b));
        best = best.min(t.elapsed().as_secs_f64());
    }
    if repeat > 0 {
        println!(
            "fastest of {repeat}: {:.3} ms, {:.1} MB/s",
            best * 1e3,
            code.len() as f64 / best / 1e6
        );
    }
}
