//! The source-level oracle (`shaderlift oracle`): the GLSL of the bundled
//! corpus's vertex shaders, run on lavapipe, against the interpreter's
//! exports of RADV's machine code for the same inputs.
//!
//! Long run over the developer real corpus (`../shared/real-corpus`):
//! `cargo test -p shaderlift --test source_oracle -- --ignored`.

use shaderlift_cli::oracle::spirv::{OutputSlot, Scalar};
use shaderlift_cli::oracle::{
    check_entry, entry_dirs, entry_line, float_verdict, radv_packing, EntryReport, Verdict,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vkharness::Harness;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The harness, or `None` (with a note) when this machine has no Vulkan
/// device or no glslangValidator and `SHADERLIFT_REQUIRE_VULKAN` is unset.
fn setup(test: &str) -> Option<&'static Harness> {
    let h = Harness::shared_or_skip(test)?;
    let glslang = std::process::Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !glslang {
        let required = std::env::var_os("SHADERLIFT_REQUIRE_VULKAN")
            .is_some_and(|v| !v.is_empty() && v != "0");
        assert!(
            !required,
            "{test}: glslangValidator is missing (apt-get install glslang-tools)"
        );
        eprintln!("note: {test}: skipped, no glslangValidator");
        return None;
    }
    Some(h)
}

fn bundled_vertex_entries() -> Vec<PathBuf> {
    entry_dirs(&workspace().join("corpus/radv")).expect("corpus/radv")
}

#[test]
fn bundled_vertex_shaders_agree_with_their_glsl() {
    let Some(h) = setup("bundled_vertex_shaders_agree_with_their_glsl") else {
        return;
    };
    let entries = bundled_vertex_entries();
    let names: Vec<String> = entries
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // cube, instanced and their nggc/legacy/w32 variants.
    assert_eq!(names.len(), 10, "{names:?}");
    for e in &entries {
        let r = check_entry(e, h).expect("the oracle's machinery");
        assert!(r.agrees(), "{}", entry_line(&r));
        assert!(r.cannot_run.is_none());
        // Position and the colour of every vertex of the draw, all defined.
        assert_eq!(r.words, r.vertices * 8, "{}", entry_line(&r));
        assert_eq!(r.undefined, 0);
    }
}

#[test]
fn a_wrong_fmac_makes_the_source_oracle_disagree() {
    let Some(h) = setup("a_wrong_fmac_makes_the_source_oracle_disagree") else {
        return;
    };
    // cube's position is ubo.mvp * inPos, which ACO computes with v_fmac_f32.
    for name in ["cube", "cube-legacy-vs", "instanced-w32"] {
        let dir = workspace().join("corpus/radv").join(name);
        let right = check_entry(&dir, h).unwrap();
        assert!(right.agrees(), "{}", entry_line(&right));
        let wrong: EntryReport =
            interp::faults::with_fmac_operands_swapped(|| check_entry(&dir, h).unwrap());
        assert!(wrong.cannot_run.is_none(), "{}", entry_line(&wrong));
        assert!(
            wrong.mismatches > 0 && !wrong.agrees(),
            "the swapped fmac went unnoticed: {}",
            entry_line(&wrong)
        );
        assert!(wrong.first_mismatches.iter().all(|m| m.export == "pos0"));
    }
}

fn slot(location: u32, components: u32, scalar: Scalar) -> OutputSlot {
    OutputSlot {
        location,
        component: 0,
        components,
        scalar,
        expr: format!("o{location}"),
    }
}

#[test]
fn radv_packs_output_components_densely_by_interpolation_type() {
    // vec4 o_pos, vec2 o_uv, vec3 o_normal (async-compute-forward-vert):
    // o_normal.xy join o_uv in param1, o_normal.z starts param2.
    let outs = [
        slot(0, 4, Scalar::F32),
        slot(1, 2, Scalar::F32),
        slot(2, 3, Scalar::F32),
    ];
    let p = radv_packing(&outs, &BTreeSet::new());
    assert_eq!(p[&(0, 3)], (0, 3));
    assert_eq!(p[&(1, 1)], (1, 1));
    assert_eq!(p[&(2, 0)], (1, 2));
    assert_eq!(p[&(2, 1)], (1, 3));
    assert_eq!(p[&(2, 2)], (2, 0));
    // An integer output never shares a slot with floats; a dropped
    // (constant) component takes no place.
    let outs = [slot(0, 3, Scalar::F32), slot(1, 1, Scalar::I32)];
    let dropped: BTreeSet<(u32, u32)> = [(0, 1)].into_iter().collect();
    let p = radv_packing(&outs, &dropped);
    assert_eq!(p[&(0, 0)], (0, 0));
    assert_eq!(p[&(0, 2)], (0, 1));
    assert!(!p.contains_key(&(0, 1)));
    assert_eq!(p[&(1, 0)], (1, 0));
}

