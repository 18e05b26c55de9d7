//! `llvm-oracle`: make decoding fixtures with LLVM 19.
//!
//! ```text
//! llvm-oracle regions --mcpu gfx1030 < hex-lines      # ad-hoc: first instruction of each line
//! llvm-oracle mc-tests --mcpu gfx1030 --llvm DIR -o isa/tests/fixtures/llvm-mc-gfx1030.tsv
//! llvm-oracle random  --mcpu gfx1030 --seed 1 --count 20000 -o isa/tests/fixtures/random-gfx1030.tsv
//! ```
//!
//! Fixture lines are `HEXBYTES<TAB>LEN<TAB>TEXT`; HEXBYTES is the region
//! before padding (see `llvm_oracle::pad_region`), LEN the bytes LLVM
//! consumed (0 for a crash, with TEXT `<crash>`).

#![forbid(unsafe_code)]

use llvm_oracle::{hex_bytes, pad_region, parse_hex_bytes, Answer, Oracle};
use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("llvm-oracle: {e}");
            ExitCode::FAILURE
        }
    }
}

fn opt<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|s| s.as_str())
}

fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let cmd = args.first().map(|s| s.as_str()).unwrap_or("");
    let mcpu = opt(args, "--mcpu").unwrap_or("gfx1030");
    let mut oracle = Oracle::new(mcpu)?;
    if let Some(m) = opt(args, "--mattr") {
        oracle = oracle.with_mattr(m);
    }
    match cmd {
        "regions" => {
            let stdin = std::io::stdin();
            let mut regions = Vec::new();
            for line in stdin.lock().lines() {
                let line = line?;
                let b = parse_loose_hex(&line).ok_or_else(|| format!("bad hex line: {line}"))?;
                regions.push(pad_region(b));
            }
            let answers = oracle.first_of_regions(&regions)?;
            let mut out = std::io::stdout().lock();
            for a in answers {
                match a {
                    Answer::Text { len, text } => writeln!(out, "{len}\t{text}")?,
                    Answer::Crash => writeln!(out, "0\t<crash>")?,
                }
            }
            Ok(())
        }
        "mc-tests" => {
            let llvm =
                PathBuf::from(opt(args, "--llvm").ok_or("--llvm DIR (llvm/test/MC) required")?);
            let outp = opt(args, "-o").ok_or("-o FILE required")?;
            let regions = collect_mc_tests(&llvm)?;
            eprintln!("{} distinct encodings", regions.len());
            write_fixture(&oracle, &regions, Path::new(outp))
        }
        "random" => {
            let seed: u64 = opt(args, "--seed").unwrap_or("1").parse()?;
            let count: usize = opt(args, "--count").unwrap_or("20000").parse()?;
            let outp = opt(args, "-o").ok_or("-o FILE required")?;
            let mut rng = SplitMix(seed);
            let regions: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let mut r = Vec::with_capacity(20);
                    for _ in 0..5 {
                        r.extend_from_slice(&(rng.next() as u32).to_le_bytes());
                    }
                    r
                })
                .collect();
            write_fixture(&oracle, &regions, Path::new(outp))
        }
        _ => Err("usage: llvm-oracle (regions|mc-tests|random) --mcpu CPU [...]".into()),
    }
}

/// Accepts `7e0002ff`, `0x7e0002ff 0xbf810000` (dwords, little-endian in
/// memory) or `0xff,0x02,0x00,0x7e` (bytes).
fn parse_loose_hex(line: &str) -> Option<Vec<u8>> {
    let line = line.trim();
    if line.contains(',') {
        return line
            .split(',')
            .map(|t| u8::from_str_radix(t.trim().trim_start_matches("0x"), 16).ok())
            .collect();
    }
    if line.contains(' ') || line.starts_with("0x") {
        let mut out = Vec::new();
        for t in line.split_whitespace() {
            let w = u32::from_str_radix(t.trim_start_matches("0x"), 16).ok()?;
            out.extend_from_slice(&w.to_le_bytes());
        }
        return Some(out);
    }
    parse_hex_bytes(line)
}

