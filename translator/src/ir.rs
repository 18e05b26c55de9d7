//! The translator's IR: small, arena-based, typed SSA.
//!
//! A [`Func`] owns two arenas: instructions ([`Value`] indexes them) and
//! blocks ([`Block`]). Every value has one of three types ([`Ty`]):
//! `Bool`, `U32` or `F32` (register contents are `U32` bits; float
//! operations take `F32` values made with [`Un::AsF32`]). Joins use block
//! parameters instead of phi instructions: a [`Term`] passes one argument
//! per parameter of its target.
//!
//! Constants, inputs (vertex/instance id, push-constant parameters) and
//! loads are pure; exports, checks and stores are [`Effect`]s, kept in
//! block order. [`Builder`] folds constant operations as it builds, so
//! branches on values that are constant for the chosen system-SGPR values
//! disappear during lifting.

use std::collections::HashMap;

/// An SSA value (an index into [`Func::insts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block (an index into [`Func::blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub u32);

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A boolean (a lane's bit of a lane mask, SCC, conditions).
    Bool,
    /// 32 untyped bits (integers, register contents).
    U32,
    /// A 32-bit float.
    F32,
    /// No value (effects).
    Void,
}

/// One-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Un {
    /// Bitwise not (U32).
    Not,
    /// Logical not (Bool).
    BNot,
    /// U32 bits as F32.
    AsF32,
    /// F32 bits as U32.
    AsU32,
    /// `b ? 1 : 0`.
    BoolToU32,
    /// Float negate.
    FNeg,
    /// Float absolute value.
    FAbs,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
    /// Round towards zero.
    Trunc,
    /// Round to nearest even.
    RoundEven,
    /// `x - floor(x)`.
    Fract,
    /// Square root.
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsq,
    /// `1 / x`.
    Rcp,
    /// `2^x`.
    Exp2,
    /// `log2(x)`.
    Log2,
    /// `sin(2πx)` (the hardware's argument is in revolutions).
    SinRev,
    /// `cos(2πx)`.
    CosRev,
    /// U32 to F32 (round to nearest even).
    F32FromU32,
    /// I32 to F32.
    F32FromI32,
    /// F32 to U32, saturating, NaN to 0 (the hardware's `v_cvt_u32_f32`).
    U32FromF32,
    /// F32 to I32, saturating, NaN to 0.
    I32FromF32,
    /// Population count.
    CountOnes,
    /// Bit reverse.
    BitReverse,
    /// True if the float is NaN.
    IsNan,
}

/// Integer comparisons (U32 operands, Bool result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ICmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// unsigned `<`
    ULt,
    /// unsigned `<=`
    ULe,
    /// signed `<`
    SLt,
    /// signed `<=`
    SLe,
}

/// Float comparison as a set of outcomes: bit 0 less, bit 1 equal, bit 2
/// greater, bit 3 unordered. `v_cmp_nge_f32` is `LT | UNORD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FCmp(pub u8);

impl FCmp {
    /// Less than.
    pub const LT: u8 = 1;
    /// Equal.
    pub const EQ: u8 = 2;
    /// Greater than.
    pub const GT: u8 = 4;
    /// Unordered (either operand NaN).
    pub const UNORD: u8 = 8;
}

/// Two-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bin {
    /// Wrapping add.
    Add,
    /// Wrapping subtract.
    Sub,
    /// Low 32 bits of the product.
    Mul,
    /// High 32 bits of the unsigned product.
    MulHiU,
    /// High 32 bits of the signed product.
    MulHiI,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Shift left; the amount is taken modulo 32.
    Shl,
    /// Logical shift right; amount modulo 32.
    ShrL,
    /// Arithmetic shift right; amount modulo 32.
    ShrA,
    /// Unsigned minimum.
    UMin,
    /// Unsigned maximum.
    UMax,
    /// Signed minimum.
    SMin,
    /// Signed maximum.
    SMax,
    /// Integer comparison.
    ICmp(ICmp),
    /// Float add.
    FAdd,
    /// Float subtract.
    FSub,
    /// Float multiply.
    FMul,
    /// Float minimum.
    FMin,
    /// Float maximum.
    FMax,
    /// `x * 2^n` (F32, U32 holding a signed exponent).
    Ldexp,
    /// Float comparison.
    FCmp(FCmp),
    /// Logical and.
    BAnd,
    /// Logical or.
    BOr,
    /// Logical xor.
    BXor,
}

/// Three-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tri {
    /// `c ? a : b` (Bool, T, T).
    Select,
    /// Fused multiply-add.
    Fma,
}

/// Where a push-constant parameter word comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// User-data word `k`.
    UserData(u8),
    /// A dword of guest memory at the 64-bit pointer made of two other
    /// sources (`lo`, `hi`) plus a byte offset: a scalar load through a
    /// table pointer.
    TableWord {
        /// The low half.
        lo: SrcOrConst,
        /// The high half.
        hi: SrcOrConst,
        /// Byte offset from the pointer.
        offset: u32,
    },
    /// A dword of guest memory at the 64-bit pointer `(lo, hi)` plus a
    /// byte offset that is uniform per draw but not constant:
    /// `index · scale + offset` (mod 2³², as the SMEM offset sum is
    /// computed), `index` being another source. A scalar load through a
    /// table at a per-draw slot (`s_load_dwordx8 s[..], s[table], sN` with
    /// `sN = ud4 << 6`, a material index × 32, ...).
    IndexedTableWord {
        /// The low half.
        lo: SrcOrConst,
        /// The high half.
        hi: SrcOrConst,
        /// The per-draw index word.
        index: SrcOrConst,
        /// Bytes per index step.
        scale: u32,
        /// Byte offset added to `index · scale`.
        offset: u32,
    },
    /// A dword read by `s_buffer_load` through a descriptor whose four
    /// words are other sources, at a constant byte offset, with the
    /// hardware's range check (out of range reads 0).
    BufferWord {
        /// The descriptor words' sources.
        desc: [SrcOrConst; 4],
        /// Byte offset.
        offset: u32,
    },
}

/// A source index or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SrcOrConst {
    /// Index in [`Func::sources`].
    Src(u16),
    /// A constant word.
    Const(u32),
}

