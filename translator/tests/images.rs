//! Image instructions (MIMG): real RADV shaders that sample, load and store
//! translate, naga and spirv-val accept them, and their manifest's image
//! bindings are pinned; dmask components land in consecutive VGPRs (with a
//! negative control that reverses them); every refused form names its
//! reason.
//!
//! The fixtures in `tests/fixtures/images/` are `code.bin` + `meta.json` of
//! shaders from the developer real corpus (`../shared/real-corpus/`).

#[path = "support/inputs.rs"]
mod inputs;
#[path = "support/spirv.rs"]
mod spirv_check;

use inputs::{ps, refusals};
use spirv_check::spirv_val;
use std::path::Path;
use translator::ir::{Effect, Func, Load, Op, Value};
use translator::{translate, translate_compute, Faults, Options, ShaderInput, TranslateError};

fn fixture(name: &str) -> corpus::Capture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/images")
        .join(name);
    corpus::Capture::open(&dir, &Default::default()).expect("open fixture")
}

const FIXTURES: &[&str] = &[
    "base-frag",
    "postprocessing-chromatic-aberration-frag",
    "color-write-enable-composition-frag",
    "async-compute-forward-frag",
    "timeline-semaphore-game-of-life-update-comp",
    "descriptor-indexing-update-after-bind-quads-frag",
    "texture-mipmap-generation-texture-frag",
    "multi-draw-indirect-multi-draw-indirect-frag",
];

fn translate_capture(c: &corpus::Capture) -> Result<translator::Translation, TranslateError> {
    let input = c.shader_input();
    // Fixtures with an unmasked per-lane table index translate on the
    // host's word (`an_unmasked_per_lane_table_slot_is_refused_by_default`).
    let opts = Options {
        trust_lane_table_slots: true,
        shading_rate: Default::default(),
        ..Default::default()
    };
    match c.compute_entry() {
        Some(entry) => translate_compute(&input, &entry, &opts),
        None => translate(&input, translator::trace_for(&input).as_ref(), &opts),
    }
}

#[test]
fn real_shaders_with_images_translate_and_validate_with_naga_and_spirv_val() {
    for name in FIXTURES {
        let c = fixture(name);
        // `translate` validates with naga (Options::validate).
        let t = translate_capture(&c).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!t.manifest.images.is_empty(), "{name}: no image binding");
        if let Some(r) = spirv_val("spirv_val_images", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
        // Images are numbered after every storage buffer.
        let after = t.manifest.bindings.iter().map(|b| b.binding + 1).max();
        assert_eq!(
            t.manifest.images[0].binding,
            after.unwrap_or(0),
            "{name}: first image binding"
        );
    }
}

#[test]
fn image_bindings_of_a_sampling_shader_and_a_storage_shader_are_pinned() {
    for name in [
        "postprocessing-chromatic-aberration-frag",
        "timeline-semaphore-game-of-life-update-comp",
        "async-compute-forward-frag",
    ] {
        let t = translate_capture(&fixture(name)).unwrap();
        insta::assert_json_snapshot!(format!("{name}.images"), t.manifest.images);
    }
}

/// A T# (S#) at a per-draw slot of a table (`s_load_dwordx8 s[16:23],
/// s[2:3], s0` with `s0 = ud4 << 6`; an S# at `(buffer word << 4) + 0x60`)
/// is read through indexed table words: the host binds the one descriptor
/// the draw's index selects.
#[test]
fn descriptors_at_a_per_draw_table_index_are_indexed_table_words() {
    use translator::manifest::WordExpr;
    for name in [
        "descriptor-indexing-update-after-bind-quads-frag",
        "texture-mipmap-generation-texture-frag",
    ] {
        let t = translate_capture(&fixture(name)).unwrap();
        insta::assert_json_snapshot!(format!("{name}.images"), t.manifest.images);
    }
    let t =
        translate_capture(&fixture("descriptor-indexing-update-after-bind-quads-frag")).unwrap();
    let words = &t.manifest.images[0].texture;
    for (k, w) in words.iter().enumerate() {
        let WordExpr::IndexedTableWord {
            index,
            scale,
            offset,
            ..
        } = w
        else {
            panic!("T# word {k}: {w:?}");
        };
        assert_eq!(**index, WordExpr::UserData { k: 2 });
        assert_eq!((*scale, *offset), (64, 4 * k as u32));
    }
    // Evaluated per draw: index 3 reads the fourth 64-byte slot.
    let mut mem = |a: u64| Some(a as u32);
    let ud = [0x10_0000, 0x20_0000, 3];
    let v = words[1].eval(&ud, &mut mem).unwrap();
    assert_eq!(v, 0x10_0000 + 3 * 64 + 4);
}

