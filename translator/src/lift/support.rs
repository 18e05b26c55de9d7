//! Which opcodes the lifter has a rule for: the classification every
//! handler checks before its own `match` (so an opcode outside it gets the
//! handler's "unsupported ..." problem) and [`crate::lifts`] reports.
//!
//! The explicit lists name exactly the `isa::op` constants the handlers
//! match on (a test reads the handler sources to keep the two equal); the
//! rest comes from `isa`'s opcode facts.

use isa::{op, CmpCond, Compare, MemKind, MemUnit, Memory, NumTy, OpSpace, Opcode};

/// How the lifter treats an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Support {
    /// A rule translates it (a rule may still refuse some operand or
    /// modifier forms, or produce a value that is an error only if live).
    Lifted,
    /// A rule names it, but only to refuse it with its own reason (other
    /// lanes, stores, atomics, LDS, images, packed math, ...).
    Refused,
    /// No rule: the handler's "unsupported ... instruction" problem.
    Unsupported,
}

/// The support of `code` in a wave of the given size (exec updates are
/// lifted only in the width of the wave's lane masks).
pub fn support(code: Opcode, wave64: bool) -> Support {
    match code.space() {
        OpSpace::Sop1 | OpSpace::Sop2 | OpSpace::Sopk | OpSpace::Sopc => salu(code, wave64),
        OpSpace::Sopp => sopp(code),
        OpSpace::Smem => smem(code),
        OpSpace::Mubuf | OpSpace::Mtbuf => buffer(code),
        OpSpace::Vop => valu(code),
        OpSpace::Exp => Support::Lifted,
        OpSpace::Vintrp => match code {
            op::V_INTERP_P1_F32_E32 | op::V_INTERP_P2_F32_E32 | op::V_INTERP_MOV_F32_E32 => {
                Support::Lifted
            }
            _ => Support::Refused,
        },
        OpSpace::Mimg => image(code),
        OpSpace::Ds | OpSpace::Flat | OpSpace::Global | OpSpace::Scratch => Support::Refused,
        OpSpace::Vop3p => vop3p(code),
    }
}

/// Image instructions (`image.rs`): the forms `image::form` names; every
/// other MIMG opcode is refused with its reason.
pub(super) fn image(code: Opcode) -> Support {
    match code {
        op::IMAGE_SAMPLE
        | op::IMAGE_SAMPLE_B
        | op::IMAGE_SAMPLE_L
        | op::IMAGE_SAMPLE_LZ
        | op::IMAGE_SAMPLE_C
        | op::IMAGE_SAMPLE_C_LZ
        | op::IMAGE_SAMPLE_O
        | op::IMAGE_SAMPLE_B_O
        | op::IMAGE_SAMPLE_L_O
        | op::IMAGE_SAMPLE_LZ_O
        | op::IMAGE_SAMPLE_C_O
        | op::IMAGE_SAMPLE_C_LZ_O
        | op::IMAGE_GATHER4_LZ
        | op::IMAGE_GATHER4_C_LZ
        | op::IMAGE_GATHER4_LZ_O
        | op::IMAGE_GATHER4_C_LZ_O
        | op::IMAGE_LOAD
        | op::IMAGE_LOAD_MIP
        | op::IMAGE_STORE
        | op::IMAGE_STORE_MIP => Support::Lifted,
        _ => Support::Refused,
    }
}

