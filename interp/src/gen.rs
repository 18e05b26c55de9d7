//! Generated fetch-like vertex shaders, for the `soundness` fuzz target and
//! the negative-control tests: a descriptor table behind user-data word 0,
//! vertex-buffer fetches whose index is the vertex or instance id moved,
//! added to user-data words, constants or table words, under exec masks,
//! branches, LDS round trips and lane swaps — and draws to run them.
//!
//! Every instruction is built from a decoded template whose operands are
//! rewritten and then encoded with `isa::encode`, so the programs exercise
//! the encoder too. With the `arbitrary` feature the types implement
//! `arbitrary::Arbitrary`.

use crate::memory::GuestMemory;
use drawbind::draws::DrawSpec;
use isa::{Abi, Instruction, Mode, Modifiers, Operand, Stage, Target};
use std::collections::HashMap;

/// One step of a generated program. Register numbers are taken modulo the
/// pools: VGPRs `v0..v15`, 1..=3 descriptors, user-data words 1..=4, table
/// words 0..=7.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Item {
    /// `v_mov_b32 vD, vS`.
    Move {
        /// Destination.
        dst: u8,
        /// Source.
        src: u8,
    },
    /// `v_add_nc_u32 vD, s(ud k), vS`.
    AddUserData {
        /// Destination.
        dst: u8,
        /// User-data word (1..=4).
        k: u8,
        /// Source.
        src: u8,
    },
    /// `v_add_nc_u32 vD, <constant>, vS`.
    AddConst {
        /// Destination.
        dst: u8,
        /// The constant (inline or literal).
        value: u16,
        /// Source.
        src: u8,
    },
    /// `s_load_dword s48, table, 0x40 + 4·word` then `v_add_nc_u32 vD, s48, vS`.
    AddTableWord {
        /// Destination.
        dst: u8,
        /// Which table word.
        word: u8,
        /// Source.
        src: u8,
    },
    /// `buffer_load_dword{,x2,x3,x4} vD, vI, desc, 0 idxen offset:o`.
    Fetch {
        /// Descriptor.
        desc: u8,
        /// First data VGPR.
        dst: u8,
        /// Index VGPR.
        index: u8,
        /// Dwords (1..=4).
        dwords: u8,
        /// Immediate offset (bytes, multiple of 4, < 64).
        offset: u8,
    },
    /// Narrow exec to lanes where `vR < bound` (`v_cmp_gt_u32 vcc, bound,
    /// vR` + `s_and_saveexec_b64`), saving the old exec.
    Mask {
        /// The compared VGPR.
        reg: u8,
        /// The bound.
        bound: u8,
        /// Use `v_cmpx` instead (no save; the next restore restores
        /// the entry exec).
        cmpx: bool,
    },
    /// Restore the last saved exec (`s_mov_b64 exec, s` or `s_or_b64 exec,
    /// exec, s`); nothing when no exec is saved.
    Restore {
        /// Use `s_or_b64`.
        or: bool,
    },
    /// `s_cmp_eq_u32 s(ud k), c` + `s_cbranch_scc1` over the next `n` items.
    Skip {
        /// User-data word (1..=4).
        k: u8,
        /// Compared constant (0..=64).
        c: u8,
        /// Items to skip (1..=4).
        n: u8,
    },
    /// LDS round trip: every lane writes `vV` at `4 · lane + 256·slot`
    /// (lane id from `v_mbcnt`), then reads lane `lane ^ xor` back into
    /// `vD`.
    Lds {
        /// Value VGPR.
        value: u8,
        /// Destination.
        dst: u8,
        /// Address slot (0..=3).
        slot: u8,
        /// Read another lane's value (xor of the lane id, 0..=3).
        xor: u8,
    },
    /// Only the write half of [`Item::Lds`]: `vV` to `4 · lane + 256·slot`.
    LdsWrite {
        /// Value VGPR.
        value: u8,
        /// Address slot (0..=3).
        slot: u8,
    },
    /// Only the read half of [`Item::Lds`]: lane `lane ^ xor`'s dword of
    /// `slot` into `vD`.
    LdsRead {
        /// Destination.
        dst: u8,
        /// Address slot (0..=3).
        slot: u8,
        /// Read another lane's value (xor of the lane id, 0..=3).
        xor: u8,
    },
    /// `v_swap_b32 vA, vB`.
    Swap {
        /// First.
        a: u8,
        /// Second.
        b: u8,
    },
    /// `s_barrier`.
    Barrier,
}

