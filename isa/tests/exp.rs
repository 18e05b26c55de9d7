//! EXP semantics: an export reads its enabled sources and has only the
//! `EXPORT` side effect. Texts checked against llvm-objdump-19.

use isa::family::exp::ExpTarget;
use isa::{decode, Access, Formatter, Implicit, Instruction, Modifiers, Opcode, Operand, Target};

fn dec(hex: &str) -> Instruction {
    let mut b: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    b.extend_from_slice(&0xbf80_0000u32.to_le_bytes());
    decode(&b, Target::Gfx1030).unwrap()
}

fn text(i: &Instruction) -> String {
    Formatter::new(Target::Gfx1030).display(i).to_string()
}

/// VGPR numbers read, in operand order.
fn reads(i: &Instruction) -> Vec<u8> {
    i.uses()
        .filter_map(|s| s.op.vgpr_range().map(|r| r.0))
        .collect()
}

#[test]
fn export_reads_enabled_sources_and_only_exports() {
    let i = dec("cf0800f800010203");
    assert_eq!(text(&i), "exp pos0 v0, v1, v2, v3 done");
    assert_eq!(i.opcode, Opcode::EXP);
    assert_eq!(reads(&i), [0, 1, 2, 3]);
    assert_eq!(i.defs().count(), 0);
    assert_eq!(i.implicit(), Implicit::EXPORT);
}

#[test]
fn disabled_sources_are_off_and_not_read() {
    // The corpus encodes `off` sources as 0x80; the field is ignored.
    let i = dec("410900f800808080");
    assert_eq!(text(&i), "exp prim v0, off, off, off done");
    assert_eq!(reads(&i), [0]);
    assert_eq!(i.operands[1].op, Operand::Off);
    assert_eq!(i.operands[1].access, Access::empty());
}

#[test]
fn compressed_export_reads_two_packed_vgprs_twice_each() {
    let i = dec("0f1c00f802000080");
    assert_eq!(text(&i), "exp mrt0 v2, v2, v0, v0 done compr vm");
    assert_eq!(reads(&i), [2, 2, 0, 0]);
    let Modifiers::Exp(m) = i.mods else { panic!() };
    assert!(m.compr && m.done && m.vm);
    assert_eq!(m.en, 0xf);
}

#[test]
fn target_ids_name_their_consumer() {
    for (hex, kind, want) in [
        ("0f1c00f802000080", ExpTarget::Mrt(0), "exp mrt0"),
        ("cf0800f800010203", ExpTarget::Pos(0), "exp pos0"),
        ("410900f800808080", ExpTarget::Prim, "exp prim"),
        ("0f0200f800010203", ExpTarget::Param(0), "exp param0"),
        (
            "8f0100f801020304",
            ExpTarget::Reserved(24),
            "exp invalid_target_24",
        ),
    ] {
        let i = dec(hex);
        let Modifiers::Exp(m) = i.mods else { panic!() };
        assert_eq!(m.target_kind(), kind, "{hex}");
        assert!(text(&i).starts_with(want), "{}", text(&i));
    }
}
