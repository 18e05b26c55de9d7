//! Scalar-ALU cases of the opcode-level differential test: for each 32-bit
//! SOP1/SOP2/SOPK/SOPC instruction the translator lifts, a legacy-VS
//! shader that loads four operand sets from memory (so the translator
//! cannot fold them), runs the instruction once per set and moves each
//! result and the SCC it leaves into VGPRs for export:
//!
//! ```text
//! s_mov_b32 s40, s2 ; s_movk_i32 s41, 0x8000          table pointer (user-data word 0)
//! s_load_dwordx16 s[20:35], s[40:41], 0x10 ; s_waitcnt  four sets (a, b, c, unused)
//! per set j: s_mov_b32 s[48+j], b                      the destination's old value
//!            s_cmp_lg_u32 c, 0                         SCC in = (c != 0)
//!            <op> s[48+j], a, b  (SOPK: s[48+j], imm_j)
//!            s_cselect_b32 s[56+j], -1, 0              SCC out
//! v_mov_b32 v24+j, s[48+j] ; v_mov_b32 v28+j, s[56+j]
//! exp pos0 ; exp param0 v24..v27 ; exp param1 v28..v31 done
//! ```
//!
//! Operand sets pair edge values (0, 1, -1, INT_MIN, INT_MAX, shift counts
//! 31/32/33/63, ...) and seeded random words, with SCC in both states.

use drawbind::draws::{Addr, DrawSpec, DrawsFile, MemoryBlock, Word32};
use isa::{Mode, OpSpace, Opcode, Target};

/// The table (as in `gen.rs`): user-data word 0 points at it.
const TABLE_UD: u32 = 0x1000;
const TABLE: u64 = 0x8000_0000_1000;
/// Operand sets per shader.
pub const SETS: usize = 4;

/// The SOPK immediates, one per set.
const SIMM: [u32; SETS] = [0x8000, 0x7fff, 0xffff, 0x0021];

/// 32-bit integer edge values for scalar operands.
pub const EDGES: &[u32] = &[
    0,
    1,
    2,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    31,
    32,
    33,
    63,
    64,
    0xffff,
    0x1_0000,
    0x8000_0001,
    0x0000_1f10,
    0xdead_beef,
];

/// How an instruction reads its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// SOP1: `dst, a`.
    Sop1,
    /// SOP2: `dst, a, b`.
    Sop2,
    /// SOPK: `dst, imm` (the destination holds `b` first).
    Sopk,
    /// SOPC: `a, b`, SCC only.
    Sopc,
}

/// One scalar case.
#[derive(Clone, Debug)]
pub struct ScalarCase {
    /// The mnemonic.
    pub name: &'static str,
    /// The whole shader.
    pub code: Vec<u8>,
    /// The instruction under test, as text (set 0).
    pub text: String,
}

fn enc(space: OpSpace, op: u16, dst: u32, a: u32, b: u32) -> u32 {
    let op = u32::from(op);
    match space {
        OpSpace::Sop1 => 0xbe80_0000 | dst << 16 | op << 8 | a,
        OpSpace::Sop2 => 0x8000_0000 | op << 23 | dst << 16 | b << 8 | a,
        OpSpace::Sopk => 0xb000_0000 | op << 23 | dst << 16 | (a & 0xffff),
        _ => 0xbf00_0000 | op << 16 | b << 8 | a,
    }
}

/// The 32-bit scalar instructions worth a case: 64-bit operands, lane
/// masks, exec, program counters, M0-relative moves, hardware registers
/// and waits are left out (other tests own them, or they have no value to
/// compare).
fn wanted(name: &str) -> bool {
    let skip = [
        "64",
        "exec",
        "pc",
        "movrel",
        "reg",
        "wait",
        "call",
        "version",
        "quadmask",
        "wqm",
        "subvector",
        "setvskip",
        "cbranch",
        "rfe",
        "abs_i32",
    ];
    name.starts_with("s_") && !skip.iter().any(|s| name.contains(s))
}

/// Every wanted scalar instruction isa's tables hold, with its shape.
pub fn all_salu() -> Vec<(Opcode, Shape)> {
    let mut out = Vec::new();
    for (space, shape, n) in [
        (OpSpace::Sop1, Shape::Sop1, 256u16),
        (OpSpace::Sop2, Shape::Sop2, 128),
        (OpSpace::Sopk, Shape::Sopk, 32),
        (OpSpace::Sopc, Shape::Sopc, 128),
    ] {
        for i in 0..n {
            let op = Opcode::new(space, i);
            let name = op.name();
            if name.is_empty() || name.starts_with('<') || !wanted(name) {
                continue;
            }
            out.push((op, shape));
        }
    }
    out
}

