//! `shaderlift run` for NGG shaders the direct vertex path refuses (culling
//! shaders): the NGG compute pass ([`translator::translate_ngg`],
//! `translator::wave::ngg`) on the device against the interpreter's NGG
//! workgroups, draw by draw.
//!
//! Per part of a draw of the DRAWS.json (a whole non-indexed draw, each
//! chunk of a split one, an indexed draw's ids as the interpreter reads
//! them from its index buffer):
//! 1. one `vkCmdDispatch(groups, instance_count, 1)` of the module, with
//!    the window over every memory block of the file, the ids (indexed
//!    draws) in the vertex-id binding and the output buffer filled with
//!    [`FILL`];
//! 2. the interpreter runs the draw ([`interp::run_draw`]) with the same
//!    subgroups (`group_prims` = ⌊lanes / 3⌋, `group_verts` = lanes);
//! 3. every word of every export (positions, parameters, the primitive
//!    export with its null bit) and each subgroup's `GS_ALLOC_REQ` M0 the
//!    interpreter recorded (later exports of a lane and target winning) is
//!    compared with the device's word ([`super::compare::compare`]); a word
//!    the device wrote that the interpreter did not is a mismatch too. Words
//!    the interpreter left undefined are counted, not compared; findings
//!    fail the run. Indexed draws without an index buffer (unknown ids)
//!    are listed as skipped, not run. User-data words up to the ABI's count
//!    (at most 32) the file does not give are 0 on both sides (the culling
//!    settings RADV appends: culling off), and the report says how many.

use super::compare::{compare, Verdict};
use crate::CliError;
use corpus::{Capture, WaveSize};
use drawbind::draws::{DrawSpec, DrawsFile};
use drawbind::SparseMemory;
use drawbind::{BindPlan, BindRange};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;
use translator::host::{guest_reader, HostBinder, HostWindow};
use translator::manifest::{BindingKind, DrawParams};
use translator::wave::{NggEntry, NggOutput, PrimVgprs};
use translator::{Options, Translation};
use vkharness::{Binding, Harness, Interface};

/// Bytes of guest memory the window may span.
const WINDOW_LIMIT: u64 = 64 << 20;
/// What the output buffer holds before the dispatch.
pub const FILL: u32 = 0xa5a5_a5a5;
/// Mismatches listed per draw.
const LISTED: usize = 16;
/// The most user-data words the run fills in.
const MAX_USER_DATA: usize = 32;
/// The most subgroups one draw may ask for.
const MAX_SUBGROUPS: u64 = 1 << 16;

/// One word that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NggMismatch {
    /// Subgroup (`instance · groups + group`).
    pub subgroup: u32,
    /// Lane (`None`: the subgroup's alloc word).
    pub lane: Option<u32>,
    /// Target (`pos0`, `param1`, `prim`, `alloc`) and channel.
    pub what: String,
    /// The device's word (`None`: not written).
    pub device: Option<u32>,
    /// The interpreter's word (`None`: not written).
    pub reference: Option<u32>,
}

/// One draw's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NggDrawReport {
    /// Its index in the file.
    pub index: usize,
    /// Which part of it (a split draw's chunk, an indexed draw's ids;
    /// empty for a whole non-indexed draw).
    pub part: String,
    /// Subgroups per instance.
    pub groups: u32,
    /// Instances.
    pub instances: u32,
    /// Words compared.
    pub words: u64,
    /// Words within one ulp but not identical.
    pub within_ulp: u64,
    /// Words that differ.
    pub mismatches: u64,
    /// Exported words the interpreter left undefined (not compared).
    pub undefined: u64,
    /// Primitives the interpreter exported with the null (culled) bit.
    pub culled: u64,
    /// Primitives the interpreter exported.
    pub primitives: u64,
    /// Interpreter findings.
    pub findings: usize,
    /// The first mismatches.
    pub first_mismatches: Vec<NggMismatch>,
    /// Seconds on the device.
    pub device_seconds: f64,
    /// Seconds in the interpreter.
    pub interp_seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NggRunReport {
    /// The Vulkan device.
    pub device: String,
    /// The output layout.
    pub layout: NggOutput,
    /// Per draw.
    pub draws: Vec<NggDrawReport>,
    /// Words compared.
    pub words: u64,
    /// Words that differ.
    pub mismatches: u64,
    /// Vertices run (per draw: vertex count × instances).
    pub vertices: u64,
    /// Interpreter findings (all draws).
    pub findings: usize,
    /// Draws not run: indexed draws without `index_addr` (their vertex
    /// ids are unknown).
    pub skipped_draws: Vec<usize>,
    /// User-data words the file does not give, run as 0 on both sides.
    pub zero_user_data: usize,
}

