//! A fixed-work driver for profiling the tracer under callgrind (divan's
//! iteration counts vary from run to run; this does not).
//!
//! `cargo build --release -p analysis --example trace_loop`, then
//! `valgrind --tool=callgrind target/release/examples/trace_loop [N] [MODE]`
//! traces `corpus/radv/instanced-nggc` N times (default 1000). MODE is
//! `trace` (CFG + trace of a decoded program, the `cfg_and_trace` bench;
//! the default), `decode` (decode only, as the `decode_only` bench) or `all` (decode, CFG and trace).

use analysis::cfg::{Cfg, Program};
use analysis::trace::{trace_code, trace_program, TraceConfig};
use isa::{Decoder, Mode, Target};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mode = args.next().unwrap_or_else(|| "trace".to_string());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/radv/instanced-nggc/code.bin"
    );
    let code = std::fs::read(path).expect("corpus/radv/instanced-nggc/code.bin");
    let config = TraceConfig::ngg();
    let mode64 = Mode::wave64(Target::Gfx1030);
    let program = Program::decode(&code, mode64);
    let mut sum = 0usize;
    for _ in 0..n {
        sum += match mode.as_str() {
            "decode" => Decoder::new(black_box(&code), mode64)
                .filter(|(_, r)| r.is_ok())
                .count(),
            "all" => trace_code(black_box(&code), Target::Gfx1030, &config)
                .accesses
                .len(),
            _ => {
                let cfg = Cfg::build(black_box(&program));
                trace_program(&program, &cfg, &config).accesses.len()
            }
        };
    }
    println!("{sum}");
}
