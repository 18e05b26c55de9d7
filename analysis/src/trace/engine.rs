//! The fixpoint: per-instruction transfer, joins, widening, restarts.

use super::domain::*;
use super::rules::{Rule, Rules};
use crate::cfg::{Cfg, Program};
use crate::source::{Id, Ptr, PtrId, TableIndex, Word};
use crate::trace::{AccessKind, DescId};
use isa::family::buf::{self, BufKind};
use isa::family::smem::SmemAddress;
use isa::operand::{inline_b32, inline_b64};
use isa::{Abi, Access, Family, Implicit, Instruction, Modifiers, Operand, Stage, ValType};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use std::collections::HashMap;
use std::hash::Hash;

/// What the tracer needs to know about the wave besides its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    /// The hardware stage. [`Stage::Ngg`] starts with an exec mask that may
    /// include lanes without a vertex; [`Stage::LegacyVs`] starts with
    /// exactly the vertex lanes; pixel and compute stages have no vertex
    /// ids.
    pub stage: Stage,
    /// Entry registers.
    pub abi: Abi,
    /// 32 lanes per wave (exec is `exec_lo`); otherwise 64.
    pub wave32: bool,
}

/// Deliberately broken tracing rules, **for tests only**: the soundness
/// oracle's negative controls (`interp`) switch one on to prove its check
/// turns red when that rule is broken. All off by default; tracing with no
/// fault set is exactly tracing without them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TraceFaults {
    /// `v_add_nc_u32` of an id and a word gives the bare id (the `+ word`
    /// is dropped).
    pub drop_plus_word: bool,
    /// LDS is one register: a DS read yields the value of the most recent
    /// DS write's data, whatever the addresses.
    pub ignore_lds: bool,
    /// Exec writes to an exactly known mask (restores such as
    /// `s_mov_b64 exec, s` / `s_or_b64 exec, exec, s`, and `-1`, `0`, the
    /// vertex lanes) are ignored: a value written under a narrow mask is
    /// read as if every lane held it.
    pub ignore_exec_restore: bool,
    /// An LDS read class holds whatever the first write that covers it
    /// exactly stores: later writes of other values, unplaced writes and
    /// partial overlaps are ignored.
    pub lds_first_write_wins: bool,
    /// A scalar load at a per-draw offset (`soffset` = a traced word times
    /// a constant) reads the table at the immediate offset alone: the
    /// table index is dropped.
    pub ignore_table_index: bool,
    /// An access whose descriptor is not traced neither makes the trace
    /// incomplete nor names its base words: the other descriptors keep
    /// their bounds whatever it may alias.
    pub untraced_unbinds_nothing: bool,
}

/// Options of [`crate::trace::trace_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TraceOptions {
    /// Test-only broken rules.
    pub faults: TraceFaults,
}

impl TraceConfig {
    /// A configuration.
    pub fn new(stage: Stage, abi: Abi, wave32: bool) -> TraceConfig {
        TraceConfig { stage, abi, wave32 }
    }
    /// RADV's NGG vertex shader, wave64.
    pub fn ngg() -> TraceConfig {
        TraceConfig::new(Stage::Ngg, Abi::ngg(), false)
    }
    /// RADV's legacy vertex shader, wave64.
    pub fn legacy_vs() -> TraceConfig {
        TraceConfig::new(Stage::LegacyVs, Abi::legacy_vs(), false)
    }
}

/// How an access read its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IdxRead {
    /// No `idxen`.
    NotIndexed,
    /// Exec is empty here: no lane executes the access.
    NoLanes,
    /// The value the active lanes read.
    Val(VVal),
}

/// One buffer access as the final fixpoint saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rec {
    pub kind: AccessKind,
    /// Internal descriptor id.
    pub desc: Option<u16>,
    pub idxen: bool,
    pub offen: bool,
    pub index: IdxRead,
    pub imm_offset: u32,
    pub soffset: Word,
    pub bytes: u32,
    /// With `desc: None`: the descriptor's base words (0 and 1) as far as
    /// they are traced.
    pub base_words: [Word; 2],
}

/// A value table with stable small ids. Shaders have a handful of
/// pointers and descriptors, so small tables are searched linearly; the
/// hash map takes over past [`Interner::LINEAR`] entries.
#[derive(Debug)]
pub(crate) struct Interner<T> {
    pub items: Vec<T>,
    map: HashMap<T, u16>,
}

impl<T: Copy + Eq + Hash> Interner<T> {
    const LINEAR: usize = 32;

    fn new() -> Interner<T> {
        Interner {
            items: Vec::new(),
            map: HashMap::new(),
        }
    }
    fn intern(&mut self, t: T) -> Option<u16> {
        if self.items.len() <= Self::LINEAR {
            if let Some(i) = self.items.iter().position(|x| *x == t) {
                return Some(i as u16);
            }
        } else if let Some(&i) = self.map.get(&t) {
            return Some(i);
        }
        let i = u16::try_from(self.items.len()).ok()?;
        self.items.push(t);
        if self.items.len() > Self::LINEAR {
            if self.map.is_empty() {
                for (k, x) in self.items.iter().enumerate() {
                    self.map.insert(*x, k as u16);
                }
            } else {
                self.map.insert(t, i);
            }
        }
        Some(i)
    }
}

/// The decision an instruction makes about exec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExecOp {
    /// A new mask inside the given state.
    Narrow(StateId),
    /// Exactly the mask of a known state.
    Set(StateId),
    /// A new mask nothing is known about.
    Unknown,
    /// The write does not change the lanes (wave32 `exec_hi`).
    Keep,
}

/// A line the output looks at: a buffer access, a memory access or a
/// write to a register chosen by m0. Lines that are none of these add
/// nothing to a `ShaderTrace`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Marked {
    /// Index in `Program::lines`.
    pub line: u32,
    /// The tracer's rule for it.
    pub rule: Rule,
    /// `isa`'s implicit accesses.
    pub imp: Implicit,
    /// The access as the final fixpoint saw it (`None`: never reached, or
    /// not an access).
    pub rec: Option<Rec>,
}

/// The result of tracing, before it is turned into a `ShaderTrace`.
pub(crate) struct Outcome {
    /// The marked lines, in code order.
    pub marked: Vec<Marked>,
    pub ptrs: Vec<Ptr>,
    pub descs: Vec<[Word; 4]>,
    /// The trace cannot be trusted as a whole (non-convergence).
    pub incomplete: Option<String>,
    /// The address sets of LDS dword reads ([`VVal::Lds`] names them by
    /// index), with the pc of the first read of each.
    pub lds_classes: Vec<(Num, u32)>,
    /// Every LDS write the final fixpoint reached: its pc and what it
    /// writes.
    pub lds_writes: Vec<(u32, LdsWrite)>,
    /// The test-only faults (the LDS resolution reads one).
    pub faults: TraceFaults,
}

/// One piece of an LDS write: `bytes` bytes at every address of `addr`,
/// holding `val` (4-byte pieces only; narrower ones hold `Unknown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LdsPiece {
    pub addr: Num,
    pub bytes: u8,
    pub val: VVal,
}

/// What an LDS-writing line writes, as the final fixpoint saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LdsWrite {
    /// No lane is active: nothing is written.
    NoLanes,
    /// A write the tracer cannot place (unknown address, atomics, GDS,
    /// a buffer load into LDS): it may write any LDS byte.
    Unplaced,
    /// Up to four pieces (`n` of them).
    Pieces { n: u8, p: [LdsPiece; 4] },
}

const NOSLOT: u16 = u16::MAX;
/// Visits of a block after which its in-state is widened.
const WIDEN_AFTER: u32 = 8;
/// Restarts (coarser exec-state parents) before giving up.
const MAX_RESTARTS: u32 = 64;

