//! Synthesized dispatches: `shaderlift run` of a compute shader without a
//! DRAWS.json.
//!
//! The inputs come from the shader's trace alone, laid out by
//! [`interp::scene::synthesize_with`] under [`SceneLayout::COMPUTE`]: every
//! traced pointer gets a table where its constant high half (RADV's
//! `0xffff8000` for descriptor sets) puts it, every traced buffer
//! descriptor a V# over a 64 KiB window of small integers (1..=16, so every
//! count is small and every result exact), the user-data words the layout
//! leaves free small integers too, and the tables behind 64-bit user
//! pointers (buffer device addresses) pointers into the windows. All of it
//! lies within a few MiB, so the dispatch's one window binding spans it.
//!
//! The trace follows pointers plus constant offsets; a 64-bit user pointer
//! the code offsets by a register (`references[gl_WorkGroupID.z]` of a
//! buffer-device-address array: `s_lshl_b64`, `s_add_u32`, `s_addc_u32`,
//! then `s_load_dwordx2`) is found by [`user_pointers`] and added to the
//! trace's pointers, so it gets a table of pointers too.
//!
//! The dispatches are [`GROUPS`] (one workgroup, a row of two, a 2×2×2
//! cube), with one workgroup along each dimension whose workgroup id the
//! shader does not receive (its workgroups would race on the same stores),
//! fewer when the workgroup is so large that they would pass
//! [`super::dispatch`]'s invocation limit.

use super::dispatch::{self, DispatchFaults, DispatchRunReport, Dispatches};
use crate::CliError;
use analysis::source::{Ptr, Word};
use corpus::Capture;
use interp::scene::SceneLayout;
use isa::{Access, Family, Operand, RegFile};
use vkharness::Harness;

/// The synthesized dispatches' workgroup counts.
pub const GROUPS: [[u32; 3]; 3] = [[1, 1, 1], [2, 1, 1], [2, 2, 2]];

/// Why no dispatch can be synthesized.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SynthError {
    /// Not a compute capture with its entry state (workgroup size, entry
    /// registers).
    #[error("not a compute capture that records its entry state")]
    NotCompute,
}

/// A DRAWS-like file (user data and guest memory, no draws) and the
/// dispatches' group counts for a compute capture.
pub fn synthesize(capture: &Capture) -> Result<Dispatches, SynthError> {
    synthesize_with(capture, &SceneLayout::COMPUTE)
}

/// [`synthesize`] with the free user-data words 0 instead of small
/// integers: the retry when the first inputs lead the shader's stores out
/// of guest memory (a flag word that, set, makes it write through a wild
/// address, as `device-fault` samples do on purpose).
pub fn synthesize_zero_free_words(capture: &Capture) -> Result<Dispatches, SynthError> {
    synthesize_with(
        capture,
        &SceneLayout {
            small_free_words: false,
            ..SceneLayout::COMPUTE
        },
    )
}

fn synthesize_with(capture: &Capture, layout: &SceneLayout) -> Result<Dispatches, SynthError> {
    let entry = capture.compute_entry().ok_or(SynthError::NotCompute)?;
    let mut trace = crate::trace::trace_capture(capture);
    for k in user_pointers(capture) {
        let lo = Word::ud(k);
        if !trace.pointers.iter().any(|p| p.lo == lo) {
            trace
                .pointers
                .push(Ptr::new(lo, Word::ud(k.wrapping_add(1)), 0));
        }
    }
    let scene = interp::scene::synthesize_with(&trace, &capture.abi(), layout);
    let file = scene.to_draws_file();
    let per_group = u64::from(entry.invocations().unwrap_or(1).max(1));
    // A dimension whose workgroup id the shader does not receive gets one
    // workgroup: more would repeat each other's stores (a race whose
    // winner the device and the interpreter may pick differently).
    let mut groups: Vec<[u32; 3]> = GROUPS
        .iter()
        .map(|g| std::array::from_fn(|d| if entry.workgroup_id[d] { g[d] } else { 1 }))
        .filter(|g: &[u32; 3]| {
            g.iter().map(|&x| u64::from(x)).product::<u64>() * per_group
                <= super::dispatch::MAX_DISPATCH_INVOCATIONS
        })
        .collect();
    groups.dedup();
    Ok((file, groups))
}

/// The synthesized inputs as a DRAWS.json document (`--emit-dispatch`):
/// the file's user data and memory plus one `dispatch` entry per group
/// count, which [`super::dispatch::split`] reads back.
pub fn to_json(d: &Dispatches) -> serde_json::Value {
    let mut v = serde_json::to_value(&d.0).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "draws".into(),
            d.1.iter()
                .map(|g| serde_json::json!({"kind": "dispatch", "groups": g}))
                .collect(),
        );
    }
    v
}

