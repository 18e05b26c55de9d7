//! Generated fetch-like vertex shaders (`interp::gen`: id moves and adds,
//! user-data, constant and table words, branches, exec masking, LDS round
//! trips, lane swaps, several descriptors; built through `isa::encode`)
//! with a draw, run trace → bind → interpret: every fetched byte must lie
//! inside drawbind's range for its descriptor.

#![no_main]

use interp::gen::GenProgram;
use interp::{Limits, Shader, Verifier, VerifyOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|p: GenProgram| {
    let c = p.build();
    let shader = Shader {
        name: "generated",
        code: &c.code,
        target: isa::Target::Gfx1030,
        stage: c.stage,
        abi: c.abi,
        wave64: c.wave64,
    };
    let opts = VerifyOptions {
        group_prims: c.group_prims,
        limits: Limits {
            max_steps: 20_000,
            ..Limits::default()
        },
        ..VerifyOptions::default()
    };
    // A plan can be refused (a descriptor word the tracer cannot follow):
    // the emulator then binds nothing narrowed, and there is nothing to check.
    let Ok(mut v) = Verifier::new(shader, &opts) else {
        return;
    };
    let r = v.draw(0, &c.draw, &c.user_data, &c.memory);
    assert!(
        r.check.violations.is_empty(),
        "violations {:#?}\ntrace {:#?}\ndraw {:?} user data {:?}",
        r.check.violations,
        v.trace().descriptors,
        c.draw,
        c.user_data
    );
});