/// `tfe`: the status dword after the dmask components is 0 (resident);
/// the fault writes 1.
fn status_word(faults: Faults) -> Option<u32> {
    // image_sample v[0:2], v[2:3], s[4:11], s[12:15] dmask:0x3 tfe, then
    // exp mrt0 v0, v1, v0, v1: v2 (the status) is exported through
    // `v_mov_b32 v1, v2`.
    let code = program(&[], [0x08, 0x03, 0x81, 0xf0, 0x02, 0x00, 0x61, 0x00]);
    let mut code = code[..16].to_vec();
    code.extend_from_slice(&[0x02, 0x03, 0x02, 0x7e]);
    code.extend_from_slice(&[0x0f, 0x18, 0x00, 0xf8, 0x00, 0x01, 0x00, 0x01]);
    code.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]);
    let opts = Options {
        faults,
        ..Options::default()
    };
    let f = translator::translate_ir(&ps(&code), None, &opts);
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::Effect(e) = f.inst(v).op {
                if let Effect::Export { values, .. } = f.effects[e as usize] {
                    return values[1].and_then(|x| f.konst(x));
                }
            }
        }
    }
    None
}

#[test]
fn the_tfe_status_dword_is_written_resident() {
    assert_eq!(status_word(Faults::default()), Some(0));
    let broken = Faults {
        image_status_nonresident: true,
        ..Faults::default()
    };
    assert_eq!(status_word(broken), Some(1));
}

#[test]
fn a_texture_and_sampler_pair_used_three_times_is_one_binding_with_three_accesses() {
    let t = translate_capture(&fixture("postprocessing-chromatic-aberration-frag")).unwrap();
    let m = &t.manifest;
    assert_eq!(m.images.len(), 1);
    assert_eq!(m.images[0].accesses.len(), 3);
    assert_eq!(m.images[0].texture.len(), 8);
    assert_eq!(m.images[0].sampler.as_ref().map(Vec::len), Some(4));
}

#[test]
fn the_json_manifest_keeps_the_image_schema_names() {
    let t = translate_capture(&fixture("timeline-semaphore-game-of-life-update-comp")).unwrap();
    let j: serde_json::Value = serde_json::from_str(&t.manifest.to_json()).unwrap();
    let kinds: Vec<&str> = j["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["sampled", "storage"]);
    assert_eq!(j["images"][0]["dim"], "2d");
    assert_eq!(j["images"][0]["sampled_type"], "float");
    assert!(j["images"][1]["sampler"].is_null());
    // And it reads back.
    let back: translator::manifest::Manifest = serde_json::from_value(j).unwrap();
    assert_eq!(back, t.manifest);
}

// ---- hand-written pixel shaders ----

/// `v_mov_b32 v2, 0.5; v_mov_b32 v3, 0.5`, `prefix`, the image instruction,
/// `exp mrt0 v0, v1, v0, v1 done vm; s_endpgm`. User data from s2: the T#
/// in s[4:11] is ud2..ud9, the S# in s[12:15] ud10..ud13.
fn program(prefix: &[u8], image: [u8; 8]) -> Vec<u8> {
    let mut c = vec![0xf0, 0x02, 0x04, 0x7e, 0xf0, 0x02, 0x06, 0x7e];
    c.extend_from_slice(prefix);
    c.extend_from_slice(&image);
    c.extend_from_slice(&[0x0f, 0x18, 0x00, 0xf8, 0x00, 0x01, 0x00, 0x01]);
    c.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]);
    c
}

/// image_sample v[0:1], v[2:3], s[4:11], s[12:15] dmask:0x3 dim:SQ_RSRC_IMG_2D
const SAMPLE_XY: [u8; 8] = [0x08, 0x03, 0x80, 0xf0, 0x02, 0x00, 0x61, 0x00];

