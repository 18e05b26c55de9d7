//! Prints how long the harness takes on this machine: device creation,
//! pipeline creation and one run, for the `transform` fixture.
//!
//! `cargo run --release -p vkharness --example timing`

use std::time::Instant;
use vkharness::{Binding, DeviceChoice, DrawCall, Harness, Interface};

fn main() -> Result<(), vkharness::HarnessError> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/transform.spv");
    let bytes = std::fs::read(path).expect("fixture");
    let spirv: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let t = Instant::now();
    let h = Harness::new(DeviceChoice::Default)?;
    println!("device {:?}: {:.1} ms", h.device_info().name, ms(t));
    let interface = Interface {
        entry_point: "main".into(),
        bindings: vec![0, 1, 2],
        push_constant_bytes: 0,
    };
    for i in 0..3 {
        let t = Instant::now();
        let p = h.program(&spirv, &interface)?;
        println!("program {i}: {:.2} ms", ms(t));
        let n = 1000u32;
        let vb = vec![0u8; n as usize * 16];
        let mb = vec![0u8; 64];
        let mut runs = Vec::new();
        for _ in 0..20 {
            let t = Instant::now();
            p.run(
                &DrawCall {
                    vertex_count: n,
                    instance_count: 1,
                    first_vertex: 0,
                    first_instance: 0,
                },
                &[
                    Binding::input(0, &vb),
                    Binding::input(1, &mb),
                    Binding::output(2, u64::from(n) * 16),
                ],
                &[],
            )?;
            runs.push(ms(t));
        }
        runs.sort_by(f64::total_cmp);
        println!(
            "  run of {n} vertices: median {:.3} ms, min {:.3} ms",
            runs[runs.len() / 2],
            runs[0]
        );
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
