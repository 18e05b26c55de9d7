//! The scalar ALU, scalar memory, buffer range checks, control flow and the
//! error paths, on small hand-assembled programs (llvm-mc-19 encodings in
//! the comments).

mod common;

use common::{run1, Mem};
use interp::{AccessKind, Finding, InterpError, Wave};

const S_ENDPGM: u32 = 0xbf81_0000;

#[test]
fn scalar_alu_computes_carries_fields_and_masks() {
    let prog = [
        0xbe80_03c2, // s_mov_b32 s0, -2
        0x8001_8300, // s_add_u32 s1, s0, 3          (carry out)
        0x8202_8080, // s_addc_u32 s2, 0, 0           (s2 = carry)
        0x9383_ff0a,
        0x0004_0018, // s_bfe_u32 s3, s10, 0x40018 (bits 24..27)
        0x9284_800b, // s_bfm_b64 s[4:5], s11, 0
        0xbf0d_860b, // s_bitcmp1_b32 s11, 6
        0x8586_04c1, // s_cselect_b64 s[6:7], -1, s[4:5]
        0xbe88_1006, // s_bcnt1_i32_b64 s8, s[6:7]
        0x8f09_8408, // s_lshl_b32 s9, s8, 4
        S_ENDPGM,
    ];
    for (s11, want_mask) in [(40u32, (1u64 << 40) - 1), (64, u64::MAX), (0, 0)] {
        let mut w = Wave::new(true);
        w.set_sgpr(10, 0x0a00_0000 | 0x0300_0000);
        w.set_sgpr(11, s11);
        run1(&prog, &mut w, &Mem::default()).unwrap();
        assert_eq!(w.sgpr(1).v, 1);
        assert_eq!(w.sgpr(2).v, 1, "the add carried");
        assert_eq!(w.sgpr(3).v, 0xb, "bits 24..27");
        let mask = w.sgpr(6).v as u64 | (w.sgpr(7).v as u64) << 32;
        assert_eq!(mask, want_mask, "count {s11}");
        assert_eq!(w.sgpr(8).v, want_mask.count_ones());
        assert_eq!(w.sgpr(9).v, want_mask.count_ones() << 4);
        assert!(w.sgpr(9).is_defined());
    }
}

#[test]
fn undefined_inputs_make_undefined_results_but_known_bits_survive_and() {
    // s_bfm_b64 from an undefined count gives an undefined mask; and-ing it
    // with a defined 0 (exec of no lanes) is a defined 0.
    let prog = [
        0x9284_800b, // s_bfm_b64 s[4:5], s11, 0
        0xbe80_0380, // s_mov_b32 s0, 0
        0xbe81_0380, // s_mov_b32 s1, 0
        0x8786_0004, // s_and_b64 s[6:7], s[4:5], s[0:1]
        S_ENDPGM,
    ];
    let mut w = Wave::new(true);
    run1(&prog, &mut w, &Mem::default()).unwrap();
    assert_eq!(w.sgpr(4).def, 0);
    assert_eq!(w.sgpr(6).v, 0);
    assert!(w.sgpr(6).is_defined() && w.sgpr(7).is_defined());
}

fn vsharp(base: u64, stride: u32, records: u32, oob: u32) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 | stride << 16,
        records,
        // dst_sel xyzw, format 32_FLOAT (22), OOB_SELECT, RESOURCE_LEVEL 1
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 1 << 24 | oob << 28,
    ]
}

