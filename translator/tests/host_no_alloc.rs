//! `HostBinder::bind_draw` and `HostBinder::window` allocate nothing:
//! counted by a global allocator.
//!
//! The binary has no test harness (`harness = false`): libtest's own
//! threads would allocate while the counter runs.

use analysis::trace::{trace_code, TraceConfig};
use corpus::{Capture, CaptureOptions, WaveSize};
use drawbind::draws::DrawsFile;
use drawbind::{BindPlan, BindRange};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::hint::black_box;
use translator::host::{HostBinder, HostBinding};
use translator::{translate, Options};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let c = Capture::open(root.join("corpus/radv/cube"), &CaptureOptions::default()).unwrap();
    let text = std::fs::read_to_string(root.join("cli/tests/draws/cube.json")).unwrap();
    let file = DrawsFile::parse(&text).unwrap();
    let config = TraceConfig::new(c.stage(), c.abi(), c.wave_size() == WaveSize::W32);
    let trace = trace_code(&c.code, c.target(), &config);
    let opts = Options {
        checked: true,
        ..Options::default()
    };
    let t = translate(&c.shader_input(), Some(&trace), &opts).unwrap();
    let plan = BindPlan::new(&trace, c.stage())
        .unwrap()
        .with_code_address(file.code_addr());
    let binder = HostBinder::new(&t.manifest, trace, plan, Some(file.code_addr()));
    let memory = file.memory_with_code(&c.code_and_constants());
    let user_data = file.user_data();
    let draws: Vec<_> = file
        .draws
        .iter()
        .map(|d| d.as_draw_scanned(&memory).unwrap())
        .collect();
    let mut scratch = vec![BindRange::EMPTY; binder.scratch_len()];
    let mut out = vec![HostBinding::EMPTY; binder.len()];
    let mut narrowed = 0;
    let r = Region::new(GLOBAL);
    for _ in 0..100 {
        for d in &draws {
            let n = binder
                .bind_draw(black_box(d), &user_data, &memory, &mut scratch, &mut out)
                .unwrap();
            narrowed += out[..n].iter().filter(|b| b.last_record.is_some()).count();
            let w = binder
                .window(&user_data, &memory, &mut scratch, 64 << 20)
                .unwrap();
            black_box(w);
        }
        // The error path allocates nothing either.
        black_box(binder.bind_draw(&draws[0], &user_data, &memory, &mut scratch, &mut []))
            .unwrap_err();
    }
    let stats = r.change();
    assert!(narrowed > 0);
    assert_eq!(stats.allocations, 0, "{stats:?}");
    println!("host_no_alloc: 1 passed, 0 failed");
}
