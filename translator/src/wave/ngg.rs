//! NGG vertex shaders (with culling, or any cross-lane construct) as a
//! compute pass: one host workgroup is one guest NGG subgroup, and every
//! subgroup is exactly one wave.
//!
//! # Subgroups
//!
//! A non-indexed triangle-list draw of `n` vertices (ids `first ..
//! first + n`) is cut into subgroups of at most `per = ⌊lanes / 3⌋`
//! triangles (21 in wave64, 10 in wave32) and the `3·per` vertices they
//! use: subgroup `g` starts at sequence position `start = 3·per·g`. It is
//! the last one when `n − start ≤ lanes`; the last one also takes the
//! trailing `n mod 3` vertices when they fit in the wave (else they form
//! one more subgroup, of vertices only). So a subgroup has
//! `V = n − start` vertices when that is at most `lanes`, else `3·per`,
//! and `P = ⌊V / 3⌋` triangles; there are
//! `1 + ⌈max(0, n − lanes) / (3·per)⌉` subgroups (none when `n` = 0).
//! The interpreter's NGG driver forms the same subgroups with
//! `group_prims = per` and `group_verts = lanes`. A composition with at
//! most one wave of vertices and of primitives is one the hardware may
//! legally choose, and it makes every SGPR and every scalar branch
//! workgroup-uniform.
//!
//! # Entry state, computed by the translation
//!
//! Host `WorkgroupId.x` is `g`, `WorkgroupId.y` the instance, the lane is
//! `LocalInvocationIndex`. `merged_wave_info` = `V | P << 8 | 1 << 28`
//! (wave 0 of one), `gs_tg_info` = `V << 12 | P << 22`, the vertex-id VGPR
//! `first + start + lane`, the instance-id VGPR the instance; primitive lane
//! `l < P` has the indices `3l, 3l+1, 3l+2` (`v0 = i0 | i1 << 16`, `v1 = i2`
//! for culling shaders, `v0 = i0 | i1 << 10 | i2 << 20` in passthrough
//! mode). EXEC starts as the lanes below `V`.
//!
//! # Listed subgroups (indexed draws)
//!
//! An indexed draw's subgroups share vertices (an id repeated within a
//! subgroup is one vertex, as the hardware's vertex reuse and the
//! interpreter's driver form them: `interp::ngg_workgroups`), so they are
//! not counted but listed: with push word `NggIndexed` = 1 the host binds
//! [`NggEntry::list_words`] (per subgroup `V | P << 8`, the vertex id of
//! each lane, the packed vertex indices of each primitive lane), and `V`,
//! `P`, the vertex ids and the primitive indices come from subgroup
//! `WorkgroupId.x`'s record instead. Split draws run chunk by chunk (each
//! chunk is a draw of its own to the hardware).
//!
//! # Outputs
//!
//! One writable buffer (binding [`NggOutput::binding`]): subgroup
//! `w = instance · groups + g` owns `group_words` words from
//! `w · group_words`. Word 0 is M0 of the subgroup's `GS_ALLOC_REQ`
//! (vertex count in bits 0..11, primitive count in 12..22), then per lane
//! `lane_words` words: four per exported position/parameter target (in
//! [`NggOutput::targets`] order) and one for the primitive export. A word no
//! export wrote keeps what the host put there.

use serde::{Deserialize, Serialize};

/// What the primitive VGPRs of an NGG wave hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrimVgprs {
    /// `v0` = the packed primitive export (passthrough mode).
    Passthrough,
    /// `v0` = vertex indices 0 and 1 as 16-bit halves, `v1` = index 2
    /// (culling shaders).
    Indices,
}

/// How a host runs an NGG shader as a compute pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NggEntry {
    /// What the primitive VGPRs hold.
    pub prims: PrimVgprs,
}

impl NggEntry {
    /// Triangles per subgroup for a wave of `lanes`.
    pub fn prims_per_group(lanes: u32) -> u32 {
        lanes / 3
    }

    /// Subgroups of a draw of `n` vertices in waves of `lanes`.
    pub fn groups(n: u32, lanes: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let step = 3 * Self::prims_per_group(lanes);
        1 + n.saturating_sub(lanes).div_ceil(step.max(1))
    }

    /// Words per subgroup in the listed form ([`NggEntry::list_words`]).
    pub fn list_stride(lanes: u32) -> u32 {
        1 + 2 * lanes
    }