/// One descriptor of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DescSpec {
    /// Stride in dwords (0..=16).
    pub stride_dwords: u8,
    /// `num_records` (see [`GenProgram::desc_words`]).
    pub records: u32,
    /// OOB_SELECT (0..=3; mostly 1).
    pub oob: u8,
    /// Base offset in the data region (dwords).
    pub base: u16,
}

/// A generated shader with its data and one draw.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GenProgram {
    /// Legacy VS (else NGG).
    pub legacy: bool,
    /// Wave64 (else wave32).
    pub wave64: bool,
    /// NGG: start with RADV's exec-from-`merged_wave_info` prologue.
    pub ngg_prologue: bool,
    /// 1..=3 descriptors.
    pub descs: Vec<DescSpec>,
    /// Table words 0..=7 (at table offset 0x40).
    pub table_words: [u32; 8],
    /// User-data words 1..=4.
    pub user: [u32; 4],
    /// The body.
    pub items: Vec<Item>,
    /// The draw: first vertex.
    pub first_vertex: u32,
    /// Vertex count (taken modulo 200).
    pub vertex_count: u8,
    /// Instances (modulo 4).
    pub instance_count: u8,
    /// Split chunks (at most 3; counts modulo 64).
    pub chunks: Vec<(u32, u8)>,
    /// NGG primitives per workgroup (1..=42).
    pub group_prims: u8,
}

/// A built case: code, entry registers and data for [`crate::Verifier`].
pub struct GenCase {
    /// The code.
    pub code: Vec<u8>,
    /// NGG or legacy VS.
    pub stage: Stage,
    /// Entry registers.
    pub abi: Abi,
    /// Wave64.
    pub wave64: bool,
    /// Guest memory.
    pub memory: GenMemory,
    /// User data (word 0 is the table pointer).
    pub user_data: Vec<u32>,
    /// The draw.
    pub draw: DrawSpec,
    /// NGG primitives per workgroup.
    pub group_prims: u32,
}

/// Guest address of the generated table (user-data word 0 = `0x1000`).
pub const TABLE: u64 = 0x8000_0000_1000;
/// The data region: every dword from here on reads as a value derived from
/// its address.
pub const DATA: u64 = 0x1_0000_0000;

/// Guest memory of a generated case: explicit dwords plus procedural data.
#[derive(Clone, Debug, Default)]
pub struct GenMemory {
    words: HashMap<u64, u32>,
}

impl GenMemory {
    /// Write dwords.
    pub fn write(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.words.insert(addr + 4 * i as u64, *w);
        }
    }
    fn dword(&self, a: u64) -> Option<u32> {
        if let Some(w) = self.words.get(&a) {
            return Some(*w);
        }
        (a >= DATA).then(|| (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as u32 & 0xffff)
    }
}

impl GuestMemory for GenMemory {
    fn read_u32(&self, addr: u64) -> Option<u32> {
        if addr.is_multiple_of(4) {
            return self.dword(addr);
        }
        let a = addr & !3;
        let s = (addr - a) * 8;
        let lo = self.dword(a)? as u64;
        let hi = self.dword(a + 4)? as u64;
        Some(((lo | hi << 32) >> s) as u32)
    }
}

