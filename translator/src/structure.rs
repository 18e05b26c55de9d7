//! Structured control flow from the IR's block graph.
//!
//! SPIR-V needs every conditional branch to name the block where its arms
//! meet. For an acyclic graph that block is the branch's immediate
//! post-dominator; the arms are the blocks between the branch and that
//! point. [`structure`] builds the tree of sequences and selections, and
//! refuses a graph where an arm is not a single-entry region of its own (a
//! block reached from two arms) or where a back edge forms a loop.

use crate::ir::{Bin, Block, BlockData, Edge, Func, ICmp, Inst, Op, Term, Ty, Value};
use petgraph::algo::dominators;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{Dfs, Reversed};
use petgraph::Direction;

/// One node of a structured sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A block's instructions (its terminator is given by what follows).
    Block(Block),
    /// A two-way selection ending a block.
    If {
        /// The block whose terminator is the branch.
        from: Block,
        /// The condition.
        cond: Value,
        /// The nodes of the true arm.
        then: Vec<Node>,
        /// The nodes of the false arm.
        els: Vec<Node>,
        /// Where the arms meet, or `None` when both end the program.
        merge: Option<Block>,
    },
    /// A loop whose only exit is the conditional branch at its end (the
    /// latch): `do { body } while (cond == back_on)`.
    Loop {
        /// The first block of the body (target of the back edge).
        header: Block,
        /// The last block, whose branch goes back or leaves.
        latch: Block,
        /// The body, header to latch.
        body: Vec<Node>,
        /// The latch's condition.
        cond: Value,
        /// The back edge is taken when `cond` is true.
        back_on: bool,
        /// Where the loop exits to.
        exit: Block,
        /// The latch is one [`normalize_loops`] made: the body reaches it
        /// only through [`Node::Continue`], and it runs in the loop's
        /// continue block.
        rewritten: bool,
    },
    /// Go to the latch of the innermost loop, which [`normalize_loops`]
    /// made (its arguments are the edge's that led here): a `continue`
    /// in SPIR-V terms, from anywhere in the loop's body.
    Continue {
        /// The latch.
        latch: Block,
    },
}

/// Why a graph could not be structured.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum StructureError {
    /// A loop of a shape that is not supported: more than one back edge,
    /// or an exit other than the branch at its end.
    #[error("the loop with its head at pc {pc:#x} (back edge from pc {from_pc:#x}) has more than one back edge or an exit other than the branch at its end")]
    Loop {
        /// pc of the loop head.
        pc: u32,
        /// pc of the block with the back edge.
        from_pc: u32,
    },
    /// A loop no edge leaves (it can only end the program from inside, or
    /// never ends).
    #[error("the loop with its head at pc {pc:#x} has no exit")]
    NoExit {
        /// pc of the loop head.
        pc: u32,
    },
    /// A retreating edge to a block that does not dominate its source: the
    /// graph is irreducible (a loop with two entries).
    #[error("the edge from pc {from_pc:#x} back to pc {pc:#x} enters a loop that does not dominate it: the control flow is irreducible")]
    Irreducible {
        /// pc of the edge's target.
        pc: u32,
        /// pc of the block with the edge.
        from_pc: u32,
    },
    /// A branch on a per-lane value whose arms only meet at the latch of a
    /// rewritten loop (one lane would leave or go round while the wave
    /// does something else).
    #[error("the per-lane branch at pc {pc:#x} leaves or continues the loop with its head at pc {head_pc:#x}; only wave-uniform branches may")]
    PerLaneExit {
        /// pc of the branch.
        pc: u32,
        /// pc of the loop head.
        head_pc: u32,
    },
    /// A block reached from two selection arms (no single merge point).
    #[error("block at pc {pc:#x} is entered from two branches that do not nest; the control flow cannot be structured")]
    Unstructured {
        /// pc of the block.
        pc: u32,
    },
    /// A block without a terminator (a lifting bug, reported not panicked).
    #[error("block at pc {pc:#x} has no terminator")]
    Unterminated {
        /// pc of the block.
        pc: u32,
    },
}

