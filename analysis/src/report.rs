//! Text forms of a trace and a graph, for the command line and snapshots.
//!
//! [`trace_json`] is the machine form other tools read; its field names are
//! stable:
//!
//! ```json
//! {
//!   "descriptors": [
//!     { "id": 0, "source": "table(ud0)+0x10",
//!       "words": ["table(ud0)+0x10", "table(ud0)+0x14", "table(ud0)+0x18", "table(ud0)+0x1c"],
//!       "bound": { "id": "vertex_id", "plus": "ud1" },
//!       "reason": null,
//!       "accesses": [76, 88] }
//!   ],
//!   "accesses": [
//!     { "pc": 76, "opcode": "buffer_load_dwordx4", "kind": "load", "descriptor": 0,
//!       "idxen": true, "offen": false,
//!       "index": { "id": "vertex_id", "plus": "ud1" }, "index_note": null,
//!       "offset": 16, "soffset": "0x0", "bytes": 16 }
//!   ],
//!   "notes": []
//! }
//! ```
//!
//! - `bound` is `null` or `{"id": "vertex_id"|"instance_id", "plus": null | word}`;
//!   a word is named like `ud1`, `0x10` or `table(ud0)+0x8`. A bound (or
//!   index) that went through LDS also has
//!   `"through_lds": {"class": {"stride": 28, "offset": 20}, "requires_init": true}`:
//!   it holds only when the LDS cells `offset + k·stride` are initialised
//!   first ([`crate::trace::LdsContract`]).
//! - An access's `index` is `null` without `idxen`, else an object like
//!   `bound` whose `id` is `null` when the index is not traced
//!   (`index_note` says why).
//! - pcs are byte offsets into the code.

use crate::cfg::{Cfg, Program};
use crate::source::{IndexSource, Word};
use crate::trace::{AccessKind, IndexBound, LdsContract, ShaderTrace};
use core::fmt::Write as _;
use serde_json::{json, Value};

fn bound_json(t: &ShaderTrace, b: Option<IndexBound>) -> Value {
    match b {
        None => Value::Null,
        Some(b) => {
            let mut v = json!({
                "id": b.id.name(),
                "plus": b.plus.map(|w| t.namer().word_string(w)),
            });
            if let (Some(c), Some(o)) = (b.through_lds, v.as_object_mut()) {
                o.insert("through_lds".into(), contract_json(c));
            }
            v
        }
    }
}

fn contract_json(c: LdsContract) -> Value {
    json!({
        "class": { "stride": c.class.stride, "offset": c.class.offset },
        "requires_init": c.requires_init,
    })
}

fn bound_text(t: &ShaderTrace, b: &IndexBound) -> String {
    match b.plus {
        None => b.id.name().to_string(),
        Some(w) => format!("{} + {}", b.id.name(), t.namer().word_string(w)),
    }
}

/// The contract line under a bound that went through LDS.
fn contract_text(c: LdsContract) -> String {
    let cells = if c.class.stride == 0 {
        format!("LDS cell {:#x}", c.class.offset)
    } else {
        format!("LDS cells {:#x} + k*{:#x}", c.class.offset, c.class.stride)
    };
    if c.requires_init {
        format!("through {cells}: holds only if they are initialised first (LDS contract)")
    } else {
        format!("through {cells}")
    }
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "load",
        AccessKind::Store => "store",
        AccessKind::Atomic => "atomic",
    }
}

/// The trace as JSON (see the module docs for the shape).
pub fn trace_json(t: &ShaderTrace) -> Value {
    let n = t.namer();
    let descriptors: Vec<Value> = t
        .descriptors
        .iter()
        .map(|d| {
            let mut v = json!({
                "id": d.id.0,
                "source": t.descriptor_source(d),
                "words": d.words.iter().map(|w| n.word_string(*w)).collect::<Vec<_>>(),
                "bound": bound_json(t, d.bound),
                "reason": d.reason.as_ref().map(ToString::to_string),
                "accesses": d.accesses,
            });
            // A descriptor read from a table at a per-draw offset.
            let index = d.words.iter().find_map(|w| match w {
                Word::TableWord { table, .. } => t.pointers.get(table.0 as usize)?.index,
                _ => None,
            });
            if let (Some(ix), Some(o)) = (index, v.as_object_mut()) {
                o.insert(
                    "table_index".into(),
                    json!({"word": n.word_string(ix.word), "scale": ix.scale, "offset": ix.offset}),
                );
            }
            v
        })
        .collect();
    let accesses: Vec<Value> = t
        .accesses
        .iter()
        .map(|a| {
            let index = match a.index {
                None => Value::Null,
                Some(IndexSource::Unknown) => json!({ "id": null, "plus": null }),
                Some(s) => bound_json(t, IndexBound::from_access(s, a.through_lds)),
            };
            let mut v = json!({
                "pc": a.pc,
                "opcode": a.opcode,
                "kind": kind_name(a.kind),
                "descriptor": a.descriptor.map(|d| d.0),
                "idxen": a.idxen,
                "offen": a.offen,
                "index": index,
                "index_note": a.index_note,
                "offset": a.imm_offset,
                "soffset": n.word_string(a.soffset),
                "bytes": a.bytes,
            });
            if let (Some(b), Some(o)) = (a.untraced_base, v.as_object_mut()) {
                o.insert(
                    "untraced_base".into(),
                    json!([n.word_string(b[0]), n.word_string(b[1])]),
                );
            }
            v
        })
        .collect();
    json!({
        "descriptors": descriptors,
        "accesses": accesses,
        "notes": t.notes,
    })
}

