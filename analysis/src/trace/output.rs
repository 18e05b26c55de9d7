//! Turning the fixpoint's records into a [`ShaderTrace`]: stable ids,
//! descriptor bounds and their reasons, notes.

use super::domain::{VVal, Why, WhyKind};
use super::engine::{IdxRead, Outcome, Rec, TraceConfig};
use super::rules::{named_store, Rule};
use crate::cfg::{Cfg, Program};
use crate::source::{Id, IndexSource, Namer, Ptr, PtrId, TableIndex, Word};
use crate::trace::{
    AccessKind, BufferAccess, DescId, Descriptor, IndexBound, IndexUnknown, LdsContract,
    ShaderTrace, Unbound,
};
use isa::family::buf::{self, BufKind};
use isa::{Implicit, Modifiers};

/// Internal ids to output ids, assigned in order of first use.
struct Remap<'a> {
    ptrs_in: &'a [Ptr],
    descs_in: &'a [[Word; 4]],
    ptr_map: Vec<Option<u16>>,
    desc_map: Vec<Option<u16>>,
    pointers: Vec<Ptr>,
    descriptors: Vec<Descriptor>,
}

impl Remap<'_> {
    fn word(&mut self, w: Word) -> Word {
        match w {
            Word::TableWord { table, byte_offset } => match self.ptr(table.0) {
                Some(p) => Word::TableWord {
                    table: PtrId(p),
                    byte_offset,
                },
                None => Word::Unknown,
            },
            Word::BufferWord { desc, byte_offset } => match self.desc(desc.0) {
                Some(d) => Word::BufferWord {
                    desc: DescId(d),
                    byte_offset,
                },
                None => Word::Unknown,
            },
            w => w,
        }
    }

    fn ptr(&mut self, p: u16) -> Option<u16> {
        if let Some(m) = *self.ptr_map.get(p as usize)? {
            return Some(m);
        }
        let src = *self.ptrs_in.get(p as usize)?;
        let ptr = Ptr {
            lo: self.word(src.lo),
            hi: self.word(src.hi),
            add: src.add,
            index: src.index.map(|ix| TableIndex {
                word: self.word(ix.word),
                ..ix
            }),
        };
        let id = u16::try_from(self.pointers.len()).ok()?;
        self.pointers.push(ptr);
        self.ptr_map[p as usize] = Some(id);
        Some(id)
    }

    fn desc(&mut self, d: u16) -> Option<u16> {
        if let Some(m) = *self.desc_map.get(d as usize)? {
            return Some(m);
        }
        let src = *self.descs_in.get(d as usize)?;
        let words = [
            self.word(src[0]),
            self.word(src[1]),
            self.word(src[2]),
            self.word(src[3]),
        ];
        let id = u16::try_from(self.descriptors.len()).ok()?;
        self.descriptors.push(Descriptor {
            id: DescId(id),
            words,
            bound: None,
            reason: None,
            accesses: Vec::new(),
        });
        self.desc_map[d as usize] = Some(id);
        Some(id)
    }

    fn index(&mut self, v: VVal) -> IndexSource {
        match v {
            VVal::Id(id) => IndexSource::Id { id },
            VVal::IdPlus(id, w) => match self.word(w) {
                Word::Unknown => IndexSource::Unknown,
                word => IndexSource::IdPlus { id, word },
            },
            VVal::Num(_) | VVal::Lds(..) | VVal::LdsPlus(..) | VVal::Unknown(_) => {
                IndexSource::Unknown
            }
        }
    }
}

fn op_name(prog: &Program, pc: u32) -> &'static str {
    prog.line_at(pc)
        .and_then(|i| prog.lines[i].inst.as_ref().ok())
        .map(|i| i.opcode.name())
        .unwrap_or("?")
}

/// Why an index is unknown, typed (the mnemonic read from the program).
fn index_unknown(prog: &Program, w: Why) -> IndexUnknown {
    let at = w.pc;
    let opcode = || op_name(prog, at).to_string();
    match w.kind {
        WhyKind::Entry => IndexUnknown::NoEntryId,
        WhyKind::Other => IndexUnknown::NoRule {
            at,
            opcode: opcode(),
        },
        WhyKind::Partial => IndexUnknown::PartlyOverwritten {
            at,
            opcode: opcode(),
        },
        WhyKind::Widen => IndexUnknown::LoopChanges { at },
        WhyKind::Join => IndexUnknown::PathsDiffer { at },
        WhyKind::Mixed => IndexUnknown::OutsideExecMask { at },
        WhyKind::CrossLane => IndexUnknown::CrossLane {
            at,
            opcode: opcode(),
        },
        WhyKind::Havoc => IndexUnknown::Untraceable {
            at,
            opcode: opcode(),
        },
        WhyKind::Load => IndexUnknown::FromMemory {
            at,
            opcode: opcode(),
        },
        WhyKind::Lanes => IndexUnknown::NotVertexLanes,
        WhyKind::Lds => IndexUnknown::FromLds {
            at,
            opcode: opcode(),
        },
        WhyKind::LdsUnplaced => IndexUnknown::LdsWriteUnplaced {
            at,
            opcode: opcode(),
        },
        WhyKind::LdsOther => IndexUnknown::LdsOtherValue {
            at,
            opcode: opcode(),
        },
        WhyKind::LdsPartial => IndexUnknown::LdsPartialOverlap {
            at,
            opcode: opcode(),
        },
        WhyKind::LdsUnwritten => IndexUnknown::LdsUnwritten {
            at,
            opcode: opcode(),
        },
        WhyKind::LdsTwoWords => IndexUnknown::LdsTwoWords {
            at,
            opcode: opcode(),
        },
        WhyKind::NotId => IndexUnknown::Number { at },
    }
}

