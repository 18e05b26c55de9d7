//! `shaderlift run` for compute shaders: the DRAWS.json's `dispatch`
//! entries (`{"kind": "dispatch", "groups": [x, y, z]}`), each run on the
//! device and by the interpreter from the file's guest memory, comparing
//! every word either side wrote.
//!
//! Per dispatch:
//! 1. the module ([`translator::translate_compute`]) reads and writes guest
//!    memory through one window binding; it spans every memory block of the
//!    file (capped at 64 MiB) and starts as the file's bytes (dispatches do
//!    not see each other's stores);
//! 2. one `vkCmdDispatch(groups)`; the window is read back;
//! 3. the interpreter runs the same grid ([`interp::run_dispatch`]) and
//!    records every byte its buffer stores write (later stores win);
//! 4. each dword the interpreter wrote is compared with the device's window
//!    word ([`super::compare::compare`]: exact, or within one ulp for
//!    floats); a dword the device changed that the interpreter did not
//!    write is a mismatch too, and so is a store outside the window. Bytes
//!    the interpreter left undefined are counted, not compared; a dispatch
//!    the interpreter reports findings for (an undefined address, an
//!    unmodelled access) fails;
//! 5. images ([`super::images::draws_images`]: the file's T#/S# where it
//!    gives them, else the scene's) are bound as host images; every storage
//!    image is read back and compared dword by dword with its initial
//!    texels plus the interpreter's image stores (told from buffer stores
//!    by their MIMG instruction, under the same race rule): each written
//!    dword, and every other dword unchanged ([`DispatchReport::image_words`]).

use super::compare::{compare, Verdict};
use crate::CliError;
use corpus::{Capture, WaveSize};
use drawbind::draws::DrawsFile;
use drawbind::SparseMemory;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;
use translator::host::guest_reader;
use translator::manifest::{BindingKind, DrawParams};
use translator::{translate_compute, Options, Translation};
use vkharness::{Binding, Harness, Interface};

/// Bytes of guest memory the window may span.
const WINDOW_LIMIT: u64 = 64 << 20;
/// The most invocations one dispatch may ask for.
pub const MAX_DISPATCH_INVOCATIONS: u64 = 1 << 20;
/// Mismatches listed per dispatch.
const LISTED: usize = 16;

/// A DRAWS.json without its dispatches, and the dispatches' group counts.
pub type Dispatches = (DrawsFile, Vec<[u32; 3]>);

/// The dispatches of a DRAWS.json text and the rest of the file (its
/// `dispatch` entries removed), or `None` when it has no dispatch.
pub fn split(text: &str) -> Result<Option<Dispatches>, String> {
    let mut v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Some(draws) = v.get_mut("draws").and_then(|d| d.as_array_mut()) else {
        return Ok(None);
    };
    let mut groups = Vec::new();
    let mut rest = Vec::new();
    for (i, d) in draws.drain(..).enumerate() {
        if d.get("kind").and_then(|k| k.as_str()) != Some("dispatch") {
            rest.push(d);
            continue;
        }
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Spec {
            #[allow(dead_code)]
            kind: String,
            groups: [u32; 3],
        }
        let s: Spec =
            serde_json::from_value(d).map_err(|e| format!("DRAWS.json: dispatch {i}: {e}"))?;
        groups.push(s.groups);
    }
    if groups.is_empty() {
        return Ok(None);
    }
    if !rest.is_empty() {
        return Err("DRAWS.json: a file with dispatches holds no draws".into());
    }
    *draws = rest;
    let file = DrawsFile::parse(&v.to_string()).map_err(|e| e.to_string())?;
    Ok(Some((file, groups)))
}

/// One word that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WordMismatch {
    /// Guest address of the dword.
    pub addr: u64,
    /// The device's word (`None`: outside the window).
    pub device: Option<u32>,
    /// The interpreter's word (`None`: it did not write this dword).
    pub reference: Option<u32>,
}

/// One dispatch's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DispatchReport {
    /// Its index among the file's dispatches.
    pub index: usize,
    /// Workgroups in x, y, z.
    pub groups: [u32; 3],
    /// Dwords compared.
    pub words: u64,
    /// Words within one ulp but not identical.
    pub within_ulp: u64,
    /// Words that differ.
    pub mismatches: u64,
    /// Written bytes the interpreter left undefined (not compared).
    pub undefined: u64,
    /// Interpreter findings (undefined addresses, unmodelled accesses; a
    /// sample point too near a texel border is not one: its words are
    /// undefined).
    pub findings: usize,
    /// Of `words`, the storage-image dwords compared.
    pub image_words: u64,
    /// The first mismatches.
    pub first_mismatches: Vec<WordMismatch>,
    /// Seconds on the device.
    pub device_seconds: f64,
    /// Seconds in the interpreter.
    pub interp_seconds: f64,
}