#[test]
fn scalar_loads_and_buffer_loads_apply_range_checks_and_record_fetches() {
    let prog = [
        0xf408_0100,
        0xfa00_0010, // s_load_dwordx4 s[4:7], s[0:1], 0x10
        0xf424_0202,
        0xfa00_0008, // s_buffer_load_dwordx2 s[8:9], s[4:7], 0x8
        0xf420_0282,
        0xfa00_0040, // s_buffer_load_dword s10, s[4:7], 0x40 (out of range)
        0xe034_2004,
        0x8001_0200, // buffer_load_dwordx2 v[2:3], v0, s[4:7], 0 idxen offset:4
        0xe030_1008,
        0x0c01_0401, // buffer_load_dword v4, v1, s[4:7], s12 offen offset:8
        S_ENDPGM,
    ];
    let mut mem = Mem::default();
    mem.write(0x1010, &vsharp(0x2000, 8, 3, 1));
    mem.write(
        0x2000,
        &[
            10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
        ],
    );
    let mut w = Wave::new(true);
    w.set_sgpr(0, 0x1000);
    w.set_sgpr(1, 0);
    w.set_sgpr(12, 4);
    w.set_exec(0b1111);
    for lane in 0..4 {
        w.set_vgpr(0, lane, lane);
    }
    for (lane, v) in [(1, 0), (2, 4), (3, 100)] {
        w.set_vgpr(1, lane, v);
    }
    let obs = run1(&prog, &mut w, &mem).unwrap();
    assert_eq!((w.sgpr(8).v, w.sgpr(9).v), (12, 13));
    assert_eq!(w.sgpr(10).v, 0, "past num_records * stride reads 0");
    assert!(w.sgpr(10).is_defined());
    // idxen: record r is bytes 8r .. 8r+8; offset 4 reads words 2r+1, 2r+2.
    assert_eq!(w.vgpr(2, 0), (11, true));
    assert_eq!(w.vgpr(3, 0), (12, true));
    assert_eq!(w.vgpr(2, 2), (15, true));
    assert_eq!(w.vgpr(2, 3), (0, true), "record 3 of 3 is out of range");
    // offen: index 0, address base + soffset 4 + v1 + 8.
    assert_eq!(w.vgpr(4, 1), (13, true));
    assert_eq!(w.vgpr(4, 2), (14, true));
    assert!(!w.vgpr(4, 3).1, "0x2070 is unmapped");
    assert!(!w.vgpr(4, 0).1, "undefined offset");
    let idx: Vec<_> = obs
        .fetches
        .iter()
        .filter(|f| f.pc == 0x18)
        .map(|f| (f.lane, f.index, f.addr, f.len))
        .collect();
    assert_eq!(
        idx,
        vec![
            (0, Some(0), 0x2004, 8),
            (1, Some(1), 0x200c, 8),
            (2, Some(2), 0x2014, 8)
        ]
    );
    let off: Vec<_> = obs
        .fetches
        .iter()
        .filter(|f| f.pc == 0x20)
        .map(|f| (f.lane, f.index, f.addr))
        .collect();
    assert_eq!(
        off,
        vec![(1, None, 0x200c), (2, None, 0x2010), (3, None, 0x2070)]
    );
    assert!(obs.fetches.iter().all(|f| f.kind == AccessKind::Load));
    assert!(obs.findings.contains(&Finding::UndefinedAddress {
        pc: 0x20,
        wave: 0,
        lane: Some(0),
        what: "offset v1".into()
    }));
    assert!(obs
        .findings
        .iter()
        .any(|f| matches!(f, Finding::Unmapped { addr: 0x2070, .. })));
}

#[test]
fn a_runaway_loop_stops_at_the_step_bound() {
    let prog = [
        0xbf80_0000, // s_nop 0
        0xbf82_fffe, // s_branch -2  (to the nop)
    ];
    let err = run1(&prog, &mut Wave::new(true), &Mem::default()).unwrap_err();
    assert!(
        matches!(err, InterpError::StepLimit { limit: 10_000, .. }),
        "{err}"
    );
}

#[test]
fn unsupported_instructions_name_pc_and_text() {
    let prog = [
        0xbf80_0000, // s_nop 0
        0xb900_f801, // s_getreg_b32 s0, hwreg(HW_REG_MODE)
        S_ENDPGM,
    ];
    let err = run1(&prog, &mut Wave::new(true), &Mem::default()).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err, InterpError::Unsupported { pc: 4, .. }),
        "{msg}"
    );
    assert!(msg.contains("s_getreg_b32 s0, hwreg(HW_REG_MODE)"), "{msg}");
}

#[test]
fn branching_on_an_undefined_condition_is_an_error() {
    let prog = [
        0xbf06_8014, // s_cmp_eq_u32 s20, 0   (s20 undefined)
        0xbf85_0002, // s_cbranch_scc1 2
        S_ENDPGM,
    ];
    let err = run1(&prog, &mut Wave::new(true), &Mem::default()).unwrap_err();
    assert!(
        matches!(err, InterpError::UndefinedControl { pc: 4, .. }),
        "{err}"
    );
    // With s20 defined the branch is taken to pc 4 + 4 + 8 = 16: past the end.
    let mut w = Wave::new(true);
    w.set_sgpr(20, 0);
    let err = run1(&prog, &mut w, &Mem::default()).unwrap_err();
    assert_eq!(err, InterpError::PcOutOfCode { pc: 16, len: 12 });
}

#[test]
fn saveexec_to_an_undefined_mask_stops_exec_branches() {
    let prog = [
        0xbe8e_2410, // s_and_saveexec_b64 s[14:15], s[16:17]
        0xbf88_0001, // s_cbranch_execz 1
        S_ENDPGM,
        S_ENDPGM,
    ];
    let err = run1(&prog, &mut Wave::new(true), &Mem::default()).unwrap_err();
    assert!(
        matches!(err, InterpError::UndefinedControl { pc: 4, .. }),
        "{err}"
    );
    let mut w = Wave::new(true);
    w.set_sgpr(16, 0);
    w.set_sgpr(17, 0);
    run1(&prog, &mut w, &Mem::default()).unwrap();
    assert_eq!(
        w.pc(),
        16,
        "exec became 0: skipped one s_endpgm, ended at the second"
    );
    assert_eq!(w.sgpr(14).v, u32::MAX, "old exec saved");
}
