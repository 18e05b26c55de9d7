//! One wave's architectural state: SGPRs, VGPRs, SCC, the program counter,
//! and the definedness of every bit the shader can read.
//!
//! # Definedness
//!
//! Values the hardware never wrote are *undefined*, not zero: VGPRs the
//! entry ABI does not initialise, every VGPR of a lane the hardware never
//! launched, SGPRs outside the entry set, LDS bytes nobody stored. The
//! interpreter still computes with their bits (they read as 0), but it
//! tracks where they flow:
//!
//! - SGPRs carry one definedness bit per value bit, so lane masks built
//!   from partly undefined compares stay exact under `and`/`or`/`andn2`.
//! - VGPRs carry one bit per lane for each byte (so `d16` loads, 16-bit
//!   ops that keep the other half, SDWA byte selects and `v_dot4` of a
//!   partly written dword stay exact).
//! - SCC carries one bit.
//!
//! Arithmetic is all-or-nothing: a result is defined when every bit it
//! reads is defined. Bitwise scalar ops propagate per bit (`0 & x` is a
//! defined 0, `1 | x` a defined 1).

use isa::operand::{EXEC_HI, EXEC_LO, M0, NULL, VCC_LO};

/// Number of VGPRs addressable by an instruction.
pub const VGPRS: usize = 256;
/// Lanes of the widest wave.
pub const MAX_LANES: usize = 64;

/// A 32-bit scalar value with per-bit definedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S32 {
    /// The bits.
    pub v: u32,
    /// Defined bits (1 = defined).
    pub def: u32,
}

impl S32 {
    /// A fully defined value.
    pub const fn known(v: u32) -> S32 {
        S32 { v, def: u32::MAX }
    }
    /// True when every bit is defined.
    pub fn is_defined(&self) -> bool {
        self.def == u32::MAX
    }
}

/// A 64-bit scalar value with per-bit definedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S64 {
    /// The bits.
    pub v: u64,
    /// Defined bits.
    pub def: u64,
}

impl S64 {
    /// A fully defined value.
    pub const fn known(v: u64) -> S64 {
        S64 { v, def: u64::MAX }
    }
    /// True when every bit is defined.
    pub fn is_defined(&self) -> bool {
        self.def == u64::MAX
    }
    /// Build from two halves.
    pub fn from_halves(lo: S32, hi: S32) -> S64 {
        S64 {
            v: lo.v as u64 | (hi.v as u64) << 32,
            def: lo.def as u64 | (hi.def as u64) << 32,
        }
    }
    /// The low half.
    pub fn lo(self) -> S32 {
        S32 {
            v: self.v as u32,
            def: self.def as u32,
        }
    }
    /// The high half.
    pub fn hi(self) -> S32 {
        S32 {
            v: (self.v >> 32) as u32,
            def: (self.def >> 32) as u32,
        }
    }
}

/// Floating-point mode bits the VALU honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FpMode {
    /// Flush f32 denormal inputs and outputs to signed zero.
    pub flush_f32: bool,
    /// Flush f16/f64 denormals (RADV keeps them).
    pub flush_f16_f64: bool,
}

impl FpMode {
    /// What RADV/ACO programs on gfx10.3 for Vulkan shaders that do not ask
    /// for denormal preservation: f32 denormals flushed, f16/f64 kept,
    /// round to nearest even (`FLOAT_MODE` 0xc0).
    pub const RADV: FpMode = FpMode {
        flush_f32: true,
        flush_f16_f64: false,
    };
    /// IEEE gradual underflow everywhere.
    pub const IEEE: FpMode = FpMode {
        flush_f32: false,
        flush_f16_f64: false,
    };
}

impl Default for FpMode {
    fn default() -> Self {
        FpMode::RADV
    }
}

/// Where a wave is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Ready to execute at `pc`.
    Running,
    /// Waiting at `s_barrier` (the pc is already past it).
    Barrier,
    /// Executed `s_endpgm`.
    Ended,
}

/// One wave's registers.
#[derive(Clone, Debug)]
pub struct Wave {
    pub(crate) wave64: bool,
    pub(crate) sgpr: [u32; 128],
    pub(crate) sdef: [u32; 128],
    pub(crate) scc: bool,
    pub(crate) scc_def: bool,
    /// `vgpr[reg * 64 + lane]`.
    pub(crate) vgpr: Vec<u32>,
    /// `vdef[reg * 4 + byte]`: the lanes whose byte is defined.
    pub(crate) vdef: Vec<u64>,
    pub(crate) pc: u32,
    pub(crate) status: Status,
    pub(crate) steps: u64,
    pub(crate) fp: FpMode,
}