pub(crate) struct Engine<'a> {
    prog: &'a Program,
    cfg: &'a Cfg,
    conf: TraceConfig,
    /// What each line is and writes, worked out once.
    fx: Vec<Fx>,
    defs: Vec<Def>,
    /// The VGPR ranges each line reads (see `Fx::vuses`).
    vuses: Vec<(u8, u8)>,
    smap: [u16; 128],
    /// The scalar code of each slot (the inverse of `smap`).
    slot_code: Vec<u16>,
    ns: usize,
    nv: usize,
    tree: ExecTree,
    ptrs: Interner<Ptr>,
    descs: Interner<[Word; 4]>,
    /// The lines the output looks at (see `Fx::mark`).
    marked: Vec<Marked>,
    restart: bool,
    nlines: u32,
    faults: TraceFaults,
    /// With `faults.ignore_lds`: the data of the last DS write seen.
    lds_last: Option<VVal>,
    /// Address sets of LDS dword reads, and the pc of the first read.
    lds_classes: Interner<Num>,
    lds_class_pc: Vec<u32>,
    /// Per LDS-writing line (see `Fx::lds`): its pc and what it wrote on
    /// its latest visit.
    lds_writes: Vec<(u32, Option<LdsWrite>)>,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        prog: &'a Program,
        cfg: &'a Cfg,
        conf: TraceConfig,
        faults: TraceFaults,
    ) -> Engine<'a> {
        let n = prog.lines.len();
        let mut fx = Vec::with_capacity(n);
        let mut defs = Vec::with_capacity(n);
        let mut vuses = Vec::with_capacity(n);
        let mut marked = Vec::with_capacity(n / 4 + 8);
        let mut lds_writes = Vec::new();
        // Scalar codes 0..125 the program names.
        let mut used = [false; 128];
        let mut nv = 0usize;
        let rules = Rules::get();
        for l in &prog.lines {
            let Ok(inst) = &l.inst else {
                fx.push(Fx {
                    rule: Rule::Generic,
                    imp: Implicit::empty(),
                    why: Why::new(WhyKind::Havoc, l.pc),
                    defs: Span::EMPTY,
                    vuses: Span::EMPTY,
                    flags: FxFlags::NONE,
                    mark: NOMARK,
                    lds: NOMARK,
                });
                continue;
            };
            let rl = rules.rule(inst);
            let imp = inst.implicit();
            let start = defs.len() as u32;
            let ustart = vuses.len() as u32;
            // Exec bits only, until the operands are all seen.
            let mut flags = FxFlags::NONE;
            let mut partial = false;
            for (k, sl) in inst.operands.as_slice().iter().enumerate() {
                let def = sl.is_def();
                if def {
                    partial |= sl.access.contains(Access::PARTIAL);
                }
                let Operand::Reg { code, count } = sl.op else {
                    continue;
                };
                if code >= 256 {
                    let r = (code - 256) as u8;
                    nv = nv.max((code.saturating_add(count as u16) - 256) as usize);
                    if sl.is_use() {
                        vuses.push((r, count));
                    }
                    if def {
                        defs.push(Def::V { start: r, count });
                    }
                    continue;
                }
                if code >= 128 {
                    continue;
                }
                // A scalar register range; a def's range may be wider than
                // the operand (see `scalar_def_count`).
                let n = if def {
                    scalar_def_count(sl, code, count, conf.wave32)
                } else {
                    count
                };
                let end = code + n as u16;
                mark_used(&mut used, code, end);
                if !def {
                    continue;
                }
                if code <= 126 && 126 < end {
                    flags.set(FxFlags::EXEC_LO);
                    if k == 0 {
                        flags.set(FxFlags::FIRST_EXEC);
                    }
                }
                if code <= 127 && 127 < end {
                    flags.set(FxFlags::EXEC_HI);
                    if k == 0 {
                        flags.set(FxFlags::FIRST_EXEC);
                    }
                }
                defs.push(Def::S {
                    code,
                    count: n,
                    first: k == 0 && !sl.access.contains(Access::PARTIAL),
                });
            }
            let end = defs.len() as u32;
            let lds_fault = faults.ignore_lds && inst.family == Family::Ds;
            // A line that may write LDS gets a place in the write summary.
            let lds = if matches!(rl, Rule::DsWrite { .. } | Rule::DsOther)
                || (imp.contains(Implicit::LDS) && inst.family != Family::Ds)
            {
                lds_writes.push((l.pc, None));
                lds_writes.len() as u32 - 1
            } else {
                NOMARK
            };
            let noop = rl == Rule::Generic
                && lds == NOMARK
                && start == end
                && !lds_fault
                && !imp.intersects(
                    Implicit::WRITE_SCC
                        | Implicit::WRITE_VCC
                        | Implicit::WRITE_M0
                        | Implicit::WRITE_EXEC
                        | Implicit::RELATIVE,
                );
            // `s_or` has a rule only for exec; into another register it is
            // plain too.
            let exec_rule_only = rl == Rule::SOr;
            let plain = (rl == Rule::Generic || exec_rule_only)
                && !noop
                && lds == NOMARK
                && !lds_fault
                && !flags.has(FxFlags::EXEC_LO)
                && !flags.has(FxFlags::EXEC_HI)
                && !imp.intersects(Implicit::WRITE_EXEC | Implicit::RELATIVE);
            if noop {
                flags.set(FxFlags::NOOP);
            }
            if plain {
                flags.set(FxFlags::PLAIN);
            }
            let mark = if matches!(rl, Rule::Buf | Rule::SBufLoad)
                || imp.intersects(Implicit::MEMORY | Implicit::RELATIVE)
            {
                marked.push(Marked {
                    line: fx.len() as u32,
                    rule: rl,
                    imp,
                    rec: None,
                });
                marked.len() as u32 - 1
            } else {
                NOMARK
            };
            fx.push(Fx {
                rule: rl,
                imp,
                mark,
                why: generic_why(inst, imp, partial, l.pc),
                defs: Span::new(start, end),
                vuses: Span::new(ustart, vuses.len() as u32),
                flags,
                lds,
            });
            if imp.intersects(Implicit::READ_VCC | Implicit::WRITE_VCC) {
                mark_used(&mut used, 106, 108);
            }
            if imp.intersects(Implicit::READ_M0 | Implicit::WRITE_M0) {
                mark_used(&mut used, 124, 125);
            }
        }
        let mut smap = [NOSLOT; 128];
        let mut slot_code = Vec::new();
        let mut ns = 0usize;
        for (c, slot) in smap.iter_mut().enumerate() {
            if used[c] {
                *slot = ns as u16;
                slot_code.push(c as u16);
                ns += 1;
            }
        }
        let nb = cfg.block_count();
        Engine {
            prog,
            cfg,
            conf,
            fx,
            defs,
            vuses,
            smap,
            slot_code,
            ns,
            nv,
            tree: ExecTree::new(FIRST_DYN as usize + n + 2 * nb),
            ptrs: Interner::new(),
            descs: Interner::new(),
            marked,
            restart: false,
            nlines: n as u32,
            faults,
            lds_last: None,
            lds_classes: Interner::new(),
            lds_class_pc: Vec::new(),
            lds_writes,
        }
    }

    fn entry_state(&self) -> State {
        let abi = &self.conf.abi;
        let mut s = vec![SVal::Unknown; self.ns];
        for c in 0..106u16 {
            let i = self.smap[c as usize];
            if i == NOSLOT {
                continue;
            }
            if let Some(k) = abi.user_data_word(c as u8) {
                s[i as usize] = SVal::W(Word::ud(k));
            }
            if self.conf.stage == Stage::Ngg && abi.merged_wave_info_sgpr == Some(c as u8) {
                s[i as usize] = SVal::Mwi;
            }
        }
        let mut v = vec![VRep::flat(VVal::Unknown(Why::new(WhyKind::Entry, 0))); self.nv];
        if self.conf.stage.is_vertex() {
            let lanes = VVal::Unknown(Why::new(WhyKind::Lanes, 0));
            for (reg, id) in [
                (abi.vertex_id_vgpr, Id::VertexId),
                (abi.instance_id_vgpr, Id::InstanceId),
            ] {
                if let Some(r) = reg {
                    if let Some(slot) = v.get_mut(r as usize) {
                        *slot = VRep::layered(VVal::Id(id), VL, lanes);
                    }
                }
            }
        }
        let exec = match self.conf.stage {
            Stage::LegacyVs => VL,
            _ => ENTRY,
        };
        State {
            s,
            scc: Scc::Unknown,
            exec,
            v,
        }
    }

    /// Run to a fixpoint.
    pub(crate) fn run(mut self) -> Outcome {
        let mut incomplete = None;
        let Some(entry) = self.cfg.entry else {
            return self.outcome(incomplete);
        };
        let cfg = self.cfg;
        let g = &cfg.graph;
        let nb = g.node_count();
        let (order, rpo_of) = crate::cfg::reverse_postorder(g, entry);
        let mut restarts = 0;
        loop {
            if restarts > 0 {
                // A fresh tree starts as `new_run` leaves it.
                self.tree.new_run();
            }
            self.restart = false;
            for m in self.marked.iter_mut() {
                m.rec = None;
            }
            for w in self.lds_writes.iter_mut() {
                w.1 = None;
            }
            let mut ins = InStates::new(nb, self.ns, self.nv);
            let mut visits = vec![0u32; nb];
            let mut st = self.entry_state();
            self.join_into(&mut ins, &st, false, entry, false);
            let mut work = Worklist::new(nb);
            work.insert(rpo_of[entry.index()]);
            while let Some(k) = work.pop_first() {
                let b = order[k];
                visits[b.index()] += 1;
                if !ins.load(b.index(), &mut st) {
                    continue;
                }
                let lines = g[b].lines.clone();
                for li in lines {
                    self.step(&mut st, li as usize);
                }
                ins.bump();
                if self.restart {
                    break;
                }
                for e in g.edges(b) {
                    let t = e.target();
                    let widen = visits[t.index()] >= WIDEN_AFTER;
                    if self.join_into(&mut ins, &st, e.weight().exec_zero, t, widen) {
                        work.insert(rpo_of[t.index()]);
                    }
                }
                if self.restart {
                    break;
                }
            }
            if !self.restart {
                break;
            }
            restarts += 1;
            if restarts > MAX_RESTARTS {
                incomplete = Some(format!(
                    "the exec-mask analysis did not settle after {MAX_RESTARTS} restarts"
                ));
                break;
            }
        }
        self.outcome(incomplete)
    }

    fn outcome(self, incomplete: Option<String>) -> Outcome {
        let lds_classes = self
            .lds_classes
            .items
            .iter()
            .copied()
            .zip(self.lds_class_pc.iter().copied())
            .collect();
        let lds_writes = self
            .lds_writes
            .iter()
            .filter_map(|&(pc, w)| Some((pc, w?)))
            .collect();
        Outcome {
            marked: self.marked,
            ptrs: self.ptrs.items,
            descs: self.descs.items,
            incomplete,
            lds_classes,
            lds_writes,
            faults: self.faults,
        }
    }

    // ---------------------------------------------------------------- joins

    /// The join state of block `b`.
    fn join_state(&self, b: NodeIndex) -> StateId {
        FIRST_DYN + self.nlines + b.index() as u32
    }

    /// The phi state of block `b`: the mask one scalar register pair holds
    /// at the block's entry when its paths bring copies of different exec
    /// states (see [`Engine::join_into`]).
    fn phi_state(&self, b: NodeIndex) -> StateId {
        FIRST_DYN + self.nlines + (self.cfg.block_count() + b.index()) as u32
    }

    /// The full snapshot a scalar register (pair, in wave64) holds in `s`.
    fn snap_at(&self, s: &[SVal], code: u16) -> Option<StateId> {
        let lo = s.get(self.slot_of(code)?)?;
        let SVal::Snap { state, hi: false } = *lo else {
            return None;
        };
        if self.conf.wave32 {
            return Some(state);
        }
        match s.get(self.slot_of(code + 1)?)? {
            SVal::Snap { state: h, hi: true } if *h == state => Some(state),
            _ => None,
        }
    }

    /// A register whose paths hold copies of different exec states:
    /// `(code, accumulated state, incoming state)`.
    fn find_phi(
        &self,
        ts: &[SVal],
        phi_code: u16,
        inc: &State,
        phi: StateId,
    ) -> Option<(u16, StateId, StateId)> {
        let check = |code: u16| {
            let a = self.snap_at(ts, code)?;
            let c = self.snap_at(&inc.s, code)?;
            (a != c && a != EMPTY && c != EMPTY && c != phi).then_some((code, a, c))
        };
        if phi_code != NOSLOT {
            return check(phi_code).filter(|x| x.1 == phi);
        }
        // Cheap scan first: a low half that is a snapshot on both sides,
        // of different states.
        for (i, (a, c)) in ts.iter().zip(inc.s.iter()).enumerate() {
            if let (
                SVal::Snap {
                    state: x,
                    hi: false,
                },
                SVal::Snap {
                    state: y,
                    hi: false,
                },
            ) = (a, c)
            {
                if x != y {
                    let code = *self.slot_code.get(i)?;
                    if let Some(found) = check(code).filter(|f| f.1 != phi) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }

    /// Merge `inc` (arriving over an edge; `exec_zero`: no lane active on
    /// it) into block `b`'s in-state. Returns whether the in-state changed.
    fn join_into(
        &mut self,
        ins: &mut InStates,
        inc: &State,
        exec_zero: bool,
        b: NodeIndex,
        widen: bool,
    ) -> bool {
        let y = if exec_zero { EMPTY } else { inc.exec };
        let Some((ts, tv, meta)) = ins.parts(b.index()) else {
            let zero_from = if y == EMPTY { inc.exec } else { NONE };
            ins.first(b.index(), inc, inc.scc, y, zero_from);
            return true;
        };
        let (tscc, mut tx) = (meta.scc, meta.exec);
        // Exec-state phi: one register pair holds a copy of exec state A on
        // the paths seen so far and of B on the arriving one. At the
        // block's entry it holds a mask P that is A's on those paths and
        // B's on this one; facts about A there and about B here are facts
        // about P (renamed), so a VGPR written under A on one path and
        // under B on the other is known in P's lanes. P lies in the
        // nearest state known to contain both; a loop re-creating it
        // forgets the arriving facts about its older mask.
        let mut owned: Option<State> = None;
        let mut y = y;
        let phi = self.phi_state(b);
        if let Some((code, pa, pb)) = self.find_phi(ts, meta.phi_code, inc, phi) {
            meta.phi_code = code;
            let p = self.tree.lift(pb, phi);
            let p = if pa == phi {
                p
            } else {
                self.tree.nca(self.tree.lift(pa, phi), p)
            };
            if self.tree.set_parent(phi, p) {
                self.restart = true;
            }
            let mut c = inc.clone();
            if self.tree.create(phi) {
                let pc = self.cfg.graph[b].start;
                c.kill(phi, &self.tree, pc);
            }
            rename_state(&mut c.s, &mut c.v, pb, phi);
            if pa != phi {
                rename_state(ts, tv, pa, phi);
                if tx == pa {
                    tx = phi;
                }
            }
            if y == pb {
                y = phi;
            }
            owned = Some(c);
        }
        let inc = owned.as_ref().unwrap_or(inc);
        // An edge with no lane (the taken `s_cbranch_execz`) from the
        // state another path brings: that state's mask was zero on it, so
        // the block's exec is exactly that state on both paths.
        let src = inc.exec;
        let mut zero_changed = false;
        if tx == EMPTY && y == EMPTY && meta.zero_from != src && meta.zero_from != NONE {
            meta.zero_from = NONE;
            zero_changed = true;
        }
        let same_state = (y == EMPTY && src == tx && tx != EMPTY)
            || (tx == EMPTY && y != EMPTY && meta.zero_from == y);
        let pc = self.cfg.graph[b].start;
        let jb = self.join_state(b);
        let mut changed = false;
        let mut kill_inc = false;
        let rx = if tx == y {
            tx
        } else if same_state {
            if tx == EMPTY {
                y
            } else {
                tx
            }
        } else {
            // Different masks meet: the block's own join state, inside the
            // nearest state known to contain both.
            let pt = self.tree.lift(tx, jb);
            let py = self.tree.lift(y, jb);
            let p = if tx == EMPTY {
                py
            } else if y == EMPTY {
                pt
            } else {
                self.tree.nca(pt, py)
            };
            if self.tree.set_parent(jb, p) {
                self.restart = true;
            }
            if self.tree.create(jb) {
                // Facts about an earlier mask of this join state (a loop)
                // are stale in every contribution that is not already at
                // the newest one.
                if tx != jb {
                    kill_parts(ts, tv, jb, &self.tree, pc);
                }
                kill_inc = true;
            }
            jb
        };
        let tree = &self.tree;
        let mut scc = tscc;
        if scc != inc.scc && scc != Scc::Unknown {
            scc = Scc::Unknown;
            changed = true;
        }
        if rx != tx || zero_changed {
            changed = true;
        }
        meta.scc = scc;
        meta.exec = rx;
        meta.copy_of = NOT_A_COPY;
        for (a, c) in ts.iter_mut().zip(inc.s.iter()) {
            if matches!(a, SVal::Unknown) {
                continue;
            }
            let c = if kill_inc {
                killed_sval(*c, jb, tree)
            } else {
                *c
            };
            if !a.same(c) {
                *a = SVal::Unknown;
                changed = true;
            }
        }
        // A VGPR whose paths disagree.
        let merge = |a: &mut VRep, c: &VRep| -> bool {
            let mut n = join_rep(a, tx, c, y, rx, tree, pc);
            if widen && n != *a {
                n = VRep::flat(VVal::join(
                    n.any_lane(pc),
                    VVal::Unknown(Why::new(WhyKind::Widen, pc)),
                    pc,
                ));
            }
            let differs = n != *a;
            *a = n;
            differs
        };
        if kill_inc {
            for (a, c) in tv.iter_mut().zip(inc.v.iter()) {
                let c = killed_vrep(*c, jb, tree, pc);
                if *a != c {
                    changed |= merge(a, &c);
                }
            }
        } else {
            for (a, c) in tv.iter_mut().zip(inc.v.iter()) {
                if a != c {
                    changed |= merge(a, c);
                }
            }
        }
        changed
    }

    // ------------------------------------------------------------- registers

    #[inline]
    fn slot_of(&self, code: u16) -> Option<usize> {
        match self.smap.get(code as usize) {
            Some(&i) if i != NOSLOT => Some(i as usize),
            _ => None,
        }
    }

    /// Dword `i` of a scalar source operand of `width` dwords.
    fn sread(&self, st: &State, op: &Operand, i: u8, width: u8) -> SVal {
        match *op {
            Operand::Reg { code, .. } => {
                let c = code + i as u16;
                match c {
                    125 => SVal::konst(0),
                    126 | 127 => {
                        if st.exec == EMPTY {
                            SVal::konst(0)
                        } else {
                            SVal::Snap {
                                state: st.exec,
                                hi: c == 127,
                            }
                        }
                    }
                    0..=124 => match self.slot_of(c) {
                        Some(s) => st.s[s],
                        None => SVal::Unknown,
                    },
                    _ => SVal::Unknown,
                }
            }
            Operand::Inline(c) => {
                if width >= 2 {
                    // 64-bit integer constants are sign-extended; the
                    // float ones have 64-bit patterns.
                    match inline_b64(c) {
                        Some(v) if (128..=208).contains(&c) => {
                            SVal::konst(if i == 0 { v as u32 } else { (v >> 32) as u32 })
                        }
                        _ => SVal::Unknown,
                    }
                } else {
                    match inline_b32(c) {
                        Some(v) if i == 0 => SVal::konst(v),
                        _ => SVal::Unknown,
                    }
                }
            }
            Operand::Literal(v) if i == 0 => SVal::konst(v),
            _ => SVal::Unknown,
        }
    }

    fn swrite(&self, st: &mut State, code: u16, v: SVal) {
        if code < 125 {
            if let Some(s) = self.slot_of(code) {
                st.s[s] = v;
            }
        }
    }

    fn vwrite(&self, st: &mut State, r: usize, w: VVal, all_lanes: bool, pc: u32) {
        if let Some(rep) = st.v.get_mut(r) {
            *rep = if all_lanes {
                VRep::flat(w)
            } else {
                rep.write(st.exec, w, &self.tree, pc)
            };
        }
    }

    fn vread(&self, st: &State, op: &Operand, pc: u32) -> Option<VVal> {
        match op.vgpr_range() {
            Some((r, _)) => match st.v.get(r as usize) {
                Some(rep) => rep.read(st.exec, &self.tree, pc),
                None => Some(VVal::Unknown(Why::new(WhyKind::Entry, pc))),
            },
            None => Some(VVal::Unknown(Why::new(WhyKind::Other, pc))),
        }
    }

    /// A 64-bit pointer held in the register pair `op`.
    fn pointer(&mut self, st: &State, op: &Operand) -> Option<u16> {
        let lo = self.sread(st, op, 0, 2);
        let hi = self.sread(st, op, 1, 2);
        match (lo, hi) {
            (SVal::W(l), SVal::W(h)) => self.ptrs.intern(Ptr::new(l, h, 0)),
            (SVal::AddLo { base, add }, SVal::AddHi { ptr }) => {
                let p = *self.ptrs.items.get(ptr as usize)?;
                (p.lo == base && p.add as u32 == add).then_some(ptr)
            }
            _ => None,
        }
    }

    /// The four words of a buffer descriptor in `op`, if all are traced.
    fn descriptor(&mut self, st: &State, op: &Operand) -> Option<u16> {
        if !matches!(op, Operand::Reg { count: 4, .. }) {
            return None;
        }
        let mut w = [Word::Unknown; 4];
        for (i, x) in w.iter_mut().enumerate() {
            match self.sread(st, op, i as u8, 4) {
                SVal::W(v) => *x = v,
                _ => return None,
            }
        }
        self.descs.intern(w)
    }

    // -------------------------------------------------------------- transfer

    fn line_state(&self, li: usize) -> StateId {
        FIRST_DYN + li as u32
    }

    fn step(&mut self, st: &mut State, li: usize) {
        // Most lines are settled from the per-line table alone, without
        // reading the (large) instruction: undecodable lines are neither
        // no-ops nor plain.
        let fx = self.fx[li];
        if fx.flags.has(FxFlags::NOOP) {
            return;
        }
        if fx.flags.has(FxFlags::PLAIN) {
            // A plain line's reason names its own pc.
            self.forget_writes(st, &fx, fx.why.pc);
            return;
        }
        let prog = self.prog;
        let line = &prog.lines[li];
        let pc = line.pc;
        let inst = match &line.inst {
            Ok(i) => i,
            Err(_) => {
                self.havoc(st, li, pc, true, true);
                return;
            }
        };
        let imp = fx.imp;
        let why = self.data_why(st, &fx);
        let ops = inst.operands.as_slice();
        let w64 = !self.conf.wave32;
        let def_width = ops
            .first()
            .filter(|s| s.is_def())
            .and_then(|s| match s.op {
                Operand::Reg { count, .. } => Some(count),
                _ => None,
            })
            .unwrap_or(1);
        let mut vals = [SVal::Unknown; 16];
        let mut scc: Option<Scc> = None;
        let mut exec_op: Option<ExecOp> = None;
        let mut vgpr_done = false;
        let mut sdst_new_exec = false;
        let src = |k: usize| ops.get(k).map(|s| s.op).unwrap_or(Operand::Off);
        if imp.contains(Implicit::RELATIVE) {
            // m0 picks the register: the named def is only the base, so any
            // register of its file may change.
            let (mut scalar, mut vector) = (false, false);
            for s in inst.operands.as_slice().iter().filter(|s| s.is_def()) {
                scalar |= s.op.scalar_range().is_some();
                vector |= s.op.vgpr_range().is_some();
            }
            self.havoc(st, li, pc, scalar, vector);
        }
        let mut vcmp_vcc = false;
        match self.fx[li].rule {
            Rule::Generic
            | Rule::VCmpx
            | Rule::SLoad
            | Rule::SBufLoad
            | Rule::Buf
            | Rule::DsWrite { .. }
            | Rule::DsOther => {}
            Rule::VCmp => {
                // Lanes outside exec get 0: the mask lies inside exec.
                let m = |hi| {
                    if st.exec == EMPTY {
                        SVal::konst(0)
                    } else {
                        SVal::Sub { state: st.exec, hi }
                    }
                };
                if ops
                    .first()
                    .is_some_and(|s| s.is_def() && s.op.scalar_range().is_some())
                {
                    vals[0] = m(false);
                    vals[1] = if w64 { m(true) } else { SVal::Unknown };
                } else {
                    vcmp_vcc = imp.contains(Implicit::WRITE_VCC);
                }
            }
            _ if !ops.first().is_some_and(|s| s.is_def()) => {}
            Rule::VSwap => {
                if let (Some((a, 1)), Some((b, 1))) = (
                    ops.first().and_then(|s| s.op.vgpr_range()),
                    ops.get(1).and_then(|s| s.op.vgpr_range()),
                ) {
                    if inst.family == Family::Vop1 && a != b {
                        let ra = Operand::Reg {
                            code: 256 + a as u16,
                            count: 1,
                        };
                        let rb = Operand::Reg {
                            code: 256 + b as u16,
                            count: 1,
                        };
                        if let (Some(va), Some(vb)) =
                            (self.vread(st, &ra, pc), self.vread(st, &rb, pc))
                        {
                            self.vwrite(st, a as usize, vb, false, pc);
                            self.vwrite(st, b as usize, va, false, pc);
                        }
                        vgpr_done = true;
                    }
                }
            }
            Rule::VMbcnt
            | Rule::VMulU24
            | Rule::VMulLo
            | Rule::VLshlrev
            | Rule::VLshlAdd
            | Rule::VMadU24
            | Rule::VAddCo
            | Rule::VDot4U8 => {
                if let Some(n) = self.num_value(st, inst, self.fx[li].rule, pc) {
                    if let Some((r, 1)) = ops[0].op.vgpr_range() {
                        self.vwrite(st, r as usize, VVal::Num(n), false, pc);
                        vgpr_done = true;
                    }
                }
            }
            Rule::VReadlane => {
                // Any lane's number (exec does not matter to readlane).
                if let (Some(s), Some((r, 1))) =
                    (ops.get(1), ops.get(1).and_then(|s| s.op.vgpr_range()))
                {
                    if s.mods.is_empty() {
                        if let Some(VVal::Num(n)) = st.v.get(r as usize).map(|v| v.any_lane(pc)) {
                            vals[0] = SVal::num(n);
                        }
                    }
                }
            }
            Rule::SBfeU32 => {
                let x = self.sread(st, &src(1), 0, 1);
                if let Some(c) = self.sread(st, &src(2), 0, 1).as_const() {
                    let (off, width) = (c & 31, (c >> 16) & 0x7f);
                    vals[0] = if let Some(v) = x.as_const() {
                        let f = if width >= 32 {
                            u32::MAX
                        } else {
                            (1u32 << width) - 1
                        };
                        SVal::konst((v >> off) & f)
                    } else {
                        let hi = if width >= 32 {
                            u32::MAX
                        } else {
                            (1u32 << width) - 1
                        };
                        SVal::num(Num::range(0, hi))
                    };
                }
            }
            Rule::SLshr => {
                let x = self.sread(st, &src(1), 0, 1);
                if let Some(k) = self.sread(st, &src(2), 0, 1).as_const() {
                    let k = k & 31;
                    let n = x.as_num().unwrap_or(Num::range(0, u32::MAX));
                    vals[0] = SVal::num(Num::range(n.lo >> k, n.hi >> k));
                }
            }
            Rule::SLshl => {
                let xv = self.sread(st, &src(1), 0, 1);
                let k = self.sread(st, &src(2), 0, 1).as_const();
                if let (Some(x), Some(k)) = (xv.as_num(), k) {
                    if let Some(n) = x.mul(Num::konst(1 << (k & 31))) {
                        vals[0] = SVal::num(n);
                    }
                } else if let (Some(ix), Some(k)) = (xv.as_lin(), k) {
                    // A table index in bytes: exact mod 2³² (a shift is a
                    // product by 2^k, which wraps like the hardware's).
                    let m = 1u32 << (k & 31);
                    vals[0] = SVal::lin(TableIndex {
                        word: ix.word,
                        scale: ix.scale.wrapping_mul(m),
                        offset: ix.offset.wrapping_mul(m),
                    });
                }
            }
            Rule::DsRead => vgpr_done = self.lds_read(st, inst, pc),
            Rule::SMov => {
                for i in 0..def_width.min(2) {
                    vals[i as usize] = self.sread(st, &src(1), i, def_width);
                }
            }
            Rule::SMovk => {
                if let Operand::Imm(v) = src(1) {
                    vals[0] = SVal::konst(v as u32);
                }
            }
            Rule::SGetpc => {
                let next = pc.wrapping_add(inst.len as u32);
                vals[0] = SVal::W(Word::Code {
                    offset: next,
                    hi: false,
                });
                vals[1] = SVal::W(Word::Code {
                    offset: next,
                    hi: true,
                });
            }
            Rule::SCselect => {
                let w = def_width.min(2);
                let (a, b) = (src(1), src(2));
                let x = [self.sread(st, &a, 0, w), self.sread(st, &a, 1, w)];
                let y = [self.sread(st, &b, 0, w), self.sread(st, &b, 1, w)];
                let ones = SVal::konst(u32::MAX);
                for i in 0..w as usize {
                    vals[i] = match st.scc {
                        Scc::Const(true) => x[i],
                        Scc::Const(false) => y[i],
                        _ if x[i] == y[i] => x[i],
                        _ => SVal::Unknown,
                    };
                }
                if let Scc::Mwi64 { neg } = st.scc {
                    let (t, f) = if neg { (y, x) } else { (x, y) };
                    let bfm = [SVal::BfmMwi { hi: false }, SVal::BfmMwi { hi: true }];
                    if w == 2 && w64 && t == [ones, ones] && f == bfm {
                        vals[0] = SVal::Snap {
                            state: VL,
                            hi: false,
                        };
                        vals[1] = SVal::Snap {
                            state: VL,
                            hi: true,
                        };
                    }
                }
            }
            Rule::SAdd => {
                let a = self.sread(st, &src(1), 0, 1);
                let b = self.sread(st, &src(2), 0, 1);
                let (v, c) = add_lo(a, b);
                vals[0] = v;
                scc = Some(c);
            }
            Rule::SAddc => {
                let a = self.sread(st, &src(1), 0, 1);
                let b = self.sread(st, &src(2), 0, 1);
                vals[0] = self.add_hi(a, b, st.scc);
                scc = Some(match (a.as_const(), b.as_const(), st.scc) {
                    (Some(x), Some(y), Scc::Const(cin)) => {
                        Scc::Const((x as u64 + y as u64 + cin as u64) >> 32 != 0)
                    }
                    _ => Scc::Unknown,
                });
            }
            Rule::SBfm64 => {
                let a = self.sread(st, &src(1), 0, 1);
                let b = self.sread(st, &src(2), 0, 1);
                if a == SVal::Mwi && b.as_const() == Some(0) {
                    if w64 {
                        vals[0] = SVal::BfmMwi { hi: false };
                        vals[1] = SVal::BfmMwi { hi: true };
                    } else {
                        // Wave32: at most 32 vertices, so the low half is
                        // exactly the vertex lanes.
                        vals[0] = SVal::Snap {
                            state: VL,
                            hi: false,
                        };
                    }
                } else if let (Some(n), Some(s)) = (a.as_const(), b.as_const()) {
                    let m = ((1u64 << (n & 63)).wrapping_sub(1)) << (s & 63);
                    vals[0] = SVal::konst(m as u32);
                    vals[1] = SVal::konst((m >> 32) as u32);
                }
            }
            Rule::SBitcmp1 | Rule::SBitcmp0 => {}
            Rule::SAnd | Rule::SAndn2 | Rule::SOr => {
                let r = self.fx[li].rule;
                exec_op = self.exec_logic(st, inst, r);
                if exec_op.is_none() && r != Rule::SOr {
                    self.and_values(st, inst, r, def_width, &mut vals);
                }
            }
            Rule::SaveAnd | Rule::SaveAndn1 | Rule::SaveOr | Rule::SaveOther => {
                for i in 0..def_width.min(2) {
                    vals[i as usize] = self.sread(
                        st,
                        &Operand::Reg {
                            code: 126,
                            count: 2,
                        },
                        i,
                        2,
                    );
                }
                exec_op = Some(match self.fx[li].rule {
                    Rule::SaveAnd | Rule::SaveAndn1 => ExecOp::Narrow(st.exec),
                    Rule::SaveOr => match self.full_snapshot(st, &src(1), def_width) {
                        Some(s) if self.tree.within(st.exec, s) => ExecOp::Set(s),
                        _ => ExecOp::Unknown,
                    },
                    _ => ExecOp::Unknown,
                });
            }
            Rule::WrexecAndn1 | Rule::WrexecOther => {
                sdst_new_exec = true;
                exec_op = Some(if self.fx[li].rule == Rule::WrexecAndn1 {
                    ExecOp::Narrow(st.exec)
                } else {
                    ExecOp::Unknown
                });
            }
            Rule::VMov | Rule::VAddNc => {
                // Under every lane a copy moves the whole register, each
                // lane's value with it (layers included).
                if self.fx[li].rule == Rule::VMov && st.exec == ALL {
                    if let (Some((d, 1)), Some((r, 1)), true) = (
                        ops[0].op.vgpr_range(),
                        ops.get(1).and_then(|s| s.op.vgpr_range()),
                        plain_copy(inst),
                    ) {
                        if let Some(&rep) = st.v.get(r as usize) {
                            if let Some(slot) = st.v.get_mut(d as usize) {
                                *slot = rep;
                                vgpr_done = true;
                            }
                        }
                    }
                }
                let w = if vgpr_done {
                    None
                } else {
                    self.vop_value(st, inst, self.fx[li].rule, pc)
                };
                if let (Some(w), Some((r, 1))) = (w, ops[0].op.vgpr_range()) {
                    self.vwrite(st, r as usize, w, false, pc);
                    vgpr_done = true;
                }
            }
        }
        match self.fx[li].rule {
            Rule::SBitcmp1 | Rule::SBitcmp0 => {
                let a = self.sread(st, &src(0), 0, 1);
                let b = self.sread(st, &src(1), 0, 1);
                let neg = self.fx[li].rule == Rule::SBitcmp0;
                scc = Some(if a == SVal::Mwi && b.as_const() == Some(6) {
                    Scc::Mwi64 { neg }
                } else if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
                    Scc::Const(((x >> (y & 31)) & 1 == 1) != neg)
                } else {
                    Scc::Unknown
                });
            }
            Rule::VCmpx => exec_op = Some(ExecOp::Narrow(st.exec)),
            Rule::SLoad => {
                let _ = self.sload(st, inst, &mut vals);
            }
            Rule::SBufLoad => self.sbufload(st, inst, li, &mut vals),
            Rule::Buf => self.buffer_access(st, inst, li, pc),
            _ => {}
        }
        if fx.lds != NOMARK {
            let w = if st.exec == EMPTY {
                LdsWrite::NoLanes
            } else {
                match fx.rule {
                    Rule::DsWrite { sub } => self.lds_pieces(st, inst, sub, pc),
                    _ => LdsWrite::Unplaced,
                }
            };
            if let Some(slot) = self.lds_writes.get_mut(fx.lds as usize) {
                slot.1 = Some(w);
            }
        }
        // Broken on purpose (tests only): LDS as one register.
        let lds_fault = self.faults.ignore_lds && inst.family == Family::Ds;
        if lds_fault {
            if let Some(d) = inst.uses().nth(1) {
                self.lds_last = self.vread(st, &d.op, pc);
            }
        }
        self.finish(
            st,
            li,
            inst,
            imp,
            &vals,
            scc,
            exec_op,
            vgpr_done,
            sdst_new_exec,
            why,
        );
        if vcmp_vcc && st.exec != EMPTY {
            self.swrite(
                st,
                106,
                SVal::Sub {
                    state: st.exec,
                    hi: false,
                },
            );
            if w64 {
                self.swrite(
                    st,
                    107,
                    SVal::Sub {
                        state: st.exec,
                        hi: true,
                    },
                );
            }
        } else if vcmp_vcc {
            self.swrite(st, 106, SVal::konst(0));
            self.swrite(st, 107, SVal::konst(0));
        }
        if lds_fault {
            if let (Some(v), Some((r, 1))) = (
                self.lds_last,
                inst.defs().next().and_then(|s| s.op.vgpr_range()),
            ) {
                self.vwrite(st, r as usize, v, false, pc);
            }
        }
    }

    /// Why what line `li` writes is unknown: its own reason, or, when it
    /// reads a VGPR that holds data from LDS or memory, that origin (so a
    /// value moved or computed from an LDS read still says so).
    fn data_why(&self, st: &State, fx: &Fx) -> Why {
        let mut why = fx.why;
        if fx.defs.is_empty() || why.kind >= WhyKind::Load {
            return why;
        }
        let mut origin = |v: VVal| {
            if let VVal::Unknown(w) = v {
                if w.kind >= WhyKind::Load && w.kind != WhyKind::Lanes && w > why {
                    why = w;
                }
            }
        };
        for &(r, n) in &self.vuses[fx.vuses.range()] {
            let read = st.v.get(r as usize..).unwrap_or_default();
            for rep in &read[..read.len().min(n as usize)] {
                origin(rep.new);
                // A flat register holds `new` in every lane.
                if rep.state != FLAT {
                    origin(rep.out);
                }
            }
        }
        why
    }

    /// The writes of a line that leaves exec alone and has no rule that
    /// applies (`Fx::plain`): everything it writes is forgotten. This is
    /// what [`Engine::step`] and [`Engine::finish`] do for such a line,
    /// without the rest.
    fn forget_writes(&mut self, st: &mut State, fx: &Fx, pc: u32) {
        let imp = fx.imp;
        let cross = imp.contains(Implicit::CROSS_LANE);
        let why = self.data_why(st, fx);
        for d in fx.defs.range() {
            match self.defs[d] {
                Def::V { start, count } => {
                    for k in start as usize..start as usize + count as usize {
                        self.vwrite(st, k, VVal::Unknown(why), cross, pc);
                    }
                }
                Def::S { code, count, .. } => {
                    for i in 0..count as u16 {
                        self.swrite(st, code + i, SVal::Unknown);
                    }
                }
            }
        }
        if imp.contains(Implicit::WRITE_SCC) {
            st.scc = Scc::Unknown;
        }
        if imp.contains(Implicit::WRITE_VCC) {
            self.swrite(st, 106, SVal::Unknown);
            self.swrite(st, 107, SVal::Unknown);
        }
        if imp.contains(Implicit::WRITE_M0) {
            self.swrite(st, 124, SVal::Unknown);
        }
    }

    /// Apply the writes of one instruction.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        st: &mut State,
        li: usize,
        inst: &Instruction,
        imp: Implicit,
        vals: &[SVal; 16],
        scc: Option<Scc>,
        exec_op: Option<ExecOp>,
        vgpr_done: bool,
        sdst_new_exec: bool,
        why: Why,
    ) {
        let pc = self.prog.lines[li].pc;
        let cross = imp.contains(Implicit::CROSS_LANE);
        let fx = self.fx[li];
        let defs = fx.defs.range();
        // VGPR writes happen under the exec mask before the instruction.
        if !vgpr_done {
            for d in defs.clone() {
                if let Def::V { start, count } = self.defs[d] {
                    for k in start as usize..start as usize + count as usize {
                        self.vwrite(st, k, VVal::Unknown(why), cross, pc);
                    }
                }
            }
        }
        // Exec.
        let lo = fx.flags.has(FxFlags::EXEC_LO);
        let hi = fx.flags.has(FxFlags::EXEC_HI);
        let first_exec = fx.flags.has(FxFlags::FIRST_EXEC);
        let old_exec = st.exec;
        let mut killed_old = false;
        if lo || hi || imp.contains(Implicit::WRITE_EXEC) {
            let op = match exec_op {
                Some(op) => op,
                None if self.conf.wave32 && !lo && !imp.contains(Implicit::WRITE_EXEC) => {
                    ExecOp::Keep
                }
                None if first_exec => self.exec_from_values(inst, vals, lo, hi),
                None => ExecOp::Unknown,
            };
            // A narrowing write of exec_lo alone keeps exec_hi: still a
            // subset. Anything else must write the whole mask.
            let op = match op {
                ExecOp::Set(_) if first_exec && !self.conf.wave32 && !(lo && hi) => ExecOp::Unknown,
                op => op,
            };
            killed_old = self.apply_exec(st, li, op, pc);
        }
        // Scalar writes.
        for d in defs {
            let Def::S {
                code: c,
                count: n,
                first,
            } = self.defs[d]
            else {
                continue;
            };
            for i in 0..n as u16 {
                let mut v = if first {
                    vals.get(i as usize).copied().unwrap_or(SVal::Unknown)
                } else {
                    SVal::Unknown
                };
                if first && sdst_new_exec {
                    v = if st.exec == EMPTY {
                        SVal::konst(0)
                    } else {
                        SVal::Snap {
                            state: st.exec,
                            hi: i == 1,
                        }
                    };
                }
                if let SVal::Snap { state, .. } | SVal::Sub { state, .. } = v {
                    if killed_old && state == old_exec {
                        v = SVal::Unknown;
                    }
                }
                self.swrite(st, c + i, v);
            }
        }
        if imp.contains(Implicit::WRITE_SCC) {
            st.scc = scc.unwrap_or(Scc::Unknown);
        }
        if imp.contains(Implicit::WRITE_VCC) {
            self.swrite(st, 106, SVal::Unknown);
            self.swrite(st, 107, SVal::Unknown);
        }
        if imp.contains(Implicit::WRITE_M0) {
            self.swrite(st, 124, SVal::Unknown);
        }
    }

    /// Set exec; returns whether the old exec state was forgotten (it lay
    /// inside the state this instruction re-creates).
    fn apply_exec(&mut self, st: &mut State, li: usize, op: ExecOp, pc: u32) -> bool {
        match op {
            ExecOp::Keep => false,
            ExecOp::Set(_) if self.faults.ignore_exec_restore => false,
            ExecOp::Set(s) => {
                st.exec = s;
                false
            }
            ExecOp::Narrow(p) => {
                if st.exec == EMPTY || p == EMPTY {
                    st.exec = EMPTY;
                    false
                } else {
                    self.create(st, self.line_state(li), p, pc)
                }
            }
            ExecOp::Unknown => self.create(st, self.line_state(li), NONE, pc),
        }
    }

    fn create(&mut self, st: &mut State, id: StateId, parent: StateId, pc: u32) -> bool {
        let killed_cur = st.exec != EMPTY && self.tree.within(st.exec, id);
        let lifted = self.tree.lift(parent, id);
        if self.tree.set_parent(id, lifted) {
            self.restart = true;
        }
        if self.tree.create(id) {
            st.kill(id, &self.tree, pc);
        }
        st.exec = id;
        killed_cur
    }

    /// The exec state whose full mask `op` holds (both halves in wave64).
    fn full_snapshot(&self, st: &State, op: &Operand, width: u8) -> Option<StateId> {
        let lo = self.sread(st, op, 0, width);
        let SVal::Snap { state, hi: false } = lo else {
            return None;
        };
        if self.conf.wave32 {
            return Some(state);
        }
        if width < 2 {
            return None;
        }
        match self.sread(st, op, 1, width) {
            SVal::Snap {
                state: s2,
                hi: true,
            } if s2 == state => Some(state),
            _ => None,
        }
    }

    /// Exec written from values (`s_mov`, `s_cselect`, ...).
    fn exec_from_values(
        &self,
        inst: &Instruction,
        vals: &[SVal; 16],
        lo: bool,
        hi: bool,
    ) -> ExecOp {
        // Offsets of exec_lo/hi inside the first def.
        let Some((c, _)) = inst.operands.as_slice()[0].op.scalar_range() else {
            return ExecOp::Unknown;
        };
        let at = |code: u16| {
            vals.get(code.wrapping_sub(c) as usize)
                .copied()
                .unwrap_or(SVal::Unknown)
        };
        let vlo = if lo { at(126) } else { SVal::Unknown };
        let vhi = if hi { at(127) } else { SVal::Unknown };
        if self.conf.wave32 {
            return match vlo {
                SVal::Snap { state, hi: false } => ExecOp::Set(state),
                SVal::Sub { state, hi: false } => ExecOp::Narrow(state),
                v if v.as_const() == Some(u32::MAX) => ExecOp::Set(ALL),
                v if v.as_const() == Some(0) => ExecOp::Set(EMPTY),
                _ => ExecOp::Unknown,
            };
        }
        match (vlo, vhi) {
            (
                SVal::Snap {
                    state: a,
                    hi: false,
                },
                SVal::Snap { state: b, hi: true },
            ) if a == b => ExecOp::Set(a),
            // A mask inside a state's (either half a subset, the other a
            // subset or the exact half): a narrowing inside it.
            (x, y)
                if matches!(
                    (x.mask_within(), y.mask_within()),
                    (Some((a, false)), Some((b, true))) if a == b
                ) =>
            {
                match x.mask_within() {
                    Some((a, _)) => ExecOp::Narrow(a),
                    None => ExecOp::Unknown,
                }
            }
            (x, y) if x.as_const() == Some(u32::MAX) && y.as_const() == Some(u32::MAX) => {
                ExecOp::Set(ALL)
            }
            (x, y) if x.as_const() == Some(0) && y.as_const() == Some(0) => ExecOp::Set(EMPTY),
            _ => ExecOp::Unknown,
        }
    }

    /// `s_and`/`s_andn2`/`s_or` with exec as destination.
    fn exec_logic(&self, st: &State, inst: &Instruction, r: Rule) -> Option<ExecOp> {
        let ops = inst.operands.as_slice();
        let d = ops.first()?.op;
        let (dc, dn) = d.scalar_range()?;
        if !(dc <= 127 && 126 < dc + dn as u16) {
            return None;
        }
        let a = ops.get(1)?.op;
        let b = ops.get(2)?.op;
        let full = |o: &Operand| self.full_snapshot(st, o, dn);
        Some(match r {
            Rule::SAnd => {
                if a == d || b == d {
                    ExecOp::Narrow(st.exec)
                } else if let Some(s) = full(&a).or_else(|| full(&b)) {
                    ExecOp::Narrow(s)
                } else {
                    ExecOp::Unknown
                }
            }
            Rule::SAndn2 => {
                if a == d {
                    ExecOp::Narrow(st.exec)
                } else if let Some(s) = full(&a) {
                    ExecOp::Narrow(s)
                } else {
                    ExecOp::Unknown
                }
            }
            _ => {
                let other = if a == d {
                    Some(b)
                } else if b == d {
                    Some(a)
                } else {
                    None
                };
                match other.and_then(|o| full(&o)) {
                    Some(s) if self.tree.within(st.exec, s) => ExecOp::Set(s),
                    _ => ExecOp::Unknown,
                }
            }
        })
    }

    fn add_hi(&mut self, a: SVal, b: SVal, scc: Scc) -> SVal {
        match scc {
            // The high half of a code address plus 0 and the carry of its
            // low half plus `add`: the high half of the moved address.
            Scc::Carry {
                base: Word::Code { offset, hi: false },
                add,
            } if matches!((a, b.as_const()), (SVal::W(Word::Code { offset: o, hi: true }), Some(0)) if o == offset)
                || matches!((b, a.as_const()), (SVal::W(Word::Code { offset: o, hi: true }), Some(0)) if o == offset) =>
            {
                match offset.checked_add(add) {
                    Some(o) => SVal::W(Word::Code {
                        offset: o,
                        hi: true,
                    }),
                    None => SVal::Unknown,
                }
            }
            Scc::Carry { base, add } => {
                let (w, c) = match (a, b) {
                    // The high word plus a constant (either order).
                    (SVal::W(w), x) | (x, SVal::W(w)) if x.as_const().is_some() => {
                        (w, x.as_const().unwrap_or(0))
                    }
                    _ => return SVal::Unknown,
                };
                let p = Ptr::new(base, w, add as u64 | ((c as u64) << 32));
                match self.ptrs.intern(p) {
                    Some(ptr) => SVal::AddHi { ptr },
                    None => SVal::Unknown,
                }
            }
            Scc::Const(cin) => match (a.as_const(), b.as_const()) {
                (Some(x), Some(y)) => SVal::konst(x.wrapping_add(y).wrapping_add(cin as u32)),
                _ if !cin && b.as_const() == Some(0) => a,
                _ if !cin && a.as_const() == Some(0) => b,
                _ => SVal::Unknown,
            },
            _ => SVal::Unknown,
        }
    }

    /// The value `v_mov_b32`/`v_add_nc_u32` writes, or `None` when the
    /// instruction has modifiers or forms the rule does not cover.
    fn vop_value(&self, st: &State, inst: &Instruction, r: Rule, pc: u32) -> Option<VVal> {
        match inst.family {
            Family::Vop1 | Family::Vop2 => {}
            Family::Vop3 => match inst.mods {
                Modifiers::Vop3(m) if !m.clamp && m.omod == 0 && !m.opsel_dst => {}
                _ => return None,
            },
            _ => return None,
        }
        let ops = inst.operands.as_slice();
        if ops.iter().any(|s| !s.mods.is_empty()) {
            return None;
        }
        let other = || VVal::Unknown(Why::new(WhyKind::Other, pc));
        match r {
            Rule::VMov => {
                let s = ops.get(1)?;
                if s.op.vgpr_range().is_some() {
                    // No lane reads when exec is empty: nothing is written.
                    Some(self.vread(st, &s.op, pc).unwrap_or_else(other))
                } else {
                    Some(self.num_src(st, s, pc).map_or_else(other, VVal::Num))
                }
            }
            _ => {
                let (a, b) = (ops.get(1)?.op, ops.get(2)?.op);
                for (x, y) in [(a, b), (b, a)] {
                    if x.vgpr_range().is_none() {
                        continue;
                    }
                    let xv = self.vread(st, &x, pc).unwrap_or_else(other);
                    let word = match y {
                        Operand::Reg { code, .. } if code < 128 => self.sread(st, &y, 0, 1),
                        Operand::Inline(_) | Operand::Literal(_) => self.sread(st, &y, 0, 1),
                        _ => SVal::Unknown,
                    };
                    let yn = match y {
                        Operand::Reg { code, .. } if code >= 256 => {
                            match self.vread(st, &y, pc).unwrap_or_else(other) {
                                VVal::Num(n) => Some(n),
                                _ => None,
                            }
                        }
                        _ => word.as_num(),
                    };
                    return Some(match (xv, word) {
                        (VVal::Id(id), SVal::W(_)) if self.faults.drop_plus_word => VVal::Id(id),
                        (VVal::Id(id), SVal::W(w)) => VVal::IdPlus(id, w),
                        (VVal::Lds(k, alt), SVal::W(w)) => VVal::LdsPlus(k, alt, w),
                        (VVal::Num(n), _) => match yn.and_then(|m| n.add(m)) {
                            Some(sum) => VVal::Num(sum),
                            None => other(),
                        },
                        (VVal::Unknown(w), _) => VVal::Unknown(w),
                        _ => other(),
                    });
                }
                Some(other())
            }
        }
    }

    /// The exec state a lane mask operand of `width` registers is known to
    /// lie in (both halves in wave64).
    fn mask_in(&self, st: &State, op: &Operand, width: u8) -> Option<StateId> {
        let (s, hi) = self.sread(st, op, 0, width).mask_within()?;
        if hi {
            return None;
        }
        if self.conf.wave32 {
            return (width == 1).then_some(s);
        }
        if width != 2 {
            return None;
        }
        match self.sread(st, op, 1, width).mask_within() {
            Some((s2, true)) if s2 == s => Some(s),
            _ => None,
        }
    }

    /// `s_and`/`s_andn2` into a register other than exec: a mask inside a
    /// state when the (for `s_and` either, for `s_andn2` the first)
    /// operand is one; for 32 bits with a constant, a number no larger
    /// than the constant.
    fn and_values(
        &self,
        st: &State,
        inst: &Instruction,
        r: Rule,
        width: u8,
        vals: &mut [SVal; 16],
    ) {
        let ops = inst.operands.as_slice();
        let (Some(a), Some(b)) = (ops.get(1).map(|s| s.op), ops.get(2).map(|s| s.op)) else {
            return;
        };
        let w = width.min(2);
        let inside = match r {
            Rule::SAnd => self.mask_in(st, &a, w).or_else(|| self.mask_in(st, &b, w)),
            _ => self.mask_in(st, &a, w),
        };
        if let Some(s) = inside {
            vals[0] = SVal::Sub {
                state: s,
                hi: false,
            };
            if w == 2 {
                vals[1] = SVal::Sub { state: s, hi: true };
            }
            return;
        }
        if w == 1 && r == Rule::SAnd {
            let (x, y) = (self.sread(st, &a, 0, 1), self.sread(st, &b, 0, 1));
            vals[0] = match (x.as_const(), y.as_const()) {
                (Some(p), Some(q)) => SVal::konst(p & q),
                (Some(k), None) | (None, Some(k)) => {
                    let other = if x.as_const().is_some() { y } else { x };
                    let hi = other.as_num().map_or(k, |n| n.hi.min(k));
                    SVal::num(Num::range(0, hi))
                }
                _ => SVal::Unknown,
            };
        }
    }

    /// A source operand as a number (a VGPR as the current exec's lanes
    /// read it).
    fn num_src(&self, st: &State, s: &isa::Slot, pc: u32) -> Option<Num> {
        // VOP3P's default op_sel_hi changes nothing for a 32-bit operand.
        if !(s.mods - isa::OpMods::OP_SEL_HI).is_empty() {
            return None;
        }
        match s.op {
            Operand::Reg { code, .. } if code >= 256 => match self.vread(st, &s.op, pc)? {
                VVal::Num(n) => Some(n),
                _ => None,
            },
            Operand::Reg { code, .. } if code < 126 => self.sread(st, &s.op, 0, 1).as_num(),
            Operand::Inline(_) | Operand::Literal(_) => self.sread(st, &s.op, 0, 1).as_num(),
            _ => None,
        }
    }

    /// The number a numeric VALU instruction writes (see the `Rule`s from
    /// `VMbcnt` to `VDot4U8`), or `None` for forms it does not cover or a
    /// result that may wrap past 32 bits.
    fn num_value(&self, st: &State, inst: &Instruction, r: Rule, pc: u32) -> Option<Num> {
        // SDWA source selects bound a source (unsigned: no sext).
        let mut sels = [isa::family::vop_ext::SdwaSel::Dword; 2];
        match inst.mods {
            Modifiers::None if matches!(inst.family, Family::Vop1 | Family::Vop2) => {}
            Modifiers::Vop3(m) if !m.clamp && m.omod == 0 && !m.opsel_dst => {}
            Modifiers::Vop3p(_) if r == Rule::VDot4U8 => {}
            Modifiers::Sdwa(m)
                if r == Rule::VMulU24
                    && m.dst_sel == isa::family::vop_ext::SdwaSel::Dword
                    && !m.clamp
                    && m.omod == 0 =>
            {
                sels = [m.src0_sel, m.src1_sel];
            }
            _ => return None,
        }
        // The sources (after the VGPR result and, for v_add_co, a carry).
        let mut srcs: [Option<&isa::Slot>; 4] = [None; 4];
        for (k, u) in inst.uses().take(4).enumerate() {
            srcs[k] = Some(u);
        }
        let src = |k: usize| -> Option<Num> { self.num_src(st, (*srcs.get(k)?)?, pc) };
        // A 24-bit operand: the number itself when it fits (a `WORD_0` or
        // `BYTE_0` select keeps a number that fits in it), else every value
        // the selected bits can hold (a sign-extended select: any 24 bits).
        let u24 = |k: usize| -> Num {
            use isa::family::vop_ext::SdwaSel;
            let all = Num::range(0, (1 << 24) - 1);
            let Some(slot) = srcs.get(k).copied().flatten() else {
                return all;
            };
            if slot.mods.contains(isa::OpMods::SEXT) {
                return all;
            }
            let (max, low) = match sels.get(k) {
                Some(SdwaSel::Dword) | None => ((1 << 24) - 1, true),
                Some(SdwaSel::Word0) => (0xffff, true),
                Some(SdwaSel::Word1) => (0xffff, false),
                Some(SdwaSel::Byte0) => (0xff, true),
                Some(_) => (0xff, false),
            };
            match src(k) {
                Some(n) if low && n.hi <= max => n,
                _ => Num::range(0, max),
            }
        };
        match r {
            Rule::VMbcnt => src(1)?.add(Num::range(0, 32)),
            Rule::VMulU24 => u24(0).mul(u24(1)),
            Rule::VMulLo => src(0)?.mul(src(1)?),
            Rule::VLshlrev => {
                let k = src(0)?;
                (k.is_exact() && k.lo < 32)
                    .then_some(())
                    .and_then(|_| src(1)?.mul(Num::konst(1 << k.lo)))
            }
            Rule::VLshlAdd => {
                let k = src(1)?;
                if !(k.is_exact() && k.lo < 32) {
                    return None;
                }
                src(0)?.mul(Num::konst(1 << k.lo))?.add(src(2)?)
            }
            Rule::VMadU24 => u24(0).mul(u24(1))?.add(src(2)?),
            Rule::VAddCo => src(0)?.add(src(1)?),
            Rule::VDot4U8 => {
                let c = (*srcs.get(2)?)?;
                Num::range(0, 4 * 255 * 255).add(self.num_src(st, c, pc)?)
            }
            _ => None,
        }
    }

    /// A DS read of whole dwords: each result dword is the value of its
    /// address set (interned as a read class). Returns whether the VGPRs
    /// were written.
    fn lds_read(&mut self, st: &mut State, inst: &Instruction, pc: u32) -> bool {
        let Modifiers::Ds(m) = inst.mods else {
            return false;
        };
        if m.gds || st.exec == EMPTY {
            return false;
        }
        let ops = inst.operands.as_slice();
        let (Some((d, n)), Some(a)) = (
            ops.first()
                .filter(|s| s.is_def())
                .and_then(|s| s.op.vgpr_range()),
            inst.uses().next(),
        ) else {
            return false;
        };
        let Some(VVal::Num(addr)) = self.vread(st, &a.op, pc) else {
            return false;
        };
        let offsets: [u32; 4] = match isa::family::ds::addr_offset(inst) {
            Some(isa::family::ds::DsAddrOffset::Single(o)) => {
                let o = o as u32;
                [o, o + 4, o + 8, o + 12]
            }
            Some(isa::family::ds::DsAddrOffset::Pair(o0, o1)) if n == 2 => [o0, o1, 0, 0],
            _ => return false,
        };
        if n as usize > offsets.len() {
            return false;
        }
        for (k, &off) in offsets.iter().enumerate().take(n as usize) {
            let v = match addr.add(Num::konst(off)) {
                Some(c) => match self.lds_classes.intern(c) {
                    Some(id) => {
                        if id as usize == self.lds_class_pc.len() {
                            self.lds_class_pc.push(pc);
                        }
                        VVal::Lds(id, None)
                    }
                    None => VVal::Unknown(Why::new(WhyKind::Lds, pc)),
                },
                None => VVal::Unknown(Why::new(WhyKind::Lds, pc)),
            };
            self.vwrite(st, d as usize + k, v, false, pc);
        }
        true
    }

    /// What a DS write instruction writes (`sub`: bytes of a sub-dword
    /// form, 0 for dwords), under a non-empty exec.
    fn lds_pieces(&self, st: &State, inst: &Instruction, sub: u8, pc: u32) -> LdsWrite {
        let Modifiers::Ds(m) = inst.mods else {
            return LdsWrite::Unplaced;
        };
        if m.gds {
            return LdsWrite::Unplaced;
        }
        let uses: Vec<&isa::Slot> = inst.uses().collect();
        let Some(a) = uses.first() else {
            return LdsWrite::Unplaced;
        };
        let Some(VVal::Num(addr)) = self.vread(st, &a.op, pc) else {
            return LdsWrite::Unplaced;
        };
        let (offs, datas): ([u32; 2], &[&isa::Slot]) = match isa::family::ds::addr_offset(inst) {
            Some(isa::family::ds::DsAddrOffset::Single(o)) => {
                ([o as u32, 0], &uses[1..uses.len().min(2)])
            }
            Some(isa::family::ds::DsAddrOffset::Pair(o0, o1)) => {
                ([o0, o1], &uses[1..uses.len().min(3)])
            }
            _ => return LdsWrite::Unplaced,
        };
        let none = LdsPiece {
            addr: Num::konst(0),
            bytes: 0,
            val: VVal::Unknown(Why::new(WhyKind::Other, pc)),
        };
        let mut p = [none; 4];
        let mut n = 0usize;
        for (k, d) in datas.iter().enumerate() {
            let Some((r, cnt)) = d.op.vgpr_range() else {
                return LdsWrite::Unplaced;
            };
            if sub > 0 {
                let Some(at) = addr.add(Num::konst(offs[k])) else {
                    return LdsWrite::Unplaced;
                };
                if n >= 4 {
                    return LdsWrite::Unplaced;
                }
                p[n] = LdsPiece {
                    addr: at,
                    bytes: sub,
                    val: none.val,
                };
                n += 1;
                continue;
            }
            for i in 0..cnt as u32 {
                let Some(at) = addr.add(Num::konst(offs[k] + 4 * i)) else {
                    return LdsWrite::Unplaced;
                };
                if n >= 4 {
                    return LdsWrite::Unplaced;
                }
                let reg = Operand::Reg {
                    code: 256 + r as u16 + i as u16,
                    count: 1,
                };
                let val = self.vread(st, &reg, pc).unwrap_or(none.val);
                p[n] = LdsPiece {
                    addr: at,
                    bytes: 4,
                    val,
                };
                n += 1;
            }
        }
        if n == 0 {
            return LdsWrite::Unplaced;
        }
        LdsWrite::Pieces { n: n as u8, p }
    }

    /// The byte offset an SMEM instruction adds to its base, if traced.
    fn smem_offset(&self, st: &State, a: &SmemAddress) -> Option<u32> {
        let mut off = a.offset as i64;
        if let Some(so) = &a.soffset {
            off += self.sread(st, so, 0, 1).as_const()? as i64;
        }
        u32::try_from(off).ok()
    }

    fn sload(&mut self, st: &State, inst: &Instruction, vals: &mut [SVal; 16]) -> Option<()> {
        let a = SmemAddress::of(inst)?;
        let n = match inst.operands.as_slice().first()?.op {
            Operand::Reg { count, .. } => count as usize,
            _ => return None,
        };
        let (off, p) = match self.smem_offset(st, &a) {
            Some(off) => (off, self.pointer(st, &a.base)?),
            None => self.indexed_table(st, &a)?,
        };
        for (i, v) in vals.iter_mut().enumerate().take(n.min(16)) {
            *v = SVal::W(Word::TableWord {
                table: PtrId(p),
                byte_offset: off.checked_add(4 * i as u32)?,
            });
        }
        Some(())
    }

    /// A scalar load whose `soffset` is a traced word times a constant plus
    /// a constant ([`TableIndex`]): the table pointer with that per-draw
    /// offset (interned), and the immediate offset. `None` when the base
    /// is not a traced pointer without an index, the immediate offset is
    /// negative, or the soffset is not affine in a word the plan evaluates.
    fn indexed_table(&mut self, st: &State, a: &SmemAddress) -> Option<(u32, u16)> {
        let so = a.soffset.as_ref()?;
        let ix = self.sread(st, so, 0, 1).as_lin()?;
        let imm = u32::try_from(a.offset).ok()?;
        let base = self.pointer(st, &a.base)?;
        let p = *self.ptrs.items.get(base as usize)?;
        if p.index.is_some() {
            return None;
        }
        if self.faults.ignore_table_index {
            // The broken rule: the per-draw offset is dropped.
            return Some((imm, base));
        }
        let id = self.ptrs.intern(Ptr {
            index: Some(ix),
            ..p
        })?;
        Some((imm, id))
    }

    fn sbufload(&mut self, st: &State, inst: &Instruction, li: usize, vals: &mut [SVal; 16]) {
        let Some(a) = SmemAddress::of(inst) else {
            return;
        };
        let n = match inst.operands.as_slice().first().map(|s| s.op) {
            Some(Operand::Reg { count, .. }) => count as usize,
            _ => return,
        };
        let desc = self.descriptor(st, &a.base);
        let base_words = match (desc, a.base) {
            (None, Operand::Reg { count: 4, .. }) => [
                self.sread(st, &a.base, 0, 4).as_word(),
                self.sread(st, &a.base, 1, 4).as_word(),
            ],
            _ => [Word::Unknown; 2],
        };
        let soffset = match &a.soffset {
            None => Word::konst(0),
            Some(so) => self.sread(st, so, 0, 1).as_word(),
        };
        self.set_rec(
            li,
            Rec {
                kind: AccessKind::Load,
                desc,
                idxen: false,
                offen: false,
                index: IdxRead::NotIndexed,
                imm_offset: a.offset as u32,
                soffset,
                bytes: 4 * n as u32,
                base_words,
            },
        );
        let (Some(d), Some(off)) = (desc, self.smem_offset(st, &a)) else {
            return;
        };
        for (i, v) in vals.iter_mut().enumerate().take(n.min(16)) {
            if let Some(o) = off.checked_add(4 * i as u32) {
                *v = SVal::W(Word::BufferWord {
                    desc: DescId(d),
                    byte_offset: o,
                });
            }
        }
    }

    /// Record the access at line `li` (a marked line).
    fn set_rec(&mut self, li: usize, rec: Rec) {
        if let Some(m) = self.marked.get_mut(self.fx[li].mark as usize) {
            m.rec = Some(rec);
        }
    }

    fn buffer_access(&mut self, st: &State, inst: &Instruction, li: usize, pc: u32) {
        let Modifiers::Buf(m) = inst.mods else {
            return;
        };
        let Some(acc) = buf::access(inst.opcode, &m) else {
            return;
        };
        let kind = match acc.kind {
            BufKind::Load => AccessKind::Load,
            BufKind::Store => AccessKind::Store,
            BufKind::Atomic => AccessKind::Atomic,
            BufKind::Invalidate => return,
        };
        let ops = inst.operands.as_slice();
        let first = usize::from(ops.first().is_some_and(|s| s.ty == ValType::Data));
        let (Some(vaddr), Some(rsrc), Some(soff)) =
            (ops.get(first), ops.get(first + 1), ops.get(first + 2))
        else {
            return;
        };
        let desc = self.descriptor(st, &rsrc.op);
        let base_words = match (desc, rsrc.op) {
            (None, Operand::Reg { count: 4, .. }) => [
                self.sread(st, &rsrc.op, 0, 4).as_word(),
                self.sread(st, &rsrc.op, 1, 4).as_word(),
            ],
            _ => [Word::Unknown; 2],
        };
        let index = if m.idxen {
            match self.vread(st, &vaddr.op, pc) {
                Some(v) => IdxRead::Val(v),
                None => IdxRead::NoLanes,
            }
        } else {
            IdxRead::NotIndexed
        };
        let soffset = match soff.op {
            Operand::Reg { .. } | Operand::Inline(_) | Operand::Literal(_) => {
                self.sread(st, &soff.op, 0, 1).as_word()
            }
            _ => Word::konst(0),
        };
        self.set_rec(
            li,
            Rec {
                kind,
                desc,
                idxen: m.idxen,
                offen: m.offen,
                index,
                imm_offset: m.offset as u32,
                soffset,
                bytes: acc.bytes.unwrap_or(acc.max_bytes),
                base_words,
            },
        );
    }

    /// Forget a register file (or all of it) after an instruction the tracer
    /// cannot follow.
    fn havoc(&mut self, st: &mut State, li: usize, pc: u32, scalar: bool, vector: bool) {
        let why = VVal::Unknown(Why::new(WhyKind::Havoc, pc));
        if scalar {
            for s in st.s.iter_mut() {
                *s = SVal::Unknown;
            }
            st.scc = Scc::Unknown;
            self.create(st, self.line_state(li), NONE, pc);
        }
        if vector {
            for v in st.v.iter_mut() {
                *v = VRep::flat(why);
            }
        }
    }
}