fn succs(t: &Term) -> ([Option<Block>; 2], bool) {
    match t {
        Term::Jump(e) => ([Some(e.block), None], true),
        Term::Branch { then, els, .. } => ([Some(then.block), Some(els.block)], true),
        Term::Return => ([None, None], true),
        Term::None => ([None, None], false),
    }
}

/// Structure the blocks reachable from the entry.
///
/// The graph algorithms are petgraph's, over a graph of the IR's blocks
/// (successors in terminator order, `then` before `else`): the depth-first
/// walk ([`petgraph::visit::Dfs`] for the preorder,
/// [`analysis::cfg::reverse_postorder`] for the reverse postorder that tells
/// back edges: an edge to a block no later in that order), and the
/// post-dominators, [`petgraph::algo::dominators::simple_fast`] on the
/// reversed graph without back edges, with a virtual exit after every block
/// that has no other successor.
pub fn structure(f: &Func) -> Result<Vec<Node>, StructureError> {
    structure_with(f, &[])
}

/// [`structure`] of a function whose loops [`normalize_loops`] rewrote,
/// with the latches it made: an edge to such a latch is a `continue`
/// ([`Node::Continue`]) wherever it starts in the loop's body, so it does
/// not take part in the post-dominators (a `break` in an `if` that has code
/// after it leaves the `if`'s merge where it was).
pub fn structure_with(f: &Func, latches: &[Block]) -> Result<Vec<Node>, StructureError> {
    let n = f.blocks.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, 2 * n + 1);
    for _ in 0..=n {
        g.add_node(());
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        // petgraph lists a node's neighbours last added first and the walk
        // goes into the last listed one first: `then` is added first so it
        // is walked first.
        for t in succs(&bd.term).0.into_iter().flatten() {
            g.add_edge(NodeIndex::new(b), NodeIndex::new(t.0 as usize), ());
        }
    }
    let entry = NodeIndex::new(0);
    // Preorder: the first block without a terminator stops everything.
    let mut pre = vec![usize::MAX; n];
    let mut dfs = Dfs::new(&g, entry);
    let mut count = 0;
    while let Some(b) = dfs.next(&g) {
        let bd = &f.blocks[b.index()];
        if !succs(&bd.term).1 {
            return Err(StructureError::Unterminated { pc: bd.pc });
        }
        pre[b.index()] = count;
        count += 1;
    }
    let (post_rev, rank) = analysis::cfg::reverse_postorder(&g, entry);
    // Back edges: to a block no later in reverse postorder. They are
    // checked in the order the walk meets them, which decides which of
    // several malformed loops is named. From the walk's preorder `pre`,
    // postorder `post` and subtree sizes, the position of a block's
    // discovery among all discoveries and finishes is
    // `pre + post + 1 - size` and of its finish `pre + size + post`; the
    // walk examines a block's first edge right after discovering it and its
    // second right after the first's subtree is finished (or right after
    // the first edge, when that one is not a tree edge).
    let reached = post_rev.len();
    let post = |b: usize| reached - 1 - rank[b];
    let targets = |b: usize| succs(&f.blocks[b].term).0.map(|t| t.map(|t| t.0 as usize));
    let mut size = vec![0usize; n];
    for &b in post_rev.iter().rev() {
        let b = b.index();
        let mut next = pre[b] + 1;
        for t in targets(b).into_iter().flatten() {
            // A tree edge discovers its target next.
            if pre[t] == next {
                next += size[t];
            }
        }
        size[b] = next - pre[b];
    }
    let discovered = |b: usize| pre[b] + post(b) + 1 - size[b];
    let finished = |b: usize| pre[b] + size[b] + post(b);
    let mut back: Vec<((usize, usize), (usize, usize))> = Vec::new();
    for &b in &post_rev {
        let b = b.index();
        let [first, second] = targets(b);
        let tree_first = first.filter(|&t| pre[t] == pre[b] + 1);
        for (k, t) in [first, second].into_iter().enumerate() {
            let Some(t) = t else { continue };
            if rank[t] <= rank[b] {
                let at = match (k, tree_first) {
                    (1, Some(c)) => finished(c),
                    _ => discovered(b),
                };
                back.push(((at, k), (b, t)));
            }
        }
    }
    back.sort_unstable_by_key(|x| x.0);
    let back: Vec<(usize, usize)> = back.into_iter().map(|x| x.1).collect();
    // Loops: one back edge per head, from a latch whose branch either goes
    // back or leaves; every other block of the loop stays inside it.
    let mut loops: Vec<Option<(usize, Block, bool)>> = vec![None; n]; // head -> (latch, exit, back_on)
    for &(latch, head) in &back {
        let err = StructureError::Loop {
            pc: f.blocks[head].pc,
            from_pc: f.blocks[latch].pc,
        };
        if loops[head].is_some() {
            return Err(err);
        }
        let (exit, back_on) = match &f.blocks[latch].term {
            Term::Branch { then, els, .. } if then.block.0 as usize == head => (els.block, true),
            Term::Branch { then, els, .. } if els.block.0 as usize == head => (then.block, false),
            _ => return Err(err),
        };
        // The body: the head and every block that reaches the latch
        // without passing through the head.
        let mut body = vec![false; n];
        body[head] = true;
        let mut st = vec![NodeIndex::new(latch)];
        while let Some(x) = st.pop() {
            if !body[x.index()] {
                body[x.index()] = true;
                st.extend(g.neighbors_directed(x, Direction::Incoming));
            }
        }
        for (x, inb) in body.iter().enumerate() {
            if !inb {
                continue;
            }
            for t in succs(&f.blocks[x].term).0.into_iter().flatten() {
                let t = t.0 as usize;
                let leaves_by_latch = x == latch && t == exit.0 as usize;
                if !body[t] && !leaves_by_latch {
                    return Err(err);
                }
            }
        }
        loops[head] = Some((latch, exit, back_on));
    }
    // Post-dominators of the reachable blocks on the graph without back
    // edges (acyclic, so they are exact), node `n` the virtual exit. Inside
    // the body of a loop `normalize_loops` rewrote, its continues (edges to
    // its latch) are left out instead (a block with nothing else goes to
    // the virtual exit), so a selection there merges where its arms meet
    // when they do not continue; the blocks of the innermost such body take
    // their post-dominators from that graph.
    let ipdom_on = |skip: Option<usize>| {
        let exit = NodeIndex::new(n);
        let mut dag: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, 2 * n + 1);
        for _ in 0..=n {
            dag.add_node(());
        }
        for &b in &post_rev {
            let mut any = false;
            for t in succs(&f.blocks[b.index()].term).0.into_iter().flatten() {
                let t = t.0 as usize;
                if rank[t] > rank[b.index()] && Some(t) != skip {
                    dag.add_edge(b, NodeIndex::new(t), ());
                    any = true;
                }
            }
            if !any {
                dag.add_edge(b, exit, ());
            }
        }
        let pdom = dominators::simple_fast(Reversed(&dag), exit);
        (0..n)
            .map(|b| match pdom.immediate_dominator(NodeIndex::new(b)) {
                Some(m) if m != exit => Some(Block(m.index() as u32)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let mut ipdom = ipdom_on(None);
    let mut bodies: Vec<(usize, Vec<bool>)> = Vec::new();
    for &l in latches {
        let l = l.0 as usize;
        let head = match &f.blocks[l].term {
            Term::Branch { then, .. } => then.block.0 as usize,
            _ => continue,
        };
        if rank[l] == usize::MAX {
            continue;
        }
        let body = loop_body(&g, &rank, n, head, &[l]);
        bodies.push((l, body));
    }
    // Outer bodies first, so the innermost one's post-dominators stay.
    bodies.sort_by_key(|(_, body)| std::cmp::Reverse(body.iter().filter(|x| **x).count()));
    for (l, body) in &bodies {
        let local = ipdom_on(Some(*l));
        for b in (0..n).filter(|&b| body[b] && b != *l) {
            ipdom[b] = local[b];
        }
    }
    let mut st = Structurer {
        f,
        ipdom,
        seen: vec![false; n],
        loops,
        latches,
    };
    st.seq(Block(0), None, None)
}

struct Structurer<'a> {
    f: &'a Func,
    /// Immediate post-dominators (`None`: the virtual exit).
    ipdom: Vec<Option<Block>>,
    seen: Vec<bool>,
    loops: Vec<Option<(usize, Block, bool)>>,
    /// The latches [`normalize_loops`] made.
    latches: &'a [Block],
}

impl Structurer<'_> {
    /// The nodes from `start` to `stop` (exclusive); inside a loop body,
    /// up to and including `latch`.
    fn seq(
        &mut self,
        start: Block,
        stop: Option<Block>,
        latch: Option<Block>,
    ) -> Result<Vec<Node>, StructureError> {
        let mut out = Vec::new();
        let mut b = start;
        loop {
            if Some(b) == stop {
                return Ok(out);
            }
            if self.latches.contains(&b) {
                out.push(Node::Continue { latch: b });
                return Ok(out);
            }
            let bi = b.0 as usize;
            if self.seen[bi] {
                return Err(StructureError::Unstructured {
                    pc: self.f.blocks[bi].pc,
                });
            }
            if let Some((l, exit, back_on)) = self.loops[bi].take() {
                let lb = Block(l as u32);
                let body = self.seq(b, None, Some(lb))?;
                let cond = match &self.f.blocks[l].term {
                    Term::Branch { cond, .. } => *cond,
                    _ => {
                        return Err(StructureError::Unterminated {
                            pc: self.f.blocks[l].pc,
                        })
                    }
                };
                out.push(Node::Loop {
                    header: b,
                    latch: lb,
                    body,
                    cond,
                    back_on,
                    exit,
                    rewritten: self.latches.contains(&lb),
                });
                b = exit;
                continue;
            }
            self.seen[bi] = true;
            out.push(Node::Block(b));
            if Some(b) == latch {
                return Ok(out);
            }
            match &self.f.blocks[bi].term {
                Term::Return => return Ok(out),
                Term::None => {
                    return Err(StructureError::Unterminated {
                        pc: self.f.blocks[bi].pc,
                    })
                }
                Term::Jump(e) => b = e.block,
                Term::Branch { cond, then, els } => {
                    let merge = self.ipdom[bi];
                    let t = self.seq(then.block, merge, latch)?;
                    let e = self.seq(els.block, merge, latch)?;
                    out.push(Node::If {
                        from: b,
                        cond: *cond,
                        then: t,
                        els: e,
                        merge,
                    });
                    match merge {
                        Some(m) => b = m,
                        None => return Ok(out),
                    }
                }
            }
        }
    }
}

