//! Single-instruction test shaders for the opcode-level differential test
//! (`opcode_diff.rs`): one legacy-VS shader per (opcode, encoding form),
//! built from isa's operand tables and encoded with `isa::encode`, plus the
//! per-vertex operand data (edge values and seeded random values).
//!
//! The shader (wave64 or wave32):
//!
//! ```text
//! s_mov_b32 s40, s2 ; s_movk_i32 s41, 0x8000        table pointer (user-data word 0)
//! s_load_dwordx4 s[44:47], s[40:41], 0x0             the operand buffer's V#
//! buffer_load_dwordx4 v[10:13], v0, s[44:47], 0 idxen offset:0/16/32  (12 words per vertex)
//! [v_and_b32 v22, 1, v18 ; v_cmp_ne_u32 vcc, 0, v22]  a lane mask in vcc, when read
//! [v_mov_b32 v24.., v(10+2k)..]                       a tied destination's old value
//! [s_mov exec save]  <the instruction under test>  [exec copy + restore]
//! v_cndmask_b32 vR, 0, -1, mask / v_mov_b32 vR, sN   mask and scalar results into VGPRs
//! exp pos0 (0, 0, 0, 1) done ; exp param0 v24..v27   the result words
//! ```
//!
//! Source `k` (in printing order, VGPR sources only) reads words `2k`,
//! `2k + 1` of its vertex's record (`v[10 + 2k]`); a tied destination
//! counts as the next source; word 8's low bit is the vcc lane mask.

use drawbind::draws::{Addr, DrawSpec, DrawsFile, MemoryBlock, Word32};
use isa::family::vop::{Fld, Role, VopForm, VopInfo};
use isa::{
    Access, Family, Implicit, Instruction, Mode, Modifiers, OpMods, OpSpace, Opcode, Operand,
    Operands, Slot, Target, ValType,
};

/// Words of operand data per vertex.
pub const RECORD_WORDS: usize = 12;
/// User-data word 0: the table pointer's low half.
const TABLE_UD: u32 = 0x1000;
/// The table's 48-bit guest address (`s_movk_i32 s41, 0x8000` makes the
/// high half `0xffff8000`).
const TABLE: u64 = 0x8000_0000_1000;
/// The operand buffer.
const DATA: u64 = 0x1_0000_0000;
/// First result VGPR.
const RES: u16 = 24;
/// First operand VGPR.
const SRC: u16 = 10;
/// The literal of `v_fmamk`/`v_fmaak`-style forms (1.5).
pub const K32: u32 = 0x3fc0_0000;
/// The 16-bit literal (1.5 in f16).
pub const K16: u32 = 0x3e00;

/// A tiny xorshift64* generator (fixed seeds, so every run is the same).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// 32-bit float edge values: signed zeros, denormals, FLT_MIN, ones,
/// infinities, NaNs, halves, large and integral values.
pub const F32_EDGES: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007f_ffff, // largest denormal
    0x807f_ffff,
    0x0080_0000, // FLT_MIN
    0x8080_0000,
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // qNaN
    0xffc0_0000, // -qNaN
    0x7f80_0001, // sNaN
    0x3f00_0000, // 0.5
    0xbf00_0000, // -0.5
    0x3fc0_0000, // 1.5
    0xc020_0000, // -2.5
    0x4040_0000, // 3
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff,
    0x4b80_0000, // 2^24
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4f80_0000, // 2^32
    0x3dcc_cccd, // 0.1
    0x4049_0fdb, // pi
    0x3eff_ffff, // 0.49999997
    0x437f_8000, // 255.5
    0x6c4e_c5d3, // 1e27
    0x0d3a_5e3a, // tiny normal
];

/// 32-bit integer edge values (shift counts 31/32/33/63/64 among them).
pub const B32_EDGES: &[u32] = &[
    0,
    1,
    2,
    0xffff_ffff, // -1
    0xffff_fffe, // -2
    0x8000_0000, // INT_MIN
    0x7fff_ffff, // INT_MAX
    31,
    32,
    33,
    63,
    64,
    0x7f,
    0x80,
    0xff,
    0x100,
    0xffff,
    0x1_0000,
    0x7f_ffff,
    0x80_0000, // 2^23 (24-bit sign)
    0xff_ffff,
    0x100_0000,
    0xaaaa_aaaa,
    0x5555_5555,
    0x0000_1f1f,
    0x3f80_0000, // 1.0f as bits
    0x8000_0001,
    0xdead_beef,
];