/// Template words (llvm-mc-19, wave64).
mod t {
    pub const S_MOV_B32: &[u32] = &[0xbea8_0308]; // s_mov_b32 s40, s8
    pub const S_MOVK: &[u32] = &[0xb029_8000]; // s_movk_i32 s41, 0x8000
    pub const S_LOAD4: &[u32] = &[0xf408_0b14, 0xfa00_0010]; // s_load_dwordx4 s[44:47], s[40:41], 0x10
    pub const S_LOAD1: &[u32] = &[0xf400_0c14, 0xfa00_0020]; // s_load_dword s48, s[40:41], 0x20
    pub const S_WAIT: &[u32] = &[0xbf8c_0070]; // s_waitcnt vmcnt(0) lgkmcnt(0)
    pub const V_MOV: &[u32] = &[0x7e00_0301]; // v_mov_b32 v0, v1
    pub const V_ADD_S: &[u32] = &[0x4a00_0209]; // v_add_nc_u32 v0, s9, v1
    pub const V_ADD_LIT: &[u32] = &[0x4a00_02ff, 0x0000_1234]; // v_add_nc_u32 v0, 0x1234, v1
    pub const BUF: [&[u32]; 4] = [
        &[0xe030_2004, 0x800b_0001], // buffer_load_dword v0, v1, s[44:47], 0 idxen offset:4
        &[0xe034_2004, 0x800b_0001], // x2
        &[0xe03c_2004, 0x800b_0001], // x3
        &[0xe038_2004, 0x800b_0001], // x4
    ];
    pub const V_CMP_GT: &[u32] = &[0x7d88_0009]; // v_cmp_gt_u32 vcc, s9, v0
    pub const V_CMPX_GT: &[u32] = &[0x7da8_0009]; // v_cmpx_gt_u32 s9, v0
    pub const SAVEEXEC: &[u32] = &[0xbeb2_246a]; // s_and_saveexec_b64 s[50:51], vcc
    pub const MOV_EXEC: &[u32] = &[0xbefe_0432]; // s_mov_b64 exec, s[50:51]
    pub const OR_EXEC: &[u32] = &[0x88fe_327e]; // s_or_b64 exec, exec, s[50:51]
    pub const SAVE_MOV: &[u32] = &[0xbeb2_047e]; // s_mov_b64 s[50:51], exec
    pub const S_CMP_EQ: &[u32] = &[0xbf06_9009]; // s_cmp_eq_u32 s9, 16
    pub const CBRANCH_SCC1: &[u32] = &[0xbf85_0003]; // s_cbranch_scc1 3
    pub const MBCNT_LO: &[u32] = &[0xd765_0000, 0x0001_00c1]; // v_mbcnt_lo_u32_b32 v0, -1, 0
    pub const MBCNT_HI: &[u32] = &[0xd766_0000, 0x0002_00c1]; // v_mbcnt_hi_u32_b32 v0, -1, v0
    pub const V_LSHL: &[u32] = &[0x3400_0282]; // v_lshlrev_b32 v0, 2, v1
    pub const V_XOR_C: &[u32] = &[0x3a00_0281]; // v_xor_b32 v0, 1, v1
    pub const DS_WRITE: &[u32] = &[0xd834_0010, 0x0000_0100]; // ds_write_b32 v0, v1 offset:16
    pub const DS_READ: &[u32] = &[0xd8d8_0010, 0x0000_0001]; // ds_read_b32 v0, v1 offset:16
    pub const BARRIER: &[u32] = &[0xbf8a_0000];
    pub const SWAP: &[u32] = &[0x7e00_cb01]; // v_swap_b32 v0, v1
    pub const END: &[u32] = &[0xbf81_0000];
    pub const BFM: &[u32] = &[0x92b2_8003]; // s_bfm_b64 s[50:51], s3, 0
    pub const BITCMP: &[u32] = &[0xbf0d_8603]; // s_bitcmp1_b32 s3, 6
    pub const CSELECT: &[u32] = &[0x85fe_32c1]; // s_cselect_b64 exec, -1, s[50:51]
                                                // wave32 forms
    pub const SAVEEXEC32: &[u32] = &[0xbeb2_3c6a]; // s_and_saveexec_b32 s50, vcc_lo
    pub const MOV_EXEC32: &[u32] = &[0xbefe_0332]; // s_mov_b32 exec_lo, s50
    pub const OR_EXEC32: &[u32] = &[0x887e_327e]; // s_or_b32 exec_lo, exec_lo, s50
    pub const SAVE_MOV32: &[u32] = &[0xbeb2_037e]; // s_mov_b32 s50, exec_lo
}

/// A template decoded for the wave size.
fn tpl(words: &[u32], mode: Mode) -> Instruction {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    isa::decode(&bytes, mode).expect("template decodes")
}

/// Descriptor `d`'s first SGPR.
const DESC_SGPR: u8 = 56;
/// The SGPR a table word is loaded into.
const WORD_SGPR: u8 = 52;
/// The first SGPR pair holding a saved exec.
const SAVE_SGPR: u16 = 42;

/// VGPR `n` of the pool (`v0..v15`). Logical 5 and 8 are the ABI's vertex-
/// and instance-id VGPRs (NGG `v5`/`v8`; legacy VS `v0`/`v3`, which trade
/// places with 5 and 8).
fn vreg_of(n: u8, legacy: bool) -> Operand {
    let n = n % 16;
    let n = if legacy {
        match n {
            5 => 0,
            0 => 5,
            8 => 3,
            3 => 8,
            x => x,
        }
    } else {
        n
    };
    Operand::vgpr(n)
}