/// Deliberately broken loop lowerings for negative-control tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopFaults {
    /// Number a rewritten loop's exit targets backwards when an exit picks
    /// its selector (the dispatch after the loop still counts forwards),
    /// so a loop with two exit targets leaves to the wrong one.
    pub exit_selector_reversed: bool,
}

/// The block graph of `f` (successors in terminator order).
/// The body of the natural loop at `head` with back edges from `latches`
/// (over `n` blocks): `head` and every block that reaches a latch without
/// passing `head`. Blocks the entry does not reach (`rank` `usize::MAX`)
/// are not part of it.
fn loop_body(
    g: &DiGraph<(), ()>,
    rank: &[usize],
    n: usize,
    head: usize,
    latches: &[usize],
) -> Vec<bool> {
    let mut body = vec![false; n];
    body[head] = true;
    let mut st = latches.to_vec();
    while let Some(x) = st.pop() {
        if !body[x] {
            body[x] = true;
            st.extend(
                g.neighbors_directed(NodeIndex::new(x), Direction::Incoming)
                    .map(|p| p.index())
                    .filter(|&p| rank[p] != usize::MAX),
            );
        }
    }
    body
}

fn block_graph(f: &Func) -> DiGraph<(), ()> {
    let n = f.blocks.len();
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, 2 * n);
    for _ in 0..n {
        g.add_node(());
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        for t in succs(&bd.term).0.into_iter().flatten() {
            g.add_edge(NodeIndex::new(b), NodeIndex::new(t.0 as usize), ());
        }
    }
    g
}

