//! The opcodes the tracer has a rule for.
//!
//! What an instruction reads and writes comes from `isa` (operand access,
//! widths, [`isa::Implicit`]). This table only names the instructions whose
//! result the tracer can describe better than "forgotten": copies, adds of
//! a constant, scalar loads, selects, the merged_wave_info pattern, the exec
//! patterns and buffer accesses. Every other instruction takes the generic
//! rule: whatever it writes becomes unknown.
//!
//! The table is built once per process from the opcodes `isa` knows and
//! their generated facts (`isa::op`, [`isa::OpFacts`]), never from names,
//! so looking a rule up is one array index. It also says which opcodes are
//! named as stores or atomics (see [`named_store`]).

use isa::{op, Compare, ExecUpdate, Instruction, Logic, MemKind, MemUnit, Memory, OpSpace, Opcode};
use std::sync::OnceLock;

/// A tracer rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Rule {
    /// Forget whatever the instruction writes.
    Generic,
    /// `s_mov_b32`, `s_mov_b64`: copy.
    SMov,
    /// `s_movk_i32`: a sign-extended constant.
    SMovk,
    /// `s_cselect_b32`, `s_cselect_b64`.
    SCselect,
    /// `s_add_u32`: low half of a pointer plus a constant.
    SAdd,
    /// `s_addc_u32`: high half of a pointer plus a constant and the carry.
    SAddc,
    /// `s_getpc_b64`: the code address of the next instruction.
    SGetpc,
    /// `s_bfm_b64`: the merged_wave_info lane mask.
    SBfm64,
    /// `s_bitcmp1_b32`.
    SBitcmp1,
    /// `s_bitcmp0_b32`.
    SBitcmp0,
    /// `s_and_b32`/`_b64` (exec narrowing when the destination is exec).
    SAnd,
    /// `s_andn2_b32`/`_b64` (exec narrowing when the destination is exec).
    SAndn2,
    /// `s_or_b32`/`_b64` (exec restore when the destination is exec).
    SOr,
    /// `s_and_saveexec_*`: exec &= src, dst = old exec.
    SaveAnd,
    /// `s_andn1_saveexec_*`: exec = ~src & exec, dst = old exec.
    SaveAndn1,
    /// `s_or_saveexec_*`: exec |= src, dst = old exec.
    SaveOr,
    /// Other `s_*_saveexec_*`: dst = old exec, exec unknown.
    SaveOther,
    /// `s_andn1_wrexec_*`: exec = ~src & exec, dst = new exec.
    WrexecAndn1,
    /// `s_andn2_wrexec_*`: dst = exec = src & ~exec.
    WrexecOther,
    /// `s_load_dword{,x2,x4,x8,x16}`: words of a table.
    SLoad,
    /// `s_buffer_load_dword*`: words of a buffer.
    SBufLoad,
    /// `v_mov_b32`: copy (under exec).
    VMov,
    /// `v_add_nc_u32`: id plus a uniform word.
    VAddNc,
    /// `v_cmpx_*`: exec narrowing.
    VCmpx,
    /// MUBUF/MTBUF: a buffer access.
    Buf,
    /// `v_cmp_*` (not `cmpx`): a lane mask inside the current exec.
    VCmp,
    /// `v_swap_b32`.
    VSwap,
    /// `v_mbcnt_lo/hi_u32_b32`: a count of at most 32 lanes plus a number.
    VMbcnt,
    /// `v_mul_u32_u24`: product of the low 24 bits.
    VMulU24,
    /// `v_mul_lo_u32`.
    VMulLo,
    /// `v_lshlrev_b32`.
    VLshlrev,
    /// `v_lshl_add_u32`.
    VLshlAdd,
    /// `v_mad_u32_u24`.
    VMadU24,
    /// `v_add_co_u32`: a sum of numbers (the carry is forgotten).
    VAddCo,
    /// `v_dot4_u32_u8`: four byte products plus a number.
    VDot4U8,
    /// `v_readlane_b32`, `v_readfirstlane_b32`: a VGPR's number in an SGPR.
    VReadlane,
    /// `s_bfe_u32`: a bit field of a constant width.
    SBfeU32,
    /// `s_lshr_b32`.
    SLshr,
    /// `s_lshl_b32`.
    SLshl,
    /// LDS reads of whole dwords (`ds_read_b32..b128`, `ds_read2_b32`,
    /// `ds_read2st64_b32`).
    DsRead,
    /// LDS writes; `sub` is the byte count of the sub-dword forms (1, 2),
    /// 0 for whole dwords.
    DsWrite {
        /// Bytes of a sub-dword write, 0 for dwords.
        sub: u8,
    },
    /// Any other DS instruction that may write LDS (atomics, exchanges,
    /// append/consume...): an LDS write the tracer cannot place.
    DsOther,
}

