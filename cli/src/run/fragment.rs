//! `shaderlift run` for pixel shaders: draw one triangle whose
//! barycentrics and attribute values are exact in f32, run the translated
//! fragment shader on the device (its exports go to the test-output buffer,
//! one record per pixel) and the interpreter on the same pixels, and compare
//! every export word.
//!
//! # The scene
//!
//! A [`EXTENT`]² render area and one triangle with vertices at pixel
//! coordinates (0, 0), (2·E, 0) and (0, 2·E), `w` = 1: it covers every
//! pixel, none on an edge, and the pixel (x, y) has the barycentrics
//! i = (x + ½)/(2E) (vertex 1) and j = (y + ½)/(2E) (vertex 2), dyadic
//! numbers with few bits. Attribute channel values are small integers
//! (different deltas towards vertex 1 and vertex 2, so swapping i and j
//! shows). Then `P0 + i·(P1−P0) + j·(P2−P0)` is exact in f32 whatever the
//! order or fusing of the operations, so the host's interpolation (plane
//! equations on lavapipe, perspective division by 1) and the interpreter's
//! `v_interp_p1/p2` give the same bits: the comparison is exact, with no
//! tolerance. Flat inputs take vertex 0 (the provoking vertex) on both
//! sides. A raw barycentric pair's helper input (manifest
//! `barycentrics`) gets (0, 0), (1, 0), (0, 1) at the three vertices, so
//! the host interpolates it to the very (i, j) the interpreter's entry
//! VGPRs hold.
//!
//! User data (RADV inlines push constants there) is given
//! ([`FragmentOptions::user_data`]). Images and words read through
//! pointers get the image scene ([`super::images::scene`]). A shader that
//! reads buffers through traced descriptors gets the compute dispatches'
//! synthesized inputs instead ([`super::synth::scene_file`]: tables, V#s
//! over windows of small integers and floats; the images' descriptors
//! written into them by [`super::images::draws_images`]), and each
//! descriptor is bound at its bind range as a vertex run binds it
//! ([`super::bind_guest_buffers`]), so device and interpreter read the same
//! bytes. The translation stores to no buffer in a pixel shader; an
//! interpreter buffer store is "not run", never passed over.
//!
//! A scene that compares no word (every export undefined: a switch word no
//! case tests) runs again with every free word 0, then 1; one whose bound
//! buffers the interpreter never read (an index from a flat input that
//! holds a float's bits) again with flat inputs as small integers. A retry
//! is kept only when it compares words.

use super::images::DataWords;
use super::{DrawReport, Mismatch, RunReport};
use crate::CliError;
use corpus::{Capture, WaveSize};
use interp::ps::{run_pixels, Pixel, PsConfig};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl, MemoryModel,
    StorageClass,
};
use std::time::Instant;
use translator::manifest::{BindingKind, Manifest};
use translator::{translate_with_faults, Options, PsFaults};
use vkharness::{Binding, Harness, Interface};

/// Pixels per side of the render area.
pub const EXTENT: u32 = 16;
/// What the test-output buffer holds where the device wrote nothing.
const UNWRITTEN: u32 = 0xdead_beef;
/// Mismatches listed.
const LISTED: usize = 16;

/// The scene's knobs, and the negative controls of the fragment checks
/// (tests only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FragmentOptions {
    /// User-data words (word k in SGPR `user_data_sgpr + k`; RADV inlines
    /// push constants there); `None`: word k is the f32 `k + 1`.
    pub user_data: Option<Vec<u32>>,
    /// Give the interpreter every pixel's barycentrics swapped (i ↔ j).
    pub swap_ij_in_reference: bool,
    /// Translate with discards dropped (`translator::PsFaults::drop_discard`).
    pub drop_discard: bool,
    /// Translate DPP `quad_perm` reading the horizontal neighbour of the
    /// named lane (`translator::PsFaults::quad_lane_flipped`).
    pub quad_lane_flipped: bool,
    /// Translate with a block argument that known branch conditions select
    /// away on one edge dropped on every edge
    /// (`translator::PsFaults::known_argument_every_edge`).
    pub known_argument_every_edge: bool,
    /// Translate `v_interp_p2_f16` interpolating the other half of the
    /// parameter words (`translator::PsFaults::interp16_other_half`).
    pub interp16_other_half: bool,
    /// Translate with every lane-mask SCC taken as "no lane", constant
    /// mask or not (`translator::PsFaults::any_lane_assumed_none`).
    pub any_lane_assumed_none: bool,
    /// Give the interpreter every scene image with its rows in reverse
    /// order (a wrong row address).
    pub flip_texel_rows_in_reference: bool,
    /// Give the interpreter every scene data word (push-constant words read
    /// from tables and buffers) plus 64 (moves a scaled coordinate by texels).
    pub perturb_data_words_in_reference: bool,
    /// Negative controls of the translator's lowerings
    /// ([`translator::Faults`]); none by default.
    #[doc(hidden)]
    pub translator_faults: translator::Faults,
    /// [`translator::Options::trust_lane_table_slots`].
    pub trust_lane_table_slots: bool,
    /// Translate with the VRS rate's axes swapped
    /// (`translator::PsFaults::shading_rate_axes_swapped`).
    pub shading_rate_axes_swapped: bool,
    /// Translate with a raw barycentric entry VGPR reading the other
    /// weight of its pair (`translator::PsFaults::raw_barycentrics_swapped`).
    pub raw_barycentrics_swapped: bool,
    /// Translate with EXEC raises in a discard's region checked against
    /// the EXEC before the discard
    /// (`translator::PsFaults::discard_branch_exec_before`).
    pub discard_branch_exec_before: bool,
    /// Negative control of the buffer bindings: bind every traced
    /// descriptor's guest bytes one dword late (the host's loads read the
    /// next dword; the interpreter reads guest memory).
    #[doc(hidden)]
    pub buffers_one_dword_late: bool,
}

