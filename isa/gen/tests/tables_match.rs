//! The committed tables are exactly what the generator emits from the
//! committed oracle recordings.

#[test]
fn generated_tables_match_recorded_oracle() {
    for f in isa_gen::families() {
        let rec = isa_gen::recording::Recording::load(&isa_gen::recording_path(f.name))
            .unwrap_or_else(|e| panic!("{}: {e}", f.name));
        let want = (f.emit)(&rec);
        let path = isa_gen::tables_dir().join(f.out_file);
        let have =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            have == want,
            "{} is stale: run `cargo run -p isa-gen -- emit {}`",
            path.display(),
            f.name
        );
    }
}

/// The opcode facts (`isa/src/tables/facts.rs`) are exactly what the
/// generator derives from every family's opcode list.
#[test]
fn generated_facts_match_recorded_oracle() {
    let want = isa_gen::facts::emit().unwrap_or_else(|e| panic!("{e}"));
    let path = isa_gen::tables_dir().join(isa_gen::facts::OUT_FILE);
    let have = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        have == want,
        "{} is stale: run `cargo run -p isa-gen -- emit facts`",
        path.display()
    );
}
