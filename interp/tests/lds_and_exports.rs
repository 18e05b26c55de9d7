//! LDS accesses, workgroup barriers and exports.

mod common;

use common::{code, run1, Mem};
use interp::{Env, Lds, Limits, Observations, Program, Status, Wave};

const S_ENDPGM: u32 = 0xbf81_0000;

#[test]
fn lds_reads_see_writes_with_offsets_pairs_and_d16_halves() {
    let prog = [
        0xd834_000c,
        0x0000_0201, // ds_write_b32 v1, v2 offset:12
        0xd838_0201,
        0x0003_0201, // ds_write2_b32 v1, v2, v3 offset0:1 offset1:2
        0xd8d8_0010,
        0x0400_0001, // ds_read_b32 v4, v1 offset:16
        0xd8dc_0403,
        0x0500_0001, // ds_read2_b32 v[5:6], v1 offset0:3 offset1:4
        0xd878_0064,
        0x0000_0301, // ds_write_b8 v1, v3 offset:100
        0xda88_0064,
        0x0700_0001, // ds_read_u8_d16 v7, v1 offset:100
        0xd8e8_0064,
        0x0800_0000, // ds_read_u8 v8, v0 offset:100
        S_ENDPGM,
    ];
    let mut w = Wave::new(true);
    w.set_exec(0b11);
    for lane in 0..2 {
        w.set_vgpr(1, lane, 64 * lane);
        w.set_vgpr(2, lane, 0x1000 + lane);
        w.set_vgpr(3, lane, 0x2000 + 0x11 * lane);
        w.set_vgpr(7, lane, 0xabcd_0000);
    }
    w.set_vgpr(0, 0, 64); // lane 0 reads lane 1's byte
                          // lane 1's v0 stays undefined: its read is reported, not performed.
    let obs = run1(&prog, &mut w, &Mem::default()).unwrap();
    for lane in 0..2u32 {
        // offset0:1 offset1:2 of write2_b32 are bytes 4 and 8; byte 12 is v2.
        assert_eq!(
            w.vgpr(4, lane),
            (0, false),
            "bytes 16..20 were never written"
        );
        assert_eq!(
            w.vgpr(5, lane),
            (0x1000 + lane, true),
            "offset0:3 = byte 12"
        );
        assert!(!w.vgpr(6, lane).1, "byte 16 was never written");
        assert_eq!(
            w.vgpr(7, lane),
            (0xabcd_0000 | (0x11 * lane) & 0xff, true),
            "d16 keeps the high half"
        );
    }
    assert_eq!(w.vgpr(8, 0), (0x11, true));
    assert!(!w.vgpr(8, 1).1);
    assert_eq!(obs.findings.len(), 1, "{:?}", obs.findings);
}

#[test]
fn waves_of_a_workgroup_meet_at_barriers_over_one_lds() {
    let prog = [
        0xd834_000c,
        0x0000_0201, // ds_write_b32 v1, v2 offset:12
        0xbf8a_0000, // s_barrier
        0xd8d8_000c,
        0x0400_0000, // ds_read_b32 v4, v0 offset:12
        S_ENDPGM,
    ];
    let p = Program::new(&code(&prog), isa::Target::Gfx1030);
    let mem = Mem::default();
    let run_steps = std::cell::Cell::new(0);
    let env = Env {
        program: &p,
        memory: &mem,
        limits: Limits::default(),
        code_addr: 0,
        run_steps: &run_steps,
    };
    let mut waves = [Wave::new(true), Wave::new(true)];
    for (wi, w) in waves.iter_mut().enumerate() {
        w.set_exec(0b1111);
        for lane in 0..4u32 {
            let own = 64 * wi as u32 + 4 * lane;
            let other = 64 * (1 - wi as u32) + 4 * lane;
            w.set_vgpr(1, lane, own);
            w.set_vgpr(2, lane, 100 * (wi as u32 + 1) + lane);
            w.set_vgpr(0, lane, other);
        }
    }
    let mut lds = Lds::new();
    let mut obs = Observations::new();
    interp::run_workgroup(&env, &mut waves, 7, &mut lds, &mut obs).unwrap();
    for lane in 0..4 {
        assert_eq!(waves[0].vgpr(4, lane), (200 + lane, true));
        assert_eq!(waves[1].vgpr(4, lane), (100 + lane, true));
    }
    assert!(waves.iter().all(|w| w.status() == Status::Ended));
    // Without the barrier, wave 0 would read before wave 1 wrote.
    let mut lone = Wave::new(true);
    lone.set_exec(1);
    lone.set_vgpr(0, 0, 64);
    lone.set_vgpr(1, 0, 0);
    lone.set_vgpr(2, 0, 5);
    let mut lds = Lds::new();
    let st = interp::run_wave(&env, &mut lone, 0, &mut lds, &mut obs).unwrap();
    assert_eq!(st, Status::Barrier);
}

#[test]
fn exports_record_every_active_lane_with_definedness() {
    let prog = [
        0xf800_08cf,
        0x0504_0302, // exp pos0 v2, v3, v4, v5 done
        0xf800_0941,
        0x0000_0000, // exp prim v0, off, off, off done
        S_ENDPGM,
    ];
    let mut w = Wave::new(true);
    w.set_exec(0b101);
    for lane in [0, 2] {
        for r in 0..4 {
            w.set_vgpr(2 + r, lane, 10 * lane + r as u32);
        }
        w.set_vgpr(0, lane, 0x1234);
    }
    let obs = run1(&prog, &mut w, &Mem::default()).unwrap();
    let pos: Vec<_> = obs
        .exports
        .iter()
        .filter(|e| e.target == 12)
        .map(|e| (e.lane, e.values, e.defined))
        .collect();
    assert_eq!(
        pos,
        vec![(0, [0, 1, 2, 3], 0xf), (2, [20, 21, 22, 23], 0xf)]
    );
    let prim: Vec<_> = obs
        .exports
        .iter()
        .filter(|e| e.target_name() == "prim")
        .map(|e| (e.lane, e.values[0], e.defined))
        .collect();
    assert_eq!(prim, vec![(0, 0x1234, 1), (2, 0x1234, 1)]);
}
