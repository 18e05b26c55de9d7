//! What kept a shader from translating, as a value.
//!
//! Every [`crate::ir::Unsupported`] names its construct with a
//! [`Construct`]: a class (the variant) and, inside it, the exact case. Its
//! `Display` is the text `shaderlift translate` prints (and the snapshots
//! pin); [`Construct::code`] is the short class name tools show in a
//! summary (`lds`, `cross-lane`, ...). Tools match on the value or its
//! code, never on the text.

use core::fmt;
use isa::{Opcode, Stage};

/// A construct the translator cannot express exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Construct {
    /// A stage that is not a vertex stage.
    Stage(StageKind),
    /// Control flow: the graph, loops, falling off the end.
    Control(Control),
    /// Bytes that do not decode (the instruction text says why).
    Undecodable,
    /// The local data share, shared between lanes.
    Lds(Lds),
    /// A value or an effect that needs other lanes.
    CrossLane(CrossLane),
    /// Scalar state or EXEC changed inside a region a per-lane EXEC branch
    /// skips.
    ExecInRegion(ExecRegion),
    /// Pixel-shader inputs: parameter interpolation (`v_interp_*`) and
    /// entry VGPRs the translation cannot give.
    Interpolation(Interp),
    /// Image instructions (MIMG): a form the translation does not give.
    Image(Image),
    /// Packed 16-bit math (VOP3P).
    PackedMath,
    /// Memory the translator does not model: stores, atomics, some loads.
    Memory(Memory),
    /// An export the vertex stages do not have.
    Export(Export),
    /// A VGPR read before it is written that the entry ABI does not define.
    UndefinedVgpr {
        /// The VGPR number.
        vgpr: u16,
        /// The shader's stage.
        stage: Stage,
        /// The VGPR the ABI puts the vertex id in.
        vertex_id: Option<u8>,
        /// The VGPR the ABI puts the instance id in.
        instance_id: Option<u8>,
    },
    /// An instruction the lifter has no translation for.
    Opcode {
        /// Its opcode.
        opcode: Opcode,
        /// Which part of the lifter refused it.
        class: OpcodeClass,
    },
    /// A form, modifier or operand of an otherwise translated instruction.
    Form(Form),
}

/// Stages the translator does not target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// A pixel (fragment) shader.
    Pixel,
    /// A compute shader without its entry state (workgroup size and entry
    /// registers, [`crate::wave::ComputeEntry`]).
    Compute,
    /// A compute workgroup size Vulkan does not guarantee (0 or more than
    /// 1024 invocations).
    WorkgroupSize([u32; 3]),
    /// `translate_ngg` of a shader that is not an NGG vertex shader.
    NggPass(Stage),
}

/// Control flow that cannot be translated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// The code is empty.
    NoCode,
    /// A branch whose target is outside the code or inside an instruction.
    BranchTarget,
    /// A conditional branch falls through past the end of the code.
    OffEnd,
    /// The last block falls through past the end of the code.
    OffEndNoEndpgm,
    /// A loop whose back edge depends on EXEC (each lane would leave on its
    /// own).
    PerLaneLoop {
        /// pc of the loop head.
        head: u32,
    },
    /// A back edge to a loop head the walk never reached.
    UnreachedLoopHead {
        /// pc of the loop head.
        head: u32,
    },
    /// The block graph cannot be structured.
    Structure(crate::structure::StructureError),
}

/// Uses of the local data share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lds {
    /// A DS instruction.
    Access,
    /// `src_lds_direct` as an operand.
    Direct,
    /// A buffer load into LDS.
    BufferLoad,
}

