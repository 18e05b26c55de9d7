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

/// [`synthesize`] with integers 1..=16 in every window (not floats in the
/// windows vector loads read): the retry when the first inputs cannot be
/// run (a loop counted by a window word read as a float's bits runs past
/// the interpreter's step bound).
pub fn synthesize_integer_windows(capture: &Capture) -> Result<Dispatches, SynthError> {
    synthesize_with(
        capture,
        &SceneLayout {
            values: interp::scene::Values::SmallIntegers,
            ..SceneLayout::COMPUTE
        },
    )
}

/// [`synthesize`] with the free words (the user-data words the layout
/// leaves free and the push-constant words it writes into tables) floats
/// instead of small integers: word `k` (a table word: dword `k` of its
/// table) holds `(2·(k mod 7) + 3) / 32`. The retry when the integer
/// inputs leave every stored word undefined: a float push constant (an
/// inverse resolution) that is a tiny denormal as an integer's bits puts
/// every sample point on a texel border; with these, a texel coordinate
/// `(x + ½) · 16 · w` is an odd multiple of ¼, never near a border.
pub fn synthesize_float_free_words(capture: &Capture) -> Result<Dispatches, SynthError> {
    let (mut file, groups) = synthesize(capture)?;
    let (zero, _) = synthesize_zero_free_words(capture)?;
    replace_free_words(&mut file, &zero, |k| {
        ((2 * (k % 7) + 3) as f32 / 32.0).to_bits()
    });
    Ok((file, groups))
}

/// Give the free words of `file` (inputs laid out with
/// [`SceneLayout::small_free_words`]) other values: every word where it
/// differs from `zero` (the same inputs without small free words) is free;
/// user-data word `k` becomes `value(k)`, a one-dword table block
/// `value(its dword index in its 4 KiB table)`.
pub fn replace_free_words(
    file: &mut drawbind::draws::DrawsFile,
    zero: &drawbind::draws::DrawsFile,
    value: impl Fn(u32) -> u32,
) {
    for (k, (w, z)) in file.user_data.iter_mut().zip(&zero.user_data).enumerate() {
        if w != z {
            w.0 = value(k as u32);
        }
    }
    for (b, z) in file.memory.iter_mut().zip(&zero.memory) {
        if b.addr == z.addr && b.words.len() == 1 && b.words != z.words {
            b.words[0].0 = value(((b.addr.0 & 0xfff) / 4) as u32);
        }
    }
}

