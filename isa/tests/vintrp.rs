//! VINTRP semantics. Texts checked against llvm-objdump-19.

use isa::{decode, Access, Formatter, Implicit, Instruction, Operand, Target};

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

#[test]
fn p1_writes_vdst_and_reads_i_and_m0() {
    let i = dec("000300c8");
    assert_eq!(text(&i), "v_interp_p1_f32_e32 v0, v0, attr0.w");
    assert_eq!(i.operands[0].access, Access::WRITE);
    assert_eq!(i.operands[1].access, Access::READ);
    assert_eq!(i.implicit(), Implicit::READ_M0);
}

#[test]
fn p2_accumulates_into_vdst() {
    let i = dec("010109c8");
    assert_eq!(text(&i), "v_interp_p2_f32_e32 v2, v1, attr0.y");
    assert_eq!(i.operands[0].access, Access::READ | Access::WRITE);
    assert_eq!(i.implicit(), Implicit::READ_M0);
}

#[test]
fn mov_selects_a_parameter_and_reads_no_vgpr() {
    for (hex, want) in [
        ("0000a2c8", "v_interp_mov_f32_e32 v40, p10, attr0.x"),
        ("0201a2c8", "v_interp_mov_f32_e32 v40, p0, attr0.y"),
        (
            "0ac72ac9",
            "v_interp_mov_f32_e32 v74, invalid_param_10, attr49.w",
        ),
    ] {
        let i = dec(hex);
        assert_eq!(text(&i), want);
        assert!(matches!(i.operands[1].op, Operand::Imm(_)));
        assert_eq!(i.uses().filter(|s| s.op.vgpr_range().is_some()).count(), 0);
    }
}

#[test]
fn opcode_three_is_not_an_instruction() {
    let b = [0x0a, 0x16, 0xa3, 0xc8];
    assert!(decode(&b, Target::Gfx1030).is_err());
}
