//! Arbitrary instruction sequences, built through `isa::encode`, decoded
//! and traced.
//!
//! Instructions come from templates (every instruction of a few bundled
//! RADV shaders, decoded once) whose registers, literals and branch
//! offsets the input rewrites, plus raw dwords. The target checks that
//! tracing never panics, that the JSON and dot forms can be made, and that
//! every bound descriptor agrees with each of its indexed accesses.

#![no_main]

use analysis::cfg::{Cfg, Program};
use analysis::source::IndexSource;
use analysis::trace::{trace_program, IndexBound, TraceConfig};
use arbitrary::Arbitrary;
use isa::{Abi, Instruction, Modifiers, Operand, Stage, Target};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const SHADERS: [&[u8]; 5] = [
    include_bytes!("../../corpus/radv/instanced-nggc/code.bin"),
    include_bytes!("../../corpus/radv/cube-nggc-w32/code.bin"),
    include_bytes!("../../corpus/radv/instanced-legacy-vs/code.bin"),
    include_bytes!("../../corpus/radv/instanced/code.bin"),
    include_bytes!("../../corpus/radv/compute/code.bin"),
];

fn templates() -> &'static [Instruction] {
    static T: OnceLock<Vec<Instruction>> = OnceLock::new();
    T.get_or_init(|| {
        let mut v = Vec::new();
        for code in SHADERS {
            for (_, r) in isa::Decoder::new(code, Target::Gfx1030) {
                if let Ok(i) = r {
                    v.push(i);
                }
            }
        }
        v
    })
}

#[derive(Arbitrary, Debug)]
enum Item {
    /// A template instruction with rewritten registers and immediates.
    Template {
        pick: u16,
        regs: [u16; 4],
        imm: i16,
        literal: u32,
    },
    /// A raw dword (often not an instruction at all).
    Raw(u32),
    /// A SOPP branch (`op` picks s_branch / s_cbranch_*) with any offset.
    Branch { op: u8, offset: i16 },
    /// `s_endpgm`.
    End,
}

#[derive(Arbitrary, Debug)]
struct Input {
    stage: u8,
    wave32: bool,
    items: Vec<Item>,
}

/// A register code of the same file and width as `code`, picked by `r`.
fn remap(code: u16, count: u8, r: u16) -> u16 {
    let n = count.max(1) as u16;
    if code >= 256 {
        return 256 + r % (257 - n.min(256));
    }
    if code < 106 {
        if r.is_multiple_of(23) && n <= 2 {
            return 126; // exec / exec_lo
        }
        if r.is_multiple_of(29) && n <= 2 {
            return 106; // vcc / vcc_lo
        }
        let align = match n {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        let max = 106 - n;
        return ((r % (max + 1)) / align) * align;
    }
    code
}

fn build(item: &Item, out: &mut Vec<u8>) {
    match *item {
        Item::Raw(w) => out.extend_from_slice(&w.to_le_bytes()),
        Item::End => out.extend_from_slice(&0xbf81_0000u32.to_le_bytes()),
        Item::Branch { op, offset } => {
            let ops = [2u32, 4, 5, 6, 7, 8, 9];
            let w = 0xbf80_0000 | (ops[op as usize % ops.len()] << 16) | offset as u16 as u32;
            // Through the decoder and the encoder, like every other item.
            if let Ok(i) = isa::decode(&w.to_le_bytes(), Target::Gfx1030) {
                if let Ok(e) = isa::encode(&i, Target::Gfx1030) {
                    out.extend_from_slice(e.as_bytes());
                }
            }
        }
        Item::Template {
            pick,
            regs,
            imm,
            literal,
        } => {
            let t = templates();
            if t.is_empty() {
                return;
            }
            let mut inst = t[pick as usize % t.len()];
            let mut k = 0;
            for s in inst.operands.iter_mut() {
                match s.op {
                    Operand::Reg { code, count } if k < regs.len() => {
                        s.op = Operand::Reg {
                            code: remap(code, count, regs[k]),
                            count,
                        };
                        k += 1;
                    }
                    Operand::Literal(v) => s.op = Operand::Literal(v ^ literal),
                    Operand::Imm(_) if matches!(inst.mods, Modifiers::Simm16(_)) => {
                        s.op = Operand::Imm(imm as i32);
                    }
                    _ => {}
                }
            }
            if let Modifiers::Simm16(_) = inst.mods {
                inst.mods = Modifiers::Simm16(imm as u16);
            }
            let enc = isa::encode(&inst, Target::Gfx1030)
                .or_else(|_| isa::encode(&t[pick as usize % t.len()], Target::Gfx1030));
            if let Ok(e) = enc {
                out.extend_from_slice(e.as_bytes());
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let mut code = Vec::new();
    for item in input.items.iter().take(512) {
        build(item, &mut code);
    }
    let (stage, abi) = match input.stage % 4 {
        0 => (Stage::Ngg, Abi::ngg()),
        1 => (Stage::LegacyVs, Abi::legacy_vs()),
        2 => (Stage::Ps, Abi::no_vertex(2)),
        _ => (Stage::Ngg, Abi::legacy_vs()),
    };
    let config = TraceConfig::new(stage, abi, input.wave32);
    let mode = if input.wave32 {
        isa::Mode::wave32(Target::Gfx1030)
    } else {
        isa::Mode::wave64(Target::Gfx1030)
    };
    let program = Program::decode(&code, mode);
    let cfg = Cfg::build(&program);
    let trace = trace_program(&program, &cfg, &config);
    let _ = analysis::report::cfg_dot(&program, &cfg);
    let json = analysis::report::trace_json(&trace);
    assert!(serde_json::to_string(&json).is_ok());
    let _ = analysis::report::trace_table(&trace);
    for d in &trace.descriptors {
        let Some(b) = d.bound else { continue };
        for a in trace.accesses.iter().filter(|a| a.descriptor == Some(d.id) && a.idxen) {
            let agrees = match a.index {
                Some(IndexSource::Unknown) => a
                    .index_note
                    .as_deref()
                    .is_some_and(|n| n.contains("no lane")),
                // The same id and word; an access that read it back from
                // LDS carries the bound's contract.
                Some(s) => IndexBound::from_access(s, a.through_lds)
                    .is_some_and(|x| x.agree(b) == Some(b)),
                None => false,
            };
            assert!(agrees, "descriptor {:?} bound {b:?} but access {a:?}", d.id);
        }
    }
});