/// Values and effects that need other lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrossLane {
    /// DPP.
    Dpp,
    /// An instruction that reads or writes other lanes' registers
    /// (permlane, movrel, other cross-lane VALU).
    Registers,
    /// `v_writelane_b32`.
    Writelane,
    /// `v_readlane_b32` of a VGPR.
    Readlane,
    /// `v_mbcnt_*`.
    Mbcnt,
    /// A lane mask made from a uniform word other than 0 or all ones.
    MaskFromWord,
    /// A lane mask read as a word (a ballot).
    MaskAsWord,
    /// `src_vccz`/`src_execz`.
    AnyLaneTest,
    /// SCC of a lane-mask operation.
    MaskScc,
    /// `s_cbranch_vccz`/`vccnz` on a lane mask.
    VccBranch,
    /// A wave64 lane mask whose halves are different values.
    MaskHalves,
    /// Compute: a cross-lane operation (through workgroup memory and
    /// barriers) where the invocations of a workgroup may not all arrive:
    /// inside a per-lane branch, or under a branch that can differ between
    /// the waves of a workgroup.
    DivergentWaveOp,
    /// Pixel shaders: a DPP quad permutation whose value is defined where
    /// some invocations of the quad may be inactive on the host (inside a
    /// per-lane branch, or after an export that may discard).
    DivergentQuadOp,
    /// `s_wqm` of a mask that may leave lanes of a quad off (it turns on
    /// the lanes of every quad with one lane on).
    WholeQuad,
    /// Compute, a workgroup of several waves run one wave per host
    /// workgroup (so that each wave branches on its own EXEC): LDS or
    /// `s_barrier`, which the guest's waves share and separate host
    /// workgroups would not.
    SharedAcrossWaves,
    /// After a waterfall loop (`lift/waterfall.rs`): a scalar register or
    /// EXEC the loop wrote, which holds its last iteration's value (another
    /// group of lanes'), not this lane's.
    WaterfallExit,
    /// Pixel shaders: a waterfall loop over a value that may differ within
    /// a quad (not built from flat inputs and uniform words only), so the
    /// body's quad operations would see lanes of other iterations.
    WaterfallQuads,
}

/// Scalar state or EXEC inside a region a per-lane EXEC branch skips.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExecRegion {
    /// A scalar register (or SCC) written inside the region and read after
    /// it.
    ScalarReadAfter {
        /// The register's name (`s6`, `scc`, `vcc_lo`, ...).
        register: String,
    },
    /// An instruction inside the region that may turn lanes on.
    RaisesExec {
        /// pc of the EXEC branch whose region it is in.
        branch: u32,
    },
}

/// Memory the translator does not model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// FLAT, global or scratch instructions.
    FlatGlobalScratch,
    /// Buffer stores.
    BufferStore,
    /// Buffer atomics.
    BufferAtomic,
    /// A buffer access with `tfe`.
    Tfe,
    /// A buffer access without its data operand.
    NoData,
    /// A typed buffer load of an invalid or reserved format.
    TypedFormat {
        /// The format's name (`BUF_FMT_...`, empty when unknown).
        format: String,
    },
    /// A format load whose conversion the descriptor decides.
    RuntimeFormat,
    /// A scalar load without an address.
    ScalarNoAddress,
    /// Global memory outside compute shaders: the vertex and pixel window
    /// covers only the traced descriptors' ranges, not a raw pointer.
    GlobalOutsideCompute,
    /// An atomic form without a translation (the reason).
    Atomic(&'static str),
}

/// Exports the vertex stages do not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Export {
    /// Colour or depth (fragment shaders).
    ColourDepth,
    /// Another target.
    Target,
    /// A compressed (16-bit) export.
    Compressed,
    /// `mrtz` stencil or sample-mask components.
    StencilMask,
}

/// A pixel-shader input the translator cannot express.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interp {
    /// A `v_interp_p2` whose destination does not hold a `v_interp_p1` of
    /// the same attribute channel with the i of the same barycentric pair
    /// as its j.
    Unpaired,
    /// A `v_interp_p1` result used other than by its `v_interp_p2`.
    Partial,
    /// A barycentric entry VGPR read raw (other than as `v_interp_p1/p2`'s
    /// i or j) when its pair's helper input finds no free location (the
    /// shader interpolates attributes up to the last of the 32).
    Barycentric,
    /// `v_interp_mov_f32` of `p10`/`p20` (only `p0`, flat, is a host input).
    MovParam,
    /// One attribute interpolated in two ways (the host has one
    /// interpolation per location).
    ModeConflict {
        /// The attribute.
        attr: u8,
    },
    /// 16-bit or VOP3-encoded interpolation.
    Form,
    /// An entry VGPR the translation does not provide.
    EntryVgpr(&'static str),
    /// The `ancillary` entry VGPR read other than as its VRS rate bits
    /// (5:2) by `v_bfe_u32`/`v_and_b32` with constant fields.
    Ancillary,
}