/// Encode, falling back to nothing (never panics on an encoder refusal).
fn emit(out: &mut Vec<u8>, inst: &Instruction) {
    if let Ok(e) = isa::encode(inst, Target::Gfx1030) {
        out.extend_from_slice(e.as_bytes());
    }
}

/// `inst` with operand `i` replaced.
fn with(mut inst: Instruction, i: usize, op: Operand) -> Instruction {
    if let Some(s) = inst.operands.get_mut(i) {
        s.op = op;
    }
    inst
}

/// A lane-mask pair in wave64, one SGPR in wave32.
fn mask_reg(code: u16, wave64: bool) -> Operand {
    Operand::Reg {
        code,
        count: if wave64 { 2 } else { 1 },
    }
}

/// `v15 = 4 · lane id` (v14 = lane id), then `ds_write_b32 v15, value
/// offset:256·slot`.
fn lds_write(code: &mut Vec<u8>, mode: Mode, value: Operand, slot: u8) {
    emit(code, &with(tpl(t::MBCNT_LO, mode), 0, Operand::vgpr(14)));
    let hi = with(
        with(tpl(t::MBCNT_HI, mode), 0, Operand::vgpr(14)),
        2,
        Operand::vgpr(14),
    );
    emit(code, &hi);
    let sh = with(
        with(tpl(t::V_LSHL, mode), 0, Operand::vgpr(15)),
        2,
        Operand::vgpr(14),
    );
    emit(code, &sh);
    let mut w = with(with(tpl(t::DS_WRITE, mode), 0, Operand::vgpr(15)), 1, value);
    if let Modifiers::Ds(ref mut m) = w.mods {
        m.offset0 = 0;
        m.offset1 = slot % 4;
    }
    emit(code, &w);
    emit(code, &tpl(t::S_WAIT, mode));
}

/// `ds_read_b32 dst, (4 · lane) ^ (4 · xor) offset:256·slot`.
fn lds_read(code: &mut Vec<u8>, mode: Mode, dst: Operand, slot: u8, xor: u8) {
    emit(code, &with(tpl(t::MBCNT_LO, mode), 0, Operand::vgpr(14)));
    let hi = with(
        with(tpl(t::MBCNT_HI, mode), 0, Operand::vgpr(14)),
        2,
        Operand::vgpr(14),
    );
    emit(code, &hi);
    let sh = with(
        with(tpl(t::V_LSHL, mode), 0, Operand::vgpr(15)),
        2,
        Operand::vgpr(14),
    );
    emit(code, &sh);
    let x = with(
        with(tpl(t::V_XOR_C, mode), 0, Operand::vgpr(14)),
        1,
        Operand::Inline(128 + 4 * (xor % 4)),
    );
    emit(code, &with(x, 2, Operand::vgpr(15)));
    let mut r = with(with(tpl(t::DS_READ, mode), 0, dst), 1, Operand::vgpr(14));
    if let Modifiers::Ds(ref mut m) = r.mods {
        m.offset0 = 0;
        m.offset1 = slot % 4;
    }
    emit(code, &r);
    emit(code, &tpl(t::S_WAIT, mode));
}

impl GenProgram {
    /// The four V# words of descriptor `d`.
    pub fn desc_words(d: &DescSpec) -> [u32; 4] {
        let stride = (d.stride_dwords as u32 % 17) * 4;
        let base = DATA + 4 * d.base as u64;
        let oob = match d.oob % 8 {
            // A stride-0 descriptor is raw, as RADV makes them. (With
            // OOB_SELECT 1 and stride 0 the hardware checks the index only and
            // every record is the bytes at the base: drawbind classes any
            // stride-0 descriptor as raw and binds `num_records` bytes, which
            // such a read can pass; the fuzzer found it. See the
            // `structured_stride_zero` regression test.)
            _ if stride == 0 => 3,
            0 => 0,
            1 => 3,
            _ => 1,
        };
        [
            base as u32,
            (base >> 32) as u32 | stride << 16,
            d.records,
            4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 1 << 24 | oob << 28,
        ]
    }