/// The shader of `op`, or why there is none (it does not decode back as
/// itself).
pub fn build(op: Opcode, shape: Shape) -> Result<ScalarCase, String> {
    let mode = Mode::wave64(Target::Gfx1030);
    let mut w: Vec<u32> = vec![
        0xbea8_0302, // s_mov_b32 s40, s2
        0xb029_8000, // s_movk_i32 s41, 0x8000
        0xf410_0514,
        0xfa00_0010, // s_load_dwordx16 s[20:35], s[40:41], 0x10
        0xbf8c_c07f, // s_waitcnt lgkmcnt(0)
    ];
    let mut text = String::new();
    for j in 0..SETS as u32 {
        let (a, b, c, dst) = (20 + 4 * j, 21 + 4 * j, 22 + 4 * j, 48 + j);
        w.push(enc(OpSpace::Sop1, isa::op::S_MOV_B32.index(), dst, b, 0));
        w.push(enc(
            OpSpace::Sopc,
            isa::op::S_CMP_LG_U32.index(),
            0,
            c,
            0x80,
        ));
        let inst = match shape {
            Shape::Sopk => enc(OpSpace::Sopk, op.index(), dst, SIMM[j as usize], 0),
            _ => enc(op.space(), op.index(), dst, a, b),
        };
        let bytes = inst.to_le_bytes();
        let d = isa::decode(&bytes, mode).map_err(|e| format!("does not decode: {e:?}"))?;
        if d.opcode != op {
            return Err(format!("decodes as {}", d.opcode.name()));
        }
        if j == 0 {
            text = isa::Formatter::new(Target::Gfx1030).display(&d).to_string();
        }
        w.push(inst);
        w.push(enc(
            OpSpace::Sop2,
            isa::op::S_CSELECT_B32.index(),
            56 + j,
            0xc1,
            0x80,
        ));
    }
    for j in 0..SETS as u32 {
        w.push(0x7e00_0200 | (24 + j) << 17 | (48 + j));
        w.push(0x7e00_0200 | (28 + j) << 17 | (56 + j));
    }
    w.extend_from_slice(&[
        0xf800_00cf,
        0x1818_1818, // exp pos0 v24, v24, v24, v24
        0xf800_020f,
        0x1b1a_1918, // exp param0 v24, v25, v26, v27
        0xf800_0a1f,
        0x1f1e_1d1c, // exp param1 v28, v29, v30, v31 done
        0xbf81_0000, // s_endpgm
    ]);
    Ok(ScalarCase {
        name: op.name(),
        code: w.iter().flat_map(|x| x.to_le_bytes()).collect(),
        text,
    })
}

/// Operand sets: every pair of edge values (as `a`, `b`), SCC alternating,
/// then `random` seeded random sets; grouped by [`SETS`].
pub fn operand_sets(random: usize, seed: u64) -> Vec<[[u32; 3]; SETS]> {
    let mut sets = Vec::new();
    let mut k = 0u32;
    for &a in EDGES {
        for &b in EDGES {
            sets.push([a, b, k & 1]);
            k += 1;
        }
    }
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    };
    for _ in 0..random {
        let (a, b, c) = (next(), next(), next() & 1);
        // A third of them small (shift counts and bit positions).
        sets.push([a, if c == 0 { b % 70 } else { b }, c]);
    }
    sets.chunks(SETS)
        .map(|c| {
            let mut g = [[0u32; 3]; SETS];
            for (i, x) in c.iter().enumerate() {
                g[i] = *x;
            }
            g
        })
        .collect()
}

/// The DRAWS.json of one group: the table with the four sets after the
/// (unused) first 16 bytes, one draw of `vertices` vertices.
pub fn draws(group: &[[u32; 3]; SETS], vertices: u32) -> DrawsFile {
    let mut words = vec![Word32(0); 4];
    for s in group {
        words.extend([Word32(s[0]), Word32(s[1]), Word32(s[2]), Word32(0)]);
    }
    DrawsFile {
        code_addr: None,
        user_data: vec![Word32(TABLE_UD)],
        memory: vec![MemoryBlock {
            addr: Addr(TABLE),
            words,
        }],
        draws: vec![DrawSpec::Auto {
            first_vertex: 0,
            vertex_count: vertices,
            instance_count: 1,
            chunks: Vec::new(),
        }],
    }
}
