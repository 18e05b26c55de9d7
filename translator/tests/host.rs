//! `translator::host`: a translated shader's descriptor bindings for a draw
//! agree with drawbind's ranges, name the manifest's bindings, and fail
//! with typed errors.

use analysis::trace::{trace_code, TraceConfig};
use corpus::{Capture, CaptureOptions, WaveSize};
use drawbind::draws::DrawsFile;
use drawbind::{BindError, BindPlan, BindRange, SparseMemory};
use translator::host::{guest_reader, HostBindError, HostBinder, HostBinding};
use translator::manifest::{BindingKind, DrawParams};
use translator::{translate, Options};

struct Setup {
    binder: HostBinder,
    manifest: translator::manifest::Manifest,
    plan: BindPlan,
    draws: DrawsFile,
    memory: SparseMemory,
}

fn setup(capture: &str) -> Setup {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let c = Capture::open(
        root.join("corpus/radv").join(capture),
        &CaptureOptions::default(),
    )
    .unwrap();
    let text = std::fs::read_to_string(root.join("cli/tests/draws/cube.json")).unwrap();
    let draws = DrawsFile::parse(&text).unwrap();
    let config = TraceConfig::new(c.stage(), c.abi(), c.wave_size() == WaveSize::W32);
    let trace = trace_code(&c.code, c.target(), &config);
    let opts = Options {
        checked: true,
        ..Options::default()
    };
    let t = translate(&c.shader_input(), Some(&trace), &opts).unwrap();
    let plan = BindPlan::new(&trace, c.stage())
        .unwrap()
        .with_code_address(draws.code_addr());
    let binder = HostBinder::new(&t.manifest, trace, plan.clone(), Some(draws.code_addr()));
    let memory = draws.memory_with_code(&c.code_and_constants());
    Setup {
        binder,
        manifest: t.manifest,
        plan,
        draws,
        memory,
    }
}

#[test]
fn bindings_follow_the_manifest_and_drawbinds_ranges() {
    let s = setup("cube");
    let descriptor_bindings: Vec<u32> = s
        .manifest
        .bindings
        .iter()
        .filter(|b| matches!(b.kind, BindingKind::Descriptor { .. }))
        .map(|b| b.binding)
        .collect();
    assert_eq!(s.binder.len(), descriptor_bindings.len());
    assert!(!s.binder.is_empty());
    assert_eq!(s.binder.scratch_len(), s.plan.len());
    let user_data = s.draws.user_data();
    let mut scratch = vec![BindRange::EMPTY; s.binder.scratch_len()];
    let mut out = vec![HostBinding::EMPTY; s.binder.len()];
    let mut plain = vec![BindRange::EMPTY; s.plan.len()];
    let mut narrowed = 0;
    for spec in &s.draws.draws {
        let draw = spec.as_draw_scanned(&s.memory).unwrap();
        let n = s
            .binder
            .bind_draw(&draw, &user_data, &s.memory, &mut scratch, &mut out)
            .unwrap();
        assert_eq!(n, descriptor_bindings.len());
        s.plan
            .bind(&draw, &user_data, &s.memory, &mut plain)
            .unwrap();
        let window = s
            .binder
            .window(&user_data, &s.memory, &mut scratch, 64 << 20)
            .unwrap();
        for (h, binding) in out[..n].iter().zip(&descriptor_bindings) {
            assert_eq!(h.binding, *binding);
            assert_eq!(
                s.manifest.binding_of_descriptor(h.descriptor),
                Some(*binding)
            );
            let r = plain
                .iter()
                .find(|r| r.descriptor.0 == h.descriptor)
                .unwrap();
            assert_eq!(
                (h.base, h.size, h.narrowed, h.reason),
                (r.base, r.size, r.narrowed, r.reason)
            );
            assert!(window.base <= h.base && h.base + h.size <= window.base + window.size);
            assert!(!window.capped);
            if h.narrowed {
                narrowed += 1;
                let last = h.last_record.expect("a narrowed range has a last record");
                assert!(h.stride > 0);
                assert!((u64::from(last) + 1) * u64::from(h.stride) <= h.size);
            } else {
                assert_eq!(h.last_record, None);
            }
        }
        // The push constants take the bindings' ranges.
        let params = DrawParams {
            bindings: out[..n].iter().map(|h| h.range(u64::MAX)).collect(),
            window: (window.base, window.size as u32),
            ..DrawParams::default()
        };
        let mut read = guest_reader(&s.memory);
        s.manifest
            .push_words(&user_data, &params, &mut read)
            .unwrap();
    }
    assert!(narrowed > 0, "the cube's vertex buffer narrows");
}

#[test]
fn errors_are_typed_values() {
    let s = setup("cube");
    let user_data = s.draws.user_data();
    let draw = s.draws.draws[0].as_draw_scanned(&s.memory).unwrap();
    let mut scratch = vec![BindRange::EMPTY; s.binder.scratch_len()];
    let mut out: Vec<HostBinding> = Vec::new();
    assert_eq!(
        s.binder
            .bind_draw(&draw, &user_data, &s.memory, &mut scratch, &mut out),
        Err(HostBindError::OutputTooSmall {
            needed: s.binder.len(),
            got: 0
        })
    );
    let mut out = vec![HostBinding::EMPTY; s.binder.len()];
    // Memory without the descriptor tables: drawbind's error, same text.
    let empty = SparseMemory::new();
    let e = s
        .binder
        .bind_draw(&draw, &user_data, &empty, &mut scratch, &mut out)
        .unwrap_err();
    let HostBindError::Bind(inner @ BindError::Unreadable { .. }) = &e else {
        panic!("{e:?}");
    };
    assert_eq!(e.to_string(), inner.to_string());
    // A scratch buffer shorter than the plan.
    let e = s
        .binder
        .bind_draw(&draw, &user_data, &s.memory, &mut [], &mut out)
        .unwrap_err();
    assert!(
        matches!(e, HostBindError::Bind(BindError::OutputTooSmall { .. })),
        "{e:?}"
    );
}

#[test]
fn a_manifest_from_another_trace_names_the_binding_without_a_range() {
    let s = setup("cube");
    let mut manifest = s.manifest.clone();
    for b in &mut manifest.bindings {
        if let BindingKind::Descriptor { descriptor, .. } = &mut b.kind {
            *descriptor = 999;
        }
    }
    let binder = HostBinder::new(&manifest, s.binder.trace().clone(), s.plan.clone(), None);
    let user_data = s.draws.user_data();
    let draw = s.draws.draws[0].as_draw_scanned(&s.memory).unwrap();
    let mut scratch = vec![BindRange::EMPTY; binder.scratch_len()];
    let mut out = vec![HostBinding::EMPTY; binder.len()];
    let e = binder
        .bind_draw(&draw, &user_data, &s.memory, &mut scratch, &mut out)
        .unwrap_err();
    assert!(matches!(e, HostBindError::NoBindRange { .. }), "{e:?}");
    assert!(e.to_string().ends_with("has no bind range"), "{e}");
}