/// The trace as a short human-readable table.
pub fn trace_table(t: &ShaderTrace) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "descriptors:");
    if t.descriptors.is_empty() {
        let _ = writeln!(s, "  (none)");
    }
    for d in &t.descriptors {
        let bound = match &d.bound {
            Some(b) => bound_text(t, b),
            None => "unbound".into(),
        };
        let pcs: Vec<String> = d.accesses.iter().map(|pc| format!("{pc:#x}")).collect();
        let _ = writeln!(
            s,
            "  d{:<3} {:<28} {:<28} at {}",
            d.id.0,
            t.descriptor_source(d),
            bound,
            pcs.join(" ")
        );
        if let Some(r) = &d.reason {
            let _ = writeln!(s, "        {r}");
        }
        if let Some(c) = d.bound.and_then(|b| b.through_lds) {
            let _ = writeln!(s, "        {}", contract_text(c));
        }
    }
    let _ = writeln!(s, "accesses:");
    if t.accesses.is_empty() {
        let _ = writeln!(s, "  (none)");
    }
    for a in &t.accesses {
        let desc = match a.descriptor {
            Some(d) => format!("d{}", d.0),
            None => "?".into(),
        };
        let index = match a.index {
            None if a.offen => "offen".to_string(),
            None => "-".to_string(),
            Some(IndexSource::Unknown) => "unknown".to_string(),
            Some(src) => match IndexBound::from_source(src) {
                Some(b) => bound_text(t, &b),
                None => "unknown".into(),
            },
        };
        let _ = writeln!(
            s,
            "  {:#06x} {:<28} {:<5} {:<28} offset {:#x} bytes {}",
            a.pc, a.opcode, desc, index, a.imm_offset, a.bytes
        );
        if let Some(note) = &a.index_note {
            let _ = writeln!(s, "         {note}");
        }
    }
    if !t.notes.is_empty() {
        let _ = writeln!(s, "notes:");
        for note in &t.notes {
            let _ = writeln!(s, "  {note}");
        }
    }
    s
}

/// The graph in Graphviz dot (see [`Cfg::write_dot`]).
pub fn cfg_dot(program: &Program, cfg: &Cfg) -> String {
    let mut s = String::new();
    let _ = cfg.write_dot(program, &mut s);
    s
}

/// The graph as a block list: each block's range, how it ends, its
/// successors and immediate dominator, then the problems.
pub fn cfg_text(program: &Program, cfg: &Cfg) -> String {
    use crate::cfg::Terminator;
    use petgraph::visit::EdgeRef;
    let mut s = String::new();
    let dom = cfg.dominators();
    for n in cfg.graph.node_indices() {
        let b = &cfg.graph[n];
        let end = match b.term {
            Terminator::FallThrough => "falls through".to_string(),
            Terminator::Branch { target } => format!("branch to {target:#x}"),
            Terminator::CondBranch { cond, target } => format!("{cond:?} branch to {target:#x}"),
            Terminator::End => "end".to_string(),
            Terminator::Indirect { opcode } => format!("{} (not followed)", opcode.name()),
            Terminator::OffEnd => "runs off the end".to_string(),
        };
        let succ: Vec<String> = cfg
            .graph
            .edges(n)
            .map(|e| {
                let mut x = format!("b{}", e.target().index());
                if e.weight().exec_zero {
                    x.push_str("(exec=0)");
                }
                x
            })
            .collect();
        let idom = dom
            .as_ref()
            .and_then(|d| d.immediate_dominator(n))
            .map(|i| format!("b{}", i.index()))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "b{:<3} {:#06x}..{:#06x} {:>3} insts  {:<28} -> {:<16} idom {}",
            n.index(),
            b.start,
            b.end,
            b.lines.len(),
            end,
            if succ.is_empty() {
                "-".into()
            } else {
                succ.join(" ")
            },
            idom
        );
    }
    let _ = program;
    for p in &cfg.problems {
        let _ = writeln!(s, "problem: {p}");
    }
    s
}
