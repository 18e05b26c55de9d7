//! `corpus::check`: the pipeline on one capture, its row and its typed
//! failure causes.

use corpus::check::{check_capture, CheckError, CheckOptions};
use corpus::{bundled_root, Capture, CaptureOptions};

fn open(name: &str) -> Capture {
    Capture::open(bundled_root().join(name), &CaptureOptions::default()).unwrap()
}

#[test]
fn a_vertex_shader_binds_verifies_and_translates() {
    let row = check_capture(&open("instanced"), &CheckOptions::default());
    assert!(!row.failed, "{:?}", row.error);
    assert!(row.cause.is_none() && row.error.is_none());
    assert_eq!((row.stage.as_str(), row.wave), ("ngg", 64));
    assert!(row.instructions > 0 && row.invalid == 0);
    assert!(row.draws > 0 && row.unverified == 0 && row.violations == 0);
    assert!(row.narrowed_bindings > 0 && row.narrowed_bytes < row.baseline_bytes);
    assert_eq!(row.translate, "ok (naga)");
    assert_eq!(row.run, "not requested");
    assert!(row.runnable);
}

#[test]
fn compute_shaders_are_traced_and_translated_but_not_bound() {
    let row = check_capture(&open("compute"), &CheckOptions::default());
    assert_eq!(row.stage, "cs");
    assert_eq!(row.draws, 0);
    assert_eq!(row.translate, "ok (naga)");
    // With its entry state recorded, a dispatch can be synthesized.
    assert!(row.runnable);
}

#[test]
fn raw_compute_code_without_entry_state_is_not_runnable() {
    let dir = bundled_root().join("compute");
    let opts = CaptureOptions {
        raw: true,
        stage: Some(isa::Stage::Cs),
        ..Default::default()
    };
    let c = Capture::open(dir.join("code.bin"), &opts).unwrap();
    assert_eq!(c.stage(), isa::Stage::Cs);
    assert!(c.compute_entry().is_none());
    let row = check_capture(&c, &CheckOptions::default());
    assert!(!row.runnable, "{row:?}");
}

#[test]
fn a_validator_that_cannot_run_fails_the_row_with_a_typed_cause() {
    let opts = CheckOptions {
        spirv_val: Some("/nonexistent/spirv-val".into()),
    };
    let row = check_capture(&open("cube"), &opts);
    assert!(row.failed);
    assert_eq!(row.translate, "invalid");
    let Some(CheckError::SpirvVal(why)) = &row.cause else {
        panic!("{:?}", row.cause);
    };
    assert_eq!(
        row.error.as_deref(),
        Some(format!("spirv-val rejected the module: {why}").as_str())
    );
}

#[test]
fn the_json_row_has_the_reports_fields_and_no_others() {
    let row = check_capture(&open("cube"), &CheckOptions::default());
    let text = serde_json::to_string(&row).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 17, "{text}");
    // In this order (the `--json` output's).
    let at = |k: &str| text.find(&format!("\"{k}\":")).unwrap_or(usize::MAX);
    let keys = [
        "name",
        "stage",
        "wave",
        "instructions",
        "invalid",
        "descriptors",
        "draws",
        "narrowed_bytes",
        "baseline_bytes",
        "bindings",
        "narrowed_bindings",
        "violations",
        "unverified",
        "translate",
        "run",
        "failed",
        "error",
    ];
    assert!(keys.windows(2).all(|w| at(w[0]) < at(w[1])), "{text}");
    assert!(at("error") < usize::MAX, "{text}");
}
