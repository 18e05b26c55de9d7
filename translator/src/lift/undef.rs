//! Registers undefined on some paths into a loop head (or a join).
//!
//! A VGPR the entry ABI does not define starts as an unsupported value
//! (`state.rs`). ACO reads such a register through a phi when the value is
//! only used on the paths that define it: the register's contents on the
//! other paths are unspecified to the program. At a forward join the lifter
//! passes 0 on the undefined edges as it meets them (`blocks.rs`); at a
//! loop head the back edges are not known yet, so the entry edge carries
//! the unsupported value, and so does a join every edge of which carries
//! it. [`settle`] then decides, per undefined register, after lifting:
//!
//! - it *proves* that the value is never *demanded* where it reaches the
//!   block parameters it flows into, and then passes 0 on those edges
//!   instead (any value is a correct choice there);
//! - otherwise it changes nothing: the unsupported value stays live and
//!   the translation is refused naming the register's first reader.
//!
//! The proof is a forward taint analysis over the IR: the undefined value
//! is tainted in every lane and bit; a taint is the set of lanes
//! it may reach, as literals (`c == true/false` for boolean values: the
//! lanes where all of them hold), and the bits it may reach. `select(c, a,
//! b)` keeps `a`'s taint in lanes where `c` holds and `b`'s where it does
//! not, so a VALU write under EXEC (`select(exec, new, old)`) confines an
//! old tainted value to the inactive lanes; an edge of a branch on `c`
//! carries only the lanes where `c` went that way; masks and constant
//! shifts move bits (a 16-bit write keeps the other half, which a later
//! read of its own half never sees); arithmetic smears them upward; every
//! other operation taints its whole result, and an operation across lanes
//! taints every lane. A value is demanded when an effect uses it (its
//! address, data or anything else) in a lane its condition enables, when
//! a branch or an effect's condition depends on it at all. Literals name
//! SSA values, which a loop recomputes each iteration: a taint crossing a
//! back edge forgets the literals defined in that loop.
//!
//! Negative controls (`wave::ComputeFaults`): `undefined_join_zeroes_defined`
//! passes 0 on the defined edges too (here and at the lifter's forward
//! joins), `undefined_never_demanded` skips the proof.

use crate::ir::{Bin, Block, Effect, Func, ICmp, LaneOp, Load, Op, Term, Tri, Un, Value};
use std::collections::{HashMap, HashSet};

/// A literal: the lanes where a boolean value equals the flag.
type Lit = (Value, bool);

/// Where a value may differ from the program's: lanes (all literals hold)
/// and bits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Taint {
    lits: Vec<Lit>,
    bits: u32,
}

const ALL: u32 = u32::MAX;

fn join(a: &Option<Taint>, b: &Option<Taint>) -> Option<Taint> {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(a), Some(b)) => Some(Taint {
            lits: a
                .lits
                .iter()
                .filter(|l| b.lits.contains(l))
                .copied()
                .collect(),
            bits: a.bits | b.bits,
        }),
    }
}

/// What [`settle`] may be told to break (negative controls).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct UndefFaults {
    /// Pass 0 on every edge into a seeded parameter, defined or not.
    pub(super) zeroes_defined: bool,
    /// Accept without the proof.
    pub(super) never_demanded: bool,
}

struct Proof<'a> {
    f: &'a Func,
    /// The block defining each value (constants and inputs: none).
    def_block: Vec<Option<u32>>,
}

