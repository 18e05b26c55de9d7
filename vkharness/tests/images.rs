//! Image resources on lavapipe: a compute shader and a vertex shader each
//! sample a combined image sampler (nearest) and read and write a storage
//! image in place (`tests/fixtures/images.comp`, `images.vert`).
//!
//! Without a Vulkan device these tests print a note and pass, unless
//! `SHADERLIFT_REQUIRE_VULKAN` is set.

use vkharness::{
    Binding, DrawCall, Harness, HarnessError, ImageDim, ImageInput, ImageSlot, ImageSlotKind,
    Interface, SamplerDesc,
};

fn spv(name: &str) -> Vec<u32> {
    let path = format!("{}/tests/fixtures/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

const SLOTS: [ImageSlot; 2] = [
    ImageSlot {
        binding: 1,
        kind: ImageSlotKind::Sampled,
        count: 1,
    },
    ImageSlot {
        binding: 2,
        kind: ImageSlotKind::Storage,
        count: 1,
    },
];

fn interface() -> Interface {
    Interface {
        entry_point: "main".into(),
        bindings: vec![0],
        push_constant_bytes: 0,
    }
}

/// 4×4 RGBA32F texels: (x, y, 10x + y, 100).
fn texels() -> Vec<u8> {
    let mut v = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            for c in [x as f32, y as f32, (10 * x + y) as f32, 100.0] {
                v.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    v
}

fn image(binding: u32, texels: &[u8], sampler: Option<SamplerDesc>) -> ImageInput<'_> {
    ImageInput {
        binding,
        element: 0,
        format: ash::vk::Format::R32G32B32A32_SFLOAT,
        dim: ImageDim::D2,
        extent: [4, 4, 1],
        texels,
        sampler,
        read_back: sampler.is_none(),
    }
}

#[test]
fn a_compute_shader_samples_nearest_texels_and_writes_a_storage_image() {
    let Some(h) = Harness::shared_or_skip("images") else {
        return;
    };
    let p = h
        .compute_program_with_images(&spv("images"), &interface(), &SLOTS)
        .expect("program");
    let tex = texels();
    let out = p
        .dispatch_with_images(
            [1, 1, 1],
            &[Binding::output(0, 16 * 16)],
            &[
                image(1, &tex, Some(SamplerDesc::default())),
                image(2, &tex, None),
            ],
            &[],
        )
        .expect("dispatch");
    let sampled = floats(out.buffer(0).unwrap());
    let stored = floats(out.image(2).expect("read back"));
    let orig = floats(&tex);
    for y in 0..4usize {
        for x in 0..4usize {
            let i = 4 * (4 * y + x);
            // uv = (p + (0.3, 0.6)) / 4: nearest is texel p itself.
            assert_eq!(&sampled[i..i + 4], &orig[i..i + 4], "texel ({x}, {y})");
            for c in 0..4 {
                assert_eq!(stored[i + c], 3.0 * orig[i + c], "stored ({x}, {y}).{c}");
            }
        }
    }
}

#[test]
fn a_vertex_shader_samples_nearest_texels_and_writes_a_storage_image() {
    let Some(h) = Harness::shared_or_skip("images") else {
        return;
    };
    let p = h
        .program_with_images(&spv("images_vert"), &interface(), &SLOTS)
        .expect("program");
    let tex = texels();
    let out = p
        .run_with_images(
            &DrawCall {
                vertex_count: 16,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            &[Binding::output(0, 16 * 16)],
            &[
                image(1, &tex, Some(SamplerDesc::default())),
                image(2, &tex, None),
            ],
            &[],
        )
        .expect("run");
    let sampled = floats(out.buffer(0).unwrap());
    let stored = floats(out.image(2).expect("read back"));
    let orig = floats(&tex);
    for y in 0..4usize {
        for x in 0..4usize {
            let i = 4 * (4 * y + x);
            assert_eq!(&sampled[i..i + 4], &orig[i..i + 4], "texel ({x}, {y})");
            for c in 0..4 {
                assert_eq!(stored[i + c], 3.0 * orig[i + c], "stored ({x}, {y}).{c}");
            }
        }
    }
    // Without the image slots the module's images are not in the interface.
    match h.program(&spv("images_vert"), &interface()) {
        Err(HarnessError::Shader(m)) => assert!(m.contains("image binding"), "{m}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a vertex module with undeclared images was accepted"),
    }
}

#[test]
fn images_that_do_not_match_the_program_are_typed_errors() {
    let Some(h) = Harness::shared_or_skip("images") else {
        return;
    };
    let p = h
        .compute_program_with_images(&spv("images"), &interface(), &SLOTS)
        .expect("program");
    let tex = texels();
    let out = [Binding::output(0, 256)];
    let err = |images: &[ImageInput<'_>]| match p.dispatch_with_images([1, 1, 1], &out, images, &[])
    {
        Err(HarnessError::Input(m)) => m,
        other => panic!("expected an input error, got {other:?}"),
    };
    assert!(err(&[image(1, &tex, Some(SamplerDesc::default()))]).contains("binding 2 given 0"));
    assert!(err(&[image(1, &tex, None), image(2, &tex, None)]).contains("needs a sampler"));
    let short = &tex[..16];
    assert!(err(&[
        image(1, short, Some(SamplerDesc::default())),
        image(2, &tex, None)
    ])
    .contains("texel bytes"));
    // Without the image slots the module's images are not in the interface.
    match h.compute_program(&spv("images"), &interface()) {
        Err(HarnessError::Shader(m)) => assert!(m.contains("image binding"), "{m}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a module with undeclared images was accepted"),
    }
}