fn push(f: &mut Func, op: Op, ty: Ty) -> Value {
    f.insts.push(Inst { op, ty });
    Value(f.insts.len() as u32 - 1)
}

fn new_block(f: &mut Func, pc: u32) -> Block {
    f.blocks.push(BlockData {
        params: Vec::new(),
        insts: Vec::new(),
        term: Term::None,
        pc,
    });
    Block(f.blocks.len() as u32 - 1)
}

fn new_param(f: &mut Func, b: Block, ty: Ty) -> Value {
    let k = f.blocks[b.0 as usize].params.len() as u16;
    let v = push(f, Op::BlockParam(b, k), ty);
    f.blocks[b.0 as usize].params.push(v);
    v
}

fn edges_mut(t: &mut Term) -> Vec<&mut Edge> {
    match t {
        Term::Jump(e) => vec![e],
        Term::Branch { then, els, .. } => vec![then, els],
        _ => Vec::new(),
    }
}

/// A loop found in the current graph: its head, the blocks of its body
/// (the head and every block that reaches a back edge without passing
/// through the head) and the sources of its back edges (one per edge).
struct NaturalLoop {
    head: usize,
    body: Vec<bool>,
    latches: Vec<usize>,
}

impl NaturalLoop {
    /// The shape [`structure`] takes as it is: one back edge, from a
    /// two-way branch whose other edge is the loop's only exit.
    fn is_simple(&self, f: &Func) -> bool {
        let [latch] = self.latches[..] else {
            return false;
        };
        let exit = match &f.blocks[latch].term {
            Term::Branch { then, els, .. } if then.block.0 as usize == self.head => els.block,
            Term::Branch { then, els, .. } if els.block.0 as usize == self.head => then.block,
            _ => return false,
        };
        let exit = exit.0 as usize;
        if self.body[exit] {
            return false;
        }
        self.body.iter().enumerate().filter(|x| *x.1).all(|(x, _)| {
            succs(&f.blocks[x].term)
                .0
                .into_iter()
                .flatten()
                .all(|t| self.body[t.0 as usize] || (x == latch && t.0 as usize == exit))
        })
    }
}

