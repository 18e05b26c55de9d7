//! The generated opcode facts say what the mnemonics say.

use isa::{
    op, BranchCond, CmpCond, Compare, ExecUpdate, Flow, Logic, MemKind, MemUnit, Mode, NumTy,
    OpFacts, Opcode, Target,
};

#[test]
fn constants_are_match_patterns_with_their_mnemonics() {
    let n = Opcode::all().count();
    assert!(n > 1200, "{n} opcodes");
    for o in Opcode::all() {
        assert_ne!(o.name(), "<unknown>");
    }
    assert_eq!(op::V_ADD_F32.name(), "v_add_f32");
    assert_eq!(op::BUFFER_LOAD_FORMAT_X.name(), "buffer_load_format_x");
    assert!(matches!(op::S_MOV_B32, op::S_MOV_B32));
}

#[test]
fn compares() {
    assert_eq!(
        op::V_CMPX_GT_I32.facts().cmp,
        Some(Compare {
            cond: CmpCond::Gt,
            ty: NumTy::I32,
            writes_exec: true,
            imm16: false
        })
    );
    assert_eq!(
        op::V_CMP_CLASS_F32.facts().cmp.map(|c| c.cond),
        Some(CmpCond::Class)
    );
    assert_eq!(
        op::S_CMPK_LG_U32.facts().cmp,
        Some(Compare {
            cond: CmpCond::Lg,
            ty: NumTy::U32,
            writes_exec: false,
            imm16: true
        })
    );
    assert_eq!(op::S_CMP_EQ_U64.facts().cmp.map(|c| c.ty), Some(NumTy::U64));
    assert_eq!(op::V_ADD_F32.facts().cmp, None);
}

#[test]
fn memory() {
    let m = op::TBUFFER_LOAD_FORMAT_XY.facts().mem.unwrap();
    assert_eq!(
        (m.unit, m.kind, m.format, m.comps),
        (MemUnit::TypedBuffer, MemKind::Load, true, 2)
    );
    let m = op::BUFFER_LOAD_SBYTE.facts().mem.unwrap();
    assert_eq!((m.unit, m.bytes, m.signed), (MemUnit::Buffer, 1, true));
    let m = op::DS_ADD_RTN_U32.facts().mem.unwrap();
    assert_eq!(m.kind, MemKind::Atomic { returns: true });
    let m = op::DS_READ2ST64_B64.facts().mem.unwrap();
    assert_eq!(
        (m.kind, m.bytes, m.two, m.st64),
        (MemKind::Load, 8, true, true)
    );
    let m = op::DS_READ_U8_D16_HI.facts().mem.unwrap();
    assert_eq!((m.bytes, m.d16, m.hi), (1, true, true));
    let m = op::S_BUFFER_LOAD_DWORDX4.facts().mem.unwrap();
    assert_eq!(
        (m.unit, m.kind, m.bytes),
        (MemUnit::ScalarBuffer, MemKind::Load, 16)
    );
    assert!(op::BUFFER_ATOMIC_ADD.facts().writes_memory());
    assert!(op::BUFFER_STORE_DWORD.facts().writes_memory());
    assert_eq!(
        op::BUFFER_GL0_INV.facts().mem.map(|m| m.kind),
        Some(MemKind::Other)
    );
}

#[test]
fn flow_logic_exec_lanes_approx_width() {
    assert_eq!(
        op::S_CBRANCH_EXECZ.facts().flow,
        Some(Flow::Branch(BranchCond::Execz))
    );
    assert_eq!(op::S_ENDPGM.facts().flow, Some(Flow::End));
    assert_eq!(op::S_SETPC_B64.facts().flow, Some(Flow::Indirect));
    assert_eq!(op::S_XNOR_B64.facts().logic, Some(Logic::Xnor));
    assert_eq!(
        op::S_ANDN1_WREXEC_B32.facts().exec,
        Some(ExecUpdate {
            op: Logic::Andn1,
            wrexec: true,
            w64: false
        })
    );
    assert!(op::V_READFIRSTLANE_B32.facts().lanes);
    assert!(op::V_MBCNT_HI_U32_B32.facts().lanes);
    assert!(!op::V_MOV_B32.facts().lanes);
    assert!(op::V_RSQ_F32.facts().approx && !op::V_MUL_F32.facts().approx);
    assert_eq!(
        (op::S_ASHR_I64.facts().bits, op::S_ASHR_I64.facts().signed),
        (64, true)
    );
    assert_eq!(*op::S_NOP.facts(), OpFacts::NONE);
    let w64 = Mode::wave64(Target::Gfx1030);
    let w32 = Mode::wave32(Target::Gfx1030);
    assert!(op::S_AND_B64.lane_mask_width(w64) && !op::S_AND_B64.lane_mask_width(w32));
    assert!(op::S_AND_B32.lane_mask_width(w32) && !op::S_AND_B32.lane_mask_width(w64));
}
