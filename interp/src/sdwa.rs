//! A stop-gap SDWA decoder for VOP1/VOP2 (the corpus's culling shaders use
//! `v_mul_u32_u24_sdwa`, `v_or_b32_sdwa`, `v_lshlrev_b32_sdwa`).
//!
//! `isa` does not decode the SDWA family yet; until it does, [`decode`]
//! builds the [`Instruction`] from `isa`'s own `_e32` decoding of the same
//! opcode (so operand roles and types still come from `isa`) with the SDWA
//! word's source 0, scalar-source flags, modifiers and selects. It is used
//! only for words `isa` rejects. Field layout of the SDWA dword (gfx10):
//!
//! | bits | field |
//! |---|---|
//! | 7:0 | SRC0 |
//! | 10:8 | DST_SEL |
//! | 12:11 | DST_UNUSED |
//! | 13 | CLAMP |
//! | 15:14 | OMOD |
//! | 18:16, 19, 20, 21 | SRC0_SEL, SRC0_SEXT, SRC0_NEG, SRC0_ABS |
//! | 23 | S0 (SRC0 is a scalar code) |
//! | 26:24, 27, 28, 29 | SRC1_SEL, SRC1_SEXT, SRC1_NEG, SRC1_ABS |
//! | 31 | S1 (VSRC1 is a scalar code) |

use isa::family::vop::SdwaMods;
use isa::{Family, Instruction, Mode, Modifiers, OpMods, Operand};

/// Decode an SDWA VOP1/VOP2 instruction at the start of `bytes`.
pub(crate) fn decode(bytes: &[u8], mode: Mode) -> Option<Instruction> {
    if bytes.len() < 8 {
        return None;
    }
    let d0 = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let d1 = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    if d0 & 0x1ff != 0xf9 || d0 >> 31 != 0 {
        return None;
    }
    let top = (d0 >> 25) & 0x3f;
    if top == 0x3e {
        return None; // VOPC SDWA: not needed by the corpus
    }
    let vop1 = top == 0x3f;
    // The same instruction in its 32-bit form with src0 = v0.
    let e32 = (d0 & !0x1ff) | 0x100;
    let mut inst = isa::decode(&e32.to_le_bytes(), mode).ok()?;
    let scalar = |code: u32| -> Option<Operand> {
        Some(match code {
            0..=127 => Operand::Reg {
                code: code as u16,
                count: 1,
            },
            128..=208 | 240..=248 => Operand::Inline(code as u8),
            _ => return None,
        })
    };
    let src0 = if d1 & (1 << 23) != 0 {
        scalar(d1 & 0xff)?
    } else {
        Operand::vgpr((d1 & 0xff) as u8)
    };
    let vsrc1 = (d0 >> 9) & 0xff;
    let mut seen = 0;
    for s in inst.operands.iter_mut() {
        if !s.is_use() || s.ty == isa::ValType::Mask {
            continue;
        }
        let (neg, abs, sext) = if seen == 0 { (20, 21, 19) } else { (28, 29, 27) };
        if seen == 0 {
            s.op = src0;
        } else if seen == 1 && !vop1 && d1 & (1 << 31) != 0 {
            s.op = scalar(vsrc1)?;
        }
        if seen < 2 {
            for (bit, m) in [(neg, OpMods::NEG), (abs, OpMods::ABS), (sext, OpMods::SEXT)] {
                if d1 & (1 << bit) != 0 {
                    s.mods |= m;
                }
            }
        }
        seen += 1;
    }
    inst.family = Family::Sdwa;
    inst.len = 8;
    inst.mods = Modifiers::Sdwa(SdwaMods {
        dst_sel: ((d1 >> 8) & 7) as u8,
        dst_unused: ((d1 >> 11) & 3) as u8,
        clamp: d1 & (1 << 13) != 0,
        omod: ((d1 >> 14) & 3) as u8,
        src0_sel: ((d1 >> 16) & 7) as u8,
        src1_sel: ((d1 >> 24) & 7) as u8,
    });
    Some(inst)
}