/// Rewrite every loop that [`structure`] cannot take as it is (several back
/// edges, exits from the middle or the head, exits to several targets) into
/// that shape, exactly, innermost first; returns the latch blocks it made.
///
/// For a loop with head `H`, every back edge and every exit edge is sent to
/// one new latch block `L` whose parameters are a selector (0: continue,
/// `k`: leave to the `k`-th exit target, in reverse postorder), a slot for
/// each of `H`'s parameters, a slot for each parameter of each exit target,
/// and a slot for each value defined in the body and used after the loop
/// whose definition no longer dominates its use (an edge from a block the
/// definition does not dominate passes a zero there: no use is reachable
/// that way). `L` branches back to `H` when the selector is 0 and otherwise
/// to a chain of blocks that dispatches on it to the exit targets; the uses
/// after the loop read `L`'s slots instead of the body's values.
///
/// A graph with a retreating edge whose target does not dominate its
/// source (irreducible) is refused, as is a loop that cannot be left.
pub fn normalize_loops(f: &mut Func, faults: LoopFaults) -> Result<Vec<Block>, StructureError> {
    let mut made = Vec::new();
    if f.blocks.is_empty() {
        return Ok(made);
    }
    // Each rewrite leaves its loop in the taken shape, so there are at most
    // as many rounds as loops (back-edge targets); the bound only guards
    // against a rewrite that would not.
    let rounds = f.blocks.len();
    for _ in 0..=rounds {
        let g = block_graph(f);
        let entry = NodeIndex::new(0);
        let (order, rank) = analysis::cfg::reverse_postorder(&g, entry);
        let dom = dominators::simple_fast(&g, entry);
        let dominates = |a: usize, b: usize| {
            dom.dominators(NodeIndex::new(b))
                .is_some_and(|mut it| it.any(|d| d.index() == a))
        };
        let mut heads: Vec<(usize, Vec<usize>)> = Vec::new();
        for &b in &order {
            let b = b.index();
            for t in succs(&f.blocks[b].term).0.into_iter().flatten() {
                let t = t.0 as usize;
                if rank[t] > rank[b] {
                    continue;
                }
                if !dominates(t, b) {
                    return Err(StructureError::Irreducible {
                        pc: f.blocks[t].pc,
                        from_pc: f.blocks[b].pc,
                    });
                }
                match heads.iter_mut().find(|h| h.0 == t) {
                    Some(h) => h.1.push(b),
                    None => heads.push((t, vec![b])),
                }
            }
        }
        let mut pick: Option<NaturalLoop> = None;
        for (head, latches) in heads {
            let body = loop_body(&g, &rank, f.blocks.len(), head, &latches);
            let l = NaturalLoop {
                head,
                body,
                latches,
            };
            if l.is_simple(f) {
                continue;
            }
            let size = |l: &NaturalLoop| l.body.iter().filter(|x| **x).count();
            if pick.as_ref().is_none_or(|p| size(&l) < size(p)) {
                pick = Some(l);
            }
        }
        let Some(l) = pick else {
            return Ok(made);
        };
        made.push(rewrite(f, &l, &rank, &dominates, faults)?);
    }
    Err(StructureError::Unstructured { pc: f.blocks[0].pc })
}

