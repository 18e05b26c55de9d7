//! The draw driver: a whole draw, split into waves (and NGG workgroups)
//! the way the hardware feeds a vertex shader, with the entry registers
//! filled in.
//!
//! # The model
//!
//! A draw is a sequence of vertex ids per instance, run once for each
//! instance `0..instance_count`. An auto draw's sequence is
//! `first_vertex ..= first_vertex + vertex_count − 1`; a split draw's is
//! its chunks, each chunk on its own (no workgroup or wave spans two
//! chunks). The ids are the values the hardware puts in the vertex-id
//! VGPR: they do not include the base-vertex user-data word, which the
//! shader adds itself.
//!
//! **Legacy VS** (`vertex_vs`): the sequence is cut into waves of 32/64
//! vertices. Lane `l` of a wave holds vertex `l` of its slice:
//! the ABI's vertex-id VGPR (`v0`) gets the id and its instance-id VGPR
//! (`v3`) the instance; exec is the lanes with a vertex. No LDS.
//!
//! **NGG** (`vertex_ngg`, triangle lists): consecutive triples of the
//! sequence are primitives. A workgroup takes up to
//! [`DrawConfig::group_prims`] primitives (at most 42 = ⌊128/3⌋, the
//! vertex limit RADV's culling shaders size their LDS for: 28 bytes per
//! vertex up to the per-wave counts at byte 3584) and the distinct
//! vertices they use, in first-use order; trailing vertices that complete
//! no primitive (the last `count % 3` of a sequence) are shaded too, as
//! vertex-only threads of the last workgroup (the hardware may skip them;
//! shading them can only add fetches, so the oracle stays conservative).
//! A workgroup of `V` vertices and `P` primitives has
//! `⌈max(V, P) / wave size⌉` waves; wave `w` owns vertex threads and
//! primitive threads `w·size ..` of the workgroup. Every wave of a
//! workgroup shares one LDS (fresh, undefined, per workgroup) and they
//! switch at `s_barrier`.
//!
//! Entry SGPRs (RADV gfx10.3, `corpus/radv/README.md`):
//! - `merged_wave_info` (`s3`): bits 0–6 the wave's vertex count, 8–14 its
//!   primitive count, 24–27 the wave's index in the workgroup, 28–31 the
//!   number of waves in the workgroup (ACO reads bits 24–27 for the wave
//!   id and 28–31 for the wave count, which the culling shaders use to
//!   sum per-wave survivor counts);
//! - `gs_tg_info` (`s2`): bits 12–20 the workgroup's vertex count, 22–30
//!   its primitive count (the shaders forward both to
//!   `s_sendmsg MSG_GS_ALLOC_REQ` through M0);
//! - user-data word `k` in `s(user_data_sgpr + k)`.
//!
//! Entry VGPRs, in the lanes the hardware fills (all other lanes and VGPRs
//! are undefined):
//! - vertex threads: the vertex id (`v5`) and instance id (`v8`);
//! - primitive threads, [`PrimLayout::Passthrough`] (RADV's NGG
//!   passthrough mode, no culling): `v0` = the primitive export dword,
//!   `i0 | i1 << 10 | i2 << 20` (workgroup-relative vertex indices, edge
//!   flags and the null bit 0);
//! - primitive threads, [`PrimLayout::Indices`] (culling shaders):
//!   `v0` = `i0 | i1 << 16`, `v1` = `i2`.
//!
//! Exec starts as the lanes with a vertex or primitive thread (the
//! shaders set it themselves from `merged_wave_info` before any vector
//! work).

use crate::exec::{run_wave, Env, Limits, Observations};
use crate::memory::{GuestMemory, Lds, ADDR_MASK};
use crate::program::Program;
use crate::record::InterpError;
use crate::wave::{FpMode, Wave};
use crate::workgroup::run_workgroup;
use isa::{Abi, Stage};
use serde::Serialize;