impl Wave {
    /// A wave of 32 or 64 lanes with every register undefined, exec set to
    /// every lane, pc 0.
    pub fn new(wave64: bool) -> Wave {
        let mut w = Wave {
            wave64,
            sgpr: [0; 128],
            sdef: [0; 128],
            scc: false,
            scc_def: false,
            vgpr: vec![0; VGPRS * MAX_LANES],
            vdef: vec![0; VGPRS * 4],
            pc: 0,
            status: Status::Running,
            steps: 0,
            fp: FpMode::RADV,
        };
        w.set_exec(w.all_lanes());
        w.sgpr[NULL as usize] = 0;
        w.sdef[NULL as usize] = u32::MAX;
        w
    }

    /// Lanes in the wave: 32 or 64.
    pub fn lanes(&self) -> u32 {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    /// True for wave64.
    pub fn is_wave64(&self) -> bool {
        self.wave64
    }

    /// The mask of every lane of the wave.
    pub fn all_lanes(&self) -> u64 {
        if self.wave64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    /// Set the floating-point mode.
    pub fn set_fp_mode(&mut self, fp: FpMode) {
        self.fp = fp;
    }

    /// The program counter (byte offset).
    pub fn pc(&self) -> u32 {
        self.pc
    }

    /// Where the wave is.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Instructions executed so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Set a defined SGPR (any code of the 0..=127 scalar space).
    pub fn set_sgpr(&mut self, code: u16, value: u32) {
        self.write_s32(code, S32::known(value));
    }

    /// An SGPR's value and defined bits.
    pub fn sgpr(&self, code: u16) -> S32 {
        let c = code as usize & 127;
        S32 {
            v: self.sgpr[c],
            def: self.sdef[c],
        }
    }

    /// Set a defined VGPR value in one lane.
    pub fn set_vgpr(&mut self, reg: u8, lane: u32, value: u32) {
        self.write_v(reg as usize, lane as usize & 63, value, 0xf);
    }

    /// A VGPR's value in one lane, and whether all 32 bits are defined.
    pub fn vgpr(&self, reg: u8, lane: u32) -> (u32, bool) {
        let (v, m) = self.read_v(reg as usize, lane as usize & 63);
        (v, m == 0xf)
    }

    /// The active-lane mask (exec, wave32 uses `exec_lo` only) and its
    /// defined bits.
    pub fn exec(&self) -> S64 {
        let lo = self.sgpr(EXEC_LO);
        if self.wave64 {
            S64::from_halves(lo, self.sgpr(EXEC_HI))
        } else {
            S64::from_halves(lo, S32::known(0))
        }
    }

    /// Set exec to a defined mask.
    pub fn set_exec(&mut self, mask: u64) {
        self.write_mask(EXEC_LO, S64::known(mask));
    }

    /// VCC (wave32: `vcc_lo` only).
    pub fn vcc(&self) -> S64 {
        self.read_mask(VCC_LO)
    }

    /// M0.
    pub fn m0(&self) -> S32 {
        self.sgpr(M0)
    }

    // ---- internal register access -------------------------------------

    /// Write a 32-bit scalar register; writes to `null` and to codes outside
    /// the writable space are dropped.
    #[inline]
    pub(crate) fn write_s32(&mut self, code: u16, val: S32) {
        if code >= 128 || code == NULL {
            return;
        }
        if code == EXEC_HI && !self.wave64 {
            // wave32 keeps exec_hi, but no lane reads it.
        }
        self.sgpr[code as usize] = val.v;
        self.sdef[code as usize] = val.def;
    }

    /// Write a 64-bit scalar register pair.
    #[inline]
    pub(crate) fn write_s64(&mut self, code: u16, val: S64) {
        self.write_s32(code, val.lo());
        self.write_s32(code + 1, val.hi());
    }

    /// Read a lane mask starting at `code`: one register in wave32, a pair
    /// in wave64.
    #[inline]
    pub(crate) fn read_mask(&self, code: u16) -> S64 {
        let lo = self.read_sreg(code);
        if self.wave64 {
            S64::from_halves(lo, self.read_sreg(code + 1))
        } else {
            S64::from_halves(lo, S32::known(0))
        }
    }

    /// Write a lane mask starting at `code` (one register in wave32).
    #[inline]
    pub(crate) fn write_mask(&mut self, code: u16, val: S64) {
        self.write_s32(code, val.lo());
        if self.wave64 {
            self.write_s32(code + 1, val.hi());
        }
    }

    /// Read a register of the 0..=127 scalar space (null reads 0).
    #[inline]
    pub(crate) fn read_sreg(&self, code: u16) -> S32 {
        if code == NULL {
            return S32::known(0);
        }
        let c = code as usize & 127;
        S32 {
            v: self.sgpr[c],
            def: self.sdef[c],
        }
    }

    /// Write one VGPR lane; bit `i` of `def` says byte `i` is defined.
    #[inline]
    pub(crate) fn write_v(&mut self, reg: usize, lane: usize, v: u32, def: u8) {
        let reg = reg & 255;
        self.vgpr[reg * MAX_LANES + lane] = v;
        let bit = 1u64 << lane;
        for b in 0..4 {
            let d = &mut self.vdef[reg * 4 + b];
            if def & (1 << b) != 0 {
                *d |= bit;
            } else {
                *d &= !bit;
            }
        }
    }

    /// Write the low 16 bits of one VGPR lane, keeping the high half.
    #[inline]
    pub(crate) fn write_v_lo16(&mut self, reg: usize, lane: usize, v: u16, def: bool) {
        let (old, m) = self.read_v(reg, lane);
        let d = if def { 3 } else { 0 };
        self.write_v(reg, lane, (old & 0xffff_0000) | v as u32, (m & 0xc) | d);
    }

    /// Write the high 16 bits of one VGPR lane, keeping the low half.
    #[inline]
    pub(crate) fn write_v_hi16(&mut self, reg: usize, lane: usize, v: u16, def: bool) {
        let (old, m) = self.read_v(reg, lane);
        let d = if def { 0xc } else { 0 };
        self.write_v(reg, lane, (old & 0xffff) | (v as u32) << 16, (m & 3) | d);
    }

    /// Read one VGPR lane: the value and its defined bytes.
    #[inline]
    pub(crate) fn read_v(&self, reg: usize, lane: usize) -> (u32, u8) {
        let reg = reg & 255;
        let mut m = 0u8;
        for b in 0..4 {
            m |= (((self.vdef[reg * 4 + b] >> lane) & 1) as u8) << b;
        }
        (self.vgpr[reg * MAX_LANES + lane], m)
    }

    /// Make one VGPR lane undefined (keeping its bits).
    #[inline]
    pub(crate) fn forget_v(&mut self, reg: usize, lane: usize) {
        let (x, _) = self.read_v(reg, lane);
        self.write_v(reg, lane, x, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa::operand::VCC_HI;

    #[test]
    fn a_new_wave_has_every_register_undefined_but_exec_and_null() {
        let w = Wave::new(true);
        assert_eq!(w.sgpr(5).def, 0);
        assert_eq!(w.vgpr(3, 7), (0, false));
        assert_eq!(w.exec(), S64::known(u64::MAX));
        assert_eq!(w.read_sreg(NULL), S32::known(0));
        let w32 = Wave::new(false);
        assert_eq!(w32.exec(), S64::known(u32::MAX as u64));
    }

    #[test]
    fn wave32_masks_are_one_register_so_vcc_hi_stays_a_plain_sgpr() {
        let mut w = Wave::new(false);
        w.set_sgpr(VCC_HI, 77);
        w.write_mask(VCC_LO, S64::known(u64::MAX));
        assert_eq!(w.sgpr(VCC_HI), S32::known(77));
        assert_eq!(w.vcc(), S64::known(u32::MAX as u64));
        let mut w64 = Wave::new(true);
        w64.write_mask(VCC_LO, S64::known(u64::MAX));
        assert_eq!(w64.sgpr(VCC_HI), S32::known(u32::MAX));
    }

    #[test]
    fn half_writes_keep_the_other_half_and_its_definedness() {
        let mut w = Wave::new(true);
        w.write_v_lo16(4, 2, 0xbeef, true);
        assert_eq!(w.read_v(4, 2), (0xbeef, 0b0011));
        w.write_v_hi16(4, 2, 0xdead, true);
        assert_eq!(w.vgpr(4, 2), (0xdead_beef, true));
    }
}