/// The whole compute run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DispatchRunReport {
    /// The Vulkan device.
    pub device: String,
    /// The window: guest base and bytes.
    pub window: (u64, u64),
    /// Per dispatch.
    pub dispatches: Vec<DispatchReport>,
    /// Words compared.
    pub words: u64,
    /// Words that differ.
    pub mismatches: u64,
    /// Interpreter findings (all dispatches).
    pub findings: usize,
}

impl DispatchRunReport {
    /// The report as text: a line per dispatch, then `N words, M
    /// mismatches`.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "device: {}", self.device);
        let _ = writeln!(
            s,
            "window: {:#x}..{:#x}",
            self.window.0,
            self.window.0 + self.window.1
        );
        for d in &self.dispatches {
            let images = if d.image_words > 0 {
                format!(" ({} in images)", d.image_words)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "dispatch {} {:?}: {} words{images}, {} mismatches, {} within 1 ulp, {} undefined bytes, {} findings",
                d.index, d.groups, d.words, d.mismatches, d.within_ulp, d.undefined, d.findings
            );
            for m in &d.first_mismatches {
                let show = |w: Option<u32>| match w {
                    Some(w) => format!("{w:#010x}"),
                    None => "none".into(),
                };
                let _ = writeln!(
                    s,
                    "  {:#x}: device {} interpreter {}",
                    m.addr,
                    show(m.device),
                    show(m.reference)
                );
            }
        }
        let _ = writeln!(s, "{} words, {} mismatches", self.words, self.mismatches);
        s
    }
}

/// Translate, dispatch on the device and compare with the interpreter, for
/// every dispatch.
pub fn execute(
    capture: &Capture,
    draws: &DrawsFile,
    dispatches: &[[u32; 3]],
    harness: &Harness,
) -> Result<DispatchRunReport, CliError> {
    execute_with_faults(
        capture,
        draws,
        dispatches,
        harness,
        DispatchFaults::default(),
    )
}

/// Negative controls of the dispatch comparison (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[doc(hidden)]
pub struct DispatchFaults {
    /// Give the interpreter every user-data word plus one, so the reference
    /// computes from other inputs than the device.
    pub skew_reference_user_data: bool,
    /// Compare bytes that stores of two workgroups leave at different
    /// values (the interpreter's order) instead of counting them undefined.
    pub ignore_workgroup_races: bool,
    /// Place the interpreter's image stores one texel further in x (the
    /// last texel's are dropped) before comparing the storage images.
    pub image_stores_one_texel_right: bool,
}

/// [`execute`] with a given translation of the capture (a test's broken
/// one, for the negative controls).
pub fn execute_translation(
    capture: &Capture,
    draws: &DrawsFile,
    dispatches: &[[u32; 3]],
    harness: &Harness,
    tr: &Translation,
) -> Result<DispatchRunReport, CliError> {
    execute_translation_with(
        capture,
        draws,
        dispatches,
        harness,
        tr,
        DispatchFaults::default(),
    )
}

/// [`execute`] with the faults switched on.
#[doc(hidden)]
pub fn execute_with_faults(
    capture: &Capture,
    draws: &DrawsFile,
    dispatches: &[[u32; 3]],
    harness: &Harness,
    faults: DispatchFaults,
) -> Result<DispatchRunReport, CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let Some(entry) = capture.compute_entry() else {
        return Err(named(
            &"dispatches need a compute capture that records its entry state (workgroup size, entry registers)",
        ));
    };
    let invocations = u64::from(entry.invocations().unwrap_or(0));
    for (i, g) in dispatches.iter().enumerate() {
        let n = g.iter().map(|&x| u64::from(x)).product::<u64>() * invocations;
        if n > MAX_DISPATCH_INVOCATIONS {
            return Err(named(&format!(
                "dispatch {i} asks for {n} invocations, more than the limit of {MAX_DISPATCH_INVOCATIONS}"
            )));
        }
    }
    // Precise mode, as the vertex runs: the interpreter computes the
    // approximate ops (`v_sin_f32`, `v_rsq_f32`, ...) correctly rounded.
    // Descriptor arrays at a per-lane table slot: only the pixel scene
    // binds their slots and checks the interpreter's reads of them.
    let opts = Options {
        precise: true,
        lane_table_arrays: false,
        ..Options::default()
    };
    let tr = translate_compute(&capture.shader_input(), &entry, &opts).map_err(|e| named(&e))?;
    execute_translation_with(capture, draws, dispatches, harness, &tr, faults)
}