#[test]
fn image_forms_the_translation_does_not_give_are_refused_with_their_reason() {
    let cases: &[([u8; 8], &str)] = &[
        // a16 (one address VGPR)
        (
            [0x08, 0x03, 0x80, 0xf0, 0x02, 0x00, 0x61, 0x40],
            "16-bit image addresses (a16) are not translated",
        ),
        // d16
        (
            [0x08, 0x03, 0x80, 0xf0, 0x02, 0x00, 0x61, 0x80],
            "16-bit image data (d16) is not translated",
        ),
        // unorm on a sample
        (
            [0x08, 0x13, 0x80, 0xf0, 0x02, 0x00, 0x61, 0x00],
            "unnormalized (unorm) coordinates through a sampler are not translated",
        ),
        // tfe on a store (a sample's or load's status dword is written 0)
        (
            [0x08, 0x13, 0x21, 0xf0, 0x02, 0x00, 0x01, 0x00],
            "the image status dword (tfe/lwe) is not translated",
        ),
        // a cube load (cube samples are translated face by face)
        (
            [0x18, 0x13, 0x00, 0xf0, 0x02, 0x00, 0x01, 0x00],
            "dim:SQ_RSRC_IMG_CUBE is not translated for this instruction",
        ),
        // image_sample_c_lz with dmask 0x3
        (
            [0x08, 0x03, 0xbc, 0xf0, 0x02, 0x00, 0x61, 0x00],
            "a depth-compare sample returns one component (dmask must be 0x1)",
        ),
        // image_atomic_add v0, v[2:3], s[4:11] dmask:0x1 unorm glc
        (
            [0x08, 0x31, 0x44, 0xf0, 0x02, 0x00, 0x01, 0x00],
            "this image instruction is not translated",
        ),
    ];
    for (inst, text) in cases {
        let r = refusals(&program(&[], *inst));
        assert!(
            r.iter()
                .any(|(pc, code, t)| *pc == 8 && *code == "image" && t == text),
            "{text}: {r:?}"
        );
    }
}

#[test]
fn a_texture_word_that_is_not_a_traced_word_is_refused() {
    // s_add_u32 s4, s4, s5: T# word 0 is a sum, not a word the host can
    // read.
    let r = refusals(&program(&[0x04, 0x05, 0x04, 0x80], SAMPLE_XY));
    assert_eq!(
        r,
        [(
            12,
            "image",
            "T# word 0 is not traced to user data, a table word or a constant".to_string()
        )]
    );
}

#[test]
fn implicit_derivatives_outside_a_pixel_shader_are_refused() {
    let code = program(&[], SAMPLE_XY);
    let input = ShaderInput {
        stage: isa::Stage::LegacyVs,
        abi: isa::Abi::legacy_vs(),
        ..ps(&code)
    };
    let r = match translate(&input, None, &Options::default()) {
        Err(TranslateError::Unsupported(l)) => l,
        other => panic!("{:?}", other.map(|_| ())),
    };
    assert!(
        r.0.iter().any(|u| u.pc == 8
            && u.construct.to_string()
                == "implicit-derivative sampling outside a pixel shader has no host counterpart"),
        "{r}"
    );
}

/// The image component each `mrt0` channel exports (`None` when it is not
/// an image result).
fn exported_components(f: &Func) -> [Option<u8>; 4] {
    let comp = |v: Value| match f.inst(v).op {
        Op::Load(l) => match f.loads[l as usize] {
            Load::Image { comp, .. } => Some(comp),
            _ => None,
        },
        _ => None,
    };
    for b in &f.blocks {
        for &v in &b.insts {
            if let Op::Effect(e) = f.inst(v).op {
                if let Effect::Export { values, .. } = f.effects[e as usize] {
                    return values.map(|x| x.and_then(comp));
                }
            }
        }
    }
    [None; 4]
}

