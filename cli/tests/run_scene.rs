//! `shaderlift run DIR` on vertex shaders without a DRAWS file: the
//! default scene (`interp::scene::synthesize`) completed with the words the
//! translation reads through pointers (`run::tree::complete_scene_memory`).

use corpus::{Capture, CaptureOptions};
use shaderlift_cli::run::tree;
use vkharness::Harness;

fn dir() -> String {
    format!(
        "{}/tests/fixtures/scene-push-constants",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn push_constants_read_through_a_pointer_get_scene_words_on_both_sides() {
    let Some(h) = Harness::shared_or_skip("scene_push_constants") else {
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
    // The direct vertex path and the NGG compute pass (culling shader).
    assert_eq!((t.entries, t.clean, t.mismatches, t.failed), (2, 2, 0, 0));
    assert!(t.words > 0);
}

#[test]
fn the_trace_driven_scene_alone_lacks_the_push_constant_words() {
    let Some(h) = Harness::shared_or_skip("scene_push_constants_control") else {
        return;
    };
    // Control: without the completion the run cannot resolve its push
    // words (what every such shader hit before).
    let c = Capture::open(
        format!("{}/constant-data-push-constant-small-vert", dir()),
        &CaptureOptions::default(),
    )
    .unwrap();
    let trace = shaderlift_cli::trace::trace_capture(&c);
    let mut file = interp::scene::synthesize(&trace, &c.abi()).to_draws_file();
    let bare = file.clone();
    let err = shaderlift_cli::run::execute(&c, &bare, &Default::default(), h)
        .expect_err("the bare scene resolved its push words");
    assert!(
        err.to_string().contains("guest memory has no dword"),
        "{err}"
    );
    let before = file.memory.len();
    tree::complete_scene_memory(&c, &trace, &mut file);
    assert!(file.memory.len() > before);
    assert!(file.memory[before..]
        .iter()
        .all(|b| b.words.iter().all(|w| w.0 == tree::SCENE_FILL)));
    let r = shaderlift_cli::run::execute(&c, &file, &Default::default(), h).unwrap();
    assert!(r.words > 0 && r.mismatches == 0);
}