/// Which part of the lifter refused an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpcodeClass {
    /// Scalar ALU.
    ScalarAlu,
    /// 64-bit scalar ALU.
    Scalar64,
    /// Vector ALU.
    VectorAlu,
    /// Program control (SOPP).
    ProgramControl,
    /// `s_sendmsg` with a message other than `GS_ALLOC_REQ`.
    Message,
    /// Scalar memory.
    ScalarMemory,
    /// Buffer (MUBUF/MTBUF).
    Buffer,
}

/// Forms, modifiers and operands the lifter does not translate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// SDWA without its fields.
    SdwaFields,
    /// SDWA clamp or output modifier.
    SdwaModifier,
    /// An SDWA destination that keeps or sign-fills the other bits.
    SdwaDestination,
    /// A VOP3 output modifier or `op_sel`.
    Vop3Modifier,
    /// An M0-relative register.
    RelativeRegister,
    /// A partial register write.
    PartialWrite,
    /// A compare without two operands.
    CompareOperands,
    /// A compare of a type other than f32/i32/u32.
    CompareType,
    /// A missing operand.
    MissingOperand,
    /// `v_cndmask` without a mask.
    CndmaskMask,
    /// A saturating integer add.
    SaturatingAdd,
    /// A carry arithmetic form.
    CarryForm,
    /// `v_swap` without two registers.
    SwapOperands,
    /// An integer clamp.
    IntegerClamp,
    /// A 64-bit scalar compare.
    ScalarCompare64,
    /// A scalar compare the lifter does not know.
    ScalarCompareUnknown,
    /// An exec-mask operation of the other wave size.
    OtherWaveSizeExec,
    /// `s_bfm_b64` with a non-constant width or offset.
    BfmNonConstant,
    /// A 64-bit bit test of a non-constant bit.
    BitTestNonConstant,
    /// A 64-bit shift by a non-constant amount.
    ShiftAmountNonConstant,
    /// A 64-bit shift of a non-constant value.
    ShiftValueNonConstant,
    /// A float constant used as a lane mask.
    FloatMask,
    /// `s_denorm_mode` switching f32 denormals to be kept: the translation
    /// computes in RADV's float mode (f32 denormals flushed), and SPIR-V's
    /// `DenormPreserve` is not available to it (naga has no float
    /// controls).
    DenormPreserve,
    /// An operand that cannot be a lane mask.
    NotAMask,
    /// A 16- or 64-bit constant operand.
    WideConstant,
    /// An inline constant the lifter does not know.
    UnknownInlineConstant,
    /// 16-bit operand selection (`op_sel`/`sext`).
    OperandSelection,
    /// A special register read as an operand.
    SpecialRegister {
        /// Its operand code.
        code: u16,
    },
    /// A lane-mask operation the lifter does not know.
    MaskOperation {
        /// The operation (the mnemonic's middle part).
        op: String,
    },
}

impl Construct {
    /// The short class tools show in a summary: `stage`, `control`,
    /// `undecodable`, `lds`, `cross-lane`, `exec-region`, `interpolation`,
    /// `image`, `packed-math`, `memory`, `export`, `undefined-vgpr`,
    /// `opcode` or `form`.
    pub fn code(&self) -> &'static str {
        match self {
            Construct::Stage(_) => "stage",
            Construct::Control(_) => "control",
            Construct::Undecodable => "undecodable",
            Construct::Lds(_) => "lds",
            Construct::CrossLane(_) => "cross-lane",
            Construct::ExecInRegion(_) => "exec-region",
            Construct::Interpolation(_) => "interpolation",
            Construct::Image(_) => "image",
            Construct::PackedMath => "packed-math",
            Construct::Memory(_) => "memory",
            Construct::Export(_) => "export",
            Construct::UndefinedVgpr { .. } => "undefined-vgpr",
            Construct::Opcode { .. } => "opcode",
            Construct::Form(_) => "form",
        }
    }
}

