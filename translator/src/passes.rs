//! IR passes: resolving parameter words, constant folding, dead-code
//! removal, and the checks that need liveness.
//!
//! - [`resolve`] turns scalar loads whose address is built from user data,
//!   constants and other resolved words into push-constant parameters (the
//!   host evaluates each word per draw from the manifest), so a translated
//!   shader reads its descriptors and uniform words without guest memory.
//! - [`fold`] re-folds operations whose operands became constant.
//! - [`dce`] removes everything no effect or branch needs.
//! - [`check`] reports the unsupported values that are still needed.
//! - [`known::known_values`] proves values constant across loops and
//!   answers the any-lane questions of constant lane masks.

pub mod known;

use crate::ir::{
    fold_bin, fold_un, Block, Func, Input, Load, Op, Source, SrcOrConst, Term, Tri, Unsupported,
    Value,
};
use crate::ExecRegion;
use std::collections::{HashMap, HashSet};

fn soc(f: &Func, v: Value) -> Option<SrcOrConst> {
    match f.inst(v).op {
        Op::Const(c) => Some(SrcOrConst::Const(c)),
        Op::Input(Input::Param(s)) => Some(SrcOrConst::Src(s)),
        _ => None,
    }
}

/// Turn resolvable scalar loads into parameters. Returns how many.
/// `faults.indexed_table_off_by_one` is the negative control of the
/// indexed table words.
pub fn resolve(f: &mut Func, faults: &crate::Faults) -> usize {
    let mut n = 0;
    for i in 0..f.insts.len() {
        let Op::Load(li) = f.insts[i].op else {
            continue;
        };
        let src = match f.loads[li as usize] {
            Load::Scalar { lo, hi, offset, .. } => {
                match (soc(f, lo), soc(f, hi), f.konst(offset)) {
                    (Some(lo), Some(hi), Some(offset)) => {
                        Some(Source::TableWord { lo, hi, offset })
                    }
                    (Some(lo), Some(hi), None) => {
                        affine(f, offset, 0).map(|(index, scale, offset)| {
                            let offset = if faults.indexed_table_off_by_one {
                                offset.wrapping_add(scale)
                            } else {
                                offset
                            };
                            Source::IndexedTableWord {
                                lo,
                                hi,
                                index: SrcOrConst::Src(index),
                                scale,
                                offset,
                            }
                        })
                    }
                    _ => None,
                }
            }
            Load::ScalarBuf { desc, offset, .. } => {
                let d: Vec<Option<SrcOrConst>> = desc.iter().map(|v| soc(f, *v)).collect();
                match (d[0], d[1], d[2], d[3], f.konst(offset)) {
                    (Some(a), Some(b), Some(c), Some(e), Some(offset)) => {
                        Some(Source::BufferWord {
                            desc: [a, b, c, e],
                            offset,
                        })
                    }
                    _ => None,
                }
            }
            Load::Buffer(_)
            | Load::Lanes(..)
            | Load::Global { .. }
            | Load::NggList { .. }
            | Load::Image { .. } => None,
        };
        if let Some(s) = src {
            let idx = f.source(s);
            f.insts[i].op = Op::Input(Input::Param(idx));
            n += 1;
        }
    }
    n
}

