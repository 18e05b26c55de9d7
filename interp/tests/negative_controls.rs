//! Negative controls: break one tracer or drawbind rule at a time (behind
//! their test-only fault switches) and show the soundness check turns red
//! on a corpus shader or a generated program. Each test also runs the same
//! draws with the rule intact and expects 0 violations, so it pins the
//! fault, not the draws.

mod common;

use analysis::trace::{ShaderTrace, TraceConfig, TraceFaults, TraceOptions};
use common::soundness::{case, indexed_case, Case, Layout, Rng};
use corpus::{Capture, CaptureOptions};
use drawbind::{BindFaults, BindPlan};
use interp::gen::{DescSpec, GenProgram, Item};
use interp::{Shader, Verifier, VerifyOptions};

struct Loaded {
    cap: Capture,
}

impl Loaded {
    fn new(name: &str) -> Loaded {
        let dir = format!("{}/../corpus/radv/{name}", env!("CARGO_MANIFEST_DIR"));
        Loaded {
            cap: Capture::open(&dir, &CaptureOptions::default()).unwrap(),
        }
    }
    fn shader(&self) -> Shader<'_> {
        Shader {
            name: &self.cap.name,
            code: &self.cap.code,
            target: self.cap.meta.target,
            stage: self.cap.meta.stage,
            abi: self.cap.meta.abi,
            wave64: self.cap.meta.wave_size.lanes() == 64,
        }
    }
    fn trace(&self) -> ShaderTrace {
        let s = self.shader();
        analysis::trace::trace_code(
            s.code,
            s.target,
            &TraceConfig::new(s.stage, s.abi, !s.wave64),
        )
    }
}

/// Violations over `draws` random draws of corpus shader `name` with the
/// bind plan's `faults`.
fn corpus_violations(name: &str, faults: BindFaults, draws: usize) -> usize {
    corpus_violations_of(name, faults, draws, case)
}

/// The same over random indexed draws.
fn indexed_violations(name: &str, faults: BindFaults, draws: usize) -> usize {
    corpus_violations_of(name, faults, draws, indexed_case)
}

fn corpus_violations_of(
    name: &str,
    faults: BindFaults,
    draws: usize,
    make: fn(&mut Rng, Layout) -> Case,
) -> usize {
    let l = Loaded::new(name);
    let trace = l.trace();
    let plan = BindPlan::new(&trace, l.cap.meta.stage)
        .unwrap()
        .with_faults(faults);
    let mut v = Verifier::with_plan(l.shader(), trace, plan, &VerifyOptions::default());
    let mut rng = Rng(0xbad_5eed);
    let layout = Layout::of(name);
    let mut total = 0;
    for i in 0..draws {
        let c = make(&mut rng, layout);
        v.config_mut().group_prims = c.group_prims;
        let r = v.draw(i, &c.draw, &c.user_data, &c.mem);
        assert!(r.verified(), "{name} draw {i}: {:?}", r.error);
        total += r.check.violations.len();
    }
    total
}

#[test]
fn narrowing_indexed_draws_by_the_smallest_index_turns_the_check_red() {
    let faults = BindFaults {
        use_min_index: true,
        ..BindFaults::default()
    };
    assert_eq!(indexed_violations("cube", BindFaults::default(), 300), 0);
    assert!(indexed_violations("cube", faults, 300) > 0);
}

#[test]
fn scanning_indices_from_zero_instead_of_the_first_index_turns_the_check_red() {
    let faults = BindFaults {
        scan_from_zero: true,
        ..BindFaults::default()
    };
    assert_eq!(
        indexed_violations("cube-w32", BindFaults::default(), 300),
        0
    );
    assert!(indexed_violations("cube-w32", faults, 300) > 0);
}

#[test]
fn skipping_all_ones_indices_when_restart_is_off_turns_the_check_red() {
    // Skipping restart values when restart is on is the rule; ignoring
    // restart only widens the range. The wrong answer is the converse:
    // treating the format's all-ones value as restart when restart is off.
    let faults = BindFaults {
        restart_always: true,
        ..BindFaults::default()
    };
    assert_eq!(
        indexed_violations("cube-legacy-vs", BindFaults::default(), 300),
        0
    );
    assert!(indexed_violations("cube-legacy-vs", faults, 300) > 0);
}