/// The in-states of all blocks, in two flat arrays (no allocation per
/// block). A block gets its place in them when a path first reaches it.
struct InStates {
    ns: usize,
    nv: usize,
    s: Vec<SVal>,
    v: Vec<VRep>,
    /// Per block: its place in `s`/`v` (in units of `ns`/`nv`), SCC and
    /// exec; `None` until a path reaches it.
    meta: Vec<Option<InMeta>>,
    /// Blocks with a place.
    reached: usize,
    /// The version of the working state's registers: it goes up whenever
    /// they may have changed.
    version: u64,
}

#[derive(Clone, Copy)]
struct InMeta {
    at: usize,
    scc: Scc,
    exec: StateId,
    /// The in-state's registers are a copy of the working state's at this
    /// version (`NOT_A_COPY` once a join changed them).
    copy_of: u64,
    /// While `exec` is EMPTY: the state every empty edge so far left
    /// (`NONE` when they differ or there is none).
    zero_from: StateId,
    /// The scalar register (pair) whose copies of different exec states
    /// define the block's phi state, or `NOSLOT`.
    phi_code: u16,
}

const NOT_A_COPY: u64 = u64::MAX;

impl InStates {
    fn new(nb: usize, ns: usize, nv: usize) -> InStates {
        InStates {
            ns,
            nv,
            s: Vec::with_capacity(nb * ns),
            v: Vec::with_capacity(nb * nv),
            meta: vec![None; nb],
            reached: 0,
            version: 0,
        }
    }
    /// Block `b`'s first in-state: `inc`'s registers, SCC `scc`, exec
    /// `exec`.
    fn first(&mut self, b: usize, inc: &State, scc: Scc, exec: StateId, zero_from: StateId) {
        let at = self.reached;
        self.reached += 1;
        self.s.extend_from_slice(&inc.s);
        self.v.extend_from_slice(&inc.v);
        self.meta[b] = Some(InMeta {
            at,
            scc,
            exec,
            copy_of: self.version,
            zero_from,
            phi_code: NOSLOT,
        });
    }
    fn parts(&mut self, b: usize) -> Option<(&mut [SVal], &mut [VRep], &mut InMeta)> {
        let m = self.meta[b].as_mut()?;
        let (ns, nv, at) = (self.ns, self.nv, m.at);
        Some((
            &mut self.s[at * ns..(at + 1) * ns],
            &mut self.v[at * nv..(at + 1) * nv],
            m,
        ))
    }
    /// Copy block `b`'s in-state into `st`, the working state; false when
    /// it has none. The registers are not copied when they are a copy of
    /// `st`'s current ones (a block right after its only path in).
    fn load(&self, b: usize, st: &mut State) -> bool {
        let Some(m) = self.meta[b] else {
            return false;
        };
        if m.copy_of != self.version {
            let (ns, nv) = (self.ns, self.nv);
            st.s.copy_from_slice(&self.s[m.at * ns..(m.at + 1) * ns]);
            st.v.copy_from_slice(&self.v[m.at * nv..(m.at + 1) * nv]);
        }
        st.scc = m.scc;
        st.exec = m.exec;
        true
    }
    /// The working state's registers may have changed.
    fn bump(&mut self) {
        self.version += 1;
    }
}

