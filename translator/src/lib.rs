//! RDNA2 vertex shaders to SPIR-V. The `shaderlift` command-line tool that
//! drives it lives in its own crate (`cli/`, package `shaderlift`).
//!
//! [`translate`] runs the pipeline: one decode and one control-flow graph
//! ([`analysis::cfg`], the tracer's) → lifting into a
//! small typed SSA IR ([`ir`], [`lift`]) → passes ([`passes`]: parameter
//! resolution, constant folding, dead-code removal) → structured control
//! flow ([`structure`]) → SPIR-V 1.3 ([`emit`]) → naga validation. The
//! result is the module and its layout [`manifest::Manifest`], the contract
//! a host needs to run it.
//!
//! # The lane contract
//!
//! One SPIR-V invocation is one guest lane. The ABI's vertex-id VGPR is
//! `VertexIndex + vertex_id_offset` and the instance-id VGPR is
//! `InstanceIndex + instance_id_offset` (push constants): the guest ids
//! exclude the base vertex and start instance (those are user-data words
//! the shader adds itself), so a host that draws with `firstVertex` = the
//! guest draw's first vertex id and `firstInstance` = 0 passes 0 for both.
//! NGG system SGPRs are fixed so that every invocation is a vertex lane of
//! a full wave (see [`manifest::Manifest::system_sgprs`]); the primitive
//! export and the `GS_ALLOC_REQ` message are dropped, since the host
//! assembles primitives.
//!
//! # Running a translation
//!
//! ```
//! use translator::manifest::{BindingKind, BindingRange, DrawParams};
//! use translator::{translate, Options};
//!
//! let capture = corpus::Capture::open("../corpus/radv/cube", &Default::default()).unwrap();
//! let opts = Options { test_outputs: true, ..Options::default() };
//! let t = translate(&capture.shader_input(), None, &opts).unwrap();
//! let m = &t.manifest;
//! // Per draw: the bind range of each descriptor binding (from drawbind),
//! // the window, and the words the shader reads through user data.
//! let vb = m
//!     .bindings
//!     .iter()
//!     .find(|b| matches!(b.kind, BindingKind::Descriptor { .. }))
//!     .unwrap()
//!     .binding;
//! let draw = DrawParams {
//!     bindings: vec![BindingRange { binding: vb, base: 0x10000, size: 3200, last_record: u32::MAX }],
//!     out_vertex_count: 36,
//!     ..DrawParams::default()
//! };
//! let user_data = [0x1000, 0, 0x2000];
//! let mut guest = |addr: u64| -> Option<u32> { Some(addr as u32) }; // the emulator's memory
//! let push = m.push_words(&user_data, &draw, &mut guest).unwrap();
//! let spill = m.param_buffer_words(&user_data, &draw, &mut guest).unwrap();
//! assert_eq!(push.len() * 4, m.push_constant_bytes as usize);
//! assert!(spill.is_empty()); // cube fits in 128 bytes
//! // Bind `t.spirv` as a vertex stage with `push` as push constants and the
//! // storage buffers `m.bindings` names (set 0), draw with firstVertex = the
//! // guest's first vertex id and firstInstance = 0, and read the test
//! // outputs back per vertex.
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod construct;
pub mod emit;
pub mod host;
pub mod ir;
pub mod lift;
pub mod manifest;
/// Slots a per-lane descriptor table slot is expanded over (manifest
/// `lane_tables`).
pub use lift::{LANE_ARRAY_ELEMENTS, LANE_TABLE_SLOTS};
pub mod passes;
pub mod structure;
pub mod wave;

pub use construct::{
    Construct, Control, CrossLane, ExecRegion, Export, Form, Image, Interp, Lds, Memory,
    OpcodeClass, StageKind,
};

use analysis::cfg::{Cfg, Program};
use analysis::trace::ShaderTrace;
use emit::{BindingSlots, Plan};
use ir::{BufferAccess, ExportTarget, Func, Input, Load, Op, Source, SrcOrConst, Unsupported};
use isa::{Abi, Stage, Target};
use manifest::{
    Binding, BindingKind, Manifest, Output, PushKind, PushWord, WordExpr, MANIFEST_VERSION,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The shader to translate (a `corpus::Capture` gives one with its
/// `shader_input` method, or `ShaderInput::from(&capture)`).
#[derive(Clone, Copy, Debug)]
pub struct ShaderInput<'a> {
    /// Machine code from the entry point.
    pub code: &'a [u8],
    /// Decoding target.
    pub target: Target,
    /// Hardware stage.
    pub stage: Stage,
    /// Entry ABI.
    pub abi: Abi,
    /// 32 or 64.
    pub wave_size: u32,
}

/// Translation options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Compile in the `--checked` guards and the feedback buffer.
    pub checked: bool,
    /// Also store every export of every vertex into a test-output buffer.
    pub test_outputs: bool,
    /// Validate the module with naga (on by default; benchmarks turn it
    /// off).
    pub validate: bool,
    /// Precise mode: `v_rcp_f32`, `v_rsq_f32`, `v_sqrt_f32`, `v_exp_f32`,
    /// `v_log_f32`, `v_sin_f32` and `v_cos_f32` become f64 sequences that
    /// give the correctly rounded result on every conforming driver (the
    /// interpreter's `interp::precise`; the device needs `shaderFloat64`).
    /// Off by default: the fast mode uses the host's f32 built-ins, whose
    /// error the README bounds.
    pub precise: bool,
    /// Trust the host to keep every per-lane descriptor table index below
    /// [`LANE_TABLE_SLOTS`] when the shader does not prove it (an image
    /// read from a table at a per-lane slot is expanded over that many
    /// slots; a lane past them would read 0, not the guest's descriptor).
    /// Off by default: such an instruction is refused
    /// (`construct::Image::UnprovedTableSlot`).
    pub trust_lane_table_slots: bool,
    /// Pixel shaders: where the guest's coarse shading rate (the VRS rate
    /// bits of the `ancillary` entry VGPR, `gl_ShadingRateEXT`) comes from.
    pub shading_rate: ShadingRateSource,
    /// Read a sample or gather whose descriptor sits at an unproved
    /// per-lane table slot through a host descriptor array fed from the
    /// table (manifest `ImageBinding::array`) of [`LANE_ARRAY_ELEMENTS`]
    /// descriptors: every element is sampled with a constant index (core
    /// Vulkan, no descriptor-indexing feature) and each lane keeps its own
    /// slot's result; a lane whose slot is past the elements (or the slots
    /// the host says it bound) reads 0, as the manifest notes. On by
    /// default; off, such an instruction is refused
    /// (`construct::Image::UnprovedTableSlot`) unless
    /// `trust_lane_table_slots` (which takes precedence) expands it.
    pub lane_table_arrays: bool,
    /// Deliberately wrong lowerings, for the negative controls only (all
    /// off by default).
    #[doc(hidden)]
    pub faults: Faults,
}

/// Deliberately wrong lowerings: each breaks one rule the differential
/// tests must catch (negative controls; never set outside tests).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Typed buffer formats: read the components in name order (W of
    /// `2_10_10_10` in the low bits).
    pub format_name_order: bool,
    /// Typed buffer formats: zero-extend signed components.
    pub format_no_sign_extension: bool,
    /// `v_fma_mixlo/hi_f16`: round the f16 result toward zero.
    pub mix_round_toward_zero: bool,
    /// VOP3 `omod`: ignore it.
    pub omod_ignored: bool,
    /// 64-bit VALU shifts: drop the bits that cross the word boundary.
    pub shift64_no_carry: bool,
    /// Image results: pack the dmask components into the data VGPRs in
    /// reverse order (the last enabled component in the first VGPR).
    pub image_dmask_reversed: bool,
    /// d16 image stores: read the first component of each VGPR from its
    /// high half (the halves swapped).
    pub image_d16_halves_swapped: bool,
    /// f16 and f64 compares: treat a NaN operand as ordered (the `n*`/`u`
    /// conditions lose their unordered case).
    pub float_compare_nan_ordered: bool,
    /// f16 fmas: round the f32 sum to f16 without its error term (double
    /// rounding).
    pub f16_fma_double_rounding: bool,
    /// SDWA `UNUSED_PRESERVE`/`UNUSED_SEXT` destinations: zero the other
    /// bits as `UNUSED_PAD` does.
    pub sdwa_preserve_zero_fill: bool,
    /// Packed (VOP3P) math: ignore `op_sel_hi` (the high result half reads
    /// the low source halves).
    pub packed_op_sel_hi_ignored: bool,
    /// `v_dot4_u32_u8`: sign-extend the bytes.
    pub dot4_bytes_signed: bool,
    /// `s_cbranch_vccz/vccnz` outside a compute shader: take any VCC bit
    /// as this lane's branch condition, even one that differs between
    /// active lanes (the wave branches on whether any lane's bit is set).
    pub vcc_branch_any_mask: bool,
    /// SMEM loads whose data tuple runs from SGPRs into VCC
    /// (`isa::decode_hardware`): write the SGPRs only, not vcc_lo/vcc_hi
    /// (as if the tuple stopped at s105).
    pub smem_tuple_skips_vcc: bool,
    /// Scalar loads through a table at a per-draw index
    /// (`Source::IndexedTableWord`): resolve the word one slot further
    /// (`index + 1`), so the host binds the neighbouring descriptor.
    pub indexed_table_off_by_one: bool,
    /// Image `tfe`: write 1 (not resident) into the status dword instead
    /// of 0.
    pub image_status_nonresident: bool,
    /// Images at a per-lane table slot (manifest `lane_tables`): the
    /// operation for slot j reads the descriptor of slot j + 1.
    pub lane_table_off_by_one: bool,
    /// `v_cubeid_f32`: give each axis's other face (positive and negative
    /// swapped).
    pub cube_face_swapped: bool,
    /// Waterfall loops (`lift/waterfall.rs`): the lane never matches the
    /// loop's value, so it runs the body with its EXEC bit off (as if it
    /// took the head's `execz` edge).
    pub waterfall_never_matches: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            checked: false,
            test_outputs: false,
            validate: true,
            precise: false,
            trust_lane_table_slots: false,
            shading_rate: ShadingRateSource::default(),
            lane_table_arrays: true,
            faults: Faults::default(),
        }
    }
}