/// 64-bit float edge values.
pub const F64_EDGES: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    1,                     // smallest denormal
    0x000f_ffff_ffff_ffff, // largest denormal
    0x0010_0000_0000_0000, // DBL_MIN
    0x3ff0_0000_0000_0000, // 1
    0xbff0_0000_0000_0000, // -1
    0x7ff0_0000_0000_0000, // +inf
    0xfff0_0000_0000_0000, // -inf
    0x7ff8_0000_0000_0000, // qNaN
    0x7ff0_0000_0000_0001, // sNaN
    0x3fe0_0000_0000_0000, // 0.5
    0x3ff8_0000_0000_0000, // 1.5
    0xc004_0000_0000_0000, // -2.5
    0x7fef_ffff_ffff_ffff, // DBL_MAX
    0x41e0_0000_0000_0000, // 2^31
    0xc1e0_0000_0000_0000, // -2^31
    0x41f0_0000_0000_0000, // 2^32
    0x3fb9_9999_9999_999a, // 0.1
    0x4009_21fb_5444_2d18, // pi
    0x3810_0000_0000_0000, // f32 FLT_MIN as f64
    0x47ef_ffff_e000_0000, // FLT_MAX as f64
];

/// 64-bit integer edge values.
pub const B64_EDGES: &[u64] = &[
    0,
    1,
    u64::MAX,
    0x8000_0000_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0xffff_ffff,
    0x1_0000_0000,
    63,
    64,
    0x8000_0000,
];

/// 16-bit edge values (half floats and integers).
pub const B16_EDGES: &[u32] = &[
    0, 0x8000, 1, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3800, 0x7bff,
    0xffff, 0x7fff, 15, 16, 17,
];

/// One value of an operand type from the edge pool (`Some(index)`) or
/// random, as the two words it occupies.
pub fn value(ty: ValType, edge: Option<usize>, rng: &mut Rng) -> [u32; 2] {
    let lo_hi = |v: u64| [v as u32, (v >> 32) as u32];
    match ty {
        ValType::F32 => match edge {
            Some(i) => [F32_EDGES[i % F32_EDGES.len()], rng.next_u32()],
            // Half the random floats are ordinary numbers around 1.
            None if rng.below(2) == 0 => {
                let m = rng.next_u32() & 0x807f_ffff;
                [m | ((rng.below(16) as u32 + 119) << 23), rng.next_u32()]
            }
            None => [rng.next_u32(), rng.next_u32()],
        },
        ValType::F64 => match edge {
            Some(i) => lo_hi(F64_EDGES[i % F64_EDGES.len()]),
            None if rng.below(2) == 0 => {
                let m = rng.next_u64() & 0x800f_ffff_ffff_ffff;
                lo_hi(m | ((rng.below(32) as u64 + 1007) << 52))
            }
            None => lo_hi(rng.next_u64()),
        },
        ValType::B64 => match edge {
            Some(i) => lo_hi(B64_EDGES[i % B64_EDGES.len()]),
            None => lo_hi(rng.next_u64()),
        },
        ValType::F16 | ValType::B16 => match edge {
            Some(i) => [
                B16_EDGES[i % B16_EDGES.len()] | (rng.next_u32() & 0xffff_0000),
                rng.next_u32(),
            ],
            None => [rng.next_u32(), rng.next_u32()],
        },
        ValType::V2F16 | ValType::V2B16 => match edge {
            Some(i) => [
                B16_EDGES[i % B16_EDGES.len()] | B16_EDGES[(i * 7 + 3) % B16_EDGES.len()] << 16,
                rng.next_u32(),
            ],
            None => [rng.next_u32(), rng.next_u32()],
        },
        _ => match edge {
            Some(i) => [B32_EDGES[i % B32_EDGES.len()], rng.next_u32()],
            None if rng.below(3) == 0 => [rng.below(70) as u32, rng.next_u32()],
            None => [rng.next_u32(), rng.next_u32()],
        },
    }
}