/// Rewrite one loop (see [`normalize_loops`]).
fn rewrite(
    f: &mut Func,
    lp: &NaturalLoop,
    rank: &[usize],
    dominates: &impl Fn(usize, usize) -> bool,
    faults: LoopFaults,
) -> Result<Block, StructureError> {
    let n = f.blocks.len();
    let h = lp.head;
    let body = &lp.body;
    // Exit targets in reverse postorder, and every block with an edge
    // leaving the body or going back.
    let mut targets: Vec<usize> = Vec::new();
    let mut sources: Vec<usize> = Vec::new();
    for x in (0..n).filter(|&x| body[x]) {
        for t in succs(&f.blocks[x].term).0.into_iter().flatten() {
            let t = t.0 as usize;
            if t == h || !body[t] {
                if !sources.contains(&x) {
                    sources.push(x);
                }
                if t != h && !targets.contains(&t) {
                    targets.push(t);
                }
            }
        }
    }
    targets.sort_by_key(|&t| rank[t]);
    let latch_pc = sources.iter().map(|&s| f.blocks[s].pc).max().unwrap_or(0);
    if targets.is_empty() {
        return Err(StructureError::NoExit { pc: f.blocks[h].pc });
    }
    // Where each value is defined (globals are in no block).
    let mut def: std::collections::HashMap<Value, usize> = std::collections::HashMap::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        for &v in bd.params.iter().chain(&bd.insts) {
            def.insert(v, b);
        }
    }
    // Values of the body used outside it whose definition does not
    // dominate every edge into the new latch.
    let mut threaded: Vec<Value> = Vec::new();
    let mut ops = Vec::new();
    for x in (0..n).filter(|&x| !body[x] && rank[x] != usize::MAX) {
        ops.clear();
        for &v in &f.blocks[x].insts {
            f.operands(v, &mut ops);
        }
        match &f.blocks[x].term {
            Term::Jump(e) => ops.extend(&e.args),
            Term::Branch { cond, then, els } => {
                ops.push(*cond);
                ops.extend(&then.args);
                ops.extend(&els.args);
            }
            _ => {}
        }
        for &u in &ops {
            if let Some(&d) = def.get(&u) {
                if body[d] && !sources.iter().all(|&s| dominates(d, s)) && !threaded.contains(&u) {
                    threaded.push(u);
                }
            }
        }
    }
    threaded.sort();
    // The latch and its parameters.
    let l = new_block(f, latch_pc);
    let sel = new_param(f, l, Ty::U32);
    let head_tys: Vec<Ty> = f.blocks[h].params.iter().map(|&p| f.ty(p)).collect();
    let head_slots: Vec<Value> = head_tys.iter().map(|&t| new_param(f, l, t)).collect();
    let mut target_slots: Vec<Vec<Value>> = Vec::new();
    for &t in &targets {
        let tys: Vec<Ty> = f.blocks[t].params.iter().map(|&p| f.ty(p)).collect();
        target_slots.push(tys.iter().map(|&ty| new_param(f, l, ty)).collect());
    }
    let thr_slots: Vec<Value> = threaded
        .iter()
        .map(|&v| {
            let ty = f.ty(v);
            new_param(f, l, ty)
        })
        .collect();
    // Constants: the function's own where it has them.
    let mut consts: std::collections::HashMap<(Ty, u32), Value> = std::collections::HashMap::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if let Op::Const(c) = inst.op {
            consts.entry((inst.ty, c)).or_insert(Value(i as u32));
        }
    }
    let mut konst = |f: &mut Func, ty: Ty, c: u32| {
        *consts
            .entry((ty, c))
            .or_insert_with(|| push(f, Op::Const(c), ty))
    };
    let m = targets.len() as u32;
    // Every back edge and exit edge goes to the latch.
    for &s in &sources {
        let mut term = std::mem::replace(&mut f.blocks[s].term, Term::None);
        for e in edges_mut(&mut term) {
            let t = e.block.0 as usize;
            if t != h && body[t] {
                continue;
            }
            let k = targets.iter().position(|&x| x == t);
            let selector = match k {
                None => 0,
                Some(k) if faults.exit_selector_reversed => m - k as u32,
                Some(k) => k as u32 + 1,
            };
            let mut args = vec![konst(f, Ty::U32, selector)];
            for (i, &ty) in head_tys.iter().enumerate() {
                args.push(if k.is_none() {
                    e.args[i]
                } else {
                    konst(f, ty, 0)
                });
            }
            for (j, slots) in target_slots.iter().enumerate() {
                for (i, &p) in slots.iter().enumerate() {
                    let ty = f.ty(p);
                    args.push(if k == Some(j) {
                        e.args[i]
                    } else {
                        konst(f, ty, 0)
                    });
                }
            }
            for &v in &threaded {
                let ty = f.ty(v);
                args.push(if dominates(def[&v], s) {
                    v
                } else {
                    konst(f, ty, 0)
                });
            }
            *e = Edge {
                block: Block(l.0),
                args,
            };
        }
        f.blocks[s].term = term;
    }
    // The uses after the loop read the latch's slots.
    let map = |v: Value| match threaded.binary_search(&v) {
        Ok(i) => thr_slots[i],
        Err(_) => v,
    };
    for x in (0..n).filter(|&x| !body[x]) {
        let insts = f.blocks[x].insts.clone();
        for v in insts {
            f.map_operands(v, &map);
        }
        let mut term = std::mem::replace(&mut f.blocks[x].term, Term::None);
        if let Term::Branch { cond, .. } = &mut term {
            *cond = map(*cond);
        }
        for e in edges_mut(&mut term) {
            for a in e.args.iter_mut() {
                *a = map(*a);
            }
        }
        f.blocks[x].term = term;
    }
    // The latch: back when the selector is 0, else the dispatch.
    let c0 = konst(f, Ty::U32, 0);
    let back = push(f, Op::Bin(Bin::ICmp(ICmp::Eq), sel, c0), Ty::Bool);
    f.blocks[l.0 as usize].insts.push(back);
    let exit_edge = |j: usize| Edge {
        block: Block(targets[j] as u32),
        args: target_slots[j].clone(),
    };
    let mut els = exit_edge(targets.len() - 1);
    for j in (0..targets.len() - 1).rev() {
        let d = new_block(f, latch_pc);
        let kj = konst(f, Ty::U32, j as u32 + 1);
        let c = push(f, Op::Bin(Bin::ICmp(ICmp::Eq), sel, kj), Ty::Bool);
        f.blocks[d.0 as usize].insts.push(c);
        f.blocks[d.0 as usize].term = Term::Branch {
            cond: c,
            then: exit_edge(j),
            els,
        };
        els = Edge {
            block: d,
            args: Vec::new(),
        };
    }
    f.blocks[l.0 as usize].term = Term::Branch {
        cond: back,
        then: Edge {
            block: Block(h as u32),
            args: head_slots,
        },
        els,
    };
    Ok(l)
}