/// The rule of an opcode: the one classification the tracer dispatches on
/// (and [`has_rule`] reports).
pub(crate) fn rule_for(op: Opcode) -> Rule {
    let f = op.facts();
    if matches!(op.space(), OpSpace::Mubuf | OpSpace::Mtbuf) {
        return Rule::Buf;
    }
    match op {
        op::S_MOV_B32 | op::S_MOV_B64 => Rule::SMov,
        op::S_MOVK_I32 => Rule::SMovk,
        op::S_CSELECT_B32 | op::S_CSELECT_B64 => Rule::SCselect,
        op::S_ADD_U32 => Rule::SAdd,
        op::S_ADDC_U32 => Rule::SAddc,
        op::S_GETPC_B64 => Rule::SGetpc,
        op::S_BFM_B64 => Rule::SBfm64,
        op::S_BITCMP1_B32 => Rule::SBitcmp1,
        op::S_BITCMP0_B32 => Rule::SBitcmp0,
        op::S_AND_B32 | op::S_AND_B64 => Rule::SAnd,
        op::S_ANDN2_B32 | op::S_ANDN2_B64 => Rule::SAndn2,
        op::S_OR_B32 | op::S_OR_B64 => Rule::SOr,
        op::S_LOAD_DWORD
        | op::S_LOAD_DWORDX2
        | op::S_LOAD_DWORDX4
        | op::S_LOAD_DWORDX8
        | op::S_LOAD_DWORDX16 => Rule::SLoad,
        op::S_BUFFER_LOAD_DWORD
        | op::S_BUFFER_LOAD_DWORDX2
        | op::S_BUFFER_LOAD_DWORDX4
        | op::S_BUFFER_LOAD_DWORDX8
        | op::S_BUFFER_LOAD_DWORDX16 => Rule::SBufLoad,
        op::V_MOV_B32 => Rule::VMov,
        op::V_ADD_NC_U32 => Rule::VAddNc,
        op::V_SWAP_B32 => Rule::VSwap,
        op::V_MBCNT_LO_U32_B32 | op::V_MBCNT_HI_U32_B32 => Rule::VMbcnt,
        op::V_MUL_U32_U24 => Rule::VMulU24,
        op::V_MUL_LO_U32 => Rule::VMulLo,
        op::V_LSHLREV_B32 => Rule::VLshlrev,
        op::V_LSHL_ADD_U32 => Rule::VLshlAdd,
        op::V_MAD_U32_U24 => Rule::VMadU24,
        op::V_ADD_CO_U32 => Rule::VAddCo,
        op::V_DOT4_U32_U8 => Rule::VDot4U8,
        op::V_READLANE_B32 | op::V_READFIRSTLANE_B32 => Rule::VReadlane,
        op::S_BFE_U32 => Rule::SBfeU32,
        op::S_LSHR_B32 => Rule::SLshr,
        op::S_LSHL_B32 => Rule::SLshl,
        op::DS_READ_B32
        | op::DS_READ_B64
        | op::DS_READ_B96
        | op::DS_READ_B128
        | op::DS_READ2_B32
        | op::DS_READ2ST64_B32 => Rule::DsRead,
        op::DS_WRITE_B8 | op::DS_WRITE_B8_D16_HI => Rule::DsWrite { sub: 1 },
        op::DS_WRITE_B16 | op::DS_WRITE_B16_D16_HI => Rule::DsWrite { sub: 2 },
        op::DS_WRITE_B32
        | op::DS_WRITE_B64
        | op::DS_WRITE_B96
        | op::DS_WRITE_B128
        | op::DS_WRITE2_B32
        | op::DS_WRITE2_B64
        | op::DS_WRITE2ST64_B32
        | op::DS_WRITE2ST64_B64 => Rule::DsWrite { sub: 0 },
        // Every other DS instruction but the reads and the lane swizzles
        // may write LDS somewhere the tracer cannot place.
        op::DS_NOP | op::DS_SWIZZLE_B32 | op::DS_PERMUTE_B32 | op::DS_BPERMUTE_B32 => Rule::Generic,
        _ if op.space() == OpSpace::Ds
            && !matches!(
                f.mem,
                Some(Memory {
                    kind: MemKind::Load,
                    ..
                })
            ) =>
        {
            Rule::DsOther
        }
        _ => match (f.exec, f.cmp) {
            (Some(ExecUpdate { op, wrexec, .. }), _) => match (op, wrexec) {
                (Logic::And, false) => Rule::SaveAnd,
                (Logic::Andn1, false) => Rule::SaveAndn1,
                (Logic::Or, false) => Rule::SaveOr,
                (_, false) => Rule::SaveOther,
                (Logic::Andn1, true) => Rule::WrexecAndn1,
                (Logic::Andn2, true) => Rule::WrexecOther,
                (_, true) => Rule::Generic,
            },
            (
                _,
                Some(Compare {
                    writes_exec: true, ..
                }),
            ) => Rule::VCmpx,
            (_, Some(_)) if matches!(op.space(), OpSpace::Vop | OpSpace::Vop3p) => Rule::VCmp,
            _ => Rule::Generic,
        },
    }
}

