//! What each supported instruction computes, classified once per program
//! from its mnemonic (`isa::Opcode::name`). Operand roles, widths and
//! value types still come from `isa`'s operand slots; this module only
//! names the behaviour.

use isa::{Instruction, OpSpace};

/// Scalar bitwise operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BitOp {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
}

/// `s_*_saveexec_*` / `s_*_wrexec_*` combinations: new exec from
/// (S0, old exec).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SaveOp {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    /// `~S0 & exec`.
    Andn1,
    /// `~S0 | exec`.
    Orn1,
    /// `exec = sdst = ~S0 & exec`.
    Andn1Wrexec,
    /// `exec = sdst = S0 & ~exec`.
    Andn2Wrexec,
}

/// Integer compares (scalar and vector).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ICmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    T,
}

/// Float compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FCmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
}

/// Operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    I32,
    I64,
    U16,
    U32,
    U64,
}

/// Scalar ALU operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SOp {
    Mov { w64: bool },
    Cmov { w64: bool },
    Movk,
    Cmovk,
    Not { w64: bool },
    Wqm { w64: bool },
    Brev { w64: bool },
    Bcnt { one: bool, w64: bool },
    Ff { one: bool, w64: bool },
    Flbit { w64: bool },
    FlbitI { w64: bool },
    Sext8,
    Sext16,
    Bitset { one: bool, w64: bool },
    Getpc,
    Setpc,
    Swappc,
    SaveExec { op: SaveOp, w64: bool },
    Abs,
    Bit { op: BitOp, w64: bool },
    AddU,
    SubU,
    AddI,
    SubI,
    Addc,
    Subb,
    Min { signed: bool },
    Max { signed: bool },
    Cselect { w64: bool },
    Lshl { w64: bool },
    Lshr { w64: bool },
    Ashr { w64: bool },
    Bfm { w64: bool },
    MulI32,
    MulHi { signed: bool },
    Bfe { signed: bool, w64: bool },
    AbsDiff,
    LshlAdd(u8),
    Pack { hi0: bool, hi1: bool },
    Addk,
    Mulk,
    Cmpk { op: ICmp, signed: bool },
    Cmp { op: ICmp, ty: CmpTy },
    Bitcmp { one: bool, w64: bool },
}

/// Branch conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cond {
    Always,
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    Execz,
    Execnz,
}

/// Scalar memory operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SmemOp {
    /// `s_load_dword*`: dwords through a 64-bit address.
    Load { dwords: u8 },
    /// `s_buffer_load_dword*`: dwords through a buffer descriptor.
    BufferLoad { dwords: u8 },
    /// Cache maintenance: no architectural effect here.
    Nop,
    /// `s_memtime`/`s_memrealtime`: a time value (undefined).
    Time,
}

/// Vector ALU operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VOp {
    Nop,
    Mov,
    Not,
    Bfrev,
    Ffbh,
    Ffbl,
    FfbhI,
    Bcnt,
    MbcntLo,
    MbcntHi,
    Readfirstlane,
    Readlane,
    Writelane,
    Swap,
    Permlane16 {
        x: bool,
    },
    Cndmask,
    AddNc,
    SubNc,
    SubrevNc,
    AddCo,
    SubCo,
    SubrevCo,
    AddCi,
    SubCi,
    SubrevCi,
    MulU24,
    MulI24,
    MulHiU24,
    MulHiI24,
    MulLo,
    MulHiU32,
    MulHiI32,
    MadU24,
    MadI24,
    MinI,
    MaxI,
    MinU,
    MaxU,
    Min3I,
    Max3I,
    Med3I,
    Min3U,
    Max3U,
    Med3U,
    And,
    Or,
    Xor,
    Xnor,
    Lshlrev,
    Lshrrev,
    Ashrrev,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Xor3,
    Add3,
    Xad,
    BfeU,
    BfeI,
    Bfi,
    Bfm,
    Alignbit,
    Alignbyte,
    Perm,
    Dot4U8,
    Dot4I8,
    AddF,
    SubF,
    SubrevF,
    MulF,
    MulLegacyF,
    MinF,
    MaxF,
    Min3F,
    Max3F,
    Med3F,
    Fma,
    FmaLegacy,
    Fmac,
    FmacLegacy,
    Fmamk,
    Fmaak,
    /// `v_fma_mix_f32` (`None`), `v_fma_mixlo_f16` (`Some(false)`),
    /// `v_fma_mixhi_f16` (`Some(true)`): an f32 fma of sources that are each
    /// f32 or one half of an f16 pair, the result f32 or one f16 half.
    FmaMix {
        half: Option<bool>,
    },
    Mad,
    MadLegacy,
    Mac,
    MacLegacy,
    Madmk,
    Madak,
    LdexpF,
    Rcp,
    RcpIflag,
    Rsq,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Fract,
    Trunc,
    Ceil,
    Floor,
    Rndne,
    FrexpExp,
    FrexpMant,
    CvtF32I32,
    CvtF32U32,
    CvtI32F32,
    CvtU32F32,
    CvtF16F32,
    CvtF32F16,
    CvtFlrI32F32,
    CvtRpiI32F32,
    CvtF32Ubyte(u8),
    CvtPkrtz,
    CvtPkU8F32,
    /// `v_cmp_*` / `v_cmpx_*` (x: writes exec).
    Cmp {
        op: CmpOp,
        ty: CmpTy,
        x: bool,
    },
    /// `v_cmp_class_*` / `v_cmpx_class_*`.
    CmpClass {
        ty: CmpTy,
        x: bool,
    },
}