#[test]
fn forgetting_split_chunks_turns_the_check_red() {
    let faults = BindFaults {
        forget_chunks: true,
        ..BindFaults::default()
    };
    assert_eq!(corpus_violations("cube", BindFaults::default(), 200), 0);
    assert!(corpus_violations("cube", faults, 200) > 0);
}

#[test]
fn forgetting_instance_ids_turns_the_check_red() {
    let faults = BindFaults {
        forget_instance_ids: true,
        ..BindFaults::default()
    };
    assert_eq!(
        corpus_violations("instanced", BindFaults::default(), 200),
        0
    );
    assert!(corpus_violations("instanced", faults, 200) > 0);
}

#[test]
fn skipping_the_records_cap_turns_the_check_red() {
    let faults = BindFaults {
        skip_cap: true,
        ..BindFaults::default()
    };
    assert_eq!(
        corpus_violations("cube-legacy-vs", BindFaults::default(), 200),
        0
    );
    assert!(corpus_violations("cube-legacy-vs", faults, 200) > 0);
}

/// Violations of `draws` random draws of corpus shader `name` traced with
/// `faults`.
fn corpus_violations_traced(name: &str, faults: TraceFaults, draws: usize) -> usize {
    let l = Loaded::new(name);
    let s = l.shader();
    let trace = analysis::trace::trace_with(
        s.code,
        s.target,
        &TraceConfig::new(s.stage, s.abi, !s.wave64),
        &TraceOptions { faults },
    );
    let mut v = Verifier::with_trace(s, trace, &VerifyOptions::default()).unwrap();
    let mut rng = Rng(0xbad_7ace);
    let layout = Layout::of(name);
    let mut total = 0;
    for i in 0..draws {
        let c = case(&mut rng, layout);
        v.config_mut().group_prims = c.group_prims;
        let r = v.draw(i, &c.draw, &c.user_data, &c.mem);
        assert!(r.verified(), "{name} draw {i}: {:?}", r.error);
        total += r.check.violations.len();
    }
    total
}

/// Violations of a generated program (wave64, NGG or legacy VS, one
/// descriptor of stride 16 with 2^20 records) over a draw of vertices
/// `0..count`.
fn generated_violations(legacy: bool, items: Vec<Item>, faults: TraceFaults, count: u8) -> usize {
    let p = GenProgram {
        legacy,
        wave64: true,
        ngg_prologue: true,
        descs: vec![DescSpec {
            stride_dwords: 4,
            records: 1 << 20,
            oob: 2,
            base: 0,
        }],
        table_words: [0; 8],
        user: [0; 4],
        items,
        first_vertex: 0,
        vertex_count: count,
        instance_count: 1,
        chunks: vec![],
        group_prims: 42,
    };
    let c = p.build();
    let shader = Shader {
        name: "generated",
        code: &c.code,
        target: isa::Target::Gfx1030,
        stage: c.stage,
        abi: c.abi,
        wave64: c.wave64,
    };
    let trace = analysis::trace::trace_with(
        &c.code,
        isa::Target::Gfx1030,
        &TraceConfig::new(c.stage, c.abi, !c.wave64),
        &TraceOptions { faults },
    );
    let mut v = Verifier::with_trace(shader, trace, &VerifyOptions::default()).unwrap();
    let r = v.draw(0, &c.draw, &c.user_data, &c.memory);
    assert!(r.verified(), "{:?} {:?}", r.error, r.check.undefined);
    r.check.violations.len()
}

#[test]
fn dropping_the_plus_word_turns_the_check_red() {
    let faults = TraceFaults {
        drop_plus_word: true,
        ..TraceFaults::default()
    };
    assert_eq!(
        corpus_violations_traced("cube", TraceFaults::default(), 100),
        0
    );
    assert!(corpus_violations_traced("cube", faults, 100) > 0);
}