/// Per-invocation inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// The guest vertex id (host vertex index + push-constant offset).
    VertexId,
    /// The guest instance id (host instance index + offset).
    InstanceId,
    /// A parameter word (index in [`Func::sources`]).
    Param(u16),
    /// Compute: component 0..=2 of the workgroup id (host `WorkgroupId`).
    WorkgroupId(u8),
    /// Compute: component 0..=2 of the local invocation id (host
    /// `LocalInvocationId`).
    LocalId(u8),
    /// Compute: the flat local invocation index (host
    /// `LocalInvocationIndex`): wave `index / lanes`, lane `index % lanes`.
    LocalIndex,
    /// Pixel shaders: channel `chan` of attribute `attr` as the host's
    /// rasteriser interpolates it (`v_interp_p1`+`p2` on one pair of
    /// barycentrics, or `v_interp_mov … p0` for flat), as f32 bits.
    Interp {
        /// Attribute (the guest's `attrN`, the host's input location).
        attr: u8,
        /// Channel 0..=3.
        chan: u8,
        /// How it is interpolated.
        mode: InterpMode,
        /// `None`: the channel's word as f32 (`v_interp_p1/p2_f32`);
        /// `Some(high)`: the value of the f16 in that half of the word
        /// (`v_interp_p1ll_f16` + `v_interp_p2_f16`), as f32 bits, which
        /// the host interpolates in f32.
        f16: Option<bool>,
    },
    /// Pixel shaders: a barycentric entry VGPR read as a value (not by
    /// `v_interp_p1/p2`): the `which` weight (0: i, of vertex 1; 1: j, of
    /// vertex 2) of `pair`, as f32 bits. The host reads it from a helper
    /// input that the vertex stage gives the values (0, 0), (1, 0) and
    /// (0, 1) at the primitive's vertices 0, 1 and 2, interpolated in the
    /// pair's mode (manifest `FragmentInput::barycentrics`).
    Barycentric {
        /// The pair (its interpolation mode).
        pair: isa::Bary,
        /// 0 for i, 1 for j.
        which: u8,
    },
    /// Pixel shaders: `gl_FragCoord` component 0 (x) or 1 (y), f32 bits.
    FragCoord(u8),
    /// Pixel shaders: the guest's coarse shading rate as the `ancillary`
    /// entry VGPR's bits 5:2 hold it (bits 1:0 rate X, 3:2 rate Y, each
    /// log2 of the pixels a fragment covers; push word
    /// [`crate::manifest::PushKind::ShadingRate`]).
    ShadingRate,
    /// The guest address of the shader's first byte, low (`false`) or high
    /// (`true`) half: what `s_getpc_b64` counts from.
    CodeAddr(bool),
    /// NGG compute pass: the draw's vertex count (push word
    /// `OutVertexCount`).
    DrawVertexCount,
    /// NGG compute pass: the draw's first vertex id (push word
    /// `VertexIdOffset`).
    DrawFirstVertex,
    /// NGG compute pass: 1 when the draw's subgroups are listed in the
    /// `NggSubgroups` binding (indexed draws), 0 when they are counted
    /// (push word `NggIndexed`).
    NggIndexed,
    /// NGG compute pass: component 0..=2 of `NumWorkgroups`.
    GroupCount(u8),
}

/// A value from the other lanes of this lane's wave (compute shaders:
/// through workgroup memory between workgroup barriers, so every
/// invocation of the workgroup must reach it; [`crate::wave`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOp {
    /// The low (`hi` false) or high word of the wave's mask of `bit`.
    Ballot {
        /// This lane's bit (Bool).
        bit: Value,
        /// The high word (lanes 32..63).
        hi: bool,
    },
    /// `value` in the lowest lane whose `active` bit is set (lane 0 when
    /// none is).
    ReadFirst {
        /// The value (U32).
        value: Value,
        /// This lane's EXEC bit.
        active: Value,
    },
    /// `value` in lane `lane mod lanes`.
    ReadLane {
        /// The value (U32).
        value: Value,
        /// The lane number (uniform).
        lane: Value,
    },
    /// The LDS dword at byte address `addr` (rounded down to a dword; 0
    /// past the allocation), between barriers that order it after every
    /// earlier LDS write and before every later one, as the lanes of a
    /// wave in lock-step see it.
    LdsRead {
        /// Byte address.
        addr: Value,
    },
    /// Pixel shaders: DPP `quad_perm` with every source lane fetched
    /// (`fi`, or a quad known to be all on): `value` in the lane of this
    /// lane's quad whose position (`x & 1 | (y & 1) << 1` of the pixel,
    /// the hardware's order of a quad's lanes) is `perm[own position]`.
    Quad {
        /// The value (U32 or F32 bits).
        value: Value,
        /// The source position for each position.
        perm: [u8; 4],
    },
}

/// How a pixel-shader input is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InterpMode {
    /// The provoking vertex's value (`v_interp_mov_f32 … p0`).
    Flat,
    /// With these barycentrics.
    Bary(isa::Bary),
}

/// A memory read of one dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// `s_load_*`: guest memory at `{lo, hi} + offset`.
    Scalar {
        /// pc of the instruction.
        pc: u32,
        /// Pointer low half.
        lo: Value,
        /// Pointer high half.
        hi: Value,
        /// Byte offset (immediate + soffset + 4 × dword).
        offset: Value,
    },
    /// `s_buffer_load_*`: one dword through a descriptor, range-checked.
    ScalarBuf {
        /// pc.
        pc: u32,
        /// The descriptor words.
        desc: [Value; 4],
        /// Byte offset of the dword.
        offset: Value,
        /// The traced descriptor's binding, or `None` for the window.
        binding: Option<u16>,
    },
    /// A cross-lane value (compute shaders), with the pc of its
    /// instruction.
    Lanes(u32, LaneOp),
    /// MUBUF/MTBUF: one dword of a lane's access.
    Buffer(BufferAccess),
    /// Compute: `global_load_dword*`: one dword at a 64-bit guest address,
    /// through the window.
    Global {
        /// pc.
        pc: u32,
        /// The address.
        addr: GlobalAddr,
        /// Which dword of the access (0..=3).
        dword: u8,
    },
    /// NGG compute pass: word `word` of the `NggSubgroups` binding (0 past
    /// its end).
    NggList {
        /// The word index.
        word: Value,
    },
    /// MIMG: component `comp` (0..=3, x..w) of the result of the image
    /// operation [`Func::images`]`[op]` (every component of one operation
    /// is one host image instruction).
    Image {
        /// Index in [`Func::images`].
        op: u32,
        /// The component.
        comp: u8,
    },
}

/// The address of a `global_*` access: `{hi, lo}` (a VGPR pair, or an
/// SGPR pair with `offset`) + zero-extended `offset` + sign-extended `imm`,
/// 64-bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalAddr {
    /// Low word of the base.
    pub lo: Value,
    /// High word of the base.
    pub hi: Value,
    /// The 32-bit VGPR offset (SGPR-based addressing), else `None`.
    pub offset: Option<Value>,
    /// The instruction's signed immediate offset.
    pub imm: i32,
}

