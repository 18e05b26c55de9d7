//! FLAT/GLOBAL/SCRATCH semantics and quirks. Texts checked against
//! llvm-objdump-19.

use isa::family::flat::FlatMods;
use isa::{
    decode, dont_care_mask, encode, Access, Formatter, Implicit, Instruction, Modifiers, OpSpace,
    Operand, Target,
};

fn bytes(hex: &str) -> Vec<u8> {
    let mut b: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    b.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
    b
}

fn dec(hex: &str, t: Target) -> Instruction {
    decode(&bytes(hex), t).unwrap_or_else(|e| panic!("{hex}: {e}"))
}

fn text(i: &Instruction, t: Target) -> String {
    Formatter::new(t).display(i).to_string()
}

/// `encode(i)` equals `hex` except for the don't-care bits.
fn round_trips(i: &Instruction, hex: &str, t: Target) -> bool {
    let e = encode(i, t).unwrap();
    let m = dont_care_mask(i, t);
    let b = bytes(hex);
    e.len() == 8
        && (0..2).all(|k| {
            let a = u32::from_le_bytes(b[k * 4..k * 4 + 4].try_into().unwrap());
            let c = u32::from_le_bytes(e.as_bytes()[k * 4..k * 4 + 4].try_into().unwrap());
            (a ^ c) & !m[k] == 0
        })
}

fn mods(i: &Instruction) -> FlatMods {
    match i.mods {
        Modifiers::Flat(m) => m,
        m => panic!("{m:?}"),
    }
}

/// Operand (register count, access) in order; 0 for `off`.
type Shape = &'static [(u8, Access)];

/// (bytes, text, space, operands).
const CASES: &[(&str, &str, OpSpace, Shape)] = &[
    (
        "ff8f30dc0a001428",
        "global_load_dword v40, v10, s[20:21] offset:-1",
        OpSpace::Global,
        &[(1, Access::WRITE), (1, Access::READ), (2, Access::READ)],
    ),
    (
        "008038dc0a007d28",
        "global_load_dwordx4 v[40:43], v[10:11], off",
        OpSpace::Global,
        &[(4, Access::WRITE), (2, Access::READ), (0, Access::empty())],
    ),
    (
        "008070dc0a147d28",
        "global_store_dword v[10:11], v20, off",
        OpSpace::Global,
        &[(2, Access::READ), (1, Access::READ), (0, Access::empty())],
    ),
    (
        "ff4f30dc0a007d28",
        "scratch_load_dword v40, v10, off offset:-1",
        OpSpace::Scratch,
        &[(1, Access::WRITE), (1, Access::READ), (0, Access::empty())],
    ),
    (
        "ff0f30dc0a007d28",
        "flat_load_dword v40, v[10:11] offset:4095",
        OpSpace::Flat,
        &[(1, Access::WRITE), (2, Access::READ)],
    ),
    (
        "008058dc00141428",
        "global_load_dword_addtid v40, s[20:21]",
        OpSpace::Global,
        &[(1, Access::WRITE), (2, Access::READ)],
    ),
];

fn shape(i: &Instruction) -> Vec<(u8, Access)> {
    i.operands
        .iter()
        .map(|s| match s.op {
            Operand::Reg { count, .. } => (count, s.access),
            _ => (0, s.access),
        })
        .collect()
}

#[test]
fn operands_have_llvm_text_widths_and_roles() {
    for &(hex, want, space, ops) in CASES {
        let i = dec(hex, Target::Gfx1030);
        assert_eq!(text(&i, Target::Gfx1030), want);
        assert_eq!(i.opcode.space(), space, "{want}");
        assert_eq!(shape(&i), ops, "{want}");
        assert!(round_trips(&i, hex, Target::Gfx1030), "{want}");
    }
}

#[test]
fn offsets_are_signed_for_global_and_scratch_unsigned_for_flat() {
    assert_eq!(mods(&dec("ff8f30dc0a001428", Target::Gfx1030)).offset, -1);
    assert_eq!(mods(&dec("ff4f30dc0a007d28", Target::Gfx1030)).offset, -1);
    assert_eq!(mods(&dec("ff0f30dc0a007d28", Target::Gfx1030)).offset, 4095);
}

