//! The abstract domain: scalar values, VGPR values with the exec state they
//! were written under, and the tree of exec states.
//!
//! # Exec states
//!
//! An exec state names one exec mask. The constants are [`EMPTY`] (no lane),
//! [`ALL`] (every lane, `exec = -1`), [`ENTRY`] (the mask the wave starts
//! with) and [`VL`] (the lanes the hardware gave a vertex). Every other
//! state is allocated per instruction that writes exec, or per block where
//! predecessors arrive with different masks, and names the mask that the
//! most recent execution of that instruction (or entry into that block)
//! produced on the path taken.
//!
//! [`ExecTree`] records, for each state, a parent that contains it: `T ⊆ S`
//! is known when `S` is `T` or an ancestor of `T`. Re-creating a state (a
//! loop coming round) first forgets every fact that names it or one of its
//! descendants, so a fact always refers to the newest mask of its state and
//! the parent relation holds between newest masks on every path.

use crate::source::{Id, TableIndex, Word};

/// An exec state (see the module docs).
pub(crate) type StateId = u32;
/// No lane is active.
pub(crate) const EMPTY: StateId = 0;
/// Every lane of the wave (`exec = -1`).
pub(crate) const ALL: StateId = 1;
/// The exec mask the wave starts with.
pub(crate) const ENTRY: StateId = 2;
/// The lanes the hardware gave a vertex.
pub(crate) const VL: StateId = 3;
/// The first allocated state.
pub(crate) const FIRST_DYN: StateId = 4;
/// A [`VRep`] without a layer: every lane holds `new`.
pub(crate) const FLAT: StateId = u32::MAX;
/// No parent (no containing state is known).
pub(crate) const NONE: StateId = u32::MAX;
const UNSET: StateId = u32::MAX - 1;
/// Ancestor chains longer than this are cut (treated as "not known").
const MAX_DEPTH: usize = 256;

/// Why a VGPR value is unknown, ordered by how much it tells a reader
/// (the join of two unknowns keeps the larger).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum WhyKind {
    /// The register held no id when the wave started.
    Entry,
    /// Written by an instruction without a rule.
    Other,
    /// Written through a partial write (SDWA, DPP, d16).
    Partial,
    /// A loop changed it on every round (widening).
    Widen,
    /// Paths with different values meet.
    Join,
    /// Read under an exec mask wider than the one it was written under.
    Mixed,
    /// Written by an instruction that moves data between lanes.
    CrossLane,
    /// Written by an instruction the tracer cannot follow.
    Havoc,
    /// Loaded from memory.
    Load,
    /// The entry id, read while exec may include lanes without a vertex.
    Lanes,
    /// Read back from LDS.
    Lds,
    /// (Output only.) Read back from LDS that an unplaced write may reach.
    LdsUnplaced,
    /// (Output only.) Read back from LDS that a write of another value
    /// reaches.
    LdsOther,
    /// (Output only.) Read back from LDS that a write overlaps in part.
    LdsPartial,
    /// (Output only.) Read back from LDS that no write reaches.
    LdsUnwritten,
    /// (Output only.) An id + word from LDS plus another word.
    LdsTwoWords,
    /// (Output only.) A number, not an id.
    NotId,
}

/// A reason, with the pc it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Why {
    pub kind: WhyKind,
    pub pc: u32,
}

impl Why {
    pub(crate) const fn new(kind: WhyKind, pc: u32) -> Why {
        Why { kind, pc }
    }
}

/// A VGPR value in one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum VVal {
    Id(Id),
    IdPlus(Id, Word),
    /// An unsigned number with the same bounds in every lane (an LDS
    /// address, a lane count).
    Num(Num),
    /// The dword an LDS read of read class `k` (the engine's interned
    /// address sets) returned, or, when `Some(id)`, on some paths that id
    /// itself (a join of the id and the value read back).
    Lds(u16, Option<Id>),
    /// That value plus a uniform word.
    LdsPlus(u16, Option<Id>, Word),
    Unknown(Why),
}