    /// The `NggSubgroups` binding of an indexed draw: the host's subgroups,
    /// each `(vertex ids in lane order, primitives as subgroup-relative
    /// vertex indices)` with at most `lanes` of each, as
    /// [`NggEntry::list_stride`] words: `V | P << 8`, then per lane its
    /// vertex id (0 past `V`), then per lane its primitive `i0 | i1 << 10 |
    /// i2 << 20` (0 past `P`). `None` when a subgroup does not fit a wave.
    pub fn list_words(groups: &[(Vec<u32>, Vec<[u32; 3]>)], lanes: u32) -> Option<Vec<u32>> {
        let lanes_us = lanes as usize;
        let mut out = Vec::with_capacity(groups.len() * Self::list_stride(lanes) as usize);
        for (verts, prims) in groups {
            let fits = |i: u32| (i as usize) < verts.len();
            if verts.len() > lanes_us
                || prims.len() > lanes_us
                || !prims.iter().flatten().all(|&i| fits(i))
            {
                return None;
            }
            out.push(verts.len() as u32 | (prims.len() as u32) << 8);
            out.extend((0..lanes_us).map(|l| verts.get(l).copied().unwrap_or(0)));
            out.extend(
                (0..lanes_us).map(|l| prims.get(l).map_or(0, |p| p[0] | p[1] << 10 | p[2] << 20)),
            );
        }
        Some(out)
    }

    /// `(V, P)` of subgroup `g` of a draw of `n` vertices (the host-side
    /// twin of what the translation computes).
    pub fn group_counts(n: u32, lanes: u32, g: u32) -> (u32, u32) {
        let step = 3 * Self::prims_per_group(lanes);
        let start = step.saturating_mul(g);
        let rest = n.saturating_sub(start);
        let v = if rest <= lanes { rest } else { step };
        (v, v / 3)
    }
}

/// The manifest's NGG section: the output buffer's layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NggOutput {
    /// The guest entry it was translated for.
    pub entry: NggEntry,
    /// Lanes per subgroup (the wave size; the module's `LocalSize.x`).
    pub lanes: u32,
    /// The writable output binding (set 0).
    pub binding: u32,
    /// Export targets with four words per lane each, in order: the
    /// interpreter's target numbers (12.. = pos, 32.. = param).
    pub targets: Vec<u8>,
    /// Words per lane (`4 · targets.len() + 1`; the last is the primitive
    /// export).
    pub lane_words: u32,
    /// Words per subgroup (`1 + lanes · lane_words`).
    pub group_words: u32,
    /// How the host runs it.
    pub how: String,
}

impl NggOutput {
    /// The word of subgroup `w`, lane `lane`, target `target` (an
    /// interpreter target number; 20 = prim), channel `chan`.
    pub fn word(&self, w: u32, lane: u32, target: u8, chan: u32) -> Option<u64> {
        let slot = if target == 20 {
            4 * self.targets.len() as u32
        } else {
            4 * self.targets.iter().position(|&t| t == target)? as u32 + chan.min(3)
        };
        Some(
            w as u64 * self.group_words as u64
                + 1
                + lane as u64 * self.lane_words as u64
                + slot as u64,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subgroups_are_whole_waves_and_take_the_tail_when_it_fits() {
        // wave64: 21 triangles per subgroup.
        assert_eq!(NggEntry::groups(0, 64), 0);
        assert_eq!(NggEntry::groups(36, 64), 1);
        assert_eq!(NggEntry::group_counts(36, 64, 0), (36, 12));
        assert_eq!(NggEntry::groups(64, 64), 1);
        assert_eq!(NggEntry::group_counts(64, 64, 0), (64, 21));
        // 63 + 2 trailing vertices do not fit: a vertex-only subgroup.
        assert_eq!(NggEntry::groups(65, 64), 2);
        assert_eq!(NggEntry::group_counts(65, 64, 0), (63, 21));
        assert_eq!(NggEntry::group_counts(65, 64, 1), (2, 0));
        // wave32: 10 triangles, the tail always fits.
        assert_eq!(NggEntry::groups(32, 32), 1);
        assert_eq!(NggEntry::group_counts(32, 32, 0), (32, 10));
        assert_eq!(NggEntry::groups(36, 32), 2);
        assert_eq!(NggEntry::group_counts(36, 32, 1), (6, 2));
    }
}