/// Pending blocks by reverse-postorder position; the lowest goes first.
struct Worklist {
    bits: Vec<u64>,
    /// No set bit below word `low`.
    low: usize,
}

impl Worklist {
    fn new(n: usize) -> Worklist {
        Worklist {
            bits: vec![0; n.div_ceil(64).max(1)],
            low: 0,
        }
    }
    fn insert(&mut self, k: usize) {
        if let Some(w) = self.bits.get_mut(k / 64) {
            *w |= 1 << (k % 64);
            self.low = self.low.min(k / 64);
        }
    }
    fn pop_first(&mut self) -> Option<usize> {
        while self.low < self.bits.len() {
            let w = self.bits[self.low];
            if w != 0 {
                let b = w.trailing_zeros() as usize;
                self.bits[self.low] &= !(1 << b);
                return Some(self.low * 64 + b);
            }
            self.low += 1;
        }
        None
    }
}

/// A range of indices into one of the engine's per-line side tables.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    const EMPTY: Span = Span { start: 0, end: 0 };
    fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    fn range(self) -> core::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// What a line writes (see `Engine::fx`).
#[derive(Clone, Copy, Debug)]
struct Fx {
    /// The tracer's rule for it.
    rule: Rule,
    /// `isa`'s implicit accesses.
    imp: Implicit,
    /// Why what it writes is unknown (rules that know better override);
    /// its pc is the line's own.
    why: Why,
    /// Its defs, in `Engine::defs`.
    defs: Span,
    /// The VGPR ranges it reads, in `Engine::vuses`.
    vuses: Span,
    /// What kind of line it is, as far as exec and forgetting go.
    flags: FxFlags,
    /// Its index in `Engine::marked`, or [`NOMARK`].
    mark: u32,
    /// Its index in `Engine::lds_writes` (a line that may write LDS), or
    /// [`NOMARK`].
    lds: u32,
}