impl Proof<'_> {
    /// `(v, pol)` with `BNot`s taken off.
    fn norm(&self, mut v: Value, mut pol: bool) -> Lit {
        for _ in 0..16 {
            match self.f.inst(v).op {
                Op::Un(Un::BNot, x) => {
                    v = x;
                    pol = !pol;
                }
                _ => break,
            }
        }
        (v, pol)
    }

    /// Do `a` and `b` compute the same value (the same pure operations of
    /// the same values; the lifter makes a lane's mask bit anew at each
    /// EXEC write)?
    fn same(&self, a: Value, b: Value, depth: u32) -> bool {
        if a == b {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let (ia, ib) = (self.f.inst(a), self.f.inst(b));
        if ia.ty != ib.ty {
            return false;
        }
        let d = depth - 1;
        match (ia.op, ib.op) {
            (Op::Const(x), Op::Const(y)) => x == y,
            (Op::Input(x), Op::Input(y)) => x == y,
            (Op::Un(o, x), Op::Un(p, y)) => o == p && self.same(x, y, d),
            (Op::Bin(o, x1, x2), Op::Bin(p, y1, y2)) => {
                o == p && self.same(x1, y1, d) && self.same(x2, y2, d)
            }
            (Op::Tri(o, x1, x2, x3), Op::Tri(p, y1, y2, y3)) => {
                o == p && self.same(x1, y1, d) && self.same(x2, y2, d) && self.same(x3, y3, d)
            }
            _ => false,
        }
    }

    /// Is `w` a ballot of a bit that `g` implies (one word of it, or the
    /// two words or'ed)?
    fn ballot_of(&self, g: Lit, w: Value, depth: u32) -> bool {
        match self.f.inst(w).op {
            Op::Bin(Bin::Or, a, b) => self.ballot_of(g, a, depth) || self.ballot_of(g, b, depth),
            Op::Load(i) => match self.f.loads[i as usize] {
                Load::Lanes(_, LaneOp::Ballot { bit, .. }) => self.implies(g, (bit, true), depth),
                _ => false,
            },
            _ => false,
        }
    }

    /// Does `g` (holding) imply `t`?
    fn implies(&self, g: Lit, t: Lit, depth: u32) -> bool {
        let (x, p) = self.norm(g.0, g.1);
        let t = self.norm(t.0, t.1);
        if p == t.1 && self.same(x, t.0, 12) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        // A lane whose bit is set makes its wave's ballot of it non-zero.
        if let (Op::Bin(Bin::ICmp(ICmp::Ne), w, z), true) = (self.f.inst(t.0).op, t.1) {
            if self.f.konst(z) == Some(0) && self.ballot_of((x, p), w, depth - 1) {
                return true;
            }
        }
        match (self.f.inst(x).op, p) {
            (Op::Bin(Bin::BAnd, a, b), true) => {
                self.implies((a, true), t, depth - 1) || self.implies((b, true), t, depth - 1)
            }
            (Op::Bin(Bin::BOr, a, b), false) => {
                self.implies((a, false), t, depth - 1) || self.implies((b, false), t, depth - 1)
            }
            _ => false,
        }
    }

    /// Do the lanes where `c == pol` miss every lane of `t`?
    fn excludes(&self, t: &Taint, c: Value, pol: bool) -> bool {
        t.lits
            .iter()
            .any(|&(v, p)| self.implies((c, pol), (v, !p), 6))
    }

    /// `t` restricted to the lanes where `c == pol`.
    fn restrict(&self, t: &Option<Taint>, c: Value, pol: bool) -> Option<Taint> {
        let t = t.as_ref()?;
        if self.excludes(t, c, pol) {
            return None;
        }
        let mut t = t.clone();
        let l = self.norm(c, pol);
        if !t
            .lits
            .iter()
            .any(|&(v, p)| p == l.1 && self.same(v, l.0, 12))
        {
            t.lits.push(l);
        }
        Some(t)
    }
}

fn whole(t: &[&Option<Taint>]) -> Option<Taint> {
    let mut out: Option<Taint> = None;
    for x in t {
        out = join(&out, x);
    }
    out.map(|t| Taint {
        lits: t.lits,
        bits: ALL,
    })
}

fn smear(t: Option<Taint>) -> Option<Taint> {
    t.map(|mut t| {
        let low = t.bits.trailing_zeros();
        t.bits = if low >= 32 { 0 } else { ALL << low };
        t
    })
    .filter(|t| t.bits != 0)
}

fn map_bits(t: &Option<Taint>, m: impl Fn(u32) -> u32) -> Option<Taint> {
    t.as_ref()
        .map(|t| Taint {
            lits: t.lits.clone(),
            bits: m(t.bits),
        })
        .filter(|t| t.bits != 0)
}

/// The condition of an effect (what enables it per lane).
fn effect_cond(e: &Effect) -> Option<Value> {
    match *e {
        Effect::Export { cond, .. }
        | Effect::Check { cond, .. }
        | Effect::LdsWrite { cond, .. }
        | Effect::LdsWriteByte { cond, .. }
        | Effect::ImageStore { cond, .. }
        | Effect::Store { cond, .. }
        | Effect::GlobalStore { cond, .. }
        | Effect::SubDwordStore { cond, .. }
        | Effect::Atomic { cond, .. } => Some(cond),
        Effect::Problem { .. } | Effect::Barrier { .. } => None,
    }
}