/// Where a pixel shader's coarse shading rate comes from: the bits 5:2 of
/// the `ancillary` entry VGPR (gfx10.3: bits 3:2 the VRS rate X, log2 of
/// the pixels one fragment covers horizontally; bits 5:4 the rate Y,
/// vertically), what `gl_ShadingRateEXT` is computed from. The guest's
/// rate is draw state the host knows (the pipeline's or the command
/// buffer's rate), so the translation takes it from the host.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShadingRateSource {
    /// A push word ([`manifest::PushKind::ShadingRate`]) the host sets per
    /// draw from the guest draw's rate. Exact when the guest's rate is one
    /// for the whole draw (no per-primitive rate and no rate image, or
    /// combiners that keep the draw's rate).
    #[default]
    PushWord,
    /// The host states the guest draw shades every pixel (VRS off): the
    /// rate is 1x1 (bits 5:2 are 0), no push word.
    Off,
}

/// A translated shader.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The SPIR-V module (version 1.3).
    pub spirv: Vec<u32>,
    /// Its layout manifest.
    pub manifest: Manifest,
}

/// Every construct that kept a shader from translating, sorted by pc. Each
/// names what it is with a [`Construct`]; its `Display` lists them as
/// `pc: instruction: reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedList(pub Vec<Unsupported>);

impl UnsupportedList {
    /// The classes of the constructs ([`Construct::code`]), sorted and
    /// without repeats: what a summary shows in short
    /// (`cross-lane,lds,...`).
    pub fn codes(&self) -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = self.0.iter().map(|u| u.construct.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        codes
    }
}

impl fmt::Display for UnsupportedList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} unsupported construct(s):", self.0.len())?;
        for u in &self.0 {
            writeln!(f, "  pc {:#06x}: {}: {}", u.pc, u.inst, u.construct)?;
        }
        Ok(())
    }
}

/// Why a translation failed.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    /// Constructs the translator cannot express exactly (all of them).
    #[error("{0}")]
    Unsupported(UnsupportedList),
    /// An internal emission error.
    #[error(transparent)]
    Emit(#[from] emit::EmitError),
    /// naga rejected the module (a translator bug).
    #[error("naga rejected the translated module: {0}")]
    Naga(String),
    /// More push-constant words than the 256 bytes hosts offer.
    #[error("the translation needs {0} bytes of push constants (at most 256)")]
    TooManyParams(u32),
}

/// Decode the shader once, in its wave size, and build the one control-flow
/// graph the lifter walks ([`analysis::cfg`], the tracer's).
fn decode(input: &ShaderInput<'_>) -> (Program, Cfg) {
    // Anything but 32 lanes is wave64, as `LiftOptions::wave64` says.
    let lanes = if input.wave_size == 32 { 32 } else { 64 };
    let mode = isa::Mode::with_wave_size(input.target, lanes);
    let program = Program::decode(input.code, mode);
    let cfg = Cfg::build(&program);
    (program, cfg)
}

/// Translate a shader. `trace` names the descriptor of each buffer access
/// (one binding per traced descriptor); without it every access goes
/// through the fallback window.
pub fn translate(
    input: &ShaderInput<'_>,
    trace: Option<&ShaderTrace>,
    opts: &Options,
) -> Result<Translation, TranslateError> {
    translate_with(
        input,
        trace,
        opts,
        None,
        wave::ComputeFaults::default(),
        PsFaults::default(),
    )
}

/// Deliberately broken pixel-shader rules, for the negative controls of
/// tests only (`shaderlift run`'s fragment checks must turn red with each).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PsFaults {
    /// Drop discards: a mask operation writing EXEC in a pixel shader
    /// leaves EXEC as it was, and exports ignore the exec bit.
    pub drop_discard: bool,
    /// DPP `quad_perm` reads the horizontal neighbour of the lane it
    /// names (position `p ^ 1` for `p`).
    pub quad_lane_flipped: bool,
    /// A block argument that the selections on known branch conditions
    /// never choose on one incoming edge is dropped (0) on every edge.
    pub known_argument_every_edge: bool,
    /// `v_interp_p2_f16` interpolates the other half of the parameter
    /// words than its `high` bit names.
    pub interp16_other_half: bool,
    /// The SCC of a lane-mask operation ("does any lane's bit hold") is
    /// taken as 0 (no lane) whether or not the mask is known to be
    /// constant (`passes::known`).
    pub any_lane_assumed_none: bool,
    /// The VRS rate bits of the `ancillary` entry VGPR with the axes
    /// swapped (rate X in bits 5:4, rate Y in bits 3:2).
    pub shading_rate_axes_swapped: bool,
    /// A barycentric entry VGPR read raw takes the other weight of its
    /// pair (i reads the helper input's j and j its i).
    pub raw_barycentrics_swapped: bool,
    /// EXEC raises inside the region of an `s_cbranch_scc0/scc1` on a
    /// mask operation's SCC (a discard) are checked against the EXEC
    /// before that operation instead of the one it wrote, so a raise that
    /// turns discarded lanes back on passes.
    pub discard_branch_exec_before: bool,
}

/// [`translate`] with broken rules (tests only).
#[doc(hidden)]
pub fn translate_with_faults(
    input: &ShaderInput<'_>,
    trace: Option<&ShaderTrace>,
    opts: &Options,
    faults: PsFaults,
) -> Result<Translation, TranslateError> {
    translate_with(
        input,
        trace,
        opts,
        None,
        wave::ComputeFaults::default(),
        faults,
    )
}

/// Translate a compute shader (`input.stage` must be [`Stage::Cs`]) for the
/// entry state `entry` describes, under the compute execution model
/// ([`wave`]): a GLCompute module whose workgroup is the guest's, reading
/// and writing guest memory through one window binding. The manifest's
/// `dispatch` says how to run it. `opts.test_outputs` and `opts.checked`
/// have no effect (there are no exports, and no per-descriptor bindings to
/// guard).
pub fn translate_compute(
    input: &ShaderInput<'_>,
    entry: &wave::ComputeEntry,
    opts: &Options,
) -> Result<Translation, TranslateError> {
    compute_with(input, entry, opts, wave::ComputeFaults::default())
}

/// [`translate_compute`] with `faults` (none outside tests).
fn compute_with(
    input: &ShaderInput<'_>,
    entry: &wave::ComputeEntry,
    opts: &Options,
    faults: wave::ComputeFaults,
) -> Result<Translation, TranslateError> {
    let opts = Options {
        checked: false,
        test_outputs: false,
        ..*opts
    };
    let per_lane = translate_with(
        input,
        None,
        &opts,
        Some(*entry),
        faults,
        PsFaults::default(),
    );
    // A per-lane translation that is refused: again with the wave's own
    // exec branches (`LiftOptions::wave_branches`), exact where the
    // per-lane reading is not (loops that run until no lane is active,
    // scalar state written inside exec regions). A workgroup of one wave is
    // one host workgroup; one of several whole waves runs one wave per host
    // workgroup (`WaveModel::WavePerWorkgroup`), unless its waves share LDS
    // or barriers, where the per-lane refusal stands.
    let lanes = if input.wave_size == 32 { 32 } else { 64 };
    let model = match entry.invocations() {
        Some(n) if n <= lanes => Some(WaveModel::WaveBranches),
        Some(n) if n % lanes == 0 => Some(WaveModel::WavePerWorkgroup(n / lanes)),
        _ => None,
    };
    match (per_lane, model) {
        (Err(TranslateError::Unsupported(refused)), Some(model)) if input.stage == Stage::Cs => {
            let again = translate_model(
                input,
                None,
                &opts,
                Some(*entry),
                None,
                faults,
                PsFaults::default(),
                model,
            );
            match again {
                Err(TranslateError::Unsupported(list))
                    if list.0.iter().any(|u| {
                        u.construct == Construct::CrossLane(CrossLane::SharedAcrossWaves)
                    }) =>
                {
                    Err(TranslateError::Unsupported(refused))
                }
                r => r,
            }
        }
        (r, _) => r,
    }
}