/// The compare of a `v_cmp*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    I(ICmp),
    F(FCmp),
}

/// Buffer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BufOp {
    /// Untyped load of `bytes` per lane; `signed` for sbyte/sshort.
    Load { bytes: u8, signed: bool },
    /// A typed (format) load of `comps` components; the format comes from
    /// the instruction (MTBUF) or the descriptor (MUBUF `*_format_*`).
    LoadFormat { comps: u8, typed: bool },
    /// A store or atomic: recorded as an access, guest memory is not
    /// written (the oracle never changes the guest).
    StoreOrAtomic,
    /// Cache invalidation.
    Nop,
}

/// LDS operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DsOp {
    /// Read `bytes` (1, 2, 4, 8, 12, 16) per address; `signed` sign-extends
    /// 1- and 2-byte reads; `d16`: 0 full dword(s), 1 low half kept high,
    /// 2 high half written.
    Read { bytes: u8, signed: bool, d16: u8 },
    /// `ds_read2*`: two elements of `bytes` (4 or 8); offsets in units of
    /// `bytes` (times 64 for `st64`).
    Read2 { bytes: u8, st64: bool },
    /// Write `bytes` from data0; `hi`: the high half of data0 (`_d16_hi`).
    Write { bytes: u8, hi: bool },
    /// `ds_write2*`.
    Write2 { bytes: u8, st64: bool },
    /// 32-bit atomic read-modify-write (`rtn`: returns the old value).
    Atomic { op: DsAtomic, rtn: bool },
    /// No effect (`ds_nop`).
    Nop,
}

/// LDS atomic operations (32-bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DsAtomic {
    Add,
    Sub,
    Rsub,
    Inc,
    Dec,
    MinI,
    MaxI,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    Swap,
}

/// The behaviour of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No architectural effect (waits, priorities, hints).
    Nop,
    /// `s_endpgm`.
    End,
    /// `s_barrier`.
    Barrier,
    /// `s_sendmsg`.
    SendMsg,
    /// `s_denorm_mode`.
    DenormMode,
    /// `s_branch` / `s_cbranch_*`.
    Branch(Cond),
    /// Scalar ALU.
    Salu(SOp),
    /// Scalar memory.
    Smem(SmemOp),
    /// Vector ALU.
    Valu(VOp),
    /// MUBUF/MTBUF.
    Buf(BufOp),
    /// DS.
    Ds(DsOp),
    /// EXP.
    Exp,
    /// Not modelled: the reason.
    Unsupported(&'static str),
}

/// Classify an instruction.
pub(crate) fn classify(inst: &Instruction) -> Kind {
    let name = inst.opcode.name();
    match inst.opcode.space() {
        OpSpace::Sop1 | OpSpace::Sop2 | OpSpace::Sopk | OpSpace::Sopc => scalar(name),
        OpSpace::Sopp => program_control(name),
        OpSpace::Smem => smem(name),
        OpSpace::Vop | OpSpace::Vop3p => match vector(name) {
            Some(op) => Kind::Valu(op),
            None => Kind::Unsupported("vector ALU instruction not modelled"),
        },
        OpSpace::Mubuf | OpSpace::Mtbuf => buffer(name),
        OpSpace::Ds => ds(name),
        OpSpace::Exp => Kind::Exp,
        OpSpace::Vintrp => {
            Kind::Unsupported("parameter interpolation (pixel shaders) not modelled")
        }
        OpSpace::Mimg => Kind::Unsupported("image instructions not modelled"),
        OpSpace::Flat | OpSpace::Global | OpSpace::Scratch => {
            Kind::Unsupported("flat/global/scratch memory not modelled")
        }
    }
}