impl fmt::Display for Construct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Construct::Stage(s) => fmt::Display::fmt(s, f),
            Construct::Control(c) => fmt::Display::fmt(c, f),
            Construct::Undecodable => f.write_str("undecodable bytes"),
            Construct::Lds(l) => fmt::Display::fmt(l, f),
            Construct::CrossLane(c) => fmt::Display::fmt(c, f),
            Construct::ExecInRegion(e) => fmt::Display::fmt(e, f),
            Construct::Interpolation(i) => fmt::Display::fmt(i, f),
            Construct::Image(i) => fmt::Display::fmt(i, f),
            Construct::PackedMath => f.write_str("packed 16-bit math is not translated"),
            Construct::Memory(m) => fmt::Display::fmt(m, f),
            Construct::Export(e) => fmt::Display::fmt(e, f),
            Construct::UndefinedVgpr {
                vgpr,
                stage,
                vertex_id,
                instance_id,
            } => {
                write!(
                    f,
                    "v{vgpr} is read before the shader writes it, and the {stage} entry ABI defines "
                )?;
                match (vertex_id, instance_id) {
                    (None, None) => f.write_str("no VGPR")?,
                    (Some(v), None) => write!(f, "only v{v} vertex id")?,
                    (None, Some(i)) => write!(f, "only v{i} instance id")?,
                    (Some(v), Some(i)) => write!(f, "only v{v} vertex id, v{i} instance id")?,
                }
                f.write_str(": the translation has no value for it")
            }
            Construct::Opcode { class, .. } => fmt::Display::fmt(class, f),
            Construct::Form(x) => fmt::Display::fmt(x, f),
        }
    }
}

impl fmt::Display for StageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StageKind::Pixel => {
                "pixel shaders are not translated (this translator targets vertex stages)"
            }
            StageKind::Compute => {
                "compute shaders need their entry state (workgroup size, workgroup-id SGPRs): translate_compute takes it"
            }
            StageKind::WorkgroupSize([x, y, z]) => {
                return write!(
                    f,
                    "a workgroup of {x}×{y}×{z} invocations (a host workgroup holds 1..=1024)"
                )
            }
            StageKind::NggPass(s) => {
                return write!(
                    f,
                    "the NGG compute pass takes NGG vertex shaders, not {} shaders",
                    s.name()
                )
            }
        })
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Control::NoCode => f.write_str("the shader has no code"),
            Control::BranchTarget => {
                f.write_str("the branch target is outside the code or inside an instruction")
            }
            Control::OffEnd => f.write_str("execution runs past the end of the code"),
            Control::OffEndNoEndpgm => {
                f.write_str("execution runs past the end of the code (no s_endpgm)")
            }
            Control::PerLaneLoop { head } => write!(
                f,
                "the loop back to pc {head:#x} repeats per lane (its condition depends on EXEC); each lane would stop on its own"
            ),
            Control::UnreachedLoopHead { head } => write!(
                f,
                "a back edge to pc {head:#x} enters a loop head that was never reached"
            ),
            Control::Structure(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl fmt::Display for Lds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lds::Access => "LDS access: the local data share is shared between lanes, which one host invocation per lane cannot see",
            Lds::Direct => "reads LDS (src_lds_direct), which is shared between lanes",
            Lds::BufferLoad => "buffer load into LDS",
        })
    }
}