/// Where an atomic operates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicTarget {
    /// A buffer dword (MUBUF), addressed and range-checked as a load.
    Buffer(BufferAccess),
    /// A global dword.
    Global(GlobalAddr),
    /// An LDS dword at this byte address.
    Lds(Value),
}

/// A 32-bit atomic read-modify-write (SPIR-V `OpAtomic*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// old + x.
    Add,
    /// old − x.
    Sub,
    /// signed min.
    SMin,
    /// unsigned min.
    UMin,
    /// signed max.
    SMax,
    /// unsigned max.
    UMax,
    /// old & x.
    And,
    /// old | x.
    Or,
    /// old ^ x.
    Xor,
    /// x.
    Swap,
    /// x when old == the compare value.
    CmpSwap,
}

/// How an image sample picks its level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageLod {
    /// From the implicit derivatives (pixel shaders), plus an optional bias.
    Implicit {
        /// `_b`: the bias (f32 bits).
        bias: Option<Value>,
    },
    /// Level 0 (`_lz`).
    Zero,
    /// `_l`: this level (f32 bits).
    Explicit(Value),
}

/// What an image operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageOpKind {
    /// `image_sample*`: a filtered fetch through the sampler; with `compare`
    /// (`_c`, f32 bits) a depth comparison whose result is component x.
    Sample {
        /// The level of detail.
        lod: ImageLod,
        /// The depth-compare reference.
        compare: Option<Value>,
    },
    /// `image_gather4*`: component `comp` of the four texels of the
    /// bilinear footprint (x, y, z, w in the host's `OpImageGather` order).
    Gather {
        /// The level of detail (implicit without bias, zero or explicit).
        lod: ImageLod,
        /// The depth-compare reference.
        compare: Option<Value>,
        /// The gathered component (dmask's one bit).
        comp: u8,
    },
    /// `image_load*`: the texel at integer coordinates (mip 0).
    Load,
    /// `image_store*`: write a texel at integer coordinates (mip 0).
    Store,
}

/// One image instruction (MIMG).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageOp {
    /// pc.
    pub pc: u32,
    /// What it does.
    pub kind: ImageOpKind,
    /// The `dim` field.
    pub dim: crate::manifest::ImageDim,
    /// The T# words (4 with `r128`, else 8).
    pub texture: [Value; 8],
    /// T# words used (4 or 8).
    pub texture_words: u8,
    /// The S# words (samples and gathers).
    pub sampler: Option<[Value; 4]>,
    /// Coordinates (f32 bits for samples and gathers, integers for loads
    /// and stores; array slice last), `coords` of them.
    pub coord: [Value; 4],
    /// Number of coordinates.
    pub coords: u8,
    /// `_o`: the texel offset (constant; x, y, z as signed 6-bit fields
    /// at bits 0, 8, 16).
    pub offset: Option<u32>,
    /// Stores: the component values (x..w; components outside dmask are
    /// `None`).
    pub data: [Option<Value>; 4],
    /// The descriptor is element `index` of a host descriptor array fed
    /// from a guest table (a T#/S# at a per-lane table slot): `texture` and
    /// `sampler` are slot 0's words, and slot `k`'s are `k · scale` bytes
    /// further (manifest `ImageBinding::array`).
    pub array: Option<ArrayIndex>,
}

/// A per-lane element of a host descriptor array ([`ImageOp::array`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayIndex {
    /// The slot this lane reads (u32).
    pub index: Value,
    /// Bytes per slot in the guest table.
    pub scale: u32,
    /// The S# is at the same per-lane slot (else one S# for every slot).
    pub sampler_per_slot: bool,
}

/// One dword of a MUBUF/MTBUF access by one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferAccess {
    /// pc.
    pub pc: u32,
    /// The descriptor words.
    pub desc: [Value; 4],
    /// Record index (idxen), else `None`.
    pub index: Option<Value>,
    /// VGPR byte offset (offen), else `None`.
    pub voffset: Option<Value>,
    /// The SGPR byte offset.
    pub soffset: Value,
    /// Immediate offset.
    pub imm: u32,
    /// Which dword of the access (0..=3).
    pub dword: u8,
    /// The binding of the traced descriptor, or `None` for the fallback
    /// guest-memory window.
    pub binding: Option<u16>,
}

/// An export target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExportTarget {
    /// `pos0..pos3`.
    Pos(u8),
    /// `param0..param31`.
    Param(u8),
    /// Pixel shaders: colour target `mrt0..mrt7` (four f32 values; a
    /// compressed export's halves are widened to f32 by the lifter).
    Mrt(u8),
    /// Pixel shaders: `mrtz` (only its depth, component 0).
    Mrtz,
    /// Pixel shaders: `null` (it only says `done`).
    Null,
    /// NGG compute pass: `exp prim` (value 0: the packed primitive).
    Prim,
    /// NGG compute pass: M0 of `s_sendmsg GS_ALLOC_REQ` (value 0), written
    /// once per subgroup.
    AllocReq,
}