/// [`index_unknown`]s made so far (an access's note and its descriptor's
/// reason often give the same one).
struct WhyTexts<'a> {
    prog: &'a Program,
    done: Vec<(Why, IndexUnknown)>,
}

impl WhyTexts<'_> {
    fn why(&mut self, w: Why) -> IndexUnknown {
        if let Some((_, t)) = self.done.iter().find(|(x, _)| *x == w) {
            return t.clone();
        }
        let t = index_unknown(self.prog, w);
        self.done.push((w, t.clone()));
        t
    }
}

fn source_text(pointers: &[Ptr], s: IndexSource, lds: Option<LdsContract>) -> String {
    let via = match lds {
        Some(c) => format!(
            " through LDS cells {:#x} mod {:#x}",
            c.class.offset, c.class.stride
        ),
        None => String::new(),
    };
    match IndexBound::from_source(s) {
        Some(IndexBound { id, plus: None, .. }) => format!("{}{via}", id.name()),
        Some(IndexBound {
            id, plus: Some(w), ..
        }) => {
            format!("{} + {}{via}", id.name(), Namer { pointers }.word_string(w))
        }
        None => "an unknown value".into(),
    }
}

/// An index value with its LDS reads resolved: an id (+ word) and the
/// contract it needs, or unknown with why.
type LdsResolved = Result<(VVal, LdsContract), Why>;

fn resolve_index(v: VVal, lds: &[(LdsResolved, u32)], pc: u32) -> (VVal, Option<LdsContract>) {
    let at = |k: u16| {
        lds.get(k as usize)
            .map(|x| x.0)
            .unwrap_or(Err(Why::new(WhyKind::Lds, pc)))
    };
    let read_pc = |k: u16| lds.get(k as usize).map_or(pc, |x| x.1);
    // The id the paths that skip LDS hold must be the one the class holds.
    let agrees = |src: VVal, alt: Option<Id>| match (src, alt) {
        (_, None) => true,
        (VVal::Id(id), Some(a)) => id == a,
        _ => false,
    };
    match v {
        VVal::Lds(k, alt) => match at(k) {
            Ok((src, c)) if agrees(src, alt) => (src, Some(c)),
            Ok(_) => (VVal::Unknown(Why::new(WhyKind::Join, read_pc(k))), None),
            Err(w) => (VVal::Unknown(w), None),
        },
        VVal::LdsPlus(k, alt, word) => match at(k) {
            Ok((VVal::Id(id), c)) if agrees(VVal::Id(id), alt) => (VVal::IdPlus(id, word), Some(c)),
            Ok((VVal::Id(_), _)) => (VVal::Unknown(Why::new(WhyKind::Join, read_pc(k))), None),
            Ok(_) => (
                VVal::Unknown(Why::new(WhyKind::LdsTwoWords, read_pc(k))),
                None,
            ),
            Err(w) => (VVal::Unknown(w), None),
        },
        VVal::Num(_) => (VVal::Unknown(Why::new(WhyKind::NotId, pc)), None),
        v => (v, None),
    }
}