/// How a compute shader's EXEC branches and waves map to the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WaveModel {
    /// `s_cbranch_execz/execnz` per lane; one host workgroup per guest
    /// workgroup (and every other stage).
    PerLane,
    /// The wave's own exec branches (`LiftOptions::wave_branches`) in a
    /// workgroup of one wave.
    WaveBranches,
    /// The wave's own exec branches in a workgroup of this many whole
    /// waves, each run as its own host workgroup (`wave::Dispatch::
    /// waves_per_group`): every host workgroup is one wave, so each wave
    /// branches on its own EXEC and keeps its own scalar state. Sound only
    /// when the waves share nothing but guest memory: live LDS or
    /// `s_barrier` is `CrossLane::SharedAcrossWaves`.
    WavePerWorkgroup(u32),
}

/// [`translate_compute`] with deliberately broken lowerings (negative
/// controls).
#[cfg(feature = "testing")]
pub fn translate_compute_with_faults(
    input: &ShaderInput<'_>,
    entry: &wave::ComputeEntry,
    opts: &Options,
    faults: wave::ComputeFaults,
) -> Result<Translation, TranslateError> {
    compute_with(input, entry, opts, faults)
}

fn translate_with(
    input: &ShaderInput<'_>,
    trace: Option<&ShaderTrace>,
    opts: &Options,
    compute: Option<wave::ComputeEntry>,
    faults: wave::ComputeFaults,
    ps_faults: PsFaults,
) -> Result<Translation, TranslateError> {
    translate_model(
        input,
        trace,
        opts,
        compute,
        None,
        faults,
        ps_faults,
        WaveModel::PerLane,
    )
}

/// Translate an NGG vertex shader (`input.stage` must be [`Stage::Ngg`])
/// as a compute pass ([`wave::ngg`]): a GLCompute module whose workgroup
/// is one NGG subgroup of one wave, writing the exported positions,
/// parameters, primitives and the subgroup's `GS_ALLOC_REQ` counts to one
/// output buffer (the manifest's `ngg` section gives its layout and how to
/// dispatch). Triangle-list draws: counted subgroups for non-indexed
/// draws, listed ones for indexed draws ([`wave::ngg`]).
pub fn translate_ngg(
    input: &ShaderInput<'_>,
    entry: &wave::NggEntry,
    opts: &Options,
) -> Result<Translation, TranslateError> {
    ngg_with(input, entry, opts, wave::ComputeFaults::default())
}

/// [`translate_ngg`] with deliberately broken lowerings (negative
/// controls).
#[cfg(feature = "testing")]
pub fn translate_ngg_with_faults(
    input: &ShaderInput<'_>,
    entry: &wave::NggEntry,
    opts: &Options,
    faults: wave::ComputeFaults,
) -> Result<Translation, TranslateError> {
    ngg_with(input, entry, opts, faults)
}

/// The primitive VGPR layout of an NGG shader, from its code: a shader
/// that reads `v1` before writing it (in code order) is a culling shader
/// ([`wave::PrimVgprs::Indices`], index 2 in `v1`); otherwise passthrough.
pub fn ngg_entry_of(input: &ShaderInput<'_>) -> wave::NggEntry {
    let (program, _) = decode(input);
    let touches = |s: &isa::Slot| match s.op {
        isa::Operand::Reg { code, count } => code <= 257 && code as u32 + count as u32 > 257,
        _ => false,
    };
    for l in &program.lines {
        let Ok(inst) = &l.inst else { continue };
        if inst.operands.iter().filter(|s| s.is_use()).any(touches) {
            return wave::NggEntry {
                prims: wave::PrimVgprs::Indices,
            };
        }
        if inst.operands.iter().filter(|s| s.is_def()).any(touches) {
            break;
        }
    }
    wave::NggEntry {
        prims: wave::PrimVgprs::Passthrough,
    }
}

/// Whether a refusal of the direct vertex path is one the NGG compute pass
/// may lift: it names a construct that needs the other lanes (LDS, cross-lane
/// values, exec regions).
pub fn wants_ngg_pass(input: &ShaderInput<'_>, refusal: &UnsupportedList) -> bool {
    input.stage == Stage::Ngg
        && refusal
            .codes()
            .iter()
            .any(|c| matches!(*c, "lds" | "cross-lane" | "exec-region"))
}

/// The compute entry of the NGG pass: one subgroup = one wave = one host
/// workgroup; every user SGPR is user data, no workgroup-id or local-id
/// registers.
fn ngg_pass_entry(input: &ShaderInput<'_>) -> wave::ComputeEntry {
    let lanes = if input.wave_size == 32 { 32 } else { 64 };
    wave::ComputeEntry {
        workgroup_size: [lanes, 1, 1],
        user_sgprs: 106,
        workgroup_id: [false; 3],
        local_id_vgprs: 0,
        tg_size: false,
    }
}

fn ngg_with(
    input: &ShaderInput<'_>,
    entry: &wave::NggEntry,
    opts: &Options,
    faults: wave::ComputeFaults,
) -> Result<Translation, TranslateError> {
    let opts = Options {
        checked: false,
        test_outputs: false,
        ..*opts
    };
    let compute = ngg_pass_entry(input);
    let mut problems = Vec::new();
    if input.stage != Stage::Ngg {
        problems.push(Unsupported {
            pc: 0,
            inst: "(stage)".into(),
            construct: StageKind::NggPass(input.stage).into(),
        });
        return Err(TranslateError::Unsupported(UnsupportedList(problems)));
    }
    translate_model(
        input,
        None,
        &opts,
        Some(compute),
        Some(*entry),
        faults,
        PsFaults::default(),
        WaveModel::PerLane,
    )
}

