//! Shader inputs of hand-assembled code for the translator's integration
//! tests (gfx1030, wave64): a pixel shader (the pixel ABI with v[0:1] the
//! perspective-centre (i, j)) with its refusal list, and a compute shader.

#![allow(dead_code)]

use translator::{translate, Options, ShaderInput, TranslateError};

/// `code` as a wave64 gfx1030 pixel shader, its barycentrics the
/// perspective-centre pair in v[0:1].
pub fn ps(code: &[u8]) -> ShaderInput<'_> {
    ShaderInput {
        code,
        target: isa::Target::Gfx1030,
        stage: isa::Stage::Ps,
        abi: isa::Abi::pixel(0x2),
        wave_size: 64,
    }
}

/// What the translator refuses in pixel shader `code` (pc, construct code,
/// message), empty when it translates; any other error panics.
pub fn refusals(code: &[u8]) -> Vec<(u32, &'static str, String)> {
    match translate(&ps(code), None, &Options::default()) {
        Err(TranslateError::Unsupported(l)) => {
            l.0.iter()
                .map(|u| (u.pc, u.construct.code(), u.construct.to_string()))
                .collect()
        }
        Ok(_) => Vec::new(),
        Err(e) => panic!("{e}"),
    }
}

/// `code` as a wave64 gfx1030 compute shader with two user SGPRs (s[0:1]).
pub fn cs(code: &[u8]) -> ShaderInput<'_> {
    ShaderInput {
        code,
        target: isa::Target::Gfx1030,
        stage: isa::Stage::Cs,
        abi: isa::Abi::no_vertex(2),
        wave_size: 64,
    }
}