/// Assemble the trace.
pub(crate) fn build(prog: &Program, cfg: &Cfg, conf: &TraceConfig, out: Outcome) -> ShaderTrace {
    let mut notes: Vec<String> = cfg.problems.iter().map(|p| p.to_string()).collect();
    let mut incomplete = notes
        .first()
        .map(|note| Unbound::TraceIncomplete { note: note.clone() });
    if let Some(why) = &out.incomplete {
        notes.push(why.clone());
        incomplete = incomplete.or(Some(Unbound::TraceIncomplete { note: why.clone() }));
    }
    if !conf.stage.is_vertex() {
        notes.push(format!(
            "{} stage: no vertex or instance ids",
            conf.stage.name()
        ));
    }
    let mut remap = Remap {
        ptrs_in: &out.ptrs,
        descs_in: &out.descs,
        ptr_map: vec![None; out.ptrs.len()],
        desc_map: vec![None; out.descs.len()],
        pointers: Vec::new(),
        descriptors: Vec::new(),
    };
    let mut accesses = Vec::with_capacity(out.marked.len());
    // (descriptor, pc, index, LDS contract) of every access, for the bounds.
    let mut uses: Vec<(u16, u32, IdxRead, Option<LdsContract>)> =
        Vec::with_capacity(out.marked.len());
    let lds: Vec<(LdsResolved, u32)> = out
        .lds_classes
        .iter()
        .map(|&(c, pc)| {
            let first_wins = out.faults.lds_first_write_wins;
            (super::lds::resolve(c, pc, &out.lds_writes, first_wins), pc)
        })
        .collect();
    let mut whys = WhyTexts {
        prog,
        done: Vec::new(),
    };
    let mut wrote_memory = false;
    // The first access (that runs) whose descriptor is not traced: it may go
    // through any descriptor, with any index.
    let mut untraced: Option<u32> = None;
    // Only marked lines can add anything (see `Marked`).
    for m in &out.marked {
        let Some(line) = prog.lines.get(m.line as usize) else {
            continue;
        };
        let Ok(inst) = &line.inst else { continue };
        let (r, imp) = (m.rule, m.imp);
        if imp.contains(Implicit::RELATIVE) && inst.operands.as_slice().iter().any(|s| s.is_def()) {
            notes.push(format!(
                "pc {:#x}: {} writes a register chosen by m0; the tracer forgets that register file",
                line.pc,
                inst.opcode.name()
            ));
        }
        let reached = m.rec.is_some();
        let rec: Option<Rec> = match m.rec {
            Some(rec) => Some(rec),
            None => unreached_access(inst, r),
        };
        let stores = || match &rec {
            Some(rec) => rec.kind != AccessKind::Load,
            None if imp.contains(Implicit::MEMORY) => named_store(inst.opcode),
            None => false,
        };
        if !wrote_memory && stores() {
            wrote_memory = true;
            let name = inst.opcode.name();
            notes.push(format!(
                "pc {:#x}: the shader writes memory ({name}); traced table words assume the tables it reads do not change during the draw",
                line.pc
            ));
        }
        let Some(rec) = rec else { continue };
        let name = inst.opcode.name();
        let desc = rec.desc.and_then(|d| remap.desc(d));
        let (read, through_lds) = match rec.index {
            IdxRead::Val(v) if reached => {
                let (v, c) = resolve_index(v, &lds, line.pc);
                (IdxRead::Val(v), c)
            }
            r => (r, None),
        };
        let (index, index_note) = match read {
            IdxRead::NotIndexed => (None, None),
            IdxRead::NoLanes => (
                Some(IndexSource::Unknown),
                Some("no lane is active here (exec is zero)".to_string()),
            ),
            IdxRead::Val(v) => {
                let s = remap.index(v);
                let note = match v {
                    VVal::Unknown(w) if reached => Some(whys.why(w).to_string()),
                    _ if !reached => Some("never reached from the entry".to_string()),
                    _ => None,
                };
                (Some(s), note)
            }
        };
        let mut untraced_base = None;
        if let Some(d) = desc {
            remap.descriptors[d as usize].accesses.push(line.pc);
            uses.push((d, line.pc, read, through_lds));
        } else if reached && rec.index != IdxRead::NoLanes {
            // The rule of ARCHITECTURE.md ("untraced accesses"): with its
            // base words traced, the access can only alias a descriptor
            // whose base equals that base, which the bind plan checks per
            // draw; otherwise it may go through any descriptor.
            let base = rec.base_words.map(|w| remap.word(w));
            if base.iter().all(|w| w.is_known()) && !out.faults.untraced_unbinds_nothing {
                untraced_base = Some(base);
            } else if out.faults.untraced_unbinds_nothing {
                // The broken rule: an untraced access is ignored.
            } else if untraced.is_none() {
                untraced = Some(line.pc);
            }
        }
        accesses.push(BufferAccess {
            pc: line.pc,
            opcode: name.to_string(),
            kind: rec.kind,
            descriptor: desc.map(DescId),
            idxen: rec.idxen,
            offen: rec.offen,
            index,
            index_note,
            through_lds,
            imm_offset: rec.imm_offset,
            soffset: remap.word(rec.soffset),
            bytes: rec.bytes,
            untraced_base,
        });
    }
    let mut trace = ShaderTrace {
        pointers: Vec::new(),
        descriptors: Vec::new(),
        accesses,
        notes,
    };
    if let Some(pc) = untraced {
        trace.notes.push(Unbound::untraced_note(pc));
        incomplete = incomplete.or(Some(Unbound::UntracedDescriptor { pc }));
    }
    let mut descriptors = core::mem::take(&mut remap.descriptors);
    let mut mine: Vec<(u32, IdxRead, Option<LdsContract>)> = Vec::with_capacity(uses.len());
    for d in descriptors.iter_mut() {
        mine.clear();
        mine.extend(
            uses.iter()
                .filter(|u| u.0 == d.id.0)
                .map(|u| (u.1, u.2, u.3)),
        );
        let (bound, reason) = decide(&mut whys, &mut remap, &mine, incomplete.as_ref());
        d.bound = bound;
        d.reason = reason;
    }
    trace.pointers = remap.pointers;
    trace.descriptors = descriptors;
    trace
}