#[test]
fn float_words_agree_within_the_documented_bound_only() {
    let b = |x: f32| x.to_bits();
    assert_eq!(float_verdict(b(1.5), b(1.5)), Verdict::Exact);
    assert_eq!(float_verdict(0x7fc0_0000, 0x7fc0_0001), Verdict::Exact);
    let one_ulp = f32::from_bits(b(1.5) + 1);
    assert_eq!(float_verdict(b(1.5), b(one_ulp)), Verdict::WithinBound);
    // Near 0 the bound is absolute (ulps of 1.0): 2^-16 passes, 2^-14 not.
    assert_eq!(float_verdict(0, b(2f32.powi(-16))), Verdict::WithinBound);
    assert_eq!(float_verdict(0, b(2f32.powi(-14))), Verdict::Mismatch);
    assert_eq!(float_verdict(b(1.0), b(-1.0)), Verdict::Mismatch);
    assert_eq!(float_verdict(b(f32::INFINITY), b(1.0)), Verdict::Mismatch);
}

/// Every vertex entry of the developer real corpus that the oracle can run
/// agrees with its GLSL. About a minute in a debug build.
#[test]
#[ignore = "long: the developer real corpus (../shared/real-corpus)"]
fn real_corpus_vertex_shaders_agree_with_their_glsl() {
    let Some(h) = setup("real_corpus_vertex_shaders_agree_with_their_glsl") else {
        return;
    };
    let dir = workspace().join("../shared/real-corpus");
    let entries = entry_dirs(&dir).expect("../shared/real-corpus");
    let (mut ran, mut agree) = (0, 0);
    let mut disagree = Vec::new();
    for e in &entries {
        let r = check_entry(e, h).expect("the oracle's machinery");
        if r.cannot_run.is_some() {
            continue;
        }
        ran += 1;
        if r.agrees() {
            agree += 1;
        } else {
            disagree.push(entry_line(&r));
        }
    }
    eprintln!(
        "{} vertex entries with GLSL: {ran} ran, {agree} agree",
        entries.len()
    );
    assert!(ran > 0);
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

#[test]
fn source_programs_refuse_unfed_inputs_and_undeclared_buffers() {
    use shaderlift_cli::oracle::compile_glsl;
    use vkharness::{
        DescriptorDesc, DescriptorKind, HarnessError, SourceInterface, VertexAttributeDesc,
        VertexBindingDesc, VertexFormat,
    };
    let Some(h) = setup("source_programs_refuse_unfed_inputs_and_undeclared_buffers") else {
        return;
    };
    let spv = compile_glsl(
        "#version 450\nlayout(location = 0) in vec4 p;\nlayout(set = 1, binding = 2) uniform U { vec4 k; } u;\nvoid main() { gl_Position = p * u.k; }\n",
        "refusals",
    )
    .unwrap();
    let ubo = DescriptorDesc {
        set: 1,
        binding: 2,
        kind: DescriptorKind::Uniform,
    };
    let fed = SourceInterface {
        entry_point: "main".into(),
        vertex_bindings: vec![VertexBindingDesc {
            binding: 0,
            stride: 16,
            per_instance: false,
        }],
        vertex_attributes: vec![VertexAttributeDesc {
            location: 0,
            binding: 0,
            format: VertexFormat::from_name("R32G32B32A32_SFLOAT").unwrap(),
            offset: 0,
        }],
        descriptors: vec![ubo],
        push_constant_bytes: 0,
    };
    assert!(h.source_program(&spv, &fed).is_ok());
    let unfed = SourceInterface {
        vertex_attributes: Vec::new(),
        ..fed.clone()
    };
    assert!(matches!(
        h.source_program(&spv, &unfed),
        Err(HarnessError::Shader(m)) if m.contains("location 0")
    ));
    let storage = SourceInterface {
        descriptors: vec![DescriptorDesc {
            kind: DescriptorKind::Storage,
            ..ubo
        }],
        ..fed.clone()
    };
    assert!(matches!(
        h.source_program(&spv, &storage),
        Err(HarnessError::Shader(m)) if m.contains("set 1 binding 2")
    ));
    assert!(VertexFormat::from_name("R64_SFLOAT").is_none());
}
