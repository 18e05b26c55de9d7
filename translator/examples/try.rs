fn main() {
    let path = std::env::args().nth(1).unwrap();
    let c = corpus::Capture::open(&path, &Default::default()).unwrap();
    let input = translator::ShaderInput::from_capture(&c);
    match translator::translate(&input, None, &Default::default()) {
        Ok(t) => {
            println!("{}", t.manifest.to_json());
            println!("{}", translator::to_wgsl(&t.spirv).unwrap_or_else(|e| e));
        }
        Err(e) => println!("{e}"),
    }
}