impl VVal {
    /// The least value both `a` and `b` are: equal values stay, an unknown
    /// keeps its reason, two different knowns give `Unknown(Join at pc)`.
    #[inline]
    pub(crate) fn join(a: VVal, b: VVal, pc: u32) -> VVal {
        // Two unknowns first: the common case, and equal ones give the same.
        if let (VVal::Unknown(x), VVal::Unknown(y)) = (a, b) {
            return VVal::Unknown(x.max(y));
        }
        if a == b {
            return a;
        }
        match (a, b) {
            (VVal::Unknown(x), _) | (_, VVal::Unknown(x)) => VVal::Unknown(x),
            (VVal::Num(x), VVal::Num(y)) => VVal::Num(x.hull(y)),
            (x, y) => match lds_or_id(x, y).or_else(|| lds_or_id(y, x)) {
                Some(v) => v,
                None => VVal::Unknown(Why::new(WhyKind::Join, pc)),
            },
        }
    }

    /// What lanes holding either value see, when the mix comes from an
    /// exec mask (lanes written and lanes not written): like [`VVal::join`]
    /// but a disagreement is blamed on the mask.
    #[inline]
    pub(crate) fn mix(new: VVal, out: VVal, pc: u32) -> VVal {
        if let (VVal::Unknown(x), VVal::Unknown(y)) = (new, out) {
            return VVal::Unknown(x.max(y));
        }
        if new == out {
            return new;
        }
        match (new, out) {
            (VVal::Unknown(x), _) => VVal::Unknown(x),
            (_, VVal::Unknown(y)) if y.kind >= WhyKind::Load => VVal::Unknown(y),
            // Each lane holds one of two numbers: it lies in their hull.
            (VVal::Num(x), VVal::Num(y)) => VVal::Num(x.hull(y)),
            _ => VVal::Unknown(Why::new(WhyKind::Mixed, pc)),
        }
    }

    pub(crate) fn is_known(&self) -> bool {
        !matches!(self, VVal::Unknown(_))
    }
}

