//! DPP16, DPP8 and SDWA: the extended forms of VOP1, VOP2 and VOPC
//! instructions, their control fields, and what those fields mean for the
//! operands.
//!
//! An extended form is a VOP1/VOP2/VOPC word whose src0 field holds a
//! marker (0xFA DPP16, 0xE9/0xEA DPP8, 0xF9 SDWA) followed by a second
//! dword. The instruction is the `_e32` one (same [`crate::Opcode`]); the
//! [`crate::Family`] says the encoding. `crate::tables::vop_ext::EXT`
//! holds, per instruction, which forms exist on which targets, the
//! operands they print (a [`VopSlot`] list, like the `_e32` form's) and
//! which control bits LLVM decodes.
//!
//! # Second dword
//!
//! ```text
//! DPP16: 7:0 src0 VGPR, 16:8 dpp_ctrl, 18 fi, 19 bound_ctrl, 20 src0 neg,
//!        21 src0 abs, 22 src1 neg, 23 src1 abs, 27:24 bank_mask, 31:28 row_mask
//! DPP8:  7:0 src0 VGPR, 31:8 eight 3-bit lane selects (lane 0 lowest);
//!        fi is the first dword's marker (0xE9: fi:0, 0xEA: fi:1)
//! SDWA:  7:0 src0, 10:8 dst_sel, 12:11 dst_unused, 13 clamp, 15:14 omod,
//!        18:16 src0_sel, 19 src0 sext, 20 src0 neg, 21 src0 abs,
//!        23 S0 (src0 is a scalar register or constant), 26:24 src1_sel,
//!        27 src1 sext, 28 src1 neg, 29 src1 abs, 31 S1 (the same for
//!        vsrc1); VOPC: 14:8 sdst and 15 SD instead of bits 15:8
//!        (SD = 0: the mask goes to vcc)
//! ```
//!
//! # Semantics (decided at decode time, from the control fields)
//!
//! - **SDWA destination.** With `dst_sel` other than `DWORD`, the result
//!   goes to the selected byte or word. `dst_unused:UNUSED_PRESERVE` keeps
//!   the other bits, so the destination is `READ | WRITE | PARTIAL`;
//!   `UNUSED_PAD` (zeros) and `UNUSED_SEXT` (the result's sign bit) fill
//!   them, a full 32-bit write (`WRITE`). With `dst_sel:DWORD` the access is
//!   the `_e32` form's: a 16-bit result stays `READ | WRITE | PARTIAL`
//!   (conservatively: the ISA documentation does not say what a 16-bit
//!   operation leaves in the high half then). The reserved `dst_unused`
//!   value 3 (LLVM prints it as `UNUSED_PAD`) is treated as preserving.
//!   A VOPC mask destination is always written whole.
//! - **SDWA sources.** `src0_sel`/`src1_sel` pick a byte or word of the
//!   source (in [`SdwaMods`]); `sext(x)` ([`crate::OpMods::SEXT`]) sign- instead of
//!   zero-extends it, `-x`/`|x|` are the float modifiers. A source with S0/S1
//!   set is a scalar register or inline constant, read once for all lanes.
//! - **DPP16.** Every lane reads its sources from another lane
//!   ([`DppCtrl::source_lane`]; the VGPR src0 only, vsrc1 is the lane's own):
//!   [`crate::Implicit::CROSS_LANE`]. A lane disabled by `row_mask` or
//!   `bank_mask` is not written, and a lane whose source lane is invalid
//!   (outside the row for `row_shl`/`row_shr`, or inactive when `fi` is 0)
//!   is not written unless `bound_ctrl:1` makes the source read as zero.
//!   So the written operands (the VGPR destination, and a carry-out mask)
//!   are `READ | WRITE | PARTIAL` unless every row of the wave and every
//!   bank are enabled and either `bound_ctrl:1` is set or `fi:1` is set
//!   with a control whose sources never leave the row ([`DppCtrl::in_row`]).
//!   Without `fi`, which source lanes are valid depends on EXEC:
//!   [`crate::Implicit::READ_EXEC`].
//! - **DPP8.** Lane `l` reads src0 from lane `(l & !7) | sel[l & 7]`:
//!   `CROSS_LANE`. Without `fi:1` an inactive source lane is invalid; as
//!   the documentation does not pin down whether such a lane reads zero or
//!   is left unwritten, the written operands are conservatively
//!   `READ | WRITE | PARTIAL` then (and EXEC is read). With `fi:1` every
//!   lane is written.
//! - `fi:1` makes DPP read the VGPRs of *inactive* lanes as well: values a
//!   tracer may never have seen written.