/// Something with an effect, kept in block order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `exp pos*/param*`: write up to four 32-bit values when `cond`.
    Export {
        /// pc.
        pc: u32,
        /// Target.
        target: ExportTarget,
        /// Values (`None` for `off`).
        values: [Option<Value>; 4],
        /// The lane's exec bit.
        cond: Value,
        /// The `done` bit: in a pixel shader, a lane whose exec bit is off
        /// at a `done` export is discarded.
        done: bool,
    },
    /// `--checked`: count a violation when `cond` and `index` is past the
    /// binding's narrowed last record.
    Check {
        /// pc of the access.
        pc: u32,
        /// Binding.
        binding: u16,
        /// Record index.
        index: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// A construct the translator cannot express (index in
    /// [`Func::unsupported`]); its inputs are in [`Func::problem_args`], so
    /// dead-code removal keeps what it needs and every unsupported value
    /// on the way is reported too. Never emitted.
    Problem {
        /// Index in [`Func::unsupported`].
        index: u32,
    },
    /// Compute: an LDS dword write at byte address `addr` (rounded down to
    /// a dword; dropped past the allocation) when `cond`.
    LdsWrite {
        /// Byte address.
        addr: Value,
        /// The dword.
        value: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// Compute: an LDS byte write (the low 8 bits of `value`) at byte
    /// address `addr` (dropped past the allocation) when `cond`; the other
    /// bytes of its dword are untouched, whatever other lanes write to them
    /// in the same instruction.
    LdsWriteByte {
        /// Byte address.
        addr: Value,
        /// The byte, in the low 8 bits.
        value: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// Compute: `s_barrier`, a workgroup control barrier.
    Barrier {
        /// pc of the instruction.
        pc: u32,
    },
    /// An image store ([`Func::images`]`[op]`) when `cond`.
    ImageStore {
        /// Index in [`Func::images`].
        op: u32,
        /// The lane's exec bit.
        cond: Value,
    },
    /// A buffer store of one dword when `cond`.
    Store {
        /// The address, as for a load.
        access: BufferAccess,
        /// Value to store.
        value: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// Compute: a global store of one dword when `cond`.
    GlobalStore {
        /// pc.
        pc: u32,
        /// The address.
        addr: GlobalAddr,
        /// Which dword of the access.
        dword: u8,
        /// Value to store.
        value: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// Compute: a store of the low `bytes` (1 or 2) of `value` when `cond`,
    /// byte by byte as atomic and/or on the dword holding each byte (other
    /// lanes' bytes of that dword are kept).
    SubDwordStore {
        /// pc.
        pc: u32,
        /// Where (a buffer or global address; not the LDS).
        target: AtomicTarget,
        /// 1 or 2.
        bytes: u8,
        /// The value (its low bytes are stored).
        value: Value,
        /// The lane's exec bit.
        cond: Value,
    },
    /// Compute: a 32-bit atomic when `cond`; its value (U32) is the old
    /// word when `returns` (0 for an inactive lane or an access outside
    /// the memory), else it has none.
    Atomic {
        /// pc.
        pc: u32,
        /// Where.
        target: AtomicTarget,
        /// What.
        op: AtomicOp,
        /// The operand.
        data: Value,
        /// The compare value of `CmpSwap`.
        cmp: Option<Value>,
        /// The lane's exec bit.
        cond: Value,
        /// Whether the instruction returns the old word.
        returns: bool,
    },
}

/// What an instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A constant (its bits; Bool is 0 or 1).
    Const(u32),
    /// An input.
    Input(Input),
    /// Parameter `n` of a block.
    BlockParam(Block, u16),
    /// One operand.
    Un(Un, Value),
    /// Two operands.
    Bin(Bin, Value, Value),
    /// Three operands.
    Tri(Tri, Value, Value, Value),
    /// A load (index in [`Func::loads`]).
    Load(u32),
    /// An effect (index in [`Func::effects`]).
    Effect(u32),
    /// A value the translator cannot produce exactly (index in
    /// [`Func::unsupported`]); an error if it survives dead-code removal.
    Unsupported(u32),
}

/// An instruction: an operation and its result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    /// The operation.
    pub op: Op,
    /// The result type.
    pub ty: Ty,
}

/// An edge to a block, with the block's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The target.
    pub block: Block,
    /// One value per parameter of the target.
    pub args: Vec<Value>,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Not yet set.
    None,
    /// Go to a block.
    Jump(Edge),
    /// Two-way branch on a Bool.
    Branch {
        /// The condition.
        cond: Value,
        /// Taken when true.
        then: Edge,
        /// Taken when false.
        els: Edge,
    },
    /// End of the program.
    Return,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockData {
    /// Parameters (values with [`Op::BlockParam`]).
    pub params: Vec<Value>,
    /// Instructions in order (pure ones and effects).
    pub insts: Vec<Value>,
    /// The terminator.
    pub term: Term,
    /// pc of the first guest instruction (for messages).
    pub pc: u32,
}

/// A construct the translator cannot express, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unsupported {
    /// pc of the instruction.
    pub pc: u32,
    /// The instruction's text.
    pub inst: String,
    /// What cannot be translated (its `Display` is the reason text,
    /// serialized as `reason`).
    #[serde(rename = "reason")]
    pub construct: crate::Construct,
}

/// A function: the whole translated shader.
#[derive(Clone, Debug, Default)]
pub struct Func {
    /// Instruction arena.
    pub insts: Vec<Inst>,
    /// Block arena; block 0 is the entry.
    pub blocks: Vec<BlockData>,
    /// Load side table.
    pub loads: Vec<Load>,
    /// Effect side table.
    pub effects: Vec<Effect>,
    /// Unsupported side table.
    pub unsupported: Vec<Unsupported>,
    /// Image operations ([`Load::Image`], [`Effect::ImageStore`]).
    pub images: Vec<ImageOp>,
    /// Parameter sources (deduplicated).
    pub sources: Vec<Source>,
    /// Liveness after dead-code removal (empty: everything is live).
    pub live: Vec<bool>,
    /// Inputs of each [`Effect::Problem`], by its index.
    pub problem_args: std::collections::HashMap<u32, Vec<Value>>,
    /// Pending "does any lane's bit of this mask hold" questions (the SCC
    /// of a lane-mask operation outside the compute model): the
    /// [`Op::Unsupported`] value and the mask (this lane's bit). The
    /// question becomes the mask's constant when
    /// `passes::known::known_values` proves the mask constant.
    pub any_lane: Vec<(Value, Value)>,
}

impl Func {
    /// The instruction of a value.
    pub fn inst(&self, v: Value) -> &Inst {
        &self.insts[v.0 as usize]
    }
    /// Whether a value survived dead-code removal.
    pub fn is_live(&self, v: Value) -> bool {
        self.live.get(v.0 as usize).copied().unwrap_or(true)
    }
    /// The type of a value.
    pub fn ty(&self, v: Value) -> Ty {
        self.insts[v.0 as usize].ty
    }
    /// The constant bits of a value, if it is a constant.
    pub fn konst(&self, v: Value) -> Option<u32> {
        match self.insts[v.0 as usize].op {
            Op::Const(c) => Some(c),
            _ => None,
        }
    }
    /// Intern a parameter source.
    pub fn source(&mut self, s: Source) -> u16 {
        if let Some(i) = self.sources.iter().position(|x| *x == s) {
            return i as u16;
        }
        self.sources.push(s);
        (self.sources.len() - 1) as u16
    }
    /// The operands of an instruction (block-terminator uses excluded).
    pub fn operands(&self, v: Value, out: &mut Vec<Value>) {
        match self.insts[v.0 as usize].op {
            Op::Const(_) | Op::Input(_) | Op::BlockParam(..) | Op::Unsupported(_) => {}
            Op::Un(_, a) => out.push(a),
            Op::Bin(_, a, b) => out.extend([a, b]),
            Op::Tri(_, a, b, c) => out.extend([a, b, c]),
            Op::Load(i) => match self.loads[i as usize] {
                Load::Scalar { lo, hi, offset, .. } => out.extend([lo, hi, offset]),
                Load::ScalarBuf { desc, offset, .. } => {
                    out.extend(desc);
                    out.push(offset)
                }
                Load::Buffer(a) => access_operands(&a, out),
                Load::Global { addr, .. } => global_operands(&addr, out),
                Load::NggList { word } => out.push(word),
                Load::Image { op, .. } => image_operands(&self.images[op as usize], out),
                Load::Lanes(_, l) => match l {
                    LaneOp::Ballot { bit, .. } => out.push(bit),
                    LaneOp::ReadFirst { value, active } => out.extend([value, active]),
                    LaneOp::ReadLane { value, lane } => out.extend([value, lane]),
                    LaneOp::LdsRead { addr } => out.push(addr),
                    LaneOp::Quad { value, .. } => out.push(value),
                },
            },
            Op::Effect(i) => match self.effects[i as usize] {
                Effect::Export { values, cond, .. } => {
                    out.extend(values.iter().flatten());
                    out.push(cond)
                }
                Effect::Check { index, cond, .. } => out.extend([index, cond]),
                Effect::Problem { index } => {
                    if let Some(a) = self.problem_args.get(&index) {
                        out.extend(a.iter().copied())
                    }
                }
                Effect::Store {
                    access,
                    value,
                    cond,
                } => {
                    access_operands(&access, out);
                    out.extend([value, cond])
                }
                Effect::LdsWrite { addr, value, cond }
                | Effect::LdsWriteByte { addr, value, cond } => out.extend([addr, value, cond]),
                Effect::ImageStore { op, cond } => {
                    image_operands(&self.images[op as usize], out);
                    out.push(cond)
                }
                Effect::Barrier { .. } => {}
                Effect::GlobalStore {
                    addr, value, cond, ..
                } => {
                    global_operands(&addr, out);
                    out.extend([value, cond])
                }
                Effect::SubDwordStore {
                    target,
                    value,
                    cond,
                    ..
                } => {
                    target_operands(&target, out);
                    out.extend([value, cond])
                }
                Effect::Atomic {
                    target,
                    data,
                    cmp,
                    cond,
                    ..
                } => {
                    target_operands(&target, out);
                    out.extend(cmp);
                    out.extend([data, cond])
                }
            },
        }
    }
}

fn target_operands(t: &AtomicTarget, out: &mut Vec<Value>) {
    match t {
        AtomicTarget::Buffer(a) => access_operands(a, out),
        AtomicTarget::Global(a) => global_operands(a, out),
        AtomicTarget::Lds(a) => out.push(*a),
    }
}

fn global_operands(a: &GlobalAddr, out: &mut Vec<Value>) {
    out.extend([a.lo, a.hi]);
    out.extend(a.offset);
}

fn image_operands(i: &ImageOp, out: &mut Vec<Value>) {
    out.extend(&i.texture[..i.texture_words as usize]);
    out.extend(i.sampler.iter().flatten());
    out.extend(&i.coord[..i.coords as usize]);
    out.extend(i.data.iter().flatten());
    out.extend(i.array.map(|a| a.index));
    let (lod, compare) = match i.kind {
        ImageOpKind::Sample { lod, compare } | ImageOpKind::Gather { lod, compare, .. } => {
            (lod, compare)
        }
        _ => (ImageLod::Zero, None),
    };
    match lod {
        ImageLod::Implicit { bias: Some(b) } | ImageLod::Explicit(b) => out.push(b),
        _ => {}
    }
    out.extend(compare);
}

impl Func {
    /// Replace every operand `x` of instruction `v` by `m(x)` (the operands
    /// [`Func::operands`] lists, in the same places; block-terminator uses
    /// are not instructions' and stay).
    pub fn map_operands(&mut self, v: Value, m: &impl Fn(Value) -> Value) {
        let acc = |a: &mut BufferAccess| {
            a.desc = a.desc.map(m);
            a.index = a.index.map(m);
            a.voffset = a.voffset.map(m);
            a.soffset = m(a.soffset);
        };
        let inst = &mut self.insts[v.0 as usize];
        match &mut inst.op {
            Op::Const(_) | Op::Input(_) | Op::BlockParam(..) | Op::Unsupported(_) => {}
            Op::Un(_, a) => *a = m(*a),
            Op::Bin(_, a, b) => {
                *a = m(*a);
                *b = m(*b);
            }
            Op::Tri(_, a, b, c) => {
                *a = m(*a);
                *b = m(*b);
                *c = m(*c);
            }
            Op::Load(i) => match &mut self.loads[*i as usize] {
                Load::Scalar { lo, hi, offset, .. } => {
                    *lo = m(*lo);
                    *hi = m(*hi);
                    *offset = m(*offset);
                }
                Load::ScalarBuf { desc, offset, .. } => {
                    *desc = desc.map(m);
                    *offset = m(*offset);
                }
                Load::Buffer(a) => acc(a),
                Load::Lanes(_, l) => match l {
                    LaneOp::Ballot { bit, .. } => *bit = m(*bit),
                    LaneOp::ReadFirst { value, active } => {
                        *value = m(*value);
                        *active = m(*active);
                    }
                    LaneOp::ReadLane { value, lane } => {
                        *value = m(*value);
                        *lane = m(*lane);
                    }
                    LaneOp::LdsRead { addr } => *addr = m(*addr),
                    LaneOp::Quad { value, .. } => *value = m(*value),
                },
                Load::Global { addr, .. } => map_global(addr, m),
                Load::NggList { word } => *word = m(*word),
                Load::Image { .. } => {}
            },
            Op::Effect(i) => match &mut self.effects[*i as usize] {
                Effect::Export { values, cond, .. } => {
                    for x in values.iter_mut().flatten() {
                        *x = m(*x);
                    }
                    *cond = m(*cond);
                }
                Effect::Check { index, cond, .. } => {
                    *index = m(*index);
                    *cond = m(*cond);
                }
                Effect::Problem { index } => {
                    if let Some(a) = self.problem_args.get_mut(index) {
                        for x in a.iter_mut() {
                            *x = m(*x);
                        }
                    }
                }
                Effect::Store {
                    access,
                    value,
                    cond,
                } => {
                    acc(access);
                    *value = m(*value);
                    *cond = m(*cond);
                }
                Effect::LdsWrite { addr, value, cond }
                | Effect::LdsWriteByte { addr, value, cond } => {
                    *addr = m(*addr);
                    *value = m(*value);
                    *cond = m(*cond);
                }
                Effect::Barrier { .. } => {}
                Effect::ImageStore { cond, .. } => *cond = m(*cond),
                Effect::GlobalStore {
                    addr, value, cond, ..
                } => {
                    map_global(addr, m);
                    *value = m(*value);
                    *cond = m(*cond);
                }
                Effect::SubDwordStore {
                    target,
                    value,
                    cond,
                    ..
                } => {
                    map_target(target, m, &acc);
                    *value = m(*value);
                    *cond = m(*cond);
                }
                Effect::Atomic {
                    target,
                    data,
                    cmp,
                    cond,
                    ..
                } => {
                    map_target(target, m, &acc);
                    *data = m(*data);
                    *cmp = cmp.map(m);
                    *cond = m(*cond);
                }
            },
        }
        // Image operations keep their operands in `images`: map the ones
        // this instruction names.
        let image = match &self.insts[v.0 as usize].op {
            Op::Load(i) => match self.loads[*i as usize] {
                Load::Image { op, .. } => Some(op),
                _ => None,
            },
            Op::Effect(i) => match self.effects[*i as usize] {
                Effect::ImageStore { op, .. } => Some(op),
                _ => None,
            },
            _ => None,
        };
        if let Some(op) = image {
            map_image(&mut self.images[op as usize], m);
        }
    }
}

fn access_operands(a: &BufferAccess, out: &mut Vec<Value>) {
    out.extend(a.desc);
    out.extend(a.index);
    out.extend(a.voffset);
    out.push(a.soffset);
}

/// Builds a [`Func`], folding constants as it goes.
#[derive(Debug, Default)]
pub struct Builder {
    /// The function being built.
    pub func: Func,
    /// The block instructions are appended to.
    pub cur: Option<Block>,
    consts: HashMap<(u32, u8), Value>,
    inputs: HashMap<Input, Value>,
}

fn ty_key(t: Ty) -> u8 {
    match t {
        Ty::Bool => 0,
        Ty::U32 => 1,
        Ty::F32 => 2,
        Ty::Void => 3,
    }
}

impl Builder {
    /// A builder with an empty entry block.
    pub fn new() -> Builder {
        let mut b = Builder::default();
        let e = b.new_block(0);
        b.cur = Some(e);
        b
    }

    /// A new empty block.
    pub fn new_block(&mut self, pc: u32) -> Block {
        self.func.blocks.push(BlockData {
            params: Vec::new(),
            insts: Vec::new(),
            term: Term::None,
            pc,
        });
        Block(self.func.blocks.len() as u32 - 1)
    }

    fn push_raw(&mut self, op: Op, ty: Ty) -> Value {
        self.func.insts.push(Inst { op, ty });
        Value(self.func.insts.len() as u32 - 1)
    }

    fn push(&mut self, op: Op, ty: Ty) -> Value {
        let v = self.push_raw(op, ty);
        if let Some(b) = self.cur {
            self.func.blocks[b.0 as usize].insts.push(v);
        }
        v
    }

    /// A constant of type `ty` (global: emitted once for the module).
    pub fn konst(&mut self, ty: Ty, bits: u32) -> Value {
        let bits = if ty == Ty::Bool {
            (bits != 0) as u32
        } else {
            bits
        };
        if let Some(&v) = self.consts.get(&(bits, ty_key(ty))) {
            return v;
        }
        let v = self.push_raw(Op::Const(bits), ty);
        self.consts.insert((bits, ty_key(ty)), v);
        v
    }
    /// A U32 constant.
    pub fn u32(&mut self, c: u32) -> Value {
        self.konst(Ty::U32, c)
    }
    /// A Bool constant.
    pub fn bool(&mut self, b: bool) -> Value {
        self.konst(Ty::Bool, b as u32)
    }
    /// An input (global: read once at entry).
    pub fn input(&mut self, i: Input) -> Value {
        if let Some(&v) = self.inputs.get(&i) {
            return v;
        }
        let v = self.push_raw(Op::Input(i), Ty::U32);
        self.inputs.insert(i, v);
        v
    }
    /// A parameter of a block.
    pub fn block_param(&mut self, b: Block, ty: Ty) -> Value {
        let n = self.func.blocks[b.0 as usize].params.len() as u16;
        let v = self.push_raw(Op::BlockParam(b, n), ty);
        self.func.blocks[b.0 as usize].params.push(v);
        v
    }
    /// Record an unsupported construct as a value of type `ty`.
    pub fn unsupported(&mut self, ty: Ty, u: Unsupported) -> Value {
        self.func.unsupported.push(u);
        let i = self.func.unsupported.len() as u32 - 1;
        self.push(Op::Unsupported(i), ty)
    }
    /// A load.
    pub fn load(&mut self, l: Load) -> Value {
        self.func.loads.push(l);
        let i = self.func.loads.len() as u32 - 1;
        self.push(Op::Load(i), Ty::U32)
    }
    /// An effect, appended to the current block.
    pub fn effect(&mut self, e: Effect) -> Value {
        self.func.effects.push(e);
        let i = self.func.effects.len() as u32 - 1;
        self.push(Op::Effect(i), Ty::Void)
    }
    /// An effect with a U32 value (an atomic that returns the old word),
    /// appended to the current block.
    pub fn effect_value(&mut self, e: Effect) -> Value {
        self.func.effects.push(e);
        let i = self.func.effects.len() as u32 - 1;
        self.push(Op::Effect(i), Ty::U32)
    }
    /// Set the current block's terminator.
    pub fn terminate(&mut self, t: Term) {
        if let Some(b) = self.cur {
            self.func.blocks[b.0 as usize].term = t;
        }
    }

    fn k(&self, v: Value) -> Option<u32> {
        self.func.konst(v)
    }

    /// A one-operand operation, folded when the operand is constant.
    pub fn un(&mut self, op: Un, a: Value) -> Value {
        let ty = un_ty(op);
        if let Some(x) = self.k(a) {
            if let Some(r) = fold_un(op, x) {
                return self.konst(ty, r);
            }
        }
        // not(not(x)) = x
        if let Op::Un(inner, x) = self.func.inst(a).op {
            if (op == Un::BNot && inner == Un::BNot)
                || (op == Un::Not && inner == Un::Not)
                || (op == Un::AsF32 && inner == Un::AsU32)
                || (op == Un::AsU32 && inner == Un::AsF32)
            {
                return x;
            }
        }
        self.push(Op::Un(op, a), ty)
    }

    /// `h` when `v` is `(x & 0xffff0000) | h` (either order): the
    /// low 16 bits of `v` are those of `h`.
    fn low_half_source(&self, v: Value) -> Option<Value> {
        let Op::Bin(Bin::Or, p, q) = self.func.inst(v).op else {
            return None;
        };
        let high_only = |w: Value| match self.func.inst(w).op {
            Op::Bin(Bin::And, _, m) => self.k(m) == Some(0xffff_0000),
            _ => false,
        };
        if high_only(p) {
            Some(q)
        } else if high_only(q) {
            Some(p)
        } else {
            None
        }
    }

    /// A two-operand operation, folded when possible.
    pub fn bin(&mut self, op: Bin, a: Value, b: Value) -> Value {
        let ty = bin_ty(op);
        let (ka, kb) = (self.k(a), self.k(b));
        if let (Some(x), Some(y)) = (ka, kb) {
            if let Some(r) = fold_bin(op, x, y) {
                return self.konst(ty, r);
            }
        }
        // Identities that hold for every bit pattern.
        match op {
            Bin::Add | Bin::Or | Bin::Xor | Bin::Sub | Bin::Shl | Bin::ShrL | Bin::ShrA
                if kb == Some(0) =>
            {
                return a
            }
            Bin::Add | Bin::Or | Bin::Xor if ka == Some(0) => return b,
            Bin::And | Bin::Mul if kb == Some(0) || ka == Some(0) => return self.u32(0),
            Bin::And if kb == Some(u32::MAX) => return a,
            // The low half of a word whose high half was kept and low half
            // replaced (`(old & 0xffff0000) | h`): the low half of `h`.
            Bin::And if kb == Some(0xffff) => {
                if let Some(h) = self.low_half_source(a) {
                    return self.push(Op::Bin(Bin::And, h, b), ty);
                }
            }
            Bin::And if ka == Some(u32::MAX) => return b,
            Bin::Or if kb == Some(u32::MAX) || ka == Some(u32::MAX) => return self.u32(u32::MAX),
            Bin::Mul if kb == Some(1) => return a,
            Bin::Mul if ka == Some(1) => return b,
            Bin::BAnd if kb == Some(1) => return a,
            Bin::BAnd if ka == Some(1) => return b,
            Bin::BAnd if kb == Some(0) || ka == Some(0) => return self.bool(false),
            Bin::BOr if kb == Some(0) => return a,
            Bin::BOr if ka == Some(0) => return b,
            Bin::BOr if kb == Some(1) || ka == Some(1) => return self.bool(true),
            Bin::BXor if kb == Some(0) => return a,
            Bin::BXor if ka == Some(0) => return b,
            Bin::BXor if kb == Some(1) => return self.un(Un::BNot, a),
            Bin::BXor if ka == Some(1) => return self.un(Un::BNot, b),
            Bin::BAnd | Bin::BOr if a == b => return a,
            Bin::BXor if a == b => return self.bool(false),
            Bin::ICmp(ICmp::Eq) if a == b => return self.bool(true),
            Bin::ICmp(ICmp::Ne) if a == b => return self.bool(false),
            _ => {}
        }
        self.push(Op::Bin(op, a, b), ty)
    }

    /// A three-operand operation, folded when possible.
    pub fn tri(&mut self, op: Tri, a: Value, b: Value, c: Value) -> Value {
        match op {
            Tri::Select => {
                if let Some(x) = self.k(a) {
                    return if x != 0 { b } else { c };
                }
                if b == c {
                    return b;
                }
                let ty = self.func.ty(b);
                if ty == Ty::Bool {
                    // select(a, true, false) = a, select(a, false, true) = !a
                    match (self.k(b), self.k(c)) {
                        (Some(1), Some(0)) => return a,
                        (Some(0), Some(1)) => return self.un(Un::BNot, a),
                        _ => {}
                    }
                }
                self.push(Op::Tri(op, a, b, c), ty)
            }
            Tri::Fma => {
                if let (Some(x), Some(y), Some(z)) = (self.k(a), self.k(b), self.k(c)) {
                    let r = f32::from_bits(x).mul_add(f32::from_bits(y), f32::from_bits(z));
                    return self.konst(Ty::F32, r.to_bits());
                }
                self.push(Op::Tri(op, a, b, c), Ty::F32)
            }
        }
    }

    /// `c ? a : b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.tri(Tri::Select, c, a, b)
    }
    /// `a + b` (U32).
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.bin(Bin::Add, a, b)
    }
    /// Integer comparison.
    pub fn icmp(&mut self, c: ICmp, a: Value, b: Value) -> Value {
        self.bin(Bin::ICmp(c), a, b)
    }
}

