//! Arbitrary programs through the interpreter: template instructions of the
//! RADV corpus with rewritten registers and immediates, raw dwords, and
//! branches, run as a small NGG or legacy-VS draw over arbitrary user data
//! and memory. The interpreter must never panic, and must stop within its
//! step bound (a runaway loop is an error value).

#![no_main]

use arbitrary::Arbitrary;
use interp::gen::GenMemory;
use interp::{run_draw, Draw, DrawConfig, Limits, Program};
use isa::{Abi, Instruction, Mode, Modifiers, Operand, Stage, Target};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const SHADERS: [&[u8]; 6] = [
    include_bytes!("../../corpus/radv/instanced-nggc/code.bin"),
    include_bytes!("../../corpus/radv/cube-nggc/code.bin"),
    include_bytes!("../../corpus/radv/instanced-legacy-vs/code.bin"),
    include_bytes!("../../corpus/radv/instanced/code.bin"),
    include_bytes!("../../corpus/radv/compute/code.bin"),
    include_bytes!("../../corpus/radv/fragment-color/code.bin"),
];

fn templates() -> &'static [Instruction] {
    static T: OnceLock<Vec<Instruction>> = OnceLock::new();
    T.get_or_init(|| {
        let mut v = Vec::new();
        for code in SHADERS {
            for (_, r) in isa::Decoder::new(code, Mode::wave64(Target::Gfx1030)) {
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
    Template {
        pick: u16,
        regs: [u8; 4],
        imm: i16,
        literal: u32,
    },
    Raw(u32),
    Branch {
        op: u8,
        offset: i8,
    },
    End,
}

#[derive(Arbitrary, Debug)]
struct Input {
    legacy: bool,
    wave64: bool,
    items: Vec<Item>,
    user_data: Vec<u32>,
    memory: Vec<(u16, u32)>,
    first_vertex: u32,
    vertex_count: u8,
    instance_count: u8,
    group_prims: u8,
}

fn remap(code: u16, count: u8, r: u8) -> u16 {
    let n = count.max(1) as u16;
    if code >= 256 {
        return 256 + (r as u16) % (257 - n.min(256));
    }
    if code < 106 {
        let align = if n == 1 {
            1
        } else if n == 2 {
            2
        } else {
            4
        };
        let max = 106 - n;
        return (((r as u16) % (max + 1)) / align) * align;
    }
    code
}

fn build(item: &Item, out: &mut Vec<u8>) {
    match *item {
        Item::Raw(w) => out.extend_from_slice(&w.to_le_bytes()),
        Item::End => out.extend_from_slice(&0xbf81_0000u32.to_le_bytes()),
        Item::Branch { op, offset } => {
            let ops = [2u32, 4, 5, 6, 7, 8, 9];
            let w =
                0xbf80_0000 | (ops[op as usize % ops.len()] << 16) | offset as i16 as u16 as u32;
            out.extend_from_slice(&w.to_le_bytes());
        }
        Item::Template {
            pick,
            regs,
            imm,
            literal,
        } => {
            let t = templates();
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
                        s.op = Operand::Imm(imm as i32)
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
    for item in input.items.iter().take(256) {
        build(item, &mut code);
    }
    let program = Program::new(
        &code,
        Mode::with_wave_size(Target::Gfx1030, if input.wave64 { 64 } else { 32 }),
    );
    let (stage, abi) = if input.legacy {
        (Stage::LegacyVs, Abi::legacy_vs())
    } else {
        (Stage::Ngg, Abi::ngg())
    };
    let mut cfg = DrawConfig::new(&program, stage, abi, input.wave64);
    cfg.group_prims = input.group_prims as u32 % 42 + 1;
    cfg.limits = Limits {
        max_steps: 5_000,
        ..Limits::default()
    };
    let mut memory = GenMemory::default();
    for &(a, w) in input.memory.iter().take(64) {
        memory.write(0x8000_0000_1000 + 4 * a as u64, &[w]);
    }
    let draw = Draw::Auto {
        first_vertex: input.first_vertex,
        vertex_count: input.vertex_count as u32 % 100,
        instance_count: input.instance_count as u32 % 3,
        chunks: Vec::new(),
    };
    let ud: Vec<u32> = input.user_data.iter().take(16).copied().collect();
    // Errors are values; only a panic or a hang is a failure.
    let _ = run_draw(&program, &memory, &ud, &draw, &cfg);
});