/// The edges of a block: (target, args, the literal of the lanes taking it).
fn edges(t: &Term) -> Vec<(Block, &[Value], Option<Lit>)> {
    match t {
        Term::Jump(e) => vec![(e.block, &e.args[..], None)],
        Term::Branch { cond, then, els } => vec![
            (then.block, &then.args[..], Some((*cond, true))),
            (els.block, &els.args[..], Some((*cond, false))),
        ],
        _ => Vec::new(),
    }
}

impl Proof<'_> {
    fn taint_of(&self, v: Value, t: &[Option<Taint>]) -> Option<Taint> {
        let g = |x: Value| &t[x.0 as usize];
        let f = self.f;
        match f.inst(v).op {
            Op::Const(_) | Op::Input(_) | Op::Unsupported(_) | Op::Effect(_) => None,
            // Joined from the edges (see `run`).
            Op::BlockParam(..) => t[v.0 as usize].clone(),
            Op::Un(_, a) => whole(&[g(a)]),
            Op::Bin(op, a, b) => {
                let k = f.konst(b);
                match (op, k) {
                    (Bin::And, Some(m)) => map_bits(g(a), |x| x & m),
                    (Bin::Shl, Some(s)) if s < 32 => map_bits(g(a), |x| x << s),
                    (Bin::ShrL, Some(s)) if s < 32 => map_bits(g(a), |x| x >> s),
                    (Bin::ShrA, Some(s)) if s < 32 => map_bits(g(a), |x| {
                        let top = if x & 0x8000_0000 != 0 { !(ALL >> s) } else { 0 };
                        (x >> s) | top
                    }),
                    (Bin::And | Bin::Or | Bin::Xor, _) => {
                        let (ta, tb) = (g(a), g(b));
                        let and_masked =
                            |t: &Option<Taint>, other: Value| match (op, f.konst(other)) {
                                (Bin::And, Some(m)) => map_bits(t, |x| x & m),
                                _ => t.clone(),
                            };
                        join(&and_masked(ta, b), &and_masked(tb, a))
                    }
                    (Bin::Add | Bin::Sub | Bin::Mul, _) => smear(join(g(a), g(b))),
                    // `a && b` is `a ? b : false` (and `a || b` is `a ?
                    // true : b`): an untainted side confines the other.
                    (Bin::BAnd | Bin::BOr, _) => {
                        let pol = op == Bin::BAnd;
                        match (g(a), g(b)) {
                            (None, tb) => self.restrict(tb, a, pol),
                            (ta, None) => self.restrict(ta, b, pol),
                            (ta, tb) => whole(&[ta, tb]),
                        }
                    }
                    _ => whole(&[g(a), g(b)]),
                }
            }
            Op::Tri(Tri::Select, c, a, b) => {
                let on = self.restrict(g(a), c, true);
                let off = self.restrict(g(b), c, false);
                join(&join(&on, &off), &whole(&[g(c)]))
            }
            Op::Tri(_, a, b, c) => whole(&[g(a), g(b), g(c)]),
            Op::Load(i) => {
                let mut ops = Vec::new();
                f.operands(v, &mut ops);
                let any = whole(&ops.iter().map(|&x| g(x)).collect::<Vec<_>>());
                match f.loads[i as usize] {
                    // Another lane's value: every lane.
                    Load::Lanes(..) => any.map(|_| Taint {
                        lits: Vec::new(),
                        bits: ALL,
                    }),
                    _ => any,
                }
            }
        }
    }

    /// Taint every value from the seeds (fixed); false when something
    /// demands a tainted value.
    fn run(&self, seeds: &HashMap<Value, Option<Taint>>) -> bool {
        let f = self.f;
        let n = f.insts.len();
        let mut t: Vec<Option<Taint>> = vec![None; n];
        for (p, s) in seeds {
            t[p.0 as usize] = s.clone();
        }
        // Iterate to the fixpoint (taints only grow; literals only go).
        for _round in 0..64 {
            let mut changed = false;
            for (bi, b) in f.blocks.iter().enumerate() {
                for &v in &b.insts {
                    if matches!(f.inst(v).op, Op::BlockParam(..)) || seeds.contains_key(&v) {
                        continue;
                    }
                    let nt = self.taint_of(v, &t);
                    if nt != t[v.0 as usize] {
                        t[v.0 as usize] = nt;
                        changed = true;
                    }
                }
                for (target, args, lit) in edges(&b.term) {
                    let params = &f.blocks[target.0 as usize].params;
                    for (k, &a) in args.iter().enumerate() {
                        let Some(&p) = params.get(k) else { continue };
                        let mut at = t[a.0 as usize].clone();
                        if let Some((c, pol)) = lit {
                            at = self.restrict(&at, c, pol);
                        }
                        if target.0 as usize <= bi {
                            // A back edge: the loop recomputes what it
                            // defines.
                            if let Some(x) = at.as_mut() {
                                x.lits.retain(|l| {
                                    self.def_block[l.0 .0 as usize].is_none_or(|d| d < target.0)
                                });
                            }
                        }
                        let nt = join(&t[p.0 as usize], &at);
                        if nt != t[p.0 as usize] {
                            t[p.0 as usize] = nt;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return self.undemanded(&t);
            }
        }
        false
    }

    fn undemanded(&self, t: &[Option<Taint>]) -> bool {
        let f = self.f;
        for b in &f.blocks {
            if let Term::Branch { cond, .. } = b.term {
                if t[cond.0 as usize].is_some() {
                    return false;
                }
            }
            for &v in &b.insts {
                let Op::Effect(i) = f.inst(v).op else {
                    continue;
                };
                let e = &f.effects[i as usize];
                if matches!(e, Effect::Problem { .. }) {
                    continue;
                }
                let cond = effect_cond(e);
                if cond.is_some_and(|c| t[c.0 as usize].is_some()) {
                    return false;
                }
                let mut ops = Vec::new();
                f.operands(v, &mut ops);
                for x in ops {
                    let Some(tx) = &t[x.0 as usize] else { continue };
                    if !cond.is_some_and(|c| self.excludes(tx, c, true)) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Pass 0 instead of an undefined entry value into every block parameter
/// where that value is proven never demanded (see the module). Returns the
/// registers' values settled.
pub(super) fn settle(
    f: &mut Func,
    undefined: &HashSet<Value>,
    zero: Value,
    faults: UndefFaults,
) -> usize {
    // Seeds per undefined value: (block, edge slot, arg index, param).
    let mut seeds: HashMap<Value, Vec<(usize, usize, usize, Value)>> = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (slot, (target, args, _)) in edges(&b.term).into_iter().enumerate() {
            for (k, a) in args.iter().enumerate() {
                if undefined.contains(a) {
                    if let Some(&p) = f.blocks[target.0 as usize].params.get(k) {
                        seeds.entry(*a).or_default().push((bi, slot, k, p));
                    }
                }
            }
        }
    }
    if seeds.is_empty() {
        return 0;
    }
    let mut def_block = vec![None; f.insts.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        for &v in b.params.iter().chain(&b.insts) {
            def_block[v.0 as usize] = Some(bi as u32);
        }
    }
    let mut settled = Vec::new();
    {
        let proof = Proof { f, def_block };
        let mut order: Vec<&Value> = seeds.keys().collect();
        order.sort_by_key(|v| v.0);
        for u in order {
            // The undefined value itself, in every lane and bit: the edges
            // carrying it restrict it to the lanes that take them.
            let s = HashMap::from([(
                *u,
                Some(Taint {
                    lits: Vec::new(),
                    bits: ALL,
                }),
            )]);
            if faults.never_demanded || proof.run(&s) {
                settled.push(*u);
            }
        }
    }
    for u in &settled {
        for &(bi, slot, k, p) in &seeds[u] {
            let targets: Vec<usize> = if faults.zeroes_defined {
                // Every edge into the parameter.
                let Op::BlockParam(pb, pk) = f.inst(p).op else {
                    continue;
                };
                for b in &mut f.blocks {
                    edges_mut(&mut b.term, |blk, args| {
                        if blk == pb {
                            if let Some(a) = args.get_mut(pk as usize) {
                                *a = zero;
                            }
                        }
                    });
                }
                Vec::new()
            } else {
                vec![bi]
            };
            for b in targets {
                let mut idx = 0;
                edges_mut(&mut f.blocks[b].term, |_, args| {
                    if idx == slot {
                        if let Some(a) = args.get_mut(k) {
                            *a = zero;
                        }
                    }
                    idx += 1;
                });
            }
        }
    }
    settled.len()
}

fn edges_mut(t: &mut Term, mut each: impl FnMut(Block, &mut Vec<Value>)) {
    match t {
        Term::Jump(e) => each(e.block, &mut e.args),
        Term::Branch { then, els, .. } => {
            each(then.block, &mut then.args);
            each(els.block, &mut els.args);
        }
        _ => {}
    }
}