/// An unsigned 32-bit number the same way in every lane: `lo ≤ v ≤ hi`
/// and `v ≡ r (mod m)` (`m == 1`: no congruence; `lo == hi`: exactly
/// `lo`). Every operation checks that no 32-bit wrap can happen (a wrap
/// breaks the congruence: 2³² ≢ 0 mod most strides) and gives `None`
/// when one could.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Num {
    pub lo: u32,
    pub hi: u32,
    pub m: u16,
    pub r: u16,
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Num {
    /// Exactly `v`.
    pub(crate) const fn konst(v: u32) -> Num {
        Num {
            lo: v,
            hi: v,
            m: 1,
            r: 0,
        }
    }
    /// Any value in `lo..=hi`.
    pub(crate) const fn range(lo: u32, hi: u32) -> Num {
        Num { lo, hi, m: 1, r: 0 }
    }
    /// Exactly one value.
    pub(crate) const fn is_exact(&self) -> bool {
        self.lo == self.hi
    }
    /// The congruence as `(modulus, residue)` where an exact value has
    /// modulus 0 (`v ≡ lo (mod 0)` means `v == lo`).
    fn cong(&self) -> (u64, u64) {
        if self.is_exact() {
            (0, self.lo as u64)
        } else {
            (self.m as u64, self.r as u64)
        }
    }
    /// From bounds and a congruence `(modulus, residue)` (modulus 0:
    /// none known beyond the bounds); a modulus past 16 bits is dropped
    /// to its largest factor that fits among `fallback` (or 1).
    fn build(lo: u64, hi: u64, m: u64, r: u64, fallback: u64) -> Option<Num> {
        if hi > u32::MAX as u64 || lo > hi {
            return None;
        }
        let (m, r) = if m == 0 || lo == hi {
            (1, 0)
        } else if m <= u16::MAX as u64 {
            (m, r % m)
        } else if fallback > 1 && fallback <= u16::MAX as u64 && m.is_multiple_of(fallback) {
            (fallback, r % fallback)
        } else {
            (1, 0)
        };
        Some(Num {
            lo: lo as u32,
            hi: hi as u32,
            m: m as u16,
            r: r as u16,
        })
    }
    /// `v` may be a value of `self`.
    pub(crate) fn contains(&self, v: u64) -> bool {
        v >= self.lo as u64
            && v <= self.hi as u64
            && (self.is_exact() || v % self.m as u64 == self.r as u64)
    }
    /// `a + b` for every pair; `None` when it may pass 32 bits.
    pub(crate) fn add(self, b: Num) -> Option<Num> {
        let (ma, ra) = self.cong();
        let (mb, rb) = b.cong();
        let m = gcd(ma, mb);
        let r = if m == 0 { 0 } else { (ra + rb) % m };
        Num::build(
            self.lo as u64 + b.lo as u64,
            self.hi as u64 + b.hi as u64,
            m,
            r,
            0,
        )
    }
    /// `a · b` for every pair; `None` when it may pass 32 bits.
    pub(crate) fn mul(self, b: Num) -> Option<Num> {
        let lo = self.lo as u64 * b.lo as u64;
        let hi = self.hi as u64 * b.hi as u64;
        let (x, k) = if b.is_exact() {
            (self, b.lo as u64)
        } else if self.is_exact() {
            (b, self.lo as u64)
        } else {
            return Num::build(lo, hi, 0, 0, 0);
        };
        let (m, r) = x.cong();
        // k·v ≡ k·r (mod k·m); and always ≡ 0 (mod k).
        Num::build(lo, hi, m * k, r * k, k)
    }
    /// Each lane holds a value of `self` or of `b`.
    pub(crate) fn hull(self, b: Num) -> Num {
        let (ma, ra) = self.cong();
        let (mb, rb) = b.cong();
        let m = gcd(gcd(ma, mb), ra.abs_diff(rb));
        let lo = self.lo.min(b.lo) as u64;
        let hi = self.hi.max(b.hi) as u64;
        Num::build(lo, hi, m, if m == 0 { 0 } else { ra % m }, 0)
            .unwrap_or(Num::range(lo as u32, hi as u32))
    }
}

/// Paths where a register holds an id (+ word) meeting paths where it
/// holds a value read back from LDS (+ the same word): the LDS value that
/// may also be that id (the resolution checks the class holds it).
fn lds_or_id(x: VVal, y: VVal) -> Option<VVal> {
    match (x, y) {
        (VVal::Id(a), VVal::Lds(k, None)) => Some(VVal::Lds(k, Some(a))),
        (VVal::Id(a), VVal::Lds(_, Some(b))) if a == b => Some(y),
        (VVal::IdPlus(a, w), VVal::LdsPlus(k, None, v)) if w == v => {
            Some(VVal::LdsPlus(k, Some(a), w))
        }
        (VVal::IdPlus(a, w), VVal::LdsPlus(_, Some(b), v)) if w == v && a == b => Some(y),
        (VVal::Lds(k, a), VVal::Lds(l, b)) if k == l && (a.is_none() || b.is_none()) => {
            Some(VVal::Lds(k, a.or(b)))
        }
        (VVal::LdsPlus(k, a, w), VVal::LdsPlus(l, b, v))
            if k == l && w == v && (a.is_none() || b.is_none()) =>
        {
            Some(VVal::LdsPlus(k, a.or(b), w))
        }
        _ => None,
    }
}

/// A VGPR: lanes in exec state `state` hold `new`, the other lanes `out`
/// (`state == FLAT`: every lane holds `new`, and `out == new`). Built only
/// by [`VRep::flat`] and [`VRep::layered`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct VRep {
    pub new: VVal,
    pub state: StateId,
    pub out: VVal,
}

