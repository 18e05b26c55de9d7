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
}

/// Why a graph could not be structured.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StructureError {
    /// A back edge: the block is the head of a loop.
    #[error("block at pc {pc:#x} is the head of a loop (a back edge from pc {from_pc:#x}); loops are not supported")]
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
    // Iterative DFS: postorder numbers and back-edge detection.
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut post = Vec::with_capacity(n);
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
                    1 => {
                        return Err(StructureError::Loop {
                            pc: f.blocks[t].pc,
                            from_pc: f.blocks[b].pc,
                        })
                    }
                    _ => {}
                }
            }
        } else {
            state[b] = 2;
            post.push(b);
            stack.pop();
        }
    }
    // Post-dominators. Number 0 is the virtual exit; real blocks get
    // 1 + their postorder index, so successors have smaller numbers.
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
    };
    st.seq(Block(0), None)
}

struct Structurer<'a> {
    f: &'a Func,
    ipdom: Vec<usize>,
    seen: Vec<bool>,
}

impl Structurer<'_> {
    fn seq(&mut self, start: Block, stop: Option<Block>) -> Result<Vec<Node>, StructureError> {
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
            self.seen[bi] = true;
            out.push(Node::Block(b));
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
                    let t = self.seq(then.block, merge)?;
                    let e = self.seq(els.block, merge)?;
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
