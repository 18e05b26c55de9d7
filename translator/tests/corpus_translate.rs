//! Every shader of the bundled RADV corpus: the vertex shaders translate,
//! naga and spirv-val accept the modules, and their SPIR-V disassembly and
//! manifest are pinned; the others fail with the full list of unsupported
//! constructs, which is pinned too.

#[path = "support/spirv.rs"]
mod spirv_check;

use rspirv::binary::Disassemble;
use spirv_check::spirv_val;
use std::path::Path;
use translator::{translate, Options, TranslateError};

fn radv(name: &str) -> corpus::Capture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("corpus/radv")
        .join(name);
    corpus::Capture::open(&dir, &Default::default()).expect("open corpus entry")
}

const VERTEX: &[&str] = &[
    "cube",
    "cube-w32",
    "cube-legacy-vs",
    "instanced",
    "instanced-w32",
    "instanced-legacy-vs",
];

const OTHERS: &[&str] = &[
    "cube-nggc",
    "cube-nggc-w32",
    "instanced-nggc",
    "instanced-nggc-w32",
    "compute",
    "compute-w32",
];

fn disassemble(words: &[u32]) -> String {
    let mut loader = rspirv::dr::Loader::new();
    rspirv::binary::parse_words(words, &mut loader).expect("parse our own module");
    loader.module().disassemble()
}

