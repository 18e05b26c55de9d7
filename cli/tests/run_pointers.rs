//! Synthesized inputs with guest pointers (`run::pointers`): a compute
//! shader that stores through a buffer device address it reads from a
//! storage buffer, and an NGG culling shader that reads a table of
//! pointers through a push-constant pointer. Without Vulkan the tests print
//! a note and pass, unless `SHADERLIFT_REQUIRE_VULKAN` is set.

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::{dispatch, ngg, synth, tree};
use translator::wave::ComputeFaults;
use vkharness::Harness;

fn dir() -> String {
    format!(
        "{}/tests/fixtures/scene-pointers",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn capture(name: &str) -> Capture {
    Capture::open(format!("{}/{name}", dir()), &CaptureOptions::default()).unwrap()
}

const COMPUTE: &str = "multi-draw-indirect-cull-address-comp";
const VERTEX: &str = "buffer-device-address-render-vert-nggc";

/// Global accesses one dword past their address: a pointer-based access
/// read or written one dword off.
fn one_dword_off() -> ComputeFaults {
    ComputeFaults {
        global_address_plus_dword: true,
        ..ComputeFaults::default()
    }
}

fn precise() -> translator::Options {
    translator::Options {
        precise: true,
        ..translator::Options::default()
    }
}

#[test]
fn pointers_the_inputs_load_as_data_get_memory_on_both_sides() {
    let Some(h) = Harness::shared_or_skip("scene_pointers") else {
        return;
    };
    let r = tree::run_tree(
        std::path::Path::new(&dir()),
        None,
        &CaptureOptions::default(),
        h,
    )
    .unwrap();
    eprint!("{}", r.text());
    let t = &r.totals;
    assert_eq!(
        (t.entries, t.clean, t.mismatches, t.findings, t.failed),
        (2, 2, 0, 0, 0)
    );
    for e in &r.entries {
        match &e.outcome {
            tree::Outcome::Ran { words, .. } => assert!(*words > 0, "{}", e.name),
            o => panic!("{}: {o:?}", e.name),
        }
    }
}

#[test]
fn a_store_through_a_loaded_pointer_one_dword_off_is_caught() {
    let Some(h) = Harness::shared_or_skip("scene_pointers_compute_fault") else {
        return;
    };
    let c = capture(COMPUTE);
    let entry = c.compute_entry().unwrap();
    let (file, groups) = synth::with_pointers(&c, synth::synthesize(&c).unwrap());
    let tr = translator::translate_compute_with_faults(
        &c.shader_input(),
        &entry,
        &precise(),
        one_dword_off(),
    )
    .unwrap();
    let r = dispatch::execute_translation(&c, &file, &groups, h, &tr).unwrap();
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the access one dword off went unnoticed");
}

/// Open: the fault does not turn this run red yet (1,303 words, 0
/// mismatches with `global_address_plus_dword`); why the NGG pass's global
/// loads do not move with it is not found.
#[test]
#[ignore = "open: the NGG pass does not show global_address_plus_dword"]
fn a_load_through_a_pointer_table_one_dword_off_is_caught() {
    let Some(h) = Harness::shared_or_skip("scene_pointers_vertex_fault") else {
        return;
    };
    let c = capture(VERTEX);
    let input = c.shader_input();
    let tr = translator::translate_ngg_with_faults(
        &input,
        &translator::ngg_entry_of(&input),
        &precise(),
        one_dword_off(),
    )
    .unwrap();
    let r = ngg::execute_translation(&c, &tree::default_scene(&c), h, &tr).unwrap();
    eprint!("{}", r.text());
    assert!(r.mismatches > 0, "the access one dword off went unnoticed");
}

#[test]
fn without_the_pointer_layout_the_inputs_leave_guest_memory() {
    let Some(h) = Harness::shared_or_skip("scene_pointers_control") else {
        return;
    };
    // Compute: the bare synthesized inputs store outside guest memory (a
    // store the device cannot make is a mismatch), the laid-out ones run
    // clean.
    let c = capture(COMPUTE);
    let bare = synth::synthesize(&c).unwrap();
    let laid = synth::with_pointers(&c, bare.clone());
    assert!(laid.0.memory.len() > bare.0.memory.len());
    let r = dispatch::execute(&c, &bare.0, &bare.1, h).unwrap();
    assert!(r.mismatches > 0, "{}", r.text());
    let r = dispatch::execute(&c, &laid.0, &laid.1, h).unwrap();
    assert!(r.words > 0 && r.mismatches == 0, "{}", r.text());
    // Vertex: the scene without the layout leaves the interpreter reads it
    // cannot check (findings).
    let c = capture(VERTEX);
    let trace = shaderlift_cli::trace::trace_capture(&c);
    let mut bare = interp::scene::synthesize(&trace, &c.abi()).to_draws_file();
    tree::complete_scene_memory(&c, &trace, &mut bare);
    let r = ngg::execute(&c, &bare, h).unwrap();
    assert!(r.findings > 0, "{}", r.text());
    let r = ngg::execute(&c, &tree::default_scene(&c), h).unwrap();
    assert!(
        r.words > 0 && r.findings == 0 && r.mismatches == 0,
        "{}",
        r.text()
    );
}