/// The size of the edge pool of a type.
pub fn edges(ty: ValType) -> usize {
    match ty {
        ValType::F32 => F32_EDGES.len(),
        ValType::F64 => F64_EDGES.len(),
        ValType::B64 => B64_EDGES.len(),
        ValType::F16 | ValType::B16 | ValType::V2F16 | ValType::V2B16 => B16_EDGES.len(),
        _ => B32_EDGES.len(),
    }
}

/// Where a result word comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// A VGPR destination word (its value type).
    Vgpr(ValType),
    /// A scalar destination word, copied with `v_mov_b32`.
    Sgpr,
    /// A lane mask (-1 when this lane's bit is set, else 0), by
    /// `v_cndmask_b32`.
    Mask,
}

/// One generated test case.
#[derive(Clone, Debug)]
pub struct Case {
    /// `v_add_f32_e32`: the base mnemonic plus the form.
    pub name: String,
    /// The base mnemonic.
    pub mnemonic: &'static str,
    /// The instruction under test, as decoded back from its encoding.
    pub inst: Instruction,
    /// Its LLVM text.
    pub text: String,
    /// Wave64.
    pub wave64: bool,
    /// The types of the VGPR sources, in data order.
    pub sources: Vec<ValType>,
    /// The exported result words (param0.x, .y, ...).
    pub results: Vec<ResultKind>,
    /// The whole shader.
    pub code: Vec<u8>,
}

impl Case {
    /// Some result word is a float (a one-ulp difference may be rounding).
    pub fn float_result(&self) -> bool {
        self.results.iter().any(|r| {
            matches!(
                r,
                ResultKind::Vgpr(ValType::F32 | ValType::F64 | ValType::F16 | ValType::V2F16)
            )
        })
    }
}

/// Every vector-ALU instruction of isa's tables (VOP1/VOP2/VOPC/VOP3 and
/// VOP3P), with its forms.
pub fn all_vop() -> Vec<&'static VopInfo> {
    let mut out = Vec::new();
    for space in [OpSpace::Vop, OpSpace::Vop3p] {
        for i in 0..2048 {
            if let Some(info) = isa::family::vop::info(Opcode::new(space, i)) {
                if Opcode::new(space, i).index() == info.index {
                    out.push(info);
                }
            }
        }
    }
    out.sort_by_key(|i| i.name);
    out.dedup_by_key(|i| i.name);
    out
}

fn mode(wave64: bool) -> Mode {
    if wave64 {
        Mode::wave64(Target::Gfx1030)
    } else {
        Mode::wave32(Target::Gfx1030)
    }
}

fn decode_words(words: &[u32], mode: Mode) -> Instruction {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    isa::decode(&bytes, mode).expect("template decodes")
}

fn with(mut inst: Instruction, i: usize, op: Operand) -> Instruction {
    if let Some(s) = inst.operands.get_mut(i) {
        s.op = op;
    }
    inst
}

fn emit(code: &mut Vec<u8>, inst: &Instruction) -> Result<(), String> {
    let e = isa::encode(inst, Target::Gfx1030).map_err(|e| format!("encode: {e}"))?;
    code.extend_from_slice(e.as_bytes());
    Ok(())
}

fn mask(code: u16, wave64: bool) -> Operand {
    Operand::Reg {
        code,
        count: if wave64 { 2 } else { 1 },
    }
}

const VCC: u16 = 106;

/// Build a vector-ALU instruction of `form` with `ops` (one per slot).
fn vop(opcode: Opcode, form: &VopForm, ops: &[Operand]) -> Instruction {
    let mut operands = Operands::new();
    let mut literal = false;
    for (spec, &op) in form.slots().iter().zip(ops) {
        let mut mods = OpMods::empty();
        if spec.fld == Fld::KLit {
            literal = true;
        }
        if matches!(op, Operand::Literal(_)) {
            literal = true;
        }
        if form.packed && spec.access.contains(Access::READ) {
            mods |= OpMods::OP_SEL_HI;
        }
        operands.push(Slot {
            op,
            access: spec.access,
            ty: spec.ty,
            mods,
        });
    }
    let (family, mods, len) = match form.family {
        Family::Vop3 => (
            Family::Vop3,
            Modifiers::Vop3(isa::family::vop::Vop3Mods::default()),
            8,
        ),
        Family::Vop3p => (
            Family::Vop3p,
            Modifiers::Vop3p(isa::family::vop::Vop3pMods::default()),
            8,
        ),
        f => (f, Modifiers::None, 4),
    };
    Instruction {
        opcode,
        family,
        len: len + if literal { 4 } else { 0 },
        operands,
        mods,
    }
}