/// The bound of one descriptor from its accesses (pc, index read).
fn decide(
    whys: &mut WhyTexts<'_>,
    remap: &mut Remap<'_>,
    uses: &[(u32, IdxRead, Option<LdsContract>)],
    incomplete: Option<&Unbound>,
) -> (Option<IndexBound>, Option<Unbound>) {
    if let Some(why) = incomplete {
        return (None, Some(why.clone()));
    }
    let live = || {
        uses.iter().filter_map(|&(pc, r, c)| match r {
            IdxRead::Val(v) => Some((pc, v, c)),
            _ => None,
        })
    };
    let Some((pc0, v0, c0)) = live().next() else {
        let any_idx = uses.iter().any(|u| u.1 == IdxRead::NoLanes);
        let why = if any_idx {
            Unbound::NoActiveIdxenAccess
        } else {
            Unbound::NoIdxenAccess
        };
        return (None, Some(why));
    };
    if let Some((pc, VVal::Unknown(w), _)) = live().find(|(_, v, _)| !v.is_known()) {
        let why = whys.why(w);
        return (None, Some(Unbound::UnknownIndex { pc, why }));
    }
    // Every access agrees with the first on the id and word; at most one
    // LDS contract among them.
    let mut agreed = IndexBound::from_access(remap.index(v0), c0);
    let mut first_lds = (pc0, v0, c0);
    for (pc1, v1, c1) in live() {
        let this = IndexBound::from_access(remap.index(v1), c1);
        if c1.is_some() && first_lds.2.is_none() {
            first_lds = (pc1, v1, c1);
        }
        let merged = match (agreed, this) {
            (Some(a), Some(b)) if v1 == v0 => a.agree(b),
            _ if v1 == v0 && c1 == c0 => agreed,
            _ => None,
        };
        if merged.is_none() && (v1 != v0 || agreed.is_some()) {
            let (pa, va, ca) = if v1 == v0 { first_lds } else { (pc0, v0, c0) };
            let a = remap.index(va);
            let b = remap.index(v1);
            return (
                None,
                Some(Unbound::AccessesDisagree {
                    pc: pa,
                    index: source_text(&remap.pointers, a, ca),
                    other_pc: pc1,
                    other_index: source_text(&remap.pointers, b, c1),
                }),
            );
        }
        agreed = merged;
    }
    match agreed {
        Some(b) => (Some(b), None),
        None => (None, Some(Unbound::IndexWordNotTraced { pc: pc0 })),
    }
}

/// A buffer access the fixpoint never reached (dead code), or `None` when
/// the instruction is not an access.
fn unreached_access(inst: &isa::Instruction, r: Rule) -> Option<Rec> {
    match r {
        Rule::Buf => {
            let Modifiers::Buf(m) = inst.mods else {
                return None;
            };
            let acc = buf::access(inst.opcode, &m)?;
            let kind = match acc.kind {
                BufKind::Load => AccessKind::Load,
                BufKind::Store => AccessKind::Store,
                BufKind::Atomic => AccessKind::Atomic,
                BufKind::Invalidate => return None,
            };
            Some(Rec {
                kind,
                desc: None,
                idxen: m.idxen,
                offen: m.offen,
                index: if m.idxen {
                    IdxRead::Val(VVal::Unknown(Why::new(WhyKind::Other, 0)))
                } else {
                    IdxRead::NotIndexed
                },
                imm_offset: m.offset as u32,
                soffset: Word::Unknown,
                bytes: acc.bytes.unwrap_or(acc.max_bytes),
                base_words: [Word::Unknown; 2],
            })
        }
        Rule::SBufLoad => {
            let n = match inst.operands.first().map(|s| s.op) {
                Some(isa::Operand::Reg { count, .. }) => count as u32,
                _ => return None,
            };
            let off = match inst.mods {
                Modifiers::Smem(m) => m.offset as u32,
                _ => 0,
            };
            Some(Rec {
                kind: AccessKind::Load,
                desc: None,
                idxen: false,
                offen: false,
                index: IdxRead::NotIndexed,
                imm_offset: off,
                soffset: Word::Unknown,
                bytes: 4 * n,
                base_words: [Word::Unknown; 2],
            })
        }
        _ => None,
    }
}