/// The yes/no facts of an [`Fx`], one bit each (a small per-line entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FxFlags(u8);

impl FxFlags {
    const NONE: FxFlags = FxFlags(0);
    /// It writes `exec_lo`.
    const EXEC_LO: u8 = 1;
    /// It writes `exec_hi`.
    const EXEC_HI: u8 = 1 << 1;
    /// The first operand (the rule's result) writes exec.
    const FIRST_EXEC: u8 = 1 << 2;
    /// Writes nothing the tracer keeps (`s_waitcnt`, `exp`, stores...).
    const NOOP: u8 = 1 << 3;
    /// Leaves exec alone and has no rule (or one that only applies to
    /// exec): everything it writes is forgotten (see
    /// `Engine::forget_writes`).
    const PLAIN: u8 = 1 << 4;

    #[inline]
    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
    #[inline]
    fn set(&mut self, bit: u8) {
        self.0 |= bit;
    }
}

/// `Fx::mark` of a line the output does not look at.
const NOMARK: u32 = u32::MAX;

/// One written register range.
#[derive(Clone, Copy, Debug)]
enum Def {
    V {
        start: u8,
        count: u8,
    },
    /// `first`: the instruction's first operand, written whole (the rule's
    /// values apply).
    S {
        code: u16,
        count: u8,
        first: bool,
    },
}