/// A named helper instruction (`v_mov_b32`, `v_cndmask_b32`, ...) in its
/// e32 or e64 form.
fn helper(name: &str, e64: bool, ops: &[Operand]) -> Instruction {
    let info = all_vop()
        .into_iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("{name} is in isa's tables"));
    let form = if e64 { info.e64 } else { info.e32 }.expect("form");
    vop(Opcode::new(OpSpace::Vop, info.index), &form, ops)
}

/// Why a (instruction, form) pair gets no test shader.
pub type Skip = String;

/// The modifiers a case puts on its instruction (VOP3 forms only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// None.
    Plain,
    /// `-src0`, `|src1|`, `-|src2|` (as far as the form has neg/abs bits).
    NegAbs,
    /// `clamp`.
    Clamp,
    /// The output modifier (1: `mul:2`, 2: `mul:4`, 3: `div:2`).
    Omod(u8),
    /// `v_fma_mix*` with f16 sources: `op_sel_hi` on every source, `op_sel`
    /// on the second (its high half).
    MixF16,
}

impl Variant {
    fn label(self) -> &'static str {
        match self {
            Variant::Plain => "",
            Variant::NegAbs => " neg/abs",
            Variant::Clamp => " clamp",
            Variant::Omod(1) => " mul:2",
            Variant::Omod(2) => " mul:4",
            Variant::Omod(_) => " div:2",
            Variant::MixF16 => " f16 sources",
        }
    }
}

/// The variants a form has: plain, plus neg/abs and clamp where its VOP3
/// modifier bits offer them.
pub fn variants(info: &VopInfo, e64: bool) -> Vec<Variant> {
    let mut out = vec![Variant::Plain];
    let Some(form) = (if e64 { info.e64 } else { None }) else {
        return out;
    };
    if form.family == Family::Vop3p
        && form
            .bits()
            .iter()
            .any(|b| matches!(b.role, Role::OpSelHi(2)))
        && info.name.starts_with("v_fma_mix")
    {
        out.push(Variant::MixF16);
        out.push(Variant::Clamp);
        return out;
    }
    if form.family != Family::Vop3 {
        return out;
    }
    if form
        .bits()
        .iter()
        .any(|b| matches!(b.role, Role::Neg | Role::Abs))
    {
        out.push(Variant::NegAbs);
    }
    if form.bits().iter().any(|b| b.role == Role::Clamp) {
        out.push(Variant::Clamp);
    }
    if form.bits().iter().any(|b| b.role == Role::Omod) {
        out.push(Variant::Omod(1));
        out.push(Variant::Omod(3));
    }
    out
}

/// Put a variant's modifiers on an instruction of `form`.
fn apply(inst: &mut Instruction, form: &VopForm, variant: Variant) {
    match variant {
        Variant::Plain => {}
        Variant::Clamp => match inst.mods {
            Modifiers::Vop3(ref mut m) => m.clamp = true,
            Modifiers::Vop3p(ref mut m) => m.clamp = true,
            _ => {}
        },
        Variant::Omod(k) => {
            if let Modifiers::Vop3(ref mut m) = inst.mods {
                m.omod = k;
            }
        }
        Variant::MixF16 => {
            let srcs: Vec<usize> = (0..inst.operands.len())
                .filter(|&i| inst.operands[i].is_use() && !inst.operands[i].is_def())
                .collect();
            for (n, &i) in srcs.iter().enumerate() {
                inst.operands[i].mods |= OpMods::OP_SEL_HI;
                if n == 1 {
                    inst.operands[i].mods |= OpMods::OP_SEL;
                }
            }
        }
        Variant::NegAbs => {
            let has = |role: Role, slot: usize| {
                form.bits()
                    .iter()
                    .any(|b| b.role == role && b.slot as usize == slot)
            };
            let srcs: Vec<usize> = (0..inst.operands.len())
                .filter(|&i| has(Role::Neg, i) || has(Role::Abs, i))
                .collect();
            let want = [OpMods::NEG, OpMods::ABS, OpMods::NEG | OpMods::ABS];
            for (&i, &w) in srcs.iter().zip(&want) {
                let mut m = OpMods::empty();
                if w.contains(OpMods::NEG) && has(Role::Neg, i) {
                    m |= OpMods::NEG;
                }
                if w.contains(OpMods::ABS) && has(Role::Abs, i) {
                    m |= OpMods::ABS;
                }
                inst.operands[i].mods |= m;
            }
        }
    }
}

