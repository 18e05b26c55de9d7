//! The soundness check of one draw: every byte the draw's waves fetched
//! through a descriptor lies inside the range bound for that descriptor.
//!
//! The trace names each buffer instruction's descriptor (by pc); a fetch by
//! an active lane at that pc is checked against the descriptor's bound
//! range. Two kinds of [`Violation`]:
//!
//! - [`ViolationKind::OutsideRange`]: a fetched byte lies outside the range.
//! - [`ViolationKind::PastReachable`]: a narrowed range ends past the last
//!   byte the hardware's range check lets any draw reach (record
//!   `num_records − 1` plus the widest access) — narrowing must never
//!   bind more than the baseline. This is computed from the descriptor the
//!   waves really used and the accesses' immediate offsets and sizes.
//!
//! Tightness of a narrowed binding is
//! `(range end − base) / (last fetched byte end − base)`: 1.0 when the range
//! ends exactly where the last fetched record does.

use crate::driver::DrawRun;
use crate::memops::Vsharp;
use crate::record::{BufferFetch, Finding};
use analysis::source::Word;
use analysis::trace::{DescId, ShaderTrace};
use serde::Serialize;
use std::collections::HashMap;

/// A range bound for one descriptor for one draw (what drawbind computed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Binding {
    /// The trace's descriptor.
    pub descriptor: DescId,
    /// First byte.
    pub base: u64,
    /// Bytes.
    pub size: u64,
    /// The narrowing rule set the end.
    pub narrowed: bool,
    /// Why (drawbind's reason).
    pub reason: String,
}

impl Binding {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.base.saturating_add(self.size)
    }
}

/// What is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// A fetched byte lies outside the bound range.
    OutsideRange,
    /// A narrowed range ends past what the hardware can reach.
    PastReachable,
    /// A fetch outside the baseline range of a descriptor whose range
    /// checking is disabled (OOB_SELECT 2): the hardware reads whatever the
    /// index gives, and drawbind binds what the descriptor declares (D733).
    /// Reported, not counted: no bind rule can bound such a read.
    UncheckedOverread,
}

/// One violation, with what it takes to reproduce it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// What is wrong.
    pub kind: ViolationKind,
    /// The descriptor.
    pub descriptor: DescId,
    /// The descriptor's source (`table(ud0)+0x0`).
    pub source: String,
    /// The bound range `[base, end)`.
    pub range: [u64; 2],
    /// The buffer instruction (for `PastReachable`: one that used the
    /// descriptor).
    pub pc: u32,
    /// The wave (its number in the draw run).
    pub wave: u32,
    /// The lane.
    pub lane: u8,
    /// The instance the wave ran.
    pub instance: u32,
    /// The vertex id the hardware gave the lane at entry, if it was a
    /// vertex thread (culling shaders may fetch for another vertex after
    /// compaction).
    pub entry_vertex_id: Option<u32>,
    /// The record index of the access.
    pub index: Option<u32>,
    /// First fetched byte (for `PastReachable`: the reachable end).
    pub addr: u64,
    /// Bytes fetched.
    pub len: u32,
}

/// One binding's result for one draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BindingCheck {
    /// The descriptor.
    pub descriptor: DescId,
    /// Its source.
    pub source: String,
    /// The range.
    pub base: u64,
    /// Its size.
    pub size: u64,
    /// Narrowed by the draw's ids.
    pub narrowed: bool,
    /// drawbind's reason.
    pub reason: String,
    /// Fetch records through the descriptor.
    pub fetches: usize,
    /// The first fetched byte and one past the last.
    pub fetched: Option<[u64; 2]>,
    /// `(range end − base) / (last fetched end − base)`, for narrowed
    /// bindings with fetches.
    pub tightness: Option<f64>,
    /// Violations through this descriptor.
    pub violations: usize,
}

/// The result of checking one draw.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DrawCheck {
    /// Per binding.
    pub bindings: Vec<BindingCheck>,
    /// Every violation.
    pub violations: Vec<Violation>,
    /// Accesses whose address was undefined in an active lane (reported,
    /// not counted as fetches; a sound verdict needs none).
    pub undefined: Vec<Finding>,
    /// Fetches at pcs the trace names no descriptor for (the emulator
    /// cannot bind them by this plan).
    pub untraced: usize,
    /// Fetches past the declared extent of unchecked descriptors (not
    /// violations; see [`ViolationKind::UncheckedOverread`]).
    pub unchecked_overreads: Vec<Violation>,
}

