//! EXP facts: the instruction modifiers and export targets.
//!
//! EXP has one opcode, `Opcode::EXP`. An export reads its enabled sources
//! and hands them to a fixed-function consumer (colour/depth buffers,
//! position, parameter or primitive data); it reads or writes no memory
//! and no LDS. `Instruction::implicit` reports it as
//! [`Implicit::EXPORT`](crate::Implicit::EXPORT), so a consumer can tell
//! an export's side effect from its flags alone.

/// One export target id's name (generated from LLVM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpTgt {
    /// Printed name (`mrt0`, `pos4`, `param31`, ...); empty when LLVM
    /// knows no name on any target.
    pub name: &'static str,
    /// Bit i set: the name is valid on `isa_gen::TARGETS[i]`; elsewhere
    /// LLVM prints `invalid_target_<id>`.
    pub targets: u8,
}

/// EXP fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExpMods {
    /// Export target id (0..=7 mrt, 8 mrtz, 9 null, 12..=16 pos, 20 prim,
    /// 32..=63 param), see [`ExpTarget`].
    pub target: u8,
    /// Enable mask, one bit per source (with `compr`: bits 0/1 enable
    /// `vsrc0` halves, bits 2/3 `vsrc1` halves).
    pub en: u8,
    /// Compressed (16-bit) data: two VGPRs of packed halves.
    pub compr: bool,
    /// Last export of this kind.
    pub done: bool,
    /// Valid mask (colour exports: the exec mask is the pixel's coverage).
    pub vm: bool,
}

/// What an export target id addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpTarget {
    /// Colour render target 0..=7.
    Mrt(u8),
    /// Depth/stencil/sample mask.
    Mrtz,
    /// Nothing (the export only signals `done`).
    Null,
    /// Vertex position 0..=4 (1..=4: misc vector, clip distances).
    Pos(u8),
    /// NGG primitive data (gfx10).
    Prim,
    /// Vertex parameter 0..=31.
    Param(u8),
    /// A reserved id.
    Reserved(u8),
}

impl ExpMods {
    /// What the target id addresses.
    pub fn target_kind(&self) -> ExpTarget {
        match self.target {
            t @ 0..=7 => ExpTarget::Mrt(t),
            8 => ExpTarget::Mrtz,
            9 => ExpTarget::Null,
            t @ 12..=16 => ExpTarget::Pos(t - 12),
            20 => ExpTarget::Prim,
            t @ 32..=63 => ExpTarget::Param(t - 32),
            t => ExpTarget::Reserved(t),
        }
    }
}