/// Build the test shader for one form of one instruction.
pub fn build(info: &VopInfo, e64: bool, variant: Variant, wave64: bool) -> Result<Case, Skip> {
    let form = if e64 { info.e64 } else { info.e32 }.ok_or("no such form")?;
    // Bit 2 of `targets`: gfx1030.
    if form.targets & 4 == 0 {
        return Err("not a gfx1030 instruction".into());
    }
    let space = if form.family == Family::Vop3p {
        OpSpace::Vop3p
    } else {
        OpSpace::Vop
    };
    let opcode = Opcode::new(space, info.index);
    let m = mode(wave64);
    let mut ops = Vec::new();
    let mut sources = Vec::new();
    let mut results = Vec::new();
    // (first result VGPR, words) of a tied destination, and the source
    // it is preloaded from.
    let mut tied: Vec<(u16, u16, u16)> = Vec::new();
    let mut scalar_results: Vec<(u16, u16)> = Vec::new(); // (sgpr, result vgpr)
    let mut mask_results: Vec<(u16, u16)> = Vec::new(); // (mask code, result vgpr)
    let mut res = RES;
    let mut reads_vcc = info.implicit.contains(Implicit::READ_VCC);
    let mut names_vcc = false;
    for spec in form.slots() {
        let w = spec.width.max(1) as u16;
        let op = if spec.access.contains(Access::WRITE) {
            if spec.ty == ValType::Mask {
                let code = if spec.fld == Fld::Vcc { VCC } else { 52 };
                names_vcc |= code == VCC;
                mask_results.push((code, res));
                results.push(ResultKind::Mask);
                res += 1;
                mask(code, wave64)
            } else if spec.cls.vgpr {
                if spec.access.contains(Access::READ) {
                    let k = sources.len() as u16;
                    sources.push(spec.ty);
                    tied.push((res, w, SRC + 2 * k));
                }
                let first = res;
                for _ in 0..w {
                    results.push(ResultKind::Vgpr(spec.ty));
                }
                res += w;
                Operand::vgprs(first as u8, w as u8)
            } else if spec.cls.sgpr {
                let s = 60 + scalar_results.len() as u16;
                for i in 0..w {
                    scalar_results.push((s + i, res));
                    results.push(ResultKind::Sgpr);
                    res += 1;
                }
                Operand::sgprs(s as u8, w as u8)
            } else {
                return Err(format!("destination field {:?}", spec.fld));
            }
        } else if spec.ty == ValType::Mask {
            reads_vcc = true;
            names_vcc = true;
            mask(VCC, wave64)
        } else if spec.fld == Fld::KLit {
            Operand::Literal(if w == 1 && spec.ty == ValType::F16 {
                K16
            } else {
                K32
            })
        } else if matches!(spec.fld, Fld::Attr | Fld::Param) {
            return Err("interpolation operand".into());
        } else if spec.cls.vgpr {
            let k = sources.len() as u16;
            if k >= 4 {
                return Err("more than four sources".into());
            }
            sources.push(spec.ty);
            Operand::vgprs((SRC + 2 * k) as u8, w as u8)
        } else if spec.cls.imm {
            // A scalar-only source (a lane select): the constant 1.
            Operand::Inline(129)
        } else {
            return Err(format!(
                "source field {:?} takes no VGPR or constant",
                spec.fld
            ));
        };
        ops.push(op);
    }
    if info.implicit.contains(Implicit::WRITE_VCC) && !names_vcc {
        mask_results.push((VCC, res));
        results.push(ResultKind::Mask);
        res += 1;
    }
    let writes_exec = info.implicit.contains(Implicit::WRITE_EXEC);
    if writes_exec {
        // The lanes the instruction leaves in exec, copied before exec is
        // restored.
        mask_results.push((56, res));
        results.push(ResultKind::Mask);
        res += 1;
    }
    if results.is_empty() {
        return Err("writes nothing a lane can export".into());
    }
    if results.len() > 4 {
        return Err(format!("{} result words", results.len()));
    }
    let _ = res;
    let mut inst = vop(opcode, &form, &ops);
    apply(&mut inst, &form, variant);
    if variant == Variant::MixF16 {
        // Two f16 values per source word, from the 16-bit edge pool.
        for t in sources.iter_mut().take(3) {
            *t = ValType::V2F16;
        }
    }
    // Encode, decode back: the case runs what the decoder sees.
    let enc = isa::encode(&inst, Target::Gfx1030).map_err(|e| format!("encode: {e}"))?;
    let back = isa::decode(enc.as_bytes(), m).map_err(|e| format!("decode back: {e}"))?;
    if back.opcode != inst.opcode || back.operands != inst.operands {
        return Err(format!(
            "decodes back differently: {}",
            isa::Formatter::new(Target::Gfx1030).display(&back)
        ));
    }
    let text = isa::Formatter::new(Target::Gfx1030)
        .display(&back)
        .to_string();

    // The program around it.
    let mut code = Vec::new();
    let c = &mut code;
    emit(
        c,
        &with(decode_words(&[0xbea8_0308], m), 1, Operand::sgpr(2)),
    )?; // s_mov_b32 s40, s2
    emit(c, &decode_words(&[0xb029_8000], m))?; // s_movk_i32 s41, 0x8000
    let mut l = with(
        decode_words(&[0xf408_0b14, 0xfa00_0010], m),
        0,
        Operand::sgprs(44, 4),
    );
    if let Modifiers::Smem(ref mut s) = l.mods {
        s.offset = 0;
    }
    emit(c, &l)?; // s_load_dwordx4 s[44:47], s[40:41], 0x0
    emit(c, &decode_words(&[0xbf8c_0070], m))?; // s_waitcnt
    for q in 0..3u8 {
        let mut b = decode_words(&[0xe038_2004, 0x800b_0001], m);
        b = with(b, 0, Operand::vgprs(SRC as u8 + 4 * q, 4));
        b = with(b, 1, Operand::vgpr(0));
        b = with(b, 2, Operand::sgprs(44, 4));
        if let Modifiers::Buf(ref mut f) = b.mods {
            f.offset = 16 * q as u16;
        }
        emit(c, &b)?;
    }
    emit(c, &decode_words(&[0xbf8c_0070], m))?;
    if reads_vcc {
        // vcc = lanes whose word 8 is odd.
        emit(
            c,
            &helper(
                "v_and_b32",
                false,
                &[Operand::vgpr(22), Operand::Inline(129), Operand::vgpr(18)],
            ),
        )?;
        emit(
            c,
            &helper(
                "v_cmp_ne_u32",
                false,
                &[mask(VCC, wave64), Operand::Inline(128), Operand::vgpr(22)],
            ),
        )?;
    }
    for &(dst, w, src) in &tied {
        for i in 0..w {
            emit(
                c,
                &helper(
                    "v_mov_b32",
                    false,
                    &[
                        Operand::vgpr((dst + i) as u8),
                        Operand::vgpr((src + i) as u8),
                    ],
                ),
            )?;
        }
    }
    let (save, restore) = if wave64 {
        (0xbeb2_047e_u32, 0xbefe_0432_u32) // s_mov_b64 s[50:51], exec / exec, s[50:51]
    } else {
        (0xbeb2_037e, 0xbefe_0332)
    };
    if writes_exec {
        emit(c, &decode_words(&[save], m))?;
    }
    c.extend_from_slice(enc.as_bytes());
    if writes_exec {
        // s_mov s[56:57], exec ; s_mov exec, s[50:51]
        emit(c, &with(decode_words(&[save], m), 0, mask(56, wave64)))?;
        emit(c, &decode_words(&[restore], m))?;
    }
    for &(s, v) in &scalar_results {
        emit(
            c,
            &helper(
                "v_mov_b32",
                false,
                &[Operand::vgpr(v as u8), Operand::sgpr(s as u8)],
            ),
        )?;
    }
    for &(mcode, v) in &mask_results {
        emit(
            c,
            &helper(
                "v_cndmask_b32",
                true,
                &[
                    Operand::vgpr(v as u8),
                    Operand::Inline(128),
                    // -1: a NaN as a float, so a wrong bit is a mismatch,
                    // never "within one ulp" of 0.
                    Operand::Inline(193),
                    mask(mcode, wave64),
                ],
            ),
        )?;
    }
    // Position (0, 0, 0, 1), then the results.
    for (i, k) in [128u8, 128, 128, 242].into_iter().enumerate() {
        emit(
            c,
            &helper(
                "v_mov_b32",
                false,
                &[Operand::vgpr(30 + i as u8), Operand::Inline(k)],
            ),
        )?;
    }
    let mut pos = decode_words(&[0xf800_08cf, 0x0302_0100], m);
    for i in 0..4 {
        pos = with(pos, i, Operand::vgpr(30 + i as u8));
    }
    emit(c, &pos)?;
    let mut param = decode_words(&[0xf800_020f, 0x0302_0100], m);
    for i in 0..4 {
        param = with(param, i, Operand::vgpr(RES as u8 + i as u8));
    }
    if let Modifiers::Exp(ref mut x) = param.mods {
        x.en = (1u8 << results.len()) - 1;
    }
    emit(c, &param)?;
    emit(c, &decode_words(&[0xbf81_0000], m))?; // s_endpgm
    let suffix = if e64 {
        if form.family == Family::Vop3p {
            ""
        } else {
            "_e64"
        }
    } else {
        "_e32"
    };
    Ok(Case {
        name: format!(
            "{}{suffix}{}{}",
            info.name,
            variant.label(),
            if wave64 { "" } else { " (w32)" }
        ),
        mnemonic: info.name.as_str(),
        inst: back,
        text,
        wave64,
        sources,
        results,
        code,
    })
}

