//! Pixel-shader entry VGPRs and colour exports: the `ancillary` VGPR's VRS
//! rate bits (`gl_ShadingRateEXT`) come from the host, every other read of
//! it is refused; an enabled colour component whose register the shader
//! never wrote exports 0 and is listed, while such a register used in
//! arithmetic stays refused. Programs are gfx1030 wave64 encodings from
//! llvm-mc-19 (text in the comments) with RADV's entry layout
//! `persp_center` v[0:1], `ancillary` v2 (`SPI_PS_INPUT_ENA` 0x2002).

use translator::manifest::PushKind;
use translator::{translate, Options, ShaderInput, ShadingRateSource, TranslateError, Translation};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn ps(words: &[u32], opts: &Options) -> Result<Translation, TranslateError> {
    let code = bytes(words);
    let input = ShaderInput {
        code: &code,
        target: isa::Target::Gfx1030,
        stage: isa::Stage::Ps,
        abi: isa::Abi::pixel(0x2002),
        wave_size: 64,
    };
    translate(&input, None, opts)
}

fn refusals(r: Result<Translation, TranslateError>) -> Vec<(u32, String)> {
    match r {
        Err(TranslateError::Unsupported(l)) => {
            l.0.into_iter()
                .map(|u| (u.pc, u.construct.to_string()))
                .collect()
        }
        Ok(_) => panic!("translated, expected a refusal"),
        Err(e) => panic!("expected unsupported constructs, got {e}"),
    }
}

/// ACO's `gl_ShadingRateEXT` unpacking and the whole field, exported.
const RATE_FIELDS: &[u32] = &[
    0xd5480003, 0x02090502, // v_bfe_u32 v3, v2, 2, 2
    0xd5480004, 0x02090902, // v_bfe_u32 v4, v2, 4, 2
    0x360a04bc, // v_and_b32_e32 v5, 60, v2
    0xd5480006, 0x02110502, // v_bfe_u32 v6, v2, 2, 4
    0xf800180f, 0x06050403, // exp mrt0 v3, v4, v5, v6 done vm
    0xbf810000, // s_endpgm
];

#[test]
fn the_vrs_rate_bits_of_ancillary_come_from_a_push_word_and_other_bits_are_refused() {
    let t = ps(RATE_FIELDS, &Options::default()).unwrap();
    let rate: Vec<_> = t
        .manifest
        .push_constants
        .iter()
        .filter(|w| w.kind == PushKind::ShadingRate)
        .collect();
    assert_eq!(rate.len(), 1, "{:?}", t.manifest.push_constants);
    // The host states VRS is off: 1x1, no push word.
    let off = Options {
        shading_rate: ShadingRateSource::Off,
        ..Options::default()
    };
    let t = ps(RATE_FIELDS, &off).unwrap();
    assert!(t.manifest.push_constants.is_empty());
    // Negative controls: the sample id (bits 11:8), a field that runs
    // past the rate (bits 6:2), a mask with bit 1, and the word moved as
    // a whole are not the rate.
    for (bad, what) in [
        (0x02111102, "v_bfe_u32 v3, v2, 8, 4"),
        (0x02150502, "v_bfe_u32 v3, v2, 2, 5"),
    ] {
        let mut p = RATE_FIELDS.to_vec();
        p[1] = bad;
        let u = refusals(ps(&p, &Options::default()));
        assert!(
            u.iter()
                .any(|(pc, m)| *pc == 0 && m.contains("`ancillary` read other than")),
            "{what}: {u:?}"
        );
    }
    let mut p = RATE_FIELDS.to_vec();
    p[4] = 0x360a04be; // v_and_b32_e32 v5, 62, v2
    let u = refusals(ps(&p, &Options::default()));
    assert!(u[0].1.contains("`ancillary`"), "{u:?}");
    let mut p = RATE_FIELDS.to_vec();
    p[4] = 0x7e0a0302; // v_mov_b32_e32 v5, v2
    let u = refusals(ps(&p, &Options::default()));
    assert!(u[0].1.contains("`ancillary`"), "{u:?}");
}

/// `exp mrt1 v8, v9, v128, v128 done vm` (`en` 0xf) after v8 and v9 are
/// written: ACO's export of a `uvec2` to a four-component target.
const UNDEF_COMPONENTS: &[u32] = &[
    0x7e1002f2, // v_mov_b32_e32 v8, 1.0
    0x7e1202f2, // v_mov_b32_e32 v9, 1.0
    0xf800181f, 0x80800908, // exp mrt1 v8, v9, v128, v128 done vm
    0xbf810000, // s_endpgm
];

#[test]
fn an_enabled_colour_component_the_shader_never_wrote_exports_zero_and_is_listed() {
    let t = ps(UNDEF_COMPONENTS, &Options::default()).unwrap();
    let d: Vec<&str> = t
        .manifest
        .dropped
        .iter()
        .map(|d| d.reason.as_str())
        .collect();
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(
        d[0].contains("component z") && d[1].contains("component w"),
        "{d:?}"
    );
    // Negative control: the same register in arithmetic before the export
    // is a program value that depends on it: refused.
    let mut p = UNDEF_COMPONENTS.to_vec();
    p[1] = 0x06130108; // v_add_f32_e32 v9, v8, v128
    let u = refusals(ps(&p, &Options::default()));
    assert!(
        u.iter()
            .any(|(_, m)| m.contains("v128 is read before the shader writes it")),
        "{u:?}"
    );
}