/// What the primitive VGPRs of an NGG wave hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PrimLayout {
    /// `v0` = the packed primitive export (NGG passthrough mode).
    Passthrough,
    /// `v0` = vertex indices 0 and 1 as 16-bit halves, `v1` = index 2.
    Indices,
}

impl PrimLayout {
    /// Guess the layout from the code: a shader that reads `v1` before
    /// writing it (in code order) uses [`PrimLayout::Indices`] (the culling
    /// shaders read index 2 there); otherwise [`PrimLayout::Passthrough`].
    pub fn detect(program: &Program) -> PrimLayout {
        let mut pc = 0;
        while pc < program.len() {
            let Some(inst) = program.instruction(pc) else {
                pc += 4;
                continue;
            };
            let touches = |s: &isa::Slot| match s.op {
                isa::Operand::Reg { code, count } => {
                    code <= 257 && code as u32 + count as u32 > 257
                }
                _ => false,
            };
            if inst.uses().any(touches) {
                return PrimLayout::Indices;
            }
            if inst.defs().any(touches) {
                return PrimLayout::Passthrough;
            }
            pc += inst.len as u32;
        }
        PrimLayout::Passthrough
    }
}

/// How to run a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawConfig {
    /// NGG or legacy VS.
    pub stage: Stage,
    /// Entry registers.
    pub abi: Abi,
    /// 64 lanes per wave (else 32).
    pub wave64: bool,
    /// NGG primitive VGPRs.
    pub prim_layout: PrimLayout,
    /// NGG: the most primitives in one workgroup (1..=42).
    pub group_prims: u32,
    /// NGG: the most vertices a workgroup may hold when the trailing
    /// vertices of a draw (those that complete no primitive) join its last
    /// workgroup; past it they form a workgroup of their own. The default,
    /// [`MAX_GROUP_VERTS`], always lets them join; the wave size with
    /// `group_prims` = ⌊wave size / 3⌋ makes every workgroup one wave (the
    /// translator's NGG compute pass, `translator::wave::ngg`).
    pub group_verts: u32,
    /// Float mode.
    pub fp: FpMode,
    /// Step bound per wave.
    pub limits: Limits,
    /// The guest address of the code's first byte (what `s_getpc_b64`
    /// counts from); the caller maps the code and its constant data there.
    pub code_addr: u64,
    /// LDS cells to initialise before each workgroup runs (the trace's
    /// LDS contracts, [`analysis::trace::LdsContract`]); none by default,
    /// when fresh LDS is undefined.
    pub lds_init: [Option<LdsInit>; MAX_LDS_INIT],
}

/// How many LDS contracts a [`DrawConfig`] can honour.
pub const MAX_LDS_INIT: usize = 4;

/// One LDS contract to honour: before each workgroup runs, every cell of
/// `class` holds the draw's first `id` (its smallest vertex id, or instance
/// 0), as a defined dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LdsInit {
    /// The cells.
    pub class: analysis::trace::LdsClass,
    /// Which id the cells start with.
    pub id: analysis::source::Id,
}

impl DrawConfig {
    /// A configuration for a stage with its RADV ABI preset, wave64,
    /// full workgroups, the layout detected from `program`.
    pub fn new(program: &Program, stage: Stage, abi: Abi, wave64: bool) -> DrawConfig {
        DrawConfig {
            stage,
            abi,
            wave64,
            prim_layout: PrimLayout::detect(program),
            group_prims: MAX_GROUP_PRIMS,
            group_verts: MAX_GROUP_VERTS,
            fp: FpMode::RADV,
            limits: Limits::default(),
            code_addr: 0,
            lds_init: [None; MAX_LDS_INIT],
        }
    }
}

/// The most primitives the driver puts in one NGG workgroup.
pub const MAX_GROUP_PRIMS: u32 = 42;

/// The default [`DrawConfig::group_verts`]: every workgroup of whole
/// primitives plus two trailing vertices.
pub const MAX_GROUP_VERTS: u32 = 3 * MAX_GROUP_PRIMS + 2;