/// Refuse a per-lane branch (a block of `divergent`, with its pc) with a
/// [`Node::Continue`] to an enclosing loop's latch in one of its arms: in
/// this model each lane would leave or go round on its own, while the
/// hardware's scalar state follows the whole wave.
pub fn per_lane_exits(
    f: &Func,
    tree: &[Node],
    divergent: &std::collections::HashMap<Block, u32>,
) -> Result<(), StructureError> {
    /// The first latch an arm continues to that is not of a loop inside it.
    fn continues(nodes: &[Node], inner: &mut Vec<Block>) -> Option<Block> {
        for n in nodes {
            let found = match n {
                Node::Block(_) => None,
                Node::Continue { latch } => Some(*latch).filter(|l| !inner.contains(l)),
                Node::If { then, els, .. } => {
                    continues(then, inner).or_else(|| continues(els, inner))
                }
                Node::Loop { latch, body, .. } => {
                    inner.push(*latch);
                    let r = continues(body, inner);
                    inner.pop();
                    r
                }
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
    for n in tree {
        match n {
            Node::Block(_) | Node::Continue { .. } => {}
            Node::Loop { body, .. } => per_lane_exits(f, body, divergent)?,
            Node::If {
                from, then, els, ..
            } => {
                if let Some(&pc) = divergent.get(from) {
                    let arms = [then, els];
                    if let Some(l) = arms.iter().find_map(|a| continues(a, &mut Vec::new())) {
                        let head_pc = match &f.blocks[l.0 as usize].term {
                            Term::Branch { then, .. } => f.blocks[then.block.0 as usize].pc,
                            _ => f.blocks[l.0 as usize].pc,
                        };
                        return Err(StructureError::PerLaneExit { pc, head_pc });
                    }
                }
                per_lane_exits(f, then, divergent)?;
                per_lane_exits(f, els, divergent)?;
            }
        }
    }
    Ok(())
}

/// Appends the blocks of `nodes` in order: both arms of selections, loop
/// bodies, and the latches [`normalize_loops`] made.
pub(crate) fn collect_blocks(nodes: &[Node], acc: &mut Vec<Block>) {
    for n in nodes {
        match n {
            Node::Block(b) => acc.push(*b),
            Node::If { then, els, .. } => {
                collect_blocks(then, acc);
                collect_blocks(els, acc);
            }
            Node::Loop {
                body,
                latch,
                rewritten,
                ..
            } => {
                collect_blocks(body, acc);
                if *rewritten {
                    acc.push(*latch);
                }
            }
            Node::Continue { .. } => {}
        }
    }
}