/// How many scalar registers a def of `code..code + count` writes: a lane
/// mask decoded as one SGPR (wave32 form) is a pair when the wave has 64
/// lanes.
#[inline]
fn scalar_def_count(s: &isa::Slot, code: u16, count: u8, wave32: bool) -> u8 {
    if isa::lane_mask_pair(s, !wave32) && count == 1 && (code < 124 || code == 126) {
        2
    } else {
        count
    }
}

/// Mark scalar codes `lo..hi` as tracked (those below 125: SGPRs, vcc,
/// ttmp, m0).
#[inline]
fn mark_used(used: &mut [bool; 128], lo: u16, hi: u16) {
    for c in lo..hi.min(125) {
        used[c as usize] = true;
    }
}

/// A `v_mov_b32` without modifiers (VOP1, or VOP3 without clamp, omod,
/// op_sel or source modifiers).
fn plain_copy(inst: &Instruction) -> bool {
    let mods_ok = match inst.mods {
        Modifiers::None => inst.family == Family::Vop1,
        Modifiers::Vop3(m) => !m.clamp && m.omod == 0 && !m.opsel_dst,
        _ => false,
    };
    mods_ok && inst.operands.as_slice().iter().all(|s| s.mods.is_empty())
}

/// Low half of `a + b` and the carry.
fn add_lo(a: SVal, b: SVal) -> (SVal, Scc) {
    match (a, b) {
        (x, y) if x.as_const().is_some() && y.as_const().is_some() => {
            let (s, c) = x
                .as_const()
                .unwrap_or(0)
                .overflowing_add(y.as_const().unwrap_or(0));
            (SVal::konst(s), Scc::Const(c))
        }
        (SVal::W(w), k) | (k, SVal::W(w)) if k.as_const().is_some() => {
            let c = k.as_const().unwrap_or(0);
            if c == 0 {
                (SVal::W(w), Scc::Const(false))
            } else if let Word::Code { offset, hi: false } = w {
                // low32(code + o) + c = low32(code + o + c): still a code
                // address half; the carry goes to a following s_addc_u32.
                (
                    SVal::W(Word::Code {
                        offset: offset.wrapping_add(c),
                        hi: false,
                    }),
                    Scc::Carry { base: w, add: c },
                )
            } else {
                (
                    SVal::AddLo { base: w, add: c },
                    Scc::Carry { base: w, add: c },
                )
            }
        }
        // A table index plus a constant (mod 2³², as the hardware adds).
        (SVal::Lin(ix), k) | (k, SVal::Lin(ix)) if k.as_const().is_some() => (
            SVal::lin(TableIndex {
                offset: ix.offset.wrapping_add(k.as_const().unwrap_or(0)),
                ..ix
            }),
            Scc::Unknown,
        ),
        _ => (SVal::Unknown, Scc::Unknown),
    }
}