/// Packed math (`packed.rs`): the mixed-precision fmas.
pub(super) fn vop3p(code: Opcode) -> Support {
    match code {
        op::V_FMA_MIX_F32
        | op::V_FMA_MIXLO_F16
        | op::V_FMA_MIXHI_F16
        | op::V_DOT4_U32_U8
        | op::V_DOT4_I32_I8
        | op::V_DOT2_U32_U16
        | op::V_DOT2_I32_I16
        | op::V_PK_ADD_F16
        | op::V_PK_MUL_F16
        | op::V_PK_MAX_F16
        | op::V_PK_MIN_F16
        | op::V_PK_FMA_F16
        | op::V_PK_ADD_U16
        | op::V_PK_ADD_I16
        | op::V_PK_SUB_U16
        | op::V_PK_SUB_I16
        | op::V_PK_MUL_LO_U16
        | op::V_PK_MAX_U16
        | op::V_PK_MIN_U16
        | op::V_PK_MAX_I16
        | op::V_PK_MIN_I16
        | op::V_PK_MAD_U16
        | op::V_PK_MAD_I16
        | op::V_PK_LSHLREV_B16
        | op::V_PK_LSHRREV_B16
        | op::V_PK_ASHRREV_I16 => Support::Lifted,
        _ => Support::Refused,
    }
}

/// Scalar ALU (`salu.rs`).
pub(super) fn salu(code: Opcode, wave64: bool) -> Support {
    let f = code.facts();
    match code {
        op::S_ABSDIFF_I32
        | op::S_ABS_I32
        | op::S_ADDC_U32
        | op::S_ADDK_I32
        | op::S_ADD_I32
        | op::S_ADD_U32
        | op::S_ANDN2_B32
        | op::S_ANDN2_B64
        | op::S_AND_B32
        | op::S_AND_B64
        | op::S_ASHR_I32
        | op::S_ASHR_I64
        | op::S_BCNT0_I32_B32
        | op::S_BCNT0_I32_B64
        | op::S_BCNT1_I32_B32
        | op::S_BCNT1_I32_B64
        | op::S_BFE_I32
        | op::S_BFE_U32
        | op::S_BFM_B32
        | op::S_BFM_B64
        | op::S_BITCMP0_B32
        | op::S_BITCMP0_B64
        | op::S_BITCMP1_B32
        | op::S_BITCMP1_B64
        | op::S_BITSET0_B32
        | op::S_BITSET1_B32
        | op::S_BREV_B32
        | op::S_CMOVK_I32
        | op::S_WQM_B32
        | op::S_WQM_B64
        | op::S_CMOV_B32
        | op::S_CMOV_B64
        | op::S_CMP_EQ_U64
        | op::S_CMP_LG_U64
        | op::S_CSELECT_B32
        | op::S_CSELECT_B64
        | op::S_LSHL1_ADD_U32
        | op::S_LSHL2_ADD_U32
        | op::S_LSHL3_ADD_U32
        | op::S_LSHL4_ADD_U32
        | op::S_LSHL_B32
        | op::S_LSHL_B64
        | op::S_LSHR_B32
        | op::S_LSHR_B64
        | op::S_MAX_I32
        | op::S_MAX_U32
        | op::S_MIN_I32
        | op::S_MIN_U32
        | op::S_MOVK_I32
        | op::S_MOV_B32
        | op::S_MOV_B64
        | op::S_GETPC_B64
        | op::S_MULK_I32
        | op::S_MUL_HI_I32
        | op::S_MUL_HI_U32
        | op::S_MUL_I32
        | op::S_NAND_B32
        | op::S_NAND_B64
        | op::S_NOP
        | op::S_NOR_B32
        | op::S_NOR_B64
        | op::S_NOT_B32
        | op::S_NOT_B64
        | op::S_ORN2_B32
        | op::S_ORN2_B64
        | op::S_OR_B32
        | op::S_OR_B64
        | op::S_PACK_HH_B32_B16
        | op::S_PACK_LH_B32_B16
        | op::S_PACK_LL_B32_B16
        | op::S_SEXT_I32_I16
        | op::S_SEXT_I32_I8
        | op::S_SUBB_U32
        | op::S_SUB_I32
        | op::S_SUB_U32
        | op::S_VERSION
        | op::S_WAITCNT_EXPCNT
        | op::S_WAITCNT_LGKMCNT
        | op::S_WAITCNT_VMCNT
        | op::S_WAITCNT_VSCNT
        | op::S_XNOR_B32
        | op::S_XNOR_B64
        | op::S_XOR_B32
        | op::S_XOR_B64 => Support::Lifted,
        _ => match (f.exec, f.cmp) {
            (Some(e), _) if !e.wrexec && e.w64 == wave64 => Support::Lifted,
            (Some(_), _) => Support::Refused,
            (None, Some(_)) => Support::Lifted,
            (None, None) => Support::Unsupported,
        },
    }
}