/// A draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Draw {
    /// A non-indexed draw.
    Auto {
        /// First vertex id.
        first_vertex: u32,
        /// Vertex count (ignored when `chunks` is not empty).
        vertex_count: u32,
        /// Instances.
        instance_count: u32,
        /// Split chunks `(first, count)`, replacing first/count.
        chunks: Vec<(u32, u32)>,
    },
    /// Explicit vertex ids (the values of an index buffer), per instance.
    Ids {
        /// The ids in order.
        ids: Vec<u32>,
        /// Instances.
        instance_count: u32,
    },
}

impl Draw {
    /// The vertex-id sequences (one per chunk) and the instance count.
    fn sequences(&self) -> (Vec<Seq<'_>>, u32) {
        match self {
            Draw::Auto {
                first_vertex,
                vertex_count,
                instance_count,
                chunks,
            } => {
                let seqs = if chunks.is_empty() {
                    vec![Seq::Range(*first_vertex, *vertex_count)]
                } else {
                    chunks.iter().map(|&(f, c)| Seq::Range(f, c)).collect()
                };
                (seqs, *instance_count)
            }
            Draw::Ids {
                ids,
                instance_count,
            } => (vec![Seq::List(ids)], *instance_count),
        }
    }
}

/// The most indices [`index_buffer_ids`] reads for one draw.
pub const MAX_DRAW_INDICES: u32 = 1 << 22;

/// The vertex ids an indexed draw gives its lanes, read from guest memory as
/// the hardware fetches them: index `i` at `addr + (first_index + i)·size`
/// (`size` = 1, 2 or 4 bytes, little-endian, 48-bit addresses), indices
/// equal to `restart` skipped (they name no vertex), `base_vertex` added mod
/// 2³². The interpreter's own reading: it shares no code with drawbind's
/// index scans, which it checks.
pub fn index_buffer_ids(
    memory: &dyn GuestMemory,
    addr: u64,
    index_bytes: u32,
    first_index: u32,
    count: u32,
    restart: Option<u32>,
    base_vertex: i32,
) -> Result<Vec<u32>, String> {
    if !matches!(index_bytes, 1 | 2 | 4) {
        return Err(format!("index size {index_bytes} is not 1, 2 or 4 bytes"));
    }
    if count > MAX_DRAW_INDICES {
        return Err(format!(
            "{count} indices: the interpreter runs at most {MAX_DRAW_INDICES} per draw"
        ));
    }
    let size = index_bytes as u64;
    let start = addr as u128 + first_index as u128 * size as u128;
    if start + count as u128 * size as u128 > ADDR_MASK as u128 + 1 {
        return Err(format!(
            "index buffer at {addr:#x}: indices {first_index}..+{count} pass the 48-bit address space"
        ));
    }
    let mut ids = Vec::with_capacity(count as usize);
    let mut b = [0u8; 4];
    for i in 0..count as u64 {
        let at = start as u64 + i * size;
        if !crate::memory::read_bytes(memory, at, &mut b[..size as usize]) {
            return Err(format!("index {i} at {at:#x} cannot be read"));
        }
        let v = u32::from_le_bytes(b) & (u32::MAX >> (32 - 8 * index_bytes));
        if Some(v) == restart {
            continue;
        }
        ids.push(v.wrapping_add(base_vertex as u32));
    }
    Ok(ids)
}

#[derive(Clone, Copy)]
enum Seq<'a> {
    Range(u32, u32),
    List(&'a [u32]),
}

impl Seq<'_> {
    fn len(&self) -> u32 {
        match self {
            Seq::Range(_, c) => *c,
            Seq::List(l) => l.len() as u32,
        }
    }
    fn get(&self, i: u32) -> u32 {
        match self {
            Seq::Range(f, _) => f.wrapping_add(i),
            Seq::List(l) => l[i as usize],
        }
    }
}

