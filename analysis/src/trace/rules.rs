//! The opcodes the tracer has a rule for.
//!
//! What an instruction reads and writes comes from `isa` (operand access,
//! widths, [`isa::Implicit`]). This table only names the instructions whose
//! result the tracer can describe better than "forgotten": copies, adds of
//! a constant, scalar loads, selects, the merged_wave_info pattern, the exec
//! patterns and buffer accesses. Every other instruction takes the generic
//! rule: whatever it writes becomes unknown.
//!
//! The table is built once per process from the opcode names `isa` knows,
//! so looking a rule up is one array index. It also says which opcodes are
//! named as stores or atomics (see [`named_store`]).

use isa::{Instruction, OpSpace, Opcode};
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

fn rule_for_name(space: OpSpace, name: &str) -> Rule {
    if matches!(space, OpSpace::Mubuf | OpSpace::Mtbuf) {
        return Rule::Buf;
    }
    match name {
        "s_mov_b32" | "s_mov_b64" => Rule::SMov,
        "s_movk_i32" => Rule::SMovk,
        "s_cselect_b32" | "s_cselect_b64" => Rule::SCselect,
        "s_add_u32" => Rule::SAdd,
        "s_addc_u32" => Rule::SAddc,
        "s_getpc_b64" => Rule::SGetpc,
        "s_bfm_b64" => Rule::SBfm64,
        "s_bitcmp1_b32" => Rule::SBitcmp1,
        "s_bitcmp0_b32" => Rule::SBitcmp0,
        "s_and_b32" | "s_and_b64" => Rule::SAnd,
        "s_andn2_b32" | "s_andn2_b64" => Rule::SAndn2,
        "s_or_b32" | "s_or_b64" => Rule::SOr,
        "s_and_saveexec_b32" | "s_and_saveexec_b64" => Rule::SaveAnd,
        "s_andn1_saveexec_b32" | "s_andn1_saveexec_b64" => Rule::SaveAndn1,
        "s_or_saveexec_b32" | "s_or_saveexec_b64" => Rule::SaveOr,
        "s_andn1_wrexec_b32" | "s_andn1_wrexec_b64" => Rule::WrexecAndn1,
        "s_andn2_wrexec_b32" | "s_andn2_wrexec_b64" => Rule::WrexecOther,
        "s_load_dword" | "s_load_dwordx2" | "s_load_dwordx4" | "s_load_dwordx8"
        | "s_load_dwordx16" => Rule::SLoad,
        "s_buffer_load_dword"
        | "s_buffer_load_dwordx2"
        | "s_buffer_load_dwordx4"
        | "s_buffer_load_dwordx8"
        | "s_buffer_load_dwordx16" => Rule::SBufLoad,
        "v_mov_b32" => Rule::VMov,
        "v_add_nc_u32" => Rule::VAddNc,
        "v_swap_b32" => Rule::VSwap,
        "v_mbcnt_lo_u32_b32" | "v_mbcnt_hi_u32_b32" => Rule::VMbcnt,
        "v_mul_u32_u24" => Rule::VMulU24,
        "v_mul_lo_u32" => Rule::VMulLo,
        "v_lshlrev_b32" => Rule::VLshlrev,
        "v_lshl_add_u32" => Rule::VLshlAdd,
        "v_mad_u32_u24" => Rule::VMadU24,
        "v_add_co_u32" => Rule::VAddCo,
        "v_dot4_u32_u8" => Rule::VDot4U8,
        "v_readlane_b32" | "v_readfirstlane_b32" => Rule::VReadlane,
        "s_bfe_u32" => Rule::SBfeU32,
        "s_lshr_b32" => Rule::SLshr,
        "s_lshl_b32" => Rule::SLshl,
        "ds_read_b32" | "ds_read_b64" | "ds_read_b96" | "ds_read_b128" | "ds_read2_b32"
        | "ds_read2st64_b32" => Rule::DsRead,
        "ds_write_b8" | "ds_write_b8_d16_hi" => Rule::DsWrite { sub: 1 },
        "ds_write_b16" | "ds_write_b16_d16_hi" => Rule::DsWrite { sub: 2 },
        "ds_write_b32" | "ds_write_b64" | "ds_write_b96" | "ds_write_b128" | "ds_write2_b32"
        | "ds_write2_b64" | "ds_write2st64_b32" | "ds_write2st64_b64" => Rule::DsWrite { sub: 0 },
        _ if space == OpSpace::Ds
            && !name.starts_with("ds_read")
            && !matches!(
                name,
                "ds_nop" | "ds_swizzle_b32" | "ds_permute_b32" | "ds_bpermute_b32"
            ) =>
        {
            Rule::DsOther
        }
        _ if name.ends_with("_saveexec_b32") || name.ends_with("_saveexec_b64") => Rule::SaveOther,
        _ if name.starts_with("v_cmpx_") => Rule::VCmpx,
        _ if name.starts_with("v_cmp_") => Rule::VCmp,
        _ => Rule::Generic,
    }
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
        for space in OpSpace::ALL {
            for i in 0..2048u16 {
                let op = Opcode::new(space, i);
                let name = op.name();
                if name == "<unknown>" {
                    continue;
                }
                t[op.raw() as usize] = Facts {
                    rule: rule_for_name(space, name),
                    named_store: name.contains("store") || name.contains("atomic"),
                };
            }
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

/// The opcode's name says it stores or is an atomic (`*store*`,
/// `*atomic*`).
pub(crate) fn named_store(op: Opcode) -> bool {
    table()[usize::from(op.raw())].named_store
}