impl VRep {
    #[inline]
    pub(crate) const fn flat(v: VVal) -> VRep {
        VRep {
            new: v,
            state: FLAT,
            out: v,
        }
    }

    /// A layered value, normalised (equal halves or `ALL` give a flat one).
    #[inline]
    pub(crate) fn layered(new: VVal, state: StateId, out: VVal) -> VRep {
        if state == ALL || state == FLAT || new == out {
            VRep::flat(new)
        } else {
            VRep { new, state, out }
        }
    }

    /// What any lane may hold.
    #[inline]
    pub(crate) fn any_lane(&self, pc: u32) -> VVal {
        if self.state == FLAT {
            self.new
        } else {
            VVal::mix(self.new, self.out, pc)
        }
    }

    /// What the lanes of exec state `t` read; `None` when `t` is empty
    /// (nobody reads).
    #[inline]
    pub(crate) fn read(&self, t: StateId, tree: &ExecTree, pc: u32) -> Option<VVal> {
        if t == EMPTY {
            return None;
        }
        if self.state == FLAT || tree.within(t, self.state) {
            Some(self.new)
        } else {
            Some(VVal::mix(self.new, self.out, pc))
        }
    }

    /// The register after the lanes of exec state `t` write `w`.
    #[inline]
    pub(crate) fn write(&self, t: StateId, w: VVal, tree: &ExecTree, pc: u32) -> VRep {
        if t == EMPTY {
            return *self;
        }
        let out = if self.state == FLAT {
            self.new
        } else if tree.within(self.state, t) {
            // The old layer lies inside t: lanes outside t are outside it.
            self.out
        } else {
            VVal::mix(self.new, self.out, pc)
        };
        VRep::layered(w, t, out)
    }
}

/// A 32-bit scalar register value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SVal {
    Unknown,
    /// A traced word (never `Word::Unknown`).
    W(Word),
    /// The entry value of merged_wave_info.
    Mwi,
    /// A half of `s_bfm_b64(merged_wave_info, 0)`.
    BfmMwi {
        hi: bool,
    },
    /// A half of a copy of the exec mask of `state`.
    Snap {
        state: StateId,
        hi: bool,
    },
    /// A half of a lane mask that is a subset of the exec mask of `state`
    /// (a `v_cmp` result written under it, or an `s_and` with such a
    /// mask): no lane outside `state` is set.
    Sub {
        state: StateId,
        hi: bool,
    },
    /// A number (see [`Num`]); constants stay `W(Const)`.
    N(Num),
    /// `base + add` as the low half of a 64-bit sum (see `Scc::Carry`).
    AddLo {
        base: Word,
        add: u32,
    },
    /// The high half of a 64-bit pointer sum, interned (internal pointer id).
    AddHi {
        ptr: u16,
    },
    /// `(word · scale + offset) mod 2³²` of a traced word (a table index
    /// in bytes, see [`TableIndex`]); never with scale 1 and offset 0
    /// (that is `W(word)`).
    Lin(TableIndex),
}