fn program_control(name: &str) -> Kind {
    match name {
        "s_endpgm" | "s_endpgm_saved" | "s_endpgm_ordered_ps_done" => Kind::End,
        "s_barrier" => Kind::Barrier,
        "s_sendmsg" | "s_sendmsghalt" => Kind::SendMsg,
        "s_branch" => Kind::Branch(Cond::Always),
        "s_cbranch_scc0" => Kind::Branch(Cond::Scc0),
        "s_cbranch_scc1" => Kind::Branch(Cond::Scc1),
        "s_cbranch_vccz" => Kind::Branch(Cond::Vccz),
        "s_cbranch_vccnz" => Kind::Branch(Cond::Vccnz),
        "s_cbranch_execz" => Kind::Branch(Cond::Execz),
        "s_cbranch_execnz" => Kind::Branch(Cond::Execnz),
        "s_denorm_mode" => Kind::DenormMode,
        "s_nop" | "s_waitcnt" | "s_setprio" | "s_clause" | "s_sleep" | "s_inst_prefetch"
        | "s_icache_inv" | "s_ttracedata" | "s_ttracedata_imm" | "s_waitcnt_depctr"
        | "s_incperflevel" | "s_decperflevel" | "s_wait_idle" | "s_setkill" => Kind::Nop,
        "s_round_mode" => Kind::Nop,
        _ => Kind::Unsupported("program-control instruction not modelled"),
    }
}

fn cmp_of(s: &str) -> Option<ICmp> {
    Some(match s {
        "eq" => ICmp::Eq,
        "lg" | "ne" => ICmp::Ne,
        "gt" => ICmp::Gt,
        "ge" => ICmp::Ge,
        "lt" => ICmp::Lt,
        "le" => ICmp::Le,
        "f" => ICmp::F,
        "t" | "tru" => ICmp::T,
        _ => return None,
    })
}

fn fcmp_of(s: &str) -> Option<FCmp> {
    Some(match s {
        "f" => FCmp::F,
        "lt" => FCmp::Lt,
        "eq" => FCmp::Eq,
        "le" => FCmp::Le,
        "gt" => FCmp::Gt,
        "lg" => FCmp::Lg,
        "ge" => FCmp::Ge,
        "o" => FCmp::O,
        "u" => FCmp::U,
        "nge" => FCmp::Nge,
        "nlg" => FCmp::Nlg,
        "ngt" => FCmp::Ngt,
        "nle" => FCmp::Nle,
        "neq" => FCmp::Neq,
        "nlt" => FCmp::Nlt,
        "tru" | "t" => FCmp::Tru,
        _ => return None,
    })
}

fn ty_of(s: &str) -> Option<CmpTy> {
    Some(match s {
        "f16" => CmpTy::F16,
        "f32" => CmpTy::F32,
        "f64" => CmpTy::F64,
        "i16" => CmpTy::I16,
        "i32" => CmpTy::I32,
        "i64" => CmpTy::I64,
        "u16" => CmpTy::U16,
        "u32" => CmpTy::U32,
        "u64" => CmpTy::U64,
        _ => return None,
    })
}

fn save_op(s: &str) -> Option<SaveOp> {
    Some(match s {
        "and" => SaveOp::And,
        "or" => SaveOp::Or,
        "xor" => SaveOp::Xor,
        "andn2" => SaveOp::Andn2,
        "orn2" => SaveOp::Orn2,
        "nand" => SaveOp::Nand,
        "nor" => SaveOp::Nor,
        "xnor" => SaveOp::Xnor,
        "andn1" => SaveOp::Andn1,
        "orn1" => SaveOp::Orn1,
        _ => return None,
    })
}

fn bit_op(s: &str) -> Option<BitOp> {
    Some(match s {
        "and" => BitOp::And,
        "or" => BitOp::Or,
        "xor" => BitOp::Xor,
        "andn2" => BitOp::Andn2,
        "orn2" => BitOp::Orn2,
        "nand" => BitOp::Nand,
        "nor" => BitOp::Nor,
        "xnor" => BitOp::Xnor,
        _ => return None,
    })
}