/// `v` as `index · scale + offset` (mod 2³²) of one parameter word
/// `index`: the parameter itself, or adds/subtracts of a constant, left
/// shifts and multiplies by a constant of such a value. Every step is the
/// 32-bit wrapping operation the IR value computes, so the form equals `v`
/// for every value of the word. `depth` bounds the recursion.
fn affine(f: &Func, v: Value, depth: u32) -> Option<(u16, u32, u32)> {
    use crate::ir::Bin;
    if depth > 16 {
        return None;
    }
    match f.inst(v).op {
        Op::Input(Input::Param(s)) => Some((s, 1, 0)),
        Op::Bin(op, a, b) => {
            let (x, k) = match (f.konst(a), f.konst(b)) {
                (None, Some(k)) => (a, k),
                (Some(k), None) if matches!(op, Bin::Add | Bin::Mul) => (b, k),
                _ => return None,
            };
            let (s, scale, add) = affine(f, x, depth + 1)?;
            match op {
                Bin::Add => Some((s, scale, add.wrapping_add(k))),
                Bin::Sub => Some((s, scale, add.wrapping_sub(k))),
                Bin::Mul => Some((s, scale.wrapping_mul(k), add.wrapping_mul(k))),
                Bin::Shl => Some((s, scale << (k & 31), add << (k & 31))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Fold operations whose operands are all constant. Returns how many.
pub fn fold(f: &mut Func) -> usize {
    let mut n = 0;
    for i in 0..f.insts.len() {
        let r = match f.insts[i].op {
            Op::Un(op, a) => f.konst(a).and_then(|x| fold_un(op, x)),
            Op::Bin(op, a, b) => match (f.konst(a), f.konst(b)) {
                (Some(x), Some(y)) => fold_bin(op, x, y),
                _ => None,
            },
            Op::Tri(Tri::Select, c, a, b) => {
                f.konst(c).and_then(|c| f.konst(if c != 0 { a } else { b }))
            }
            _ => None,
        };
        if let Some(r) = r {
            f.insts[i].op = Op::Const(r);
            n += 1;
        }
    }
    n
}

/// Remove dead values from the blocks and record liveness in
/// [`Func::live`].
pub fn dce(f: &mut Func) {
    let n = f.insts.len();
    let mut live = vec![false; n];
    let mut work: Vec<Value> = Vec::new();
    // Edges into each block.
    let mut incoming: HashMap<Block, Vec<Vec<Value>>> = HashMap::new();
    for b in &f.blocks {
        let mut add = |e: &crate::ir::Edge| {
            incoming.entry(e.block).or_default().push(e.args.clone());
        };
        match &b.term {
            Term::Jump(e) => add(e),
            Term::Branch { cond, then, els } => {
                add(then);
                add(els);
                work.push(*cond);
            }
            _ => {}
        }
        for &v in &b.insts {
            if matches!(f.insts[v.0 as usize].op, Op::Effect(_)) {
                work.push(v);
            }
        }
    }
    let mut ops = Vec::new();
    while let Some(v) = work.pop() {
        if live[v.0 as usize] {
            continue;
        }
        live[v.0 as usize] = true;
        ops.clear();
        f.operands(v, &mut ops);
        work.extend(ops.iter().copied());
        if let Op::BlockParam(b, k) = f.insts[v.0 as usize].op {
            if let Some(list) = incoming.get(&b) {
                for args in list {
                    if let Some(a) = args.get(k as usize) {
                        work.push(*a);
                    }
                }
            }
        }
    }
    for b in &mut f.blocks {
        b.insts.retain(|v| live[v.0 as usize]);
    }
    f.live = live;
}

/// The unsupported values still live after [`dce`], and the live block
/// parameters that hold scalar state at the merge of a per-lane branch.
pub fn check(
    f: &Func,
    divergent_merges: &[(Block, u32)],
    scalar_params: &HashMap<Value, String>,
) -> Vec<Unsupported> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if let Op::Unsupported(u) = inst.op {
            if f.is_live(Value(i as u32)) {
                let x = &f.unsupported[u as usize];
                if seen.insert((x.pc, &x.construct)) {
                    out.push(x.clone());
                }
            }
        }
    }
    for &(merge, branch_pc) in divergent_merges {
        for &p in &f.blocks[merge.0 as usize].params {
            if let Some(reg) = scalar_params.get(&p) {
                if f.is_live(p) {
                    out.push(Unsupported {
                        pc: branch_pc,
                        inst: format!(
                            "s_cbranch_exec* (its region ends at pc {:#x})",
                            f.blocks[merge.0 as usize].pc
                        ),
                        construct: ExecRegion::ScalarReadAfter {
                            register: reg.clone(),
                        }
                        .into(),
                    });
                }
            }
        }
    }
    out
}

/// A Bool value as (the value under its `BNot`s, whether their number is
/// odd).
fn bool_base(f: &Func, mut v: Value) -> (Value, bool) {
    let mut odd = false;
    while let Op::Un(crate::ir::Un::BNot, a) = f.inst(v).op {
        v = a;
        odd = !odd;
    }
    (v, odd)
}

/// An edge into a block: its source and, for one side of a two-way
/// branch, the condition and its value there.
type InEdge = (usize, Option<(Value, bool)>);

/// What a Bool is known to be, from the branches that lead to a place: the
/// value under its `BNot`s and that value's truth.
type Known = HashMap<Value, bool>;

/// The truth of `c` where `known` holds, if it follows.
fn known_truth(f: &Func, known: &Known, c: Value) -> Option<bool> {
    let (base, odd) = bool_base(f, c);
    known.get(&base).map(|&t| t != odd)
}

/// Selections on branch conditions that are known where they are computed.
///
/// A block reached only through one edge of a two-way branch (its single
/// predecessor edge), and every block it dominates, knows the branch's
/// condition (and its negations). There a `select` on it is its chosen
/// operand. A block parameter whose every use is such a selection that,
/// on an incoming edge, is known to choose the other operand does not need
/// that edge's argument: it becomes 0 (a pixel shader's per-lane EXEC
/// regions leave such arguments: a register the region overwrites only
/// under EXEC, merged with the path where the lane skipped the region,
/// then overwritten under the opposite EXEC). Values only; returns how
/// many selections and arguments were replaced. `every_edge` is the
/// negative control's broken rule: an argument not needed on one edge is
/// dropped on every edge.
pub fn known_conditions(f: &mut Func, every_edge: bool) -> usize {
    use petgraph::algo::dominators::simple_fast;
    use petgraph::graph::{DiGraph, NodeIndex};
    let nb = f.blocks.len();
    if nb == 0 {
        return 0;
    }
    // Predecessor edges: (source, the condition and its value on the edge).
    let mut preds: Vec<Vec<InEdge>> = vec![Vec::new(); nb];
    let mut g: DiGraph<(), ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..nb).map(|_| g.add_node(())).collect();
    for (bi, b) in f.blocks.iter().enumerate() {
        match &b.term {
            Term::Jump(e) => {
                preds[e.block.0 as usize].push((bi, None));
                g.add_edge(nodes[bi], nodes[e.block.0 as usize], ());
            }
            Term::Branch { cond, then, els } => {
                let two = then.block != els.block;
                for (e, t) in [(then, true), (els, false)] {
                    preds[e.block.0 as usize].push((bi, two.then_some((*cond, t))));
                    g.add_edge(nodes[bi], nodes[e.block.0 as usize], ());
                }
            }
            _ => {}
        }
    }
    let dom = simple_fast(&g, nodes[0]);
    let add = |f: &Func, known: &mut Known, (c, t): (Value, bool)| {
        let (base, odd) = bool_base(f, c);
        known.insert(base, t != odd);
    };
    // What each block knows: the single-edge entries of its dominators.
    let mut known: Vec<Known> = vec![Known::new(); nb];
    for (bi, k) in known.iter_mut().enumerate() {
        let mut d = Some(nodes[bi]);
        while let Some(n) = d {
            let i = n.index();
            if let [(_, Some(edge))] = preds[i].as_slice() {
                add(f, k, *edge);
            }
            d = dom.immediate_dominator(n);
        }
    }
    // Selections.
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for &v in &b.insts {
            if let Op::Tri(Tri::Select, c, a, e) = f.inst(v).op {
                if let Some(t) = known_truth(f, &known[bi], c) {
                    map.insert(v, if t { a } else { e });
                }
            }
        }
    }
    let mut n = map.len();
    if !map.is_empty() {
        let m = |x: Value| {
            let mut x = x;
            while let Some(&y) = map.get(&x) {
                x = y;
            }
            x
        };
        map_uses(f, &m);
    }
    // Uses of each value by instructions (terminator uses: `None`).
    let mut uses: HashMap<Value, Vec<Option<Value>>> = HashMap::new();
    let mut ops = Vec::new();
    for b in &f.blocks {
        for &v in &b.insts {
            ops.clear();
            f.operands(v, &mut ops);
            for &o in &ops {
                uses.entry(o).or_default().push(Some(v));
            }
        }
        match &b.term {
            Term::Jump(e) => e
                .args
                .iter()
                .for_each(|a| uses.entry(*a).or_default().push(None)),
            Term::Branch { cond, then, els } => {
                for a in then.args.iter().chain(&els.args).chain([cond]) {
                    uses.entry(*a).or_default().push(None);
                }
            }
            _ => {}
        }
    }
    // Block parameters whose argument on an edge is never chosen.
    let mut zeros: HashMap<crate::ir::Ty, Value> = HashMap::new();
    for (j, into) in preds.iter().enumerate() {
        for k in 0..f.blocks[j].params.len() {
            let p = f.blocks[j].params[k];
            let Some(us) = uses.get(&p) else {
                continue;
            };
            for &(src, edge) in into {
                let mut at = known[src].clone();
                if let Some(e) = edge {
                    add(f, &mut at, e);
                }
                let unused = us.iter().all(|u| {
                    let Some(u) = u else {
                        return false;
                    };
                    match f.inst(*u).op {
                        Op::Tri(Tri::Select, c, a, e) if c != p && (a == p) != (e == p) => {
                            known_truth(f, &at, c) == Some(e == p)
                        }
                        _ => false,
                    }
                });
                if !unused {
                    continue;
                }
                let ty = f.ty(p);
                let zero = *zeros.entry(ty).or_insert_with(|| {
                    f.insts.push(crate::ir::Inst {
                        op: Op::Const(0),
                        ty,
                    });
                    Value(f.insts.len() as u32 - 1)
                });
                let sources: Vec<(usize, Option<(Value, bool)>)> = if every_edge {
                    into.clone()
                } else {
                    vec![(src, edge)]
                };
                for (src, edge) in sources {
                    let b = &mut f.blocks[src];
                    let edges: Vec<&mut crate::ir::Edge> = match &mut b.term {
                        Term::Jump(e) => vec![e],
                        Term::Branch { then, els, .. } => match edge {
                            Some((_, true)) => vec![then],
                            Some((_, false)) => vec![els],
                            None => vec![then, els],
                        },
                        _ => vec![],
                    };
                    for e in edges {
                        if e.block.0 as usize == j && e.args.get(k).is_some_and(|a| *a != zero) {
                            e.args[k] = zero;
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    n
}

/// Replace every use of a value `x` (instruction operands and block
/// terminators) by `m(x)`.
fn map_uses(f: &mut Func, m: &impl Fn(Value) -> Value) {
    for i in 0..f.insts.len() {
        f.map_operands(Value(i as u32), m);
    }
    for b in &mut f.blocks {
        match &mut b.term {
            Term::Jump(e) => e.args.iter_mut().for_each(|a| *a = m(*a)),
            Term::Branch { cond, then, els } => {
                *cond = m(*cond);
                then.args.iter_mut().for_each(|a| *a = m(*a));
                els.args.iter_mut().for_each(|a| *a = m(*a));
            }
            _ => {}
        }
    }
}