/// The interpreter's dispatch configuration for a compute capture whose
/// code lies at `code_addr`.
pub(crate) fn interp_config(
    capture: &Capture,
    entry: &translator::wave::ComputeEntry,
    code_addr: u64,
) -> interp::DispatchConfig {
    interp::DispatchConfig {
        abi: capture.abi(),
        wave64: capture.wave_size() == WaveSize::W64,
        workgroup_size: entry.workgroup_size,
        user_sgprs: entry.user_sgprs,
        workgroup_id: entry.workgroup_id,
        local_id_vgprs: entry.local_id_vgprs,
        tg_size: entry.tg_size,
        target: capture.target(),
        fp: interp::FpMode::RADV,
        limits: interp::Limits::default(),
        code_addr,
    }
}

/// [`execute_translation`] with the faults switched on.
fn execute_translation_with(
    capture: &Capture,
    draws: &DrawsFile,
    dispatches: &[[u32; 3]],
    harness: &Harness,
    tr: &Translation,
    faults: DispatchFaults,
) -> Result<DispatchRunReport, CliError> {
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let Some(entry) = capture.compute_entry() else {
        return Err(named(&"not a compute capture with its entry state"));
    };
    let mut mem = draws.memory_with_code(&capture.code_and_constants());
    let user_data = draws.user_data();
    // Images: the descriptors the file gives, or the scene's (written into
    // `mem` where the shader reads them, texels outside every block).
    let host_images = super::images::capture_images(capture, &tr.manifest, &user_data, &mut mem)?;
    let image_inputs: Vec<vkharness::ImageInput<'_>> =
        host_images.iter().map(|h| h.input()).collect();
    let interface = Interface {
        entry_point: "main".into(),
        bindings: tr.manifest.bindings.iter().map(|b| b.binding).collect(),
        push_constant_bytes: tr.manifest.push_constant_bytes,
    };
    let program = harness
        .compute_program_with_images(&tr.spirv, &interface, &super::images::slots(&tr.manifest))
        .map_err(|e| super::harness_error(&capture.name, e))?;
    let reference_user_data: Vec<u32> = user_data
        .iter()
        .map(|w| w.wrapping_add(u32::from(faults.skew_reference_user_data)))
        .collect();
    // The window: every memory block of the file.
    let lo = draws.memory.iter().map(|b| b.addr.0).min().unwrap_or(0);
    let hi = draws
        .memory
        .iter()
        .map(|b| b.addr.0 + 4 * b.words.len() as u64)
        .max()
        .unwrap_or(0);
    let window_len = hi.saturating_sub(lo).min(WINDOW_LIMIT) & !3;
    let window_bytes = guest_bytes(&mem, lo, window_len);
    let params = DrawParams {
        window: (lo, window_len as u32),
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
    let iprog = interp::Program::new(&capture.code, capture.target());
    let image_pcs = mimg_pcs(&capture.code, capture.target());
    let icfg = interp_config(capture, &entry, draws.code_addr());
    let mut report = DispatchRunReport {
        device: harness.device_info().name.clone(),
        window: (lo, window_len),
        dispatches: Vec::new(),
        words: 0,
        mismatches: 0,
        findings: 0,
    };
    for (index, &groups) in dispatches.iter().enumerate() {
        let mut dr = DispatchReport {
            index,
            groups,
            words: 0,
            within_ulp: 0,
            mismatches: 0,
            undefined: 0,
            findings: 0,
            image_words: 0,
            first_mismatches: Vec::new(),
            device_seconds: 0.0,
            interp_seconds: 0.0,
        };
        let mut window_binding = None;
        let buffers: Vec<Binding<'_>> = tr
            .manifest
            .bindings
            .iter()
            .map(|b| match b.kind {
                BindingKind::Window => {
                    window_binding = Some(b.binding);
                    Binding {
                        binding: b.binding,
                        bytes: &window_bytes,
                        size: window_len.max(4),
                        read_back: true,
                    }
                }
                BindingKind::Params => Binding::input(b.binding, &param_bytes),
                _ => Binding::input(b.binding, &[]),
            })
            .collect();
        // One wave per host workgroup: x times the waves of a workgroup.
        let host_groups = match &tr.manifest.dispatch {
            Some(d) => d.host_groups(groups).ok_or_else(|| {
                named(&format!(
                    "dispatch {index}: {groups:?} workgroups of {} waves overflow the host's group count",
                    d.waves_per_group
                ))
            })?,
            None => groups,
        };
        let t = Instant::now();
        let out = program
            .dispatch_with_images(host_groups, &buffers, &image_inputs, &push)
            .map_err(|e| super::harness_error(&capture.name, e))?;
        dr.device_seconds = t.elapsed().as_secs_f64();
        let device_window: Vec<u8> = window_binding
            .and_then(|b| out.buffer(b))
            .map(<[u8]>::to_vec)
            .unwrap_or_else(|| window_bytes.clone());
        let t = Instant::now();
        let obs = interp::run_dispatch(&iprog, &mem, &reference_user_data, groups, &icfg)
            .map_err(|e| match e {
                // The inputs made a loop longer than the oracle's bound (a
                // loop count read from a data word): no verdict either way.
                interp::DispatchError::Interp {
                    error:
                        interp::InterpError::StepLimit { .. }
                        | interp::InterpError::RunStepLimit { .. },
                    ..
                } => CliError::NotRun(format!(
                    "{}: dispatch {index}: the interpreter's step bound ({e}): a loop bounded by an input word",
                    capture.name
                )),
                e => named(&format!("dispatch {index}: interpreter: {e}")),
            })?;
        dr.interp_seconds = t.elapsed().as_secs_f64();
        dr.findings = super::images::failing_findings(&obs);
        let [sx, sy, sz] = icfg.workgroup_size;
        let waves_per_group = (sx * sy * sz).div_ceil(if icfg.wave64 { 64 } else { 32 });
        let (image_stores, buffer_stores): (Vec<_>, Vec<_>) =
            obs.stores.iter().partition(|s| image_pcs.contains(&s.pc));
        let written = written_bytes(
            buffer_stores,
            waves_per_group,
            faults.ignore_workgroup_races,
        );
        let mut dwords: BTreeMap<u64, ([u8; 4], u8, u8)> = BTreeMap::new();
        for (&a, &(byte, def)) in &written {
            let e = dwords.entry(a & !3).or_insert(([0; 4], 0, 0));
            let k = (a & 3) as usize;
            e.0[k] = byte;
            e.1 |= 1 << k;
            if def {
                e.2 |= 1 << k;
            }
        }
        let in_window = |a: u64| a >= lo && a + 4 <= lo + window_len;
        let word_at = |bytes: &[u8], a: u64| {
            let o = (a - lo) as usize;
            u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
        };
        let note = |dr: &mut DispatchReport, m: WordMismatch| {
            dr.mismatches += 1;
            if dr.first_mismatches.len() < LISTED {
                dr.first_mismatches.push(m);
            }
        };
        for (&a, &(bytes, wrote, def)) in &dwords {
            dr.undefined += u64::from((wrote & !def).count_ones());
            let cmp_mask = wrote & def;
            if cmp_mask == 0 {
                continue;
            }
            dr.words += 1;
            if !in_window(a) {
                note(
                    &mut dr,
                    WordMismatch {
                        addr: a,
                        device: None,
                        reference: Some(u32::from_le_bytes(bytes)),
                    },
                );
                continue;
            }
            let dev = word_at(&device_window, a);
            let old = word_at(&window_bytes, a);
            // The reference word: written bytes over the initial ones.
            let mut r = old.to_le_bytes();
            for k in 0..4 {
                if wrote & (1 << k) != 0 {
                    r[k] = bytes[k];
                }
            }
            let reference = u32::from_le_bytes(r);
            let verdict = compare_bytes(dev, reference, cmp_mask);
            match verdict {
                Verdict::Exact => {}
                Verdict::WithinUlp => dr.within_ulp += 1,
                Verdict::Mismatch => note(
                    &mut dr,
                    WordMismatch {
                        addr: a,
                        device: Some(dev),
                        reference: Some(reference),
                    },
                ),
            }
        }
        // Words the device changed that the interpreter did not write.
        for o in (0..window_len as usize).step_by(4) {
            let a = lo + o as u64;
            if dwords.contains_key(&a) || o + 4 > device_window.len() {
                continue;
            }
            let (dev, old) = (word_at(&device_window, a), word_at(&window_bytes, a));
            if dev != old {
                dr.words += 1;
                note(
                    &mut dr,
                    WordMismatch {
                        addr: a,
                        device: Some(dev),
                        reference: None,
                    },
                );
            }
        }
        if !host_images.is_empty() {
            let written =
                written_bytes(image_stores, waves_per_group, faults.ignore_workgroup_races);
            compare_images(&mut dr, &host_images, &out, &written, faults).map_err(|e| named(&e))?;
        }
        report.words += dr.words;
        report.mismatches += dr.mismatches;
        report.findings += dr.findings;
        report.dispatches.push(dr);
    }
    Ok(report)
}

/// `len` guest bytes at `base` (unmapped bytes read 0).
fn guest_bytes(mem: &SparseMemory, base: u64, len: u64) -> Vec<u8> {
    let mut out = vec![0u8; len as usize];
    for (i, c) in out.chunks_exact_mut(4).enumerate() {
        if let Some(w) = drawbind::GuestMemory::read_u32(mem, base + 4 * i as u64) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }
    out
}

/// The interpreter's written bytes with whether each is defined, later
/// stores winning. The interpreter runs workgroups one after another, but a
/// device runs them in any order: a byte that stores of two workgroups
/// (`wave / waves_per_group`) leave at different values is order-dependent,
/// so it counts as undefined (not compared), unless every write after the
/// first is an order-free atomic. `ignore_races` is the negative control.
fn written_bytes<'s>(
    stores: impl IntoIterator<Item = &'s interp::record::Store>,
    waves_per_group: u32,
    ignore_races: bool,
) -> BTreeMap<u64, (u8, bool)> {
    // Per byte: value, defined, last plain writer's workgroup.
    let mut written: BTreeMap<u64, (u8, bool, u32)> = BTreeMap::new();
    for s in stores {
        let group = s.wave / waves_per_group.max(1);
        for k in 0..u64::from(s.len) {
            let byte = (s.value >> (8 * k)) as u8;
            let mut defined = s.defined;
            if let Some(&(old, old_def, old_group)) = written.get(&(s.addr + k)) {
                let racy = old_group != group && old != byte && !s.order_free;
                defined &= old_def || s.order_free;
                if racy && !ignore_races {
                    defined = false;
                }
            }
            written.insert(s.addr + k, (byte, defined, group));
        }
    }
    written
        .into_iter()
        .map(|(a, (b, d, _))| (a, (b, d)))
        .collect()
}

