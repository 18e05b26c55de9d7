//! Operands: registers, inline constants and literals.
//!
//! Registers are named by their code in the hardware's 9-bit source-operand
//! space, which every encoding family shares (scalar fields use the low 7 or
//! 8 bits of it, vector-register fields are offset by 256):
//!
//! | code | meaning |
//! |---|---|
//! | 0..=105 | `s0`..`s105` |
//! | 106, 107 | `vcc_lo`, `vcc_hi` |
//! | 108..=123 | `ttmp0`..`ttmp15` |
//! | 124 | `m0` |
//! | 125 | `null` |
//! | 126, 127 | `exec_lo`, `exec_hi` |
//! | 128..=208 | inline integers 0..=64, -1..=-16 |
//! | 235..=239 | `src_shared_base` .. `src_pops_exiting_wave_id` |
//! | 240..=248 | inline floats 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2π) |
//! | 251..=254 | `src_vccz`, `src_execz`, `src_scc`, `src_lds_direct` |
//! | 255 | a 32-bit literal follows the instruction |
//! | 256..=511 | `v0`..`v255` |

use bitflags::bitflags;

/// First code of the VGPR file.
pub const VGPR_BASE: u16 = 256;
/// `vcc_lo`.
pub const VCC_LO: u16 = 106;
/// `vcc_hi`.
pub const VCC_HI: u16 = 107;
/// `ttmp0`.
pub const TTMP0: u16 = 108;
/// `m0`.
pub const M0: u16 = 124;
/// `null`.
pub const NULL: u16 = 125;
/// `exec_lo`.
pub const EXEC_LO: u16 = 126;
/// `exec_hi`.
pub const EXEC_HI: u16 = 127;
/// `src_scc`.
pub const SRC_SCC: u16 = 253;
/// `src_vccz`.
pub const SRC_VCCZ: u16 = 251;
/// `src_execz`.
pub const SRC_EXECZ: u16 = 252;
/// `src_lds_direct`.
pub const SRC_LDS_DIRECT: u16 = 254;
/// The literal-constant marker.
pub const LITERAL: u16 = 255;

/// One operand value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `count` consecutive 32-bit registers starting at `code` (see the
    /// module table). A 64-bit SGPR pair is `count == 2`.
    Reg {
        /// Code of the first register.
        code: u16,
        /// Number of 32-bit registers.
        count: u8,
    },
    /// An inline constant, by its code (128..=208 or 240..=248).
    Inline(u8),
    /// A 32-bit literal constant that follows the instruction.
    Literal(u32),
    /// An immediate field printed as an operand (for example SOPK's
    /// `simm16`, or a branch offset).
    Imm(i32),
    /// A disabled slot that LLVM prints as `off`.
    Off,
}

/// The register file a register code belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// `s0`..`s105`.
    Sgpr,
    /// `vcc_lo`/`vcc_hi`.
    Vcc,
    /// Trap temporaries.
    Ttmp,
    /// `m0`.
    M0,
    /// `null`.
    Null,
    /// `exec_lo`/`exec_hi`.
    Exec,
    /// Read-only hardware sources (`src_*`).
    Special,
    /// `v0`..`v255`.
    Vgpr,
}

impl RegFile {
    /// The file of a register code, or `None` for codes that are not
    /// registers (constants, literal, reserved codes).
    pub fn of(code: u16) -> Option<RegFile> {
        Some(match code {
            0..=105 => RegFile::Sgpr,
            106 | 107 => RegFile::Vcc,
            108..=123 => RegFile::Ttmp,
            124 => RegFile::M0,
            125 => RegFile::Null,
            126 | 127 => RegFile::Exec,
            235..=239 | 251..=254 => RegFile::Special,
            256..=511 => RegFile::Vgpr,
            _ => return None,
        })
    }
}

