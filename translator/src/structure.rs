//! Structured control flow from the IR's block graph.
//!
//! SPIR-V needs every conditional branch to name the block where its arms
//! meet. For an acyclic graph that block is the branch's immediate
//! post-dominator; the arms are the blocks between the branch and that
//! point. [`structure`] builds the tree of sequences and selections, and
//! refuses a graph where an arm is not a single-entry region of its own (a
//! block reached from two arms) or where a back edge forms a loop.

use crate::ir::{Block, Func, Term, Value};
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
    // edges (acyclic, so they are exact), node `n` the virtual exit.
    let exit = NodeIndex::new(n);
    let mut dag: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, 2 * n + 1);
    for _ in 0..=n {
        dag.add_node(());
    }
    for &b in &post_rev {
        let mut any = false;
        for t in succs(&f.blocks[b.index()].term).0.into_iter().flatten() {
            let t = t.0 as usize;
            if rank[t] > rank[b.index()] {
                dag.add_edge(b, NodeIndex::new(t), ());
                any = true;
            }
        }
        if !any {
            dag.add_edge(b, exit, ());
        }
    }
    let pdom = dominators::simple_fast(Reversed(&dag), exit);
    let ipdom = (0..n)
        .map(|b| match pdom.immediate_dominator(NodeIndex::new(b)) {
            Some(m) if m != exit => Some(Block(m.index() as u32)),
            _ => None,
        })
        .collect();
    let mut st = Structurer {
        f,
        ipdom,
        seen: vec![false; n],
        loops,
    };
    st.seq(Block(0), None, None)
}

struct Structurer<'a> {
    f: &'a Func,
    /// Immediate post-dominators (`None`: the virtual exit).
    ipdom: Vec<Option<Block>>,
    seen: Vec<bool>,
    loops: Vec<Option<(usize, Block, bool)>>,
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