/// Result type of a one-operand operation.
pub fn un_ty(op: Un) -> Ty {
    match op {
        Un::BNot | Un::IsNan => Ty::Bool,
        Un::Not
        | Un::AsU32
        | Un::BoolToU32
        | Un::U32FromF32
        | Un::I32FromF32
        | Un::CountOnes
        | Un::BitReverse => Ty::U32,
        _ => Ty::F32,
    }
}

/// Result type of a two-operand operation.
pub fn bin_ty(op: Bin) -> Ty {
    match op {
        Bin::ICmp(_) | Bin::FCmp(_) | Bin::BAnd | Bin::BOr | Bin::BXor => Ty::Bool,
        Bin::FAdd | Bin::FSub | Bin::FMul | Bin::FMin | Bin::FMax | Bin::Ldexp => Ty::F32,
        _ => Ty::U32,
    }
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Fold a one-operand operation on constant bits, where the host result is
/// exactly the GPU's. `None` for operations whose GPU result may differ
/// (transcendentals), which are left to the device.
pub fn fold_un(op: Un, x: u32) -> Option<u32> {
    Some(match op {
        Un::Not => !x,
        Un::BNot => (x == 0) as u32,
        Un::AsF32 | Un::AsU32 => x,
        Un::BoolToU32 => x,
        Un::FNeg => x ^ 0x8000_0000,
        Un::FAbs => x & 0x7fff_ffff,
        Un::Floor => f(x).floor().to_bits(),
        Un::Ceil => f(x).ceil().to_bits(),
        Un::Trunc => f(x).trunc().to_bits(),
        Un::RoundEven => f(x).round_ties_even().to_bits(),
        Un::F32FromU32 => (x as f32).to_bits(),
        Un::F32FromI32 => (x as i32 as f32).to_bits(),
        Un::U32FromF32 => f(x) as u32,
        Un::I32FromF32 => f(x) as i32 as u32,
        Un::CountOnes => x.count_ones(),
        Un::BitReverse => x.reverse_bits(),
        Un::IsNan => f(x).is_nan() as u32,
        _ => return None,
    })
}

/// Fold a two-operand operation on constant bits (see [`fold_un`]).
pub fn fold_bin(op: Bin, x: u32, y: u32) -> Option<u32> {
    Some(match op {
        Bin::Add => x.wrapping_add(y),
        Bin::Sub => x.wrapping_sub(y),
        Bin::Mul => x.wrapping_mul(y),
        Bin::MulHiU => ((x as u64 * y as u64) >> 32) as u32,
        Bin::MulHiI => ((x as i32 as i64 * y as i32 as i64) >> 32) as u32,
        Bin::And => x & y,
        Bin::Or => x | y,
        Bin::Xor => x ^ y,
        Bin::Shl => x << (y & 31),
        Bin::ShrL => x >> (y & 31),
        Bin::ShrA => ((x as i32) >> (y & 31)) as u32,
        Bin::UMin => x.min(y),
        Bin::UMax => x.max(y),
        Bin::SMin => (x as i32).min(y as i32) as u32,
        Bin::SMax => (x as i32).max(y as i32) as u32,
        Bin::ICmp(c) => {
            (match c {
                ICmp::Eq => x == y,
                ICmp::Ne => x != y,
                ICmp::ULt => x < y,
                ICmp::ULe => x <= y,
                ICmp::SLt => (x as i32) < (y as i32),
                ICmp::SLe => (x as i32) <= (y as i32),
            }) as u32
        }
        Bin::FAdd => (f(x) + f(y)).to_bits(),
        Bin::FSub => (f(x) - f(y)).to_bits(),
        Bin::FMul => (f(x) * f(y)).to_bits(),
        Bin::FCmp(FCmp(m)) => {
            let (a, b) = (f(x), f(y));
            let bit = if a.is_nan() || b.is_nan() {
                FCmp::UNORD
            } else if a < b {
                FCmp::LT
            } else if a > b {
                FCmp::GT
            } else {
                FCmp::EQ
            };
            (m & bit != 0) as u32
        }
        Bin::BAnd => x & y & 1,
        Bin::BOr => (x | y) & 1,
        Bin::BXor => (x ^ y) & 1,
        _ => return None,
    })
}

impl std::fmt::Display for Func {
    /// A readable listing: globals (constants and inputs) first, then each
    /// block with its parameters, live instructions and terminator.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ty = |t: Ty| match t {
            Ty::Bool => "bool",
            Ty::U32 => "u32",
            Ty::F32 => "f32",
            Ty::Void => "void",
        };
        for (i, inst) in self.insts.iter().enumerate() {
            if !self.is_live(Value(i as u32)) {
                continue;
            }
            match inst.op {
                Op::Const(c) => writeln!(f, "v{i}: {} = const {c:#x}", ty(inst.ty))?,
                Op::Input(Input::Param(s)) => {
                    writeln!(f, "v{i}: u32 = param {:?}", self.sources[s as usize])?
                }
                Op::Input(inp) => writeln!(f, "v{i}: u32 = {inp:?}")?,
                _ => {}
            }
        }
        let edge = |f: &mut std::fmt::Formatter<'_>, e: &Edge| {
            write!(f, "block{}(", e.block.0)?;
            for (k, a) in e.args.iter().enumerate() {
                if k > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "v{}", a.0)?;
            }
            write!(f, ")")
        };
        for (bi, b) in self.blocks.iter().enumerate() {
            write!(f, "block{bi}(")?;
            for (k, p) in b.params.iter().enumerate() {
                if k > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "v{}: {}", p.0, ty(self.ty(*p)))?;
            }
            writeln!(f, "):  ; pc {:#x}", b.pc)?;
            for &v in &b.insts {
                let inst = self.inst(v);
                match inst.op {
                    Op::Const(_) | Op::Input(_) => {}
                    Op::Un(op, a) => writeln!(f, "  v{}: {} = {op:?} v{}", v.0, ty(inst.ty), a.0)?,
                    Op::Bin(op, a, c) => {
                        writeln!(f, "  v{}: {} = {op:?} v{}, v{}", v.0, ty(inst.ty), a.0, c.0)?
                    }
                    Op::Tri(op, a, c, d) => writeln!(
                        f,
                        "  v{}: {} = {op:?} v{}, v{}, v{}",
                        v.0,
                        ty(inst.ty),
                        a.0,
                        c.0,
                        d.0
                    )?,
                    Op::Load(l) => {
                        writeln!(f, "  v{}: u32 = load {:?}", v.0, self.loads[l as usize])?
                    }
                    Op::Effect(e) => writeln!(f, "  {:?}", self.effects[e as usize])?,
                    Op::Unsupported(u) => writeln!(
                        f,
                        "  v{}: {} = unsupported {:?}",
                        v.0,
                        ty(inst.ty),
                        self.unsupported[u as usize].construct.to_string()
                    )?,
                    Op::BlockParam(..) => {}
                }
            }
            match &b.term {
                Term::None => writeln!(f, "  <no terminator>")?,
                Term::Return => writeln!(f, "  return")?,
                Term::Jump(e) => {
                    write!(f, "  jump ")?;
                    edge(f, e)?;
                    writeln!(f)?;
                }
                Term::Branch { cond, then, els } => {
                    write!(f, "  branch v{} ? ", cond.0)?;
                    edge(f, then)?;
                    write!(f, " : ")?;
                    edge(f, els)?;
                    writeln!(f)?;
                }
            }
        }
        Ok(())
    }
}

