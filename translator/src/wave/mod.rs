//! The compute execution model: one host invocation per guest lane, one
//! host workgroup per guest workgroup.
//!
//! A guest compute workgroup of `workgroup_size` invocations runs as one
//! host workgroup of the same size: host `LocalInvocationId` is the guest's
//! local id (the VGPRs `v0..v2` RADV loads), host `WorkgroupId` the guest's
//! workgroup id (the SGPRs after the user SGPRs). Guest lane `l` of wave `w`
//! is host invocation `w·lanes + l` (x-major), as the hardware packs a
//! workgroup into waves.
//!
//! Within that, the lifter keeps its per-lane model: an SGPR is a uniform
//! word or this lane's bit of a lane mask, EXEC is this lane's bit, VALU
//! writes and buffer stores are predicated by it. Constructs that need the
//! other lanes of a wave (ballots, `v_mbcnt`, `v_readlane`, DPP, LDS) are
//! still refused here: they are the part of the wave model that needs
//! workgroup memory and barriers in uniform control flow, not yet built.
//!
//! A workgroup of several whole waves whose per-lane translation is
//! refused may run one wave per host workgroup ([`Dispatch::waves_per_group`]):
//! each wave then branches on its own EXEC and keeps its own scalar state,
//! which is sound only while its waves share nothing but guest memory (no
//! LDS, no `s_barrier`: [`shared_across_waves`]).
//!
//! Memory is one writable window over guest memory (no per-descriptor
//! bindings), so a store and a later load of the same guest address meet
//! in one host buffer whatever descriptor each went through. Dword stores
//! (`buffer_store_dword`..`x4`, `global_store_dword*`) at dword-aligned
//! addresses are translated; an unaligned one is not performed (the run
//! check shows it); byte/short stores and 32-bit atomics are SPIR-V atomics
//! (`lift/atomic.rs`); format stores are refused.

use crate::ir::{AtomicTarget, Effect, Func, LaneOp, Load, Op, Unsupported, Value};
use crate::CrossLane;
use serde::{Deserialize, Serialize};

pub mod ngg;
pub(crate) mod uniform;

pub use ngg::{NggEntry, NggOutput, PrimVgprs};

/// How the hardware starts a compute wave (COMPUTE_PGM_RSRC2 and
/// COMPUTE_NUM_THREAD_*): what a host needs to run a compute shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ComputeEntry {
    /// Invocations per workgroup in x, y, z (COMPUTE_NUM_THREAD_X/Y/Z).
    pub workgroup_size: [u32; 3],
    /// The SGPRs the hardware fills from user data end here
    /// (COMPUTE_PGM_RSRC2.USER_SGPR; RADV counts the ring-offset pair).
    pub user_sgprs: u8,
    /// Which workgroup-id components the hardware loads
    /// (COMPUTE_PGM_RSRC2.TGID_X/Y/Z_EN), in consecutive SGPRs from
    /// `user_sgprs`.
    pub workgroup_id: [bool; 3],
    /// How many local-id VGPRs the hardware loads (`v0` = x, `v1` = y,
    /// `v2` = z; COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT + 1).
    #[serde(default = "three")]
    pub local_id_vgprs: u8,
    /// Whether the hardware loads TG_SIZE (COMPUTE_PGM_RSRC2.TG_SIZE_EN) into
    /// the SGPR after the workgroup ids: the number of waves of the
    /// workgroup in bits 0..6 and this wave's index in it in bits 20..25
    /// (gfx10.3) or 6..12 (gfx10.1), as Mesa's `ac` code reads it.
    #[serde(default)]
    pub tg_size: bool,
}

fn three() -> u8 {
    3
}

impl ComputeEntry {
    /// The SGPR each workgroup-id component arrives in.
    pub fn workgroup_id_sgprs(&self) -> [Option<u8>; 3] {
        let mut next = self.user_sgprs;
        let mut out = [None; 3];
        for (o, &en) in out.iter_mut().zip(&self.workgroup_id) {
            if en {
                *o = Some(next);
                next = next.saturating_add(1);
            }
        }
        out
    }

    /// The SGPR TG_SIZE arrives in (after the enabled workgroup ids).
    pub fn tg_size_sgpr(&self) -> Option<u8> {
        let ids = self.workgroup_id.iter().filter(|&&e| e).count() as u8;
        self.tg_size.then(|| self.user_sgprs.saturating_add(ids))
    }

    /// Invocations per workgroup (`None` past 1024 or 0: not a workgroup
    /// Vulkan guarantees).
    pub fn invocations(&self) -> Option<u32> {
        let [x, y, z] = self.workgroup_size;
        let n = x.checked_mul(y)?.checked_mul(z)?;
        (1..=1024).contains(&n).then_some(n)
    }
}

