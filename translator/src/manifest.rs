//! The layout manifest: the machine-readable contract between a translated
//! module and the host that runs it.
//!
//! It is written as JSON next to the `.spv`. It lists:
//! - the push-constant words (one `u32` member each, at `offset`), and
//!   what the host puts in each: a guest word (`word`, with a structured
//!   [`WordExpr`] the host evaluates per draw with [`Manifest::push_words`]),
//!   a binding's guest range, the vertex/instance-id offsets, ...;
//! - the storage-buffer bindings (descriptor set 0): one per traced
//!   descriptor, the fallback guest-memory window, and in `--checked` and
//!   test modes the feedback and output buffers;
//! - the outputs (`exp pos0` → `Position`, `exp paramN` → location N);
//! - the system-SGPR values the translation assumed and the instructions
//!   it dropped.

use drawbind::{word, VSharp};
use serde::{Deserialize, Serialize};

/// Version of the manifest format. 2: the NGG pass's listed subgroups
/// (`NggIndexed`, `NggSubgroups`), `lane_tables`, the dispatch's
/// `waves_per_group` and a fragment input's `f16_half`, each of which a
/// host that reads version 1 would get wrong by ignoring.
pub const MANIFEST_VERSION: u32 = 2;

/// A guest word the host resolves per draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WordExpr {
    /// User-data word `k`.
    UserData {
        /// Word number.
        k: u8,
    },
    /// A constant.
    Const {
        /// The value.
        value: u32,
    },
    /// The dword of guest memory at `(hi << 32 | lo) + offset`.
    TableWord {
        /// Pointer low half.
        lo: Box<WordExpr>,
        /// Pointer high half.
        hi: Box<WordExpr>,
        /// Byte offset.
        offset: u32,
    },
    /// The dword of guest memory at `(hi << 32 | lo) + (index · scale +
    /// offset mod 2³²)`: a table slot chosen per draw by another word
    /// (e.g. a user-data material index). The host binds the one resource
    /// the draw's index selects.
    IndexedTableWord {
        /// Pointer low half.
        lo: Box<WordExpr>,
        /// Pointer high half.
        hi: Box<WordExpr>,
        /// The index word.
        index: Box<WordExpr>,
        /// Bytes per index step.
        scale: u32,
        /// Byte offset added to `index · scale`.
        offset: u32,
    },
    /// The dword `s_buffer_load` reads at byte `offset` through the
    /// descriptor made of the four words, with its range check (0 when out
    /// of range: `offset + 4 > num_records` for stride 0, else
    /// `offset + 4 > num_records × stride`).
    BufferWord {
        /// The descriptor's words.
        desc: Box<[WordExpr; 4]>,
        /// Byte offset.
        offset: u32,
    },
}

/// Why a word could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The user data has no word `k`.
    #[error("user-data word {0} is missing")]
    MissingUserData(u8),
    /// Guest memory has no dword at the address.
    #[error("guest memory has no dword at {0:#x}")]
    MissingMemory(u64),
}

impl WordExpr {
    /// Evaluate for a draw: `user_data`, and `mem(addr)` reading the guest
    /// dword at a byte address.
    pub fn eval(
        &self,
        user_data: &[u32],
        mem: &mut dyn FnMut(u64) -> Option<u32>,
    ) -> Result<u32, ResolveError> {
        Ok(match self {
            WordExpr::UserData { k } => *user_data
                .get(*k as usize)
                .ok_or(ResolveError::MissingUserData(*k))?,
            WordExpr::Const { value } => *value,
            WordExpr::TableWord { lo, hi, offset } => {
                let lo = lo.eval(user_data, mem)?;
                let hi = hi.eval(user_data, mem)?;
                // Scalar loads ignore the low two address bits; addresses
                // are 48-bit GPU addresses (RADV's `0xffff8000_xxxxxxxx`
                // table pointers read guest `0x8000_xxxxxxxx`): drawbind's
                // rules (`drawbind::word`).
                let a = word::dword_address(word::pointer(lo, hi, 0), *offset);
                mem(a).ok_or(ResolveError::MissingMemory(a))?
            }
            WordExpr::IndexedTableWord {
                lo,
                hi,
                index,
                scale,
                offset,
            } => {
                let lo = lo.eval(user_data, mem)?;
                let hi = hi.eval(user_data, mem)?;
                let i = index.eval(user_data, mem)?;
                let a = word::dword_address(
                    word::pointer(lo, hi, 0),
                    word::slot_offset(i, *scale, *offset),
                );
                mem(a).ok_or(ResolveError::MissingMemory(a))?
            }
            WordExpr::BufferWord { desc, offset } => {
                let mut w = [0u32; 4];
                for (i, d) in desc.iter().enumerate() {
                    w[i] = d.eval(user_data, mem)?;
                }
                match word::buffer_word_address(&VSharp::decode(w), *offset) {
                    Some(a) => mem(a).ok_or(ResolveError::MissingMemory(a))?,
                    None => 0,
                }
            }
        })
    }
}