/// The scene's coarse shading rate (the `ancillary` VGPR's bits 5:2, the
/// push word [`translator::manifest::PushKind::ShadingRate`]): 2x1, rate X
/// 1 and rate Y 0, so that a rate read as 1x1 or with its axes swapped
/// differs.
pub const SCENE_SHADING_RATE: u32 = 0b0001;

/// The value of attribute `attr`, channel `c`, at vertex `k`.
///
/// With images (`images`), channels 0 and 1 run over [0, ½) across the
/// render area (x with vertex 1, y with vertex 2), from a start of
/// `attr/8 + c/16` (whole texels of a [`super::images::SIDE`]-wide image),
/// so a coordinate made of them scaled by the image side lands a quarter
/// texel from the nearest texel border (`(2x + 1)/4` texels); channel 2
/// (a layer or depth) is ¼ + attr, channel 3 is 1 + 1/64 (near one, and
/// also a quarter texel from a border when a packed coordinate takes it).
fn attr_value(attr: u32, c: u32, k: usize, images: bool) -> f32 {
    if images {
        let start = attr as f32 / 8.0 + c as f32 / 16.0;
        return match (c, k) {
            (0, 1) | (1, 2) => start + 1.0,
            (0 | 1, _) => start,
            (2, _) => 0.25 + attr as f32,
            _ => 1.0 + 1.0 / 64.0,
        };
    }
    let p0 = (attr * 4 + c + 1) as f32;
    match k {
        0 => p0,
        1 => p0 + 2.0 * (c + 1) as f32,
        _ => p0 - (3 + attr) as f32,
    }
}

/// A 16-bit attribute's channel `c` at vertex `k`: the values of its low
/// and high f16. Small integers (magnitude below 16), so every
/// interpolated value (i and j multiples of 1/(4E)) is exact in f16 and
/// the f16 deltas are exact; the halves differ, so reading the wrong one
/// shows.
fn attr_value16(attr: u32, c: u32, k: usize) -> (f32, f32) {
    let p0 = ((attr + c) % 4 + 1) as f32;
    let lo = match k {
        0 => p0,
        1 => p0 + (c + 1) as f32,
        _ => p0 - 3.0,
    };
    (lo, lo + 4.0 - k as f32)
}

/// The integer a flat input's channel `c` of attribute `attr` holds in a
/// scene whose buffers the float inputs left unread: 1..=4, different per
/// channel.
fn flat_integer(attr: u32, c: u32) -> u32 {
    1 + (attr + c) % 4
}

/// Vertex positions in clip space (w = 1).
fn position(k: usize) -> [f32; 4] {
    match k {
        0 => [-1.0, -1.0, 0.5, 1.0],
        1 => [3.0, -1.0, 0.5, 1.0],
        _ => [-1.0, 3.0, 0.5, 1.0],
    }
}