/// The operand records of `vertices` vertices: the first vertices pair
/// every edge value of source 0 with every edge value of source 1 (as far
/// as `vertices` reaches, exhaustive when it is at least the product),
/// the rest are random; each source is an edge value or random.
pub fn records(case: &Case, vertices: u32, seed: u64) -> Vec<[u32; RECORD_WORDS]> {
    let mut rng = Rng(seed | 1);
    let n0 = case.sources.first().map_or(1, |&t| edges(t));
    let n1 = case.sources.get(1).map_or(1, |&t| edges(t));
    let pairs = (n0 * n1) as u32;
    // With few vertices, sample the pairs instead of walking them.
    let exhaustive = vertices >= pairs + pairs / 4;
    (0..vertices)
        .map(|v| {
            let mut r = [0u32; RECORD_WORDS];
            for (k, &ty) in case.sources.iter().enumerate() {
                let edge = if exhaustive && v < pairs {
                    match k {
                        0 => Some(v as usize % n0),
                        1 => Some(v as usize / n0),
                        _ => Some(rng.below(edges(ty))),
                    }
                } else if rng.below(3) < 2 {
                    Some(rng.below(edges(ty)))
                } else {
                    None
                };
                let w = value(ty, edge, &mut rng);
                r[2 * k] = w[0];
                r[2 * k + 1] = w[1];
            }
            for w in r.iter_mut().skip(2 * case.sources.len()) {
                *w = rng.next_u32();
            }
            r
        })
        .collect()
}

