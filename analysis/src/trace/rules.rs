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
        _ if name.ends_with("_saveexec_b32") || name.ends_with("_saveexec_b64") => Rule::SaveOther,
        _ if name.starts_with("v_cmpx_") => Rule::VCmpx,
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