fn scalar(name: &str) -> Kind {
    let Some(rest) = name.strip_prefix("s_") else {
        return Kind::Unsupported("not a scalar instruction");
    };
    let op = match rest {
        "mov_b32" => SOp::Mov { w64: false },
        "mov_b64" => SOp::Mov { w64: true },
        "cmov_b32" => SOp::Cmov { w64: false },
        "cmov_b64" => SOp::Cmov { w64: true },
        "movk_i32" => SOp::Movk,
        "cmovk_i32" => SOp::Cmovk,
        "not_b32" => SOp::Not { w64: false },
        "not_b64" => SOp::Not { w64: true },
        "wqm_b32" => SOp::Wqm { w64: false },
        "wqm_b64" => SOp::Wqm { w64: true },
        "brev_b32" => SOp::Brev { w64: false },
        "brev_b64" => SOp::Brev { w64: true },
        "bcnt0_i32_b32" => SOp::Bcnt {
            one: false,
            w64: false,
        },
        "bcnt0_i32_b64" => SOp::Bcnt {
            one: false,
            w64: true,
        },
        "bcnt1_i32_b32" => SOp::Bcnt {
            one: true,
            w64: false,
        },
        "bcnt1_i32_b64" => SOp::Bcnt {
            one: true,
            w64: true,
        },
        "ff0_i32_b32" => SOp::Ff {
            one: false,
            w64: false,
        },
        "ff0_i32_b64" => SOp::Ff {
            one: false,
            w64: true,
        },
        "ff1_i32_b32" => SOp::Ff {
            one: true,
            w64: false,
        },
        "ff1_i32_b64" => SOp::Ff {
            one: true,
            w64: true,
        },
        "flbit_i32_b32" => SOp::Flbit { w64: false },
        "flbit_i32_b64" => SOp::Flbit { w64: true },
        "flbit_i32" => SOp::FlbitI { w64: false },
        "flbit_i32_i64" => SOp::FlbitI { w64: true },
        "sext_i32_i8" => SOp::Sext8,
        "sext_i32_i16" => SOp::Sext16,
        "bitset0_b32" => SOp::Bitset {
            one: false,
            w64: false,
        },
        "bitset0_b64" => SOp::Bitset {
            one: false,
            w64: true,
        },
        "bitset1_b32" => SOp::Bitset {
            one: true,
            w64: false,
        },
        "bitset1_b64" => SOp::Bitset {
            one: true,
            w64: true,
        },
        "getpc_b64" => SOp::Getpc,
        "setpc_b64" => SOp::Setpc,
        "swappc_b64" => SOp::Swappc,
        "abs_i32" => SOp::Abs,
        "andn1_wrexec_b32" => SOp::SaveExec {
            op: SaveOp::Andn1Wrexec,
            w64: false,
        },
        "andn1_wrexec_b64" => SOp::SaveExec {
            op: SaveOp::Andn1Wrexec,
            w64: true,
        },
        "andn2_wrexec_b32" => SOp::SaveExec {
            op: SaveOp::Andn2Wrexec,
            w64: false,
        },
        "andn2_wrexec_b64" => SOp::SaveExec {
            op: SaveOp::Andn2Wrexec,
            w64: true,
        },
        "add_u32" => SOp::AddU,
        "sub_u32" => SOp::SubU,
        "add_i32" => SOp::AddI,
        "sub_i32" => SOp::SubI,
        "addc_u32" => SOp::Addc,
        "subb_u32" => SOp::Subb,
        "min_i32" => SOp::Min { signed: true },
        "min_u32" => SOp::Min { signed: false },
        "max_i32" => SOp::Max { signed: true },
        "max_u32" => SOp::Max { signed: false },
        "cselect_b32" => SOp::Cselect { w64: false },
        "cselect_b64" => SOp::Cselect { w64: true },
        "lshl_b32" => SOp::Lshl { w64: false },
        "lshl_b64" => SOp::Lshl { w64: true },
        "lshr_b32" => SOp::Lshr { w64: false },
        "lshr_b64" => SOp::Lshr { w64: true },
        "ashr_i32" => SOp::Ashr { w64: false },
        "ashr_i64" => SOp::Ashr { w64: true },
        "bfm_b32" => SOp::Bfm { w64: false },
        "bfm_b64" => SOp::Bfm { w64: true },
        "mul_i32" => SOp::MulI32,
        "mul_hi_u32" => SOp::MulHi { signed: false },
        "mul_hi_i32" => SOp::MulHi { signed: true },
        "bfe_u32" => SOp::Bfe {
            signed: false,
            w64: false,
        },
        "bfe_i32" => SOp::Bfe {
            signed: true,
            w64: false,
        },
        "bfe_u64" => SOp::Bfe {
            signed: false,
            w64: true,
        },
        "bfe_i64" => SOp::Bfe {
            signed: true,
            w64: true,
        },
        "absdiff_i32" => SOp::AbsDiff,
        "lshl1_add_u32" => SOp::LshlAdd(1),
        "lshl2_add_u32" => SOp::LshlAdd(2),
        "lshl3_add_u32" => SOp::LshlAdd(3),
        "lshl4_add_u32" => SOp::LshlAdd(4),
        "pack_ll_b32_b16" => SOp::Pack {
            hi0: false,
            hi1: false,
        },
        "pack_lh_b32_b16" => SOp::Pack {
            hi0: false,
            hi1: true,
        },
        "pack_hh_b32_b16" => SOp::Pack {
            hi0: true,
            hi1: true,
        },
        "addk_i32" => SOp::Addk,
        "mulk_i32" => SOp::Mulk,
        "bitcmp0_b32" => SOp::Bitcmp {
            one: false,
            w64: false,
        },
        "bitcmp1_b32" => SOp::Bitcmp {
            one: true,
            w64: false,
        },
        "bitcmp0_b64" => SOp::Bitcmp {
            one: false,
            w64: true,
        },
        "bitcmp1_b64" => SOp::Bitcmp {
            one: true,
            w64: true,
        },
        "version" | "waitcnt_vscnt" | "waitcnt_vmcnt" | "waitcnt_expcnt" | "waitcnt_lgkmcnt" => {
            return Kind::Nop
        }
        _ => return scalar_patterned(rest),
    };
    Kind::Salu(op)
}