    /// Build the code, memory, user data and draw.
    pub fn build(&self) -> GenCase {
        let wave64 = self.wave64;
        let mode = if wave64 {
            Mode::wave64(Target::Gfx1030)
        } else {
            Mode::wave32(Target::Gfx1030)
        };
        let (stage, abi) = if self.legacy {
            (Stage::LegacyVs, Abi::legacy_vs())
        } else {
            (Stage::Ngg, Abi::ngg())
        };
        let ud = |k: u8| Operand::sgpr(abi.user_data_sgpr + k);
        let legacy = self.legacy;
        let vreg = |n: u8| vreg_of(n, legacy);
        let ndesc = self.descs.len().clamp(1, 3);
        let mut code = Vec::new();
        let exec = mask_reg(126, wave64);
        let vcc = mask_reg(106, wave64);
        // NGG prologue: exec from merged_wave_info.
        if !self.legacy && self.ngg_prologue {
            emit(&mut code, &tpl(t::BFM, mode));
            if wave64 {
                emit(&mut code, &tpl(t::BITCMP, mode));
                emit(&mut code, &tpl(t::CSELECT, mode));
            } else {
                emit(&mut code, &tpl(t::MOV_EXEC32, mode));
            }
        }
        // Table pointer in s[40:41], descriptors in s[44 + 4d ..].
        emit(&mut code, &with(tpl(t::S_MOV_B32, mode), 1, ud(0)));
        emit(&mut code, &tpl(t::S_MOVK, mode));
        for d in 0..ndesc {
            let mut l = with(
                tpl(t::S_LOAD4, mode),
                0,
                Operand::sgprs(DESC_SGPR + 4 * d as u8, 4),
            );
            if let Modifiers::Smem(ref mut m) = l.mods {
                m.offset = 16 * d as i32;
            }
            emit(&mut code, &l);
        }
        emit(&mut code, &tpl(t::S_WAIT, mode));
        // Body. Branches are patched once every item's size is known.
        let mut starts = Vec::new();
        let mut skips: Vec<(usize, usize, u8)> = Vec::new(); // (branch byte offset, item, n)
        let mut saved: Vec<u16> = Vec::new();
        let mut next_save = SAVE_SGPR;
        let (save_mov, saveexec, mov_exec, or_exec) = if wave64 {
            (t::SAVE_MOV, t::SAVEEXEC, t::MOV_EXEC, t::OR_EXEC)
        } else {
            (t::SAVE_MOV32, t::SAVEEXEC32, t::MOV_EXEC32, t::OR_EXEC32)
        };
        for (i, item) in self.items.iter().take(64).enumerate() {
            starts.push(code.len());
            match *item {
                Item::Move { dst, src } => {
                    emit(
                        &mut code,
                        &with(with(tpl(t::V_MOV, mode), 0, vreg(dst)), 1, vreg(src)),
                    );
                }
                Item::AddUserData { dst, k, src } => {
                    let i = with(tpl(t::V_ADD_S, mode), 0, vreg(dst));
                    let i = with(i, 1, ud(1 + k % 4));
                    emit(&mut code, &with(i, 2, vreg(src)));
                }
                Item::AddConst { dst, value, src } => {
                    let c = if value < 65 {
                        Operand::Inline(128 + value as u8)
                    } else {
                        Operand::Literal(value as u32)
                    };
                    let i = with(with(tpl(t::V_ADD_LIT, mode), 0, vreg(dst)), 1, c);
                    emit(&mut code, &with(i, 2, vreg(src)));
                }
                Item::AddTableWord { dst, word, src } => {
                    let mut l = with(tpl(t::S_LOAD1, mode), 0, Operand::sgpr(WORD_SGPR));
                    if let Modifiers::Smem(ref mut m) = l.mods {
                        m.offset = 0x40 + 4 * (word % 8) as i32;
                    }
                    emit(&mut code, &l);
                    emit(&mut code, &tpl(t::S_WAIT, mode));
                    let i = with(
                        with(tpl(t::V_ADD_S, mode), 0, vreg(dst)),
                        1,
                        Operand::sgpr(WORD_SGPR),
                    );
                    emit(&mut code, &with(i, 2, vreg(src)));
                }
                Item::Fetch {
                    desc,
                    dst,
                    index,
                    dwords,
                    offset,
                } => {
                    let n = (dwords % 4) as usize;
                    let first = match vreg(dst) {
                        Operand::Reg { code, .. } => ((code - 256) as u8).min(16 - (n as u8 + 1)),
                        _ => 0,
                    };
                    let mut i = with(tpl(t::BUF[n], mode), 0, Operand::vgprs(first, n as u8 + 1));
                    i = with(i, 1, vreg(index));
                    i = with(
                        i,
                        2,
                        Operand::sgprs(DESC_SGPR + 4 * (desc as usize % ndesc) as u8, 4),
                    );
                    if let Modifiers::Buf(ref mut m) = i.mods {
                        m.offset = ((offset % 16) * 4) as u16;
                    }
                    emit(&mut code, &i);
                    emit(&mut code, &tpl(t::S_WAIT, mode));
                }
                Item::Mask { reg, bound, cmpx } => {
                    let b = Operand::Inline(128 + (bound % 65));
                    if cmpx {
                        if saved.len() < 4 {
                            let s = next_save;
                            next_save += 2;
                            saved.push(s);
                            emit(
                                &mut code,
                                &with(with(tpl(save_mov, mode), 0, mask_reg(s, wave64)), 1, exec),
                            );
                        }
                        let c = with(with(tpl(t::V_CMPX_GT, mode), 0, b), 1, vreg(reg));
                        emit(&mut code, &c);
                    } else if saved.len() < 4 {
                        let c = with(
                            with(with(tpl(t::V_CMP_GT, mode), 0, vcc), 1, b),
                            2,
                            vreg(reg),
                        );
                        emit(&mut code, &c);
                        let s = next_save;
                        next_save += 2;
                        saved.push(s);
                        let sv = with(with(tpl(saveexec, mode), 0, mask_reg(s, wave64)), 1, vcc);
                        emit(&mut code, &sv);
                    }
                }
                Item::Restore { or } => {
                    if let Some(s) = saved.pop() {
                        let r = if or {
                            with(
                                with(with(tpl(or_exec, mode), 0, exec), 1, exec),
                                2,
                                mask_reg(s, wave64),
                            )
                        } else {
                            with(with(tpl(mov_exec, mode), 0, exec), 1, mask_reg(s, wave64))
                        };
                        emit(&mut code, &r);
                    }
                }
                Item::Skip { k, c, n } => {
                    let cmp = with(tpl(t::S_CMP_EQ, mode), 0, ud(1 + k % 4));
                    emit(&mut code, &with(cmp, 1, Operand::Inline(128 + c % 65)));
                    skips.push((code.len(), i, 1 + n % 4));
                    emit(&mut code, &tpl(t::CBRANCH_SCC1, mode));
                }
                Item::Lds {
                    value,
                    dst,
                    slot,
                    xor,
                } => {
                    lds_write(&mut code, mode, vreg(value), slot);
                    lds_read(&mut code, mode, vreg(dst), slot, xor);
                }
                Item::LdsWrite { value, slot } => lds_write(&mut code, mode, vreg(value), slot),
                Item::LdsRead { dst, slot, xor } => lds_read(&mut code, mode, vreg(dst), slot, xor),
                Item::Swap { a, b } => {
                    if a % 16 != b % 16 {
                        emit(
                            &mut code,
                            &with(with(tpl(t::SWAP, mode), 0, vreg(a)), 1, vreg(b)),
                        );
                    }
                }
                Item::Barrier => emit(&mut code, &tpl(t::BARRIER, mode)),
            }
        }
        let end = code.len();
        starts.push(end);
        emit(&mut code, &tpl(t::END, mode));
        for (at, item, n) in skips {
            let target = starts[(item + 1 + n as usize).min(starts.len() - 1)];
            let off = (target as i64 - (at as i64 + 4)) / 4;
            let w = 0xbf85_0000u32 | (off as i16 as u16 as u32);
            code[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
        // Memory: descriptors, table words.
        let mut memory = GenMemory::default();
        for (d, spec) in self.descs.iter().take(3).enumerate() {
            memory.write(TABLE + 16 * d as u64, &GenProgram::desc_words(spec));
        }
        if self.descs.is_empty() {
            memory.write(
                TABLE,
                &GenProgram::desc_words(&DescSpec {
                    stride_dwords: 4,
                    records: 1 << 20,
                    oob: 2,
                    base: 0,
                }),
            );
        }
        memory.write(TABLE + 0x40, &self.table_words);
        let mut user_data = vec![0x1000];
        user_data.extend_from_slice(&self.user);
        let draw = DrawSpec::Auto {
            first_vertex: self.first_vertex,
            vertex_count: (self.vertex_count as u32 % 200).min(u32::MAX - self.first_vertex),
            instance_count: self.instance_count as u32 % 4,
            chunks: self
                .chunks
                .iter()
                .take(3)
                .map(|&(f, c)| (f, (c as u32 % 64).min(u32::MAX - f)))
                .collect(),
        };
        GenCase {
            code,
            stage,
            abi,
            wave64,
            memory,
            user_data,
            draw,
            group_prims: (self.group_prims as u32 % 42) + 1,
        }
    }
}
