//! The harness on lavapipe, with small GLSL vertex shaders compiled by
//! glslangValidator (`tests/fixtures/make.sh`; the .spv files are
//! committed). One device serves the whole test binary.
//!
//! Without a Vulkan device these tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set (CI sets it).

use vkharness::{Binding, DeviceChoice, DrawCall, Harness, HarnessError, Interface};

fn spv(name: &str) -> Vec<u32> {
    let path = format!("{}/tests/fixtures/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn ids_interface() -> Interface {
    Interface {
        entry_point: "main".into(),
        bindings: vec![0],
        push_constant_bytes: 16,
    }
}

/// Run ids.vert for one draw and return its slots as (vertex, instance,
/// tag, slot).
fn run_ids(h: &Harness, draw: DrawCall, tag: u32) -> Vec<[u32; 4]> {
    let program = h.program(&spv("ids"), &ids_interface()).unwrap();
    let n = u64::from(draw.vertex_count) * u64::from(draw.instance_count);
    let push = bytes_of(&[
        draw.first_vertex,
        draw.vertex_count,
        draw.first_instance,
        tag,
    ]);
    let out = program
        .run(&draw, &[Binding::output(0, n * 16)], &push)
        .unwrap();
    let w = words(out.buffer(0).unwrap());
    w.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

#[test]
fn default_device_is_a_cpu_device() {
    let Some(h) = Harness::shared_or_skip("default_device_is_a_cpu_device") else {
        return;
    };
    let info = h.device_info();
    eprintln!(
        "device {}: {} ({}, Vulkan {})",
        info.index, info.name, info.device_type, info.api_version
    );
    assert!(info.is_cpu);
    assert_eq!(info.device_type, "CPU");
    assert!(
        h.robust_buffer_access(),
        "lavapipe offers robustBufferAccess"
    );
    assert!(h.max_push_constant_bytes() >= 128, "Vulkan's minimum");
    assert!(h.max_storage_buffer_range() >= 1 << 27, "Vulkan's minimum");
    assert!(h.subgroup_size() >= 1);
}

#[test]
fn every_vertex_of_every_instance_sees_its_indices_and_the_push_constants() {
    let Some(h) = Harness::shared_or_skip("ids") else {
        return;
    };
    let draw = DrawCall {
        vertex_count: 37,
        instance_count: 3,
        first_vertex: 1000,
        first_instance: 5,
    };
    let slots = run_ids(h, draw, 0xdead_beef);
    assert_eq!(slots.len(), 37 * 3);
    for (k, s) in slots.iter().enumerate() {
        let k = k as u32;
        let expect = [1000 + k % 37, 5 + k / 37, 0xdead_beef, k];
        assert_eq!(*s, expect, "slot {k}");
    }
}

#[test]
fn a_draw_with_base_zero_and_one_instance_fills_exactly_its_slots() {
    let Some(h) = Harness::shared_or_skip("ids zero base") else {
        return;
    };
    let draw = DrawCall {
        vertex_count: 3,
        instance_count: 1,
        first_vertex: 0,
        first_instance: 0,
    };
    // One slot more than the draw writes: it stays zero.
    let program = h.program(&spv("ids"), &ids_interface()).unwrap();
    let push = bytes_of(&[0, 3, 0, 7]);
    let out = program
        .run(&draw, &[Binding::output(0, 4 * 16)], &push)
        .unwrap();
    let w = words(out.buffer(0).unwrap());
    assert_eq!(w, vec![0, 0, 7, 0, 1, 0, 7, 1, 2, 0, 7, 2, 0, 0, 0, 0]);
}

#[test]
fn a_program_runs_many_draws_and_input_buffers_reach_the_shader() {
    let Some(h) = Harness::shared_or_skip("transform") else {
        return;
    };
    let program = h
        .program(
            &spv("transform"),
            &Interface {
                entry_point: "main".into(),
                bindings: vec![0, 1, 2],
                push_constant_bytes: 0,
            },
        )
        .unwrap();
    // Small integers and halves: every product and sum is exact in f32, so
    // the result is the same whatever order or fusing the device uses.
    let m: [f32; 16] = [
        2.0, 0.0, 0.5, 1.0, // column 0
        0.0, -3.0, 0.0, 0.0, // column 1
        1.0, 0.0, 4.0, 0.0, // column 2
        7.0, 8.0, -9.0, 1.0, // column 3
    ];
    for round in 0..3u32 {
        let n = 10 + round * 5;
        let verts: Vec<f32> = (0..n)
            .flat_map(|v| {
                let v = v as f32;
                [v, 0.5 * v + round as f32, -v, 1.0]
            })
            .collect();
        let vb: Vec<u8> = verts.iter().flat_map(|f| f.to_le_bytes()).collect();
        let mb: Vec<u8> = m.iter().flat_map(|f| f.to_le_bytes()).collect();
        let out = program
            .run(
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
            )
            .unwrap();
        let got: Vec<f32> = words(out.buffer(2).unwrap())
            .into_iter()
            .map(f32::from_bits)
            .collect();
        for v in 0..n as usize {
            let p = &verts[v * 4..v * 4 + 4];
            for row in 0..4 {
                let want: f32 = (0..4).map(|c| m[c * 4 + row] * p[c]).sum();
                assert_eq!(
                    got[v * 4 + row].to_bits(),
                    want.to_bits(),
                    "round {round} vertex {v} row {row}"
                );
            }
        }
        assert!(out.buffer(0).is_none(), "inputs are not read back");
    }
}

#[test]
fn atomics_in_the_vertex_stage_mark_every_vertex_exactly() {
    let Some(h) = Harness::shared_or_skip("bits") else {
        return;
    };
    let program = h
        .program(
            &spv("bits"),
            &Interface {
                entry_point: "main".into(),
                bindings: vec![0],
                push_constant_bytes: 0,
            },
        )
        .unwrap();
    // Vertices 40..=99 of a 4-word mask; word 0 is the invocation count.
    let draw = DrawCall {
        vertex_count: 60,
        instance_count: 2,
        first_vertex: 40,
        first_instance: 0,
    };
    let out = program
        .run(
            &draw,
            &[Binding {
                binding: 0,
                bytes: &[],
                size: 4 * 5,
                read_back: true,
            }],
            &[],
        )
        .unwrap();
    let w = words(out.buffer(0).unwrap());
    let mut mask = [0u32; 4];
    for v in 40..100u32 {
        mask[(v / 32) as usize] |= 1 << (v % 32);
    }
    assert_eq!(&w[1..], &mask);
    // A vertex may be shaded more than once, never less.
    assert!(w[0] >= 120, "count {}", w[0]);
}

#[test]
fn given_bytes_are_kept_and_the_rest_of_a_buffer_is_zero() {
    let Some(h) = Harness::shared_or_skip("bits preset") else {
        return;
    };
    let program = h
        .program(
            &spv("bits"),
            &Interface {
                entry_point: "main".into(),
                bindings: vec![0],
                push_constant_bytes: 0,
            },
        )
        .unwrap();
    let init = bytes_of(&[1000, 0x8000_0000]);
    let out = program
        .run(
            &DrawCall {
                vertex_count: 1,
                instance_count: 1,
                first_vertex: 33,
                first_instance: 0,
            },
            &[Binding {
                binding: 0,
                bytes: &init,
                size: 16,
                read_back: true,
            }],
            &[],
        )
        .unwrap();
    let w = words(out.buffer(0).unwrap());
    assert!(w[0] > 1000);
    assert_eq!(&w[1..], &[0x8000_0000, 2, 0]);
}

fn input_error(r: Result<vkharness::RunOutput, HarnessError>) -> String {
    match r {
        Err(HarnessError::Input(s)) => s,
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn run_inputs_that_do_not_match_the_interface_are_typed_errors() {
    let Some(h) = Harness::shared_or_skip("bad inputs") else {
        return;
    };
    let program = h.program(&spv("ids"), &ids_interface()).unwrap();
    let draw = DrawCall {
        vertex_count: 1,
        instance_count: 1,
        first_vertex: 0,
        first_instance: 0,
    };
    let e = input_error(program.run(&draw, &[], &[]));
    assert!(e.contains("binding 0 given 0 buffers"), "{e}");
    let e = input_error(program.run(
        &draw,
        &[Binding::output(0, 16), Binding::output(0, 16)],
        &[],
    ));
    assert!(e.contains("binding 0 given 2 buffers"), "{e}");
    let e = input_error(program.run(&draw, &[Binding::output(3, 16)], &[]));
    assert!(e.contains("binding 3"), "{e}");
    let e = input_error(program.run(&draw, &[Binding::output(0, 16)], &[0; 20]));
    assert!(e.contains("20 bytes of push constants"), "{e}");
    let e = input_error(program.run(
        &draw,
        &[Binding {
            binding: 0,
            bytes: &[0; 8],
            size: 4,
            read_back: false,
        }],
        &[],
    ));
    assert!(e.contains("8 bytes given for a 4-byte buffer"), "{e}");
    // The program still works after refused runs.
    let out = program
        .run(&draw, &[Binding::output(0, 16)], &bytes_of(&[0, 1, 0, 9]))
        .unwrap();
    assert_eq!(words(out.buffer(0).unwrap()), vec![0, 0, 9, 0]);
}

fn shader_error(r: Result<vkharness::VertexProgram<'_>, HarnessError>) -> String {
    match r {
        Err(HarnessError::Shader(s)) => s,
        Err(e) => panic!("expected a shader error, got {e:?}"),
        Ok(_) => panic!("expected a shader error, got a program"),
    }
}

#[test]
fn modules_whose_interface_differs_from_the_layout_are_refused_before_the_driver() {
    let Some(h) = Harness::shared_or_skip("bad modules") else {
        return;
    };
    let ids = spv("ids");
    // The shader's buffer is at binding 0; the layout has only binding 1.
    let e = shader_error(h.program(
        &ids,
        &Interface {
            bindings: vec![1],
            ..ids_interface()
        },
    ));
    assert!(e.contains("set 0 binding 0 is not in the interface"), "{e}");
    // Its push block is 16 bytes.
    let e = shader_error(h.program(
        &ids,
        &Interface {
            push_constant_bytes: 8,
            ..ids_interface()
        },
    ));
    assert!(e.contains("push-constant block"), "{e}");
    let e = shader_error(h.program(
        &ids,
        &Interface {
            entry_point: "other".into(),
            ..ids_interface()
        },
    ));
    assert!(e.contains("no vertex entry point named `other`"), "{e}");
    let e = shader_error(h.program(&[1, 2, 3, 4, 5, 6], &ids_interface()));
    assert!(e.contains("not a SPIR-V module"), "{e}");
    // A truncated module.
    let e = shader_error(h.program(&ids[..ids.len() / 2], &ids_interface()));
    assert!(e.contains("naga"), "{e}");
    // SPIR-V 1.4 needs Vulkan 1.2.
    let mut v14 = ids.clone();
    v14[1] = 0x0001_0400;
    let e = shader_error(h.program(&v14, &ids_interface()));
    assert!(e.contains("above 1.3"), "{e}");
    // A capability the device is not asked for (Int8) never reaches it.
    let mut int8 = ids.clone();
    int8.splice(5..5, [(2 << 16) | 17, 39]);
    let e = shader_error(h.program(&int8, &ids_interface()));
    assert!(e.contains("declares Int8"), "{e}");
    // Repeated bindings are an input error.
    match h.program(
        &ids,
        &Interface {
            bindings: vec![0, 0],
            ..ids_interface()
        },
    ) {
        Err(HarnessError::Input(s)) => assert!(s.contains("repeated"), "{s}"),
        _ => panic!("repeated bindings accepted"),
    }
}

#[test]
fn a_device_index_past_the_end_is_a_typed_error() {
    if Harness::shared_or_skip("device index").is_none() {
        return;
    }
    let n = vkharness::list_devices().unwrap().len();
    match Harness::new(DeviceChoice::Index(n)) {
        Err(e @ HarnessError::DeviceIndex { .. }) => {
            let HarnessError::DeviceIndex {
                index,
                count,
                ref available,
            } = e
            else {
                unreachable!()
            };
            assert_eq!((index, count, available.len()), (n, n, n));
            assert!(e.to_string().contains("0: llvmpipe"), "{e}");
        }
        Err(e) => panic!("expected DeviceIndex, got {e}"),
        Ok(_) => panic!("device {n} of {n} exists"),
    }
}

#[test]
fn a_fused_multiply_add_through_doubles_is_exact_where_glsl_fma_may_not_be() {
    let Some(h) = Harness::shared_or_skip("fma") else {
        return;
    };
    let program = h
        .program(
            &spv("fma"),
            &Interface {
                entry_point: "main".into(),
                bindings: vec![0, 1],
                push_constant_bytes: 0,
            },
        )
        .unwrap();
    let e = 1.0 + f32::powi(2.0, -12);
    // (a, b, c, fused result): the product's low bits matter.
    let cases: [(f32, f32, f32, f32); 3] = [
        (e, e, -(1.0 + f32::powi(2.0, -11)), f32::powi(2.0, -24)),
        (3.0, 5.0, 7.0, 22.0),
        (f32::from_bits(0x3dcc_cccd), 10.0, -1.0, f32::powi(2.0, -26)),
    ];
    let input: Vec<u8> = cases
        .iter()
        .flat_map(|&(a, b, c, _)| [a, b, c, 0.0])
        .flat_map(f32::to_le_bytes)
        .collect();
    let n = cases.len() as u32;
    let out = program
        .run(
            &DrawCall {
                vertex_count: n,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            &[
                Binding::input(0, &input),
                Binding::output(1, u64::from(n) * 8),
            ],
            &[],
        )
        .unwrap();
    let w = words(out.buffer(1).unwrap());
    for (k, &(a, b, c, fused)) in cases.iter().enumerate() {
        assert_eq!(a.mul_add(b, c), fused, "case {k}: the host's fused result");
        let glsl = f32::from_bits(w[2 * k]);
        let via_double = f32::from_bits(w[2 * k + 1]);
        eprintln!("case {k}: fused {fused:e}, GLSL fma {glsl:e}, via doubles {via_double:e}");
        assert_eq!(via_double.to_bits(), fused.to_bits(), "case {k}");
    }
}