/// What the host puts in one push-constant word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PushKind {
    /// Added (wrapping) to the host's `VertexIndex` to give the guest
    /// vertex id: `guest_first_vertex − host_first_vertex`; 0 when the host
    /// draws with `firstVertex` = the guest's first vertex id. NGG compute
    /// pass: the draw's first vertex id.
    VertexIdOffset,
    /// Added to the host's `InstanceIndex` to give the guest instance id
    /// (which starts at 0): `−host_first_instance`; 0 when the host draws
    /// with `firstInstance` = 0.
    InstanceIdOffset,
    /// A guest word (user data, or a word the shader reads through a
    /// pointer or descriptor built from user data).
    Word {
        /// The word, as the tracer names it.
        source: String,
        /// How to compute it.
        expr: WordExpr,
    },
    /// Low 32 bits of the guest address of a binding's first byte.
    BindingBaseLo {
        /// The binding.
        binding: u32,
    },
    /// High 32 bits of that address.
    BindingBaseHi {
        /// The binding.
        binding: u32,
    },
    /// Bytes bound (reads past them go to the fallback window).
    BindingSize {
        /// The binding.
        binding: u32,
    },
    /// `--checked`: the narrowed last record; `0xffffffff` when the binding
    /// is not narrowed.
    BindingLastRecord {
        /// The binding.
        binding: u32,
    },
    /// Low 32 bits of the guest address of the window's first byte.
    WindowBaseLo,
    /// High 32 bits.
    WindowBaseHi,
    /// Bytes in the window (reads outside give 0).
    WindowSize,
    /// Low 32 bits of the guest address of the shader's first byte (what
    /// `s_getpc_b64` counts from; the code and its constant data must be
    /// readable there, through a descriptor binding or the window).
    CodeAddrLo,
    /// High 32 bits of that address.
    CodeAddrHi,
    /// Test outputs: subtracted from the guest vertex id to give the record.
    OutFirstVertex,
    /// Test outputs: records per instance. NGG compute pass: the draw's
    /// vertex count.
    OutVertexCount,
    /// NGG compute pass: 1 when the draw's subgroups are listed in the
    /// [`BindingKind::NggSubgroups`] binding (indexed draws), 0 when they
    /// are counted from [`PushKind::VertexIdOffset`] and
    /// [`PushKind::OutVertexCount`].
    NggIndexed,
    /// Pixel shaders ([`crate::ShadingRateSource::PushWord`]): the guest
    /// draw's coarse shading rate as the `ancillary` entry VGPR's bits 5:2
    /// hold it: bits 1:0 log2 of the pixels a fragment covers horizontally
    /// (gfx10.3 VRS rate X), bits 3:2 vertically (rate Y); 0 is 1x1. One
    /// value for the draw: exact when the guest's rate does not vary per
    /// primitive or per pixel (no per-primitive rate, no rate image, or
    /// combiners that keep the draw's rate).
    ShadingRate,
    /// Slots of the guest table a descriptor-array image binding holds
    /// ([`ImageBinding::array`]): how many descriptors the host bound
    /// there (at least 1). A lane whose slot is not below it reads 0.
    ImageArraySlots {
        /// The image binding.
        binding: u32,
    },
}

/// One push-constant word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushWord {
    /// Byte offset in the push-constant block.
    pub offset: u32,
    /// What it holds.
    #[serde(flatten)]
    pub kind: PushKind,
}