impl SVal {
    /// `self == other`, written out so that it inlines into the joins
    /// (which compare every scalar register); exhaustive in `self`, so a
    /// new variant must be added here too.
    #[inline]
    pub(crate) fn same(self, other: SVal) -> bool {
        match self {
            SVal::Unknown => matches!(other, SVal::Unknown),
            SVal::W(x) => matches!(other, SVal::W(y) if x == y),
            SVal::Mwi => matches!(other, SVal::Mwi),
            SVal::BfmMwi { hi } => matches!(other, SVal::BfmMwi { hi: h } if hi == h),
            SVal::Snap { state, hi } => {
                matches!(other, SVal::Snap { state: s, hi: h } if state == s && hi == h)
            }
            SVal::AddLo { base, add } => {
                matches!(other, SVal::AddLo { base: b, add: a } if base == b && add == a)
            }
            SVal::AddHi { ptr } => matches!(other, SVal::AddHi { ptr: p } if ptr == p),
            SVal::Sub { state, hi } => {
                matches!(other, SVal::Sub { state: s, hi: h } if state == s && hi == h)
            }
            SVal::N(x) => matches!(other, SVal::N(y) if x == y),
            SVal::Lin(x) => matches!(other, SVal::Lin(y) if x == y),
        }
    }
    #[inline]
    pub(crate) const fn konst(c: u32) -> SVal {
        SVal::W(Word::Const { value: c })
    }
    #[inline]
    pub(crate) fn as_const(&self) -> Option<u32> {
        match self {
            SVal::W(Word::Const { value }) => Some(*value),
            _ => None,
        }
    }
    /// The value as a [`Num`]: a constant or a bounded number.
    #[inline]
    pub(crate) fn as_num(&self) -> Option<Num> {
        match self {
            SVal::W(Word::Const { value }) => Some(Num::konst(*value)),
            SVal::N(n) => Some(*n),
            _ => None,
        }
    }
    /// A number, as a constant when it is one.
    #[inline]
    pub(crate) fn num(n: Num) -> SVal {
        if n.lo == n.hi {
            SVal::konst(n.lo)
        } else {
            SVal::N(n)
        }
    }
    /// The exec state this mask half is known to lie in, if any.
    #[inline]
    pub(crate) fn mask_within(&self) -> Option<(StateId, bool)> {
        match *self {
            SVal::Snap { state, hi } | SVal::Sub { state, hi } => Some((state, hi)),
            _ => None,
        }
    }
    /// The value as an affine function of one traced word the bind plan
    /// evaluates (user data or a table word): `W(w)` is `w · 1 + 0`.
    #[inline]
    pub(crate) fn as_lin(&self) -> Option<TableIndex> {
        match *self {
            SVal::W(w @ (Word::UserData { .. } | Word::TableWord { .. })) => Some(TableIndex {
                word: w,
                scale: 1,
                offset: 0,
            }),
            SVal::AddLo {
                base: w @ (Word::UserData { .. } | Word::TableWord { .. }),
                add,
            } => Some(TableIndex {
                word: w,
                scale: 1,
                offset: add,
            }),
            SVal::Lin(ix) => Some(ix),
            _ => None,
        }
    }
    /// An affine value, as the plain word when it is one.
    #[inline]
    pub(crate) fn lin(ix: TableIndex) -> SVal {
        if ix.scale == 1 && ix.offset == 0 {
            SVal::W(ix.word)
        } else {
            SVal::Lin(ix)
        }
    }
    #[inline]
    pub(crate) fn as_word(&self) -> Word {
        match self {
            SVal::W(w) => *w,
            _ => Word::Unknown,
        }
    }
}

/// The scalar condition code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Scc {
    Unknown,
    Const(bool),
    /// Bit 6 of merged_wave_info (set: the wave has 64 vertices), negated
    /// when `neg`.
    Mwi64 {
        neg: bool,
    },
    /// The carry out of `base + add` (32 bits).
    Carry {
        base: Word,
        add: u32,
    },
}

/// The abstract machine state at one program point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// Scalar registers, densely numbered (see the engine's register map).
    pub s: Vec<SVal>,
    pub scc: Scc,
    /// The current exec state.
    pub exec: StateId,
    /// VGPRs `v0..`.
    pub v: Vec<VRep>,
}

/// Parents of exec states (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct ExecTree {
    parent: Vec<StateId>,
    /// States created at least once in the current run.
    created: Vec<bool>,
}

