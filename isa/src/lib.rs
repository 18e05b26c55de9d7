//! RDNA2 (gfx10) machine code: decoding, encoding and LLVM-exact text.
//!
//! - [`decode()`] / [`Decoder`]: bytes to typed [`Instruction`]s. Invalid
//!   encodings are [`DecodeError`] values, never panics.
//! - [`encode()`]: instructions back to bytes; `encode(decode(b)) == b` up to
//!   the don't-care bits in [`dont_care_mask`].
//! - [`Formatter`]: instructions to the text `llvm-objdump-19` prints,
//!   written into a caller's buffer.
//!
//! Decoding is driven by opcode tables generated from a recorded LLVM 19
//! oracle (`isa/gen`); the decoder itself is separate from the formatter.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod abi;
pub mod decode;
pub mod encode;
pub mod facts;
pub mod family;
pub mod format;
mod inst;
pub mod operand;
mod tables;
mod target;

pub use abi::{ps_input_vgprs, Abi, Bary, PsInput, Stage, UnknownStage};
pub use decode::{
    classify, decode, decode_hardware, decode_into, DecodeError, DecodeErrorKind, Decoder, Mode,
};
pub use encode::{dont_care_mask, encode, EncodeError, Encoded};
pub use facts::{
    lane_mask_pair, BranchCond, CmpCond, Compare, ExecUpdate, Flow, Logic, MemKind, MemUnit,
    Memory, NumTy, OpFacts,
};
pub use format::Formatter;
pub use inst::{Family, Instruction, Modifiers, OpSpace, Opcode, Operands, MAX_OPERANDS};
pub use operand::{Access, Implicit, OpMods, Operand, RegFile, Slot, ValType};
pub use tables::facts::op;
pub use target::{Target, UnknownTarget};