/// The DRAWS.json of a case: the table, the V# over `records`, and draws of
/// `per_draw` vertices each over vertex ids `first..first + count` of it.
pub fn draws(records: &[[u32; RECORD_WORDS]], ranges: &[(u32, u32)]) -> DrawsFile {
    let n = records.len() as u32;
    let stride = (RECORD_WORDS * 4) as u32;
    let desc = [
        DATA as u32,
        (DATA >> 32) as u32 | stride << 16,
        n,
        // dst_sel xyzw, a 32-bit format, OOB_SELECT 1 (structured: the
        // index is checked against num_records), as RADV's vertex buffers.
        // (With OOB_SELECT 3, raw, num_records counts bytes; the
        // translator and the interpreter disagree there about a dword
        // that straddles the end: see the README, "Opcode-level differential test".)
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 1 << 24 | 1 << 28,
    ];
    let words: Vec<Word32> = records.iter().flatten().map(|&w| Word32(w)).collect();
    DrawsFile {
        code_addr: None,
        user_data: vec![Word32(TABLE_UD)],
        memory: vec![
            MemoryBlock {
                addr: Addr(TABLE),
                words: desc.iter().map(|&w| Word32(w)).collect(),
            },
            MemoryBlock {
                addr: Addr(DATA),
                words,
            },
        ],
        draws: ranges
            .iter()
            .map(|&(first, count)| DrawSpec::Auto {
                first_vertex: first,
                vertex_count: count,
                instance_count: 1,
                chunks: Vec::new(),
            })
            .collect(),
    }
}