#[allow(clippy::too_many_arguments)]
fn translate_model(
    input: &ShaderInput<'_>,
    trace: Option<&ShaderTrace>,
    opts: &Options,
    compute: Option<wave::ComputeEntry>,
    ngg: Option<wave::NggEntry>,
    faults: wave::ComputeFaults,
    ps_faults: PsFaults,
    model: WaveModel,
) -> Result<Translation, TranslateError> {
    let ngg = ngg.filter(|_| input.stage == Stage::Ngg);
    let compute = compute.filter(|_| input.stage == Stage::Cs || ngg.is_some());
    let lo = lift::LiftOptions {
        target: input.target,
        stage: input.stage,
        abi: input.abi,
        wave64: input.wave_size != 32,
        checked: opts.checked,
        compute,
        ngg,
        wave_branches: model != WaveModel::PerLane,
        ps_faults,
        faults,
        alu_faults: opts.faults,
        trust_lane_table_slots: opts.trust_lane_table_slots,
        shading_rate: opts.shading_rate,
        lane_table_arrays: opts.lane_table_arrays,
    };
    let (program, cfg) = decode(input);
    let lifted = lift::lift(&program, &cfg, trace, lo);
    let mut problems = lifted.problems.clone();
    if let Some(c) = compute {
        if c.invocations().is_none() {
            problems.push(Unsupported {
                pc: 0,
                inst: "(dispatch)".into(),
                construct: StageKind::WorkgroupSize(c.workgroup_size).into(),
            });
        }
    }
    match input.stage {
        Stage::Cs if compute.is_some() => {}
        Stage::Cs => problems.insert(
            0,
            Unsupported {
                pc: 0,
                inst: "(stage)".into(),
                construct: StageKind::Compute.into(),
            },
        ),
        _ => {}
    }
    let mut f = lifted.b.func;
    passes::resolve(&mut f, &opts.faults);
    passes::fold(&mut f);
    passes::known::answer_any_lane(&mut f, ps_faults.any_lane_assumed_none);
    passes::dce(&mut f);
    if input.stage == Stage::Ps {
        // Per-lane regions: selections on conditions known there.
        if passes::known_conditions(&mut f, ps_faults.known_argument_every_edge) > 0 {
            passes::fold(&mut f);
            passes::dce(&mut f);
        }
        lift::hoist_quads(&mut f);
    }
    // Loops with several exits or back edges become single-latch loops;
    // dead-code removal again for what the rewrite added.
    let loop_faults = structure::LoopFaults {
        exit_selector_reversed: faults.loop_exit_selector_reversed,
    };
    let latches = structure::normalize_loops(&mut f, loop_faults);
    passes::dce(&mut f);
    let derived = if trace.is_none() && compute.is_none() {
        assign_bindings(&mut f)
    } else {
        Vec::new()
    };
    let tree = latches.and_then(|latches| {
        let t = structure::structure_with(&f, &latches)?;
        structure::per_lane_exits(&f, &t, &lifted.divergent)?;
        Ok(t)
    });
    let mut merges = Vec::new();
    if let Ok(t) = &tree {
        collect_divergent_merges(t, &lifted.divergent, &mut merges);
        let raises = Raises {
            divergent: &lifted.divergent,
            branch_exec: &lifted.branch_exec,
            raises: &lifted.raises_exec,
            accept_unproven: faults.unproven_exec_raises,
        };
        raised_in_regions(&f, t, &raises, &mut problems);
        lift::implicit_lod_in_regions(&f, t, &lifted.divergent, &lifted.image_texts, &mut problems);
    }
    problems.extend(passes::check(&f, &merges, &lifted.scalar_params));
    if let (Some(c), Ok(t)) = (compute, &tree) {
        let lanes = if input.wave_size == 32 { 32 } else { 64 };
        // One wave per host workgroup: the host's workgroup is one wave.
        let single_wave = c.invocations().is_some_and(|n| n <= lanes)
            || matches!(model, WaveModel::WavePerWorkgroup(_));
        problems.extend(wave::uniform::check(&f, t, single_wave));
    }
    if let WaveModel::WavePerWorkgroup(_) = model {
        problems.extend(wave::shared_across_waves(&f));
    }
    if let (Stage::Ps, Ok(t)) = (input.stage, &tree) {
        // Quad operations need every invocation of the quad active.
        problems.extend(wave::uniform::check(&f, t, false));
    }
    let tree = match tree {
        Ok(t) => t,
        Err(e) => {
            let pc = match e {
                structure::StructureError::Loop { pc, .. }
                | structure::StructureError::Unstructured { pc }
                | structure::StructureError::Unterminated { pc }
                | structure::StructureError::NoExit { pc }
                | structure::StructureError::Irreducible { pc, .. }
                | structure::StructureError::PerLaneExit { pc, .. } => pc,
            };
            problems.push(Unsupported {
                pc,
                inst: "(control flow)".into(),
                construct: Control::Structure(e).into(),
            });
            Vec::new()
        }
    };
    let images = match lift::host_images(&f, &lifted.image_texts) {
        Ok(images) => images,
        Err(p) => {
            problems.extend(p);
            Vec::new()
        }
    };
    if !problems.is_empty() {
        problems.sort_by_key(|p| p.pc);
        problems.dedup();
        return Err(TranslateError::Unsupported(UnsupportedList(problems)));
    }
    let (mut plan, mut manifest) = layout(
        &f,
        trace,
        &derived,
        &images,
        input,
        opts,
        &lifted.system_sgprs,
        &lifted.dropped,
        compute,
        ngg,
    )?;
    // Expanded image instructions that survived dead-code removal.
    manifest.lane_tables = lifted
        .lane_tables
        .iter()
        .filter(|t| {
            images
                .iter()
                .any(|h| h.ops.iter().any(|&o| f.images[o as usize].pc == t.pc))
        })
        .cloned()
        .collect();
    for b in &mut manifest.images {
        if let Some(a) = b.array.as_mut() {
            let mut loads: Vec<u32> = manifest
                .lane_tables
                .iter()
                .filter(|t| t.array && b.accesses.contains(&t.pc))
                .flat_map(|t| t.loads.iter().copied())
                .collect();
            loads.sort_unstable();
            loads.dedup();
            a.loads = loads;
        }
    }
    if manifest.lane_tables.iter().any(|t| t.array) {
        manifest.notes.push(format!("images at a per-lane table slot read through a host descriptor array (see `images[].array`) of {n} descriptors: the host binds slots 0..{n} of the table (any valid descriptor past the slots the table holds), says how many are the table's in push word `image_array_slots`, and each lane takes the slot it reads; a lane reading at an offset that is no slot of those (past {n}, past the slots bound, or between two slots) reads 0, not the guest's descriptor; the module samples every element with a constant index (no descriptor-indexing feature needed), each lane keeping its own", n = lift::LANE_ARRAY_ELEMENTS));
    }
    if manifest.lane_tables.iter().any(|t| !t.array) {
        manifest.notes.push(format!("images at a per-lane table slot (see `lane_tables`): every slot below `slots` is sampled (one image binding each) and each lane takes its own slot's result; a lane whose slot is not below `slots` reads 0, so unless `proved` the host keeps the index below it (at most {})", lift::LANE_TABLE_SLOTS));
    }
    // The compute model flushes f32 denormals itself (the host may keep
    // them in compute); the negative control leaves that to the host.
    plan.flush_denormals = plan.compute.is_some() && !faults.keep_denormals;
    if let (WaveModel::WavePerWorkgroup(waves), Some(c)) = (model, compute) {
        // One wave per host workgroup.
        let lanes = plan.compute_lanes;
        plan.compute = Some([lanes, 1, 1]);
        plan.wave_split = Some(emit::WaveSplit {
            guest_size: c.workgroup_size,
            waves,
            wave_zero: faults.wave_split_wave_zero,
        });
        manifest.dispatch = Some(wave::Dispatch::new(c, waves, lanes));
    }
    let spirv = emit::emit(&f, &tree, &plan)?;
    if opts.validate {
        validate(&spirv).map_err(TranslateError::Naga)?;
    }
    Ok(Translation { spirv, manifest })
}

/// Lift a shader and run the passes, returning the final IR (for tests and
/// debugging): what [`translate`] emits, without emitting it.
pub fn translate_ir(input: &ShaderInput<'_>, trace: Option<&ShaderTrace>, opts: &Options) -> Func {
    ir_with(input, trace, opts, None)
}

/// [`translate_ir`] of a compute shader with its entry state, as
/// [`translate_compute`] lifts it.
pub fn translate_compute_ir(
    input: &ShaderInput<'_>,
    entry: &wave::ComputeEntry,
    opts: &Options,
) -> Func {
    ir_with(
        input,
        None,
        opts,
        Some(*entry).filter(|_| input.stage == Stage::Cs),
    )
}

fn ir_with(
    input: &ShaderInput<'_>,
    trace: Option<&ShaderTrace>,
    opts: &Options,
    compute: Option<wave::ComputeEntry>,
) -> Func {
    let lo = lift::LiftOptions {
        target: input.target,
        stage: input.stage,
        abi: input.abi,
        wave64: input.wave_size != 32,
        checked: opts.checked,
        compute,
        ngg: None,
        wave_branches: false,
        faults: wave::ComputeFaults::default(),
        ps_faults: PsFaults::default(),
        alu_faults: opts.faults,
        trust_lane_table_slots: opts.trust_lane_table_slots,
        shading_rate: opts.shading_rate,
        lane_table_arrays: opts.lane_table_arrays,
    };
    let (program, cfg) = decode(input);
    let mut f = lift::lift(&program, &cfg, trace, lo).b.func;
    passes::resolve(&mut f, &opts.faults);
    passes::fold(&mut f);
    passes::known::answer_any_lane(&mut f, false);
    passes::dce(&mut f);
    if input.stage == Stage::Ps {
        // Per-lane regions: selections on conditions known there.
        if passes::known_conditions(&mut f, false) > 0 {
            passes::fold(&mut f);
            passes::dce(&mut f);
        }
        lift::hoist_quads(&mut f);
    }
    // The loop rewrite as `translate` does it (a loop it refuses stays as
    // it is, with the loops rewritten before it).
    let _ = structure::normalize_loops(&mut f, structure::LoopFaults::default());
    passes::dce(&mut f);
    f
}

/// [`translate_ir`] for the NGG compute pass ([`translate_ngg`]).
#[doc(hidden)]
pub fn translate_ngg_ir(input: &ShaderInput<'_>, entry: &wave::NggEntry) -> Func {
    let lo = lift::LiftOptions {
        target: input.target,
        stage: input.stage,
        abi: input.abi,
        wave64: input.wave_size != 32,
        checked: false,
        compute: Some(ngg_pass_entry(input)),
        ngg: Some(*entry),
        wave_branches: false,
        faults: wave::ComputeFaults::default(),
        ps_faults: PsFaults::default(),
        alu_faults: Faults::default(),
        trust_lane_table_slots: false,
        shading_rate: ShadingRateSource::Off,
        lane_table_arrays: false,
    };
    let (program, cfg) = decode(input);
    let mut f = lift::lift(&program, &cfg, None, lo).b.func;
    passes::resolve(&mut f, &Faults::default());
    passes::fold(&mut f);
    passes::dce(&mut f);
    f
}

/// Whether the translator lifts `op` in a wave of the given size: the same
/// classification ([`lift::support`]) the lifter checks before dispatching
/// an instruction. A lifted opcode may still be refused in some forms
/// (DPP, clamp, an operand it cannot see), which `translate` reports.
pub fn lifts(op: isa::Opcode, wave64: bool) -> bool {
    lift::support(op, wave64) == lift::Support::Lifted
}

/// The register-source trace of a shader (`analysis::trace`): one binding
/// per traced descriptor, numbered as drawbind's ranges are.
///
/// Without a trace, [`translate`] identifies descriptors itself by the
/// sources of their resolved words (the tracer's identity rule), and
/// `--checked` guards still work; with it, binding `i` of the manifest
/// names the trace's descriptor id, so drawbind's `BindRange`s map
/// directly (`Manifest::binding_of_descriptor`).
pub fn trace_for(input: &ShaderInput<'_>) -> Option<ShaderTrace> {
    let config = analysis::trace::TraceConfig::new(input.stage, input.abi, input.wave_size == 32);
    Some(analysis::trace::trace_code(
        input.code,
        input.target,
        &config,
    ))
}