fn write_fixture(
    oracle: &Oracle,
    regions: &[Vec<u8>],
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let padded: Vec<Vec<u8>> = regions.iter().map(|r| pad_region(r.clone())).collect();
    let answers = oracle.first_of_regions(&padded)?;
    let mut f = std::io::BufWriter::new(std::fs::File::create(out)?);
    writeln!(
        f,
        "# llvm-objdump-19 -d --no-show-raw-insn --mcpu={} (first instruction of each region; regions padded with s_nop 0 to 20 bytes)",
        oracle.mcpu()
    )?;
    writeln!(f, "# bytes\tlen\ttext")?;
    for (r, a) in regions.iter().zip(answers) {
        match a {
            Answer::Text { len, text } => writeln!(f, "{}\t{len}\t{text}", hex_bytes(r))?,
            Answer::Crash => writeln!(f, "{}\t0\t<crash>", hex_bytes(r))?,
        }
    }
    Ok(())
}

fn collect_mc_tests(mc_dir: &Path) -> Result<Vec<Vec<u8>>, Box<dyn std::error::Error>> {
    let mut set: BTreeSet<Vec<u8>> = BTreeSet::new();
    let asm_dir = mc_dir.join("AMDGPU");
    let dis_dir = mc_dir.join("Disassembler/AMDGPU");
    let wanted = |name: &str| {
        name.starts_with("gfx10")
            || name.starts_with("gfx1030")
            || name.starts_with("gfx1013")
            || name.starts_with("gfx1011")
    };
    let mc = std::env::var("LLVM_MC").unwrap_or_else(|_| "llvm-mc-19".to_string());
    let configs: [&[&str]; 5] = [
        &["-mcpu=gfx1030"],
        &["-mcpu=gfx1030", "-mattr=+wavefrontsize64"],
        &["-mcpu=gfx1010"],
        &["-mcpu=gfx1010", "-mattr=+wavefrontsize64"],
        &["-mcpu=gfx1013"],
    ];
    let mut names: Vec<_> = std::fs::read_dir(&asm_dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    names.sort();
    for p in &names {
        let n = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
        if !n.ends_with(".s") || !wanted(n) {
            continue;
        }
        for cfg in configs {
            let out = Command::new(&mc)
                .arg("-triple=amdgcn")
                .args(cfg)
                .arg("-show-encoding")
                .arg(p)
                .output()?;
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                if let Some(b) = encoding_of(line) {
                    set.insert(b);
                }
            }
        }
    }
    let mut names: Vec<_> = std::fs::read_dir(&dis_dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    names.sort();
    for p in &names {
        let n = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
        if !n.ends_with(".txt") || !wanted(n) {
            continue;
        }
        for line in std::fs::read_to_string(p)?.lines() {
            let l = line.split('#').next().unwrap_or("").trim();
            if !l.starts_with("0x") {
                continue;
            }
            let bytes: Option<Vec<u8>> = l
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|t| u8::from_str_radix(t.trim_start_matches("0x"), 16).ok())
                .collect();
            if let Some(b) = bytes {
                if !b.is_empty() && b.len() <= 20 && b.len() % 4 == 0 {
                    set.insert(b);
                }
            }
        }
    }
    Ok(set.into_iter().collect())
}

fn encoding_of(line: &str) -> Option<Vec<u8>> {
    let i = line.find("encoding: [")?;
    let rest = &line[i + 11..];
    let j = rest.find(']')?;
    let b: Option<Vec<u8>> = rest[..j]
        .split(',')
        .map(|t| u8::from_str_radix(t.trim().trim_start_matches("0x"), 16).ok())
        .collect();
    b.filter(|v| !v.is_empty())
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
