//! Shared test helpers: programs from dwords, a small guest memory.
#![allow(dead_code)]

use interp::{Env, GuestMemory, Lds, Limits, Observations, Program, Wave};
use std::collections::BTreeMap;

/// Code bytes from little-endian dwords.
pub fn code(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Guest memory made of dwords at aligned addresses.
#[derive(Default, Clone)]
pub struct Mem {
    pub words: BTreeMap<u64, u32>,
}

impl Mem {
    pub fn write(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.words.insert(addr + 4 * i as u64, *w);
        }
    }
}

impl GuestMemory for Mem {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        if addr.is_multiple_of(4) {
            return self.words.get(&addr).copied();
        }
        let a = addr & !3;
        let s = (addr - a) * 8;
        let lo = *self.words.get(&a)? as u64;
        let hi = *self.words.get(&(a + 4))? as u64;
        Some(((lo | hi << 32) >> s) as u32)
    }
}

/// Run one wave of `words` to its end.
pub fn run1(
    words: &[u32],
    wave: &mut Wave,
    mem: &Mem,
) -> Result<Observations, interp::InterpError> {
    let p = Program::new(&code(words), isa::Target::Gfx1030);
    let run_steps = std::cell::Cell::new(0);
    let env = Env {
        program: &p,
        memory: mem,
        limits: Limits {
            max_steps: 10_000,
            ..Limits::default()
        },
        code_addr: 0,
        run_steps: &run_steps,
    };
    let mut lds = Lds::new();
    let mut obs = Observations::new();
    interp::run_wave(&env, wave, 0, &mut lds, &mut obs)?;
    Ok(obs)
}

/// The bytes of program `name` of the tracer tests' data file
/// (`analysis/tests/programs/encodings.tsv`: llvm-mc-19's encodings of the
/// `.s` programs beside it).
#[allow(dead_code)]
pub fn encoded_program(name: &str) -> Vec<u8> {
    let tsv = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../analysis/tests/programs/encodings.tsv"
    ))
    .expect("encodings.tsv");
    let mut code = Vec::new();
    let prefix = format!("{name}\t");
    for line in tsv.lines().filter(|l| l.starts_with(&prefix)) {
        let hex = line.split('\t').nth(2).expect("bytes column");
        for i in (0..hex.len()).step_by(2) {
            code.push(u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"));
        }
    }
    assert!(!code.is_empty(), "{name} is in encodings.tsv");
    code
}

pub mod scene;
pub mod soundness;