impl ExecTree {
    /// A tree for `n` states; [`ENTRY`] and [`VL`] lie in [`ALL`].
    pub(crate) fn new(n: usize) -> ExecTree {
        let n = n.max(FIRST_DYN as usize);
        let mut parent = vec![UNSET; n];
        parent[EMPTY as usize] = NONE;
        parent[ALL as usize] = NONE;
        parent[ENTRY as usize] = ALL;
        parent[VL as usize] = ALL;
        let mut created = vec![false; n];
        for c in created.iter_mut().take(FIRST_DYN as usize) {
            *c = true;
        }
        ExecTree { parent, created }
    }

    /// Start a new run: parents stay (they only grow coarser), the created
    /// marks are cleared.
    pub(crate) fn new_run(&mut self) {
        for (i, c) in self.created.iter_mut().enumerate() {
            *c = i < FIRST_DYN as usize;
        }
    }

    #[inline]
    fn parent_of(&self, s: StateId) -> StateId {
        match self.parent.get(s as usize) {
            Some(&p) if p != UNSET => p,
            _ => NONE,
        }
    }

    /// `t ⊆ s` is known.
    #[inline]
    pub(crate) fn within(&self, t: StateId, s: StateId) -> bool {
        if t == s || t == EMPTY {
            return true;
        }
        if s == EMPTY || s == NONE {
            return false;
        }
        let mut x = t;
        for _ in 0..MAX_DEPTH {
            x = self.parent_of(x);
            if x == s {
                return true;
            }
            if x == NONE {
                return false;
            }
        }
        false
    }

    /// The nearest state known to contain both `a` and `b`, or [`NONE`].
    pub(crate) fn nca(&self, a: StateId, b: StateId) -> StateId {
        if a == NONE || b == NONE {
            return NONE;
        }
        if self.within(a, b) {
            return b;
        }
        if self.within(b, a) {
            return a;
        }
        let mut x = b;
        for _ in 0..MAX_DEPTH {
            x = self.parent_of(x);
            if x == NONE {
                return NONE;
            }
            if self.within(a, x) {
                return x;
            }
        }
        NONE
    }

    /// A container of `p` that is not in `s`'s subtree: `p` itself, or
    /// `s`'s parent when `p ⊆ s` (a loop narrowing inside its own
    /// previous result).
    pub(crate) fn lift(&self, p: StateId, s: StateId) -> StateId {
        if p != EMPTY && p != NONE && self.within(p, s) {
            self.parent_of(s)
        } else {
            p
        }
    }

    /// Record that `s` (re-)created lies in `p`. Returns true when `s`
    /// already had a parent and it had to become coarser: facts derived
    /// with the old parent may be wrong and the run must restart.
    pub(crate) fn set_parent(&mut self, s: StateId, p: StateId) -> bool {
        let Some(&cur) = self.parent.get(s as usize) else {
            return false;
        };
        if cur == UNSET {
            self.parent[s as usize] = p;
            return false;
        }
        if cur == p || cur == NONE {
            return false;
        }
        let n = self.nca(cur, p);
        if n != cur {
            self.parent[s as usize] = n;
            return true;
        }
        false
    }

    /// Mark `s` created; returns whether it had been created before in this
    /// run (then facts about its previous mask must be forgotten).
    pub(crate) fn create(&mut self, s: StateId) -> bool {
        match self.created.get_mut(s as usize) {
            Some(c) => core::mem::replace(c, true),
            None => false,
        }
    }
}

impl State {
    /// Forget every fact about exec state `p` or states inside it: layers
    /// collapse to the mix of both halves, snapshots become unknown.
    pub(crate) fn kill(&mut self, p: StateId, tree: &ExecTree, pc: u32) {
        kill_parts(&mut self.s, &mut self.v, p, tree, pc);
    }
}

/// [`State::kill`] on a state's register arrays.
pub(crate) fn kill_parts(s: &mut [SVal], v: &mut [VRep], p: StateId, tree: &ExecTree, pc: u32) {
    for r in v.iter_mut() {
        *r = killed_vrep(*r, p, tree, pc);
    }
    for x in s.iter_mut() {
        *x = killed_sval(*x, p, tree);
    }
}

