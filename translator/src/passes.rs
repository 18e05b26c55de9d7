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
            Load::Buffer(_) | Load::Lanes(..) | Load::Global { .. } | Load::Image { .. } => None,
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