use super::vop::VopSlot;
use crate::inst::{Family, Instruction, Modifiers, OpSpace, Opcode};
use crate::operand::{Access, Implicit, OpMods};
use crate::tables;

/// One extended (DPP16, DPP8 or SDWA) form of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtForm {
    /// Bit i set: valid on `isa_gen::TARGETS[i]` (gfx1010, gfx1013, gfx1030).
    pub targets: u8,
    /// Operands in printing order, with the `_e32` form's access and type
    /// (the decoder adjusts the access of written operands from the
    /// control fields; see the module docs).
    /// `slot_n` entries from `slot_at` of the table file's `SLOTS` (see
    /// [`ExtForm::slots`]).
    pub(crate) slot_at: u16,
    pub(crate) slot_n: u8,
    /// Bits (first and second dword) LLVM rejects when set.
    pub fixed: [u32; 2],
    /// Bits LLVM ignores.
    pub ignored: [u32; 2],
    /// Source modifiers LLVM decodes for src0 and src1 ([`OpMods::NEG`],
    /// [`OpMods::ABS`], [`OpMods::SEXT`]). In DPP16 a `SEXT` source uses
    /// the neg bit.
    pub src_mods: [OpMods; 2],
    /// SDWA: the clamp bit is decoded.
    pub clamp: bool,
    /// SDWA: the output modifier is decoded.
    pub omod: bool,
    /// SDWA: `dst_sel`/`dst_unused` exist (VOP1, VOP2).
    pub dst_sel: bool,
    /// SDWA: `src0_sel` / `src1_sel` exist.
    pub src_sel: [bool; 2],
}

impl ExtForm {
    /// Operands in printing order, with the `_e32` form's access and type.
    #[inline]
    pub const fn slots(&self) -> &'static [VopSlot] {
        let (_, tail) = tables::vop_ext::SLOTS.split_at(self.slot_at as usize);
        tail.split_at(self.slot_n as usize).0
    }
}

/// The extended forms of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtInfo {
    /// Opcode index in [`OpSpace::Vop`].
    pub index: u16,
    /// DPP16 form.
    pub dpp16: Option<ExtForm>,
    /// DPP8 form.
    pub dpp8: Option<ExtForm>,
    /// SDWA form.
    pub sdwa: Option<ExtForm>,
}

/// The extended forms of an opcode, if it has any.
#[inline]
pub fn info(op: Opcode) -> Option<&'static ExtInfo> {
    if op.space() != OpSpace::Vop {
        return None;
    }
    let p = *tables::vop_ext::EXT_POS.get(op.index() as usize)?;
    tables::vop_ext::EXT.get(p as usize)
}

/// The form of an opcode in `family` ([`Family::Dpp16`], [`Family::Dpp8`]
/// or [`Family::Sdwa`]), on any target (see [`ExtForm::targets`]).
#[inline]
pub fn form(op: Opcode, family: Family) -> Option<&'static ExtForm> {
    let i = info(op)?;
    match family {
        Family::Dpp16 => i.dpp16.as_ref(),
        Family::Dpp8 => i.dpp8.as_ref(),
        Family::Sdwa => i.sdwa.as_ref(),
        _ => None,
    }
}