/// Scalar mnemonics with a regular shape: `s_{op}_saveexec_b{32,64}`,
/// `s_{op}_b{32,64}`, `s_cmp_{op}_{ty}`, `s_cmpk_{op}_{ty}`.
fn scalar_patterned(rest: &str) -> Kind {
    if let Some(p) = rest.strip_suffix("_saveexec_b64") {
        if let Some(op) = save_op(p) {
            return Kind::Salu(SOp::SaveExec { op, w64: true });
        }
    }
    if let Some(p) = rest.strip_suffix("_saveexec_b32") {
        if let Some(op) = save_op(p) {
            return Kind::Salu(SOp::SaveExec { op, w64: false });
        }
    }
    if let Some(p) = rest.strip_suffix("_b64") {
        if let Some(op) = bit_op(p) {
            return Kind::Salu(SOp::Bit { op, w64: true });
        }
    }
    if let Some(p) = rest.strip_suffix("_b32") {
        if let Some(op) = bit_op(p) {
            return Kind::Salu(SOp::Bit { op, w64: false });
        }
    }
    if let Some(p) = rest.strip_prefix("cmpk_") {
        if let Some((c, t)) = p.split_once('_') {
            if let (Some(op), Some(ty)) = (cmp_of(c), ty_of(t)) {
                return Kind::Salu(SOp::Cmpk {
                    op,
                    signed: ty == CmpTy::I32,
                });
            }
        }
    }
    if let Some(p) = rest.strip_prefix("cmp_") {
        if let Some((c, t)) = p.split_once('_') {
            if let (Some(op), Some(ty)) = (cmp_of(c), ty_of(t)) {
                return Kind::Salu(SOp::Cmp { op, ty });
            }
        }
    }
    Kind::Unsupported("scalar instruction not modelled")
}

fn smem(name: &str) -> Kind {
    let dwords = |s: &str| -> Option<u8> {
        Some(match s {
            "dword" => 1,
            "dwordx2" => 2,
            "dwordx4" => 4,
            "dwordx8" => 8,
            "dwordx16" => 16,
            _ => return None,
        })
    };
    if let Some(d) = name.strip_prefix("s_load_").and_then(dwords) {
        return Kind::Smem(SmemOp::Load { dwords: d });
    }
    if let Some(d) = name.strip_prefix("s_buffer_load_").and_then(dwords) {
        return Kind::Smem(SmemOp::BufferLoad { dwords: d });
    }
    match name {
        "s_dcache_inv"
        | "s_dcache_wb"
        | "s_gl1_inv"
        | "s_dcache_discard"
        | "s_dcache_discard_x2"
        | "s_atc_probe"
        | "s_atc_probe_buffer" => Kind::Smem(SmemOp::Nop),
        "s_memtime" | "s_memrealtime" => Kind::Smem(SmemOp::Time),
        _ => Kind::Unsupported("scalar memory instruction not modelled (stores, atomics)"),
    }
}

