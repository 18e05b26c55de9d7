//! Values that are the same on every path through loops, and the wave
//! questions they answer.
//!
//! [`known_values`] is an optimistic constant propagation over the whole
//! function: a block parameter is assumed to be the constant its arguments
//! agree on until an argument says otherwise, so a register a loop writes
//! only with the value it entered with (or with a selection of it) stays
//! known across the back edge. A sparse-residency retry loop is the case in
//! point: the `tfe` status the translation writes is the constant 0
//! (resident), so `status != 0`, the lane mask of the lanes that retry, is
//! false everywhere, and the SCC of the mask operation that asks whether
//! any lane retries ([`Func::any_lane`]) is the constant 0.
//!
//! Each value gets one of three facts: not yet known (optimistic), a
//! constant, or "equal to value `w`" (itself, unless it is a pure
//! selection or an `and`/`or` with a constant that returns an operand
//! unchanged). The facts of `x & !x` (false) and `x | !x` (true) come from
//! the second form. The operations are evaluated with the same folding
//! functions as [`crate::ir::fold_un`]/[`crate::ir::fold_bin`]. A fixpoint
//! in which every fact follows from the facts of the operands (and every
//! parameter's constant from every incoming argument) holds on every
//! execution, by induction over the executed instructions; only constants
//! are applied. Loads, inputs, effects and unsupported values are their
//! own values, except a pending any-lane question, which is the constant
//! its mask is when the mask is a constant.
//!
//! `PsFaults::any_lane_assumed_none` is the negative control: every
//! pending any-lane question becomes "no lane", constant mask or not.

use crate::ir::{fold_bin, fold_un, Bin, Func, Op, Term, Tri, Un, Value};
use std::collections::HashMap;

/// What is known about a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    /// Nothing yet (optimistic).
    Top,
    /// A constant.
    Const(u32),
    /// Equal to this value (canonical: its own fact is `Same(itself)`).
    Same(Value),
}

/// Rounds over the function before giving up (applying nothing).
const MAX_ROUNDS: usize = 64;

/// When the function asks any-lane questions ([`Func::any_lane`]):
/// [`known_values`], then [`super::fold`] of what became constant.
pub fn answer_any_lane(f: &mut Func, assume_no_lane: bool) {
    if f.any_lane.is_empty() {
        return;
    }
    if known_values(f, assume_no_lane) > 0 {
        super::fold(f);
    }
}

/// Propagate known values (see the module documentation); returns how
/// many values became constants. `assume_no_lane` is the negative
/// control's broken rule.
pub fn known_values(f: &mut Func, assume_no_lane: bool) -> usize {
    let n = f.insts.len();
    let mut fact = vec![Fact::Top; n];
    // Constants and values outside every block (global constants, inputs).
    for (i, inst) in f.insts.iter().enumerate() {
        fact[i] = match inst.op {
            Op::Const(c) => Fact::Const(c),
            _ => Fact::Same(Value(i as u32)),
        };
    }
    let pending: HashMap<Value, Value> = f.any_lane.iter().copied().collect();
    // Incoming arguments of each block parameter.
    let mut incoming: HashMap<Value, Vec<Value>> = HashMap::new();
    for b in &f.blocks {
        let edges = match &b.term {
            Term::Jump(e) => vec![e],
            Term::Branch { then, els, .. } => vec![then, els],
            _ => vec![],
        };
        for e in edges {
            let params = &f.blocks[e.block.0 as usize].params;
            for (&p, &a) in params.iter().zip(&e.args) {
                incoming.entry(p).or_default().push(a);
            }
        }
    }
    // Values in blocks start optimistic.
    for b in &f.blocks {
        for &v in b.params.iter().chain(&b.insts) {
            if !matches!(f.inst(v).op, Op::Const(_)) {
                fact[v.0 as usize] = Fact::Top;
            }
        }
    }
    let mut stable = false;
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for b in &f.blocks {
            for &p in &b.params {
                let args = incoming.get(&p).map(Vec::as_slice).unwrap_or(&[]);
                let new = meet_params(&fact, p, args);
                changed |= update(&mut fact, p, new);
            }
            for &v in &b.insts {
                let new = eval(f, &fact, &pending, v, assume_no_lane);
                changed |= update(&mut fact, v, new);
            }
        }
        if !changed {
            stable = true;
            break;
        }
    }
    if !stable {
        return 0;
    }
    apply(f, &fact)
}

/// Lower a fact: from not-yet-known to anything, from a constant to an
/// equality, and otherwise (two different claims) to the value itself,
/// which claims nothing. At the fixpoint a value's fact is its own value,
/// or what its operands' facts give (a not-yet-known operand is one no
/// execution reaches).
fn update(fact: &mut [Fact], v: Value, new: Fact) -> bool {
    let old = fact[v.0 as usize];
    let lowered = match (old, new) {
        (a, b) if a == b => return false,
        (Fact::Top, b) => b,
        (Fact::Const(_), Fact::Top) => return false,
        (Fact::Const(_), Fact::Same(w)) => Fact::Same(w),
        _ => Fact::Same(v),
    };
    if lowered == old {
        return false;
    }
    fact[v.0 as usize] = lowered;
    true
}

