//! SOP1, SOP2, SOPK, SOPC and SOPP formatting.

use super::operand::{write_inline, write_operand, write_reg};
use super::Formatter;
use crate::family::sop::{SopFld, SopInfo};
use crate::inst::{Family, Instruction, Modifiers, OpSpace};
use crate::operand::{Operand, ValType};
use crate::tables::sop as t;
use core::fmt;

fn info(inst: &Instruction) -> Option<&'static SopInfo> {
    let table: &'static [Option<SopInfo>] = match inst.opcode.space() {
        OpSpace::Sop1 => &t::SOP1,
        OpSpace::Sop2 => &t::SOP2,
        OpSpace::Sopk => &t::SOPK,
        OpSpace::Sopc => &t::SOPC,
        OpSpace::Sopp => &t::SOPP,
        _ => return None,
    };
    table.get(inst.opcode.index() as usize)?.as_ref()
}

pub(crate) fn write<W: fmt::Write>(_f: &Formatter, inst: &Instruction, out: &mut W) -> fmt::Result {
    let name = inst.opcode.name();
    out.write_str(name)?;
    let Some(info) = info(inst) else {
        return Ok(());
    };
    let simm = match inst.mods {
        Modifiers::Simm16(v) => v,
        _ => 0,
    };
    let mut first = true;
    for (i, slot) in inst.operands.iter().enumerate() {
        let spec = info.slots.get(i);
        let sep = if first { " " } else { ", " };
        // s_endpgm prints its immediate only when it is not zero.
        if name == "s_endpgm" && simm == 0 {
            continue;
        }
        out.write_str(sep)?;
        first = false;
        match (spec.map(|s| s.fld), slot.op) {
            (Some(SopFld::Simm16), _) => write_simm16(name, inst.family, simm, out)?,
            (Some(s), Operand::Inline(c)) if s != SopFld::Sdst => {
                let spec = spec.unwrap_or(&info.slots[0]);
                write_inline(c, if spec.f64 { ValType::F64 } else { ValType::B32 }, out)?;
                if !spec.imm_ok {
                    out.write_str("/*Invalid immediate*/")?;
                }
            }
            (_, Operand::Reg { code: 254, count }) => {
                write_reg(254, count, out)?;
                out.write_str("/*Invalid register, operand has 'SReg_32' register class*/")?;
            }
            (_, op) => write_operand(op, slot.ty, out)?,
        }
    }
    Ok(())
}

/// Print a 16-bit immediate as LLVM does: decimal when it is an inline
/// integer (0..=64), hex otherwise.
fn write_u16<W: fmt::Write>(v: u16, out: &mut W) -> fmt::Result {
    if v <= 64 {
        write!(out, "{v}")
    } else {
        write!(out, "{v:#x}")
    }
}

fn write_simm16<W: fmt::Write>(name: &str, family: Family, v: u16, out: &mut W) -> fmt::Result {
    match name {
        "s_waitcnt" => write_waitcnt(v, out),
        "s_sendmsg" | "s_sendmsghalt" => write_sendmsg(v, out),
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => write_hwreg(v, out),
        _ if name.starts_with("s_cbranch") || name == "s_branch" => write!(out, "{v}"),
        "s_call_b64" | "s_subvector_loop_begin" | "s_subvector_loop_end" => write!(out, "{v}"),
        _ if family == Family::Sopk => write!(out, "{v:#x}"),
        _ => write_u16(v, out),
    }
}

fn write_waitcnt<W: fmt::Write>(v: u16, out: &mut W) -> fmt::Result {
    let vm = (v & 0xf) | ((v >> 10) & 0x30);
    let exp = (v >> 4) & 0x7;
    let lgkm = (v >> 8) & 0x3f;
    let mut sep = "";
    if vm != 0x3f {
        write!(out, "vmcnt({vm})")?;
        sep = " ";
    }
    if exp != 0x7 {
        write!(out, "{sep}expcnt({exp})")?;
        sep = " ";
    }
    if lgkm != 0x3f {
        write!(out, "{sep}lgkmcnt({lgkm})")?;
        sep = " ";
    }
    if sep.is_empty() {
        write!(out, "vmcnt({vm}) expcnt({exp}) lgkmcnt({lgkm})")?;
    }
    Ok(())
}

fn msg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 => "MSG_SAVEWAVE",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        7 => "MSG_ORDERED_PS_DONE",
        8 => "MSG_EARLY_PRIM_DEALLOC",
        9 => "MSG_GS_ALLOC_REQ",
        10 => "MSG_GET_DOORBELL",
        11 => "MSG_GET_DDID",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

fn write_sendmsg<W: fmt::Write>(v: u16, out: &mut W) -> fmt::Result {
    let id = v & 0xf;
    let op = (v >> 4) & 0x7;
    let stream = (v >> 8) & 0x3;
    let encodable = (id | (op << 4) | (stream << 8)) == v;
    let gs = id == 2 || id == 3;
    let sys = id == 15;
    let valid = match msg_name(id) {
        None => false,
        Some(_) if gs => {
            let op_ok = if id == 2 {
                (1..=3).contains(&op)
            } else {
                op <= 3
            };
            op_ok && (op != 0 || stream == 0)
        }
        Some(_) if sys => (1..=4).contains(&op) && stream == 0,
        Some(_) => op == 0 && stream == 0,
    };
    if valid {
        write!(out, "sendmsg({}", msg_name(id).unwrap_or(""))?;
        if gs {
            let opn = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"][op as usize];
            write!(out, ", {opn}")?;
            if op != 0 {
                write!(out, ", {stream}")?;
            }
        } else if sys {
            let opn = [
                "",
                "SYSMSG_OP_ECC_ERR_INTERRUPT",
                "SYSMSG_OP_REG_RD",
                "SYSMSG_OP_HOST_TRAP_ACK",
                "SYSMSG_OP_TTRACE_PC",
            ][op as usize];
            write!(out, ", {opn}")?;
        }
        out.write_str(")")
    } else if encodable {
        write!(out, "sendmsg({id}, {op}, {stream})")
    } else {
        write!(out, "{v}")
    }
}

fn hwreg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        16 => "HW_REG_TBA_LO",
        17 => "HW_REG_TBA_HI",
        18 => "HW_REG_TMA_LO",
        19 => "HW_REG_TMA_HI",
        20 => "HW_REG_FLAT_SCR_LO",
        21 => "HW_REG_FLAT_SCR_HI",
        22 => "HW_REG_XNACK_MASK",
        23 => "HW_REG_HW_ID1",
        24 => "HW_REG_HW_ID2",
        25 => "HW_REG_POPS_PACKER",
        _ => return None,
    })
}

fn write_hwreg<W: fmt::Write>(v: u16, out: &mut W) -> fmt::Result {
    let id = v & 0x3f;
    let offset = (v >> 6) & 0x1f;
    let width = ((v >> 11) & 0x1f) + 1;
    out.write_str("hwreg(")?;
    match hwreg_name(id) {
        Some(n) => out.write_str(n)?,
        None => write!(out, "{id}")?,
    }
    if offset != 0 || width != 32 {
        write!(out, ", {offset}, {width}")?;
    }
    out.write_str(")")
}