fn buffer(name: &str) -> Kind {
    let comps = |s: &str| -> Option<u8> {
        Some(match s {
            "x" => 1,
            "xy" => 2,
            "xyz" => 3,
            "xyzw" => 4,
            _ => return None,
        })
    };
    if name.contains("_store_") || name.contains("_atomic_") {
        return Kind::Buf(BufOp::StoreOrAtomic);
    }
    if name.starts_with("buffer_gl") {
        return Kind::Buf(BufOp::Nop);
    }
    if let Some(c) = name.strip_prefix("tbuffer_load_format_").and_then(comps) {
        return Kind::Buf(BufOp::LoadFormat {
            comps: c,
            typed: true,
        });
    }
    if let Some(c) = name.strip_prefix("buffer_load_format_").and_then(comps) {
        return Kind::Buf(BufOp::LoadFormat {
            comps: c,
            typed: false,
        });
    }
    let load = |bytes, signed| Kind::Buf(BufOp::Load { bytes, signed });
    match name {
        "buffer_load_ubyte" => load(1, false),
        "buffer_load_sbyte" => load(1, true),
        "buffer_load_ushort" => load(2, false),
        "buffer_load_sshort" => load(2, true),
        "buffer_load_dword" => load(4, false),
        "buffer_load_dwordx2" => load(8, false),
        "buffer_load_dwordx3" => load(12, false),
        "buffer_load_dwordx4" => load(16, false),
        _ => Kind::Unsupported("buffer instruction not modelled (d16 loads)"),
    }
}

fn ds(name: &str) -> Kind {
    let read = |bytes, signed, d16| Kind::Ds(DsOp::Read { bytes, signed, d16 });
    let write = |bytes, hi| Kind::Ds(DsOp::Write { bytes, hi });
    let atomic = |op, rtn| Kind::Ds(DsOp::Atomic { op, rtn });
    let Some(rest) = name.strip_prefix("ds_") else {
        return Kind::Unsupported("not a DS instruction");
    };
    match rest {
        "nop" => Kind::Ds(DsOp::Nop),
        "read_b32" => read(4, false, 0),
        "read_b64" => read(8, false, 0),
        "read_b96" => read(12, false, 0),
        "read_b128" => read(16, false, 0),
        "read_u8" => read(1, false, 0),
        "read_i8" => read(1, true, 0),
        "read_u16" => read(2, false, 0),
        "read_i16" => read(2, true, 0),
        "read_u8_d16" => read(1, false, 1),
        "read_i8_d16" => read(1, true, 1),
        "read_u16_d16" => read(2, false, 1),
        "read_u8_d16_hi" => read(1, false, 2),
        "read_i8_d16_hi" => read(1, true, 2),
        "read_u16_d16_hi" => read(2, false, 2),
        "read2_b32" => Kind::Ds(DsOp::Read2 {
            bytes: 4,
            st64: false,
        }),
        "read2_b64" => Kind::Ds(DsOp::Read2 {
            bytes: 8,
            st64: false,
        }),
        "read2st64_b32" => Kind::Ds(DsOp::Read2 {
            bytes: 4,
            st64: true,
        }),
        "read2st64_b64" => Kind::Ds(DsOp::Read2 {
            bytes: 8,
            st64: true,
        }),
        "write_b8" => write(1, false),
        "write_b16" => write(2, false),
        "write_b32" => write(4, false),
        "write_b64" => write(8, false),
        "write_b96" => write(12, false),
        "write_b128" => write(16, false),
        "write_b8_d16_hi" => write(1, true),
        "write_b16_d16_hi" => write(2, true),
        "write2_b32" => Kind::Ds(DsOp::Write2 {
            bytes: 4,
            st64: false,
        }),
        "write2_b64" => Kind::Ds(DsOp::Write2 {
            bytes: 8,
            st64: false,
        }),
        "write2st64_b32" => Kind::Ds(DsOp::Write2 {
            bytes: 4,
            st64: true,
        }),
        "write2st64_b64" => Kind::Ds(DsOp::Write2 {
            bytes: 8,
            st64: true,
        }),
        _ => {
            let (base, rtn) = match rest.strip_suffix("_rtn_u32") {
                Some(b) => (b, true),
                None => match rest.strip_suffix("_rtn_i32") {
                    Some(b) => (b, true),
                    None => match rest.strip_suffix("_rtn_b32") {
                        Some(b) => (b, true),
                        None => {
                            let b = rest
                                .strip_suffix("_u32")
                                .or_else(|| rest.strip_suffix("_i32"))
                                .or_else(|| rest.strip_suffix("_b32"));
                            match b {
                                Some(b) => (b, false),
                                None => return Kind::Unsupported("DS instruction not modelled"),
                            }
                        }
                    },
                },
            };
            let signed = rest.contains("_i32");
            let op = match base {
                "add" => DsAtomic::Add,
                "sub" => DsAtomic::Sub,
                "rsub" => DsAtomic::Rsub,
                "inc" => DsAtomic::Inc,
                "dec" => DsAtomic::Dec,
                "min" if signed => DsAtomic::MinI,
                "max" if signed => DsAtomic::MaxI,
                "min" => DsAtomic::MinU,
                "max" => DsAtomic::MaxU,
                "and" => DsAtomic::And,
                "or" => DsAtomic::Or,
                "xor" => DsAtomic::Xor,
                "wrxchg" => DsAtomic::Swap,
                _ => return Kind::Unsupported("DS instruction not modelled"),
            };
            atomic(op, rtn)
        }
    }
}