/// A parameter: the constant every known argument is, else itself.
fn meet_params(fact: &[Fact], p: Value, args: &[Value]) -> Fact {
    let mut out = Fact::Top;
    for &a in args {
        match fact[a.0 as usize] {
            Fact::Top => {}
            Fact::Same(w) if w == p => {}
            Fact::Const(c) => match out {
                Fact::Top => out = Fact::Const(c),
                Fact::Const(d) if d == c => {}
                _ => return Fact::Same(p),
            },
            Fact::Same(_) => return Fact::Same(p),
        }
    }
    out
}

/// The canonical fact of an operand.
fn of(fact: &[Fact], v: Value) -> Fact {
    fact[v.0 as usize]
}

/// `b` is `!a` (by their canonical values).
fn negates(f: &Func, fact: &[Fact], a: Fact, b: Value) -> bool {
    match (a, f.inst(b).op) {
        (Fact::Same(x), Op::Un(Un::BNot, y)) => of(fact, y) == Fact::Same(x),
        _ => false,
    }
}

fn eval(
    f: &Func,
    fact: &[Fact],
    pending: &HashMap<Value, Value>,
    v: Value,
    assume_no_lane: bool,
) -> Fact {
    let own = Fact::Same(v);
    match f.inst(v).op {
        Op::Const(c) => Fact::Const(c),
        Op::Unsupported(_) => match pending.get(&v) {
            Some(_) if assume_no_lane => Fact::Const(0),
            Some(&mask) => match of(fact, mask) {
                Fact::Top => Fact::Top,
                Fact::Const(c) => Fact::Const((c != 0) as u32),
                Fact::Same(_) => own,
            },
            None => own,
        },
        Op::Un(op, a) => match of(fact, a) {
            Fact::Top => Fact::Top,
            Fact::Const(x) => fold_un(op, x).map_or(own, Fact::Const),
            Fact::Same(_) => own,
        },
        Op::Bin(op, a, b) => {
            let (fa, fb) = (of(fact, a), of(fact, b));
            let both = |x: Fact| x;
            match (op, fa, fb) {
                (_, Fact::Const(x), Fact::Const(y)) => fold_bin(op, x, y).map_or(own, Fact::Const),
                (Bin::BAnd, Fact::Const(0), _) | (Bin::BAnd, _, Fact::Const(0)) => Fact::Const(0),
                (Bin::BOr, Fact::Const(1), _) | (Bin::BOr, _, Fact::Const(1)) => Fact::Const(1),
                (Bin::BAnd, Fact::Const(1), x) | (Bin::BOr, Fact::Const(0), x) => both(x),
                (Bin::BAnd, x, Fact::Const(1)) | (Bin::BOr, x, Fact::Const(0)) => both(x),
                (_, Fact::Top, _) | (_, _, Fact::Top) => Fact::Top,
                (Bin::BAnd | Bin::BOr, x, y) if x == y => x,
                (Bin::BAnd, x, _) if negates(f, fact, x, b) => Fact::Const(0),
                (Bin::BAnd, _, y) if negates(f, fact, y, a) => Fact::Const(0),
                (Bin::BOr, x, _) if negates(f, fact, x, b) => Fact::Const(1),
                (Bin::BOr, _, y) if negates(f, fact, y, a) => Fact::Const(1),
                _ => own,
            }
        }
        Op::Tri(Tri::Select, c, a, b) => match of(fact, c) {
            Fact::Const(k) => of(fact, if k != 0 { a } else { b }),
            Fact::Top => Fact::Top,
            Fact::Same(_) => match (of(fact, a), of(fact, b)) {
                (Fact::Top, _) | (_, Fact::Top) => Fact::Top,
                (x, y) if x == y => x,
                _ => own,
            },
        },
        _ => own,
    }
}

/// Make the values known to be constants constants: instructions in
/// place (as [`super::fold`] does), parameters by replacing their uses.
fn apply(f: &mut Func, fact: &[Fact]) -> usize {
    let mut n = 0;
    let mut consts: HashMap<(crate::ir::Ty, u32), Value> = HashMap::new();
    let mut map: HashMap<Value, Value> = HashMap::new();
    let values: Vec<(Value, bool)> = f
        .blocks
        .iter()
        .flat_map(|b| {
            let params = b.params.iter().map(|&p| (p, true));
            params.chain(b.insts.iter().map(|&v| (v, false)))
        })
        .collect();
    for (v, param) in values {
        let Fact::Const(c) = fact[v.0 as usize] else {
            continue;
        };
        let op = f.inst(v).op;
        if matches!(op, Op::Const(_) | Op::Effect(_) | Op::Load(_)) {
            continue;
        }
        n += 1;
        if !param {
            f.insts[v.0 as usize].op = Op::Const(c);
            continue;
        }
        let ty = f.ty(v);
        let k = *consts.entry((ty, c)).or_insert_with(|| {
            f.insts.push(crate::ir::Inst {
                op: Op::Const(c),
                ty,
            });
            Value(f.insts.len() as u32 - 1)
        });
        map.insert(v, k);
    }
    if !map.is_empty() {
        super::map_uses(f, &|x: Value| map.get(&x).copied().unwrap_or(x));
    }
    n
}