/// The DPP16 lane-movement control (`dpp_ctrl`, 9 bits), decoded.
///
/// Lanes are grouped into rows of 16 (a wave32 has two rows, a wave64
/// four); see [`DppCtrl::source_lane`] for where each lane reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppCtrl {
    /// `quad_perm:[a,b,c,d]` (0x000..=0x0FF): lane `4q + i` reads lane
    /// `4q + perm[i]`.
    QuadPerm([u8; 4]),
    /// `row_shl:n` (0x101..=0x10F): lane `l` reads `l + n` of its row.
    RowShl(u8),
    /// `row_shr:n` (0x111..=0x11F): lane `l` reads `l - n` of its row.
    RowShr(u8),
    /// `row_ror:n` (0x121..=0x12F): lane `l` reads `(l - n) mod 16` of its
    /// row.
    RowRor(u8),
    /// `wave_shl:1` (0x130; gfx8/9 only, not gfx10).
    WaveShl1,
    /// `wave_rol:1` (0x134; not gfx10).
    WaveRol1,
    /// `wave_shr:1` (0x138; not gfx10).
    WaveShr1,
    /// `wave_ror:1` (0x13C; not gfx10).
    WaveRor1,
    /// `row_mirror` (0x140): lane `l` reads `15 - l` of its row.
    RowMirror,
    /// `row_half_mirror` (0x141): lane `l` reads `7 - l` of its half-row.
    RowHalfMirror,
    /// `row_bcast:15` (0x142; not gfx10).
    RowBcast15,
    /// `row_bcast:31` (0x143; not gfx10).
    RowBcast31,
    /// `row_share:n` (0x150..=0x15F, gfx10): every lane reads lane `n` of
    /// its row.
    RowShare(u8),
    /// `row_xmask:n` (0x160..=0x16F, gfx10): lane `l` reads `l ^ n` of its
    /// row.
    RowXmask(u8),
    /// Any other value (LLVM prints `/* Invalid dpp_ctrl value */`).
    Invalid(u16),
}

impl DppCtrl {
    /// Decode the 9-bit field.
    pub const fn from_raw(raw: u16) -> DppCtrl {
        let raw = raw & 0x1ff;
        let n = (raw & 0xf) as u8;
        match raw {
            0x000..=0x0ff => DppCtrl::QuadPerm([
                (raw & 3) as u8,
                ((raw >> 2) & 3) as u8,
                ((raw >> 4) & 3) as u8,
                ((raw >> 6) & 3) as u8,
            ]),
            0x101..=0x10f => DppCtrl::RowShl(n),
            0x111..=0x11f => DppCtrl::RowShr(n),
            0x121..=0x12f => DppCtrl::RowRor(n),
            0x130 => DppCtrl::WaveShl1,
            0x134 => DppCtrl::WaveRol1,
            0x138 => DppCtrl::WaveShr1,
            0x13c => DppCtrl::WaveRor1,
            0x140 => DppCtrl::RowMirror,
            0x141 => DppCtrl::RowHalfMirror,
            0x142 => DppCtrl::RowBcast15,
            0x143 => DppCtrl::RowBcast31,
            0x150..=0x15f => DppCtrl::RowShare(n),
            0x160..=0x16f => DppCtrl::RowXmask(n),
            _ => DppCtrl::Invalid(raw),
        }
    }

    /// The 9-bit field value.
    pub const fn raw(self) -> u16 {
        match self {
            DppCtrl::QuadPerm(p) => {
                (p[0] & 3) as u16
                    | (((p[1] & 3) as u16) << 2)
                    | (((p[2] & 3) as u16) << 4)
                    | (((p[3] & 3) as u16) << 6)
            }
            DppCtrl::RowShl(n) => 0x100 | (n & 0xf) as u16,
            DppCtrl::RowShr(n) => 0x110 | (n & 0xf) as u16,
            DppCtrl::RowRor(n) => 0x120 | (n & 0xf) as u16,
            DppCtrl::WaveShl1 => 0x130,
            DppCtrl::WaveRol1 => 0x134,
            DppCtrl::WaveShr1 => 0x138,
            DppCtrl::WaveRor1 => 0x13c,
            DppCtrl::RowMirror => 0x140,
            DppCtrl::RowHalfMirror => 0x141,
            DppCtrl::RowBcast15 => 0x142,
            DppCtrl::RowBcast31 => 0x143,
            DppCtrl::RowShare(n) => 0x150 | (n & 0xf) as u16,
            DppCtrl::RowXmask(n) => 0x160 | (n & 0xf) as u16,
            DppCtrl::Invalid(r) => r & 0x1ff,
        }
    }

    /// True when gfx10 implements the control (the wave shifts and row
    /// broadcasts are gfx8/9 only; invalid values are not controls).
    pub const fn is_gfx10(self) -> bool {
        !matches!(
            self,
            DppCtrl::WaveShl1
                | DppCtrl::WaveRol1
                | DppCtrl::WaveShr1
                | DppCtrl::WaveRor1
                | DppCtrl::RowBcast15
                | DppCtrl::RowBcast31
                | DppCtrl::Invalid(_)
        )
    }

    /// True when no lane's source leaves its row (every gfx10 control but
    /// `row_shl` and `row_shr`).
    pub const fn in_row(self) -> bool {
        self.is_gfx10() && !matches!(self, DppCtrl::RowShl(_) | DppCtrl::RowShr(_))
    }