impl NggRunReport {
    /// The report as text.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "device: {}", self.device);
        let _ = writeln!(
            s,
            "NGG compute pass: {} lanes per subgroup, {} words per lane",
            self.layout.lanes, self.layout.lane_words
        );
        for d in &self.draws {
            let _ = writeln!(
                s,
                "draw {}{}: {} subgroups × {} instances: {} words, {} mismatches, {} within 1 ulp, {} undefined, {}/{} primitives culled, {} findings",
                d.index, if d.part.is_empty() { String::new() } else { format!(" ({})", d.part) }, d.groups, d.instances, d.words, d.mismatches, d.within_ulp, d.undefined, d.culled, d.primitives, d.findings
            );
            for m in &d.first_mismatches {
                let show = |w: Option<u32>| match w {
                    Some(w) => format!("{w:#010x}"),
                    None => "none".into(),
                };
                let lane = m.lane.map_or("-".into(), |l| l.to_string());
                let _ = writeln!(
                    s,
                    "  subgroup {} lane {lane} {}: device {} interpreter {}",
                    m.subgroup,
                    m.what,
                    show(m.device),
                    show(m.reference)
                );
            }
        }
        if self.zero_user_data > 0 {
            let _ = writeln!(
                s,
                "{} user-data words missing from the file ran as 0 on both sides",
                self.zero_user_data
            );
        }
        if !self.skipped_draws.is_empty() {
            let _ = writeln!(
                s,
                "not run (indexed draws without index_addr: unknown vertex ids): draws {:?}",
                self.skipped_draws
            );
        }
        let _ = writeln!(s, "{} words compared", self.words);
        let _ = writeln!(
            s,
            "{} vertices, {} mismatches",
            self.vertices, self.mismatches
        );
        s
    }
}

/// Translate the capture as an NGG compute pass, run every draw on the
/// device and in the interpreter, compare.
pub fn execute(
    capture: &Capture,
    draws: &DrawsFile,
    harness: &Harness,
) -> Result<NggRunReport, CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let input = capture.shader_input();
    let entry = translator::ngg_entry_of(&input);
    let opts = Options {
        precise: true,
        ..Options::default()
    };
    let tr = translator::translate_ngg(&input, &entry, &opts).map_err(|e| named(&e))?;
    execute_translation(capture, draws, harness, &tr)
}

/// [`execute`] with a given translation (a test's broken one, for the
/// negative controls).
pub fn execute_translation(
    capture: &Capture,
    draws: &DrawsFile,
    harness: &Harness,
    tr: &Translation,
) -> Result<NggRunReport, CliError> {
    execute_with(capture, draws, harness, tr, false)
}