/// A VGPR with the facts about `p` or states inside it forgotten.
#[inline]
pub(crate) fn killed_vrep(r: VRep, p: StateId, tree: &ExecTree, pc: u32) -> VRep {
    if r.state != FLAT && tree.within(r.state, p) {
        VRep::flat(VVal::mix(r.new, r.out, pc))
    } else {
        r
    }
}

/// A scalar with a snapshot of `p` or a state inside it forgotten.
#[inline]
pub(crate) fn killed_sval(x: SVal, p: StateId, tree: &ExecTree) -> SVal {
    match x {
        SVal::Snap { state, .. } | SVal::Sub { state, .. }
            if state != EMPTY && tree.within(state, p) =>
        {
            SVal::Unknown
        }
        x => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: StateId = FIRST_DYN;
    const B: StateId = FIRST_DYN + 1;
    const C: StateId = FIRST_DYN + 2;

    fn tree() -> ExecTree {
        // VL ⊇ A ⊇ B; C unrelated.
        let mut t = ExecTree::new(8);
        assert!(!t.set_parent(A, VL));
        assert!(!t.set_parent(B, A));
        assert!(!t.set_parent(C, NONE));
        t
    }

    #[test]
    fn containment_follows_parents_and_empty_is_inside_everything() {
        let t = tree();
        assert!(t.within(B, VL) && t.within(B, A) && t.within(A, ALL));
        assert!(!t.within(A, B) && !t.within(C, VL) && !t.within(ENTRY, VL));
        assert!(t.within(EMPTY, C) && !t.within(C, EMPTY));
        assert_eq!(t.nca(B, VL), VL);
        assert_eq!(t.nca(B, ENTRY), ALL);
        assert_eq!(t.nca(B, C), NONE);
    }

    #[test]
    fn a_coarser_parent_asks_for_a_restart() {
        let mut t = tree();
        assert!(!t.set_parent(B, A), "same parent");
        assert!(!t.set_parent(B, B), "narrower claim keeps the parent");
        assert!(
            t.set_parent(B, ENTRY),
            "B in A and in ENTRY: only ALL holds both"
        );
        assert!(t.within(B, ALL) && !t.within(B, A));
    }

    #[test]
    fn lift_moves_a_parent_out_of_the_state_it_would_contain() {
        let t = tree();
        assert_eq!(t.lift(B, A), VL, "B lies in A: A's parent instead");
        assert_eq!(t.lift(C, A), C);
    }

    #[test]
    fn masked_write_is_seen_inside_and_mixed_outside() {
        let t = tree();
        let id = VVal::Id(Id::VertexId);
        let zero = VVal::Unknown(Why::new(WhyKind::Other, 4));
        let r = VRep::flat(zero).write(A, id, &t, 8);
        assert_eq!(r.read(A, &t, 12), Some(id));
        assert_eq!(r.read(B, &t, 12), Some(id));
        assert_eq!(
            r.read(VL, &t, 12),
            Some(VVal::Unknown(Why::new(WhyKind::Mixed, 12)))
        );
        assert_eq!(r.read(EMPTY, &t, 12), None);
        // Writing under EMPTY changes nothing; under ALL every lane.
        assert_eq!(r.write(EMPTY, zero, &t, 16), r);
        assert_eq!(r.write(ALL, zero, &t, 16), VRep::flat(zero));
    }

    #[test]
    fn entry_id_is_valid_only_inside_the_vertex_lanes() {
        let t = tree();
        let lanes = VVal::Unknown(Why::new(WhyKind::Lanes, 0));
        let v5 = VRep::layered(VVal::Id(Id::VertexId), VL, lanes);
        assert_eq!(v5.read(B, &t, 4), Some(VVal::Id(Id::VertexId)));
        assert_eq!(v5.read(ENTRY, &t, 4), Some(lanes));
        assert_eq!(v5.read(C, &t, 4), Some(lanes));
    }

    #[test]
    fn numbers_keep_their_stride_through_products_and_sums() {
        let lane = Num::range(0, 64);
        let rec = lane.mul(Num::konst(28)).expect("no wrap");
        assert_eq!((rec.lo, rec.hi, rec.m, rec.r), (0, 1792, 28, 0));
        let at = rec.add(Num::konst(20)).expect("no wrap");
        assert_eq!((at.lo, at.hi, at.m, at.r), (20, 1812, 28, 20));
        assert!(at.contains(20 + 28 * 7) && !at.contains(21 + 28 * 7));
        // A shift is a product by a power of two.
        let sh = Num::range(0, 15).mul(Num::konst(64)).expect("no wrap");
        assert_eq!((sh.m, sh.r), (64, 0));
        // Sums of two strides keep their gcd.
        let s = sh.add(rec).expect("no wrap");
        assert_eq!((s.m, s.r), (4, 0));
        // Either of two numbers: the hull, with the stride they share.
        let h = Num::konst(0).hull(Num::konst(28));
        assert_eq!((h.lo, h.hi, h.m, h.r), (0, 28, 28, 0));
    }

    #[test]
    fn a_product_or_sum_that_may_wrap_is_refused() {
        // 28 · (2^30 − 1) passes 2^32, and 2^32 ≡ 4 (mod 28): a wrap would
        // leave the class, so the product is not a number at all.
        assert_eq!(Num::range(0, (1 << 30) - 1).mul(Num::konst(28)), None);
        assert_eq!(Num::range(0, u32::MAX).add(Num::konst(1)), None);
        // Just below the wrap it is kept.
        assert!(Num::range(0, u32::MAX / 28).mul(Num::konst(28)).is_some());
    }

    #[test]
    fn an_id_meeting_its_lds_copy_is_the_lds_value_that_may_be_the_id() {
        let id = VVal::Id(Id::VertexId);
        let lds = VVal::Lds(3, None);
        assert_eq!(VVal::join(id, lds, 4), VVal::Lds(3, Some(Id::VertexId)));
        assert_eq!(VVal::join(lds, id, 4), VVal::Lds(3, Some(Id::VertexId)));
        // Negative controls: another id, another word.
        let other = VVal::Lds(3, Some(Id::InstanceId));
        assert!(!VVal::join(id, other, 4).is_known());
        let plus = VVal::IdPlus(Id::VertexId, Word::ud(1));
        let lplus = VVal::LdsPlus(3, None, Word::ud(2));
        assert!(!VVal::join(plus, lplus, 4).is_known());
    }

    #[test]
    fn kill_collapses_layers_and_snapshots_inside_the_state() {
        let t = tree();
        let id = VVal::Id(Id::InstanceId);
        let mut st = State {
            s: vec![
                SVal::Snap {
                    state: B,
                    hi: false,
                },
                SVal::Snap {
                    state: VL,
                    hi: false,
                },
                SVal::Sub { state: B, hi: true },
                SVal::Sub {
                    state: VL,
                    hi: true,
                },
            ],
            scc: Scc::Unknown,
            exec: B,
            v: vec![VRep::layered(
                id,
                B,
                VVal::Unknown(Why::new(WhyKind::Entry, 0)),
            )],
        };
        st.kill(A, &t, 20);
        assert_eq!(st.s[0], SVal::Unknown);
        assert_eq!(
            st.s[1],
            SVal::Snap {
                state: VL,
                hi: false
            }
        );
        assert_eq!(st.s[2], SVal::Unknown, "a mask inside B is forgotten");
        assert_eq!(
            st.s[3],
            SVal::Sub {
                state: VL,
                hi: true
            }
        );
        assert_eq!(st.v[0].state, FLAT);
        assert!(!st.v[0].new.is_known());
    }
}