/// dmask 0x5 (x and z): x in the first data VGPR, z in the second.
fn dmask_xz_packing(faults: Faults) -> Result<(), String> {
    // image_sample_lz v[0:1], v[2:3], s[4:11], s[12:15] dmask:0x5
    let code = program(&[], [0x08, 0x05, 0x9c, 0xf0, 0x02, 0x00, 0x61, 0x00]);
    let opts = Options {
        faults,
        ..Options::default()
    };
    let f = translator::translate_ir(&ps(&code), None, &opts);
    // exp mrt0 v0, v1, v0, v1
    let got = exported_components(&f);
    if got == [Some(0), Some(2), Some(0), Some(2)] {
        Ok(())
    } else {
        Err(format!("mrt0 exports image components {got:?}"))
    }
}

#[test]
fn dmask_components_are_packed_into_consecutive_vgprs_in_component_order() {
    dmask_xz_packing(Faults::default()).unwrap();
}

#[test]
fn negative_control_reversed_dmask_packing_is_caught() {
    let faults = Faults {
        image_dmask_reversed: true,
        ..Faults::default()
    };
    assert!(dmask_xz_packing(faults).is_err());
}

#[test]
fn a_store_writes_the_dmask_components_from_consecutive_vgprs() {
    // image_store v[0:1], v[2:3], s[4:11] dmask:0x5 unorm, after
    // v_mov_b32 v1, v0 is not needed: the data VGPRs are v0 (x), v1 (z).
    let mut code = vec![0xf0, 0x02, 0x04, 0x7e, 0xf0, 0x02, 0x06, 0x7e];
    // v_mov_b32 v0, 0.5 ; v_mov_b32 v1, 0
    code.extend_from_slice(&[0xf0, 0x02, 0x00, 0x7e, 0x80, 0x02, 0x02, 0x7e]);
    code.extend_from_slice(&[0x08, 0x15, 0x20, 0xf0, 0x02, 0x00, 0x01, 0x00]);
    code.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]);
    let f = translator::translate_ir(&ps(&code), None, &Options::default());
    assert_eq!(f.images.len(), 1);
    let data = f.images[0].data.map(|d| d.and_then(|v| f.konst(v)));
    assert_eq!(data, [Some(0x3f00_0000), None, Some(0), None]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    assert_eq!(t.manifest.images.len(), 1);
    assert_eq!(
        t.manifest.images[0].kind,
        translator::manifest::ImageKind::Storage
    );
}

/// The store data of `image_store v[0:1], v[2:3], s[4:11] dmask:0xf d16`
/// after v0 = 0xbc00_3800 (x 0.5, y -1.0) and v1 = 0x7c00_0001 (z 2^-24,
/// w +inf), folded to constants.
fn d16_store_data(faults: Faults) -> [Option<u32>; 4] {
    let code: Vec<u8> = [
        &[0xf0, 0x02, 0x04, 0x7e, 0xf0, 0x02, 0x06, 0x7e][..],
        &[0xff, 0x02, 0x00, 0x7e, 0x00, 0x38, 0x00, 0xbc],
        &[0xff, 0x02, 0x02, 0x7e, 0x01, 0x00, 0x00, 0x7c],
        &[0x08, 0x1f, 0x20, 0xf0, 0x02, 0x00, 0x01, 0x80],
        &[0x00, 0x00, 0x81, 0xbf],
    ]
    .concat();
    let opts = Options {
        faults,
        ..Options::default()
    };
    let f = translator::translate_ir(&ps(&code), None, &opts);
    assert_eq!(f.images.len(), 1);
    f.images[0].data.map(|d| d.and_then(|v| f.konst(v)))
}

/// The words the interpreter stores for the same d16 store into a
/// 32_32_32_32_FLOAT texel (interp/tests/image.rs,
/// `a_d16_store_reads_two_f16_components_per_vgpr_low_half_first`).
const D16_ORACLE: [Option<u32>; 4] = [
    Some(0x3f00_0000),
    Some(0xbf80_0000),
    Some(0x3380_0000),
    Some(0x7f80_0000),
];

#[test]
fn a_d16_store_widens_two_f16_components_per_vgpr_low_half_first() {
    assert_eq!(d16_store_data(Faults::default()), D16_ORACLE);
    // Translated (no longer refused) and valid.
    let code: Vec<u8> = [
        &[0xf0, 0x02, 0x04, 0x7e, 0xf0, 0x02, 0x06, 0x7e][..],
        &[0xf0, 0x02, 0x00, 0x7e, 0xf0, 0x02, 0x02, 0x7e],
        &[0x08, 0x17, 0x20, 0xf0, 0x02, 0x00, 0x01, 0x80],
        &[0x00, 0x00, 0x81, 0xbf],
    ]
    .concat();
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    assert_eq!(t.manifest.images.len(), 1);
}