impl Operand {
    /// A single SGPR `s{n}`.
    pub const fn sgpr(n: u8) -> Operand {
        Operand::Reg {
            code: n as u16,
            count: 1,
        }
    }
    /// `count` SGPRs from `s{n}`.
    pub const fn sgprs(n: u8, count: u8) -> Operand {
        Operand::Reg {
            code: n as u16,
            count,
        }
    }
    /// A single VGPR `v{n}`.
    pub const fn vgpr(n: u8) -> Operand {
        Operand::Reg {
            code: VGPR_BASE + n as u16,
            count: 1,
        }
    }
    /// `count` VGPRs from `v{n}`.
    pub const fn vgprs(n: u8, count: u8) -> Operand {
        Operand::Reg {
            code: VGPR_BASE + n as u16,
            count,
        }
    }

    /// The register file of a register operand.
    pub fn reg_file(&self) -> Option<RegFile> {
        match *self {
            Operand::Reg { code, .. } => RegFile::of(code),
            _ => None,
        }
    }

    /// If this is a VGPR range, its first index and count.
    pub fn vgpr_range(&self) -> Option<(u8, u8)> {
        match *self {
            Operand::Reg { code, count } if code >= VGPR_BASE => {
                Some(((code - VGPR_BASE) as u8, count))
            }
            _ => None,
        }
    }

    /// If this is a range in the scalar register space (SGPRs, vcc, ttmp,
    /// m0, null, exec), its first code and count.
    pub fn scalar_range(&self) -> Option<(u16, u8)> {
        match *self {
            Operand::Reg { code, count } if code < 128 => Some((code, count)),
            _ => None,
        }
    }

    /// The value of an inline integer or float constant, as the 32-bit
    /// pattern the hardware feeds a 32-bit operand; `None` for non-constants.
    pub fn inline_value_b32(&self) -> Option<u32> {
        match *self {
            Operand::Inline(c) => inline_b32(c),
            Operand::Literal(v) => Some(v),
            _ => None,
        }
    }
}

/// The 32-bit bit pattern of an inline constant code for a 32-bit operand.
pub fn inline_b32(code: u8) -> Option<u32> {
    Some(match code {
        128..=192 => (code - 128) as u32,
        193..=208 => (-((code - 192) as i32)) as u32,
        240 => 0x3f00_0000,
        241 => 0xbf00_0000,
        242 => 0x3f80_0000,
        243 => 0xbf80_0000,
        244 => 0x4000_0000,
        245 => 0xc000_0000,
        246 => 0x4080_0000,
        247 => 0xc080_0000,
        248 => 0x3e22_f983,
        _ => return None,
    })
}

/// The 16-bit bit pattern of an inline constant code for a 16-bit float
/// operand (integers are the low half of the 32-bit value).
pub fn inline_f16(code: u8) -> Option<u16> {
    Some(match code {
        128..=208 => inline_b32(code)? as u16,
        240 => 0x3800,
        241 => 0xb800,
        242 => 0x3c00,
        243 => 0xbc00,
        244 => 0x4000,
        245 => 0xc000,
        246 => 0x4400,
        247 => 0xc400,
        248 => 0x3118,
        _ => return None,
    })
}

/// The 64-bit bit pattern of an inline constant code for a 64-bit operand.
pub fn inline_b64(code: u8) -> Option<u64> {
    Some(match code {
        128..=192 => (code - 128) as u64,
        193..=208 => (-((code - 192) as i64)) as u64,
        240 => 0x3fe0_0000_0000_0000,
        241 => 0xbfe0_0000_0000_0000,
        242 => 0x3ff0_0000_0000_0000,
        243 => 0xbff0_0000_0000_0000,
        244 => 0x4000_0000_0000_0000,
        245 => 0xc000_0000_0000_0000,
        246 => 0x4010_0000_0000_0000,
        247 => 0xc010_0000_0000_0000,
        248 => 0x3fc4_5f30_6dc9_c882,
        _ => return None,
    })
}