/// A vertex shader that feeds `locations`: vertex `k` reads `1 + n` vec4s
/// at `k · (1 + n)` of the storage buffer at `binding` (position first)
/// and writes them to `Position` and the locations in order.
fn feeding_vertex_shader(locations: &[u32], binding: u32) -> Result<Vec<u32>, String> {
    let e = |x: rspirv::dr::Error| format!("{x:?}");
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let u32_ = b.type_int(32, 0);
    let i32_ = b.type_int(32, 1);
    let f32_ = b.type_float(32, None);
    let v4f = b.type_vector(f32_, 4);
    let rta = b.type_runtime_array(v4f);
    b.decorate(
        rta,
        Decoration::ArrayStride,
        vec![Operand::LiteralBit32(16)],
    );
    let st = b.type_struct(vec![rta]);
    b.decorate(st, Decoration::Block, vec![]);
    b.member_decorate(st, 0, Decoration::Offset, vec![Operand::LiteralBit32(0)]);
    b.member_decorate(st, 0, Decoration::NonWritable, vec![]);
    let p_st = b.type_pointer(None, StorageClass::StorageBuffer, st);
    let data = b.variable(p_st, None, StorageClass::StorageBuffer, None);
    b.decorate(
        data,
        Decoration::DescriptorSet,
        vec![Operand::LiteralBit32(0)],
    );
    b.decorate(
        data,
        Decoration::Binding,
        vec![Operand::LiteralBit32(binding)],
    );
    let p_in_i32 = b.type_pointer(None, StorageClass::Input, i32_);
    let vid = b.variable(p_in_i32, None, StorageClass::Input, None);
    b.decorate(
        vid,
        Decoration::BuiltIn,
        vec![Operand::BuiltIn(BuiltIn::VertexIndex)],
    );
    let p_out = b.type_pointer(None, StorageClass::Output, v4f);
    let pos = b.variable(p_out, None, StorageClass::Output, None);
    b.decorate(
        pos,
        Decoration::BuiltIn,
        vec![Operand::BuiltIn(BuiltIn::Position)],
    );
    let mut outs = vec![pos];
    for &l in locations {
        let v = b.variable(p_out, None, StorageClass::Output, None);
        b.decorate(v, Decoration::Location, vec![Operand::LiteralBit32(l)]);
        outs.push(v);
    }
    let p_sb_v4 = b.type_pointer(None, StorageClass::StorageBuffer, v4f);
    let per = b.constant_bit32(u32_, 1 + locations.len() as u32);
    let zero = b.constant_bit32(u32_, 0);
    let ks: Vec<u32> = (0..outs.len())
        .map(|k| b.constant_bit32(u32_, k as u32))
        .collect();
    let fn_void = b.type_function(void, vec![]);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_void)
        .map_err(e)?;
    b.begin_block(None).map_err(e)?;
    let id = b.load(i32_, None, vid, None, vec![]).map_err(e)?;
    let id = b.bitcast(u32_, None, id).map_err(e)?;
    let base = b.i_mul(u32_, None, id, per).map_err(e)?;
    for (k, &out) in outs.iter().enumerate() {
        let idx = b.i_add(u32_, None, base, ks[k]).map_err(e)?;
        let p = b
            .access_chain(p_sb_v4, None, data, vec![zero, idx])
            .map_err(e)?;
        let v = b.load(v4f, None, p, None, vec![]).map_err(e)?;
        b.store(out, v, None, vec![]).map_err(e)?;
    }
    b.ret().map_err(e)?;
    b.end_function().map_err(e)?;
    let mut iface = vec![vid];
    iface.extend(outs);
    b.entry_point(ExecutionModel::Vertex, main, "main", iface);
    Ok(b.module().assemble())
}

/// f16 bits to f32 bits (exact).
fn f16_to_f32(h: u32) -> u32 {
    interp::float::f16_to_f32(h as u16)
}

/// What [`execute_fragment`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum FragmentOutcome {
    /// It ran and compared.
    Ran(RunReport),
    /// The shader translates but needs what the scene does not give yet
    /// (guest memory): why.
    NotRun(String),
}

impl FragmentOutcome {
    /// The report, or an error naming why the shader was not run.
    pub fn report(self) -> Result<RunReport, CliError> {
        match self {
            FragmentOutcome::Ran(r) => Ok(r),
            FragmentOutcome::NotRun(why) => Err(CliError::NotRun(why)),
        }
    }
}