/// What one wave of the draw was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WaveInfo {
    /// The instance.
    pub instance: u32,
    /// The chunk (0 for unsplit draws).
    pub chunk: u32,
    /// The workgroup (NGG; for legacy VS the wave's number in the chunk).
    pub group: u32,
    /// The wave's index in its workgroup.
    pub wave_in_group: u32,
    /// Vertex id of each vertex thread (lane order).
    pub vertex_ids: Vec<u32>,
    /// Workgroup-relative vertex indices of each primitive thread.
    pub prims: Vec<[u32; 3]>,
}

/// A finished draw: what each wave was given and what the waves did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DrawRun {
    /// Per wave id (the `wave` of every observation).
    pub waves: Vec<WaveInfo>,
    /// Accesses, exports, messages, findings.
    pub obs: Observations,
}

/// A draw that did not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("instance {instance}, chunk {chunk}, workgroup {group}: {error}")]
pub struct DrawError {
    /// The instance.
    pub instance: u32,
    /// The chunk.
    pub chunk: u32,
    /// The workgroup.
    pub group: u32,
    /// What went wrong.
    pub error: InterpError,
}

/// Run a draw.
pub fn run_draw(
    program: &Program,
    memory: &dyn GuestMemory,
    user_data: &[u32],
    draw: &Draw,
    cfg: &DrawConfig,
) -> Result<DrawRun, DrawError> {
    let run_steps = std::cell::Cell::new(0);
    let env = Env {
        program,
        memory,
        limits: cfg.limits,
        code_addr: cfg.code_addr,
        run_steps: &run_steps,
    };
    let mut run = DrawRun::default();
    let mut lds = Lds::new();
    let (seqs, instances) = draw.sequences();
    // The draw's first vertex id: the smallest it runs.
    let first_vertex = seqs
        .iter()
        .filter_map(|s| match s {
            Seq::Range(_, 0) => None,
            Seq::Range(f, c) => Some(if f.checked_add(c - 1).is_some() {
                *f
            } else {
                0
            }),
            Seq::List(l) => l.iter().copied().min(),
        })
        .min()
        .unwrap_or(0);
    let init = |lds: &mut Lds| {
        for c in cfg.lds_init.iter().flatten() {
            let v = match c.id {
                analysis::source::Id::VertexId => first_vertex,
                analysis::source::Id::InstanceId => 0,
            };
            for a in c.class.cells(crate::memory::LDS_SIZE as u32) {
                lds.write(a, 4, v as u128, 0xf);
            }
        }
    };
    let lanes = if cfg.wave64 { 64u32 } else { 32 };
    for instance in 0..instances {
        for (chunk, seq) in seqs.iter().enumerate() {
            let chunk = chunk as u32;
            let ctx = |group, error| DrawError {
                instance,
                chunk,
                group,
                error,
            };
            match cfg.stage {
                Stage::Ngg => {
                    for (g, (verts, prims)) in ngg_groups(seq, cfg.group_prims, cfg.group_verts)
                        .into_iter()
                        .enumerate()
                    {
                        let g = g as u32;
                        let threads = (verts.len() as u32).max(prims.len() as u32);
                        let nwaves = threads.div_ceil(lanes).max(1);
                        let first_id = run.waves.len() as u32;
                        let mut waves = Vec::with_capacity(nwaves as usize);
                        for wi in 0..nwaves {
                            let lo = (wi * lanes) as usize;
                            let vs: Vec<u32> = verts
                                .iter()
                                .skip(lo)
                                .take(lanes as usize)
                                .copied()
                                .collect();
                            let ps: Vec<[u32; 3]> = prims
                                .iter()
                                .skip(lo)
                                .take(lanes as usize)
                                .copied()
                                .collect();
                            let mut w = Wave::new(cfg.wave64);
                            w.set_fp_mode(cfg.fp);
                            set_user_data(&mut w, &cfg.abi, user_data);
                            let mwi = vs.len() as u32
                                | (ps.len() as u32) << 8
                                | (wi & 0xf) << 24
                                | (nwaves & 0xf) << 28;
                            if let Some(s) = cfg.abi.merged_wave_info_sgpr {
                                w.set_sgpr(s as u16, mwi);
                            }
                            if let Some(s) = cfg.abi.gs_tg_info_sgpr {
                                w.set_sgpr(
                                    s as u16,
                                    ((verts.len() as u32) & 0x1ff) << 12
                                        | ((prims.len() as u32) & 0x1ff) << 22,
                                );
                            }
                            for (l, &id) in vs.iter().enumerate() {
                                set_ids(&mut w, &cfg.abi, l as u32, id, instance);
                            }
                            for (l, p) in ps.iter().enumerate() {
                                match cfg.prim_layout {
                                    PrimLayout::Passthrough => {
                                        w.set_vgpr(0, l as u32, p[0] | p[1] << 10 | p[2] << 20);
                                    }
                                    PrimLayout::Indices => {
                                        w.set_vgpr(0, l as u32, p[0] | p[1] << 16);
                                        w.set_vgpr(1, l as u32, p[2]);
                                    }
                                }
                            }
                            let live = vs.len().max(ps.len()) as u32;
                            w.set_exec(lane_mask(live));
                            run.waves.push(WaveInfo {
                                instance,
                                chunk,
                                group: g,
                                wave_in_group: wi,
                                vertex_ids: vs,
                                prims: ps,
                            });
                            waves.push(w);
                        }
                        lds.clear();
                        init(&mut lds);
                        run_workgroup(&env, &mut waves, first_id, &mut lds, &mut run.obs)
                            .map_err(|e| ctx(g, e))?;
                    }
                }
                _ => {
                    let n = seq.len();
                    let mut start = 0u32;
                    let mut wi = 0u32;
                    while start < n {
                        let cnt = (n - start).min(lanes);
                        let mut w = Wave::new(cfg.wave64);
                        w.set_fp_mode(cfg.fp);
                        set_user_data(&mut w, &cfg.abi, user_data);
                        let ids: Vec<u32> = (start..start + cnt).map(|i| seq.get(i)).collect();
                        for (l, &id) in ids.iter().enumerate() {
                            set_ids(&mut w, &cfg.abi, l as u32, id, instance);
                        }
                        w.set_exec(lane_mask(cnt));
                        let id = run.waves.len() as u32;
                        run.waves.push(WaveInfo {
                            instance,
                            chunk,
                            group: wi,
                            wave_in_group: 0,
                            vertex_ids: ids,
                            prims: Vec::new(),
                        });
                        lds.clear();
                        init(&mut lds);
                        let st = run_wave(&env, &mut w, id, &mut lds, &mut run.obs)
                            .map_err(|e| ctx(wi, e))?;
                        if st != crate::wave::Status::Ended {
                            // A lone wave at a barrier just continues.
                            let mut ws = [w];
                            run_workgroup(&env, &mut ws, id, &mut lds, &mut run.obs)
                                .map_err(|e| ctx(wi, e))?;
                        }
                        start += cnt;
                        wi += 1;
                    }
                }
            }
        }
    }
    Ok(run)
}

