//! `isa-gen probe|emit|check [FAMILY...]`. See the crate docs.

#![forbid(unsafe_code)]

use isa_gen::recording::Recording;
use isa_gen::{families, recording_path, tables_dir, TARGETS};
use llvm_oracle::{pad_region, Oracle};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cmd = args.first().map(|s| s.as_str()).unwrap_or("");
    let only: Vec<&str> = args.iter().skip(1).map(|s| s.as_str()).collect();
    let fams: Vec<_> = families()
        .into_iter()
        .filter(|f| only.is_empty() || only.contains(&f.name))
        .collect();
    let mut failed = false;
    for f in &fams {
        match cmd {
            "probe" => {
                let mut probes = (f.probes)();
                let mut rec = Recording::default();
                // Adaptive families ask for follow-up probes after seeing
                // the answers (see `families::refine`); repeat until none.
                while !probes.is_empty() {
                    let padded: Vec<Vec<u8>> =
                        probes.iter().map(|p| pad_region(p.clone())).collect();
                    for cpu in TARGETS {
                        let oracle = match Oracle::new(cpu) {
                            Ok(o) => o,
                            Err(e) => {
                                eprintln!("isa-gen: {e}");
                                return ExitCode::FAILURE;
                            }
                        };
                        let answers = match oracle.first_of_regions(&padded) {
                            Ok(a) => a,
                            Err(e) => {
                                eprintln!("isa-gen: {}: {e}", f.name);
                                return ExitCode::FAILURE;
                            }
                        };
                        for (p, a) in probes.iter().zip(answers) {
                            rec.insert(cpu, p.clone(), a);
                        }
                    }
                    probes = isa_gen::families::refine(f.name, &rec)
                        .into_iter()
                        .filter(|p| TARGETS.iter().any(|cpu| rec.get(cpu, p).is_none()))
                        .collect();
                    probes.sort();
                    probes.dedup();
                }
                let path = recording_path(f.name);
                if let Err(e) = rec.save(&path) {
                    eprintln!("isa-gen: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
                eprintln!("{}: recorded {} answers", f.name, rec.size());
            }
            "emit" | "check" => {
                let rec = match Recording::load(&recording_path(f.name)) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("isa-gen: {}: {e}", f.name);
                        return ExitCode::FAILURE;
                    }
                };
                let src = (f.emit)(&rec);
                let out = tables_dir().join(f.out_file);
                if cmd == "emit" {
                    if let Err(e) = std::fs::write(&out, src) {
                        eprintln!("isa-gen: {}: {e}", out.display());
                        return ExitCode::FAILURE;
                    }
                    eprintln!("{}: wrote {}", f.name, out.display());
                } else if std::fs::read_to_string(&out).ok().as_deref() != Some(src.as_str()) {
                    eprintln!("{}: {} is stale", f.name, out.display());
                    failed = true;
                }
            }
            _ => {
                eprintln!("usage: isa-gen probe|emit|check [FAMILY...]");
                return ExitCode::FAILURE;
            }
        }
    }
    // The facts table is derived from every family's opcode list.
    if matches!(cmd, "emit" | "check") && (only.is_empty() || only.contains(&"facts")) {
        let out = tables_dir().join(isa_gen::facts::OUT_FILE);
        match isa_gen::facts::emit() {
            Err(e) => {
                eprintln!("isa-gen: facts: {e}");
                return ExitCode::FAILURE;
            }
            Ok(src) if cmd == "emit" => {
                if let Err(e) = std::fs::write(&out, src) {
                    eprintln!("isa-gen: {}: {e}", out.display());
                    return ExitCode::FAILURE;
                }
                eprintln!("facts: wrote {}", out.display());
            }
            Ok(src) => {
                if std::fs::read_to_string(&out).ok().as_deref() != Some(src.as_str()) {
                    eprintln!("facts: {} is stale", out.display());
                    failed = true;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
