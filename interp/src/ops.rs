//! What each supported instruction computes, classified once per program
//! from its opcode (`isa::op` constants and `isa::OpFacts`, never the
//! mnemonic). Operand roles, widths and
//! value types still come from `isa`'s operand slots; this module only
//! names the behaviour.

use isa::{
    op, CmpCond, ExecUpdate, Instruction, Logic, MemKind, MemUnit, Memory, NumTy, OpSpace, Opcode,
};

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
/// The direction of a 64-bit vector shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Shift64 {
    /// `v_lshlrev_b64`.
    Left,
    /// `v_lshrrev_b64`.
    Logical,
    /// `v_ashrrev_i64`.
    Arithmetic,
}

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
    /// `v_lshlrev_b64`, `v_lshrrev_b64`, `v_ashrrev_i64`: a 64-bit value
    /// shifted by the low 6 bits of a 32-bit amount.
    Shift64(Shift64),
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
    /// `v_dot2_u32_u16` / `v_dot2_i32_i16`.
    Dot2U16,
    Dot2I16,
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
    /// `v_cubeid_f32` (0), `v_cubesc_f32` (1), `v_cubetc_f32` (2),
    /// `v_cubema_f32` (3): one result of [`crate::float::cube`].
    Cube(u8),
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
    /// `v_add/sub/subrev/mul/fma/max/min_f16` (`rev`: operands swapped).
    F16 {
        op: crate::float::F16Op,
        rev: bool,
    },
    /// `v_fmac_f16`: the accumulator is the destination's half.
    FmacF16,
    /// `v_pack_b32_f16`: two f16 halves into one word.
    PackB32F16,
    /// `v_pk_fmac_f16`: two f16 fmas, the accumulators the destination's.
    PkFmacF16,
    /// The packed 16-bit VOP3P operations: each result half from the
    /// source halves `op_sel`/`op_sel_hi` pick.
    Pk(PkOp),
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

/// A packed 16-bit operation (`v_pk_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PkOp {
    F(crate::float::F16Op),
    Add,
    Sub,
    MulLo,
    MaxU,
    MinU,
    MaxI,
    MinI,
    MadU,
    MadI,
    Lshl,
    Lshr,
    Ashr,
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

impl DsAtomic {
    /// The word the atomic leaves in memory, from the old word and the
    /// operand `x`.
    pub(crate) fn apply(self, old: u32, x: u32) -> u32 {
        match self {
            DsAtomic::Add => old.wrapping_add(x),
            DsAtomic::Sub => old.wrapping_sub(x),
            DsAtomic::Rsub => x.wrapping_sub(old),
            DsAtomic::Inc => {
                if old >= x {
                    0
                } else {
                    old + 1
                }
            }
            DsAtomic::Dec => {
                if old == 0 || old > x {
                    x
                } else {
                    old - 1
                }
            }
            DsAtomic::MinI => (old as i32).min(x as i32) as u32,
            DsAtomic::MaxI => (old as i32).max(x as i32) as u32,
            DsAtomic::MinU => old.min(x),
            DsAtomic::MaxU => old.max(x),
            DsAtomic::And => old & x,
            DsAtomic::Or => old | x,
            DsAtomic::Xor => old ^ x,
            DsAtomic::Swap => x,
        }
    }
}

/// A 32-bit global or buffer atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VAtomic {
    /// A read-modify-write of the old word and the operand.
    Rmw(DsAtomic),
    /// `cmpswap`: the operand when the old word equals the compare value
    /// (the next data dword).
    CmpSwap,
}

/// Global memory operations (`crate::global`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobalOp {
    /// Load `bytes` (1, 2, 4..16); `signed` sign-extends 1 and 2 bytes.
    Load { bytes: u8, signed: bool },
    /// Store `bytes`.
    Store { bytes: u8 },
    /// A 32-bit atomic.
    Atomic { op: VAtomic },
}

/// The 32-bit atomic of a global or buffer atomic opcode.
pub(crate) fn vmem_atomic(code: Opcode) -> Option<VAtomic> {
    use DsAtomic::*;
    Some(match code {
        op::GLOBAL_ATOMIC_ADD | op::BUFFER_ATOMIC_ADD => VAtomic::Rmw(Add),
        op::GLOBAL_ATOMIC_SUB | op::BUFFER_ATOMIC_SUB => VAtomic::Rmw(Sub),
        op::GLOBAL_ATOMIC_SMIN | op::BUFFER_ATOMIC_SMIN => VAtomic::Rmw(MinI),
        op::GLOBAL_ATOMIC_UMIN | op::BUFFER_ATOMIC_UMIN => VAtomic::Rmw(MinU),
        op::GLOBAL_ATOMIC_SMAX | op::BUFFER_ATOMIC_SMAX => VAtomic::Rmw(MaxI),
        op::GLOBAL_ATOMIC_UMAX | op::BUFFER_ATOMIC_UMAX => VAtomic::Rmw(MaxU),
        op::GLOBAL_ATOMIC_AND | op::BUFFER_ATOMIC_AND => VAtomic::Rmw(And),
        op::GLOBAL_ATOMIC_OR | op::BUFFER_ATOMIC_OR => VAtomic::Rmw(Or),
        op::GLOBAL_ATOMIC_XOR | op::BUFFER_ATOMIC_XOR => VAtomic::Rmw(Xor),
        op::GLOBAL_ATOMIC_SWAP | op::BUFFER_ATOMIC_SWAP => VAtomic::Rmw(Swap),
        op::GLOBAL_ATOMIC_INC | op::BUFFER_ATOMIC_INC => VAtomic::Rmw(Inc),
        op::GLOBAL_ATOMIC_DEC | op::BUFFER_ATOMIC_DEC => VAtomic::Rmw(Dec),
        op::GLOBAL_ATOMIC_CMPSWAP | op::BUFFER_ATOMIC_CMPSWAP => VAtomic::CmpSwap,
        _ => return None,
    })
}