fn map_global(a: &mut GlobalAddr, m: &impl Fn(Value) -> Value) {
    a.lo = m(a.lo);
    a.hi = m(a.hi);
    a.offset = a.offset.map(m);
}

fn map_target(t: &mut AtomicTarget, m: &impl Fn(Value) -> Value, acc: &impl Fn(&mut BufferAccess)) {
    match t {
        AtomicTarget::Buffer(a) => acc(a),
        AtomicTarget::Global(g) => map_global(g, m),
        AtomicTarget::Lds(x) => *x = m(*x),
    }
}

fn map_image(i: &mut ImageOp, m: &impl Fn(Value) -> Value) {
    i.texture = i.texture.map(m);
    i.sampler = i.sampler.map(|s| s.map(m));
    i.coord = i.coord.map(m);
    i.data = i.data.map(|d| d.map(m));
    if let Some(a) = i.array.as_mut() {
        a.index = m(a.index);
    }
    let map_lod = |l: &mut ImageLod| match l {
        ImageLod::Implicit { bias: Some(b) } | ImageLod::Explicit(b) => *b = m(*b),
        _ => {}
    };
    match &mut i.kind {
        ImageOpKind::Sample { lod, compare } | ImageOpKind::Gather { lod, compare, .. } => {
            map_lod(lod);
            *compare = compare.map(m);
        }
        ImageOpKind::Load | ImageOpKind::Store => {}
    }
}