/// Program control (`control.rs`; branches and `s_endpgm`/`s_code_end`
/// end blocks in `blocks.rs`).
pub(super) fn sopp(code: Opcode) -> Support {
    match code {
        op::S_BARRIER
        | op::S_CLAUSE
        | op::S_ICACHE_INV
        | op::S_INST_PREFETCH
        | op::S_NOP
        | op::S_SENDMSG
        | op::S_SETPRIO
        | op::S_SLEEP
        | op::S_TTRACEDATA
        | op::S_TTRACEDATA_IMM
        | op::S_WAITCNT
        | op::S_WAITCNT_DEPCTR
        | op::S_DENORM_MODE => Support::Lifted,
        _ if super::blocks::is_cbranch(code)
            || super::blocks::is_end(code)
            || code == op::S_BRANCH =>
        {
            Support::Lifted
        }
        _ => Support::Unsupported,
    }
}

/// Scalar memory (`mem.rs`).
pub(super) fn smem(code: Opcode) -> Support {
    match code {
        op::S_BUFFER_LOAD_DWORD
        | op::S_BUFFER_LOAD_DWORDX16
        | op::S_BUFFER_LOAD_DWORDX2
        | op::S_BUFFER_LOAD_DWORDX4
        | op::S_BUFFER_LOAD_DWORDX8
        | op::S_DCACHE_INV
        | op::S_DCACHE_WB
        | op::S_GL1_INV
        | op::S_LOAD_DWORD
        | op::S_LOAD_DWORDX16
        | op::S_LOAD_DWORDX2
        | op::S_LOAD_DWORDX4
        | op::S_LOAD_DWORDX8 => Support::Lifted,
        _ => Support::Unsupported,
    }
}

/// Buffer memory (`mem.rs`).
pub(super) fn buffer(code: Opcode) -> Support {
    match code {
        op::BUFFER_GL0_INV
        | op::BUFFER_GL1_INV
        | op::BUFFER_LOAD_DWORD
        | op::BUFFER_LOAD_DWORDX2
        | op::BUFFER_LOAD_DWORDX3
        | op::BUFFER_LOAD_DWORDX4
        | op::BUFFER_LOAD_SBYTE
        | op::BUFFER_LOAD_SSHORT
        | op::BUFFER_LOAD_UBYTE
        | op::BUFFER_LOAD_USHORT => Support::Lifted,
        // Stores: refused in vertex shaders; dword stores are lifted for
        // compute shaders (`translate_compute`), the rest refused there too.
        op::BUFFER_STORE_DWORD
        | op::BUFFER_STORE_DWORDX2
        | op::BUFFER_STORE_DWORDX3
        | op::BUFFER_STORE_DWORDX4 => Support::Refused,
        _ => match code.facts().mem {
            Some(Memory {
                unit: MemUnit::TypedBuffer,
                kind: MemKind::Load,
                format: true,
                d16: false,
                ..
            }) => Support::Lifted,
            Some(Memory {
                kind: MemKind::Load,
                format: true,
                ..
            })
            | Some(Memory {
                kind: MemKind::Store | MemKind::Atomic { .. },
                ..
            }) => Support::Refused,
            _ => Support::Unsupported,
        },
    }
}

/// A vector compare `valu.rs` translates: f32 (every condition but
/// `class`), i32 and u32.
pub(super) fn compare_lifted(c: Compare) -> bool {
    match c.ty {
        NumTy::F32 => !matches!(c.cond, CmpCond::Ne | CmpCond::Class),
        NumTy::I32 | NumTy::U32 => matches!(
            c.cond,
            CmpCond::F
                | CmpCond::Tru
                | CmpCond::Lt
                | CmpCond::Le
                | CmpCond::Gt
                | CmpCond::Ge
                | CmpCond::Eq
                | CmpCond::Ne
                | CmpCond::Lg
        ),
        _ => false,
    }
}