fn vector(name: &str) -> Option<VOp> {
    use VOp::*;
    let rest = name.strip_prefix("v_")?;
    Some(match rest {
        "nop" => Nop,
        "mov_b32" => Mov,
        "not_b32" => Not,
        "bfrev_b32" => Bfrev,
        "ffbh_u32" => Ffbh,
        "ffbl_b32" => Ffbl,
        "ffbh_i32" => FfbhI,
        "bcnt_u32_b32" => Bcnt,
        "mbcnt_lo_u32_b32" => MbcntLo,
        "mbcnt_hi_u32_b32" => MbcntHi,
        "readfirstlane_b32" => Readfirstlane,
        "readlane_b32" => Readlane,
        "writelane_b32" => Writelane,
        "swap_b32" => Swap,
        "permlane16_b32" => Permlane16 { x: false },
        "permlanex16_b32" => Permlane16 { x: true },
        "cndmask_b32" => Cndmask,
        "add_nc_u32" => AddNc,
        "sub_nc_u32" => SubNc,
        "subrev_nc_u32" => SubrevNc,
        "add_co_u32" => AddCo,
        "sub_co_u32" => SubCo,
        "subrev_co_u32" => SubrevCo,
        "add_co_ci_u32" => AddCi,
        "sub_co_ci_u32" => SubCi,
        "subrev_co_ci_u32" => SubrevCi,
        "mul_u32_u24" => MulU24,
        "mul_i32_i24" => MulI24,
        "mul_hi_u32_u24" => MulHiU24,
        "mul_hi_i32_i24" => MulHiI24,
        "mul_lo_u32" => MulLo,
        "mul_hi_u32" => MulHiU32,
        "mul_hi_i32" => MulHiI32,
        "mad_u32_u24" => MadU24,
        "mad_i32_i24" => MadI24,
        "min_i32" => MinI,
        "max_i32" => MaxI,
        "min_u32" => MinU,
        "max_u32" => MaxU,
        "min3_i32" => Min3I,
        "max3_i32" => Max3I,
        "med3_i32" => Med3I,
        "min3_u32" => Min3U,
        "max3_u32" => Max3U,
        "med3_u32" => Med3U,
        "and_b32" => And,
        "or_b32" => Or,
        "xor_b32" => Xor,
        "xnor_b32" => Xnor,
        "lshlrev_b32" => Lshlrev,
        "lshrrev_b32" => Lshrrev,
        "ashrrev_i32" => Ashrrev,
        "lshl_add_u32" => LshlAdd,
        "add_lshl_u32" => AddLshl,
        "lshl_or_b32" => LshlOr,
        "and_or_b32" => AndOr,
        "or3_b32" => Or3,
        "xor3_b32" => Xor3,
        "add3_u32" => Add3,
        "xad_u32" => Xad,
        "bfe_u32" => BfeU,
        "bfe_i32" => BfeI,
        "bfi_b32" => Bfi,
        "bfm_b32" => Bfm,
        "alignbit_b32" => Alignbit,
        "alignbyte_b32" => Alignbyte,
        "perm_b32" => Perm,
        "dot4_u32_u8" => Dot4U8,
        "dot4_i32_i8" => Dot4I8,
        "add_f32" => AddF,
        "sub_f32" => SubF,
        "subrev_f32" => SubrevF,
        "mul_f32" => MulF,
        "mul_legacy_f32" => MulLegacyF,
        "min_f32" => MinF,
        "max_f32" => MaxF,
        "min3_f32" => Min3F,
        "max3_f32" => Max3F,
        "med3_f32" => Med3F,
        "fma_f32" => Fma,
        "fma_legacy_f32" => FmaLegacy,
        "fmac_f32" => Fmac,
        "fmac_legacy_f32" => FmacLegacy,
        "fmamk_f32" => Fmamk,
        "fmaak_f32" => Fmaak,
        "fma_mix_f32" => FmaMix { half: None },
        "fma_mixlo_f16" => FmaMix { half: Some(false) },
        "fma_mixhi_f16" => FmaMix { half: Some(true) },
        "mad_f32" => Mad,
        "mad_legacy_f32" => MadLegacy,
        "mac_f32" => Mac,
        "mac_legacy_f32" => MacLegacy,
        "madmk_f32" => Madmk,
        "madak_f32" => Madak,
        "ldexp_f32" => LdexpF,
        "rcp_f32" => Rcp,
        "rcp_iflag_f32" => RcpIflag,
        "rsq_f32" => Rsq,
        "sqrt_f32" => Sqrt,
        "exp_f32" => Exp,
        "log_f32" => Log,
        "sin_f32" => Sin,
        "cos_f32" => Cos,
        "fract_f32" => Fract,
        "trunc_f32" => Trunc,
        "ceil_f32" => Ceil,
        "floor_f32" => Floor,
        "rndne_f32" => Rndne,
        "frexp_exp_i32_f32" => FrexpExp,
        "frexp_mant_f32" => FrexpMant,
        "cvt_f32_i32" => CvtF32I32,
        "cvt_f32_u32" => CvtF32U32,
        "cvt_i32_f32" => CvtI32F32,
        "cvt_u32_f32" => CvtU32F32,
        "cvt_f16_f32" => CvtF16F32,
        "cvt_f32_f16" => CvtF32F16,
        "cvt_flr_i32_f32" => CvtFlrI32F32,
        "cvt_rpi_i32_f32" => CvtRpiI32F32,
        "cvt_f32_ubyte0" => CvtF32Ubyte(0),
        "cvt_f32_ubyte1" => CvtF32Ubyte(1),
        "cvt_f32_ubyte2" => CvtF32Ubyte(2),
        "cvt_f32_ubyte3" => CvtF32Ubyte(3),
        "cvt_pkrtz_f16_f32" => CvtPkrtz,
        "cvt_pk_u8_f32" => CvtPkU8F32,
        _ => return vector_compare(rest),
    })
}

