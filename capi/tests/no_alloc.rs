//! `shaderlift_bind` allocates nothing on success, the first call on a
//! thread included: counted by a global allocator.
//!
//! The binary has no test harness (`harness = false`): libtest's own
//! threads would allocate while the counter runs.

use shaderlift_capi::draws::*;
use shaderlift_capi::plan::*;
use shaderlift_capi::shader::*;
use shaderlift_capi::*;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null_mut;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    shaderlift_bind_allocates_nothing_on_success();
    println!("no_alloc: 1 passed, 0 failed");
}

fn path(rel: &str) -> CString {
    CString::new(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn shaderlift_bind_allocates_nothing_on_success() {
    let (mut shader, mut plan, mut draws) = (null_mut(), null_mut(), null_mut());
    // SAFETY: valid C strings and out-pointers.
    unsafe {
        let s = shaderlift_shader_open(path("corpus/radv/instanced").as_ptr(), &mut shader);
        assert_eq!(s, shaderlift_status::Ok);
        assert_eq!(
            shaderlift_plan_new(shader, &mut plan),
            shaderlift_status::Ok
        );
        let s = shaderlift_draws_load(path("cli/tests/draws/instanced.json").as_ptr(), &mut draws);
        assert_eq!(s, shaderlift_status::Ok);
    }
    let chunks = [
        shaderlift_chunk {
            first: 0,
            count: 18,
        },
        shaderlift_chunk {
            first: 18,
            count: 18,
        },
    ];
    let c_draws = [
        shaderlift_draw {
            vertex_count: 36,
            instance_count: 4,
            ..Default::default()
        },
        shaderlift_draw {
            vertex_count: 36,
            chunks: chunks.as_ptr(),
            chunk_count: 2,
            ..Default::default()
        },
        shaderlift_draw {
            kind: shaderlift_draw_kind::Indexed as u32,
            index_count: 36,
            instance_count: 3,
            ..Default::default()
        },
    ];
    let mut ud_n = 0;
    // SAFETY: a live handle.
    let ud = unsafe { shaderlift_draws_user_data(draws, &mut ud_n) };
    let mut out = [shaderlift_range::default(); 3];

    // The counter works: a Vec allocation is seen.
    let region = Region::new(GLOBAL);
    black_box(vec![1u8; 16]);
    assert!(
        region.change().allocations > 0,
        "negative control: the counter saw nothing"
    );

    for (i, d) in c_draws.iter().enumerate() {
        let mut n = 0;
        let r = Region::new(GLOBAL);
        // SAFETY: live handles and buffers sized as passed.
        let s = black_box(unsafe {
            shaderlift_bind(
                plan,
                black_box(d),
                ud,
                ud_n,
                Some(shaderlift_draws_read),
                draws.cast(),
                out.as_mut_ptr(),
                out.len(),
                &mut n,
            )
        });
        let allocations = r.change().allocations;
        assert_eq!((s, n), (shaderlift_status::Ok, 3), "draw {i}");
        assert_eq!(allocations, 0, "draw {i}: {d:?}");
    }
    // SAFETY: handles from above, freed once.
    unsafe {
        shaderlift_plan_free(plan);
        shaderlift_draws_free(draws);
        shaderlift_shader_free(shader);
    }
}