/// Compare a device dword with the reference in the bytes `mask` names
/// (bit k: byte k): the whole word as [`compare`] does, else the bytes
/// exactly.
fn compare_bytes(dev: u32, reference: u32, mask: u8) -> Verdict {
    if mask == 0xf {
        return compare(dev, reference);
    }
    let m = (0..4)
        .filter(|k| mask & (1 << k) != 0)
        .fold(0u32, |m, k| m | (0xff << (8 * k)));
    if dev & m == reference & m {
        Verdict::Exact
    } else {
        Verdict::Mismatch
    }
}

/// The byte offsets of the code's MIMG instructions (a straight decode:
/// the interpreter's stores at these pcs are image stores).
pub(super) fn mimg_pcs(code: &[u8], target: isa::Target) -> std::collections::BTreeSet<u32> {
    let mut out = std::collections::BTreeSet::new();
    let mut pc = 0usize;
    while pc < code.len() {
        let Ok(inst) = isa::decode(&code[pc..], target) else {
            pc += 4;
            continue;
        };
        if inst.family == isa::Family::Mimg {
            out.insert(pc as u32);
        }
        pc += usize::from(inst.len).max(4);
    }
    out
}

/// Compare every storage image the device read back with its initial
/// texels with the interpreter's image stores (`written`: guest byte →
/// value, defined) applied. A dword the interpreter wrote is compared
/// (only its defined written bytes when some are undefined); a dword it
/// did not write must be unchanged; an image store outside every storage
/// image is a mismatch.
fn compare_images(
    dr: &mut DispatchReport,
    images: &[super::images::HostImage],
    out: &vkharness::RunOutput,
    written: &BTreeMap<u64, (u8, bool)>,
    faults: DispatchFaults,
) -> Result<(), String> {
    let note = |dr: &mut DispatchReport, m: WordMismatch| {
        dr.mismatches += 1;
        if dr.first_mismatches.len() < LISTED {
            dr.first_mismatches.push(m);
        }
    };
    let mut placed = std::collections::BTreeSet::new();
    for h in images.iter().filter(|h| h.storage) {
        let got = out
            .image(h.binding)
            .ok_or_else(|| format!("storage image {} was not read back", h.binding))?;
        if got.len() != h.texels.len() {
            return Err(format!(
                "storage image {} read back {} bytes, not {}",
                h.binding,
                got.len(),
                h.texels.len()
            ));
        }
        let shift = if faults.image_stores_one_texel_right {
            h.texel_bytes()
        } else {
            0
        };
        // Per dword: the bytes, which were written, which defined.
        let mut want: Vec<([u8; 4], u8, u8)> = h
            .texels
            .chunks_exact(4)
            .map(|c| ([c[0], c[1], c[2], c[3]], 0, 0))
            .collect();
        for (&a, &(byte, def)) in written {
            if h.texel_offset(a, 1).is_none() {
                continue;
            }
            placed.insert(a);
            let Some(o) = h.texel_offset(a + shift, 1) else {
                continue;
            };
            let w = &mut want[o / 4];
            w.0[o % 4] = byte;
            w.1 |= 1 << (o % 4);
            if def {
                w.2 |= 1 << (o % 4);
            }
        }
        for (i, (&(bytes, wrote, def), g)) in want.iter().zip(got.chunks_exact(4)).enumerate() {
            let dev = u32::from_le_bytes([g[0], g[1], g[2], g[3]]);
            let reference = u32::from_le_bytes(bytes);
            let addr = h.guest_address(4 * i);
            dr.undefined += u64::from((wrote & !def).count_ones());
            let verdict = match wrote & def {
                // Not written (or nothing defined): the texel stays.
                0 if wrote == 0 => {
                    if dev == reference {
                        continue;
                    }
                    Verdict::Mismatch
                }
                0 => continue,
                m => compare_bytes(dev, reference, m),
            };
            dr.words += 1;
            dr.image_words += 1;
            match verdict {
                Verdict::Exact => {}
                Verdict::WithinUlp => dr.within_ulp += 1,
                Verdict::Mismatch => note(
                    dr,
                    WordMismatch {
                        addr,
                        device: Some(dev),
                        reference: (wrote != 0).then_some(reference),
                    },
                ),
            }
        }
    }
    // Image stores outside every storage image (the device has no such
    // texel).
    let mut outside: BTreeMap<u64, u32> = BTreeMap::new();
    for (&a, &(byte, _)) in written.iter().filter(|(a, _)| !placed.contains(*a)) {
        *outside.entry(a & !3).or_insert(0) |= u32::from(byte) << (8 * (a & 3));
    }
    for (addr, v) in outside {
        dr.words += 1;
        dr.image_words += 1;
        note(
            dr,
            WordMismatch {
                addr,
                device: None,
                reference: Some(v),
            },
        );
    }
    Ok(())
}