fn synthesize_with(capture: &Capture, layout: &SceneLayout) -> Result<Dispatches, SynthError> {
    let entry = capture.compute_entry().ok_or(SynthError::NotCompute)?;
    let opts = translator::Options {
        precise: true,
        ..translator::Options::default()
    };
    let manifest = translator::translate_compute(&capture.shader_input(), &entry, &opts)
        .ok()
        .map(|t| t.manifest);
    let trace = crate::trace::trace_capture(capture);
    let file = scene_file(capture, trace, manifest.as_ref(), layout);
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

/// The inputs of a shader without a DRAWS.json, from its trace: the
/// pointers [`user_pointers`] finds and those the translation's `manifest`
/// reads image descriptors and push-constant words through join the
/// trace's, [`interp::scene::synthesize_with`] lays tables and buffer
/// windows out under `layout`, and the push-constant words the manifest
/// reads from tables the scene left unmapped get small integers (0 without
/// [`SceneLayout::small_free_words`]). Compute dispatches and pixel scenes
/// with buffers ([`super::fragment`]) share it.
pub fn scene_file(
    capture: &Capture,
    mut trace: analysis::trace::ShaderTrace,
    manifest: Option<&translator::manifest::Manifest>,
    layout: &SceneLayout,
) -> drawbind::draws::DrawsFile {
    for k in user_pointers(capture) {
        let lo = Word::ud(k);
        if !trace.pointers.iter().any(|p| p.lo == lo) {
            trace
                .pointers
                .push(Ptr::new(lo, Word::ud(k.wrapping_add(1)), 0));
        }
    }
    let tables = manifest.map(manifest_tables).unwrap_or_default();
    for p in &tables.pointers {
        if !trace.pointers.iter().any(|q| q.lo == p.lo) {
            trace.pointers.push(*p);
        }
    }
    let scene = interp::scene::synthesize_with(&trace, &capture.abi(), layout);
    let mut file = scene.to_draws_file();
    // Push-constant words in tables the scene left unmapped: small
    // integers, as the free user-data words (counts stay small).
    let user_data = file.user_data();
    let mem = file.memory_with_code(&[]);
    for &(k, hi, offset) in &tables.data_words {
        let Some(&lo) = user_data.get(usize::from(k)) else {
            continue;
        };
        let a = drawbind::word::dword_address(drawbind::word::pointer(lo, hi, 0), offset);
        if drawbind::GuestMemory::read_u32(&mem, a).is_none()
            && !file.memory.iter().any(|b| b.addr.0 == a)
        {
            let v = if layout.small_free_words {
                offset / 4 % 7 + 2
            } else {
                0
            };
            file.memory.push(drawbind::draws::MemoryBlock {
                addr: drawbind::draws::Addr(a),
                words: vec![drawbind::draws::Word32(v)],
            });
        }
    }
    file
}

/// What the translation reads through tables the trace does not follow
/// (it follows buffer descriptors only): the T#/S# words of images and the
/// push-constant words (RADV's push constants in memory), each a word of a
/// table of a user-data word and a constant high half. Their pointers go
/// into the trace, so the scene gives each a table of its own, where the
/// dispatch run ([`super::images::draws_images`]) writes the scene's
/// descriptors; the data words' offsets get small integers.
#[derive(Default)]
struct ManifestTables {
    pointers: Vec<Ptr>,
    /// (user-data word, high half, byte offset) of each data word.
    data_words: Vec<(u8, u32, u32)>,
}

fn manifest_tables(m: &translator::manifest::Manifest) -> ManifestTables {
    use translator::manifest::{PushKind, WordExpr};
    let mut out = ManifestTables::default();
    let table = |e: &WordExpr| match e {
        WordExpr::TableWord { lo, hi, offset } => match (&**lo, &**hi) {
            (WordExpr::UserData { k }, WordExpr::Const { value }) => Some((*k, *value, *offset)),
            _ => None,
        },
        WordExpr::IndexedTableWord { lo, hi, .. } => match (&**lo, &**hi) {
            (WordExpr::UserData { k }, WordExpr::Const { value }) => Some((*k, *value, u32::MAX)),
            _ => None,
        },
        _ => None,
    };
    let images = m
        .images
        .iter()
        .flat_map(|b| b.texture.iter().chain(b.sampler.iter().flatten()));
    let data: Vec<&WordExpr> = m
        .push_constants
        .iter()
        .chain(&m.param_buffer)
        .filter_map(|w| match &w.kind {
            PushKind::Word { expr, .. } => Some(expr),
            _ => None,
        })
        .collect();
    let descriptor_words: Vec<(u8, u32, u32)> = images.clone().filter_map(table).collect();
    for e in images.chain(data.iter().copied()) {
        if let Some((k, hi, _)) = table(e) {
            let p = Ptr::new(Word::ud(k), Word::konst(hi), 0);
            if !out.pointers.contains(&p) {
                out.pointers.push(p);
            }
        }
    }
    // Data words that are not descriptor words (a shader may read a T#
    // word as data; the run writes the scene's descriptor there).
    for e in data {
        if let Some(t) = table(e).filter(|t| t.2 != u32::MAX && !descriptor_words.contains(t)) {
            out.data_words.push(t);
        }
    }
    out
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

/// `d` with memory laid out where its pointers point
/// ([`super::pointers::lay_out`]): the interpreter runs each dispatch of
/// `d` as the probe, its stores outside guest memory and its unmapped reads
/// are the accesses to explain, and the regions (small integers) follow the
/// file's highest block, inside the dispatch's one window. Unchanged when
/// every access stays in guest memory.
pub fn with_pointers(capture: &Capture, d: Dispatches) -> Dispatches {
    let (mut file, groups) = d;
    let Some(entry) = capture.compute_entry() else {
        return (file, groups);
    };
    let iprog = interp::Program::new(&capture.code, capture.target());
    let code = capture.code_and_constants();
    let above = super::pointers::blocks_end_below(&file, u64::MAX);
    super::pointers::lay_out(
        &mut file,
        above,
        super::pointers::Fill::SmallIntegers,
        |f| {
            let mem = f.memory_with_code(&code);
            let rec = super::pointers::Recording::new(&mem);
            let icfg = dispatch::interp_config(capture, &entry, f.code_addr());
            let user_data = f.user_data();
            for &g in &groups {
                if let Ok(obs) = interp::run_dispatch(&iprog, &rec, &user_data, g, &icfg) {
                    for s in &obs.stores {
                        rec.note_store(s.addr);
                    }
                }
            }
            rec.into_touched()
        },
    );
    (file, groups)
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

/// Run a compute capture's synthesized dispatches (when they cannot be run,
/// [`synthesize_integer_windows`]'s); when their stores leave
/// guest memory, run [`synthesize_zero_free_words`]'s instead, and when
/// every word they store is undefined, [`synthesize_float_free_words`]'s
/// (kept if it compares words). The inputs run and the report.
pub fn execute(
    capture: &Capture,
    harness: &Harness,
    faults: DispatchFaults,
) -> Result<(Dispatches, DispatchRunReport), CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let first = with_pointers(capture, synthesize(capture).map_err(|e| named(&e))?);
    let (first, r) =
        match dispatch::execute_with_faults(capture, &first.0, &first.1, harness, faults) {
            Ok(r) => (first, r),
            // Inputs the run cannot judge: integer windows once, else the
            // first reason stands.
            Err(CliError::NotRun(why)) => {
                let ints = with_pointers(
                    capture,
                    synthesize_integer_windows(capture).map_err(|e| named(&e))?,
                );
                match dispatch::execute_with_faults(capture, &ints.0, &ints.1, harness, faults) {
                    Ok(r) if r.words > 0 => (ints, r),
                    Ok(_) | Err(CliError::NotRun(_)) => return Err(CliError::NotRun(why)),
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
    if first_store_outside(&r).is_none() {
        let undefined: u64 = r.dispatches.iter().map(|d| d.undefined).sum();
        if r.words > 0 || undefined == 0 {
            return Ok((first, r));
        }
        // Every stored word undefined: retry with float free words, and
        // keep that run when it compares words inside guest memory.
        let floats = with_pointers(
            capture,
            synthesize_float_free_words(capture).map_err(|e| named(&e))?,
        );
        match dispatch::execute_with_faults(capture, &floats.0, &floats.1, harness, faults) {
            Ok(f) if f.words > 0 && first_store_outside(&f).is_none() => return Ok((floats, f)),
            // No better inputs (a loop past the step bound, say): the
            // first run stands.
            Ok(_) | Err(CliError::NotRun(_)) => return Ok((first, r)),
            Err(e) => return Err(e),
        }
    }
    let again = with_pointers(
        capture,
        synthesize_zero_free_words(capture).map_err(|e| named(&e))?,
    );
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