impl fmt::Display for CrossLane {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CrossLane::Dpp => "DPP reads other lanes' registers",
            CrossLane::Registers => "reads or writes other lanes' registers",
            CrossLane::Writelane => "v_writelane writes another lane's register",
            CrossLane::Readlane => "reading one lane's VGPR (readlane) needs the other lanes",
            CrossLane::Mbcnt => {
                "v_mbcnt counts lanes below this one (needs the lane's position in the wave)"
            }
            CrossLane::MaskFromWord => "a lane mask made from a uniform value that is neither 0 nor all ones (each lane's bit depends on its lane number)",
            CrossLane::MaskAsWord => {
                "a lane mask read as a value needs every lane's bit (a ballot across the wave)"
            }
            CrossLane::AnyLaneTest => "src_vccz/src_execz asks whether any lane's bit is set",
            CrossLane::MaskScc => "SCC of a lane-mask operation asks whether any lane's bit is set",
            CrossLane::VccBranch => "a branch on whether every lane's VCC bit is 0 needs all lanes",
            CrossLane::MaskHalves => "a lane mask whose halves come from different values",
            CrossLane::DivergentWaveOp => "a cross-lane operation where not every invocation of the workgroup arrives (inside a per-lane branch, or under a branch that may differ between waves): its workgroup barriers would not be uniform",
            CrossLane::DivergentQuadOp => "a DPP quad permutation of a value defined where not every lane of the quad is active on the host (inside a per-lane branch, or after a discarding export)",
            CrossLane::WholeQuad => "whole quad mode (s_wqm) of a mask that may leave part of a quad off",
            CrossLane::SharedAcrossWaves => "LDS or s_barrier in a workgroup of several waves that branch separately: run one wave per host workgroup, the waves would not share them",
            CrossLane::WaterfallExit => "a scalar register or EXEC a waterfall loop wrote, read after it: it holds the last iteration's value (another group of lanes'), not this lane's",
            CrossLane::WaterfallQuads => "a waterfall loop over a value that may differ within a quad: quad operations in its body would read lanes of other iterations",
        })
    }
}

impl fmt::Display for ExecRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecRegion::ScalarReadAfter { register } => write!(
                f,
                "{register} is written inside an exec-masked region and read after it; whether the hardware ran the region depends on other lanes"
            ),
            ExecRegion::RaisesExec { branch } => write!(
                f,
                "may turn on lanes inside the region that the exec branch at pc {branch:#x} skips per lane"
            ),
        }
    }
}

impl fmt::Display for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Memory::FlatGlobalScratch => {
                f.write_str("flat/global/scratch memory is not translated")
            }
            Memory::BufferStore => {
                f.write_str(
                    "buffer store not translated (vertex and pixel shaders store nothing; compute shaders store whole dwords)",
                )
            }
            Memory::BufferAtomic => f.write_str("buffer atomics are not translated"),
            Memory::Tfe => f.write_str("buffer access with tfe"),
            Memory::NoData => f.write_str("buffer access without data"),
            Memory::TypedFormat { format } => write!(
                f,
                "typed buffer load with format {format} (an invalid or reserved format)"
            ),
            Memory::RuntimeFormat => {
                f.write_str("format load whose conversion the descriptor decides at run time")
            }
            Memory::ScalarNoAddress => f.write_str("scalar load without an address"),
            Memory::GlobalOutsideCompute => f.write_str(
                "global memory outside a compute shader (the window covers only traced descriptors)",
            ),
            Memory::Atomic(why) => write!(f, "atomic not translated: {why}"),
        }
    }
}

impl fmt::Display for Export {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Export::ColourDepth => "colour/depth export (fragment shaders are not translated)",
            Export::Target => "export to an unsupported target",
            Export::Compressed => "compressed (16-bit) export",
            Export::StencilMask => "mrtz stencil/sample-mask export",
        })
    }
}

impl fmt::Display for Interp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interp::Unpaired => f.write_str(
                "v_interp_p2 without a v_interp_p1 of its attribute channel on the same barycentrics",
            ),
            Interp::Partial => f.write_str("a v_interp_p1 result used outside its v_interp_p2"),
            Interp::Barycentric => f.write_str(
                "a barycentric entry VGPR read raw, with no input location free for its helper \
                 (the attributes reach the last of the 32)",
            ),
            Interp::MovParam => f.write_str("v_interp_mov_f32 of p10/p20 (only p0 is flat)"),
            Interp::ModeConflict { attr } => {
                write!(f, "attribute {attr} interpolated in two ways")
            }
            Interp::Form => f.write_str("16-bit or VOP3-encoded interpolation"),
            Interp::EntryVgpr(n) => write!(f, "pixel-shader entry VGPR `{n}` is not translated"),
            Interp::Ancillary => f.write_str(
                "pixel-shader entry VGPR `ancillary` read other than as its VRS rate bits 5:2 \
                 (v_bfe_u32/v_and_b32 with constant fields)",
            ),
        }
    }
}