/// Why a register written by an instruction without a rule is unknown.
fn generic_why(inst: &Instruction, imp: Implicit, partial: bool, pc: u32) -> Why {
    let kind = if imp.contains(Implicit::LDS) || inst.family == Family::Ds {
        WhyKind::Lds
    } else if imp.contains(Implicit::MEMORY) {
        WhyKind::Load
    } else if imp.contains(Implicit::CROSS_LANE) {
        WhyKind::CrossLane
    } else if partial {
        WhyKind::Partial
    } else {
        WhyKind::Other
    };
    Why::new(kind, pc)
}

/// Facts about exec state `from` become facts about `to` (both name the
/// same mask on the paths these registers describe).
fn rename_state(s: &mut [SVal], v: &mut [VRep], from: StateId, to: StateId) {
    for x in s.iter_mut() {
        match x {
            SVal::Snap { state, .. } | SVal::Sub { state, .. } if *state == from => *state = to,
            _ => {}
        }
    }
    for r in v.iter_mut() {
        if r.state == from {
            r.state = to;
        }
    }
}

/// Join one VGPR: `a` valid under exec `ta` on the paths seen so far, `c`
/// under `tc` on the arriving one; the merged exec is `r`.
fn join_rep(
    a: &VRep,
    ta: StateId,
    c: &VRep,
    tc: StateId,
    r: StateId,
    tree: &ExecTree,
    pc: u32,
) -> VRep {
    match (a.new, a.out, c.new, c.out) {
        (VVal::Unknown(an), VVal::Unknown(ao), VVal::Unknown(cn), VVal::Unknown(co)) => {
            join_unknown_reps([an, ao], a.state, ta, [cn, co], c.state, tc, r, tree)
        }
        _ => join_rep_values(a, ta, c, tc, r, tree, pc),
    }
}