/// [`execute_translation`]; `flip_texel_rows_in_reference` gives the
/// interpreter every image with its texel rows reversed (the negative
/// control of image runs).
pub fn execute_with(
    capture: &Capture,
    draws: &DrawsFile,
    harness: &Harness,
    tr: &Translation,
    flip_texel_rows_in_reference: bool,
) -> Result<NggRunReport, CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let Some(layout) = tr.manifest.ngg.clone() else {
        return Err(named(&"not an NGG compute-pass translation"));
    };
    let lanes = layout.lanes;
    let interface = Interface {
        entry_point: "main".into(),
        bindings: tr.manifest.bindings.iter().map(|b| b.binding).collect(),
        push_constant_bytes: tr.manifest.push_constant_bytes,
    };
    // One window carries every guest load of the pass: a file that does not
    // say where the code lies gets it placed right after its data (see
    // [`place_code`]), so the code's constant data and the buffers fit in
    // one window; a file's own code address is kept.
    let placed;
    let draws = if draws.code_addr.is_none() {
        placed = place_code(capture, draws);
        &placed
    } else {
        draws
    };
    let mut mem = draws.memory_with_code(&capture.code_and_constants());
    // The culling settings and viewport words RADV appends after the
    // shader's own user data: a DRAWS.json written for the shader's inputs
    // may not give them. Both sides see the same words, missing ones 0
    // (culling off).
    let mut user_data = draws.user_data();
    let given = user_data.len();
    let wanted = usize::from(capture.abi().user_data_count).min(MAX_USER_DATA);
    if user_data.len() < wanted {
        user_data.resize(wanted, 0);
    }
    // Images: the descriptors the draws' memory gives, or the scene's
    // (`run::images::draws_images`, as the direct vertex path does).
    let host_images = super::images::capture_images(capture, &tr.manifest, &user_data, &mut mem)?;
    let ref_mem =
        flip_texel_rows_in_reference.then(|| super::images::flip_rows(&mem, &host_images));
    let slots = super::images::slots(&tr.manifest);
    let program = harness
        .compute_program_with_images(&tr.spirv, &interface, &slots)
        .map_err(|e| super::harness_error(&capture.name, e))?;
    let inputs: Vec<vkharness::ImageInput<'_>> = host_images.iter().map(|h| h.input()).collect();
    let window =
        window_for(capture, &tr.manifest, draws, &user_data, &mem).map_err(|e| named(&e))?;
    if window.capped {
        return Err(CliError::NotRun(format!(
            "{}: not compared: the traced descriptors' ranges span more than the pass's one \
             window ({} MiB from {:#x}); the NGG compute pass reads all guest memory through it",
            capture.name,
            WINDOW_LIMIT >> 20,
            window.base
        )));
    }
    let (lo, window_len) = (window.base, window.size & !3);
    let window_bytes = guest_bytes(&mem, lo, window_len);
    let iprog = interp::Program::new(&capture.code, capture.target());
    let mut icfg = interp::DrawConfig::new(
        &iprog,
        capture.stage(),
        capture.abi(),
        capture.wave_size() == WaveSize::W64,
    );
    icfg.code_addr = draws.code_addr();
    icfg.group_prims = NggEntry::prims_per_group(lanes);
    icfg.group_verts = lanes;
    icfg.prim_layout = match layout.entry.prims {
        PrimVgprs::Indices => interp::PrimLayout::Indices,
        PrimVgprs::Passthrough => interp::PrimLayout::Passthrough,
    };
    let mut report = NggRunReport {
        device: harness.device_info().name.clone(),
        layout: layout.clone(),
        draws: Vec::new(),
        words: 0,
        mismatches: 0,
        vertices: 0,
        findings: 0,
        skipped_draws: Vec::new(),
        zero_user_data: user_data.len().saturating_sub(given),
    };
    for (index, part) in parts(draws, &mem, &mut report.skipped_draws)? {
        let instances = part.instances;
        let count = part.len();
        // Indexed draws: the subgroups, as the interpreter's driver forms
        // them, listed for the module.
        let list = match &part.ids {
            Some(ids) => Some(
                NggEntry::list_words(
                    &interp::ngg_workgroups(ids, NggEntry::prims_per_group(lanes), lanes),
                    lanes,
                )
                .ok_or_else(|| named(&format!("draw {index}: a subgroup does not fit a wave")))?,
            ),
            None => None,
        };
        let groups = match &list {
            Some(words) => (words.len() as u32) / NggEntry::list_stride(lanes),
            None => NggEntry::groups(count, lanes),
        };
        if u64::from(groups) * u64::from(instances) > MAX_SUBGROUPS {
            return Err(named(&format!(
                "draw {index}: {groups} subgroups × {instances} instances, more than {MAX_SUBGROUPS}"
            )));
        }
        let mut dr = NggDrawReport {
            index,
            part: part.label(),
            groups,
            instances,
            words: 0,
            within_ulp: 0,
            mismatches: 0,
            undefined: 0,
            culled: 0,
            primitives: 0,
            findings: 0,
            first_mismatches: Vec::new(),
            device_seconds: 0.0,
            interp_seconds: 0.0,
        };
        let params = DrawParams {
            vertex_id_offset: part.first(),
            out_vertex_count: count,
            window: (lo, window_len as u32),
            code_addr: draws.code_addr(),
            ngg_indexed: part.ids.is_some(),
            ..DrawParams::default()
        };
        let mut read = guest_reader(&mem);
        let push = tr
            .manifest
            .push_words(&user_data, &params, &mut read)
            .map_err(|e| named(&e))?;
        let push: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
        let param_words = tr
            .manifest
            .param_buffer_words(&user_data, &params, &mut read)
            .map_err(|e| named(&e))?;
        let param_bytes: Vec<u8> = param_words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let nwords = u64::from(groups) * u64::from(instances) * u64::from(layout.group_words);
        let out_bytes: Vec<u8> = std::iter::repeat_n(FILL.to_le_bytes(), nwords as usize)
            .flatten()
            .collect();
        let id_bytes: Vec<u8> = list
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let buffers: Vec<Binding<'_>> = tr
            .manifest
            .bindings
            .iter()
            .map(|b| match b.kind {
                BindingKind::Window => Binding {
                    binding: b.binding,
                    bytes: &window_bytes,
                    size: window_len.max(4),
                    read_back: false,
                },
                BindingKind::NggOutput => Binding {
                    binding: b.binding,
                    bytes: &out_bytes,
                    size: (4 * nwords).max(4),
                    read_back: true,
                },
                BindingKind::Params => Binding::input(b.binding, &param_bytes),
                BindingKind::NggSubgroups => Binding {
                    binding: b.binding,
                    bytes: &id_bytes,
                    size: (id_bytes.len() as u64).max(4),
                    read_back: false,
                },
                _ => Binding::input(b.binding, &[]),
            })
            .collect();
        let t = Instant::now();
        let device_out: Vec<u8> = if groups > 0 && instances > 0 {
            let out = program
                .dispatch_with_images([groups, instances, 1], &buffers, &inputs, &push)
                .map_err(|e| super::harness_error(&capture.name, e))?;
            out.buffer(layout.binding)
                .map(<[u8]>::to_vec)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        dr.device_seconds = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let idraw = part.interp_draw();
        let run = interp::run_draw(
            &iprog,
            ref_mem.as_ref().unwrap_or(&mem),
            &user_data,
            &idraw,
            &icfg,
        )
        .map_err(|e| named(&format!("draw {index}: interpreter: {e}")))?;
        dr.interp_seconds = t.elapsed().as_secs_f64();
        // A sample point too near a texel border is not a failure: its
        // words are undefined (not compared).
        dr.findings = super::images::failing_findings(&run.obs);
        // The interpreter's words: (word index) → (value, defined, label).
        let mut expect: BTreeMap<u64, (u32, bool, NggMismatch)> = BTreeMap::new();
        let mut prims: BTreeMap<(u32, u32), bool> = BTreeMap::new();
        let subgroup_of = |wave: u32| -> Option<(u32, &interp::WaveInfo)> {
            let info = run.waves.get(wave as usize)?;
            Some((info.instance * groups + info.group, info))
        };
        for e in &run.obs.exports {
            let Some((w, info)) = subgroup_of(e.wave) else {
                continue;
            };
            if info.wave_in_group != 0 {
                return Err(named(&format!(
                    "draw {index}: the interpreter formed a subgroup of more than one wave"
                )));
            }
            let lane = u32::from(e.lane);
            for chan in 0..4u32 {
                if e.en & (1 << chan) == 0 || (e.target == 20 && chan > 0) {
                    continue;
                }
                let Some(at) = layout.word(w, lane, e.target, chan) else {
                    continue;
                };
                let label = NggMismatch {
                    subgroup: w,
                    lane: Some(lane),
                    what: if e.target == 20 {
                        "prim".into()
                    } else {
                        format!(
                            "{}.{}",
                            e.target_name(),
                            ["x", "y", "z", "w"][chan as usize]
                        )
                    },
                    device: None,
                    reference: None,
                };
                let def = e.defined & (1 << chan) != 0;
                expect.insert(at, (e.values[chan as usize], def, label));
            }
            if e.target == 20 {
                prims.insert((w, lane), e.values[0] & 0x8000_0000 != 0);
            }
        }
        for m in &run.obs.messages {
            if m.msg & 0xf != 9 {
                continue;
            }
            let Some((w, _)) = subgroup_of(m.wave) else {
                continue;
            };
            let at = u64::from(w) * u64::from(layout.group_words);
            let label = NggMismatch {
                subgroup: w,
                lane: None,
                what: "alloc".into(),
                device: None,
                reference: None,
            };
            expect.insert(at, (m.m0, m.m0_defined, label));
        }
        dr.primitives = prims.len() as u64;
        dr.culled = prims.values().filter(|&&c| c).count() as u64;
        let dev_word = |at: u64| -> Option<u32> {
            let o = 4 * at as usize;
            device_out
                .get(o..o + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let note = |dr: &mut NggDrawReport, m: NggMismatch| {
            dr.mismatches += 1;
            if dr.first_mismatches.len() < LISTED {
                dr.first_mismatches.push(m);
            }
        };
        for (&at, (value, def, label)) in &expect {
            if !def {
                dr.undefined += 1;
                continue;
            }
            dr.words += 1;
            let dev = dev_word(at).filter(|&w| w != FILL);
            let verdict = match dev {
                Some(d) => compare(d, *value),
                None => Verdict::Mismatch,
            };
            match verdict {
                Verdict::Exact => {}
                Verdict::WithinUlp => dr.within_ulp += 1,
                Verdict::Mismatch => note(
                    &mut dr,
                    NggMismatch {
                        device: dev,
                        reference: Some(*value),
                        ..label.clone()
                    },
                ),
            }
        }
        // Words the device wrote that the interpreter did not.
        for at in 0..nwords {
            if expect.contains_key(&at) {
                continue;
            }
            if let Some(d) = dev_word(at).filter(|&w| w != FILL) {
                dr.words += 1;
                let gw = u64::from(layout.group_words);
                let (w, r) = ((at / gw) as u32, at % gw);
                note(
                    &mut dr,
                    NggMismatch {
                        subgroup: w,
                        lane: (r > 0).then(|| ((r - 1) / u64::from(layout.lane_words)) as u32),
                        what: format!("word {r}"),
                        device: Some(d),
                        reference: None,
                    },
                );
            }
        }
        report.vertices += u64::from(count) * u64::from(instances);
        report.words += dr.words;
        report.mismatches += dr.mismatches;
        report.findings += dr.findings;
        report.draws.push(dr);
    }
    Ok(report)
}

/// One dispatch sequence of a draw: a range of vertex ids (a whole
/// non-indexed draw, or one chunk of a split one, which the hardware and
/// the interpreter run on its own) or an indexed draw's ids.
struct Part {
    first: u32,
    count: u32,
    /// The ids of an indexed draw (restart indices removed, base vertex
    /// added), as the interpreter reads them.
    ids: Option<Vec<u32>>,
    instances: u32,
    label: String,
}

impl Part {
    fn len(&self) -> u32 {
        self.ids.as_ref().map_or(self.count, |ids| ids.len() as u32)
    }

    fn first(&self) -> u32 {
        if self.ids.is_some() {
            0
        } else {
            self.first
        }
    }

    fn label(&self) -> String {
        self.label.clone()
    }

    fn interp_draw(&self) -> interp::Draw {
        match &self.ids {
            Some(ids) => interp::Draw::Ids {
                ids: ids.clone(),
                instance_count: self.instances,
            },
            None => interp::Draw::Auto {
                first_vertex: self.first,
                vertex_count: self.count,
                instance_count: self.instances,
                chunks: Vec::new(),
            },
        }
    }
}

/// The parts of every draw of the file, with the draw's index; indexed
/// draws without an index buffer are listed in `skipped`.
fn parts(
    draws: &DrawsFile,
    mem: &SparseMemory,
    skipped: &mut Vec<usize>,
) -> Result<Vec<(usize, Part)>, CliError> {
    let mut out = Vec::new();
    for (index, d) in draws.draws.iter().enumerate() {
        match d {
            DrawSpec::Auto {
                first_vertex,
                vertex_count,
                instance_count,
                chunks,
            } => {
                let whole = [(*first_vertex, *vertex_count)];
                let ranges: &[(u32, u32)] = if chunks.is_empty() { &whole } else { chunks };
                for (k, &(first, count)) in ranges.iter().enumerate() {
                    out.push((
                        index,
                        Part {
                            first,
                            count,
                            ids: None,
                            instances: *instance_count,
                            label: if chunks.is_empty() {
                                String::new()
                            } else {
                                format!("chunk {k}: vertices {first}..{}", first + count)
                            },
                        },
                    ));
                }
            }
            DrawSpec::Indexed { instance_count, .. } => {
                let Some(ids) = super::index_ids(mem, d)
                    .map_err(|e| CliError::Input(format!("draw {index}: index buffer: {e}")))?
                else {
                    skipped.push(index);
                    continue;
                };
                out.push((
                    index,
                    Part {
                        first: 0,
                        count: 0,
                        label: format!("indexed: {} ids", ids.len()),
                        ids: Some(ids),
                        instances: *instance_count,
                    },
                ));
            }
            _ => skipped.push(index),
        }
    }
    Ok(out)
}

/// `draws` with its code placed after its data: at the first 64 KiB
/// boundary above the highest end of the traced descriptors' baseline
/// ranges (the code at [`drawbind::draws::DEFAULT_CODE_ADDR`] left out) that
/// no memory block of the file overlaps. Where the code lies is the host's
/// choice (the interpreter is given the same address), and the code's
/// constant data then shares the window with the buffers. Unchanged when
/// nothing is traced.
fn place_code(capture: &Capture, draws: &DrawsFile) -> DrawsFile {
    let mut out = draws.clone();
    let code_len = capture.code_and_constants().len() as u64;
    let mem = draws.memory_with_code(&capture.code_and_constants());
    let trace = crate::trace::trace_capture(capture);
    let Ok(plan) = BindPlan::new(&trace, capture.stage()) else {
        return out;
    };
    let code = draws.code_addr();
    let plan = plan.with_code_address(code);
    let mut scratch = vec![BindRange::EMPTY; plan.len()];
    let mut user_data = draws.user_data();
    user_data.resize(user_data.len().max(MAX_USER_DATA), 0);
    let Ok(n) = plan.bind_baseline(&user_data, &mem, &mut scratch) else {
        return out;
    };
    let data_end = scratch[..n]
        .iter()
        .filter(|r| r.size > 0 && !(code..code + code_len.max(1)).contains(&r.base))
        .map(|r| r.end())
        .max();
    let Some(end) = data_end else {
        return out;
    };
    const ALIGN: u64 = 64 << 10;
    let mut at = end.div_ceil(ALIGN) * ALIGN;
    let overlaps = |at: u64| {
        draws.memory.iter().any(|b| {
            let (lo, hi) = (b.addr.0, b.addr.0 + 4 * b.words.len() as u64);
            lo < at + code_len && at < hi
        })
    };
    while overlaps(at) {
        at += ALIGN;
    }
    out.code_addr = Some(drawbind::draws::Addr(at));
    out
}

/// The window every guest load of the pass reads through: from the lowest
/// base to the highest end of the traced descriptors' baseline ranges
/// ([`HostBinder::window`], as the direct vertex path places its fallback
/// window), at most [`WINDOW_LIMIT`] bytes. Descriptor tables are read on
/// the host (push words), so they need not lie inside it; spanning the
/// file's memory blocks instead would let a table far from the data (RADV's
/// `0xffff8000` high half) or an index buffer push the data out of a capped
/// window.
fn window_for(
    capture: &Capture,
    manifest: &translator::manifest::Manifest,
    draws: &DrawsFile,
    user_data: &[u32],
    mem: &SparseMemory,
) -> Result<HostWindow, String> {
    let trace = crate::trace::trace_capture(capture);
    let plan = BindPlan::new(&trace, capture.stage())
        .map_err(|e| e.to_string())?
        .with_code_address(draws.code_addr());
    // The pass has no descriptor bindings: only the plan's baseline counts.
    let binder = HostBinder::new(manifest, trace, plan, Some(draws.code_addr()));
    let mut scratch = vec![BindRange::EMPTY; binder.scratch_len()];
    binder
        .window(user_data, mem, &mut scratch, WINDOW_LIMIT)
        .map_err(|e| e.to_string())
}

fn guest_bytes(mem: &SparseMemory, base: u64, len: u64) -> Vec<u8> {
    let mut out = vec![0u8; len as usize];
    for (i, c) in out.chunks_exact_mut(4).enumerate() {
        if let Some(w) = drawbind::GuestMemory::read_u32(mem, base + 4 * i as u64) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }
    out
}