impl fmt::Display for OpcodeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpcodeClass::ScalarAlu => "unsupported scalar ALU instruction",
            OpcodeClass::Scalar64 => "unsupported 64-bit scalar instruction",
            OpcodeClass::VectorAlu => "unsupported vector ALU instruction",
            OpcodeClass::ProgramControl => "unsupported program-control instruction",
            OpcodeClass::Message => "s_sendmsg other than GS_ALLOC_REQ",
            OpcodeClass::ScalarMemory => "unsupported scalar memory instruction",
            OpcodeClass::Buffer => "unsupported buffer instruction",
        })
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Form::SpecialRegister { code } => return write!(f, "reads special register {code}"),
            Form::MaskOperation { op } => return write!(f, "unknown lane-mask operation {op}"),
            _ => {}
        }
        f.write_str(match self {
            Form::SdwaFields => "SDWA without its fields",
            Form::SdwaModifier => "SDWA clamp or output modifier",
            Form::SdwaDestination => "SDWA destination that keeps or sign-fills the other bits",
            Form::Vop3Modifier => "VOP3 output modifier or op_sel",
            Form::RelativeRegister => "reads or writes a register chosen at run time (M0-relative)",
            Form::PartialWrite => "partial register write",
            Form::CompareOperands => "compare without two operands",
            Form::CompareType => "compare of a type other than f32/i32/u32",
            Form::MissingOperand => "missing operand",
            Form::CndmaskMask => "v_cndmask without a mask",
            Form::SaturatingAdd => "saturating integer add",
            Form::CarryForm => "carry arithmetic form",
            Form::SwapOperands => "v_swap without two registers",
            Form::IntegerClamp => "integer clamp",
            Form::ScalarCompare64 => "64-bit scalar compare",
            Form::ScalarCompareUnknown => "unknown scalar compare",
            Form::OtherWaveSizeExec => "exec-mask operation of the other wave size",
            Form::BfmNonConstant => "s_bfm_b64 with a non-constant width or offset",
            Form::BitTestNonConstant => "64-bit bit test with a non-constant bit",
            Form::ShiftAmountNonConstant => "64-bit shift by a non-constant amount",
            Form::ShiftValueNonConstant => "64-bit shift of a non-constant value",
            Form::FloatMask => "a float constant used as a lane mask",
            Form::DenormPreserve => "s_denorm_mode keeps f32 denormals; the translation flushes them (RADV's float mode)",
            Form::NotAMask => "this operand cannot be a lane mask",
            Form::WideConstant => "a 16- or 64-bit constant operand",
            Form::UnknownInlineConstant => "an unknown inline constant",
            Form::OperandSelection => "16-bit operand selection (op_sel/sext)",
            Form::SpecialRegister { .. } | Form::MaskOperation { .. } => "",
        })
    }
}

/// Serialized as its text, as the `reason` string was.
impl serde::Serialize for Construct {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

macro_rules! from_class {
    ($($t:ident => $v:ident),* $(,)?) => {$(
        impl From<$t> for Construct {
            fn from(x: $t) -> Construct {
                Construct::$v(x)
            }
        }
    )*};
}

/// An image instruction (MIMG) form the translation does not give.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Image {
    /// An image opcode with no translation (atomics, `_d`/`_cd`
    /// derivatives, `_cl` clamps, `_pck` loads, `get_lod`, `msaa_load`,
    /// gather4h, ray tracing, ...).
    Opcode,
    /// `a16`: 16-bit addresses.
    A16,
    /// `d16`: 16-bit data.
    D16,
    /// `tfe`/`lwe`: the status dword.
    Status,
    /// `unorm` on a sample or gather (texel coordinates through a sampler).
    Unnormalized,
    /// A dimension the instruction is not translated for (cube: the
    /// hardware's face coordinates; MSAA).
    Dim {
        /// The `dim` field's name (`CUBE`, `2D_MSAA`, ...).
        dim: &'static str,
    },
    /// Implicit derivatives outside a pixel shader.
    ImplicitLod,
    /// Implicit derivatives inside a region a per-lane EXEC branch skips
    /// (the host's quad neighbours may not run it).
    ImplicitLodInRegion {
        /// pc of the branch.
        branch: u32,
    },
    /// A compare (`_c`) sample that returns more than component x.
    CompareComponents,
    /// A gather4 whose dmask is not one component.
    GatherComponents,
    /// The `_o` offset is not a constant.
    OffsetNotConstant,
    /// `image_load_mip`/`image_store_mip` with a level that is not a
    /// constant 0 (storage images have one level on the host).
    MipLevel,
    /// A descriptor read from a table at a per-lane slot whose index the
    /// shader does not prove below the slots the translation expands over
    /// (`Options::trust_lane_table_slots` accepts the host's promise).
    UnprovedTableSlot {
        /// The slots the expansion would cover.
        slots: u32,
    },
    /// A T# word is not traced to user data, a table word or a constant.
    UntracedTexture {
        /// The word (0..=7).
        word: u8,
    },
    /// An S# word is not traced.
    UntracedSampler {
        /// The word (0..=3).
        word: u8,
    },
}