/// Check one draw's fetches against its bindings.
pub fn check_draw(run: &DrawRun, trace: &ShaderTrace, bindings: &[Binding]) -> DrawCheck {
    let mut out = DrawCheck::default();
    let desc_of: HashMap<u32, Option<DescId>> = trace
        .accesses
        .iter()
        .map(|a| (a.pc, a.descriptor))
        .collect();
    let source = |d: DescId| -> String {
        trace
            .descriptors
            .iter()
            .find(|x| x.id == d)
            .map(|x| trace.descriptor_source(x))
            .unwrap_or_else(|| format!("descriptor {}", d.0))
    };
    let by_desc: HashMap<DescId, &Binding> = bindings.iter().map(|b| (b.descriptor, b)).collect();
    // Per descriptor: fetched extent, count, violations, one fetch (for
    // the reachable check).
    let mut stats: HashMap<DescId, (u64, u64, usize, usize, Option<BufferFetch>)> = HashMap::new();
    for f in &run.obs.fetches {
        let Some(Some(d)) = desc_of.get(&f.pc).copied() else {
            out.untraced += 1;
            // An untraced access through a buffer a narrowed binding names
            // (the same base) must stay inside that binding: the emulator
            // may serve it from that binding's copy.
            let base = Vsharp::decode(f.descriptor).base;
            for b in bindings.iter().filter(|b| b.narrowed && b.base == base) {
                if f.addr < b.base || f.addr + f.len as u64 > b.end() {
                    out.violations.push(violation(
                        run,
                        ViolationKind::OutsideRange,
                        b.descriptor,
                        source(b.descriptor),
                        [b.base, b.end()],
                        f,
                    ));
                }
            }
            continue;
        };
        let e = stats.entry(d).or_insert((u64::MAX, 0, 0, 0, None));
        e.0 = e.0.min(f.addr);
        e.1 = e.1.max(f.addr + f.len as u64);
        e.2 += 1;
        if e.4.is_none() {
            e.4 = Some(*f);
        }
        let Some(b) = by_desc.get(&d) else {
            // A traced descriptor the plan does not bind: nothing to hold
            // the fetch; report it against an empty range.
            e.3 += 1;
            out.violations.push(violation(
                run,
                ViolationKind::OutsideRange,
                d,
                source(d),
                [0, 0],
                f,
            ));
            continue;
        };
        if f.addr < b.base || f.addr + f.len as u64 > b.end() {
            let unchecked = Vsharp::decode(f.descriptor).oob_select == 2;
            if unchecked && !b.narrowed {
                out.unchecked_overreads.push(violation(
                    run,
                    ViolationKind::UncheckedOverread,
                    d,
                    source(d),
                    [b.base, b.end()],
                    f,
                ));
                continue;
            }
            e.3 += 1;
            out.violations.push(violation(
                run,
                ViolationKind::OutsideRange,
                d,
                source(d),
                [b.base, b.end()],
                f,
            ));
        }
    }
    for b in bindings {
        let st = stats.get(&b.descriptor);
        let fetched = st.map(|s| [s.0, s.1]);
        let mut violations = st.map_or(0, |s| s.3);
        let tightness = match (b.narrowed, fetched) {
            (true, Some([_, end])) if end > b.base => {
                Some((b.end() - b.base) as f64 / (end - b.base) as f64)
            }
            _ => None,
        };
        if b.narrowed {
            if let Some(Some(f)) = st.map(|s| s.4) {
                if let Some(reach_end) = reachable_end(trace, b.descriptor, &f) {
                    if b.end() > reach_end {
                        violations += 1;
                        let mut v = violation(
                            run,
                            ViolationKind::PastReachable,
                            b.descriptor,
                            source(b.descriptor),
                            [b.base, b.end()],
                            &f,
                        );
                        v.addr = reach_end;
                        v.len = 0;
                        out.violations.push(v);
                    }
                }
            }
        }
        out.bindings.push(BindingCheck {
            descriptor: b.descriptor,
            source: source(b.descriptor),
            base: b.base,
            size: b.size,
            narrowed: b.narrowed,
            reason: b.reason.clone(),
            fetches: st.map_or(0, |s| s.2),
            fetched,
            tightness,
            violations,
        });
    }
    out.undefined = run
        .obs
        .findings
        .iter()
        .filter(|f| matches!(f, Finding::UndefinedAddress { lane: Some(_), .. }))
        .filter(|f| match f {
            Finding::UndefinedAddress { pc, .. } => desc_of.contains_key(pc),
            _ => false,
        })
        .cloned()
        .collect();
    if run.obs.findings_dropped > 0 {
        // Dropped findings may include undefined addresses of traced
        // accesses: the draw is not checked completely.
        out.undefined.push(Finding::Truncated {
            dropped: run.obs.findings_dropped,
        });
    }
    out
}

fn violation(
    run: &DrawRun,
    kind: ViolationKind,
    d: DescId,
    source: String,
    range: [u64; 2],
    f: &BufferFetch,
) -> Violation {
    let info = run.waves.get(f.wave as usize);
    Violation {
        kind,
        descriptor: d,
        source,
        range,
        pc: f.pc,
        wave: f.wave,
        lane: f.lane,
        instance: info.map_or(0, |i| i.instance),
        entry_vertex_id: info.and_then(|i| i.vertex_ids.get(f.lane as usize).copied()),
        index: f.index,
        addr: f.addr,
        len: f.len,
    }
}

/// The end of what a structured, checked descriptor lets any index reach:
/// `base + (num_records − 1) · stride + max(stride, widest access)`, with
/// the widest access from the trace's constant offsets; `None` when the
/// hardware does not bound it that way (raw, unchecked, swizzled, ADD_TID,
/// VGPR or non-constant offsets).
fn reachable_end(trace: &ShaderTrace, d: DescId, f: &BufferFetch) -> Option<u64> {
    let v = Vsharp::decode(f.descriptor);
    if v.stride == 0 || v.swizzle || v.add_tid || !matches!(v.oob_select, 0 | 1) {
        return None;
    }
    let mut reach = 0u64;
    for a in trace.accesses.iter().filter(|a| a.descriptor == Some(d)) {
        if a.offen {
            return None;
        }
        let Word::Const { value } = a.soffset else {
            return None;
        };
        let end = value as u64 + a.imm_offset as u64 + a.bytes as u64;
        // OOB_SELECT 0: an access whose offset is at or past the stride is
        // never read (soffset is not part of the check).
        if v.oob_select == 0 && a.imm_offset as u64 >= v.stride as u64 {
            continue;
        }
        reach = reach.max(end);
    }
    if v.num_records == 0 {
        return Some(v.base);
    }
    Some(v.base + (v.num_records as u64 - 1) * v.stride as u64 + reach.max(v.stride as u64))
}