#[test]
fn negative_control_swapped_d16_halves_are_caught() {
    let faults = Faults {
        image_d16_halves_swapped: true,
        ..Faults::default()
    };
    assert_ne!(d16_store_data(faults), D16_ORACLE);
}

#[test]
fn implicit_derivatives_inside_a_per_lane_exec_region_are_refused() {
    // v_cmp_lt_f32 vcc, 0.5, v2 (frag_pos.x); s_and_saveexec_b64 s[20:21], vcc;
    // s_cbranch_execz +3; v_mov_b32 v3, 0.5; image_sample (pc 0x10);
    // s_or_b64 exec, exec, s[20:21]; exp mrt0 v0, v1, v0, v1 done vm; s_endpgm
    let code: Vec<u8> = [
        &[0xf0, 0x04, 0x02, 0x7c][..],
        &[0x6a, 0x24, 0x94, 0xbe],
        &[0x03, 0x00, 0x88, 0xbf],
        &[0xf0, 0x02, 0x06, 0x7e],
        &SAMPLE_XY,
        &[0x7e, 0x14, 0xfe, 0x88],
        &[0x0f, 0x18, 0x00, 0xf8, 0x00, 0x01, 0x00, 0x01],
        &[0x00, 0x00, 0x81, 0xbf],
    ]
    .concat();
    // v[0:1] persp-centre (i, j), v2 frag_pos.x
    let input = ShaderInput {
        abi: isa::Abi::pixel(0x102),
        ..ps(&code)
    };
    let r = match translate(&input, None, &Options::default()) {
        Err(TranslateError::Unsupported(l)) => l,
        other => panic!("{:?}", other.map(|_| ())),
    };
    assert!(
        r.0.iter().any(|u| u.pc == 0x10
            && u.construct.to_string()
                == "implicit-derivative sampling inside the per-lane region of the branch at pc 0x8 (the host's quad neighbours may not run it)"),
        "{r}"
    );
}

#[test]
fn a_gather_of_one_component_translates_and_validates() {
    // image_gather4_lz v[0:3], v[2:3], s[4:11], s[12:15] dmask:0x2 (y)
    let code = program(&[], [0x08, 0x02, 0x1c, 0xf1, 0x02, 0x00, 0x61, 0x00]);
    let t = translate(&ps(&code), None, &Options::default()).unwrap();
    if let Some(r) = spirv_val("spirv_val_images", "gather4_lz", &t.spirv) {
        r.unwrap();
    }
    let f = translator::translate_ir(&ps(&code), None, &Options::default());
    // The four texels' y components, x..w of the result, in v0..v3.
    assert_eq!(
        exported_components(&f),
        [Some(0), Some(1), Some(0), Some(1)]
    );
    assert!(matches!(
        f.images[0].kind,
        translator::ir::ImageOpKind::Gather { comp: 1, .. }
    ));
}