/// What a storage-buffer binding holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BindingKind {
    /// The bytes of a traced descriptor's bind range, from its guest base
    /// (read-only).
    Descriptor {
        /// The descriptor's id in the trace.
        descriptor: u16,
        /// Its source, as the tracer prints it (`table(ud0)+0x0`).
        source: String,
        /// pcs of the accesses through it.
        accesses: Vec<u32>,
    },
    /// A window of guest memory for accesses through untraced descriptors
    /// and raw pointers (read-only; may be a 4-byte dummy when unused).
    Window,
    /// `--checked`: one `u32`, atomically incremented per violating lane.
    Feedback,
    /// The parameter words that did not fit in the push-constant block
    /// (read-only `u32`s, see [`Manifest::param_buffer`]).
    Params,
    /// NGG compute pass: the exports and alloc counts of every subgroup
    /// (writable; layout in [`Manifest::ngg`]).
    NggOutput,
    /// NGG compute pass: an indexed draw's subgroups, as
    /// [`crate::wave::NggEntry::list_words`] lays them out (read-only; a
    /// 4-byte dummy for a non-indexed draw).
    NggSubgroups,
    /// Test mode: every export of every vertex, as raw 32-bit words:
    /// `record × (4 × outputs) + 4 × output + component`, where
    /// `record = (vertex_id − out_first_vertex) + instance_id ×
    /// out_vertex_count`. Records past the buffer are not written.
    TestOutputs,
}

/// A storage-buffer binding (descriptor set 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// Binding number in set 0.
    pub binding: u32,
    /// What it holds.
    #[serde(flatten)]
    pub kind: BindingKind,
    /// The shader writes it.
    pub writable: bool,
}

/// An output of the translated vertex shader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    /// The guest export (`pos0`, `param0`, ...).
    pub export: String,
    /// `position` for `pos0`, else `None`.
    pub builtin: Option<String>,
    /// The `Location` of a `vec4` float output (the export's bits), for
    /// params.
    pub location: Option<u32>,
    /// Index of the output in a test-mode record.
    pub test_slot: u32,
}

/// A pixel-shader input: one `vec4` float input location per guest
/// attribute the shader interpolates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FragmentInput {
    /// The `Location` (the guest attribute number, `attrN`).
    pub location: u32,
    /// `flat`, or the barycentrics: `persp_center`, `persp_centroid`,
    /// `persp_sample`, `linear_center`, `linear_centroid`,
    /// `linear_sample` (linear = `NoPerspective`).
    pub interpolation: String,
    /// The channels the shader reads (bit c = channel c).
    pub channels: u8,
    /// 16-bit interpolation (`v_interp_p1ll_f16` + `v_interp_p2_f16`):
    /// each channel of the location carries the value, as f32, of the f16
    /// in this half (`low`/`high`) of the guest's parameter word, and the
    /// shader rounds the interpolated value to f16 (nearest even). Absent:
    /// the channel is the guest's word as f32.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub f16_half: Option<String>,
    /// Not a guest attribute but a raw barycentric pair's helper: the
    /// host must give this location the values (0, 0) at the primitive's
    /// vertex 0, (1, 0) at vertex 1 and (0, 1) at vertex 2 (channels 0
    /// and 1; the guest's vertex order, the one its parameter cache holds
    /// `P0`, `P1`, `P2` in), interpolated as `interpolation` says. Its
    /// channels are then the pair's (i, j), which the shader reads as the
    /// hardware's barycentric entry VGPRs. It sits after the highest
    /// attribute the shader interpolates.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub barycentrics: bool,
}

/// A system SGPR value the translation assumed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemSgpr {
    /// The register (`s3`).
    pub sgpr: String,
    /// Its name (`merged_wave_info`).
    pub name: String,
    /// The value.
    pub value: u32,
    /// Why this value.
    pub meaning: String,
}

/// An instruction left out of the translation on purpose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    /// pc.
    pub pc: u32,
    /// The instruction's text.
    pub inst: String,
    /// Why it has no host counterpart.
    pub reason: String,
}

/// What an image binding is on the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageKind {
    /// A combined image sampler (`image_sample*`, `image_gather4*`).
    Sampled,
    /// A storage image (`image_load*`, `image_store*`, `image_get_resinfo`).
    Storage,
}