/// The type an operand is read or written as. It decides how LLVM prints
/// constants and how the interpreter and translator treat the bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ValType {
    /// Untyped 32 bits (also signed/unsigned integers).
    #[default]
    B32,
    /// 32-bit float.
    F32,
    /// 16-bit integer in the low half.
    B16,
    /// 16-bit float in the low half.
    F16,
    /// Untyped 64 bits.
    B64,
    /// 64-bit float.
    F64,
    /// Two packed 16-bit integers.
    V2B16,
    /// Two packed 16-bit floats.
    V2F16,
    /// A lane mask (wave32: one SGPR, wave64: a pair) or SCC-like boolean.
    Mask,
    /// Memory data of the given width (loads/stores), untyped.
    Data,
    /// An address or descriptor.
    Addr,
}

bitflags! {
    /// How an instruction touches an operand.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Access: u8 {
        /// The operand is read.
        const READ = 1;
        /// The operand is written.
        const WRITE = 2;
        /// The write does not replace the whole register in every active
        /// lane: part of the old value survives (SDWA/`d16` partial writes,
        /// DPP lanes that are not written, `v_writelane`'s one lane).
        const PARTIAL = 4;
    }
}

bitflags! {
    /// Per-operand source modifiers.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct OpMods: u8 {
        /// Negate (float) — VOP3 `neg`, SDWA/DPP `-x`, VOP3P `neg_lo`.
        const NEG = 1;
        /// Absolute value (float) — `|x|`.
        const ABS = 2;
        /// Sign-extend (SDWA integer sources, `sext(x)`).
        const SEXT = 4;
        /// VOP3P `neg_hi`.
        const NEG_HI = 8;
        /// VOP3 `op_sel` bit for this operand (high half), VOP3P `op_sel`.
        const OP_SEL = 16;
        /// VOP3P `op_sel_hi`.
        const OP_SEL_HI = 32;
    }
}

/// One operand of an instruction, with its role. `repr(C)`: the decoders'
/// plans keep access and type in this order, so both are copied at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Slot {
    /// The value.
    pub op: Operand,
    /// Read, written, or both.
    pub access: Access,
    /// How the bits are interpreted.
    pub ty: ValType,
    /// Source modifiers.
    pub mods: OpMods,
}

impl Slot {
    /// A read operand.
    pub const fn use_(op: Operand, ty: ValType) -> Slot {
        Slot {
            op,
            access: Access::READ,
            ty,
            mods: OpMods::empty(),
        }
    }
    /// A written operand.
    pub const fn def(op: Operand, ty: ValType) -> Slot {
        Slot {
            op,
            access: Access::WRITE,
            ty,
            mods: OpMods::empty(),
        }
    }
    /// True if the operand is written.
    pub fn is_def(&self) -> bool {
        self.access.contains(Access::WRITE)
    }
    /// True if the operand is read.
    pub fn is_use(&self) -> bool {
        self.access.contains(Access::READ)
    }
}

bitflags! {
    /// Registers an instruction reads or writes without naming them as
    /// operands (they are not in [`crate::Instruction::operands`]).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Implicit: u16 {
        /// Reads SCC.
        const READ_SCC = 1;
        /// Writes SCC.
        const WRITE_SCC = 2;
        /// Reads EXEC.
        const READ_EXEC = 4;
        /// Writes EXEC.
        const WRITE_EXEC = 8;
        /// Reads VCC.
        const READ_VCC = 16;
        /// Reads M0.
        const READ_M0 = 32;
        /// Changes the program counter (branches, calls, returns).
        const BRANCH = 64;
        /// Writes VCC.
        const WRITE_VCC = 128;
        /// Writes M0.
        const WRITE_M0 = 256;
        /// Reads or writes LDS.
        const LDS = 512;
        /// Reads or writes memory other than LDS.
        const MEMORY = 1024;
        /// Crosses lanes (reads or writes another lane's registers).
        const CROSS_LANE = 2048;
        /// Ends the program.
        const END = 4096;
        /// Reads or writes a register chosen at run time (`s_movrel*`,
        /// `v_movrel*`: the named operand is only the base, M0 adds an
        /// index). A consumer must treat every register of the file as
        /// possibly read/written.
        const RELATIVE = 8192;
        /// Exports data to a fixed-function consumer (colour, depth,
        /// position, parameter or primitive data): a side effect that is
        /// neither a register nor memory (`exp`).
        const EXPORT = 16384;
    }
}