#[test]
fn every_vertex_shader_translates_and_validates_with_naga_and_spirv_val() {
    for opts in [
        Options::default(),
        Options {
            checked: true,
            test_outputs: true,
            validate: true,
            precise: false,
            trust_lane_table_slots: false,
            shading_rate: Default::default(),
            lane_table_arrays: true,
            faults: Default::default(),
        },
    ] {
        for name in VERTEX {
            let c = radv(name);
            let t =
                translate(&c.shader_input(), None, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
            // translate() already ran naga's validator; run spirv-val too.
            if let Some(r) = spirv_val("spirv_val", name, &t.spirv) {
                r.unwrap_or_else(|e| panic!("{name} (checked={}): spirv-val: {e}", opts.checked));
            }
            assert_eq!(t.spirv[0], 0x0723_0203, "{name}: SPIR-V magic");
            assert_eq!(t.spirv[1], 0x0001_0300, "{name}: SPIR-V 1.3");
        }
    }
}

#[test]
fn vertex_shader_spirv_and_manifest_snapshots() {
    for name in VERTEX {
        // As `shaderlift translate` does it: with the tracer's descriptors.
        let c = radv(name);
        let input = c.shader_input();
        let trace = translator::trace_for(&input);
        let t = translate(&input, trace.as_ref(), &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        insta::assert_snapshot!(format!("{name}.spvasm"), disassemble(&t.spirv));
        insta::assert_snapshot!(format!("{name}.manifest"), t.manifest.to_json());
    }
}

/// The bundled pixel shader: a fragment entry point whose input location 0
/// is attr0 (perspective-centre), whose mrt0 output is the compressed
/// export widened to f32, valid for spirv-val, in snapshots.
#[test]
fn fragment_shader_spirv_and_manifest_snapshots() {
    let name = "fragment-color";
    let c = radv(name);
    let input = c.shader_input();
    let trace = translator::trace_for(&input);
    for opts in [
        Options::default(),
        Options {
            test_outputs: true,
            ..Options::default()
        },
    ] {
        let t = translate(&input, trace.as_ref(), &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(r) = spirv_val("spirv_val", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        let m = &t.manifest;
        assert_eq!(m.entry_point, "main (Fragment)");
        assert_eq!(m.inputs.len(), 1);
        assert_eq!(
            (
                m.inputs[0].location,
                m.inputs[0].interpolation.as_str(),
                m.inputs[0].channels
            ),
            (0, "persp_center", 0xf)
        );
        assert_eq!(m.outputs[0].export, "mrt0");
        if !opts.test_outputs {
            insta::assert_snapshot!(format!("{name}.spvasm"), disassemble(&t.spirv));
            insta::assert_snapshot!(format!("{name}.manifest"), t.manifest.to_json());
        }
    }
}

#[test]
fn non_vertex_and_culling_shaders_list_every_unsupported_construct() {
    for name in OTHERS {
        let c = radv(name);
        match translate(&c.shader_input(), None, &Options::default()) {
            Ok(_) => panic!("{name}: translated, but it has constructs the translator refuses"),
            Err(TranslateError::Unsupported(list)) => {
                assert!(!list.0.is_empty());
                // Sorted by pc, no duplicates.
                assert!(list
                    .0
                    .windows(2)
                    .all(|w| w[0].pc <= w[1].pc && w[0] != w[1]));
                insta::assert_snapshot!(format!("{name}.unsupported"), list.to_string());
            }
            Err(e) => panic!("{name}: expected a list of unsupported constructs, got {e}"),
        }
    }
}

#[test]
fn compute_shaders_translate_with_their_entry_state() {
    for name in ["compute", "compute-w32"] {
        let c = radv(name);
        let entry = c
            .compute_entry()
            .expect("the RADV capture records its entry");
        assert_eq!(entry.workgroup_size, [64, 1, 1], "{name}");
        assert_eq!(
            (entry.user_sgprs, entry.workgroup_id),
            (5, [true, false, false])
        );
        let t = translator::translate_compute(&c.shader_input(), &entry, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(r) = spirv_val("spirv_val", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        assert_eq!(t.manifest.entry_point, "main (GLCompute)");
        insta::assert_snapshot!(format!("{name}.manifest"), t.manifest.to_json());
    }
}

#[test]
fn culling_shaders_translate_as_an_ngg_compute_pass() {
    use translator::wave::PrimVgprs;
    for (name, lanes) in [
        ("cube-nggc", 64),
        ("cube-nggc-w32", 32),
        ("instanced-nggc", 64),
        ("instanced-nggc-w32", 32),
    ] {
        let c = radv(name);
        let input = c.shader_input();
        let entry = translator::ngg_entry_of(&input);
        assert_eq!(entry.prims, PrimVgprs::Indices, "{name}: v1 holds index 2");
        let t = translator::translate_ngg(&input, &entry, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(r) = spirv_val("spirv_val", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        let m = &t.manifest;
        assert_eq!(m.entry_point, "main (GLCompute)", "{name}");
        let ngg = m.ngg.as_ref().expect("the NGG section");
        assert_eq!(ngg.lanes, lanes, "{name}");
        // pos0 and one parameter, four words each, plus the primitive.
        assert_eq!(
            (ngg.targets.as_slice(), ngg.lane_words),
            (&[12u8, 32][..], 9)
        );
        assert_eq!(ngg.group_words, 1 + lanes * 9);
        assert!(m.dispatch.is_none() && m.outputs.is_empty(), "{name}");
    }
    // The non-culling shaders pass the packed primitive in v0.
    let c = radv("cube");
    assert_eq!(
        translator::ngg_entry_of(&c.shader_input()).prims,
        PrimVgprs::Passthrough
    );
}

#[test]
fn push_constants_stay_within_128_bytes_and_the_rest_spills_to_a_params_buffer() {
    use translator::manifest::BindingKind;
    for name in VERTEX {
        let c = radv(name);
        let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
        let m = &t.manifest;
        assert!(m.push_constant_bytes <= 128, "{name}");
        let spills = m
            .bindings
            .iter()
            .any(|b| matches!(b.kind, BindingKind::Params));
        assert_eq!(spills, !m.param_buffer.is_empty(), "{name}");
        // Per-draw values never spill.
        assert!(m
            .param_buffer
            .iter()
            .all(|w| matches!(w.kind, translator::manifest::PushKind::Word { .. })));
    }
    // instanced needs more than 128 bytes in all: it spills.
    let c = radv("instanced");
    let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
    assert!(!t.manifest.param_buffer.is_empty());
}

#[test]
fn the_ngg_prologue_drops_the_primitive_export_and_the_alloc_message() {
    for name in ["cube", "cube-w32", "instanced"] {
        let c = radv(name);
        let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
        let m = &t.manifest;
        let reasons: Vec<&str> = m.dropped.iter().map(|d| d.inst.as_str()).collect();
        assert!(
            reasons.iter().any(|r| r.starts_with("exp prim")),
            "{name}: {reasons:?}"
        );
        assert!(
            reasons.iter().any(|r| r.starts_with("s_sendmsg")),
            "{name}: {reasons:?}"
        );
        assert_eq!(m.system_sgprs.len(), 2, "{name}");
        // Legacy VS has no such prologue.
    }
    let c = radv("cube-legacy-vs");
    let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
    assert!(t.manifest.dropped.is_empty());
    assert!(t.manifest.system_sgprs.is_empty());
}

#[test]
fn vertex_buffers_get_one_binding_per_descriptor_and_uniforms_become_push_words() {
    use translator::manifest::{BindingKind, PushKind};
    for (name, sources) in [
        ("cube", vec!["table(ud0)+0x0"]),
        ("instanced", vec!["table(ud0)+0x10", "table(ud0)+0x0"]),
        (
            "instanced-legacy-vs",
            vec!["table(ud0)+0x10", "table(ud0)+0x0"],
        ),
    ] {
        let c = radv(name);
        let t = translate(&c.shader_input(), None, &Options::default()).unwrap();
        let got: Vec<String> = t
            .manifest
            .bindings
            .iter()
            .filter_map(|b| match &b.kind {
                BindingKind::Descriptor { source, .. } => Some(source.clone()),
                _ => None,
            })
            .collect();
        let mut want: Vec<String> = sources.iter().map(|s| s.to_string()).collect();
        let mut g = got.clone();
        g.sort();
        want.sort();
        assert_eq!(g, want, "{name}");
        // The MVP matrix (16 words of the UBO) arrives as push words.
        let ubo = t
            .manifest
            .push_constants
            .iter()
            .chain(&t.manifest.param_buffer)
            .filter(
                |w| matches!(&w.kind, PushKind::Word { source, .. } if source.starts_with("buf(")),
            )
            .count();
        assert_eq!(ubo, 16, "{name}");
    }
}

#[test]
fn with_the_tracer_each_binding_is_a_traced_descriptor() {
    use translator::manifest::BindingKind;
    for name in VERTEX {
        let c = radv(name);
        let input = c.shader_input();
        let trace = translator::trace_for(&input).unwrap();
        for checked in [false, true] {
            let opts = Options {
                checked,
                test_outputs: checked,
                validate: true,
                precise: false,
                trust_lane_table_slots: false,
                shading_rate: Default::default(),
                lane_table_arrays: true,
                faults: Default::default(),
            };
            let t =
                translate(&input, Some(&trace), &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(r) = spirv_val("spirv_val", name, &t.spirv) {
                r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
            }
            for d in &trace.descriptors {
                let source = trace.descriptor_source(d);
                let Some(b) = t.manifest.binding_of_descriptor(d.id.0) else {
                    // A uniform buffer read at constant offsets: its words
                    // are push or param words instead.
                    let words = t
                        .manifest
                        .push_constants
                        .iter()
                        .chain(&t.manifest.param_buffer)
                        .filter(|w| matches!(&w.kind, translator::manifest::PushKind::Word { source: s, .. } if s.starts_with(&format!("buf({source})"))))
                        .count();
                    assert!(
                        words > 0,
                        "{name}: descriptor {source} is neither bound nor resolved"
                    );
                    continue;
                };
                let kind = &t
                    .manifest
                    .bindings
                    .iter()
                    .find(|x| x.binding == b)
                    .unwrap()
                    .kind;
                match kind {
                    BindingKind::Descriptor {
                        source, accesses, ..
                    } => {
                        assert_eq!(source, &trace.descriptor_source(d), "{name}");
                        assert_eq!(accesses, &d.accesses, "{name}");
                    }
                    k => panic!("{name}: {k:?}"),
                }
            }
        }
    }
}

#[test]
fn cube_ir_after_the_passes_snapshot() {
    // What the lifter and passes make of cube-legacy-vs: one block, the
    // table and uniform words as parameters, eight buffer dwords, the
    // transform, two exports.
    let c = radv("cube-legacy-vs");
    let input = c.shader_input();
    let trace = translator::trace_for(&input);
    let f = translator::translate_ir(&input, trace.as_ref(), &Options::default());
    insta::assert_snapshot!("cube-legacy-vs.ir", f.to_string());
}
