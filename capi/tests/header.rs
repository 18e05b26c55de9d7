//! `include/shaderlift.h` is what cbindgen makes of the crate today.

use std::path::Path;

#[test]
fn checked_in_header_matches_the_crate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses the crate");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include/shaderlift.h");
    if std::env::var_os("SHADERLIFT_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "{} is stale (or missing): regenerate it with\n    \
         SHADERLIFT_BLESS=1 cargo test -p shaderlift-capi --test header\nand commit it",
        path.display()
    );
}