#[test]
fn atomics_return_the_old_value_only_with_glc() {
    let noret = dec("0080c8dc0a147d28", Target::Gfx1030);
    assert_eq!(
        text(&noret, Target::Gfx1030),
        "global_atomic_add v[10:11], v20, off"
    );
    assert_eq!(noret.defs().count(), 0);
    let rtn = dec("0080c9dc0a141528", Target::Gfx1030);
    assert_eq!(
        text(&rtn, Target::Gfx1030),
        "global_atomic_add v40, v10, v20, s[20:21] glc"
    );
    assert_eq!(shape(&rtn)[0], (1, Access::WRITE));
    assert!(mods(&rtn).glc);
}

#[test]
fn d16_loads_write_half_of_vdst() {
    let i = dec("008094dc0a141428", Target::Gfx1030);
    assert_eq!(
        text(&i, Target::Gfx1030),
        "global_load_short_d16_hi v40, v10, s[20:21]"
    );
    assert_eq!(i.operands[0].access, Access::WRITE | Access::PARTIAL);
}

#[test]
fn memory_segments_set_implicit_flags() {
    // Flat addresses may point into LDS.
    let flat = dec("ff0f30dc0a007d28", Target::Gfx1030);
    assert_eq!(flat.implicit(), Implicit::MEMORY | Implicit::LDS);
    let global = dec("ff8f30dc0a001428", Target::Gfx1030);
    assert_eq!(global.implicit(), Implicit::MEMORY);
    let scratch = dec("ff4f30dc0a007d28", Target::Gfx1030);
    assert_eq!(scratch.implicit(), Implicit::MEMORY);
}

#[test]
fn loads_to_lds_write_no_vgpr_and_read_m0() {
    let i = dec("ffaf30dc0a142800", Target::Gfx1030);
    assert_eq!(
        text(&i, Target::Gfx1030),
        "global_load_dword v10, s[40:41] offset:-1 lds"
    );
    assert_eq!(i.defs().count(), 0);
    assert_eq!(
        i.implicit(),
        Implicit::MEMORY | Implicit::LDS | Implicit::READ_M0
    );
}

#[test]
fn scratch_st_mode_exists_on_gfx10_3_only() {
    let hex = "ff4f30dc0a007f28";
    let i = dec(hex, Target::Gfx1030);
    assert_eq!(
        text(&i, Target::Gfx1030),
        "scratch_load_dword v40, off, off offset:-1"
    );
    assert_eq!(i.uses().count(), 0);
    // gfx10.1 decodes saddr 0x7f as exec_hi, outside the operand's class.
    let i = dec(hex, Target::Gfx1013);
    assert_eq!(
        text(&i, Target::Gfx1013),
        "scratch_load_dword v40, off, exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/ offset:-1"
    );
    assert!(round_trips(&i, hex, Target::Gfx1013));
    // ...but loads to LDS have it there too.
    let i = dec("ff6f30dc0a007f28", Target::Gfx1013);
    assert_eq!(
        text(&i, Target::Gfx1013),
        "scratch_load_dword off, off offset:-1 lds"
    );
}

#[test]
fn invalid_encodings_are_rejected() {
    for hex in [
        "ff0f30dc0a00fd28", // bit 55 set
        "ffcf30dc0a007d28", // segment 3
        "008070dc0a147c28", // global saddr = m0
        "ff2f30dc0a007d28", // flat has no loads to LDS
    ] {
        assert!(decode(&bytes(hex), Target::Gfx1030).is_err(), "{hex}");
    }
    // A 64-bit vaddr at v255 runs past the register file.
    assert!(decode(&bytes("00800cdcff007d28"), Target::Gfx1030).is_err());
}

#[test]
fn unused_register_fields_are_dont_care() {
    // global_store_dword with vdst = v40: the field is ignored.
    let i = dec("008070dc0a147d28", Target::Gfx1030);
    assert_eq!(
        dont_care_mask(&i, Target::Gfx1030)[1] & 0xff00_0000,
        0xff00_0000
    );
    // A 64-bit saddr SGPR pair: LLVM rounds s21 down to s[20:21].
    let i = dec("ff8f30dc0a001528", Target::Gfx1030);
    assert_eq!(
        text(&i, Target::Gfx1030),
        "global_load_dword v40, v10, s[20:21] offset:-1"
    );
    assert!(round_trips(&i, "ff8f30dc0a001528", Target::Gfx1030));
}

#[test]
fn csub_and_addtid_exist_on_gfx10_3_only() {
    for hex in ["0080d0dc0a147d28", "008058dc00141428"] {
        assert!(decode(&bytes(hex), Target::Gfx1030).is_ok(), "{hex}");
        assert!(decode(&bytes(hex), Target::Gfx1013).is_err(), "{hex}");
    }
}