impl fmt::Display for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Image::Opcode => f.write_str("this image instruction is not translated"),
            Image::A16 => f.write_str("16-bit image addresses (a16) are not translated"),
            Image::D16 => f.write_str("16-bit image data (d16) is not translated"),
            Image::Status => f.write_str("the image status dword (tfe/lwe) is not translated"),
            Image::Unnormalized => f.write_str(
                "unnormalized (unorm) coordinates through a sampler are not translated",
            ),
            Image::Dim { dim } => {
                write!(f, "dim:SQ_RSRC_IMG_{dim} is not translated for this instruction")
            }
            Image::ImplicitLod => f.write_str(
                "implicit-derivative sampling outside a pixel shader has no host counterpart",
            ),
            Image::ImplicitLodInRegion { branch } => write!(
                f,
                "implicit-derivative sampling inside the per-lane region of the branch at pc {branch:#x} (the host's quad neighbours may not run it)"
            ),
            Image::CompareComponents => {
                f.write_str("a depth-compare sample returns one component (dmask must be 0x1)")
            }
            Image::GatherComponents => {
                f.write_str("a gather4 gathers one component (dmask must have one bit)")
            }
            Image::OffsetNotConstant => {
                f.write_str("the texel offset (_o) is not a constant (the host needs ConstOffset)")
            }
            Image::MipLevel => f.write_str(
                "a storage-image mip level that is not a constant 0 (the host image has one level)",
            ),
            Image::UnprovedTableSlot { slots } => write!(
                f,
                "a descriptor at a per-lane table slot whose index is not proved below {slots} (no mask bounds it; Options::trust_lane_table_slots takes the host's word)"
            ),
            Image::UntracedTexture { word } => write!(
                f,
                "T# word {word} is not traced to user data, a table word or a constant"
            ),
            Image::UntracedSampler { word } => write!(
                f,
                "S# word {word} is not traced to user data, a table word or a constant"
            ),
        }
    }
}