    /// The lane that lane `lane` reads its DPP source from, or `None` when
    /// the source is out of range (`row_shl`/`row_shr` past the row's edge)
    /// or the control is not a gfx10 one. Whether that lane is *valid* also
    /// depends on EXEC and `fi` (see the module docs).
    pub const fn source_lane(self, lane: u32) -> Option<u32> {
        let row = lane & !15;
        let i = lane & 15;
        Some(match self {
            DppCtrl::QuadPerm(p) => (lane & !3) | (p[(lane & 3) as usize] & 3) as u32,
            DppCtrl::RowShl(n) => {
                let j = i + n as u32;
                if j > 15 {
                    return None;
                }
                row | j
            }
            DppCtrl::RowShr(n) => {
                if (n as u32) > i {
                    return None;
                }
                row | (i - n as u32)
            }
            DppCtrl::RowRor(n) => row | ((i + 16 - (n as u32 & 15)) & 15),
            DppCtrl::RowMirror => row | (15 - i),
            DppCtrl::RowHalfMirror => (lane & !7) | (7 - (lane & 7)),
            DppCtrl::RowShare(n) => row | (n as u32 & 15),
            DppCtrl::RowXmask(n) => row | (i ^ (n as u32 & 15)),
            _ => return None,
        })
    }
}

impl Default for DppCtrl {
    /// The identity `quad_perm:[0,1,2,3]`.
    fn default() -> DppCtrl {
        DppCtrl::QuadPerm([0, 1, 2, 3])
    }
}

/// DPP16 fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dpp16Mods {
    /// The lane movement.
    pub ctrl: DppCtrl,
    /// `row_mask` (4 bits): rows (16 lanes each) that are written.
    pub row_mask: u8,
    /// `bank_mask` (4 bits): banks (lanes `4b..4b+3` of every row) that
    /// are written.
    pub bank_mask: u8,
    /// `bound_ctrl:1`: an invalid source lane reads as zero (and the lane
    /// is written) instead of leaving the lane unwritten.
    pub bound_ctrl: bool,
    /// `fi:1`: fetch from inactive lanes as if they were active.
    pub fi: bool,
}

impl Dpp16Mods {
    /// True when every lane of the wave is written (see the module docs):
    /// all rows and banks enabled, and no source lane can be invalid.
    pub fn writes_every_lane(&self, wave64: bool) -> bool {
        let rows = if wave64 { 0xf } else { 0x3 };
        self.row_mask & rows == rows
            && self.bank_mask & 0xf == 0xf
            && (self.bound_ctrl || (self.fi && self.ctrl.in_row()))
    }
}

/// DPP8 fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dpp8Mods {
    /// Lane selects: lane `l` reads lane `(l & !7) | sel[l & 7]` (0..=7).
    pub sel: [u8; 8],
    /// `fi:1` (encoded as the src0 marker 0xEA instead of 0xE9).
    pub fi: bool,
}

impl Dpp8Mods {
    /// Decode the 24-bit select field.
    pub const fn from_raw(raw: u32, fi: bool) -> Dpp8Mods {
        let mut sel = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            sel[i] = ((raw >> (3 * i)) & 7) as u8;
            i += 1;
        }
        Dpp8Mods { sel, fi }
    }
    /// The 24-bit select field.
    pub const fn raw(&self) -> u32 {
        let mut v = 0;
        let mut i = 0;
        while i < 8 {
            v |= ((self.sel[i] & 7) as u32) << (3 * i);
            i += 1;
        }
        v
    }
    /// The lane that lane `lane` reads src0 from.
    pub const fn source_lane(&self, lane: u32) -> u32 {
        (lane & !7) | (self.sel[(lane & 7) as usize] & 7) as u32
    }
}

/// An SDWA byte/word select.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SdwaSel {
    /// Bits 7:0.
    Byte0,
    /// Bits 15:8.
    Byte1,
    /// Bits 23:16.
    Byte2,
    /// Bits 31:24.
    Byte3,
    /// Bits 15:0.
    Word0,
    /// Bits 31:16.
    Word1,
    /// All 32 bits.
    #[default]
    Dword,
}