/// [`join_rep`] in general.
fn join_rep_values(
    a: &VRep,
    ta: StateId,
    c: &VRep,
    tc: StateId,
    r: StateId,
    tree: &ExecTree,
    pc: u32,
) -> VRep {
    if a.state == c.state && a.state != FLAT {
        return VRep::layered(
            VVal::join(a.new, c.new, pc),
            a.state,
            VVal::join(a.out, c.out, pc),
        );
    }
    let out = VVal::join(a.any_lane(pc), c.any_lane(pc), pc);
    let inside = match (a.read(ta, tree, pc), c.read(tc, tree, pc)) {
        (Some(x), Some(y)) => Some(VVal::join(x, y, pc)),
        (x, y) => x.or(y),
    };
    match inside {
        Some(v) if r != EMPTY => VRep::layered(v, r, out),
        _ => VRep::flat(out),
    }
}

/// [`join_rep_values`] for two registers that hold unknowns in every lane
/// (`[new, out]` reasons), the common case: joining or mixing two unknowns
/// keeps the larger reason, so every step is a maximum of reasons.
#[allow(clippy::too_many_arguments)]
fn join_unknown_reps(
    [an, ao]: [Why; 2],
    sa: StateId,
    ta: StateId,
    [cn, co]: [Why; 2],
    sc: StateId,
    tc: StateId,
    r: StateId,
    tree: &ExecTree,
) -> VRep {
    let u = VVal::Unknown;
    if sa == sc && sa != FLAT {
        return VRep::layered(u(an.max(cn)), sa, u(ao.max(co)));
    }
    // `VRep::any_lane` and `VRep::read` on reasons.
    let any_lane = |n: Why, o: Why, s: StateId| if s == FLAT { n } else { n.max(o) };
    let read = |n: Why, o: Why, s: StateId, t: StateId| {
        if t == EMPTY {
            None
        } else if s == FLAT || tree.within(t, s) {
            Some(n)
        } else {
            Some(n.max(o))
        }
    };
    let out = any_lane(an, ao, sa).max(any_lane(cn, co, sc));
    let inside = match (read(an, ao, sa, ta), read(cn, co, sc, tc)) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    };
    match inside {
        Some(v) if r != EMPTY => VRep::layered(u(v), r, u(out)),
        _ => VRep::flat(u(out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of a few reasons, layer states and exec states
    /// over a small tree: the unknown-only join gives exactly what the
    /// general one gives.
    #[test]
    fn joining_unknowns_by_reason_matches_the_general_join() {
        const A: StateId = FIRST_DYN;
        const B: StateId = FIRST_DYN + 1;
        const C: StateId = FIRST_DYN + 2;
        let mut tree = ExecTree::new(8);
        assert!(!tree.set_parent(A, VL));
        assert!(!tree.set_parent(B, A));
        assert!(!tree.set_parent(C, NONE));
        let whys = [
            Why::new(WhyKind::Entry, 0),
            Why::new(WhyKind::Other, 8),
            Why::new(WhyKind::Lds, 12),
            Why::new(WhyKind::Lds, 16),
        ];
        let mut reps = Vec::new();
        for s in [FLAT, ALL, ENTRY, VL, A, B, C] {
            for n in whys {
                for o in whys {
                    reps.push(VRep::layered(VVal::Unknown(n), s, VVal::Unknown(o)));
                }
            }
        }
        let execs = [EMPTY, ENTRY, VL, A, B, C];
        let mut checked = 0usize;
        for a in &reps {
            for c in &reps {
                for ta in execs {
                    for tc in execs {
                        for r in [EMPTY, B, C] {
                            let general = join_rep_values(a, ta, c, tc, r, &tree, 40);
                            assert_eq!(
                                join_rep(a, ta, c, tc, r, &tree, 40),
                                general,
                                "a {a:?} ta {ta} c {c:?} tc {tc} r {r}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000);
    }
}