/// The image dimensionality, from the MIMG `dim` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ImageDim {
    /// `SQ_RSRC_IMG_1D`.
    #[serde(rename = "1d")]
    D1,
    /// `SQ_RSRC_IMG_2D`.
    #[serde(rename = "2d")]
    D2,
    /// `SQ_RSRC_IMG_3D`.
    #[serde(rename = "3d")]
    D3,
    /// `SQ_RSRC_IMG_CUBE`. The module samples it face by face: the host
    /// binds a 2D-array view of the cube's six layers (face order +x, −x,
    /// +y, −y, +z, −z), not a cube view.
    #[serde(rename = "cube")]
    Cube,
    /// `SQ_RSRC_IMG_1D_ARRAY`.
    #[serde(rename = "1d_array")]
    D1Array,
    /// `SQ_RSRC_IMG_2D_ARRAY`.
    #[serde(rename = "2d_array")]
    D2Array,
    /// `SQ_RSRC_IMG_2D_MSAA`.
    #[serde(rename = "2d_msaa")]
    D2Msaa,
    /// `SQ_RSRC_IMG_2D_MSAA_ARRAY`.
    #[serde(rename = "2d_msaa_array")]
    D2MsaaArray,
}

/// The component type of the host image (what the shader's use proves;
/// `float` unless the shader's use proves an integer type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampledType {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Sint,
    /// 32-bit unsigned integer.
    Uint,
}

/// An image binding (descriptor set 0, numbered after the storage-buffer
/// bindings): one per distinct (T# source, S# source, kind, dim, sampled
/// type).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageBinding {
    /// Binding number in set 0.
    pub binding: u32,
    /// Combined image sampler or storage image.
    pub kind: ImageKind,
    /// Dimensionality (from the MIMG `dim` field).
    pub dim: ImageDim,
    /// Component type the host image must have.
    pub sampled_type: SampledType,
    /// The T# words the instruction reads (8; 4 for `r128`), host-evaluable.
    pub texture: Vec<WordExpr>,
    /// The tracer's text for the T# source.
    pub texture_source: String,
    /// The 4 S# words (sampled only).
    pub sampler: Option<Vec<WordExpr>>,
    /// The tracer's text for the S# source (sampled only).
    pub sampler_source: Option<String>,
    /// pcs of the instructions that use it.
    pub accesses: Vec<u32>,
    /// A host descriptor array fed from a guest table, indexed per lane
    /// (a T#/S# at a per-lane table slot); `texture` (and `sampler` when
    /// [`ImageArray::sampler_per_slot`]) are slot 0's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<ImageArray>,
}

/// A descriptor-array image binding: element `k` is the T# whose words are
/// the `texture` words read `k · scale` bytes further into their table
/// (with the S# likewise when `sampler_per_slot`, else the one `sampler`).
/// The host binds `elements` descriptors, the table's slots from 0 (as many
/// as it holds, any valid descriptor after them) and says how many slots it
/// bound in push word [`PushKind::ImageArraySlots`]; each lane takes element
/// `offset / scale` of the byte offset it reads at, the slot the guest
/// reads (an offset that is no multiple of `scale` or past the bound
/// slots reads 0, so the host must bind every slot the draw indexes). The
/// module samples the bound slots in a loop with a dynamically uniform
/// index (`shaderSampledImageArrayDynamicIndexing`), no non-uniform
/// indexing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageArray {
    /// Bytes per slot.
    pub scale: u32,
    /// The array's length: the host binds this many descriptors (slots
    /// `0..elements` of the table, or any valid descriptor past the slots
    /// it says it bound); a lane whose slot is not below it reads 0.
    pub elements: u32,
    /// The S# is at the same slot (a combined image sampler's table).
    pub sampler_per_slot: bool,
    /// pcs of the scalar loads that read the descriptor words (what a
    /// run checks the interpreter's reads of against the bound slots).
    pub loads: Vec<u32>,
}