/// Whether the tracer has a rule for `op` better than "forget what it
/// writes" (see the module docs): the same classification the trace uses.
pub fn has_rule(op: Opcode) -> bool {
    rule_for(op) != Rule::Generic
}

/// What the table knows about one opcode.
#[derive(Clone, Copy)]
struct Facts {
    rule: Rule,
    named_store: bool,
}

/// The facts of every opcode, indexed by its raw 16-bit value (so a
/// lookup needs no bounds check).
type Table = [Facts; 1 << 16];

fn table() -> &'static Table {
    static TABLE: OnceLock<Box<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let none = Facts {
            rule: Rule::Generic,
            named_store: false,
        };
        // Built on the heap (not as a 128 KiB array on the stack); the
        // length is right by construction, so the conversion cannot fail.
        let mut t: Box<Table> = match vec![none; 1 << 16].into_boxed_slice().try_into() {
            Ok(t) => t,
            Err(_) => unreachable!("one entry per 16-bit opcode"),
        };
        for op in Opcode::all() {
            let f = op.facts();
            t[op.raw() as usize] = Facts {
                rule: rule_for(op),
                named_store: f.writes_memory() && f.mem.is_some_and(|m| m.unit != MemUnit::Ds),
            };
        }
        t
    })
}

/// The rule table, looked up once for many instructions (see
/// [`Rules::rule`]).
#[derive(Clone, Copy)]
pub(crate) struct Rules(&'static Table);

impl Rules {
    /// The table (built on first use).
    pub(crate) fn get() -> Rules {
        Rules(table())
    }
    /// The rule of an instruction.
    #[inline]
    pub(crate) fn rule(self, inst: &Instruction) -> Rule {
        self.0[usize::from(inst.opcode.raw())].rule
    }
}

/// The opcode stores or is an atomic outside LDS (`isa`'s memory facts).
pub(crate) fn named_store(op: Opcode) -> bool {
    table()[usize::from(op.raw())].named_store
}
