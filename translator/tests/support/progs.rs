//! Structured random programs for the translator, built through
//! `isa::encode` from templates (shared by the `translate` fuzz target and
//! the regular test that replays fixed seeds).
//!
//! A program is a tree of instructions and forward branches over nested
//! blocks; each template instruction is decoded, its registers are replaced
//! (keeping register tuples aligned), and it is encoded again. Branch
//! offsets are computed from the encoded length of the block they skip.

#![allow(dead_code)]

use isa::{Instruction, Mode, Operand, Target};

/// Template encodings (wave64, gfx1030), assembled once with llvm-mc-19.
pub const TEMPLATES: &[&[u32]] = &[
    // s_mov_b32 s0, s1
    &[0xbe800301],
    // s_add_u32 s0, s1, s2
    &[0x80000201],
    // s_addc_u32 s0, s1, s2
    &[0x82000201],
    // s_and_b32 s0, s1, s2
    &[0x87000201],
    // s_or_b64 s[0:1], s[2:3], s[4:5]
    &[0x88800402],
    // s_and_saveexec_b64 s[0:1], vcc
    &[0xbe80246a],
    // s_mov_b64 exec, s[0:1]
    &[0xbefe0400],
    // s_or_b64 exec, exec, s[0:1]
    &[0x88fe007e],
    // s_cmp_lt_u32 s0, s1
    &[0xbf0a0100],
    // s_cmp_eq_i32 s0, 0
    &[0xbf008000],
    // s_cselect_b32 s0, s1, s2
    &[0x85000201],
    // s_lshl_b32 s0, s1, 3
    &[0x8f008301],
    // s_bfe_u32 s0, s1, 0x40018
    &[0x9380ff01, 0x00040018],
    // s_movk_i32 s1, 0x8000
    &[0xb0018000],
    // s_load_dwordx4 s[4:7], s[0:1], 0x10
    &[0xf4080100, 0xfa000010],
    // s_buffer_load_dwordx2 s[0:1], s[4:7], 0x0
    &[0xf4240002, 0xfa000000],
    // v_add_nc_u32_e32 v0, s0, v1
    &[0x4a000200],
    // v_mul_f32_e32 v0, s0, v1
    &[0x10000200],
    // v_fmac_f32_e32 v0, s0, v1
    &[0x56000200],
    // v_fma_f32 v0, v1, v2, v3
    &[0xd54b0000, 0x040e0501],
    // v_cmp_gt_f32_e32 vcc, 0, v1
    &[0x7c080280],
    // v_cmp_lt_u32_e64 s[0:1], v0, v1
    &[0xd4c10000, 0x00020300],
    // v_cmpx_gt_u32_e32 s0, v0
    &[0x7da80000],
    // v_cndmask_b32_e32 v0, v1, v2, vcc
    &[0x02000501],
    // v_mov_b32_e32 v0, v1
    &[0x7e000301],
    // v_lshlrev_b32_e32 v0, 4, v1
    &[0x34000284],
    // v_bfe_u32 v0, v1, v2, v3
    &[0xd5480000, 0x040e0501],
    // v_cvt_f32_u32_e32 v0, v1
    &[0x7e000d01],
    // v_rcp_f32_e32 v0, v1
    &[0x7e005501],
    // v_mad_u32_u24 v0, v1, v2, v3
    &[0xd5430000, 0x040e0501],
    // v_mul_hi_u32 v0, v1, v2
    &[0xd56a0000, 0x00020501],
    // v_add_co_u32 v0, vcc, v1, v2
    &[0xd70f6a00, 0x00020501],
    // v_min_f32_e32 v0, v1, v2
    &[0x1e000501],
    // v_max_i32_e32 v0, v1, v2
    &[0x24000501],
    // v_mbcnt_lo_u32_b32 v0, -1, 0
    &[0xd7650000, 0x000100c1],
    // v_readlane_b32 s0, v1, s2
    &[0xd7600000, 0x00000501],
    // v_readfirstlane_b32 s0, v1
    &[0x7e000501],
    // v_cvt_u32_f32_e32 v0, v1
    &[0x7e000f01],
    // v_mul_lo_u32 v0, v1, v2
    &[0xd5690000, 0x00020501],
    // v_xor_b32_e32 v0, v1, v2
    &[0x3a000501],
    // v_sub_f32_e32 v0, v1, v2
    &[0x08000501],
    // buffer_load_dwordx4 v[0:3], v4, s[4:7], 0 idxen offset:16
    &[0xe0382010, 0x80010004],
    // buffer_load_dword v0, v1, s[4:7], s2 offen
    &[0xe0301000, 0x02010001],
    // tbuffer_load_format_xyz v[0:2], v3, s[4:7], 0 format:[BUF_FMT_32_32_32_FLOAT] idxen
    &[0xea522000, 0x80010003],
    // buffer_load_ushort v0, v1, s[4:7], 0 idxen
    &[0xe0282000, 0x80010001],
    // exp pos0 v0, v1, v2, v3 done
    &[0xf80008cf, 0x03020100],
    // exp param0 v0, v1, v2, v3
    &[0xf800020f, 0x03020100],
    // exp param1 v4, off, v5, off
    &[0xf8000215, 0x00050004],
    // ds_write_b32 v0, v1
    &[0xd8340000, 0x00000100],
    // s_waitcnt vmcnt(0)
    &[0xbf8c3f70],
    // s_cbranch_execz 0
    &[0xbf880000],
    // s_cbranch_scc1 0
    &[0xbf850000],
    // s_cbranch_scc0 0
    &[0xbf840000],
    // s_cbranch_vccz 0
    &[0xbf860000],
    // s_branch 0
    &[0xbf820000],
    // s_endpgm
    &[0xbf810000],
    // s_movk_i32 s100, 0x3
    &[0xb0640003],
    // s_sub_u32 s100, s100, 1
    &[0x80e48164],
    // s_cmp_lg_u32 s100, 0
    &[0xbf078064],
];