/// Vector ALU (`valu.rs`).
pub(super) fn valu(code: Opcode) -> Support {
    let f = code.facts();
    match code {
        op::V_ADD3_U32
        | op::V_ADD_CO_CI_U32
        | op::V_ADD_CO_U32
        | op::V_ADD_F32
        | op::V_ADD_F16
        | op::V_SUB_F16
        | op::V_SUBREV_F16
        | op::V_MUL_F16
        | op::V_FMA_F16
        | op::V_FMAC_F16
        | op::V_MAX_F16
        | op::V_MIN_F16
        | op::V_CVT_F16_F32
        | op::V_CVT_F32_F16
        | op::V_PACK_B32_F16
        | op::V_PK_FMAC_F16
        | op::V_ADD_LSHL_U32
        | op::V_ADD_NC_U32
        | op::V_ALIGNBIT_B32
        | op::V_ALIGNBYTE_B32
        | op::V_AND_B32
        | op::V_AND_OR_B32
        | op::V_ASHRREV_I32
        | op::V_BCNT_U32_B32
        | op::V_BFE_I32
        | op::V_BFE_U32
        | op::V_BFI_B32
        | op::V_BFM_B32
        | op::V_BFREV_B32
        | op::V_CEIL_F32
        | op::V_CNDMASK_B32
        | op::V_COS_F32
        | op::V_CVT_F32_I32
        | op::V_CVT_F32_U32
        | op::V_CVT_F32_UBYTE0
        | op::V_CVT_F32_UBYTE1
        | op::V_CVT_F32_UBYTE2
        | op::V_CVT_F32_UBYTE3
        | op::V_CVT_FLR_I32_F32
        | op::V_CVT_I32_F32
        | op::V_CVT_PKRTZ_F16_F32
        | op::V_INTERP_P1LL_F16
        | op::V_INTERP_P2_F16
        | op::V_CVT_RPI_I32_F32
        | op::V_CVT_U32_F32
        | op::V_EXP_F32
        | op::V_FLOOR_F32
        | op::V_FMAAK_F32
        | op::V_FMAC_F32
        | op::V_FMAMK_F32
        | op::V_FMA_F32
        | op::V_FRACT_F32
        | op::V_LDEXP_F32
        | op::V_LOG_F32
        | op::V_LSHLREV_B32
        | op::V_LSHL_ADD_U32
        | op::V_LSHL_OR_B32
        | op::V_LSHRREV_B32
        | op::V_MAC_F32
        | op::V_MADAK_F32
        | op::V_MADMK_F32
        | op::V_MAD_F32
        | op::V_MAD_I32_I24
        | op::V_MAD_U32_U24
        | op::V_MAX3_F32
        | op::V_MAX3_I32
        | op::V_MAX3_U32
        | op::V_MAX_F32
        | op::V_MAX_I32
        | op::V_MAX_U32
        | op::V_MED3_F32
        | op::V_CUBEID_F32
        | op::V_CUBESC_F32
        | op::V_CUBETC_F32
        | op::V_CUBEMA_F32
        | op::V_MED3_I32
        | op::V_MED3_U32
        | op::V_LSHLREV_B64
        | op::V_LSHRREV_B64
        | op::V_ASHRREV_I64
        | op::V_MIN3_F32
        | op::V_MIN3_I32
        | op::V_MIN3_U32
        | op::V_MIN_F32
        | op::V_MIN_I32
        | op::V_MIN_U32
        | op::V_MOV_B32
        | op::V_MUL_F32
        | op::V_MUL_HI_I32
        | op::V_MUL_HI_I32_I24
        | op::V_MUL_HI_U32
        | op::V_MUL_HI_U32_U24
        | op::V_MUL_I32_I24
        | op::V_MUL_LEGACY_F32
        | op::V_MUL_LO_U32
        | op::V_MUL_U32_U24
        | op::V_NOP
        | op::V_NOT_B32
        | op::V_OR3_B32
        | op::V_OR_B32
        | op::V_RCP_F32
        | op::V_READFIRSTLANE_B32
        | op::V_READLANE_B32
        | op::V_RNDNE_F32
        | op::V_RSQ_F32
        | op::V_SIN_F32
        | op::V_SQRT_F32
        | op::V_SUBREV_CO_CI_U32
        | op::V_SUBREV_CO_U32
        | op::V_SUBREV_F32
        | op::V_SUBREV_NC_U32
        | op::V_SUB_CO_CI_U32
        | op::V_SUB_CO_U32
        | op::V_SUB_F32
        | op::V_SUB_NC_U32
        | op::V_SWAP_B32
        | op::V_TRUNC_F32
        | op::V_XAD_U32
        | op::V_XNOR_B32
        | op::V_XOR3_B32
        | op::V_XOR_B32 => Support::Lifted,
        // An unsupported value (the lane's position) or another lane's
        // register.
        op::V_MBCNT_LO_U32_B32 | op::V_MBCNT_HI_U32_B32 | op::V_WRITELANE_B32 => Support::Refused,
        _ if f.lanes => Support::Refused,
        _ => match f.cmp {
            Some(c) if compare_lifted(c) || super::half::compare16_lifted(c) => Support::Lifted,
            Some(_) => Support::Refused,
            None => Support::Unsupported,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The `op::NAME` constants a source text names.
    fn named(src: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for (i, _) in src.match_indices("op::") {
            let rest = &src[i + 4..];
            let end = rest
                .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
                .unwrap_or(rest.len());
            if end > 0 {
                out.insert(rest[..end].to_string());
            }
        }
        out
    }

    fn by_name(n: &str) -> Opcode {
        // VINTRP opcodes share their names with the VOP3 forms; their
        // constants carry `_E32`.
        let vintrp = n.strip_suffix("_E32");
        Opcode::all()
            .find(|o| o.name().eq_ignore_ascii_case(n))
            .or_else(|| {
                Opcode::all().find(|o| {
                    o.space() == OpSpace::Vintrp
                        && vintrp.is_some_and(|v| o.name().eq_ignore_ascii_case(v))
                })
            })
            .unwrap_or_else(|| panic!("no opcode {n}"))
    }

    /// Every opcode a handler matches on is one its classification names,
    /// and every opcode the classification lists by name is matched on by
    /// the handlers: the gate and the dispatch cannot drift apart.
    #[test]
    fn classification_lists_exactly_the_opcodes_the_handlers_match() {
        let handlers = [
            include_str!("salu.rs"),
            include_str!("valu.rs"),
            include_str!("packed.rs"),
            include_str!("half.rs"),
            include_str!("control.rs"),
            include_str!("mem.rs"),
            include_str!("blocks.rs"),
            include_str!("ps.rs"),
            include_str!("image.rs"),
        ];
        let mut in_handlers = BTreeSet::new();
        for h in handlers {
            in_handlers.extend(named(h));
        }
        let own = include_str!("support.rs");
        let own = &own[..own.find("#[cfg(test)]").unwrap_or(own.len())];
        let listed = named(own);
        for n in &in_handlers {
            let o = by_name(n);
            assert_ne!(support(o, true), Support::Unsupported, "{n}");
            assert_ne!(support(o, false), Support::Unsupported, "{n}");
            // Block ends are classified by their flow facts.
            let ends = super::super::blocks::is_cbranch(o) || super::super::blocks::is_end(o);
            assert!(
                listed.contains(n) || ends,
                "{n} is matched by a handler but not listed"
            );
        }
        for n in &listed {
            // `s_branch` is the CFG's `Terminator::Branch`, which the block
            // walk follows (`blocks::exit_of`), not a handler arm.
            assert!(
                in_handlers.contains(n) || n == "S_BRANCH",
                "{n} is listed but no handler matches it"
            );
        }
    }
}