fn lane_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn set_user_data(w: &mut Wave, abi: &Abi, ud: &[u32]) {
    for (k, &v) in ud.iter().enumerate().take(abi.user_data_count as usize) {
        let s = abi.user_data_sgpr as usize + k;
        if s <= 105 {
            w.set_sgpr(s as u16, v);
        }
    }
}

fn set_ids(w: &mut Wave, abi: &Abi, lane: u32, id: u32, instance: u32) {
    if let Some(v) = abi.vertex_id_vgpr {
        w.set_vgpr(v, lane, id);
    }
    if let Some(v) = abi.instance_id_vgpr {
        w.set_vgpr(v, lane, instance);
    }
}

/// The NGG workgroups the driver forms for a triangle list of vertex ids
/// `ids` (an indexed draw's): per workgroup, the vertex ids in thread
/// order and the primitives as workgroup-relative indices (the module
/// documentation gives the rule). A host that runs NGG workgroups itself
/// (the NGG compute pass) forms the same ones, so both sides run one
/// composition the hardware may choose.
pub fn ngg_workgroups(
    ids: &[u32],
    group_prims: u32,
    group_verts: u32,
) -> Vec<(Vec<u32>, Vec<[u32; 3]>)> {
    ngg_groups(&Seq::List(ids), group_prims, group_verts)
}