fn vector_compare(rest: &str) -> Option<VOp> {
    let (x, p) = match rest.strip_prefix("cmpx_") {
        Some(p) => (true, p),
        None => (false, rest.strip_prefix("cmp_")?),
    };
    let (c, t) = p.rsplit_once('_')?;
    let ty = ty_of(t)?;
    if c == "class" {
        return match ty {
            CmpTy::F32 | CmpTy::F16 | CmpTy::F64 => Some(VOp::CmpClass { ty, x }),
            _ => None,
        };
    }
    let op = match ty {
        CmpTy::F16 | CmpTy::F32 | CmpTy::F64 => CmpOp::F(fcmp_of(c)?),
        _ => CmpOp::I(cmp_of(c)?),
    };
    Some(VOp::Cmp { op, ty, x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_mnemonics_split_into_op_and_type() {
        assert_eq!(
            vector("v_cmp_gt_f32"),
            Some(VOp::Cmp {
                op: CmpOp::F(FCmp::Gt),
                ty: CmpTy::F32,
                x: false
            })
        );
        assert_eq!(
            vector("v_cmpx_gt_i32"),
            Some(VOp::Cmp {
                op: CmpOp::I(ICmp::Gt),
                ty: CmpTy::I32,
                x: true
            })
        );
        assert_eq!(
            vector("v_cmp_class_f32"),
            Some(VOp::CmpClass {
                ty: CmpTy::F32,
                x: false
            })
        );
        assert_eq!(vector("v_cmp_bogus_f32"), None);
    }

    #[test]
    fn scalar_mnemonics_with_a_shape_are_recognised() {
        assert_eq!(
            scalar("s_andn2_saveexec_b64"),
            Kind::Salu(SOp::SaveExec {
                op: SaveOp::Andn2,
                w64: true
            })
        );
        assert_eq!(
            scalar("s_nor_b32"),
            Kind::Salu(SOp::Bit {
                op: BitOp::Nor,
                w64: false
            })
        );
        assert_eq!(
            scalar("s_cmp_eq_i32"),
            Kind::Salu(SOp::Cmp {
                op: ICmp::Eq,
                ty: CmpTy::I32
            })
        );
        assert_eq!(
            scalar("s_cmpk_lt_u32"),
            Kind::Salu(SOp::Cmpk {
                op: ICmp::Lt,
                signed: false
            })
        );
        assert!(matches!(scalar("s_getreg_b32"), Kind::Unsupported(_)));
    }

    #[test]
    fn ds_atomics_parse_their_return_form() {
        assert_eq!(
            ds("ds_add_rtn_u32"),
            Kind::Ds(DsOp::Atomic {
                op: DsAtomic::Add,
                rtn: true
            })
        );
        assert_eq!(
            ds("ds_max_i32"),
            Kind::Ds(DsOp::Atomic {
                op: DsAtomic::MaxI,
                rtn: false
            })
        );
    }
}