/// The behaviour of a GLOBAL opcode.
fn global_kind(code: Opcode) -> Kind {
    if matches!(
        code,
        op::GLOBAL_LOAD_DWORD_ADDTID | op::GLOBAL_STORE_DWORD_ADDTID
    ) {
        return Kind::Unsupported("global accesses addressed by the lane id are not modelled");
    }
    match code.facts().mem {
        Some(isa::Memory {
            kind: isa::MemKind::Load,
            d16: false,
            format: false,
            bytes: b @ (1 | 2 | 4 | 8 | 12 | 16),
            signed,
            ..
        }) => Kind::Global(GlobalOp::Load { bytes: b, signed }),
        Some(isa::Memory {
            kind: isa::MemKind::Store,
            d16: false,
            format: false,
            bytes: b @ (1 | 2 | 4 | 8 | 12 | 16),
            ..
        }) => Kind::Global(GlobalOp::Store { bytes: b }),
        Some(isa::Memory {
            kind: isa::MemKind::Atomic { .. },
            ..
        }) => match vmem_atomic(code) {
            Some(op) => Kind::Global(GlobalOp::Atomic { op }),
            None => Kind::Unsupported("64-bit and float global atomics are not modelled"),
        },
        _ => Kind::Unsupported("global memory form not modelled"),
    }
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
    /// GLOBAL.
    Global(GlobalOp),
    /// EXP.
    Exp,
    /// `v_interp_p1/p2/mov_f32` and the VOP3 16-bit forms
    /// `v_interp_p1ll/p1lv/p2_f16` (`crate::ps`).
    Interp,
    /// An image instruction (`image_load*`, `image_store*`,
    /// `image_sample*`, `image_gather4*`, `image_get_resinfo`): see
    /// `crate::image` for what is modelled; the rest leaves the
    /// destination undefined with a finding.
    Image,
    /// Not modelled: the reason.
    Unsupported(&'static str),
}

/// Classify an instruction.
pub(crate) fn classify(inst: &Instruction) -> Kind {
    kind_of(inst.opcode)
}

/// Classify an opcode: the one classification the interpreter dispatches
/// on (and [`crate::runs`] reports).
pub(crate) fn kind_of(code: Opcode) -> Kind {
    match code.space() {
        OpSpace::Sop1 | OpSpace::Sop2 | OpSpace::Sopk | OpSpace::Sopc => scalar(code),
        OpSpace::Sopp => program_control(code),
        OpSpace::Smem => smem(code),
        OpSpace::Vop
            if matches!(
                code,
                op::V_INTERP_P1LL_F16 | op::V_INTERP_P1LV_F16 | op::V_INTERP_P2_F16
            ) =>
        {
            Kind::Interp
        }
        OpSpace::Vop | OpSpace::Vop3p => match vector(code) {
            Some(op) => Kind::Valu(op),
            None => Kind::Unsupported("vector ALU instruction not modelled"),
        },
        OpSpace::Mubuf | OpSpace::Mtbuf => buffer(code),
        OpSpace::Ds => ds(code),
        OpSpace::Exp => Kind::Exp,
        OpSpace::Vintrp => match code {
            op::V_INTERP_P1_F32_E32 | op::V_INTERP_P2_F32_E32 | op::V_INTERP_MOV_F32_E32 => {
                Kind::Interp
            }
            _ => Kind::Unsupported("16-bit parameter interpolation not modelled"),
        },
        OpSpace::Mimg => match isa::family::mimg::mimg_info(code).map(|i| i.kind) {
            Some(isa::family::mimg::MimgKind::Atomic) | None => {
                Kind::Unsupported("image atomics are not modelled")
            }
            Some(_) => Kind::Image,
        },
        OpSpace::Global => global_kind(code),
        OpSpace::Flat | OpSpace::Scratch => Kind::Unsupported("flat/scratch memory not modelled"),
    }
}

fn program_control(code: Opcode) -> Kind {
    match code {
        op::S_ENDPGM | op::S_ENDPGM_SAVED | op::S_ENDPGM_ORDERED_PS_DONE => Kind::End,
        op::S_BARRIER => Kind::Barrier,
        op::S_SENDMSG | op::S_SENDMSGHALT => Kind::SendMsg,
        op::S_BRANCH => Kind::Branch(Cond::Always),
        op::S_CBRANCH_SCC0 => Kind::Branch(Cond::Scc0),
        op::S_CBRANCH_SCC1 => Kind::Branch(Cond::Scc1),
        op::S_CBRANCH_VCCZ => Kind::Branch(Cond::Vccz),
        op::S_CBRANCH_VCCNZ => Kind::Branch(Cond::Vccnz),
        op::S_CBRANCH_EXECZ => Kind::Branch(Cond::Execz),
        op::S_CBRANCH_EXECNZ => Kind::Branch(Cond::Execnz),
        op::S_DENORM_MODE => Kind::DenormMode,
        op::S_NOP
        | op::S_WAITCNT
        | op::S_SETPRIO
        | op::S_CLAUSE
        | op::S_SLEEP
        | op::S_INST_PREFETCH
        | op::S_ICACHE_INV
        | op::S_TTRACEDATA
        | op::S_TTRACEDATA_IMM
        | op::S_WAITCNT_DEPCTR
        | op::S_INCPERFLEVEL
        | op::S_DECPERFLEVEL
        | op::S_WAIT_IDLE
        | op::S_SETKILL => Kind::Nop,
        op::S_ROUND_MODE => Kind::Nop,
        _ => Kind::Unsupported("program-control instruction not modelled"),
    }
}

/// An integer compare condition (`lg` and `ne` are both "not equal").
fn icmp(c: CmpCond) -> Option<ICmp> {
    Some(match c {
        CmpCond::Eq => ICmp::Eq,
        CmpCond::Lg | CmpCond::Ne => ICmp::Ne,
        CmpCond::Gt => ICmp::Gt,
        CmpCond::Ge => ICmp::Ge,
        CmpCond::Lt => ICmp::Lt,
        CmpCond::Le => ICmp::Le,
        CmpCond::F => ICmp::F,
        CmpCond::Tru => ICmp::T,
        _ => return None,
    })
}

/// A float compare condition.
fn fcmp(c: CmpCond) -> Option<FCmp> {
    Some(match c {
        CmpCond::F => FCmp::F,
        CmpCond::Lt => FCmp::Lt,
        CmpCond::Eq => FCmp::Eq,
        CmpCond::Le => FCmp::Le,
        CmpCond::Gt => FCmp::Gt,
        CmpCond::Lg => FCmp::Lg,
        CmpCond::Ge => FCmp::Ge,
        CmpCond::O => FCmp::O,
        CmpCond::U => FCmp::U,
        CmpCond::Nge => FCmp::Nge,
        CmpCond::Nlg => FCmp::Nlg,
        CmpCond::Ngt => FCmp::Ngt,
        CmpCond::Nle => FCmp::Nle,
        CmpCond::Neq => FCmp::Neq,
        CmpCond::Nlt => FCmp::Nlt,
        CmpCond::Tru => FCmp::Tru,
        CmpCond::Ne | CmpCond::Class => return None,
    })
}

fn cmp_ty(t: NumTy) -> CmpTy {
    match t {
        NumTy::F16 => CmpTy::F16,
        NumTy::F32 => CmpTy::F32,
        NumTy::F64 => CmpTy::F64,
        NumTy::I16 => CmpTy::I16,
        NumTy::I32 => CmpTy::I32,
        NumTy::I64 => CmpTy::I64,
        NumTy::U16 => CmpTy::U16,
        NumTy::U32 => CmpTy::U32,
        NumTy::U64 => CmpTy::U64,
    }
}

fn save_op(l: Logic) -> SaveOp {
    match l {
        Logic::And => SaveOp::And,
        Logic::Or => SaveOp::Or,
        Logic::Xor => SaveOp::Xor,
        Logic::Andn2 => SaveOp::Andn2,
        Logic::Orn2 => SaveOp::Orn2,
        Logic::Nand => SaveOp::Nand,
        Logic::Nor => SaveOp::Nor,
        Logic::Xnor => SaveOp::Xnor,
        Logic::Andn1 => SaveOp::Andn1,
        Logic::Orn1 => SaveOp::Orn1,
    }
}

fn bit_op(l: Logic) -> Option<BitOp> {
    Some(match l {
        Logic::And => BitOp::And,
        Logic::Or => BitOp::Or,
        Logic::Xor => BitOp::Xor,
        Logic::Andn2 => BitOp::Andn2,
        Logic::Orn2 => BitOp::Orn2,
        Logic::Nand => BitOp::Nand,
        Logic::Nor => BitOp::Nor,
        Logic::Xnor => BitOp::Xnor,
        Logic::Andn1 | Logic::Orn1 => return None,
    })
}

fn scalar(code: Opcode) -> Kind {
    let op = match code {
        op::S_MOV_B32 => SOp::Mov { w64: false },
        op::S_MOV_B64 => SOp::Mov { w64: true },
        op::S_CMOV_B32 => SOp::Cmov { w64: false },
        op::S_CMOV_B64 => SOp::Cmov { w64: true },
        op::S_MOVK_I32 => SOp::Movk,
        op::S_CMOVK_I32 => SOp::Cmovk,
        op::S_NOT_B32 => SOp::Not { w64: false },
        op::S_NOT_B64 => SOp::Not { w64: true },
        op::S_WQM_B32 => SOp::Wqm { w64: false },
        op::S_WQM_B64 => SOp::Wqm { w64: true },
        op::S_BREV_B32 => SOp::Brev { w64: false },
        op::S_BREV_B64 => SOp::Brev { w64: true },
        op::S_BCNT0_I32_B32 => SOp::Bcnt {
            one: false,
            w64: false,
        },
        op::S_BCNT0_I32_B64 => SOp::Bcnt {
            one: false,
            w64: true,
        },
        op::S_BCNT1_I32_B32 => SOp::Bcnt {
            one: true,
            w64: false,
        },
        op::S_BCNT1_I32_B64 => SOp::Bcnt {
            one: true,
            w64: true,
        },
        op::S_FF0_I32_B32 => SOp::Ff {
            one: false,
            w64: false,
        },
        op::S_FF0_I32_B64 => SOp::Ff {
            one: false,
            w64: true,
        },
        op::S_FF1_I32_B32 => SOp::Ff {
            one: true,
            w64: false,
        },
        op::S_FF1_I32_B64 => SOp::Ff {
            one: true,
            w64: true,
        },
        op::S_FLBIT_I32_B32 => SOp::Flbit { w64: false },
        op::S_FLBIT_I32_B64 => SOp::Flbit { w64: true },
        op::S_FLBIT_I32 => SOp::FlbitI { w64: false },
        op::S_FLBIT_I32_I64 => SOp::FlbitI { w64: true },
        op::S_SEXT_I32_I8 => SOp::Sext8,
        op::S_SEXT_I32_I16 => SOp::Sext16,
        op::S_BITSET0_B32 => SOp::Bitset {
            one: false,
            w64: false,
        },
        op::S_BITSET0_B64 => SOp::Bitset {
            one: false,
            w64: true,
        },
        op::S_BITSET1_B32 => SOp::Bitset {
            one: true,
            w64: false,
        },
        op::S_BITSET1_B64 => SOp::Bitset {
            one: true,
            w64: true,
        },
        op::S_GETPC_B64 => SOp::Getpc,
        op::S_SETPC_B64 => SOp::Setpc,
        op::S_SWAPPC_B64 => SOp::Swappc,
        op::S_ABS_I32 => SOp::Abs,
        op::S_ANDN1_WREXEC_B32 => SOp::SaveExec {
            op: SaveOp::Andn1Wrexec,
            w64: false,
        },
        op::S_ANDN1_WREXEC_B64 => SOp::SaveExec {
            op: SaveOp::Andn1Wrexec,
            w64: true,
        },
        op::S_ANDN2_WREXEC_B32 => SOp::SaveExec {
            op: SaveOp::Andn2Wrexec,
            w64: false,
        },
        op::S_ANDN2_WREXEC_B64 => SOp::SaveExec {
            op: SaveOp::Andn2Wrexec,
            w64: true,
        },
        op::S_ADD_U32 => SOp::AddU,
        op::S_SUB_U32 => SOp::SubU,
        op::S_ADD_I32 => SOp::AddI,
        op::S_SUB_I32 => SOp::SubI,
        op::S_ADDC_U32 => SOp::Addc,
        op::S_SUBB_U32 => SOp::Subb,
        op::S_MIN_I32 => SOp::Min { signed: true },
        op::S_MIN_U32 => SOp::Min { signed: false },
        op::S_MAX_I32 => SOp::Max { signed: true },
        op::S_MAX_U32 => SOp::Max { signed: false },
        op::S_CSELECT_B32 => SOp::Cselect { w64: false },
        op::S_CSELECT_B64 => SOp::Cselect { w64: true },
        op::S_LSHL_B32 => SOp::Lshl { w64: false },
        op::S_LSHL_B64 => SOp::Lshl { w64: true },
        op::S_LSHR_B32 => SOp::Lshr { w64: false },
        op::S_LSHR_B64 => SOp::Lshr { w64: true },
        op::S_ASHR_I32 => SOp::Ashr { w64: false },
        op::S_ASHR_I64 => SOp::Ashr { w64: true },
        op::S_BFM_B32 => SOp::Bfm { w64: false },
        op::S_BFM_B64 => SOp::Bfm { w64: true },
        op::S_MUL_I32 => SOp::MulI32,
        op::S_MUL_HI_U32 => SOp::MulHi { signed: false },
        op::S_MUL_HI_I32 => SOp::MulHi { signed: true },
        op::S_BFE_U32 => SOp::Bfe {
            signed: false,
            w64: false,
        },
        op::S_BFE_I32 => SOp::Bfe {
            signed: true,
            w64: false,
        },
        op::S_BFE_U64 => SOp::Bfe {
            signed: false,
            w64: true,
        },
        op::S_BFE_I64 => SOp::Bfe {
            signed: true,
            w64: true,
        },
        op::S_ABSDIFF_I32 => SOp::AbsDiff,
        op::S_LSHL1_ADD_U32 => SOp::LshlAdd(1),
        op::S_LSHL2_ADD_U32 => SOp::LshlAdd(2),
        op::S_LSHL3_ADD_U32 => SOp::LshlAdd(3),
        op::S_LSHL4_ADD_U32 => SOp::LshlAdd(4),
        op::S_PACK_LL_B32_B16 => SOp::Pack {
            hi0: false,
            hi1: false,
        },
        op::S_PACK_LH_B32_B16 => SOp::Pack {
            hi0: false,
            hi1: true,
        },
        op::S_PACK_HH_B32_B16 => SOp::Pack {
            hi0: true,
            hi1: true,
        },
        op::S_ADDK_I32 => SOp::Addk,
        op::S_MULK_I32 => SOp::Mulk,
        op::S_BITCMP0_B32 => SOp::Bitcmp {
            one: false,
            w64: false,
        },
        op::S_BITCMP1_B32 => SOp::Bitcmp {
            one: true,
            w64: false,
        },
        op::S_BITCMP0_B64 => SOp::Bitcmp {
            one: false,
            w64: true,
        },
        op::S_BITCMP1_B64 => SOp::Bitcmp {
            one: true,
            w64: true,
        },
        op::S_VERSION
        | op::S_WAITCNT_VSCNT
        | op::S_WAITCNT_VMCNT
        | op::S_WAITCNT_EXPCNT
        | op::S_WAITCNT_LGKMCNT => return Kind::Nop,
        _ => return scalar_patterned(code),
    };
    Kind::Salu(op)
}

/// Scalar opcodes with a regular shape, from their facts: saveexec
/// (`s_{op}_saveexec_b{32,64}`), bitwise (`s_{op}_b{32,64}`) and compares
/// (`s_cmp_{op}_{ty}`, `s_cmpk_{op}_{ty}`).
fn scalar_patterned(code: Opcode) -> Kind {
    let f = code.facts();
    if let Some(ExecUpdate {
        op,
        wrexec: false,
        w64,
    }) = f.exec
    {
        return Kind::Salu(SOp::SaveExec {
            op: save_op(op),
            w64,
        });
    }
    if let Some(op) = f.logic.and_then(bit_op) {
        if f.bits == 32 || f.bits == 64 {
            return Kind::Salu(SOp::Bit {
                op,
                w64: f.bits == 64,
            });
        }
    }
    if let Some(c) = f.cmp {
        if let Some(op) = icmp(c.cond) {
            let ty = cmp_ty(c.ty);
            return Kind::Salu(if c.imm16 {
                SOp::Cmpk {
                    op,
                    signed: ty == CmpTy::I32,
                }
            } else {
                SOp::Cmp { op, ty }
            });
        }
    }
    Kind::Unsupported("scalar instruction not modelled")
}

fn smem(code: Opcode) -> Kind {
    match code {
        op::S_LOAD_DWORD => Kind::Smem(SmemOp::Load { dwords: 1 }),
        op::S_LOAD_DWORDX2 => Kind::Smem(SmemOp::Load { dwords: 2 }),
        op::S_LOAD_DWORDX4 => Kind::Smem(SmemOp::Load { dwords: 4 }),
        op::S_LOAD_DWORDX8 => Kind::Smem(SmemOp::Load { dwords: 8 }),
        op::S_LOAD_DWORDX16 => Kind::Smem(SmemOp::Load { dwords: 16 }),
        op::S_BUFFER_LOAD_DWORD => Kind::Smem(SmemOp::BufferLoad { dwords: 1 }),
        op::S_BUFFER_LOAD_DWORDX2 => Kind::Smem(SmemOp::BufferLoad { dwords: 2 }),
        op::S_BUFFER_LOAD_DWORDX4 => Kind::Smem(SmemOp::BufferLoad { dwords: 4 }),
        op::S_BUFFER_LOAD_DWORDX8 => Kind::Smem(SmemOp::BufferLoad { dwords: 8 }),
        op::S_BUFFER_LOAD_DWORDX16 => Kind::Smem(SmemOp::BufferLoad { dwords: 16 }),
        op::S_DCACHE_INV
        | op::S_DCACHE_WB
        | op::S_GL1_INV
        | op::S_DCACHE_DISCARD
        | op::S_DCACHE_DISCARD_X2
        | op::S_ATC_PROBE
        | op::S_ATC_PROBE_BUFFER => Kind::Smem(SmemOp::Nop),
        op::S_MEMTIME | op::S_MEMREALTIME => Kind::Smem(SmemOp::Time),
        _ => Kind::Unsupported("scalar memory instruction not modelled (stores, atomics)"),
    }
}

fn buffer(code: Opcode) -> Kind {
    let load = |bytes, signed| Kind::Buf(BufOp::Load { bytes, signed });
    match code {
        op::BUFFER_GL0_INV | op::BUFFER_GL1_INV => Kind::Buf(BufOp::Nop),
        op::BUFFER_LOAD_UBYTE => load(1, false),
        op::BUFFER_LOAD_SBYTE => load(1, true),
        op::BUFFER_LOAD_USHORT => load(2, false),
        op::BUFFER_LOAD_SSHORT => load(2, true),
        op::BUFFER_LOAD_DWORD => load(4, false),
        op::BUFFER_LOAD_DWORDX2 => load(8, false),
        op::BUFFER_LOAD_DWORDX3 => load(12, false),
        op::BUFFER_LOAD_DWORDX4 => load(16, false),
        _ => match code.facts().mem {
            Some(Memory {
                kind: MemKind::Store | MemKind::Atomic { .. },
                ..
            }) => Kind::Buf(BufOp::StoreOrAtomic),
            Some(Memory {
                unit,
                kind: MemKind::Load,
                format: true,
                d16: false,
                comps: comps @ 1..=4,
                ..
            }) => Kind::Buf(BufOp::LoadFormat {
                comps,
                typed: unit == MemUnit::TypedBuffer,
            }),
            _ => Kind::Unsupported("buffer instruction not modelled (d16 loads)"),
        },
    }
}

fn ds(code: Opcode) -> Kind {
    let read = |bytes, signed, d16| Kind::Ds(DsOp::Read { bytes, signed, d16 });
    let write = |bytes, hi| Kind::Ds(DsOp::Write { bytes, hi });
    let atomic = |op, rtn| Kind::Ds(DsOp::Atomic { op, rtn });
    let read2 = |bytes, st64| Kind::Ds(DsOp::Read2 { bytes, st64 });
    let write2 = |bytes, st64| Kind::Ds(DsOp::Write2 { bytes, st64 });
    match code {
        op::DS_NOP => Kind::Ds(DsOp::Nop),
        op::DS_READ_B32 => read(4, false, 0),
        op::DS_READ_B64 => read(8, false, 0),
        op::DS_READ_B96 => read(12, false, 0),
        op::DS_READ_B128 => read(16, false, 0),
        op::DS_READ_U8 => read(1, false, 0),
        op::DS_READ_I8 => read(1, true, 0),
        op::DS_READ_U16 => read(2, false, 0),
        op::DS_READ_I16 => read(2, true, 0),
        op::DS_READ_U8_D16 => read(1, false, 1),
        op::DS_READ_I8_D16 => read(1, true, 1),
        op::DS_READ_U16_D16 => read(2, false, 1),
        op::DS_READ_U8_D16_HI => read(1, false, 2),
        op::DS_READ_I8_D16_HI => read(1, true, 2),
        op::DS_READ_U16_D16_HI => read(2, false, 2),
        op::DS_READ2_B32 => read2(4, false),
        op::DS_READ2_B64 => read2(8, false),
        op::DS_READ2ST64_B32 => read2(4, true),
        op::DS_READ2ST64_B64 => read2(8, true),
        op::DS_WRITE_B8 => write(1, false),
        op::DS_WRITE_B16 => write(2, false),
        op::DS_WRITE_B32 => write(4, false),
        op::DS_WRITE_B64 => write(8, false),
        op::DS_WRITE_B96 => write(12, false),
        op::DS_WRITE_B128 => write(16, false),
        op::DS_WRITE_B8_D16_HI => write(1, true),
        op::DS_WRITE_B16_D16_HI => write(2, true),
        op::DS_WRITE2_B32 => write2(4, false),
        op::DS_WRITE2_B64 => write2(8, false),
        op::DS_WRITE2ST64_B32 => write2(4, true),
        op::DS_WRITE2ST64_B64 => write2(8, true),
        op::DS_ADD_U32 => atomic(DsAtomic::Add, false),
        op::DS_ADD_RTN_U32 => atomic(DsAtomic::Add, true),
        op::DS_SUB_U32 => atomic(DsAtomic::Sub, false),
        op::DS_SUB_RTN_U32 => atomic(DsAtomic::Sub, true),
        op::DS_RSUB_U32 => atomic(DsAtomic::Rsub, false),
        op::DS_RSUB_RTN_U32 => atomic(DsAtomic::Rsub, true),
        op::DS_INC_U32 => atomic(DsAtomic::Inc, false),
        op::DS_INC_RTN_U32 => atomic(DsAtomic::Inc, true),
        op::DS_DEC_U32 => atomic(DsAtomic::Dec, false),
        op::DS_DEC_RTN_U32 => atomic(DsAtomic::Dec, true),
        op::DS_MIN_I32 => atomic(DsAtomic::MinI, false),
        op::DS_MIN_RTN_I32 => atomic(DsAtomic::MinI, true),
        op::DS_MAX_I32 => atomic(DsAtomic::MaxI, false),
        op::DS_MAX_RTN_I32 => atomic(DsAtomic::MaxI, true),
        op::DS_MIN_U32 => atomic(DsAtomic::MinU, false),
        op::DS_MIN_RTN_U32 => atomic(DsAtomic::MinU, true),
        op::DS_MAX_U32 => atomic(DsAtomic::MaxU, false),
        op::DS_MAX_RTN_U32 => atomic(DsAtomic::MaxU, true),
        op::DS_AND_B32 => atomic(DsAtomic::And, false),
        op::DS_AND_RTN_B32 => atomic(DsAtomic::And, true),
        op::DS_OR_B32 => atomic(DsAtomic::Or, false),
        op::DS_OR_RTN_B32 => atomic(DsAtomic::Or, true),
        op::DS_XOR_B32 => atomic(DsAtomic::Xor, false),
        op::DS_XOR_RTN_B32 => atomic(DsAtomic::Xor, true),
        op::DS_WRXCHG_RTN_B32 => atomic(DsAtomic::Swap, true),
        _ => Kind::Unsupported("DS instruction not modelled"),
    }
}

fn vector(code: Opcode) -> Option<VOp> {
    use VOp::*;
    Some(match code {
        op::V_NOP => Nop,
        op::V_MOV_B32 => Mov,
        op::V_NOT_B32 => Not,
        op::V_BFREV_B32 => Bfrev,
        op::V_FFBH_U32 => Ffbh,
        op::V_FFBL_B32 => Ffbl,
        op::V_FFBH_I32 => FfbhI,
        op::V_BCNT_U32_B32 => Bcnt,
        op::V_MBCNT_LO_U32_B32 => MbcntLo,
        op::V_MBCNT_HI_U32_B32 => MbcntHi,
        op::V_READFIRSTLANE_B32 => Readfirstlane,
        op::V_READLANE_B32 => Readlane,
        op::V_WRITELANE_B32 => Writelane,
        op::V_SWAP_B32 => Swap,
        op::V_PERMLANE16_B32 => Permlane16 { x: false },
        op::V_PERMLANEX16_B32 => Permlane16 { x: true },
        op::V_CNDMASK_B32 => Cndmask,
        op::V_ADD_NC_U32 => AddNc,
        op::V_SUB_NC_U32 => SubNc,
        op::V_SUBREV_NC_U32 => SubrevNc,
        op::V_ADD_CO_U32 => AddCo,
        op::V_SUB_CO_U32 => SubCo,
        op::V_SUBREV_CO_U32 => SubrevCo,
        op::V_ADD_CO_CI_U32 => AddCi,
        op::V_SUB_CO_CI_U32 => SubCi,
        op::V_SUBREV_CO_CI_U32 => SubrevCi,
        op::V_MUL_U32_U24 => MulU24,
        op::V_MUL_I32_I24 => MulI24,
        op::V_MUL_HI_U32_U24 => MulHiU24,
        op::V_MUL_HI_I32_I24 => MulHiI24,
        op::V_MUL_LO_U32 => MulLo,
        op::V_MUL_HI_U32 => MulHiU32,
        op::V_MUL_HI_I32 => MulHiI32,
        op::V_MAD_U32_U24 => MadU24,
        op::V_MAD_I32_I24 => MadI24,
        op::V_MIN_I32 => MinI,
        op::V_MAX_I32 => MaxI,
        op::V_MIN_U32 => MinU,
        op::V_MAX_U32 => MaxU,
        op::V_MIN3_I32 => Min3I,
        op::V_MAX3_I32 => Max3I,
        op::V_MED3_I32 => Med3I,
        op::V_MIN3_U32 => Min3U,
        op::V_MAX3_U32 => Max3U,
        op::V_MED3_U32 => Med3U,
        op::V_AND_B32 => And,
        op::V_OR_B32 => Or,
        op::V_XOR_B32 => Xor,
        op::V_XNOR_B32 => Xnor,
        op::V_LSHLREV_B32 => Lshlrev,
        op::V_LSHLREV_B64 => Shift64(self::Shift64::Left),
        op::V_LSHRREV_B64 => Shift64(self::Shift64::Logical),
        op::V_ASHRREV_I64 => Shift64(self::Shift64::Arithmetic),
        op::V_LSHRREV_B32 => Lshrrev,
        op::V_ASHRREV_I32 => Ashrrev,
        op::V_LSHL_ADD_U32 => LshlAdd,
        op::V_ADD_LSHL_U32 => AddLshl,
        op::V_LSHL_OR_B32 => LshlOr,
        op::V_AND_OR_B32 => AndOr,
        op::V_OR3_B32 => Or3,
        op::V_XOR3_B32 => Xor3,
        op::V_ADD3_U32 => Add3,
        op::V_XAD_U32 => Xad,
        op::V_BFE_U32 => BfeU,
        op::V_BFE_I32 => BfeI,
        op::V_BFI_B32 => Bfi,
        op::V_BFM_B32 => Bfm,
        op::V_ALIGNBIT_B32 => Alignbit,
        op::V_ALIGNBYTE_B32 => Alignbyte,
        op::V_PERM_B32 => Perm,
        op::V_DOT4_U32_U8 => Dot4U8,
        op::V_DOT4_I32_I8 => Dot4I8,
        op::V_DOT2_U32_U16 => Dot2U16,
        op::V_DOT2_I32_I16 => Dot2I16,
        op::V_ADD_F32 => AddF,
        op::V_SUB_F32 => SubF,
        op::V_SUBREV_F32 => SubrevF,
        op::V_MUL_F32 => MulF,
        op::V_MUL_LEGACY_F32 => MulLegacyF,
        op::V_MIN_F32 => MinF,
        op::V_MAX_F32 => MaxF,
        op::V_MIN3_F32 => Min3F,
        op::V_MAX3_F32 => Max3F,
        op::V_MED3_F32 => Med3F,
        op::V_CUBEID_F32 => Cube(0),
        op::V_CUBESC_F32 => Cube(1),
        op::V_CUBETC_F32 => Cube(2),
        op::V_CUBEMA_F32 => Cube(3),
        op::V_FMA_F32 => Fma,
        op::V_FMA_LEGACY_F32 => FmaLegacy,
        op::V_FMAC_F32 => Fmac,
        op::V_FMAC_LEGACY_F32 => FmacLegacy,
        op::V_FMAMK_F32 => Fmamk,
        op::V_FMAAK_F32 => Fmaak,
        op::V_FMA_MIX_F32 => FmaMix { half: None },
        op::V_FMA_MIXLO_F16 => FmaMix { half: Some(false) },
        op::V_FMA_MIXHI_F16 => FmaMix { half: Some(true) },
        op::V_MAD_F32 => Mad,
        op::V_MAD_LEGACY_F32 => MadLegacy,
        op::V_MAC_F32 => Mac,
        op::V_MAC_LEGACY_F32 => MacLegacy,
        op::V_MADMK_F32 => Madmk,
        op::V_MADAK_F32 => Madak,
        op::V_LDEXP_F32 => LdexpF,
        op::V_RCP_F32 => Rcp,
        op::V_RCP_IFLAG_F32 => RcpIflag,
        op::V_RSQ_F32 => Rsq,
        op::V_SQRT_F32 => Sqrt,
        op::V_EXP_F32 => Exp,
        op::V_LOG_F32 => Log,
        op::V_SIN_F32 => Sin,
        op::V_COS_F32 => Cos,
        op::V_FRACT_F32 => Fract,
        op::V_TRUNC_F32 => Trunc,
        op::V_CEIL_F32 => Ceil,
        op::V_FLOOR_F32 => Floor,
        op::V_RNDNE_F32 => Rndne,
        op::V_FREXP_EXP_I32_F32 => FrexpExp,
        op::V_FREXP_MANT_F32 => FrexpMant,
        op::V_CVT_F32_I32 => CvtF32I32,
        op::V_CVT_F32_U32 => CvtF32U32,
        op::V_CVT_I32_F32 => CvtI32F32,
        op::V_CVT_U32_F32 => CvtU32F32,
        op::V_ADD_F16 => F16 {
            op: crate::float::F16Op::Add,
            rev: false,
        },
        op::V_SUB_F16 => F16 {
            op: crate::float::F16Op::Sub,
            rev: false,
        },
        op::V_SUBREV_F16 => F16 {
            op: crate::float::F16Op::Sub,
            rev: true,
        },
        op::V_MUL_F16 => F16 {
            op: crate::float::F16Op::Mul,
            rev: false,
        },
        op::V_FMA_F16 => F16 {
            op: crate::float::F16Op::Fma,
            rev: false,
        },
        op::V_MAX_F16 => F16 {
            op: crate::float::F16Op::Max,
            rev: false,
        },
        op::V_MIN_F16 => F16 {
            op: crate::float::F16Op::Min,
            rev: false,
        },
        op::V_FMAC_F16 => FmacF16,
        op::V_PACK_B32_F16 => PackB32F16,
        op::V_PK_FMAC_F16 => PkFmacF16,
        op::V_PK_ADD_F16 => Pk(PkOp::F(crate::float::F16Op::Add)),
        op::V_PK_MUL_F16 => Pk(PkOp::F(crate::float::F16Op::Mul)),
        op::V_PK_FMA_F16 => Pk(PkOp::F(crate::float::F16Op::Fma)),
        op::V_PK_MAX_F16 => Pk(PkOp::F(crate::float::F16Op::Max)),
        op::V_PK_MIN_F16 => Pk(PkOp::F(crate::float::F16Op::Min)),
        op::V_PK_ADD_U16 | op::V_PK_ADD_I16 => Pk(PkOp::Add),
        op::V_PK_SUB_U16 | op::V_PK_SUB_I16 => Pk(PkOp::Sub),
        op::V_PK_MUL_LO_U16 => Pk(PkOp::MulLo),
        op::V_PK_MAX_U16 => Pk(PkOp::MaxU),
        op::V_PK_MIN_U16 => Pk(PkOp::MinU),
        op::V_PK_MAX_I16 => Pk(PkOp::MaxI),
        op::V_PK_MIN_I16 => Pk(PkOp::MinI),
        op::V_PK_MAD_U16 => Pk(PkOp::MadU),
        op::V_PK_MAD_I16 => Pk(PkOp::MadI),
        op::V_PK_LSHLREV_B16 => Pk(PkOp::Lshl),
        op::V_PK_LSHRREV_B16 => Pk(PkOp::Lshr),
        op::V_PK_ASHRREV_I16 => Pk(PkOp::Ashr),
        op::V_CVT_F16_F32 => CvtF16F32,
        op::V_CVT_F32_F16 => CvtF32F16,
        op::V_CVT_FLR_I32_F32 => CvtFlrI32F32,
        op::V_CVT_RPI_I32_F32 => CvtRpiI32F32,
        op::V_CVT_F32_UBYTE0 => CvtF32Ubyte(0),
        op::V_CVT_F32_UBYTE1 => CvtF32Ubyte(1),
        op::V_CVT_F32_UBYTE2 => CvtF32Ubyte(2),
        op::V_CVT_F32_UBYTE3 => CvtF32Ubyte(3),
        op::V_CVT_PKRTZ_F16_F32 => CvtPkrtz,
        op::V_CVT_PK_U8_F32 => CvtPkU8F32,
        _ => return vector_compare(code),
    })
}

/// `v_cmp_*`/`v_cmpx_*`, from the opcode's compare facts.
fn vector_compare(code: Opcode) -> Option<VOp> {
    let c = code.facts().cmp?;
    let (ty, x) = (cmp_ty(c.ty), c.writes_exec);
    if c.cond == CmpCond::Class {
        return match ty {
            CmpTy::F32 | CmpTy::F16 | CmpTy::F64 => Some(VOp::CmpClass { ty, x }),
            _ => None,
        };
    }
    let op = match ty {
        CmpTy::F16 | CmpTy::F32 | CmpTy::F64 => CmpOp::F(fcmp(c.cond)?),
        _ => CmpOp::I(icmp(c.cond)?),
    };
    Some(VOp::Cmp { op, ty, x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_mnemonics_split_into_op_and_type() {
        assert_eq!(
            vector(op::V_CMP_GT_F32),
            Some(VOp::Cmp {
                op: CmpOp::F(FCmp::Gt),
                ty: CmpTy::F32,
                x: false
            })
        );
        assert_eq!(
            vector(op::V_CMPX_GT_I32),
            Some(VOp::Cmp {
                op: CmpOp::I(ICmp::Gt),
                ty: CmpTy::I32,
                x: true
            })
        );
        assert_eq!(
            vector(op::V_CMP_CLASS_F32),
            Some(VOp::CmpClass {
                ty: CmpTy::F32,
                x: false
            })
        );
        assert_eq!(vector_compare(op::V_ADD_F32), None);
    }

    #[test]
    fn scalar_mnemonics_with_a_shape_are_recognised() {
        assert_eq!(
            scalar(op::S_ANDN2_SAVEEXEC_B64),
            Kind::Salu(SOp::SaveExec {
                op: SaveOp::Andn2,
                w64: true
            })
        );
        assert_eq!(
            scalar(op::S_NOR_B32),
            Kind::Salu(SOp::Bit {
                op: BitOp::Nor,
                w64: false
            })
        );
        assert_eq!(
            scalar(op::S_CMP_EQ_I32),
            Kind::Salu(SOp::Cmp {
                op: ICmp::Eq,
                ty: CmpTy::I32
            })
        );
        assert_eq!(
            scalar(op::S_CMPK_LT_U32),
            Kind::Salu(SOp::Cmpk {
                op: ICmp::Lt,
                signed: false
            })
        );
        assert!(matches!(scalar(op::S_GETREG_B32), Kind::Unsupported(_)));
    }

    #[test]
    fn ds_atomics_parse_their_return_form() {
        assert_eq!(
            ds(op::DS_ADD_RTN_U32),
            Kind::Ds(DsOp::Atomic {
                op: DsAtomic::Add,
                rtn: true
            })
        );
        assert_eq!(
            ds(op::DS_MAX_I32),
            Kind::Ds(DsOp::Atomic {
                op: DsAtomic::MaxI,
                rtn: false
            })
        );
    }
}
