//! Structured control flow from the IR's block graph.
//!
//! SPIR-V needs every conditional branch to name the block where its arms
//! meet. For an acyclic graph that block is the branch's immediate
//! post-dominator; the arms are the blocks between the branch and that
//! point. [`structure`] builds the tree of sequences and selections, and
//! refuses a graph where an arm is not a single-entry region of its own (a
//! block reached from two arms) or where a back edge forms a loop.

use crate::ir::{Block, Func, Term, Value};

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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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
pub fn structure(f: &Func) -> Result<Vec<Node>, StructureError> {
    let n = f.blocks.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    // Iterative DFS: postorder numbers and back edges (to a block still on
    // the stack).
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut post = Vec::with_capacity(n);
    let mut back: Vec<(usize, usize)> = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some(&mut (b, ref mut i)) = stack.last_mut() {
        let (s, ok) = succs(&f.blocks[b].term);
        if !ok {
            return Err(StructureError::Unterminated { pc: f.blocks[b].pc });
        }
        if *i < 2 {
            let k = *i;
            *i += 1;
            if let Some(t) = s[k] {
                let t = t.0 as usize;
                match state[t] {
                    0 => {
                        state[t] = 1;
                        stack.push((t, 0));
                    }
                    1 => back.push((b, t)),
                    _ => {}
                }
            }
        } else {
            state[b] = 2;
            post.push(b);
            stack.pop();
        }
    }
    // Loops: one back edge per head, from a latch whose branch either goes
    // back or leaves; every other block of the loop stays inside it.
    let mut loops: Vec<Option<(usize, Block, bool)>> = vec![None; n]; // head -> (latch, exit, back_on)
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, bd) in f.blocks.iter().enumerate() {
        for t in succs(&bd.term).0.into_iter().flatten() {
            preds[t.0 as usize].push(b);
        }
    }
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
        let mut body = vec![false; n];
        body[head] = true;
        let mut st = vec![latch];
        while let Some(x) = st.pop() {
            if !body[x] {
                body[x] = true;
                st.extend(preds[x].iter().copied());
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
    let is_back = |b: usize, t: usize| back.contains(&(b, t));
    // Post-dominators on the graph without back edges. Number 0 is the
    // virtual exit; real blocks get 1 + their postorder index, so
    // successors have smaller numbers.
    const NONE: usize = usize::MAX;
    let mut num = vec![NONE; n];
    for (i, &b) in post.iter().enumerate() {
        num[b] = i + 1;
    }
    // ipdom as a node: NONE = virtual exit.
    let mut ipdom = vec![NONE; n];
    let numof = |x: usize, num: &Vec<usize>| if x == NONE { 0 } else { num[x] };
    for &b in &post {
        let (s, _) = succs(&f.blocks[b].term);
        let mut cur: Option<usize> = None;
        for t in s.into_iter().flatten() {
            let t = t.0 as usize;
            if is_back(b, t) {
                continue;
            }
            cur = Some(match cur {
                None => t,
                Some(c) => {
                    let (mut x, mut y) = (c, t);
                    while x != y {
                        while numof(x, &num) > numof(y, &num) {
                            x = ipdom[x];
                        }
                        while numof(y, &num) > numof(x, &num) {
                            y = ipdom[y];
                        }
                    }
                    x
                }
            });
        }
        ipdom[b] = cur.unwrap_or(NONE);
    }
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
    ipdom: Vec<usize>,
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
                    let m = self.ipdom[bi];
                    let merge = (m != usize::MAX).then_some(Block(m as u32));
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