/// An image instruction whose T# (and S#) a per-lane slot of a table
/// selects (`s_load … s[table], sN` with `sN` a `v_readfirstlane` of a
/// lane value, `slot · scale` bytes): the translation samples each of the
/// slots `0..slots` (one [`ImageBinding`] each, its words at that slot's
/// constant offsets) and every lane takes the result of its own slot. A
/// lane whose slot is not below `slots` reads 0: unless `proved`, the host
/// must keep the index below `slots`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneTable {
    /// pc of the instruction.
    pub pc: u32,
    /// Bytes per slot.
    pub scale: u32,
    /// Slots bound (`0..slots`).
    pub slots: u32,
    /// The shader masks the index below `slots` (else a bound the host
    /// keeps).
    pub proved: bool,
    /// The flat input (attribute, channel) that is the index, when it is
    /// one directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<[u8; 2]>,
    /// Read through a host descriptor array ([`ImageBinding::array`])
    /// instead of expanded over `slots` bindings (`slots` is then 0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub array: bool,
    /// Array: pcs of the scalar loads of the descriptor words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loads: Vec<u32>,
}

/// The layout manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// SPIR-V version of the module (`1.3`).
    pub spirv: String,
    /// Entry point name and execution model.
    pub entry_point: String,
    /// Guest stage (`ngg`, `vs`).
    pub guest_stage: String,
    /// Guest wave size (32 or 64); one host invocation is one guest lane.
    pub wave_size: u32,
    /// The guest vertex id is `VertexIndex + vertex_id_offset` and the
    /// instance id `InstanceIndex + instance_id_offset` (see
    /// [`PushKind::VertexIdOffset`]).
    pub ids: String,
    /// `--checked` guards are compiled in.
    pub checked: bool,
    /// Test-mode output buffer compiled in.
    pub test_outputs: bool,
    /// Bytes of push constants.
    pub push_constant_bytes: u32,
    /// The push-constant words (at most 128 bytes).
    pub push_constants: Vec<PushWord>,
    /// The words that did not fit, in the `params` binding (offsets are
    /// byte offsets in that buffer); empty when everything fits.
    pub param_buffer: Vec<PushWord>,
    /// Storage-buffer bindings in set 0.
    pub bindings: Vec<Binding>,
    /// Image bindings in set 0 (numbered after [`Manifest::bindings`]);
    /// absent from the JSON when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageBinding>,
    /// Outputs.
    pub outputs: Vec<Output>,
    /// Pixel shaders: the interpolated inputs (empty for other stages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<FragmentInput>,
    /// System SGPR values assumed.
    pub system_sgprs: Vec<SystemSgpr>,
    /// Instructions left out.
    pub dropped: Vec<Dropped>,
    /// Other facts about the translation.
    pub notes: Vec<String>,
    /// Compute shaders: how the host dispatches the module (absent for
    /// vertex shaders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<crate::wave::Dispatch>,
    /// NGG shaders translated as a compute pass: the output buffer's
    /// layout and how to dispatch (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ngg: Option<crate::wave::NggOutput>,
    /// Vertex shaders: the pcs of `global_load*` through pointers the shader
    /// computes (user data, table words, loaded values), read from the
    /// [`BindingKind::Window`] binding. The trace bounds none of them, so the
    /// window must span every guest byte they may reach: the host binds the
    /// guest memory it can name (`shaderlift run`: every memory block of the
    /// DRAWS.json), not only [`crate::host::HostBinder::window`]'s
    /// descriptor span; bytes outside the window read 0. Absent when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub global_reads: Vec<u32>,
    /// Pixel shaders: image instructions whose descriptor a per-lane table
    /// slot selects. Absent when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lane_tables: Vec<LaneTable>,
}

/// The guest range bound at one descriptor binding for a draw (from
/// drawbind's `BindRange`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BindingRange {
    /// Binding number in set 0.
    pub binding: u32,
    /// Guest address of the first bound byte.
    pub base: u64,
    /// Bytes bound.
    pub size: u32,
    /// `--checked`: the narrowed last record, or `u32::MAX` when the range
    /// is not narrowed.
    pub last_record: u32,
}

