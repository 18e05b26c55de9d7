//! SPIR-V 1.3 emission through rspirv.
//!
//! The module has one vertex entry point `main`. Block parameters become
//! function-local variables (the predecessor stores, the block loads), so
//! no `OpPhi` is needed. Memory reads go through helper functions:
//! `read_window(lo, hi)` reads a guest dword from the fallback window (0
//! outside it) and `read_bN(lo, hi)` reads from binding N, falling back to
//! the window outside the binding's range. Every index into a runtime
//! array is clamped with `OpArrayLength`, so no input makes the module
//! read or write out of bounds.
//!
//! # Layout
//!
//! - this file: the [`Plan`] the emitter follows, the emitter's state and
//!   constant helpers;
//! - `module`: [`emit`], the entry point per execution model, its
//!   capabilities, interface variables and inputs;
//! - `body`: structured control flow and instruction bodies (IR
//!   instructions and effects);
//! - `precise`: precise mode's correctly rounded sequences for the
//!   approximate operations;
//! - `memory`: the window and binding read functions, buffer addressing, and
//!   the clamps that keep every access in bounds.

mod body;
mod fragment;
mod image;
mod lanes;
mod memory;
mod module;
mod ngg;
mod precise;

#[cfg(test)]
pub(crate) use self::image::offset_fields;
pub use module::emit;

use crate::ir::{ExportTarget, Func, Ty, Value};
use memory::AccessBase;
use rspirv::dr::Builder;
use spirv::Word;
use std::collections::HashMap;

/// Words in the push-constant block (Vulkan guarantees 128 bytes).
pub const PUSH_WORDS: u32 = 32;

/// Where the emitter finds each host resource.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Push-constant member of each parameter source (by source index).
    pub source_member: HashMap<u16, u32>,
    /// Push-constant member of the vertex-id offset.
    pub vertex_id_offset: Option<u32>,
    /// Push-constant member of the instance-id offset.
    pub instance_id_offset: Option<u32>,
    /// Push-constant members of the code address (low, high).
    pub code_addr: Option<(u32, u32)>,
    /// Number of push-constant members (at most [`PUSH_WORDS`]); members
    /// from [`PUSH_WORDS`] on are words of the params buffer.
    pub push_members: u32,
    /// Binding of the params buffer, when words spill out of the
    /// push-constant block.
    pub params: Option<u32>,
    /// Per IR binding id: (binding number, base_lo, base_hi, size,
    /// last-record member).
    pub bindings: HashMap<u16, BindingSlots>,
    /// The window: (binding number, base_lo, base_hi, size members).
    pub window: Option<(u32, u32, u32, u32)>,
    /// The feedback buffer's binding number (`--checked`).
    pub feedback: Option<u32>,
    /// Test outputs: (binding, first-vertex member, vertex-count member).
    pub test: Option<(u32, u32, u32)>,
    /// The outputs, in test-slot order.
    pub outputs: Vec<ExportTarget>,
    /// Compute: the module is a GLCompute entry point of this local size
    /// (its window binding is writable).
    pub compute: Option<[u32; 3]>,
    /// Flush f32 denormals explicitly, in and out of every f32 operation
    /// (the compute model: a host may keep denormals in compute, as
    /// lavapipe does, while RADV's float mode flushes them).
    pub flush_denormals: bool,
    /// Compute: guest lanes per wave (for the lane operations).
    pub compute_lanes: u32,
    /// Compute, a guest workgroup of several waves run one wave per host
    /// workgroup: how the guest's ids come from the host's.
    pub wave_split: Option<WaveSplit>,
    /// NGG compute pass: the output buffer.
    pub ngg: Option<NggPlan>,
    /// NGG compute pass: the push member with the draw's vertex count.
    pub ngg_count: Option<u32>,
    /// NGG compute pass: the push member saying whether the draw is
    /// indexed ([`crate::manifest::PushKind::NggIndexed`]).
    pub ngg_indexed: Option<u32>,
    /// Pixel shaders: the push member of the guest's shading rate
    /// ([`crate::ir::Input::ShadingRate`]).
    pub shading_rate: Option<u32>,
    /// NGG compute pass: the binding of the draw's vertex ids
    /// ([`crate::manifest::BindingKind::NggVertexIds`]).
    pub ngg_ids: Option<u32>,
    /// Precise mode ([`crate::Options::precise`]): the approximate
    /// operations as correctly rounded f64 sequences.
    pub precise: bool,
    /// A fragment entry point (pixel shaders) instead of a vertex one.
    pub fragment: bool,
    /// Pixel shaders: each interpolated attribute (its input location)
    /// and its mode.
    pub inputs: Vec<(u8, crate::ir::InterpMode)>,
    /// Pixel shaders: the input location of each raw barycentric pair's
    /// helper ([`crate::ir::Input::Barycentric`]; also in `inputs`).
    pub barycentrics: std::collections::BTreeMap<isa::Bary, u8>,
    /// Pixel shaders: `gl_FragCoord` is read (by the shader or the test
    /// outputs).
    pub frag_coord: bool,
    /// The image bindings.
    pub images: Vec<ImageSlot>,
    /// The image binding (index in `images`) of each image operation
    /// ([`crate::ir::Func::images`] index).
    pub image_of_op: HashMap<u32, usize>,
}