from_class!(
    Image => Image,
    StageKind => Stage,
    Control => Control,
    Lds => Lds,
    CrossLane => CrossLane,
    ExecRegion => ExecInRegion,
    Memory => Memory,
    Export => Export,
    Form => Form,
    Interp => Interpolation,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// One value of every case.
    fn every_case() -> Vec<Construct> {
        let mut all = vec![
            StageKind::Pixel.into(),
            StageKind::Compute.into(),
            Construct::Undecodable,
            Construct::Interpolation(Interp::Unpaired),
            Construct::PackedMath,
            Construct::UndefinedVgpr {
                vgpr: 3,
                stage: Stage::Ngg,
                vertex_id: Some(5),
                instance_id: Some(8),
            },
            ExecRegion::ScalarReadAfter {
                register: "s6".into(),
            }
            .into(),
            ExecRegion::RaisesExec { branch: 0x10 }.into(),
            Memory::TypedFormat {
                format: "BUF_FMT_8_8".into(),
            }
            .into(),
            Form::SpecialRegister { code: 235 }.into(),
            Form::MaskOperation { op: "nand".into() }.into(),
        ];
        all.extend(
            [
                Control::NoCode,
                Control::BranchTarget,
                Control::OffEnd,
                Control::OffEndNoEndpgm,
                Control::PerLaneLoop { head: 4 },
                Control::UnreachedLoopHead { head: 4 },
                Control::Structure(crate::structure::StructureError::Unstructured { pc: 8 }),
            ]
            .map(Construct::from),
        );
        all.extend(
            [
                Image::Opcode,
                Image::A16,
                Image::D16,
                Image::Status,
                Image::Unnormalized,
                Image::Dim { dim: "CUBE" },
                Image::ImplicitLod,
                Image::ImplicitLodInRegion { branch: 4 },
                Image::CompareComponents,
                Image::GatherComponents,
                Image::OffsetNotConstant,
                Image::MipLevel,
                Image::UntracedTexture { word: 1 },
                Image::UntracedSampler { word: 0 },
            ]
            .map(Construct::from),
        );
        all.extend([Lds::Access, Lds::Direct, Lds::BufferLoad].map(Construct::from));
        all.extend(
            [
                CrossLane::Dpp,
                CrossLane::Registers,
                CrossLane::Writelane,
                CrossLane::Readlane,
                CrossLane::Mbcnt,
                CrossLane::MaskFromWord,
                CrossLane::MaskAsWord,
                CrossLane::AnyLaneTest,
                CrossLane::MaskScc,
                CrossLane::VccBranch,
                CrossLane::MaskHalves,
                CrossLane::DivergentWaveOp,
                CrossLane::DivergentQuadOp,
            ]
            .map(Construct::from),
        );
        all.extend(
            [
                Memory::FlatGlobalScratch,
                Memory::BufferStore,
                Memory::BufferAtomic,
                Memory::Tfe,
                Memory::NoData,
                Memory::RuntimeFormat,
                Memory::ScalarNoAddress,
                Memory::GlobalOutsideCompute,
                Memory::Atomic("the value a returning LDS atomic gives depends on lane order"),
            ]
            .map(Construct::from),
        );
        all.extend([Export::ColourDepth, Export::Target, Export::Compressed].map(Construct::from));
        all.extend(
            [
                OpcodeClass::ScalarAlu,
                OpcodeClass::Scalar64,
                OpcodeClass::VectorAlu,
                OpcodeClass::ProgramControl,
                OpcodeClass::Message,
                OpcodeClass::ScalarMemory,
                OpcodeClass::Buffer,
            ]
            .map(|class| Construct::Opcode {
                opcode: Opcode::S_NOP,
                class,
            }),
        );
        all.extend(
            [
                Form::SdwaFields,
                Form::SdwaModifier,
                Form::SdwaDestination,
                Form::Vop3Modifier,
                Form::RelativeRegister,
                Form::PartialWrite,
                Form::CompareOperands,
                Form::CompareType,
                Form::MissingOperand,
                Form::CndmaskMask,
                Form::SaturatingAdd,
                Form::CarryForm,
                Form::SwapOperands,
                Form::IntegerClamp,
                Form::ScalarCompare64,
                Form::ScalarCompareUnknown,
                Form::OtherWaveSizeExec,
                Form::BfmNonConstant,
                Form::BitTestNonConstant,
                Form::ShiftAmountNonConstant,
                Form::ShiftValueNonConstant,
                Form::FloatMask,
                Form::DenormPreserve,
                Form::NotAMask,
                Form::WideConstant,
                Form::UnknownInlineConstant,
                Form::OperandSelection,
            ]
            .map(Construct::from),
        );
        all.push(StageKind::NggPass(Stage::Cs).into());
        all
    }

    #[test]
    fn every_case_has_its_own_nonempty_text_and_a_short_code() {
        let all = every_case();
        let mut texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert!(texts.iter().all(|t| !t.is_empty()));
        texts.sort();
        texts.dedup();
        // One text per case: deduplicating by value and by text agree.
        assert_eq!(texts.len(), all.len());
        for c in &all {
            let code = c.code();
            assert!(!code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
        }
        // The texts a snapshot or a test pins, as they were.
        assert_eq!(
            all[5].to_string(),
            "v3 is read before the shader writes it, and the ngg entry ABI defines only v5 vertex id, v8 instance id: the translation has no value for it"
        );
        assert_eq!(
            serde_json::to_string(&Construct::Lds(Lds::BufferLoad)).unwrap(),
            "\"buffer load into LDS\""
        );
    }
}