/// Without a trace: one binding per distinct descriptor whose four words
/// are resolved parameters or constants, in order of first access.
fn assign_bindings(f: &mut Func) -> Vec<[SrcOrConst; 4]> {
    let mut keys: Vec<[SrcOrConst; 4]> = Vec::new();
    for i in 0..f.loads.len() {
        let Load::Buffer(mut a) = f.loads[i] else {
            continue;
        };
        if a.binding.is_some() {
            continue;
        }
        let mut key = [SrcOrConst::Const(0); 4];
        let mut ok = true;
        for (k, v) in a.desc.iter().enumerate() {
            match f.inst(*v).op {
                Op::Const(c) => key[k] = SrcOrConst::Const(c),
                Op::Input(Input::Param(s)) => key[k] = SrcOrConst::Src(s),
                _ => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let id = match keys.iter().position(|x| *x == key) {
            Some(p) => p,
            None => {
                keys.push(key);
                keys.len() - 1
            }
        };
        a.binding = Some(id as u16);
        f.loads[i] = Load::Buffer(a);
    }
    // --checked guards of those accesses.
    for e in 0..f.effects.len() {
        if let ir::Effect::Check { pc, binding, .. } = &mut f.effects[e] {
            if *binding == u16::MAX {
                let b = f.loads.iter().find_map(|l| match l {
                    Load::Buffer(a) if a.pc == *pc => a.binding,
                    _ => None,
                });
                if let Some(b) = b {
                    *binding = b;
                }
            }
        }
    }
    keys
}

/// What [`raised_in_regions`] checks: the per-lane branches, EXEC at
/// each, and the EXEC raises by block.
struct Raises<'a> {
    divergent: &'a std::collections::HashMap<ir::Block, u32>,
    branch_exec: &'a std::collections::HashMap<ir::Block, ir::Value>,
    raises: &'a std::collections::HashMap<ir::Block, Vec<(u32, Option<ir::Value>)>>,
    /// Negative control: accept every raise, proven or not.
    accept_unproven: bool,
}

/// An instruction that may turn lanes on inside a region a per-lane exec
/// branch skips: lanes the lowering skips could have run it, unless the
/// new EXEC provably has only lanes EXEC had at the branch
/// ([`lift::exec_bit_implies`]): those lanes are inside the region in the
/// translation too.
fn raised_in_regions(
    f: &Func,
    nodes: &[structure::Node],
    r: &Raises<'_>,
    out: &mut Vec<Unsupported>,
) {
    for n in nodes {
        if let structure::Node::Loop { body, .. } = n {
            raised_in_regions(f, body, r, out);
        }
        if let structure::Node::If {
            from, then, els, ..
        } = n
        {
            if let Some(&bpc) = r.divergent.get(from) {
                let at_branch = r.branch_exec.get(from).copied();
                let mut inner = Vec::new();
                structure::collect_blocks(then, &mut inner);
                structure::collect_blocks(els, &mut inner);
                for b in inner {
                    for &(pc, new) in r.raises.get(&b).into_iter().flatten() {
                        let proven = match (new, at_branch) {
                            (Some(x), Some(e)) => lift::exec_bit_implies(f, x, e),
                            _ => false,
                        };
                        if proven || r.accept_unproven {
                            continue;
                        }
                        out.push(Unsupported {
                            pc,
                            inst: format!(
                                "(EXEC write in block at pc {:#x})",
                                f.blocks[b.0 as usize].pc
                            ),
                            construct: ExecRegion::RaisesExec { branch: bpc }.into(),
                        });
                    }
                }
            }
            raised_in_regions(f, then, r, out);
            raised_in_regions(f, els, r, out);
        }
    }
}

fn collect_divergent_merges(
    nodes: &[structure::Node],
    div: &std::collections::HashMap<ir::Block, u32>,
    out: &mut Vec<(ir::Block, u32)>,
) {
    for n in nodes {
        if let structure::Node::Loop { body, .. } = n {
            collect_divergent_merges(body, div, out);
        }
        if let structure::Node::If {
            from,
            then,
            els,
            merge,
            ..
        } = n
        {
            if let (Some(pc), Some(m)) = (div.get(from), merge) {
                out.push((*m, *pc));
            }
            collect_divergent_merges(then, div, out);
            collect_divergent_merges(els, div, out);
        }
    }
}

/// Validate a module with naga's SPIR-V front end and validator; returns
/// the module and its info.
pub fn validate(spirv: &[u32]) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
    let bytes: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    let o = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: true,
        block_ctx_dump_prefix: None,
    };
    let mut module = naga::front::spv::parse_u8_slice(&bytes, &o).map_err(|e| format!("{e:?}"))?;
    // A combined image sampler is an image and a sampler variable on one
    // binding (Vulkan allows that pair on a combined-image-sampler
    // descriptor; naga's validator counts it as a collision): validate each
    // such sampler in a group of its own, every other binding as it is.
    let images: Vec<naga::ResourceBinding> = module
        .global_variables
        .iter()
        .filter(|(_, g)| image_or_array(&module, g.ty, true))
        .filter_map(|(_, g)| g.binding)
        .collect();
    let samplers: Vec<_> = module
        .global_variables
        .iter()
        .filter(|(_, g)| image_or_array(&module, g.ty, false))
        .filter(|(_, g)| g.binding.is_some_and(|b| images.contains(&b)))
        .map(|(h, _)| h)
        .collect();
    for &h in &samplers {
        if let Some(b) = module.global_variables.get_mut(h).binding.as_mut() {
            b.group |= 0x8000_0000;
        }
    }
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        // SUBGROUP: pixel shaders' DPP quad permutations are subgroup
        // shuffles (fragment stage).
        naga::valid::Capabilities::IMMEDIATES
            | naga::valid::Capabilities::FLOAT64
            | naga::valid::Capabilities::SUBGROUP
            // Descriptor arrays fed from a guest table, each element read
            // with a constant index.
            | naga::valid::Capabilities::TEXTURE_AND_SAMPLER_BINDING_ARRAY,
    )
    .validate(&module)
    .map_err(|e| format!("{:?}", e.into_inner()))?;
    for &h in &samplers {
        if let Some(b) = module.global_variables.get_mut(h).binding.as_mut() {
            b.group &= !0x8000_0000;
        }
    }
    Ok((module, info))
}

/// Is `ty` an image (`image`) or a sampler, or a binding array of one?
fn image_or_array(m: &naga::Module, ty: naga::Handle<naga::Type>, image: bool) -> bool {
    let inner = match m.types[ty].inner {
        naga::TypeInner::BindingArray { base, .. } => &m.types[base].inner,
        ref t => t,
    };
    if image {
        matches!(inner, naga::TypeInner::Image { .. })
    } else {
        matches!(inner, naga::TypeInner::Sampler { .. })
    }
}

/// naga's WGSL of a module (for reading).
pub fn to_wgsl(spirv: &[u32]) -> Result<String, String> {
    let (m, i) = validate(spirv)?;
    naga::back::wgsl::write_string(&m, &i, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| format!("{e:?}"))
}

/// A source as a host-evaluable expression.
fn word_expr(f: &Func, s: SrcOrConst) -> WordExpr {
    match s {
        SrcOrConst::Const(value) => WordExpr::Const { value },
        SrcOrConst::Src(i) => source_expr(f, i),
    }
}

fn source_expr(f: &Func, i: u16) -> WordExpr {
    match f.sources[i as usize] {
        Source::UserData(k) => WordExpr::UserData { k },
        Source::TableWord { lo, hi, offset } => WordExpr::TableWord {
            lo: Box::new(word_expr(f, lo)),
            hi: Box::new(word_expr(f, hi)),
            offset,
        },
        Source::IndexedTableWord {
            lo,
            hi,
            index,
            scale,
            offset,
        } => WordExpr::IndexedTableWord {
            lo: Box::new(word_expr(f, lo)),
            hi: Box::new(word_expr(f, hi)),
            index: Box::new(word_expr(f, index)),
            scale,
            offset,
        },
        Source::BufferWord { desc, offset } => WordExpr::BufferWord {
            desc: Box::new(desc.map(|d| word_expr(f, d))),
            offset,
        },
    }
}

/// A table pointer's name: its low half's when the high half is RADV's
/// constant `0xffff8000`, else both halves'.
fn pointer_name(f: &Func, lo: SrcOrConst, hi: SrcOrConst) -> String {
    if hi == SrcOrConst::Const(0xffff_8000) {
        source_name(f, lo)
    } else {
        format!("ptr({}, {})", source_name(f, lo), source_name(f, hi))
    }
}