#[cfg(test)]
mod race_tests {
    use super::written_bytes;
    use interp::record::Store;

    fn store(wave: u32, value: u32, order_free: bool) -> Store {
        Store {
            pc: 0,
            wave,
            lane: 0,
            addr: 0x100,
            len: 4,
            value,
            defined: true,
            order_free,
        }
    }

    fn defined(stores: &[Store], ignore: bool) -> bool {
        written_bytes(stores, 2, ignore).values().all(|&(_, d)| d)
    }

    #[test]
    fn different_values_from_two_workgroups_are_undefined_and_ignoring_races_is_caught() {
        // Waves 0 and 2 are workgroups 0 and 1 (two waves per group).
        let race = [store(0, 1, false), store(2, 2, false)];
        assert!(!defined(&race, false));
        // Negative control: without the rule the later group's value would
        // be compared, and the device may have run the groups the other way.
        assert!(defined(&race, true));
    }

    #[test]
    fn one_workgroup_equal_values_and_order_free_atomics_stay_defined() {
        assert!(defined(&[store(0, 1, false), store(1, 2, false)], false));
        assert!(defined(&[store(0, 7, false), store(2, 7, false)], false));
        assert!(defined(&[store(0, 1, true), store(2, 3, true)], false));
        // A plain store after another group's atomic is still a race.
        assert!(!defined(&[store(0, 1, true), store(2, 3, false)], false));
    }
}