/// Translate a pixel shader, run it on the device over the scene and
/// compare every export with the interpreter's. A scene whose data words
/// make a loop run past the interpreter's step bound (a loop count read
/// from a data word) is built again with small integer data words
/// ([`DataWords::SmallIntegers`]); one whose words leave every export
/// undefined (a flag or switch word no case tests) again with every free
/// word 0, then 1 ([`DataWords::Fixed`]), the first that compares words
/// kept. Both sides get the same bytes either way.
pub fn execute_fragment(
    capture: &Capture,
    harness: &Harness,
    opts: &FragmentOptions,
) -> Result<FragmentOutcome, CliError> {
    let run = |values, flat_integers| {
        execute_fragment_scene(capture, harness, opts, values, flat_integers)
    };
    let compares = |o: &FragmentOutcome| matches!(o, FragmentOutcome::Ran(r) if r.words > 0);
    let mut values = DataWords::Floats;
    let mut best = match run(values, false) {
        Err(CliError::NotRun(why)) if why.contains(STEP_BOUND) => {
            values = DataWords::SmallIntegers;
            run(values, false)
        }
        r => r,
    }?;
    if matches!(&best.0, FragmentOutcome::Ran(_)) && !compares(&best.0) && opts.user_data.is_none()
    {
        for v in FIXED_WORDS {
            match run(DataWords::Fixed(v), false) {
                Ok(o) if compares(&o.0) => {
                    values = DataWords::Fixed(v);
                    best = o;
                    break;
                }
                Ok(_) | Err(CliError::NotRun(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    // Buffers bound but no byte of them read (an index from a flat input,
    // a float's bits scaled past every record): flat inputs as small
    // integers, kept when the loads then read and the run compares.
    if best.1 {
        match run(values, true) {
            Ok(o) if compares(&o.0) && !o.1 => best = o,
            Ok(_) | Err(CliError::NotRun(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(best.0)
}

/// The free-word values of the retries of a scene that compared nothing:
/// the values a branch on a flag or a switch word most often tests.
const FIXED_WORDS: [u32; 2] = [0, 1];

/// What a step-bound refusal says.
const STEP_BOUND: &str = "the interpreter's step bound on the pixel scene";

/// The inputs of a pixel shader that reads buffers through traced
/// descriptors: [`super::synth::scene_file`] under the compute layout
/// (tables, V#s over windows, small free words), its free words replaced
/// for [`DataWords::Fixed`] and its windows small integers for
/// [`DataWords::SmallIntegers`].
fn guest_scene(
    capture: &Capture,
    trace: &analysis::trace::ShaderTrace,
    m: &Manifest,
    values: DataWords,
) -> drawbind::draws::DrawsFile {
    use interp::scene::{SceneLayout, Values};
    let layout = SceneLayout {
        values: match values {
            DataWords::SmallIntegers => Values::SmallIntegers,
            _ => SceneLayout::COMPUTE.values,
        },
        ..SceneLayout::COMPUTE
    };
    let file = super::synth::scene_file(capture, trace.clone(), Some(m), &layout);
    let DataWords::Fixed(v) = values else {
        return file;
    };
    let zero = SceneLayout {
        small_free_words: false,
        ..layout
    };
    let zero = super::synth::scene_file(capture, trace.clone(), Some(m), &zero);
    let mut file = file;
    super::synth::replace_free_words(&mut file, &zero, |_| v);
    file
}

fn execute_fragment_scene(
    capture: &Capture,
    harness: &Harness,
    opts: &FragmentOptions,
    values: DataWords,
    flat_integers: bool,
) -> Result<(FragmentOutcome, bool), CliError> {
    let not_run = |why: String| {
        Ok((
            FragmentOutcome::NotRun(format!("{}: {why}", capture.name)),
            false,
        ))
    };
    let named = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", capture.name));
    let t0 = Instant::now();
    let trace = crate::trace::trace_capture(capture);
    let tr = translate_with_faults(
        &capture.shader_input(),
        Some(&trace),
        &Options {
            checked: false,
            test_outputs: true,
            validate: true,
            // The interpreter computes the approximate ops correctly
            // rounded; so does the translation in precise mode.
            precise: true,
            trust_lane_table_slots: opts.trust_lane_table_slots,
            shading_rate: translator::ShadingRateSource::PushWord,
            lane_table_arrays: true,
            faults: opts.translator_faults,
        },
        PsFaults {
            drop_discard: opts.drop_discard,
            quad_lane_flipped: opts.quad_lane_flipped,
            known_argument_every_edge: opts.known_argument_every_edge,
            interp16_other_half: opts.interp16_other_half,
            any_lane_assumed_none: opts.any_lane_assumed_none,
            shading_rate_axes_swapped: opts.shading_rate_axes_swapped,
            raw_barycentrics_swapped: opts.raw_barycentrics_swapped,
            discard_branch_exec_before: opts.discard_branch_exec_before,
        },
    )
    .map_err(|e| named(&e))?;
    let translate_seconds = t0.elapsed().as_secs_f64();
    let m: &Manifest = &tr.manifest;
    let mut test_binding = None;
    // The parameter words that did not fit in the push constants.
    let mut params_binding = None;
    // Traced descriptors and the window: guest memory the scene lays out.
    let mut guest_buffers = false;
    for b in &m.bindings {
        match b.kind {
            BindingKind::TestOutputs => test_binding = Some(b.binding),
            BindingKind::Params => params_binding = Some(b.binding),
            BindingKind::Descriptor { .. } | BindingKind::Window => guest_buffers = true,
            _ => return not_run(format!("a pixel shader's {:?} binding is not run", b.kind)),
        }
    }
    let Some(test_binding) = test_binding else {
        return Err(named(&"the translation has no test-output buffer"));
    };
    let user_data: Vec<u32> = match (&opts.user_data, values) {
        (Some(u), _) => u.clone(),
        (None, DataWords::Fixed(v)) => vec![v; capture.abi().user_data_count as usize],
        (None, _) => (0..capture.abi().user_data_count)
            .map(|k| (k as f32 + 1.0).to_bits())
            .collect(),
    };
    // Images, and words read through user-data pointers: the scene's
    // descriptor tables, buffers and texels.
    let has_images = !m.images.is_empty();
    let reads_memory = m.push_constants.iter().chain(&m.param_buffer).any(|w| {
        matches!(&w.kind, translator::manifest::PushKind::Word { expr, .. }
            if !matches!(expr, translator::manifest::WordExpr::UserData { .. }
                | translator::manifest::WordExpr::Const { .. }))
    });
    let mut data_words = Vec::new();
    let mut code_addr = 0;
    let mut host_images = Vec::new();
    if guest_buffers && opts.user_data.is_some() {
        // The scene lays out the tables the descriptors are read through.
        return not_run(
            "given user data with buffers read through traced descriptors (the scene chooses the table pointers)"
                .into(),
        );
    }
    let (user_data, mem) = if guest_buffers {
        // Buffers through traced descriptors: the compute dispatches'
        // synthesized inputs (tables, V#s over windows of small integers
        // and floats), the scene's images written where the file leaves
        // their descriptors out.
        let file = guest_scene(capture, &trace, m, values);
        let user_data = file.user_data();
        let mut mem = file.memory_with_code(&capture.code_and_constants());
        code_addr = file.code_addr();
        host_images = match super::images::draws_images(
            m,
            &capture.code,
            capture.target(),
            &user_data,
            &mut mem,
        ) {
            Ok(h) => h,
            Err(why) => return not_run(format!("images: {why}")),
        };
        (user_data, mem)
    } else if has_images || (reads_memory && opts.user_data.is_none()) {
        match super::images::scene(m, &capture.code, capture.target(), &user_data, values) {
            Ok(s) => {
                data_words = s.data_words;
                (s.user_data, s.memory)
            }
            Err(why) => return not_run(format!("images: {why}")),
        }
    } else {
        (user_data, drawbind::SparseMemory::default())
    };
    if has_images && !guest_buffers {
        host_images = match super::images::host_images(m, &user_data, &mem) {
            Ok(h) => h,
            Err(why) => return not_run(format!("images: {why}")),
        };
    }
    let mut d = DrawReport::new(0, (EXTENT * EXTENT) as u64);
    // Each traced descriptor's guest bytes at its bind range (the vertex
    // runs' binding rules), and the window.
    let (guest, mut params) = if guest_buffers {
        let plan = drawbind::BindPlan::new(&trace, capture.stage())
            .map_err(|e| named(&e))?
            .with_code_address(code_addr);
        let binder = translator::host::HostBinder::new(m, trace.clone(), plan, Some(code_addr));
        let draw = drawbind::Draw::Auto {
            first_vertex: 0,
            vertex_count: 3,
            instance_count: 1,
            chunks: &[],
        };
        let inputs = super::GuestInputs {
            binder: &binder,
            manifest: m,
            user_data: &user_data,
            mem: &mem,
            code_addr,
            binding_limit: super::BINDING_LIMIT.min(harness.max_storage_buffer_range()),
            file_memory: None,
            one_record_short: false,
        };
        let (mut buffers, params) = match super::bind_guest_buffers(&inputs, &draw, &mut d) {
            Ok(b) => b,
            Err(why) => return not_run(format!("buffers: {why}")),
        };
        if opts.buffers_one_dword_late {
            for (binding, bytes, _, _) in &mut buffers {
                let descriptor = m.bindings.iter().any(|b| {
                    b.binding == *binding && matches!(b.kind, BindingKind::Descriptor { .. })
                });
                if descriptor && bytes.len() >= 4 {
                    bytes.drain(..4);
                    bytes.extend([0; 4]);
                }
            }
        }
        (buffers, params)
    } else {
        (Vec::new(), translator::manifest::DrawParams::default())
    };
    params.out_vertex_count = EXTENT;
    params.code_addr = code_addr;
    params.shading_rate = SCENE_SHADING_RATE;
    params.image_array_slots = super::images::array_slots(m);
    let mut read = translator::host::guest_reader(&mem);
    let words = match m.push_words(&user_data, &params, &mut read) {
        Ok(w) => w,
        Err(e) => {
            return not_run(format!(
                "pixel shaders that read memory are not run yet: {e}"
            ))
        }
    };
    let push: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let param_bytes: Vec<u8> = match params_binding {
        Some(_) => match m.param_buffer_words(&user_data, &params, &mut read) {
            Ok(w) => w.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Err(e) => {
                return not_run(format!(
                    "pixel shaders that read memory are not run yet: {e}"
                ))
            }
        },
        None if !m.param_buffer.is_empty() => {
            return not_run("spilled parameters without a params binding".into());
        }
        None => Vec::new(),
    };
    let locations: Vec<u32> = m.inputs.iter().map(|i| i.location).collect();
    let data_binding = m
        .images
        .iter()
        .map(|i| i.binding)
        .chain(m.bindings.iter().map(|b| b.binding))
        .max()
        .unwrap_or(test_binding)
        + 1;
    let slots: Vec<vkharness::ImageSlot> = super::images::slots(m);
    let vs = feeding_vertex_shader(&locations, data_binding).map_err(|e| named(&e))?;
    let t0 = Instant::now();
    let interface = Interface {
        entry_point: "main".into(),
        bindings: [test_binding, data_binding]
            .into_iter()
            .chain(params_binding)
            .chain(
                guest
                    .iter()
                    .map(|g| g.0)
                    .filter(|&b| Some(b) != params_binding && b != test_binding),
            )
            .collect(),
        push_constant_bytes: m.push_constant_bytes,
    };
    let program = harness
        .fragment_program_with_images(&vs, &tr.spirv, &interface, &slots, EXTENT, EXTENT)
        .map_err(|e| super::harness_error(&capture.name, e))?;
    let pipeline_seconds = t0.elapsed().as_secs_f64();

    // Vertex data and the interpreter's attributes.
    let mut data = Vec::new();
    let max_loc = locations
        .iter()
        .copied()
        .max()
        .map_or(0, |l| l as usize + 1);
    let mut attrs = vec![[[0u32; 4]; 3]; max_loc];
    #[allow(clippy::needless_range_loop)] // k is the vertex, indexing two tables
    for k in 0..3 {
        for x in position(k) {
            data.extend_from_slice(&x.to_le_bytes());
        }
        for input in &m.inputs {
            let l = input.location;
            if input.barycentrics {
                // A raw barycentric pair's helper: vertex k's weights
                // (i, j) = (k == 1, k == 2), which the host interpolates
                // to the pixel's (i, j), the interpreter's pair below.
                for c in 0..4 {
                    let w = u32::from((c == 0 && k == 1) || (c == 1 && k == 2));
                    data.extend_from_slice(&(w as f32).to_le_bytes());
                }
                continue;
            }
            for c in 0..4 {
                // A flat input that selects a per-lane table slot holds
                // the scene's index (an integer), so the slot it names is
                // bound and its neighbours are the other slots' images.
                let index = m
                    .lane_tables
                    .iter()
                    .any(|t| t.input == Some([l as u8, c as u8]));
                let flat = flat_integers && input.interpolation == "flat";
                let (host, guest) = match input.f16_half.as_deref() {
                    _ if index => (
                        f32::from_bits(super::images::SCENE_INDEX),
                        super::images::SCENE_INDEX,
                    ),
                    // The integer's bits, as the index above.
                    None if flat => {
                        let n = flat_integer(l, c);
                        (f32::from_bits(n), n)
                    }
                    None => {
                        let v = attr_value(l, c, k, has_images);
                        (v, v.to_bits())
                    }
                    Some(half) => {
                        let (lo, hi) = attr_value16(l, c, k);
                        let h = |x: f32| interp::float::f32_to_f16(x.to_bits(), false) as u32;
                        (if half == "high" { hi } else { lo }, h(lo) | h(hi) << 16)
                    }
                };
                data.extend_from_slice(&host.to_le_bytes());
                attrs[l as usize][k][c as usize] = guest;
            }
        }
    }
    let nslots = m.outputs.len() as u32;
    let pixels = (EXTENT * EXTENT) as usize;
    let out_words = pixels * nslots.max(1) as usize * 4;
    let init: Vec<u8> = std::iter::repeat_n(UNWRITTEN.to_le_bytes(), out_words)
        .flatten()
        .collect();
    let t0 = Instant::now();
    let inputs: Vec<vkharness::ImageInput<'_>> = host_images.iter().map(|h| h.input()).collect();
    let mut buffers = vec![
        Binding {
            binding: test_binding,
            bytes: &init,
            size: init.len() as u64,
            read_back: true,
        },
        Binding::input(data_binding, &data),
    ];
    if let Some(b) = params_binding {
        buffers.push(Binding::input(b, &param_bytes));
    }
    // Descriptors and the window (the test outputs and the parameters are
    // above).
    for (binding, bytes, size, read_back) in &guest {
        if *binding != test_binding && Some(*binding) != params_binding {
            buffers.push(Binding {
                binding: *binding,
                bytes,
                size: *size,
                read_back: *read_back,
            });
        }
    }
    let out = program
        .run_with_images(3, &buffers, &inputs, &push)
        .map_err(|e| super::harness_error(&capture.name, e))?;
    let device_seconds = t0.elapsed().as_secs_f64();
    let dev = out
        .buffer(test_binding)
        .ok_or_else(|| named(&"the test-output buffer was not read back"))?;
    let dev_word = |i: usize| -> u32 {
        let b = &dev[4 * i..4 * i + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };

    // The interpreter on the same pixels.
    let t0 = Instant::now();
    let half = 0.5f32;
    let span = (2 * EXTENT) as f32;
    // Lanes in quad order, as the hardware packs them: the 2×2 quads in
    // rows, each quad's pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1), so
    // lane 4q + p is position p of quad q (DPP `quad_perm` reads by it).
    let px: Vec<Pixel> = (0..EXTENT / 2)
        .flat_map(|qy| (0..EXTENT / 2).map(move |qx| (qx, qy)))
        .flat_map(|(qx, qy)| (0..4).map(move |p| (2 * qx + (p & 1), 2 * qy + (p >> 1))))
        .map(|(x, y)| {
            let i = (x as f32 + half) / span;
            let j = (y as f32 + half) / span;
            let (i, j) = if opts.swap_ij_in_reference {
                (j, i)
            } else {
                (i, j)
            };
            Pixel { x, y, i, j }
        })
        .collect();
    let iprog = interp::Program::new(&capture.code, capture.target());
    let changed;
    let imem = if opts.flip_texel_rows_in_reference || opts.perturb_data_words_in_reference {
        let mut m2 = if opts.flip_texel_rows_in_reference {
            super::images::flip_rows(&mem, &host_images)
        } else {
            mem.clone()
        };
        if opts.perturb_data_words_in_reference {
            for &a in &data_words {
                if let Some(v) = drawbind::GuestMemory::read_u32(&m2, a) {
                    m2.write_words(a, &[(f32::from_bits(v) + 64.0).to_bits()]);
                }
            }
        }
        changed = m2;
        &changed
    } else {
        &mem
    };
    let cfg = PsConfig {
        abi: capture.abi(),
        wave64: capture.wave_size() == WaveSize::W64,
        fp: interp::FpMode::RADV,
        limits: interp::Limits::default(),
        code_addr,
        attrs: &attrs,
        fp16_attrs: m
            .inputs
            .iter()
            .filter(|i| i.f16_half.is_some() && i.location < 64)
            .fold(0, |a, i| a | 1 << i.location),
        shading_rate: SCENE_SHADING_RATE,
    };
    let run = run_pixels(&iprog, imem, &user_data, &px, &cfg).map_err(|e| match e {
        // The scene's words made a loop longer than the oracle's bound (a
        // loop count read from a data word): no verdict either way.
        interp::InterpError::StepLimit { .. } | interp::InterpError::RunStepLimit { .. } => {
            CliError::NotRun(format!(
                "{}: {STEP_BOUND} ({e}): a loop bounded by a scene word",
                capture.name
            ))
        }
        e => named(&e),
    })?;
    let interp_seconds = t0.elapsed().as_secs_f64();
    // Buffer stores: the translation refuses them in pixel shaders, so the
    // device wrote none the test-output buffer could show; never pass over
    // them unseen.
    let image_pcs = super::dispatch::mimg_pcs(&capture.code, capture.target());
    if let Some(st) = run.obs.stores.iter().find(|st| !image_pcs.contains(&st.pc)) {
        return not_run(format!(
            "the interpreter stored to a buffer (pc {:#x}); a pixel shader's buffer stores are not compared",
            st.pc
        ));
    }
    // A descriptor array's slots the interpreter read must be bound.
    if let Some(why) = super::images::uncovered_slot_reads(m, &user_data, imem, &run.obs) {
        return not_run(format!("images: {why}"));
    }

    // The last export of each (pixel, target).
    let mut last: std::collections::HashMap<(usize, u8), interp::Export> =
        std::collections::HashMap::new();
    for e in &run.obs.exports {
        let Some(&p) = run
            .waves
            .get(e.wave as usize)
            .and_then(|w| w.get(e.lane as usize))
        else {
            continue;
        };
        // The pixel's record: y · E + x.
        let Some(q) = px.get(p) else {
            continue;
        };
        let p = (q.y * EXTENT + q.x) as usize;
        last.insert((p, e.target), *e);
    }
    d.device_seconds = device_seconds;
    d.interp_seconds = interp_seconds;
    for p in 0..pixels {
        for o in &m.outputs {
            let target = match o.export.strip_prefix("mrt") {
                Some("z") => 8u8,
                Some(n) => n.parse::<u8>().map_err(|e| named(&e))?,
                None => return Err(named(&format!("unexpected output {}", o.export))),
            };
            let base = (p * nslots as usize + o.test_slot as usize) * 4;
            let comps = if target == 8 { 1 } else { 4 };
            let e = last.get(&(p, target));
            for c in 0..comps {
                let device = dev_word(base + c);
                let device = (device != UNWRITTEN).then_some(device);
                let reference = match e {
                    None => None,
                    Some(e) if e.en & (1 << c) == 0 => continue,
                    Some(e) if e.defined & (1 << c) == 0 => {
                        d.undefined += 1;
                        continue;
                    }
                    Some(e) if e.compr => {
                        let w = e.values[c];
                        Some(f16_to_f32(if c % 2 == 1 { w >> 16 } else { w & 0xffff }))
                    }
                    Some(e) => Some(e.values[c]),
                };
                d.words += 1;
                // The same classes as a vertex run's: words one ulp apart
                // (the f64-emulated fma's double rounding, NaN payloads)
                // are counted apart and do not fail the run.
                let verdict = match (device, reference) {
                    (Some(a), Some(b)) => super::compare::compare(a, b),
                    // A discarded pixel: neither side wrote it.
                    (None, None) => super::compare::Verdict::Exact,
                    _ => super::compare::Verdict::Mismatch,
                };
                if verdict == super::compare::Verdict::WithinUlp {
                    d.within_ulp += 1;
                } else if verdict == super::compare::Verdict::Mismatch {
                    d.mismatches += 1;
                    if d.first_mismatches.len() < LISTED {
                        d.first_mismatches.push(Mismatch {
                            vertex: p as u32,
                            instance: 0,
                            export: o.export.clone(),
                            component: c as u8,
                            device,
                            reference,
                        });
                    }
                }
            }
        }
    }
    // Storage images: the device's texels against the initial texels with
    // the interpreter's stores applied.
    for h in host_images.iter().filter(|h| h.storage) {
        let got = out
            .image(h.binding)
            .ok_or_else(|| named(&"a storage image was not read back"))?;
        let (want, undefined) = super::images::expected_texels(h, &run.obs.stores);
        let export = format!("image{}", h.binding);
        for (i, (g, w)) in got.chunks_exact(4).zip(want.chunks_exact(4)).enumerate() {
            if undefined[i] {
                d.undefined += 1;
                continue;
            }
            let g = u32::from_le_bytes([g[0], g[1], g[2], g[3]]);
            let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            d.words += 1;
            match super::compare::compare(g, w) {
                super::compare::Verdict::Exact => {}
                super::compare::Verdict::WithinUlp => d.within_ulp += 1,
                super::compare::Verdict::Mismatch => {
                    d.mismatches += 1;
                    if d.first_mismatches.len() < LISTED {
                        d.first_mismatches.push(Mismatch {
                            vertex: (i / 4) as u32,
                            instance: 0,
                            export: export.clone(),
                            component: (i % 4) as u8,
                            device: Some(g),
                            reference: Some(w),
                        });
                    }
                }
            }
        }
    }
    // Buffers bound whose bytes the interpreter never read.
    let unread = guest_buffers && run.obs.fetches.is_empty();
    Ok((
        FragmentOutcome::Ran(RunReport {
            device: harness.device_info().name.clone(),
            checked: false,
            vertices: d.vertices,
            unit: super::PIXELS,
            mismatches: d.mismatches,
            words: d.words,
            undefined: d.undefined,
            skipped_draws: 0,
            draws: vec![d],
            translate_seconds,
            pipeline_seconds,
        }),
        unread,
    ))
}