impl SdwaSel {
    /// Decode a 3-bit field; 7 is reserved (LLVM 19 aborts on it).
    pub const fn from_bits(v: u32) -> Option<SdwaSel> {
        Some(match v {
            0 => SdwaSel::Byte0,
            1 => SdwaSel::Byte1,
            2 => SdwaSel::Byte2,
            3 => SdwaSel::Byte3,
            4 => SdwaSel::Word0,
            5 => SdwaSel::Word1,
            6 => SdwaSel::Dword,
            _ => return None,
        })
    }
    /// The 3-bit field value.
    pub const fn bits(self) -> u32 {
        self as u32
    }
    /// The selected bits as (shift, width).
    pub const fn range(self) -> (u32, u32) {
        match self {
            SdwaSel::Byte0 => (0, 8),
            SdwaSel::Byte1 => (8, 8),
            SdwaSel::Byte2 => (16, 8),
            SdwaSel::Byte3 => (24, 8),
            SdwaSel::Word0 => (0, 16),
            SdwaSel::Word1 => (16, 16),
            SdwaSel::Dword => (0, 32),
        }
    }
    /// LLVM's spelling (`BYTE_0`, ..., `DWORD`).
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            SdwaSel::Byte0 => "BYTE_0",
            SdwaSel::Byte1 => "BYTE_1",
            SdwaSel::Byte2 => "BYTE_2",
            SdwaSel::Byte3 => "BYTE_3",
            SdwaSel::Word0 => "WORD_0",
            SdwaSel::Word1 => "WORD_1",
            SdwaSel::Dword => "DWORD",
        }
    }
}

/// What SDWA does with the destination bits `dst_sel` does not select.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DstUnused {
    /// `UNUSED_PAD`: fill with zeros.
    #[default]
    Pad,
    /// `UNUSED_SEXT`: fill with the result's sign bit.
    Sext,
    /// `UNUSED_PRESERVE`: keep the register's old bits (a partial write).
    Preserve,
    /// The reserved value 3. LLVM 19 decodes it and prints `UNUSED_PAD`
    /// (its printer has no case for it); what the hardware does is not
    /// documented, so the write is treated as partial, like `Preserve`.
    Reserved,
}

impl DstUnused {
    /// Decode the 2-bit field.
    pub const fn from_bits(v: u32) -> DstUnused {
        match v & 3 {
            0 => DstUnused::Pad,
            1 => DstUnused::Sext,
            2 => DstUnused::Preserve,
            _ => DstUnused::Reserved,
        }
    }
    /// The 2-bit field value.
    pub const fn bits(self) -> u32 {
        self as u32
    }
    /// LLVM's spelling.
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            DstUnused::Pad | DstUnused::Reserved => "UNUSED_PAD",
            DstUnused::Sext => "UNUSED_SEXT",
            DstUnused::Preserve => "UNUSED_PRESERVE",
        }
    }
}

/// SDWA fields. Fields a form does not have (`dst_sel`/`dst_unused` of
/// VOPC, `src1_sel` of VOP1, clamp/omod where the table says so) keep
/// their defaults (`DWORD`, `UNUSED_PAD`, off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SdwaMods {
    /// Destination select.
    pub dst_sel: SdwaSel,
    /// What happens to the unselected destination bits.
    pub dst_unused: DstUnused,
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// Source 0 select.
    pub src0_sel: SdwaSel,
    /// Source 1 select.
    pub src1_sel: SdwaSel,
}

/// The access of an SDWA VGPR destination, from the `_e32` form's (see
/// the module docs).
pub(crate) fn sdwa_dst_access(e32: Access, m: &SdwaMods) -> Access {
    if m.dst_sel == SdwaSel::Dword {
        e32
    } else if matches!(m.dst_unused, DstUnused::Preserve | DstUnused::Reserved) {
        e32 | Access::READ | Access::WRITE | Access::PARTIAL
    } else if e32.contains(Access::PARTIAL) {
        // The partial-ness was the 16-bit result's; the fill makes it a
        // full write.
        Access::WRITE
    } else {
        e32
    }
}

/// Implicit accesses DPP adds to the instruction's own: reading other
/// lanes, and EXEC when inactive source lanes are invalid (no `fi`).
pub(crate) fn implicit(inst: &Instruction) -> Implicit {
    let fi = match inst.mods {
        Modifiers::Dpp16(m) => m.fi,
        Modifiers::Dpp8(m) => m.fi,
        _ => return Implicit::empty(),
    };
    if fi {
        Implicit::CROSS_LANE
    } else {
        Implicit::CROSS_LANE | Implicit::READ_EXEC
    }
}
