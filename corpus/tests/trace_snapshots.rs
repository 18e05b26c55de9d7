//! Register-source tracing over every bundled RADV corpus entry.
//!
//! Each entry is traced with the stage, ABI and wave size its `meta.json`
//! records, and the human-readable trace (descriptors with bounds and
//! reasons, then every buffer access) is snapshot-tested. The tests below
//! the snapshot test pin the verdicts the issue asks for, so a snapshot
//! accepted by mistake still fails them.
//!
//! User-data numbering: NGG entries count words from `s8` (ud0 = s8, the
//! vertex-buffer table; ud1 = s9, base vertex; ud2 = s10, start instance in
//! `instanced*`). Legacy-VS entries count from `s2`, after the ring pointer
//! (ud0 = s2 the table, ud1 = s3 base vertex, ud2 = s4 start instance).

use analysis::trace::{trace_code, ShaderTrace, TraceConfig};
use corpus::{Capture, WaveSize};

fn config(c: &Capture) -> TraceConfig {
    TraceConfig::new(c.stage(), c.abi(), c.wave_size() == WaveSize::W32)
}

fn traced(name: &str) -> (Capture, ShaderTrace) {
    let c = corpus::bundled()
        .expect("bundled corpus")
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no corpus entry {name}"));
    let t = trace_code(&c.code, c.target(), &config(&c));
    (c, t)
}

/// What each entry should show, written into its snapshot.
fn description(name: &str) -> &'static str {
    match name {
        "cube" | "cube-w32" => {
            "NGG, no culling: table(ud0)+0x0 bound by vertex_id + ud1 (base vertex), both \
             attributes fetched under the vertex-lane exec set from merged_wave_info"
        }
        "cube-legacy-vs" => {
            "legacy VS (ud0 = s2): table(ud0)+0x0 bound by vertex_id + ud1; the wave starts \
             with exactly the vertex lanes"
        }
        "instanced" | "instanced-w32" | "instanced-legacy-vs" => {
            "slot 0x0 bound by vertex_id + ud1 (base vertex), slot 0x10 by instance_id + ud2 \
             (start instance)"
        }
        "cube-nggc" | "cube-nggc-w32" => {
            "culling: the position fetch uses the entry vertex id and the colour fetch after \
             compaction reads it back from LDS cells 20 mod 28, which only vertex ids are \
             written to: slot 0 is bound by vertex_id + ud1 under the LDS contract"
        }
        "instanced-nggc" | "instanced-nggc-w32" => {
            "culling: binding 0 (slot 0x0) is fetched once, before compaction, with the entry \
             vertex id: bound by vertex_id + ud1. Slot 0x10 is fetched before compaction with \
             the entry instance id and again after it; on the culling path the second index \
             is the instance id read back from LDS cells 24 mod 28, which only instance ids \
             are written to: slot 0x10 is bound by instance_id + ud2 under the LDS contract"
        }
        _ => "no vertex stage: no vertex or instance ids; nothing may be bound by one",
    }
}

#[test]
fn every_corpus_entry_traces_to_its_snapshot() {
    let captures = corpus::bundled().expect("bundled corpus");
    assert!(
        captures.len() >= 13,
        "corpus has {} entries",
        captures.len()
    );
    for c in captures {
        let t = trace_code(&c.code, c.target(), &config(&c));
        let text = analysis::report::trace_table(&t);
        insta::with_settings!({
            snapshot_suffix => c.name.clone(),
            description => description(&c.name),
            omit_expression => true,
        }, {
            insta::assert_snapshot!("trace", text);
        });
    }
}

fn bound(t: &ShaderTrace, source: &str) -> Option<String> {
    let d = t
        .descriptors
        .iter()
        .find(|d| t.descriptor_source(d) == source)
        .unwrap_or_else(|| {
            panic!(
                "no descriptor {source}:\n{}",
                analysis::report::trace_table(t)
            )
        });
    d.bound.map(|b| match b.plus {
        Some(w) => format!("{} + {}", b.id.name(), t.namer().word_string(w)),
        None => b.id.name().to_string(),
    })
}

#[test]
fn cube_slot_0_is_bound_by_vertex_id_plus_base_vertex() {
    for name in ["cube", "cube-legacy-vs", "cube-w32"] {
        let (_, t) = traced(name);
        assert_eq!(
            bound(&t, "table(ud0)+0x0").as_deref(),
            Some("vertex_id + ud1"),
            "{name}:\n{}",
            analysis::report::trace_table(&t)
        );
    }
}

#[test]
fn instanced_slots_are_bound_by_vertex_and_instance_ids() {
    for name in ["instanced", "instanced-legacy-vs", "instanced-w32"] {
        let (_, t) = traced(name);
        let table = analysis::report::trace_table(&t);
        assert_eq!(
            bound(&t, "table(ud0)+0x0").as_deref(),
            Some("vertex_id + ud1"),
            "{name}:\n{table}"
        );
        assert_eq!(
            bound(&t, "table(ud0)+0x10").as_deref(),
            Some("instance_id + ud2"),
            "{name}:\n{table}"
        );
    }
}

/// The LDS contract of a descriptor's bound, as `(stride, offset)`.
fn contract(t: &analysis::trace::ShaderTrace, source: &str) -> Option<(u32, u32, bool)> {
    let d = t
        .descriptors
        .iter()
        .find(|d| t.descriptor_source(d) == source)?;
    let c = d.bound?.through_lds?;
    Some((c.class.stride, c.class.offset, c.requires_init))
}

#[test]
fn cube_nggc_slot_0_is_bound_through_lds_under_the_contract() {
    for name in ["cube-nggc", "cube-nggc-w32"] {
        let (_, t) = traced(name);
        let table = analysis::report::trace_table(&t);
        assert_eq!(
            bound(&t, "table(ud0)+0x0").as_deref(),
            Some("vertex_id + ud1"),
            "{name}:\n{table}"
        );
        assert_eq!(
            contract(&t, "table(ud0)+0x0"),
            Some((28, 20, true)),
            "{name}"
        );
    }
}

#[test]
fn instanced_nggc_binds_the_vertex_slot_and_the_refetched_instance_slot_through_lds() {
    for name in ["instanced-nggc", "instanced-nggc-w32"] {
        let (_, t) = traced(name);
        let table = analysis::report::trace_table(&t);
        assert_eq!(
            bound(&t, "table(ud0)+0x0").as_deref(),
            Some("vertex_id + ud1"),
            "{name}:\n{table}"
        );
        assert_eq!(
            contract(&t, "table(ud0)+0x0"),
            None,
            "{name}: fetched before compaction"
        );
        assert_eq!(
            bound(&t, "table(ud0)+0x10").as_deref(),
            Some("instance_id + ud2"),
            "{name}:\n{table}"
        );
        assert_eq!(
            contract(&t, "table(ud0)+0x10"),
            Some((28, 24, true)),
            "{name}"
        );
    }
}

#[test]
fn fragment_and_compute_shaders_bind_nothing_to_vertex_sources() {
    for name in ["fragment-color", "compute", "compute-w32"] {
        let (_, t) = traced(name);
        assert!(
            t.descriptors.iter().all(|d| d.bound.is_none()),
            "{name}:\n{}",
            analysis::report::trace_table(&t)
        );
    }
}
