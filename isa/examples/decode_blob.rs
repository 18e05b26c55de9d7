//! Decode (and optionally format) a raw gfx1030 code file once, for
//! instruction-count profiling of the decoder and formatter alone:
//!
//! ```text
//! cargo build --release -p isa --example decode_blob
//! valgrind --tool=callgrind target/release/examples/decode_blob blob.bin [--format]
//! ```
//!
//! Prints the number of instructions decoded (and bytes of text formatted).

use isa::{Decoder, Formatter, Instruction, Target};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: decode_blob FILE [--format]");
        std::process::exit(2);
    };
    let format = args.next().as_deref() == Some("--format");
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
}