/// A source's name, in the tracer's style (`ud1`, `table(ud0)+0x10`).
fn source_name(f: &Func, s: SrcOrConst) -> String {
    match s {
        SrcOrConst::Const(c) => format!("{c:#x}"),
        SrcOrConst::Src(i) => match f.sources[i as usize] {
            Source::UserData(k) => format!("ud{k}"),
            Source::TableWord { lo, hi, offset } => {
                format!("table({})+{offset:#x}", pointer_name(f, lo, hi))
            }
            Source::IndexedTableWord {
                lo,
                hi,
                index,
                scale,
                offset,
            } => format!(
                "table({}+{}*{scale:#x})+{offset:#x}",
                pointer_name(f, lo, hi),
                source_name(f, index)
            ),
            Source::BufferWord { desc, offset } => {
                // Four consecutive words of one table read as one name.
                let d = match (desc[0], desc[1], desc[2], desc[3]) {
                    (
                        SrcOrConst::Src(a),
                        SrcOrConst::Src(_),
                        SrcOrConst::Src(_),
                        SrcOrConst::Src(_),
                    ) if consecutive(f, &desc) => source_name(f, SrcOrConst::Src(a)),
                    _ => desc
                        .iter()
                        .map(|x| source_name(f, *x))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                format!("buf({d})+{offset:#x}")
            }
        },
    }
}

/// The name of a descriptor's words: the first word's name when they are
/// consecutive dwords of one table (`table(ud0)+0x20`), else every word's
/// name in brackets.
fn words_name(f: &Func, d: &[SrcOrConst]) -> String {
    // (pointer halves, per-draw index and scale, offset) of a table word.
    let table = |x: SrcOrConst| match x {
        SrcOrConst::Src(i) => match f.sources[i as usize] {
            Source::TableWord { lo, hi, offset } => Some(((lo, hi, None), offset)),
            Source::IndexedTableWord {
                lo,
                hi,
                index,
                scale,
                offset,
            } => Some(((lo, hi, Some((index, scale))), offset)),
            _ => None,
        },
        SrcOrConst::Const(_) => None,
    };
    let one_table = table(d[0]).is_some_and(|(t0, o0)| {
        d.iter().enumerate().all(|(k, x)| {
            table(*x).is_some_and(|(t, o)| t == t0 && o0.wrapping_add(4 * k as u32) == o)
        })
    });
    if one_table {
        return source_name(f, d[0]);
    }
    format!(
        "[{}]",
        d.iter()
            .map(|x| source_name(f, *x))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn consecutive(f: &Func, d: &[SrcOrConst; 4]) -> bool {
    let mut first = None;
    for (k, x) in d.iter().enumerate() {
        let SrcOrConst::Src(i) = x else { return false };
        let Source::TableWord { lo, hi, offset } = f.sources[*i as usize] else {
            return false;
        };
        match first {
            None => first = Some((lo, hi, offset)),
            Some((l, h, o)) => {
                if l != lo || h != hi || o.wrapping_add(4 * k as u32) != offset {
                    return false;
                }
            }
        }
    }
    true
}

/// Input locations a fragment module may use: the guest's 32 attributes
/// (`attr0`..`attr31`), which every Vulkan device's 128 fragment input
/// components cover.
const FRAGMENT_LOCATIONS: u32 = 32;

/// The helper input of each raw barycentric pair (`raw`: the pair and the
/// weights read, bit 0 i and bit 1 j): `(location, pair, channels)`, at
/// the locations after the highest attribute the shader interpolates, in
/// the pairs' order. Refused (`construct::Interp::Barycentric`) when they
/// do not fit below [`FRAGMENT_LOCATIONS`].
fn barycentric_helpers(
    attrs: &BTreeMap<u8, (ir::InterpMode, u8, Option<bool>)>,
    raw: &BTreeMap<isa::Bary, u8>,
) -> Result<Vec<(u8, isa::Bary, u8)>, TranslateError> {
    let first = attrs.keys().next_back().map_or(0, |&a| u32::from(a) + 1);
    let mut out = Vec::new();
    for (k, (&pair, &channels)) in raw.iter().enumerate() {
        let loc = first + k as u32;
        if loc >= FRAGMENT_LOCATIONS {
            return Err(TranslateError::Unsupported(UnsupportedList(vec![
                Unsupported {
                    pc: 0,
                    inst: format!("(entry {pair:?})"),
                    construct: Interp::Barycentric.into(),
                },
            ])));
        }
        out.push((loc as u8, pair, channels));
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn layout(
    f: &Func,
    trace: Option<&ShaderTrace>,
    derived: &[[SrcOrConst; 4]],
    images: &[lift::HostImage],
    input: &ShaderInput<'_>,
    opts: &Options,
    system_sgprs: &[manifest::SystemSgpr],
    dropped: &[manifest::Dropped],
    compute: Option<wave::ComputeEntry>,
    ngg: Option<wave::NggEntry>,
) -> Result<(Plan, Manifest), TranslateError> {
    let mut plan = Plan {
        compute: compute.map(|c| c.workgroup_size),
        compute_lanes: if input.wave_size == 32 { 32 } else { 64 },
        precise: opts.precise,
        ..Plan::default()
    };
    let mut push = Vec::new();
    let member = |kind: PushKind, push: &mut Vec<PushWord>| {
        let m = push.len() as u32;
        push.push(PushWord {
            offset: 4 * m,
            kind,
        });
        m
    };
    // What is live.
    let mut uses_vid = false;
    let mut uses_iid = false;
    let mut uses_code = false;
    let mut uses_count = false;
    let mut uses_ngg_ids = false;
    let mut params = BTreeSet::new();
    let mut bindings = BTreeSet::new();
    let mut any_load = false;
    let mut outputs = BTreeSet::new();
    let fragment = input.stage == Stage::Ps;
    let mut frag_inputs: BTreeMap<u8, (ir::InterpMode, u8, Option<bool>)> = BTreeMap::new();
    let mut frag_coord = fragment && opts.test_outputs;
    let mut uses_rate = false;
    // Raw barycentric pairs: the weights read (bit 0 i, bit 1 j).
    let mut raw_bary: BTreeMap<isa::Bary, u8> = BTreeMap::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if !f.is_live(ir::Value(i as u32)) {
            continue;
        }
        match inst.op {
            Op::Input(Input::VertexId) => uses_vid = true,
            Op::Input(Input::InstanceId) => uses_iid = true,
            Op::Input(Input::CodeAddr(_)) => uses_code = true,
            Op::Input(Input::DrawFirstVertex) => uses_vid = true,
            Op::Input(Input::NggIndexed) => uses_ngg_ids = true,
            Op::Input(Input::DrawVertexCount) => uses_count = true,
            Op::Input(Input::Param(s)) => {
                params.insert(s);
            }
            Op::Input(Input::Interp {
                attr,
                chan,
                mode,
                f16,
            }) => {
                frag_inputs.entry(attr).or_insert((mode, 0, f16)).1 |= 1 << chan;
            }
            Op::Input(Input::FragCoord(_)) => frag_coord = true,
            Op::Input(Input::ShadingRate) => uses_rate = true,
            Op::Input(Input::Barycentric { pair, which }) => {
                *raw_bary.entry(pair).or_insert(0) |= 1 << which;
            }
            Op::Load(l) if matches!(f.loads[l as usize], Load::NggList { .. }) => {
                uses_ngg_ids = true
            }
            Op::Load(l) => {
                // Images read through their own bindings; quad operations
                // find their quad position from the pixel's.
                any_load |= !matches!(
                    f.loads[l as usize],
                    Load::Image { .. } | Load::Lanes(_, ir::LaneOp::Quad { .. })
                );
                frag_coord |=
                    matches!(f.loads[l as usize], Load::Lanes(_, ir::LaneOp::Quad { .. }));
                match f.loads[l as usize] {
                    Load::Buffer(BufferAccess {
                        binding: Some(b), ..
                    })
                    | Load::ScalarBuf {
                        binding: Some(b), ..
                    } => {
                        bindings.insert(b);
                    }
                    _ => {}
                }
            }
            Op::Effect(e) => match f.effects[e as usize] {
                ir::Effect::Export { target, .. } => {
                    if target != ExportTarget::Null {
                        outputs.insert(target);
                    }
                }
                ir::Effect::Check { binding, .. } if binding != u16::MAX => {
                    bindings.insert(binding);
                }
                ir::Effect::Check { .. } => {}
                ir::Effect::Store { .. }
                | ir::Effect::GlobalStore { .. }
                | ir::Effect::SubDwordStore { .. } => any_load = true,
                ir::Effect::Atomic { target, .. } => {
                    if !matches!(target, ir::AtomicTarget::Lds(_)) {
                        any_load = true;
                    }
                }
                ir::Effect::ImageStore { .. } => {}
                ir::Effect::LdsWrite { .. }
                | ir::Effect::LdsWriteByte { .. }
                | ir::Effect::Barrier { .. } => {}
                ir::Effect::Problem { .. } => {}
            },
            _ => {}
        }
    }
    if opts.test_outputs && !fragment {
        uses_vid = true;
        uses_iid = true;
    }
    plan.fragment = fragment;
    plan.frag_coord = frag_coord;
    plan.inputs = frag_inputs.iter().map(|(a, (m, _, _))| (*a, *m)).collect();
    // Each raw pair's helper input, at the locations after the attributes
    // (`barycentric_helpers` refused the shader when they do not fit).
    let helpers = barycentric_helpers(&frag_inputs, &raw_bary)?;
    for &(loc, pair, _) in &helpers {
        plan.inputs.push((loc, ir::InterpMode::Bary(pair)));
        plan.barycentrics.insert(pair, loc);
    }
    if uses_vid {
        plan.vertex_id_offset = Some(member(PushKind::VertexIdOffset, &mut push));
    }
    if uses_iid {
        plan.instance_id_offset = Some(member(PushKind::InstanceIdOffset, &mut push));
    }
    if uses_count {
        plan.ngg_count = Some(member(PushKind::OutVertexCount, &mut push));
    }
    if uses_ngg_ids {
        plan.ngg_indexed = Some(member(PushKind::NggIndexed, &mut push));
    }
    if uses_rate {
        plan.shading_rate = Some(member(PushKind::ShadingRate, &mut push));
    }
    if uses_code {
        plan.code_addr = Some((
            member(PushKind::CodeAddrLo, &mut push),
            member(PushKind::CodeAddrHi, &mut push),
        ));
    }
    // Descriptor-array images: the slots bound (the binding is numbered
    // below, once the buffers are; `binding` is the image's index until
    // then).
    let array_members: Vec<Option<u32>> = images
        .iter()
        .enumerate()
        .map(|(k, h)| {
            h.array
                .map(|_| member(PushKind::ImageArraySlots { binding: k as u32 }, &mut push))
        })
        .collect();
    for &s in &params {
        let m = member(
            PushKind::Word {
                source: source_name(f, SrcOrConst::Src(s)),
                expr: source_expr(f, s),
            },
            &mut push,
        );
        plan.source_member.insert(s, m);
    }
    let mut next_binding = 0u32;
    #[allow(unused_assignments)]
    let mut mbindings = Vec::new();
    for &b in &bindings {
        let binding = next_binding;
        next_binding += 1;
        let slots = BindingSlots {
            binding,
            base_lo: member(PushKind::BindingBaseLo { binding }, &mut push),
            base_hi: member(PushKind::BindingBaseHi { binding }, &mut push),
            size: member(PushKind::BindingSize { binding }, &mut push),
            last: opts
                .checked
                .then(|| member(PushKind::BindingLastRecord { binding }, &mut push)),
        };
        plan.bindings.insert(b, slots);
        let (source, accesses) = match trace.and_then(|t| {
            t.descriptors
                .iter()
                .find(|d| d.id.0 == b)
                .map(|d| (t.descriptor_source(d), d.accesses.clone()))
        }) {
            Some(x) => x,
            None => {
                let name = match derived.get(b as usize) {
                    Some(d) if consecutive(f, d) => source_name(f, d[0]),
                    Some(d) => format!(
                        "[{}]",
                        d.iter()
                            .map(|x| source_name(f, *x))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => format!("descriptor {b}"),
                };
                let mut pcs: Vec<u32> = f
                    .loads
                    .iter()
                    .filter_map(|l| match l {
                        Load::Buffer(a) if a.binding == Some(b) => Some(a.pc),
                        _ => None,
                    })
                    .collect();
                pcs.dedup();
                (name, pcs)
            }
        };
        mbindings.push(Binding {
            binding,
            kind: BindingKind::Descriptor {
                descriptor: b,
                source,
                accesses,
            },
            writable: false,
        });
    }
    if any_load {
        let binding = next_binding;
        next_binding += 1;
        let lo = member(PushKind::WindowBaseLo, &mut push);
        let hi = member(PushKind::WindowBaseHi, &mut push);
        let sz = member(PushKind::WindowSize, &mut push);
        plan.window = Some((binding, lo, hi, sz));
        mbindings.push(Binding {
            binding,
            kind: BindingKind::Window,
            // Compute shaders store through the window.
            writable: compute.is_some(),
        });
    }
    if opts.checked {
        let binding = next_binding;
        next_binding += 1;
        plan.feedback = Some(binding);
        mbindings.push(Binding {
            binding,
            kind: BindingKind::Feedback,
            writable: true,
        });
    }
    let mut ngg_out = None;
    if let Some(e) = ngg {
        // NGG compute pass: the exports go to one output buffer.
        let binding = next_binding;
        next_binding += 1;
        let targets: Vec<ExportTarget> = outputs
            .iter()
            .copied()
            .filter(|t| matches!(t, ExportTarget::Pos(_) | ExportTarget::Param(_)))
            .collect();
        let lanes = plan.compute_lanes;
        let lane_words = 4 * targets.len() as u32 + 1;
        let group_words = 1 + lanes * lane_words;
        plan.ngg = Some(emit::NggPlan {
            binding,
            targets: targets.clone(),
            lane_words,
            group_words,
        });
        mbindings.push(Binding {
            binding,
            kind: BindingKind::NggOutput,
            writable: true,
        });
        if uses_ngg_ids {
            plan.ngg_ids = Some(next_binding);
            mbindings.push(Binding {
                binding: next_binding,
                kind: BindingKind::NggSubgroups,
                writable: false,
            });
            next_binding += 1;
        }
        ngg_out = Some(wave::NggOutput {
            entry: e,
            lanes,
            binding,
            targets: targets
                .iter()
                .map(|t| match t {
                    ExportTarget::Pos(n) => 12 + n,
                    ExportTarget::Param(n) => 32 + n,
                    _ => 0,
                })
                .collect(),
            lane_words,
            group_words,
            how: format!(
                "vkCmdDispatch(NggEntry::groups(n, {lanes}), instance_count, 1) for a triangle-list draw of n vertex ids; non-indexed: push VertexIdOffset = first vertex, OutVertexCount = n, NggIndexed = 0; indexed: NggIndexed = 1, the NggSubgroups binding = NggEntry::list_words of the host's subgroups (vertex reuse within a subgroup), one workgroup per listed subgroup; split draws: one dispatch per chunk; the output binding holds subgroups × instance_count × group_words words"
            ),
        });
        outputs.clear();
    }
    plan.outputs = outputs.iter().copied().collect();
    if opts.test_outputs {
        let binding = next_binding;
        let first = member(PushKind::OutFirstVertex, &mut push);
        let count = member(PushKind::OutVertexCount, &mut push);
        plan.test = Some((binding, first, count));
        mbindings.push(Binding {
            binding,
            kind: BindingKind::TestOutputs,
            writable: true,
        });
    }
    // Physical places: at most PUSH_WORDS words in the push-constant block
    // (Vulkan guarantees 128 bytes); the per-draw values and user data go
    // first, words read through pointers spill into the params buffer.
    if opts.test_outputs {
        next_binding += 1;
    }
    let n = push.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| match &push[i].kind {
        PushKind::Word {
            expr: WordExpr::UserData { .. },
            ..
        } => 1,
        PushKind::Word { .. } => 3,
        _ => 0,
    });
    let mut phys = vec![0u32; n];
    for (rank, &i) in order.iter().enumerate() {
        phys[i] = rank as u32;
    }
    let p = |m: u32| phys[m as usize];
    plan.vertex_id_offset = plan.vertex_id_offset.map(p);
    plan.instance_id_offset = plan.instance_id_offset.map(p);
    plan.code_addr = plan.code_addr.map(|(l, h)| (p(l), p(h)));
    plan.ngg_count = plan.ngg_count.map(p);
    plan.ngg_indexed = plan.ngg_indexed.map(p);
    let array_members: Vec<Option<u32>> = array_members.into_iter().map(|m| m.map(p)).collect();
    for v in plan.source_member.values_mut() {
        *v = p(*v);
    }
    for b in plan.bindings.values_mut() {
        b.base_lo = p(b.base_lo);
        b.base_hi = p(b.base_hi);
        b.size = p(b.size);
        b.last = b.last.map(p);
    }
    plan.window = plan.window.map(|(b, x, y, z)| (b, p(x), p(y), p(z)));
    plan.test = plan.test.map(|(b, x, y)| (b, p(x), p(y)));
    let mut placed: Vec<(u32, PushKind)> = push
        .into_iter()
        .enumerate()
        .map(|(i, w)| (phys[i], w.kind))
        .collect();
    placed.sort_by_key(|x| x.0);
    let mut push = Vec::new();
    let mut param_buffer = Vec::new();
    for (ph, kind) in placed {
        if ph < emit::PUSH_WORDS {
            push.push(PushWord {
                offset: 4 * ph,
                kind,
            });
        } else {
            param_buffer.push(PushWord {
                offset: 4 * (ph - emit::PUSH_WORDS),
                kind,
            });
        }
    }
    plan.push_members = push.len() as u32;
    if !param_buffer.is_empty() {
        plan.params = Some(next_binding);
        mbindings.push(Binding {
            binding: next_binding,
            kind: BindingKind::Params,
            writable: false,
        });
    }
    // Images: numbered after every storage buffer.
    let first_image = next_binding + u32::from(plan.params.is_some());
    for w in push.iter_mut().chain(param_buffer.iter_mut()) {
        if let PushKind::ImageArraySlots { binding } = &mut w.kind {
            *binding += first_image;
        }
    }
    let mut mimages = Vec::new();
    for ((binding, h), slots) in (first_image..).zip(images).zip(&array_members) {
        let slot = plan.images.len();
        plan.images.push(emit::ImageSlot {
            binding,
            kind: h.kind,
            dim: h.dim,
            sampled_type: h.sampled_type,
            depth: h.depth,
            array: h
                .array
                .zip(*slots)
                .map(|((scale, _), slots)| emit::ArraySlot {
                    scale,
                    slots,
                    elements: lift::LANE_ARRAY_ELEMENTS,
                }),
        });
        let mut accesses = Vec::new();
        for &op in &h.ops {
            plan.image_of_op.insert(op, slot);
            accesses.push(f.images[op as usize].pc);
        }
        accesses.sort_unstable();
        accesses.dedup();
        mimages.push(manifest::ImageBinding {
            binding,
            kind: h.kind,
            dim: h.dim,
            sampled_type: h.sampled_type,
            texture: h.texture.iter().map(|&s| word_expr(f, s)).collect(),
            texture_source: words_name(f, &h.texture),
            sampler: h
                .sampler
                .map(|s| s.iter().map(|&w| word_expr(f, w)).collect()),
            sampler_source: h.sampler.map(|s| words_name(f, &s)),
            accesses,
            array: h
                .array
                .map(|(scale, sampler_per_slot)| manifest::ImageArray {
                    scale,
                    elements: lift::LANE_ARRAY_ELEMENTS,
                    sampler_per_slot,
                    loads: Vec::new(),
                }),
        });
    }
    let bytes = 4 * plan.push_members;
    let mut outs = BTreeMap::new();
    for (slot, t) in plan.outputs.iter().enumerate() {
        outs.insert(*t, slot as u32);
    }
    let outputs = outs
        .iter()
        .map(|(t, slot)| match t {
            ExportTarget::Pos(n) => Output {
                export: format!("pos{n}"),
                builtin: (*n == 0).then(|| "position".to_string()),
                location: (*n != 0).then_some(32 + *n as u32),
                test_slot: *slot,
            },
            ExportTarget::Param(n) => Output {
                export: format!("param{n}"),
                builtin: None,
                location: Some(*n as u32),
                test_slot: *slot,
            },
            ExportTarget::Mrt(n) => Output {
                export: format!("mrt{n}"),
                builtin: None,
                location: Some(*n as u32),
                test_slot: *slot,
            },
            ExportTarget::Mrtz
            | ExportTarget::Null
            | ExportTarget::Prim
            | ExportTarget::AllocReq => Output {
                export: "mrtz".into(),
                builtin: Some("frag_depth".into()),
                location: None,
                test_slot: *slot,
            },
        })
        .collect();
    let mode_name = |m: &ir::InterpMode| -> String {
        match m {
            ir::InterpMode::Flat => "flat",
            ir::InterpMode::Bary(b) => match b {
                isa::Bary::PerspCenter => "persp_center",
                isa::Bary::PerspCentroid => "persp_centroid",
                isa::Bary::PerspSample => "persp_sample",
                isa::Bary::LinearCenter => "linear_center",
                isa::Bary::LinearCentroid => "linear_centroid",
                isa::Bary::LinearSample => "linear_sample",
            },
        }
        .into()
    };
    let inputs = frag_inputs
        .iter()
        .map(|(a, (m, ch, f16))| manifest::FragmentInput {
            location: *a as u32,
            interpolation: mode_name(m),
            channels: *ch,
            f16_half: f16.map(|hi| if hi { "high" } else { "low" }.into()),
            barycentrics: false,
        })
        .chain(
            helpers
                .iter()
                .map(|&(loc, pair, ch)| manifest::FragmentInput {
                    location: loc as u32,
                    interpolation: mode_name(&ir::InterpMode::Bary(pair)),
                    channels: ch,
                    f16_half: None,
                    barycentrics: true,
                }),
        )
        .collect();
    let mut notes = vec![
        "registers the ABI does not define at entry read as 0".to_string(),
        "buffer range checks: structured (stride > 0, OOB_SELECT 0/1): index < num_records (and, for OOB_SELECT 0, the in-record offset < stride); raw (stride 0 or OOB_SELECT 3): the byte offset of each dword < num_records; OOB_SELECT 2: none; soffset is not part of the check; out of range reads 0".to_string(),
        "swizzled and ADD_TID descriptors are addressed linearly".to_string(),
        "a descriptor read only by s_buffer_load at constant offsets (a uniform buffer) needs no binding: its words are push/param words (`buf(...)`)".to_string(),
        "v_fma_f32/v_fmac_f32 are computed in f64 (exact product, one f64 rounding, then f32): at most 1 ulp from the fused result; the device needs shaderFloat64".to_string(),
        "a dword read at an unaligned guest address combines two aligned dwords (unaligned buffer access)".to_string(),
    ];
    if opts.precise {
        notes.push("precise mode: v_rcp/v_rsq/v_sqrt/v_exp/v_log/v_sin/v_cos_f32 are correctly rounded f64 sequences; the device needs shaderFloat64".into());
    }
    if fragment {
        notes.push("pixel shader: input location N is the guest's attrN, interpolated by the host as `inputs` says (v_interp_p1/p2 on one barycentric pair, or v_interp_mov p0 = flat); the host's interpolation rounds on its own, so it equals the guest's bit for bit only where both are exact".into());
        notes.push("pixel shader: output location N is mrtN as four floats (a compressed export's f16 halves widened exactly); mrtz writes FragDepth; a fragment whose exec bit is off at a `done` export is discarded".into());
        if opts.test_outputs {
            notes.push("pixel shader test outputs: one record per pixel, index y * width + x of gl_FragCoord, where width is the `out_vertex_count` push word".into());
        }
    }
    if (opts.checked || opts.test_outputs) && !fragment {
        notes.push("the feedback and test-output buffers are written from the vertex stage: the device needs vertexPipelineStoresAndAtomics".into());
    } else if opts.checked || opts.test_outputs {
        notes.push("the feedback and test-output buffers are written from the fragment stage: the device needs fragmentStoresAndAtomics".into());
    }
    if !images.is_empty() {
        notes.push("images: a `sampled` binding is a combined image sampler (the module reads it through an image and a sampler variable on that one binding); a `storage` binding is declared Rgba32f (the host view must be R32G32B32A32_SFLOAT whose texel components hold the 32-bit words the hardware's image_load returns for the guest texel, an integer format's bits included; stores write those words); sampled_type float is assumed (the shader's use of the results is not checked for integers); image_load/image_store read and write mip 0; a d16 image_store's f16 components (two per VGPR, the first in the low half) are written widened exactly to f32, which assumes a float, unorm or snorm guest format (16-bit integer data is not distinguished; the interpreter refuses it); a store writes 0 to the components outside its dmask".into());
    }
    if !dropped.is_empty() {
        notes.push("dropped instructions have no host counterpart (see `dropped`)".into());
    }
    // Vertex shaders' raw-pointer loads (compute shaders' window spans the
    // whole guest memory anyway).
    let mut global_reads: Vec<u32> = if compute.is_none() {
        f.loads
            .iter()
            .filter_map(|l| match l {
                Load::Global { pc, .. } => Some(*pc),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    global_reads.sort_unstable();
    global_reads.dedup();
    if !global_reads.is_empty() {
        notes.push("global_load through computed pointers reads the window: bind it over every guest byte the pointers may reach (see `global_reads`)".into());
    }
    if compute.is_some() {
        notes.push("compute: one host invocation per guest lane, the host workgroup is the guest's; memory is one writable window (loads and stores of every descriptor meet there); dword stores at unaligned addresses are not performed".into());
    }
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        spirv: "1.3".into(),
        entry_point: if compute.is_some() {
            "main (GLCompute)".into()
        } else if fragment {
            "main (Fragment)".into()
        } else {
            "main (Vertex)".into()
        },
        guest_stage: input.stage.name().into(),
        wave_size: input.wave_size,
        ids: if fragment {
            "pixel shader: no vertex or instance ids; frag_pos.x/y entry VGPRs = gl_FragCoord.xy (the pixel centre)".into()
        } else {
            "vertex_id = VertexIndex + vertex_id_offset; instance_id = InstanceIndex + instance_id_offset (guest ids exclude base vertex and start instance)".into()
        },
        checked: opts.checked,
        test_outputs: opts.test_outputs,
        push_constant_bytes: bytes,
        push_constants: push,
        param_buffer,
        bindings: mbindings,
        images: mimages,
        outputs,
        inputs,
        system_sgprs: system_sgprs.to_vec(),
        dropped: dropped.to_vec(),
        notes,
        dispatch: compute
            .filter(|_| ngg.is_none())
            .map(|c| wave::Dispatch::new(c, 1, plan.compute_lanes)),
        ngg: ngg_out,
        global_reads,
        lane_tables: Vec::new(),
    };
    Ok((plan, manifest))
}