/// A guest workgroup of `waves` waves run one wave per host workgroup
/// (`local_size` = one wave): host workgroup `g` is wave `g.x % waves` of
/// guest workgroup `(g.x / waves, g.y, g.z)`, and the guest's local index
/// is `wave · lanes + LocalInvocationId.x`.
#[derive(Clone, Copy, Debug)]
pub struct WaveSplit {
    /// The guest workgroup size (for the guest's local ids).
    pub guest_size: [u32; 3],
    /// Waves per guest workgroup (> 1).
    pub waves: u32,
    /// Negative control (`ComputeFaults::wave_split_wave_zero`): every
    /// host workgroup is wave 0.
    pub wave_zero: bool,
}

/// One image binding as the module declares it.
#[derive(Clone, Copy, Debug)]
pub struct ImageSlot {
    /// Binding number in set 0.
    pub binding: u32,
    /// Combined image sampler (an image and a sampler variable on one
    /// binding) or storage image.
    pub kind: crate::manifest::ImageKind,
    /// Dimensionality.
    pub dim: crate::manifest::ImageDim,
    /// Component type.
    pub sampled_type: crate::manifest::SampledType,
    /// A depth image (compare sampling).
    pub depth: bool,
    /// A runtime descriptor array fed from a guest table, indexed per lane
    /// ([`crate::ir::ImageOp::array`]).
    pub array: Option<ArraySlot>,
}

/// A descriptor-array image binding's layout.
#[derive(Clone, Copy, Debug)]
pub struct ArraySlot {
    /// Bytes per slot in the guest table.
    pub scale: u32,
    /// The push member holding the number of slots bound
    /// ([`crate::manifest::PushKind::ImageArraySlots`]).
    pub slots: u32,
    /// The array's length (descriptors the host binds).
    pub elements: u32,
}

/// NGG compute pass: where the exports go ([`crate::wave::NggOutput`]).
#[derive(Clone, Debug, Default)]
pub struct NggPlan {
    /// The writable output binding.
    pub binding: u32,
    /// The position/parameter targets, four words per lane each.
    pub targets: Vec<crate::ir::ExportTarget>,
    /// Words per lane.
    pub lane_words: u32,
    /// Words per subgroup.
    pub group_words: u32,
}

/// The push-constant members and binding number of one descriptor
/// binding.
#[derive(Clone, Copy, Debug, Default)]
pub struct BindingSlots {
    /// Binding number in set 0.
    pub binding: u32,
    /// Member holding the base's low half.
    pub base_lo: u32,
    /// Member holding the base's high half.
    pub base_hi: u32,
    /// Member holding the size.
    pub size: u32,
    /// Member holding the narrowed last record (`--checked`).
    pub last: Option<u32>,
}

/// An emission failure (an internal inconsistency, reported not panicked).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SPIR-V emission failed: {0}")]
pub struct EmitError(pub String);

impl From<rspirv::dr::Error> for EmitError {
    fn from(e: rspirv::dr::Error) -> Self {
        EmitError(format!("{e:?}"))
    }
}

struct Types {
    void: Word,
    bool_: Word,
    u32_: Word,
    i32_: Word,
    f32_: Word,
    f64_: Word,
    v4f: Word,
    p_push_u32: Word,
    p_sb_u32: Word,
    p_out_v4f: Word,
    p_in_u32: Word,
    p_fn_u32: Word,
    p_fn_f32: Word,
    p_fn_bool: Word,
    fn_rd: Word,
}