/// User-data words `k` whose pair `k, k + 1` the code uses as the base of a
/// scalar load or a global access, directly or offset by `s_add_u32` /
/// `s_addc_u32` (of anything) and copied by `s_mov_b32`/`s_mov_b64`, in a
/// straight-line scan of the code (control flow ignored: this only chooses
/// inputs, which the device and the interpreter then share).
pub fn user_pointers(capture: &Capture) -> Vec<u8> {
    let abi = capture.abi();
    // The user-data word each SGPR holds (or was offset from).
    let mut origin: Vec<Option<u8>> = vec![None; 128];
    for k in 0..abi.user_data_count {
        if let Some(o) = origin.get_mut(usize::from(abi.user_data_sgpr) + usize::from(k)) {
            *o = Some(k);
        }
    }
    let sgpr = |op: &Operand| match *op {
        Operand::Reg { code, count } if RegFile::of(code) == Some(RegFile::Sgpr) => {
            Some((usize::from(code), usize::from(count)))
        }
        _ => None,
    };
    let mut found = Vec::new();
    let mut pc = 0usize;
    while pc < capture.code.len() {
        let Ok(inst) = isa::decode(&capture.code[pc..], capture.target()) else {
            break;
        };
        pc += usize::from(inst.len);
        let ops = inst.operands.as_slice();
        // Pointer bases read by memory instructions.
        if matches!(inst.family, Family::Smem | Family::Flat) {
            for s in ops.iter().filter(|s| s.access.contains(Access::READ)) {
                if let Some((r, 2)) = sgpr(&s.op) {
                    if let (Some(Some(k)), Some(Some(h))) = (origin.get(r), origin.get(r + 1)) {
                        if *h == k.wrapping_add(1) && !found.contains(k) {
                            found.push(*k);
                        }
                    }
                }
            }
        }
        // What the written SGPRs hold now.
        let name = inst.opcode.name();
        let sources: Vec<(usize, usize)> = ops
            .iter()
            .filter(|s| s.access.contains(Access::READ))
            .filter_map(|s| sgpr(&s.op))
            .collect();
        for d in ops.iter().filter(|s| s.access.contains(Access::WRITE)) {
            let Some((r, n)) = sgpr(&d.op) else {
                continue;
            };
            for i in 0..n {
                let from = match name {
                    "s_mov_b32" | "s_mov_b64" | "s_add_u32" | "s_addc_u32" => {
                        sources.iter().find_map(|&(sr, sn)| {
                            (i < sn)
                                .then(|| origin.get(sr + i).copied().flatten())
                                .flatten()
                        })
                    }
                    _ => None,
                };
                if let Some(o) = origin.get_mut(r + i) {
                    *o = from;
                }
            }
        }
    }
    found
}

/// The first word the interpreter stored outside the window (guest memory
/// left: the synthesized inputs led the shader through a wild address).
fn first_store_outside(r: &DispatchRunReport) -> Option<u64> {
    r.dispatches
        .iter()
        .flat_map(|d| &d.first_mismatches)
        .find(|m| m.device.is_none())
        .map(|m| m.addr)
}

/// Run a compute capture's synthesized dispatches; when their stores leave
/// guest memory, run [`synthesize_zero_free_words`]'s instead. The inputs
/// run and the report.
pub fn execute(
    capture: &Capture,
    harness: &Harness,
    faults: DispatchFaults,
) -> Result<(Dispatches, DispatchRunReport), CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let first = synthesize(capture).map_err(|e| named(&e))?;
    let r = dispatch::execute_with_faults(capture, &first.0, &first.1, harness, faults)?;
    if first_store_outside(&r).is_none() {
        return Ok((first, r));
    }
    let again = synthesize_zero_free_words(capture).map_err(|e| named(&e))?;
    let r = dispatch::execute_with_faults(capture, &again.0, &again.1, harness, faults)?;
    if let Some(a) = first_store_outside(&r) {
        // The interpreter itself stored outside every block of the scene: a
        // word the synthesis filled with a small number is a pointer. Neither
        // side can be judged on such inputs, so the run is not a verdict.
        return Err(CliError::NotRun(format!(
            "{}: the synthesized inputs send a store outside guest memory (first at {a:#x}): \
             a pointer the synthesis does not model; give the dispatch a DRAWS file",
            capture.name
        )));
    }
    Ok((again, r))
}
