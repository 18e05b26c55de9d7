use analysis::cfg::{Cfg, Program};
use analysis::trace::{trace_program, TraceConfig};
fn main() {
    let mode = std::env::args().nth(1).unwrap_or("trace".into());
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(10000);
    let code = std::fs::read(std::env::var("PROF_CODE").unwrap_or(format!(
        "{}/../corpus/radv/instanced-nggc/code.bin",
        env!("CARGO_MANIFEST_DIR")
    )))
    .unwrap();
    let p = Program::decode(&code, isa::Mode::wave64(isa::Target::Gfx1030));
    let conf = TraceConfig::ngg();
    let mut k = 0;
    for _ in 0..n {
        match mode.as_str() {
            "decode" => {
                for (_, r) in isa::Decoder::new(
                    std::hint::black_box(&code),
                    isa::Mode::wave64(isa::Target::Gfx1030),
                ) {
                    k += r.is_ok() as usize;
                }
            }
            "none" => {}
            _ => {
                let cfg = Cfg::build(&p);
                k += trace_program(&p, &cfg, &conf).accesses.len();
            }
        }
    }
    eprintln!("{k}");
}