struct Emitter<'a> {
    f: &'a Func,
    plan: &'a Plan,
    b: Builder,
    t: Types,
    glsl: Word,
    consts: HashMap<(Word, u32), Word>,
    /// f64 constants by their bits (precise mode).
    consts64: HashMap<u64, Word>,
    const_val: HashMap<Word, u32>,
    vals: Vec<Word>,
    push_var: Word,
    vars: HashMap<Value, Word>,
    /// The continue-block labels of the loops being emitted, innermost
    /// last (where a `structure::Node::Continue` branches).
    continues: Vec<Word>,
    /// No block is open: the last one ended in a `continue` or in the
    /// unreachable merge of a selection whose arms all leave, so nothing
    /// follows until the next labelled block.
    dead: bool,
    sb: HashMap<u32, Word>,
    read_fns: HashMap<Option<u16>, Word>,
    unaligned_fns: HashMap<Option<u16>, Word>,
    out_vars: HashMap<ExportTarget, Word>,
    access_cache: HashMap<u32, AccessBase>,
    vid: Word,
    iid: Word,
    /// Compute: the `WorkgroupId` and `LocalInvocationId` inputs (uvec3).
    wgid: Word,
    lid: Word,
    /// NGG compute pass: the `NumWorkgroups` input.
    numwg: Word,
    /// Compute: the lane operations' workgroup arrays, once declared.
    lanes: Option<lanes::LaneVars>,
    /// Pixel shaders: the input variable of each attribute.
    in_vars: HashMap<u8, Word>,
    /// Pixel shaders: the `FragCoord` variable.
    frag_coord: Word,
    /// Pixel shaders with quad operations: the `SubgroupLocalInvocationId`
    /// variable.
    subgroup_id: Word,
    /// Per image binding: its variables and types.
    image_vars: Vec<image::ImageVars>,
    /// The result of each image operation emitted so far (by
    /// [`crate::ir::Func::images`] index).
    image_results: HashMap<u32, Word>,
    /// A descriptor-array operation's "this lane's slot is bound" (its
    /// result components read 0 where it is false).
    image_bound: HashMap<u32, Word>,
    /// Compute model: f32 values already flushed ([`Emitter::daz`]).
    flushed: std::collections::HashSet<Word>,
}

impl Emitter<'_> {
    fn constant(&mut self, ty: Word, bits: u32) -> Word {
        if let Some(&w) = self.consts.get(&(ty, bits)) {
            return w;
        }
        let w = if ty == self.t.bool_ {
            if bits != 0 {
                self.b.constant_true(ty)
            } else {
                self.b.constant_false(ty)
            }
        } else {
            self.b.constant_bit32(ty, bits)
        };
        self.consts.insert((ty, bits), w);
        if ty == self.t.u32_ {
            self.const_val.insert(w, bits);
        }
        w
    }
    /// `a + b` (u32), folded when either side is a constant 0 or both are
    /// constants.
    fn iadd(&mut self, a: Word, b: Word) -> Result<Word, EmitError> {
        match (
            self.const_val.get(&a).copied(),
            self.const_val.get(&b).copied(),
        ) {
            (Some(x), Some(y)) => Ok(self.const_u32(x.wrapping_add(y))),
            (Some(0), _) => Ok(b),
            (_, Some(0)) => Ok(a),
            _ => Ok(self.b.i_add(self.t.u32_, None, a, b)?),
        }
    }
    fn const_u32(&mut self, bits: u32) -> Word {
        let t = self.t.u32_;
        self.constant(t, bits)
    }
    /// Open a selection whose body runs when `cond`: its merge label, for
    /// [`Self::end_if`].
    fn begin_if(&mut self, cond: Word) -> Result<Word, EmitError> {
        let then = self.b.id();
        let merge = self.b.id();
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(cond, then, merge, vec![])?;
        self.b.begin_block(Some(then))?;
        Ok(merge)
    }
    /// Close the selection [`Self::begin_if`] opened.
    fn end_if(&mut self, merge: Word) -> Result<(), EmitError> {
        self.b.branch(merge)?;
        self.b.begin_block(Some(merge))?;
        Ok(())
    }
    fn ty(&self, t: Ty) -> Word {
        match t {
            Ty::Bool => self.t.bool_,
            Ty::U32 => self.t.u32_,
            Ty::F32 => self.t.f32_,
            Ty::Void => self.t.void,
        }
    }
}