/// NGG workgroups of a sequence: (vertex ids in thread order, primitives
/// as workgroup-relative indices).
fn ngg_groups(seq: &Seq<'_>, group_prims: u32, group_verts: u32) -> Vec<(Vec<u32>, Vec<[u32; 3]>)> {
    let per = group_prims.clamp(1, MAX_GROUP_PRIMS);
    let n = seq.len();
    let nprims = n / 3;
    let mut groups = Vec::new();
    let mut p = 0u32;
    while p < nprims {
        let take = (nprims - p).min(per);
        let mut verts: Vec<u32> = Vec::with_capacity(3 * take as usize);
        let mut prims = Vec::with_capacity(take as usize);
        for q in p..p + take {
            let mut tri = [0u32; 3];
            for (k, t) in tri.iter_mut().enumerate() {
                let id = seq.get(3 * q + k as u32);
                // Vertex reuse: an id already in the workgroup is shared.
                let at = match verts.iter().position(|&v| v == id) {
                    Some(i) => i,
                    None => {
                        verts.push(id);
                        verts.len() - 1
                    }
                };
                *t = at as u32;
            }
            prims.push(tri);
        }
        groups.push((verts, prims));
        p += take;
    }
    // Vertices after the last whole primitive.
    let tail: Vec<u32> = (3 * nprims..n).map(|i| seq.get(i)).collect();
    if !tail.is_empty() {
        match groups.last_mut() {
            Some((verts, _))
                if verts.len() + tail.len() <= group_verts.min(MAX_GROUP_VERTS) as usize =>
            {
                for id in tail {
                    if !verts.contains(&id) {
                        verts.push(id);
                    }
                }
            }
            _ => groups.push((tail, Vec::new())),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ngg_groups_take_whole_triangles_and_keep_trailing_vertices() {
        let g = ngg_groups(&Seq::Range(10, 8), 2, MAX_GROUP_VERTS);
        assert_eq!(g.len(), 1, "two triangles fit one group, the tail joins it");
        assert_eq!(g[0].0, vec![10, 11, 12, 13, 14, 15, 16, 17]);
        assert_eq!(g[0].1, vec![[0, 1, 2], [3, 4, 5]]);
        let g = ngg_groups(&Seq::Range(0, 9), 1, MAX_GROUP_VERTS);
        assert_eq!(g.len(), 3);
        assert_eq!(g[2].0, vec![6, 7, 8]);
        assert_eq!(g[2].1, vec![[0, 1, 2]]);
        let g = ngg_groups(&Seq::Range(0, 2), 42, MAX_GROUP_VERTS);
        assert_eq!(g, vec![(vec![0, 1], vec![])]);
    }

    #[test]
    fn ngg_groups_keep_one_wave_when_the_tail_does_not_fit() {
        // 21 triangles fill 63 lanes of a wave64: 2 trailing vertices make
        // a vertex-only workgroup, 1 joins.
        let g = ngg_groups(&Seq::Range(0, 65), 21, 64);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].0.len(), 63);
        assert_eq!(g[1], ((63..65).collect(), vec![]));
        let g = ngg_groups(&Seq::Range(0, 64), 21, 64);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].0.len(), 64);
    }

    #[test]
    fn ngg_groups_share_repeated_ids() {
        let ids = [5, 6, 7, 7, 6, 8];
        let g = ngg_groups(&Seq::List(&ids), 42, MAX_GROUP_VERTS);
        assert_eq!(g[0].0, vec![5, 6, 7, 8]);
        assert_eq!(g[0].1, vec![[0, 1, 2], [2, 1, 3]]);
    }
}