/// A typed buffer load case: the `v_mov_b32_e32` case's shader with its
/// instruction replaced by `tbuffer_load_format_xyzw v[24:27], v0, s[44:47],
/// 0 format:[FORMAT] idxen` (the element is the first bytes of the
/// vertex's operand record) and all four result words exported.
pub fn build_typed_load(format: u8, wave64: bool) -> Result<Case, Skip> {
    let name = isa::family::buf::format_name(format).ok_or("no such format")?;
    let info = all_vop()
        .into_iter()
        .find(|i| i.name == "v_mov_b32")
        .ok_or("no v_mov_b32")?;
    let mut case = build(info, false, Variant::Plain, wave64)?;
    let m = mode(wave64);
    let mut load = decode_words(&[0xe99b_2000, 0x800b_1800], m);
    if let Modifiers::Buf(ref mut f) = load.mods {
        f.format = format;
    }
    let splice = |code: &mut Vec<u8>, old: &Instruction, new: &Instruction| -> Result<(), Skip> {
        let o = isa::encode(old, Target::Gfx1030).map_err(|e| format!("encode: {e}"))?;
        let n = isa::encode(new, Target::Gfx1030).map_err(|e| format!("encode: {e}"))?;
        let (o, n) = (o.as_bytes(), n.as_bytes());
        let at = code
            .windows(o.len())
            .position(|w| w == o)
            .ok_or("instruction not found")?;
        code.splice(at..at + o.len(), n.iter().copied());
        Ok(())
    };
    splice(&mut case.code, &case.inst, &load)?;
    let mut param = decode_words(&[0xf800_020f, 0x0302_0100], m);
    for i in 0..4 {
        param = with(param, i, Operand::vgpr(RES as u8 + i as u8));
    }
    let mut one = param;
    if let Modifiers::Exp(ref mut x) = one.mods {
        x.en = 1;
    }
    splice(&mut case.code, &one, &param)?;
    case.text = isa::Formatter::new(Target::Gfx1030)
        .display(&load)
        .to_string();
    case.name = format!("tbuffer_load_format_xyzw {name}");
    case.inst = load;
    case.sources = vec![ValType::B32, ValType::B32];
    case.results = vec![ResultKind::Vgpr(ValType::F32); 4];
    Ok(case)
}

/// An SDWA case: the `v_mov_b32_e32` case's shader with its instruction
/// replaced by `v_mov_b32_e32 v24, v12` (a defined old value) and `words`,
/// an SDWA `v_mov_b32_sdwa v24, v10 ...` (its encoding), so the result word
/// shows what the destination's other bits became.
pub fn build_sdwa_mov(words: [u32; 2], wave64: bool) -> Result<Case, Skip> {
    let info = all_vop()
        .into_iter()
        .find(|i| i.name == "v_mov_b32")
        .ok_or("no v_mov_b32")?;
    let mut case = build(info, false, Variant::Plain, wave64)?;
    let m = mode(wave64);
    let sdwa = decode_words(&words, m);
    let pre = helper(
        "v_mov_b32",
        false,
        &[Operand::vgpr(RES as u8), Operand::vgpr(SRC as u8 + 2)],
    );
    let old = isa::encode(&case.inst, Target::Gfx1030).map_err(|e| format!("encode: {e}"))?;
    let old = old.as_bytes();
    let at = case
        .code
        .windows(old.len())
        .position(|w| w == old)
        .ok_or("instruction not found")?;
    let mut new = Vec::new();
    emit(&mut new, &pre)?;
    emit(&mut new, &sdwa)?;
    case.code.splice(at..at + old.len(), new);
    case.text = isa::Formatter::new(Target::Gfx1030)
        .display(&sdwa)
        .to_string();
    case.name = case.text.clone();
    case.inst = sdwa;
    case.sources = vec![ValType::B32, ValType::B32];
    Ok(case)
}