/// Per-draw values the host supplies for the non-word push constants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawParams {
    /// See [`PushKind::VertexIdOffset`].
    pub vertex_id_offset: u32,
    /// See [`PushKind::InstanceIdOffset`].
    pub instance_id_offset: u32,
    /// The range of each descriptor binding (missing ones read as empty).
    pub bindings: Vec<BindingRange>,
    /// Window (guest base, size).
    pub window: (u64, u32),
    /// The guest address of the shader's first byte ([`PushKind::CodeAddrLo`];
    /// 0 when the shader does not read its pc).
    pub code_addr: u64,
    /// Test mode: first guest vertex id and vertices per instance.
    pub out_first_vertex: u32,
    /// Test mode: records per instance.
    pub out_vertex_count: u32,
    /// NGG compute pass: the draw's subgroups are listed
    /// ([`PushKind::NggIndexed`]).
    pub ngg_indexed: bool,
    /// Pixel shaders: the guest draw's coarse shading rate
    /// ([`PushKind::ShadingRate`]; 0 is 1x1).
    pub shading_rate: u32,
    /// (image binding, slots bound) of each descriptor-array binding
    /// ([`PushKind::ImageArraySlots`]; a missing one reads 0).
    pub image_array_slots: Vec<(u32, u32)>,
}

impl Manifest {
    /// The binding number of a traced descriptor, if the shader reads it.
    pub fn binding_of_descriptor(&self, descriptor: u16) -> Option<u32> {
        self.bindings.iter().find_map(|b| match &b.kind {
            BindingKind::Descriptor { descriptor: d, .. } if *d == descriptor => Some(b.binding),
            _ => None,
        })
    }

    /// The binding number of the window, the feedback counter or the test
    /// outputs.
    pub fn binding_of(&self, kind: &BindingKind) -> Option<u32> {
        self.bindings
            .iter()
            .find(|b| std::mem::discriminant(&b.kind) == std::mem::discriminant(kind))
            .map(|b| b.binding)
    }

    /// The manifest as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The push-constant words for a draw, in block order.
    pub fn push_words(
        &self,
        user_data: &[u32],
        draw: &DrawParams,
        mem: &mut dyn FnMut(u64) -> Option<u32>,
    ) -> Result<Vec<u32>, ResolveError> {
        self.words_of(&self.push_constants, user_data, draw, mem)
    }

    /// The params buffer's words for a draw (empty when nothing spilled).
    pub fn param_buffer_words(
        &self,
        user_data: &[u32],
        draw: &DrawParams,
        mem: &mut dyn FnMut(u64) -> Option<u32>,
    ) -> Result<Vec<u32>, ResolveError> {
        self.words_of(&self.param_buffer, user_data, draw, mem)
    }

    fn words_of(
        &self,
        list: &[PushWord],
        user_data: &[u32],
        draw: &DrawParams,
        mem: &mut dyn FnMut(u64) -> Option<u32>,
    ) -> Result<Vec<u32>, ResolveError> {
        let bind = |b: u32| {
            draw.bindings
                .iter()
                .find(|x| x.binding == b)
                .map(|x| (x.base, x.size, x.last_record))
                .unwrap_or((0, 0, u32::MAX))
        };
        let mut out = Vec::with_capacity(list.len());
        for w in list {
            out.push(match &w.kind {
                PushKind::VertexIdOffset => draw.vertex_id_offset,
                PushKind::InstanceIdOffset => draw.instance_id_offset,
                PushKind::Word { expr, .. } => expr.eval(user_data, mem)?,
                PushKind::BindingBaseLo { binding } => bind(*binding).0 as u32,
                PushKind::BindingBaseHi { binding } => (bind(*binding).0 >> 32) as u32,
                PushKind::BindingSize { binding } => bind(*binding).1,
                PushKind::BindingLastRecord { binding } => bind(*binding).2,
                PushKind::WindowBaseLo => draw.window.0 as u32,
                PushKind::WindowBaseHi => (draw.window.0 >> 32) as u32,
                PushKind::WindowSize => draw.window.1,
                PushKind::CodeAddrLo => draw.code_addr as u32,
                PushKind::CodeAddrHi => (draw.code_addr >> 32) as u32,
                PushKind::OutFirstVertex => draw.out_first_vertex,
                PushKind::OutVertexCount => draw.out_vertex_count,
                PushKind::NggIndexed => u32::from(draw.ngg_indexed),
                PushKind::ShadingRate => draw.shading_rate,
                PushKind::ImageArraySlots { binding } => draw
                    .image_array_slots
                    .iter()
                    .find(|x| x.0 == *binding)
                    .map_or(0, |x| x.1),
            });
        }
        Ok(out)
    }
}