/// Every lifted image opcode, dmask 0x1 (gathers: x), 2D, addresses
/// v[2:...], T# s[4:11], S# s[12:15] (LLVM 19's encodings).
const EVERY_FORM: &[(&str, [u8; 8])] = &[
    (
        "image_sample",
        [0x08, 0x01, 0x80, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_b",
        [0x08, 0x01, 0x94, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_l",
        [0x08, 0x01, 0x90, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_lz",
        [0x08, 0x01, 0x9c, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_c",
        [0x08, 0x01, 0xa0, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_c_lz",
        [0x08, 0x01, 0xbc, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_o",
        [0x08, 0x01, 0xc0, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_b_o",
        [0x08, 0x01, 0xd4, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_l_o",
        [0x08, 0x01, 0xd0, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_lz_o",
        [0x08, 0x01, 0xdc, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_c_o",
        [0x08, 0x01, 0xe0, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_sample_c_lz_o",
        [0x08, 0x01, 0xfc, 0xf0, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_gather4_lz",
        [0x08, 0x01, 0x1c, 0xf1, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_gather4_c_lz",
        [0x08, 0x01, 0x3c, 0xf1, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_gather4_lz_o",
        [0x08, 0x01, 0x5c, 0xf1, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_gather4_c_lz_o",
        [0x08, 0x01, 0x7c, 0xf1, 0x02, 0x00, 0x61, 0x00],
    ),
    (
        "image_load",
        [0x08, 0x11, 0x00, 0xf0, 0x02, 0x00, 0x01, 0x00],
    ),
    (
        "image_load_mip",
        [0x08, 0x11, 0x04, 0xf0, 0x02, 0x00, 0x01, 0x00],
    ),
    (
        "image_store",
        [0x08, 0x11, 0x20, 0xf0, 0x02, 0x00, 0x01, 0x00],
    ),
    (
        "image_store_mip",
        [0x08, 0x11, 0x24, 0xf0, 0x02, 0x00, 0x01, 0x00],
    ),
];

#[test]
fn every_lifted_image_form_translates_and_validates_with_naga_and_spirv_val() {
    for (name, inst) in EVERY_FORM {
        // v_mov_b32 v0, 0 and v2..v5, 0 (addresses: offset 0, level 0).
        let mut code = Vec::new();
        for v in [0u8, 2, 3, 4, 5] {
            code.extend_from_slice(&[0x80, 0x02, 2 * v, 0x7e]);
        }
        code.extend_from_slice(inst);
        // exp mrt0 v0, v0, v0, v0 done vm; s_endpgm
        code.extend_from_slice(&[0x0f, 0x18, 0x00, 0xf8, 0x00, 0x00, 0x00, 0x00]);
        code.extend_from_slice(&[0x00, 0x00, 0x81, 0xbf]);
        let t = translate(&ps(&code), None, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.manifest.images.len(), 1, "{name}");
        if let Some(r) = spirv_val("spirv_val_images", name, &t.spirv) {
            r.unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        }
    }
    // Every lifted MIMG opcode is in the list.
    let lifted: Vec<&str> = isa::Opcode::all()
        .filter(|o| o.space() == isa::OpSpace::Mimg && translator::lifts(*o, true))
        .map(|o| o.name())
        .collect();
    let mut listed: Vec<&str> = EVERY_FORM.iter().map(|x| x.0).collect();
    let mut l2 = lifted.clone();
    l2.sort_unstable();
    listed.sort_unstable();
    assert_eq!(l2, listed);
}

// ---- per-lane descriptor slots (pixel shaders) ----

/// `v_readfirstlane_b32 s0, v2` of an attribute channel, then `v_mov_b32
/// v3, s0; exp mrt0 v3, v3, v3, v3 done vm; s_endpgm`: `interp` is
/// `v_interp_mov_f32 v2, p0, attr0.x` (flat) or the `p1`/`p2` pair.
fn read_first_lane_of(interp: &[u8]) -> Vec<u8> {
    let mut c = interp.to_vec();
    c.extend_from_slice(&[
        0x02, 0x05, 0x00, 0x7e, 0x00, 0x02, 0x06, 0x7e, 0x0f, 0x18, 0x00, 0xf8, 0x03, 0x03, 0x03,
        0x03, 0x00, 0x00, 0x81, 0xbf,
    ]);
    c
}

/// `v_interp_mov_f32 v2, p0, attr0.x`
const FLAT: &[u8] = &[0x02, 0x00, 0x0a, 0xc8];
/// `v_interp_p1_f32 v2, v0, attr0.x; v_interp_p2_f32 v2, v1, attr0.x`
const INTERPOLATED: &[u8] = &[0x00, 0x00, 0x08, 0xc8, 0x01, 0x00, 0x09, 0xc8];

#[test]
fn read_first_lane_of_a_flat_input_is_its_value_and_of_an_interpolated_one_is_refused() {
    // One primitive's flat input is the same in every lane of a wave of
    // that primitive's quads.
    assert_eq!(refusals(&read_first_lane_of(FLAT)), []);
    // An interpolated value differs between lanes: the first lane's value
    // needs the others.
    let r = refusals(&read_first_lane_of(INTERPOLATED));
    assert!(
        r.iter()
            .any(|(pc, code, _)| *pc == 8 && *code == "cross-lane"),
        "{r:?}"
    );
}

/// `interp` (v2), then `v_mov_b32 v3, 0.5; v_mov_b32 v4, 0.5; s_mov_b64
/// s[0:1], exec; v_cmpx_lt_f32 0, v2; s_cbranch_execz skip; image_sample
/// v[5:8], v[3:4], s[4:11], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D; skip:
/// s_mov_b64 exec, s[0:1]; exp mrt0 v5, v6, v7, v8 done vm; s_endpgm`.
fn sample_in_region_on(interp: &[u8]) -> Vec<u8> {
    let mut c = interp.to_vec();
    c.extend_from_slice(&[
        0xf0, 0x02, 0x06, 0x7e, 0xf0, 0x02, 0x08, 0x7e, 0x7e, 0x04, 0x80, 0xbe, 0x80, 0x04, 0x22,
        0x7c, 0x02, 0x00, 0x88, 0xbf, 0x08, 0x0f, 0x80, 0xf0, 0x03, 0x05, 0x61, 0x00, 0x00, 0x04,
        0xfe, 0xbe, 0x0f, 0x18, 0x00, 0xf8, 0x05, 0x06, 0x07, 0x08, 0x00, 0x00, 0x81, 0xbf,
    ]);
    c
}

#[test]
fn implicit_derivatives_in_a_region_on_a_flat_input_translate_and_on_an_interpolated_one_are_refused(
) {
    // A quad is one primitive's pixels: a condition on a flat input keeps
    // the quad together in the region.
    assert_eq!(refusals(&sample_in_region_on(FLAT)), []);
    let r = refusals(&sample_in_region_on(INTERPOLATED));
    assert!(
        r.iter().any(|(_, code, t)| *code == "image"
            && t.starts_with("implicit-derivative sampling inside the per-lane region")),
        "{r:?}"
    );
}

#[test]
fn descriptors_at_a_per_lane_table_slot_are_sampled_once_per_slot() {
    use translator::manifest::{LaneTable, WordExpr};
    // `texture(textures[in_texture_index], uv)`, the index flat: T# at
    // `table(ud0) + readfirstlane(index · 0x60)`, S# 0x50 further.
    let t = translate_capture(&fixture("multi-draw-indirect-multi-draw-indirect-frag")).unwrap();
    assert_eq!(
        t.manifest.lane_tables,
        [LaneTable {
            pc: 0x50,
            scale: 0x60,
            slots: translator::LANE_TABLE_SLOTS,
            proved: false,
            input: Some([1, 0]),
        }]
    );
    assert_eq!(
        t.manifest.images.len(),
        translator::LANE_TABLE_SLOTS as usize
    );
    for (j, b) in t.manifest.images.iter().enumerate() {
        let offset = |w: &WordExpr| match w {
            WordExpr::TableWord { offset, .. } => *offset,
            other => panic!("slot {j}: {other:?}"),
        };
        let slot = 0x60 * j as u32;
        assert_eq!(offset(&b.texture[0]), slot);
        assert_eq!(offset(&b.sampler.as_ref().unwrap()[0]), slot + 0x50);
    }
    // Slot j of the broken lowering reads slot j + 1.
    let broken = Options {
        faults: Faults {
            lane_table_off_by_one: true,
            ..Default::default()
        },
        trust_lane_table_slots: true,
        shading_rate: Default::default(),
        ..Default::default()
    };
    let c = fixture("multi-draw-indirect-multi-draw-indirect-frag");
    let input = c.shader_input();
    let t = translate(&input, translator::trace_for(&input).as_ref(), &broken).unwrap();
    let WordExpr::TableWord { offset, .. } = &t.manifest.images[0].texture[0] else {
        panic!()
    };
    assert_eq!(*offset, 0x60);
}

#[test]
fn an_unmasked_per_lane_table_slot_is_refused_by_default() {
    let c = fixture("multi-draw-indirect-multi-draw-indirect-frag");
    let input = c.shader_input();
    let err = translate(
        &input,
        translator::trace_for(&input).as_ref(),
        &Options::default(),
    )
    .expect_err("an index no mask bounds was trusted by default");
    assert!(err.to_string().contains("not proved below 8"), "{err}");
}
