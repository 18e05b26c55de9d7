fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let c = corpus::Capture::open(&dir, &corpus::CaptureOptions::default()).unwrap();
    let input = c.shader_input();
    let e = translator::ngg_entry_of(&input);
    let t = translator::translate_ngg(&input, &e, &translator::Options { validate: false, ..Default::default() }).unwrap();
    let b: Vec<u8> = t.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write("/tmp/ngg-scratch.spv", b).unwrap();
    std::fs::write("/tmp/ngg-scratch.ir", translator::translate_ngg_ir(&input, &e).to_string()).unwrap();
}
#[allow(dead_code)]
fn ir() {}
