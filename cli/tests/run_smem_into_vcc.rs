//! An SMEM load whose data tuple runs from SGPRs into VCC: at pc 0x158 of
//! Vulkan-Samples' mobile_nerf merged (morpheus) fragment shader as
//! RADV/ACO compiled it (`tests/fixtures/nerf-smem-into-vcc`), ACO emits
//! `f4281a0e fa000150`, `s_buffer_load_dwordx4` into s[104:107] = s104,
//! s105, vcc_lo, vcc_hi, and later reads vcc_lo/vcc_hi as floats. LLVM 19
//! prints `(invalid instruction)` and decodes the second dword as an export;
//! the listing keeps that text, while the CFG, tracer, interpreter and
//! translator use the 8-byte instruction the hardware runs
//! (`isa::decode_hardware`). Without Vulkan the lavapipe tests print a note
//! and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::fragment::{execute_fragment, FragmentOptions, EXTENT};
use shaderlift_cli::run::{text_report, RunReport};
use vkharness::Harness;

const PC: usize = 0x158;

fn capture() -> Capture {
    Capture::open(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/nerf-smem-into-vcc"
        ),
        &CaptureOptions::default(),
    )
    .unwrap()
}

fn run(h: &Harness, opts: &FragmentOptions) -> RunReport {
    let c = capture();
    let r = execute_fragment(&c, h, opts)
        .and_then(|o| o.report())
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    eprint!("{}", text_report(&r));
    r
}

#[test]
fn the_listing_keeps_llvms_text_and_the_cfg_gets_the_hardware_instruction() {
    let c = capture();
    let mode = isa::Mode {
        target: c.target(),
        wave64: true,
    };
    // LLVM's view: the dword is invalid, the next one an export.
    assert!(isa::decode(&c.code[PC..], mode).is_err());
    let next = isa::decode(&c.code[PC + 4..], mode).unwrap();
    assert_eq!(next.family, isa::Family::Exp);
    // The hardware's: one 8-byte load writing s104, s105, vcc_lo, vcc_hi.
    let inst = isa::decode_hardware(&c.code[PC..], mode).unwrap();
    assert_eq!(inst.opcode, isa::op::S_BUFFER_LOAD_DWORDX4);
    assert_eq!(inst.len, 8);
    assert!(matches!(
        inst.operands.first().map(|s| s.op),
        Some(isa::Operand::Reg {
            code: 104,
            count: 4
        })
    ));
    let p = analysis::cfg::Program::decode(&c.code, mode);
    let i = p.line_at(PC as u32).unwrap();
    assert_eq!(p.lines[i].len, 8);
    assert!(p.lines[i].inst.is_ok());
    assert_eq!(p.lines[i + 1].pc as usize, PC + 8);
    assert!(p.line_at((PC + 4) as u32).is_none());
}

#[test]
fn the_load_into_vcc_translates_and_matches_the_interpreter_on_lavapipe() {
    let Some(h) = Harness::shared_or_skip("smem into vcc") else {
        return;
    };
    let r = run(h, &FragmentOptions::default());
    assert_eq!(r.vertices, u64::from(EXTENT * EXTENT));
    assert!(r.words >= 4 * r.vertices);
    assert_eq!(
        (r.mismatches, r.undefined),
        (0, 0),
        "{:?}",
        r.draws[0].first_mismatches
    );
}

/// The negative control: a load that leaves vcc_lo/vcc_hi unwritten (as if
/// the tuple stopped at s105) fails the check. The translation then reads
/// no UBO words for VCC, so the scene maps none, and the interpreter (which
/// runs the real load) reads unmapped words that reach EXEC: the run stops
/// with an error instead of passing. (Swapping the two VCC words instead
/// changes no export on the scene's pixels: both halves steer the same
/// branches there.)
#[test]
fn a_load_that_leaves_vcc_unwritten_fails_the_check() {
    let Some(h) = Harness::shared_or_skip("smem into vcc, skipped") else {
        return;
    };
    let broken = FragmentOptions {
        translator_faults: translator::Faults {
            smem_tuple_skips_vcc: true,
            ..Default::default()
        },
        ..FragmentOptions::default()
    };
    let c = capture();
    match execute_fragment(&c, h, &broken).and_then(|o| o.report()) {
        Ok(r) => assert!(
            r.mismatches + r.undefined > 0,
            "the fault must turn the run red"
        ),
        Err(e) => assert!(e.to_string().contains("undefined"), "{e}"),
    }
}
