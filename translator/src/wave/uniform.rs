//! Where the lane operations of a compute shader may go: each runs
//! between workgroup barriers, so every invocation of the host workgroup
//! must reach it together. The same holds for a pixel shader's quad
//! operations (every invocation of the quad must be active), where in
//! addition an export that may discard ends the uniform part. That holds in workgroup-uniform control flow:
//! outside every selection and loop whose condition may differ between
//! the invocations of a workgroup.
//!
//! A value is workgroup-uniform when it is computed, by pure operations,
//! from constants, parameter words (user data, words read through them),
//! the workgroup id and scalar loads of such addresses. Lane ids, local
//! ids, vector loads and unsupported values are not; a lane operation's
//! result is uniform only when the workgroup is a single wave (it is the
//! same in every lane of a wave, not across waves). A block parameter is
//! uniform when every value reaching it is, along edges from blocks in
//! uniform control flow. The analysis starts from "uniform" and removes
//! what it must until nothing changes (loop counters stay uniform).

use crate::ir::{Effect, Func, Input, LaneOp, Load, Op, Term, Unsupported, Value};
use crate::structure::Node;
use crate::CrossLane;
use std::collections::{HashMap, HashSet};

/// Every live lane operation not in workgroup-uniform control flow, as an
/// unsupported construct at its instruction's pc.
pub(crate) fn check(f: &Func, tree: &[Node], single_wave: bool) -> Vec<Unsupported> {
    let n = f.insts.len();
    let mut varying = vec![false; n];
    // Incoming block-parameter values, with the block each edge leaves.
    let mut incoming: HashMap<Value, Vec<(usize, Value)>> = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        let edges = match &b.term {
            Term::Jump(e) => vec![e],
            Term::Branch { then, els, .. } => vec![then, els],
            _ => vec![],
        };
        for e in edges {
            let params = &f.blocks[e.block.0 as usize].params;
            for (p, a) in params.iter().zip(&e.args) {
                incoming.entry(*p).or_default().push((bi, *a));
            }
        }
    }
    let mut ops = Vec::new();
    loop {
        let mut changed = false;
        let uniform_blocks = uniform_control(f, tree, &varying);
        for i in 0..n {
            if varying[i] {
                continue;
            }
            let v = Value(i as u32);
            let vary = match f.insts[i].op {
                Op::Const(_) => false,
                Op::Input(
                    Input::Param(_)
                    | Input::WorkgroupId(_)
                    | Input::DrawFirstVertex
                    | Input::NggIndexed
                    | Input::DrawVertexCount
                    | Input::GroupCount(_),
                ) => false,
                Op::Input(_) | Op::Unsupported(_) => true,
                Op::Load(l) => match f.loads[l as usize] {
                    Load::Buffer(_) | Load::Global { .. } | Load::Image { .. } => true,
                    // The subgroup list: uniform where its word index is.
                    Load::NggList { word } => varying[word.0 as usize],
                    // A ballot or read lane is the same within a wave, not
                    // across waves; an LDS read is what its address says.
                    Load::Lanes(_, LaneOp::LdsRead { .. }) => {
                        ops.clear();
                        f.operands(v, &mut ops);
                        ops.iter().any(|o| varying[o.0 as usize])
                    }
                    // A wave's ballot or first lane: one value per wave.
                    Load::Lanes(_, LaneOp::Ballot { .. } | LaneOp::ReadFirst { .. }) => {
                        !single_wave
                    }
                    Load::Lanes(_, LaneOp::ReadLane { lane, .. }) => {
                        !single_wave || varying[lane.0 as usize]
                    }
                    _ => {
                        ops.clear();
                        f.operands(v, &mut ops);
                        ops.iter().any(|o| varying[o.0 as usize])
                    }
                },
                Op::BlockParam(..) => incoming.get(&v).is_some_and(|ins| {
                    ins.iter()
                        .any(|(b, a)| varying[a.0 as usize] || !uniform_blocks.contains(b))
                }),
                // An atomic's old word differs between lanes.
                Op::Effect(e) => {
                    matches!(f.effects[e as usize], Effect::Atomic { returns: true, .. })
                }
                _ => {
                    ops.clear();
                    f.operands(v, &mut ops);
                    ops.iter().any(|o| varying[o.0 as usize])
                }
            };
            if vary {
                varying[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let uniform_blocks = uniform_control(f, tree, &varying);
    let mut out = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        // In a uniform block, what follows a discarding export is not.
        let from = match uniform_blocks.contains(&bi) {
            true => match b.insts.iter().position(|&v| kills(f, v)) {
                Some(k) => k + 1,
                None => continue,
            },
            false => 0,
        };
        for &v in &b.insts[from..] {
            if !f.is_live(v) {
                continue;
            }
            let pc = match f.inst(v).op {
                Op::Load(l) => match f.loads[l as usize] {
                    Load::Lanes(pc, LaneOp::Quad { .. }) => Some((pc, CrossLane::DivergentQuadOp)),
                    Load::Lanes(pc, _) => Some((pc, CrossLane::DivergentWaveOp)),
                    _ => None,
                },
                Op::Effect(e) => match f.effects[e as usize] {
                    Effect::Barrier { pc } => Some((pc, CrossLane::DivergentWaveOp)),
                    _ => None,
                },
                _ => None,
            };
            if let Some((pc, why)) = pc {
                out.push(Unsupported {
                    pc,
                    inst: format!("(cross-lane operation in the block at pc {:#x})", b.pc),
                    construct: why.into(),
                });
            }
        }
    }
    out
}

/// Whether `v` is a live pixel-shader export that may discard the
/// invocation (`done` with an exec bit that is not known to be on): after
/// it, some invocations of a quad may have ended.
fn kills(f: &Func, v: Value) -> bool {
    match f.inst(v).op {
        Op::Effect(e) => {
            matches!(
                f.effects[e as usize],
                Effect::Export { done: true, cond, .. } if f.konst(cond) != Some(1)
            ) && f.is_live(v)
        }
        _ => false,
    }
}

/// The blocks in workgroup-uniform control flow: not inside a selection or
/// loop whose condition varies, and not after a varying selection in which
/// some invocations may have ended the program, nor after a block with an
/// export that may discard (pixel shaders).
fn uniform_control(f: &Func, tree: &[Node], varying: &[bool]) -> HashSet<usize> {
    fn returns(f: &Func, nodes: &[Node]) -> bool {
        nodes.iter().any(|n| match n {
            Node::Block(b) => {
                let d = &f.blocks[b.0 as usize];
                matches!(d.term, Term::Return) || d.insts.iter().any(|&v| kills(f, v))
            }
            Node::If { then, els, .. } => returns(f, then) || returns(f, els),
            Node::Loop { body, .. } => returns(f, body),
            Node::Continue { .. } => false,
        })
    }
    fn walk(
        f: &Func,
        nodes: &[Node],
        mut uniform: bool,
        varying: &[bool],
        out: &mut HashSet<usize>,
    ) {
        for n in nodes {
            match n {
                Node::Block(b) => {
                    if uniform {
                        out.insert(b.0 as usize);
                    }
                    if f.blocks[b.0 as usize].insts.iter().any(|&v| kills(f, v)) {
                        uniform = false;
                    }
                }
                Node::If {
                    cond, then, els, ..
                } => {
                    let u = uniform && !varying[cond.0 as usize];
                    walk(f, then, u, varying, out);
                    walk(f, els, u, varying, out);
                    if !u && (returns(f, then) || returns(f, els)) {
                        uniform = false;
                    }
                }
                // A `continue` under a per-lane branch is refused
                // (`structure::per_lane_exits`).
                Node::Continue { .. } => {}
                Node::Loop {
                    body,
                    cond,
                    latch,
                    rewritten,
                    ..
                } => {
                    let u = uniform && !varying[cond.0 as usize];
                    walk(f, body, u, varying, out);
                    // A rewritten latch runs in the continue block.
                    if *rewritten && u {
                        out.insert(latch.0 as usize);
                    }
                    if !u && returns(f, body) {
                        uniform = false;
                    }
                }
            }
        }
    }
    let mut out = HashSet::new();
    walk(f, tree, true, varying, &mut out);
    out
}
