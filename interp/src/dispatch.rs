//! Compute dispatches: every workgroup of a grid, its waves over one LDS,
//! with the entry registers the hardware (and RADV) gives a compute wave.
//!
//! A compute wave starts with the user SGPRs (`s0..`, user data from the
//! ABI's first user-data SGPR up to `user_sgprs`), then one SGPR per
//! enabled workgroup-id component (x, y, z in that order), and the local
//! invocation ids in `v0` (x), `v1` (y), `v2` (z), as many as
//! `local_id_vgprs` says (gfx10: one VGPR per component). A workgroup of
//! `size` invocations is `ceil(size / lanes)` waves; lane `l` of wave `w` is
//! invocation `w·lanes + l` in x-major order, and the last wave's lanes past
//! the workgroup start inactive.

use crate::exec::{Env, Limits, Observations};
use crate::memory::{GuestMemory, Lds};
use crate::program::Program;
use crate::record::InterpError;
use crate::wave::{FpMode, Wave};
use crate::workgroup::run_workgroup;
use isa::Abi;

/// The most invocations of one workgroup (the hardware's 1024).
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 1024;

/// How to run a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatchConfig {
    /// Entry registers: user data from `abi.user_data_sgpr`.
    pub abi: Abi,
    /// 64 lanes per wave (else 32).
    pub wave64: bool,
    /// Invocations per workgroup in x, y, z.
    pub workgroup_size: [u32; 3],
    /// The first SGPR after the user SGPRs (COMPUTE_PGM_RSRC2.USER_SGPR).
    pub user_sgprs: u8,
    /// Which workgroup-id components the hardware loads (TGID_X/Y/Z_EN),
    /// in consecutive SGPRs from `user_sgprs`.
    pub workgroup_id: [bool; 3],
    /// How many local-id VGPRs the hardware loads (1..=3).
    pub local_id_vgprs: u8,
    /// Whether the hardware loads TG_SIZE into the SGPR after the
    /// workgroup ids: waves in the workgroup in bits 0..6, the wave's index
    /// in bits 20..25 on gfx10.3 (`target`), 6..12 on gfx10.1.
    pub tg_size: bool,
    /// The target (where TG_SIZE puts the wave index).
    pub target: isa::Target,
    /// Float mode.
    pub fp: FpMode,
    /// Step bound per wave.
    pub limits: Limits,
    /// The guest address of the code's first byte.
    pub code_addr: u64,
}

/// Why a dispatch could not run.
#[derive(Debug, thiserror::Error)]
pub enum DispatchError {
    /// A workgroup size of 0 or past [`MAX_WORKGROUP_INVOCATIONS`].
    #[error("workgroup size {0:?} is not 1..={MAX_WORKGROUP_INVOCATIONS} invocations")]
    WorkgroupSize([u32; 3]),
    /// The interpreter stopped in a workgroup.
    #[error("workgroup {group:?}: {error}")]
    Interp {
        /// The workgroup id.
        group: [u32; 3],
        /// What stopped it.
        error: InterpError,
    },
}

/// The SGPR each workgroup-id component arrives in, per `cfg`.
pub fn workgroup_id_sgprs(user_sgprs: u8, enabled: [bool; 3]) -> [Option<u8>; 3] {
    let mut next = user_sgprs;
    let mut out = [None; 3];
    for (o, &en) in out.iter_mut().zip(&enabled) {
        if en {
            *o = Some(next);
            next = next.saturating_add(1);
        }
    }
    out
}

/// Run every workgroup of a `groups` grid (x-major) and return what the
/// waves observed: buffer accesses, stores (in program order, workgroup
/// after workgroup) and findings. Wave ids count up across the dispatch.
pub fn run_dispatch(
    program: &Program,
    memory: &dyn GuestMemory,
    user_data: &[u32],
    groups: [u32; 3],
    cfg: &DispatchConfig,
) -> Result<Observations, DispatchError> {
    let [sx, sy, sz] = cfg.workgroup_size;
    let size = sx.checked_mul(sy).and_then(|x| x.checked_mul(sz));
    let size = match size {
        Some(n) if (1..=MAX_WORKGROUP_INVOCATIONS).contains(&n) => n,
        _ => return Err(DispatchError::WorkgroupSize(cfg.workgroup_size)),
    };
    let run_steps = std::cell::Cell::new(0);
    let env = Env {
        program,
        memory,
        limits: cfg.limits,
        code_addr: cfg.code_addr,
        run_steps: &run_steps,
    };
    let lanes = if cfg.wave64 { 64u32 } else { 32 };
    let nwaves = size.div_ceil(lanes);
    let id_sgprs = workgroup_id_sgprs(cfg.user_sgprs, cfg.workgroup_id);
    let mut obs = Observations::new();
    let mut lds = Lds::new();
    let mut first_wave = 0u32;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let group = [gx, gy, gz];
                let mut waves = Vec::with_capacity(nwaves as usize);
                for wi in 0..nwaves {
                    let mut w = Wave::new(cfg.wave64);
                    w.set_fp_mode(cfg.fp);
                    let first_ud = cfg.abi.user_data_sgpr;
                    for (k, &v) in user_data.iter().enumerate() {
                        let s = first_ud as usize + k;
                        if s >= cfg.user_sgprs as usize || s > 105 {
                            break;
                        }
                        w.set_sgpr(s as u16, v);
                    }
                    for (c, s) in id_sgprs.iter().enumerate() {
                        if let Some(s) = s {
                            w.set_sgpr(u16::from(*s), group[c]);
                        }
                    }
                    if cfg.tg_size {
                        let s =
                            id_sgprs.iter().flatten().count() as u16 + u16::from(cfg.user_sgprs);
                        let at = if cfg.target == isa::Target::Gfx1030 {
                            20
                        } else {
                            6
                        };
                        w.set_sgpr(s, (nwaves & 0x3f) | (wi << at));
                    }
                    let mut live = 0u32;
                    for l in 0..lanes {
                        let inv = wi * lanes + l;
                        if inv >= size {
                            break;
                        }
                        live += 1;
                        let local = [inv % sx, (inv / sx) % sy, inv / (sx * sy)];
                        for (c, &x) in local.iter().enumerate().take(cfg.local_id_vgprs as usize) {
                            w.set_vgpr(c as u8, l, x);
                        }
                    }
                    w.set_exec(if live >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << live) - 1
                    });
                    waves.push(w);
                }
                lds.clear();
                run_workgroup(&env, &mut waves, first_wave, &mut lds, &mut obs)
                    .map_err(|error| DispatchError::Interp { group, error })?;
                first_wave += nwaves;
            }
        }
    }
    Ok(obs)
}