/// Deliberately broken compute lowerings, for negative controls (feature
/// `testing`): each makes the run check go red.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputeFaults {
    /// The local ids arrive one VGPR late (x in `v1`, y in `v2`): an entry
    /// ABI read wrong.
    pub local_ids_shifted: bool,
    /// `v_mbcnt_lo/hi` count the lanes at or below this one instead of
    /// below it.
    pub mbcnt_at_or_below: bool,
    /// LDS accesses ignore the instruction's offset field.
    pub lds_ignores_offset: bool,
    /// Atomics (other than compare-swap) store their operand instead of
    /// combining it with the old word.
    pub atomic_as_swap: bool,
    /// `global_*` accesses ignore the instruction's immediate offset.
    pub global_ignores_offset: bool,
    /// `global_*` accesses land one dword past their address (a pointer
    /// read one dword off).
    pub global_address_plus_dword: bool,
    /// Byte and short stores store the whole dword at their address.
    pub sub_dword_as_dword: bool,
    /// TG_SIZE gives every wave index 0.
    pub tg_size_wave_zero: bool,
    /// A rewritten loop's exits pick their selectors backwards
    /// ([`crate::structure::LoopFaults::exit_selector_reversed`]).
    pub loop_exit_selector_reversed: bool,
    /// NGG compute pass: the vertex-id VGPR holds the lane's vertex id
    /// plus 1 (in a counted subgroup, vertex `l + 1`'s: an entry state
    /// computed wrong).
    pub ngg_vertex_ids_shifted: bool,
    /// NGG compute pass, listed subgroups (indexed draws): each primitive
    /// lane gets its vertex indices rotated (`i1, i2, i0`).
    pub ngg_listed_prims_rotated: bool,
    /// f32 operations leave denormals to the host instead of flushing them
    /// (RADV's float mode) explicitly.
    pub keep_denormals: bool,
    /// An EXEC raise inside a per-lane exec region is accepted without the
    /// proof that it turns on only lanes active at the region's branch
    /// (`lift::exec_bit_implies`).
    pub unproven_exec_raises: bool,
    /// Wave branches (`LiftOptions::wave_branches`): `s_cbranch_execz`
    /// is taken unless every lane of EXEC is on, so a divergent loop
    /// leaves when its first lane does.
    pub wave_branch_all_lanes: bool,
    /// Where a register is undefined on some edges into a join or loop
    /// head, 0 goes along every edge, the defined ones too
    /// (`lift/undef.rs`).
    pub undefined_join_zeroes_defined: bool,
    /// One wave per host workgroup ([`Dispatch::waves_per_group`]): every
    /// host workgroup takes itself for the guest workgroup's first wave
    /// (the wave index of its local ids is 0), so the other waves' lanes
    /// redo the first wave's work.
    pub wave_split_wave_zero: bool,
    /// An undefined register becomes 0 at joins without the proof that
    /// nothing demands it there (`lift/undef.rs`).
    pub undefined_never_demanded: bool,
}

/// The manifest's dispatch section: how the host runs a translated compute
/// shader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispatch {
    /// The guest entry it was translated for.
    pub entry: ComputeEntry,
    /// The module's `LocalSize`: the guest workgroup size, or one wave
    /// (`[lanes, 1, 1]`) when `waves_per_group` > 1.
    pub local_size: [u32; 3],
    /// Host workgroups per guest workgroup, along x: 1, or the guest
    /// workgroup's waves when each host workgroup is one wave (a workgroup
    /// of several waves whose waves branch separately, see
    /// [`Dispatch::host_groups`]).
    #[serde(default = "one")]
    pub waves_per_group: u32,
    /// How the host runs it.
    pub how: String,
}

fn one() -> u32 {
    1
}

impl Dispatch {
    /// The dispatch of a module for `entry`; `waves` > 1 when each host
    /// workgroup is one of that many waves of a guest workgroup of `lanes`
    /// lanes each.
    pub(crate) fn new(entry: ComputeEntry, waves: u32, lanes: u32) -> Dispatch {
        if waves > 1 {
            return Dispatch {
                entry,
                local_size: [lanes, 1, 1],
                waves_per_group: waves,
                how: format!("vkCmdDispatch(groups) with the guest's group counts, x times {waves} (host_groups): host workgroup (g.x, g.y, g.z) is wave g.x % {waves} of guest workgroup (g.x / {waves}, g.y, g.z), and the module computes the guest's ids from that; the window binding is read and written (copy it back to guest memory after the dispatch)"),
            };
        }
        Dispatch {
            entry,
            local_size: entry.workgroup_size,
            waves_per_group: 1,
            how: "vkCmdDispatch(groups) with the guest's group counts: WorkgroupId = the guest workgroup id, LocalInvocationId = the guest local id; the window binding is read and written (copy it back to guest memory after the dispatch)".into(),
        }
    }

    /// The host's workgroup counts for the guest's `groups`: x times
    /// `waves_per_group` (`None` when that overflows).
    pub fn host_groups(&self, groups: [u32; 3]) -> Option<[u32; 3]> {
        let x = groups[0].checked_mul(self.waves_per_group.max(1))?;
        Some([x, groups[1], groups[2]])
    }
}

/// What the waves of a workgroup share besides guest memory, live in `f`:
/// every LDS access and `s_barrier`, as [`CrossLane::SharedAcrossWaves`]
/// at its pc (0 for an LDS write, which keeps none). A workgroup run one
/// wave per host workgroup must have none.
pub(crate) fn shared_across_waves(f: &Func) -> Vec<Unsupported> {
    let mut out = Vec::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if !f.is_live(Value(i as u32)) {
            continue;
        }
        let pc = match inst.op {
            Op::Load(l) => match f.loads[l as usize] {
                Load::Lanes(pc, LaneOp::LdsRead { .. }) => Some(pc),
                _ => None,
            },
            Op::Effect(e) => match f.effects[e as usize] {
                Effect::Barrier { pc }
                | Effect::Atomic {
                    pc,
                    target: AtomicTarget::Lds(_),
                    ..
                } => Some(pc),
                Effect::LdsWrite { .. } | Effect::LdsWriteByte { .. } => Some(0),
                _ => None,
            },
            _ => None,
        };
        if let Some(pc) = pc {
            out.push(Unsupported {
                pc,
                inst: "(LDS or s_barrier)".into(),
                construct: CrossLane::SharedAcrossWaves.into(),
            });
        }
    }
    out
}