#[test]
fn ignoring_lds_turns_the_check_red() {
    // v2 = id + 1000 goes to LDS slot 1, the bare id to slot 2; slot 1 is
    // read back and used as the index. Treating LDS as one register, the
    // broken tracer takes the index for the bare id.
    let items = vec![
        Item::AddConst {
            dst: 2,
            value: 1000,
            src: 5,
        },
        Item::LdsWrite { value: 2, slot: 1 },
        Item::LdsWrite { value: 5, slot: 2 },
        Item::LdsRead {
            dst: 3,
            slot: 1,
            xor: 0,
        },
        Item::Fetch {
            desc: 0,
            dst: 10,
            index: 3,
            dwords: 0,
            offset: 0,
        },
    ];
    let faults = TraceFaults {
        ignore_lds: true,
        ..TraceFaults::default()
    };
    assert_eq!(
        generated_violations(false, items.clone(), TraceFaults::default(), 30),
        0
    );
    assert!(generated_violations(false, items, faults, 30) > 0);
}

#[test]
fn ignoring_exec_restores_turns_the_check_red() {
    // Legacy VS (exec starts as exactly the vertex lanes): v2 = id + 1000
    // in every lane, then v2 = id in the lanes with id < 1 only; after exec
    // is restored most lanes still hold id + 1000.
    let items = vec![
        Item::AddConst {
            dst: 2,
            value: 1000,
            src: 5,
        },
        Item::Mask {
            reg: 5,
            bound: 1,
            cmpx: false,
        },
        Item::Move { dst: 2, src: 5 },
        Item::Restore { or: false },
        Item::Fetch {
            desc: 0,
            dst: 10,
            index: 2,
            dwords: 0,
            offset: 0,
        },
    ];
    let faults = TraceFaults {
        ignore_exec_restore: true,
        ..TraceFaults::default()
    };
    assert_eq!(
        generated_violations(true, items.clone(), TraceFaults::default(), 30),
        0
    );
    assert!(generated_violations(true, items, faults, 30) > 0);
}

/// Found by the `soundness` fuzz target (artifact
/// `fuzz/artifacts/soundness/crash-b18b2fa8…`): a descriptor with
/// OOB_SELECT 1 (index checked only) and stride 0 lets every index below
/// `num_records` read the bytes at its base. drawbind used to class every
/// stride-0 descriptor as raw and bind `num_records` bytes, so with
/// `num_records` 2 a dword fetch passed the bound. drawbind now binds the
/// widest access for such descriptors; this pins that the oracle finds no
/// violation (and that the range really covers the 4-byte read).
#[test]
fn structured_stride_zero_descriptor_is_bound_by_its_widest_access() {
    use interp::gen::GenMemory;
    let p = GenProgram {
        legacy: true,
        wave64: true,
        ngg_prologue: false,
        descs: vec![DescSpec {
            stride_dwords: 0,
            records: 2,
            oob: 2,
            base: 0,
        }],
        table_words: [0; 8],
        user: [0; 4],
        items: vec![Item::Fetch {
            desc: 0,
            dst: 10,
            index: 5,
            dwords: 0,
            offset: 0,
        }],
        first_vertex: 0,
        vertex_count: 1,
        instance_count: 1,
        chunks: vec![],
        group_prims: 42,
    };
    let c = p.build();
    // The generator now makes stride-0 descriptors raw: put back OOB_SELECT 1.
    let mut mem: GenMemory = c.memory.clone();
    let mut w = GenProgram::desc_words(&p.descs[0]);
    w[3] = (w[3] & !(3 << 28)) | 1 << 28;
    mem.write(interp::gen::TABLE, &w);
    let shader = Shader {
        name: "generated",
        code: &c.code,
        target: isa::Target::Gfx1030,
        stage: c.stage,
        abi: c.abi,
        wave64: c.wave64,
    };
    let mut v = Verifier::new(shader, &VerifyOptions::default()).unwrap();
    let r = v.draw(0, &c.draw, &c.user_data, &mem);
    assert!(r.verified());
    let b = &r.check.bindings[0];
    assert_eq!(
        (b.size, b.reason.as_str()),
        (4, "raw"),
        "drawbind binds the widest access, past num_records bytes"
    );
    assert_eq!(r.check.violations.len(), 0, "{:?}", r.check.violations);
}