/// Loop templates: counter init, decrement, compare (s100 is never
/// chosen for other instructions).
pub const LOOP_INIT: usize = ENDPGM + 1;

/// Index of the branch templates.
pub const EXECZ: usize = 50;
/// `s_cbranch_scc1`.
pub const SCC1: usize = 51;
/// `s_cbranch_scc0`.
pub const SCC0: usize = 52;
/// `s_cbranch_vccz`.
pub const VCCZ: usize = 53;
/// `s_endpgm`.
pub const ENDPGM: usize = 55;
/// Templates that are straight-line instructions (everything before the
/// branches).
pub const STRAIGHT: usize = 50;

/// One generated item.
#[derive(Clone, Debug)]
pub enum Item {
    /// A template with register choices.
    Inst {
        /// Template index (mod STRAIGHT).
        t: u8,
        /// Register seeds, one per operand.
        regs: [u8; 6],
    },
    /// A uniform counted loop (1..=4 iterations) around a block.
    Loop {
        /// Iterations - 1 (mod 4).
        n: u8,
        /// The body.
        body: Vec<Item>,
    },
    /// Inside a loop: a uniform conditional branch (`s_cbranch_scc1` or
    /// `scc0`) out of the innermost loop (a `break`, kind even) or back to
    /// its head (a `continue`, kind odd). Outside a loop it emits nothing.
    Exit {
        /// Break or continue (bit 0), scc1 or scc0 (bit 1).
        kind: u8,
    },
    /// A forward branch over a block.
    If {
        /// Which branch (execz, scc1, scc0, vccz).
        kind: u8,
        /// The skipped block.
        body: Vec<Item>,
    },
}

