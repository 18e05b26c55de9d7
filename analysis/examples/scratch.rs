use analysis::trace::{trace_code, TraceConfig};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = std::fs::read(&args[1]).unwrap();
    let conf = match args.get(2).map(|s| s.as_str()) {
        Some("vs") => TraceConfig::legacy_vs(),
        Some("w32") => TraceConfig {
            wave32: true,
            ..TraceConfig::ngg()
        },
        _ => TraceConfig::ngg(),
    };
    let t = trace_code(&code, isa::Target::Gfx1030, &conf);
    println!("{t:#?}");
}