fn words_of(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn template(i: usize) -> Option<Instruction> {
    let bytes = words_of(TEMPLATES[i]);
    isa::decode(&bytes, Mode::wave64(Target::Gfx1030)).ok()
}

/// Replace the registers of `inst` with choices from `regs`.
fn mutate(mut inst: Instruction, regs: &[u8; 6]) -> Instruction {
    for (k, s) in inst.operands.iter_mut().enumerate() {
        let seed = regs[k % 6];
        if let Operand::Reg { code, count } = s.op {
            let align = match count {
                1 => 1u16,
                2 => 2,
                _ => 4,
            };
            if code >= 256 {
                // v0..v15, room for the tuple.
                let n = (seed as u16 % 16).min(255 - count as u16);
                s.op = Operand::Reg {
                    code: 256 + n,
                    count,
                };
            } else if code < 106 && !seed.is_multiple_of(4) {
                // s0..s23, aligned; a quarter of the time keep the register.
                let n = (seed as u16 % 24) / align * align;
                s.op = Operand::Reg { code: n, count };
            }
        }
    }
    inst
}

/// Encode an instruction, or `None` when the encoder refuses it.
fn enc(inst: &Instruction) -> Option<Vec<u8>> {
    isa::encode(inst, Target::Gfx1030)
        .ok()
        .map(|e| e.as_bytes().to_vec())
}

/// A loop exit waiting for its loop's offsets: where its branch is in the
/// buffer being built, and whether it breaks (else it continues).
type Fixup = (usize, bool);

fn emit(
    items: &[Item],
    out: &mut Vec<u8>,
    depth: u32,
    in_loop: bool,
    budget: &mut u32,
) -> Vec<Fixup> {
    let mut fix = Vec::new();
    for it in items {
        if *budget == 0 {
            return fix;
        }
        *budget -= 1;
        match it {
            Item::Inst { t, regs } => {
                let i = *t as usize % STRAIGHT;
                if let Some(inst) = template(i) {
                    if let Some(b) = enc(&mutate(inst, regs)) {
                        out.extend(b);
                    }
                }
            }
            Item::Exit { kind } => {
                if !in_loop {
                    continue;
                }
                let t = if kind & 2 == 0 { SCC1 } else { SCC0 };
                if let Some(b) = template(t).as_ref().and_then(enc) {
                    fix.push((out.len(), kind & 1 == 0));
                    out.extend(b);
                }
            }
            Item::Loop { n, body } => {
                if depth >= 3 {
                    continue;
                }
                let mut inner = Vec::new();
                let exits = emit(body, &mut inner, depth + 1, true, budget);
                let init = words_of(TEMPLATES[LOOP_INIT]);
                let mut init = init;
                init[0] = 1 + n % 4; // simm16 low byte
                out.extend(init);
                let start = out.len();
                out.extend(&inner);
                out.extend(words_of(TEMPLATES[LOOP_INIT + 1]));
                out.extend(words_of(TEMPLATES[LOOP_INIT + 2]));
                let Some(mut br) = template(SCC1) else {
                    continue;
                };
                if let Some(s) = br.operands.first_mut() {
                    s.op = Operand::Imm(-((inner.len() as i32 + 12) / 4));
                }
                if let Some(b) = enc(&br) {
                    out.extend(b);
                }
                // Breaks go past the loop's branch, continues to its head.
                let end = out.len();
                for (p, brk) in exits {
                    let at = start + p;
                    let target = if brk { end } else { start };
                    let simm = ((target as i64 - at as i64 - 4) / 4) as i16;
                    out[at..at + 2].copy_from_slice(&simm.to_le_bytes());
                }
            }
            Item::If { kind, body } => {
                if depth >= 3 {
                    continue;
                }
                let mut inner = Vec::new();
                let exits = emit(body, &mut inner, depth + 1, in_loop, budget);
                let t = [EXECZ, SCC1, SCC0, VCCZ][*kind as usize % 4];
                let Some(mut br) = template(t) else { continue };
                if let Some(s) = br.operands.first_mut() {
                    s.op = Operand::Imm((inner.len() / 4) as i32);
                }
                if let Some(b) = enc(&br) {
                    out.extend(b);
                    let base = out.len();
                    fix.extend(exits.into_iter().map(|(p, brk)| (base + p, brk)));
                    out.extend(inner);
                }
            }
        }
    }
    fix
}

/// The program's bytes, ending in `s_endpgm`.
pub fn build(items: &[Item]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut budget = 96;
    emit(items, &mut out, 0, false, &mut budget);
    out.extend(words_of(TEMPLATES[ENDPGM]));
    out
}

/// A small deterministic generator (xorshift) for tests without a fuzzer.
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// A random item list.
    pub fn items(&mut self, depth: u32) -> Vec<Item> {
        self.items_in(depth, false)
    }
    /// A random item list, with loop exits when inside a loop.
    pub fn items_in(&mut self, depth: u32, in_loop: bool) -> Vec<Item> {
        let n = (self.next() % 12) as usize;
        (0..n)
            .map(|_| {
                if depth < 3 && self.next().is_multiple_of(5) {
                    Item::If {
                        kind: self.next() as u8,
                        body: self.items_in(depth + 1, in_loop),
                    }
                } else if depth < 2 && self.next().is_multiple_of(9) {
                    Item::Loop {
                        n: self.next() as u8,
                        body: self.items_in(depth + 1, true),
                    }
                } else if in_loop && self.next().is_multiple_of(7) {
                    Item::Exit {
                        kind: self.next() as u8,
                    }
                } else {
                    let r = self.next().to_le_bytes();
                    Item::Inst {
                        t: self.next() as u8,
                        regs: [r[0], r[1], r[2], r[3], r[4], r[5]],
                    }
                }
            })
            .collect()
    }
}
