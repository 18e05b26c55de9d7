//! The rules, each pinned by a case and by a negative control: the same
//! case run with the rule deliberately broken ([`sab`]) must fail.

use super::*;
use crate::fixtures::{cube_trace, idxen_load, instanced_trace, table_words};
use crate::index::IndexFormat;
use crate::memory::SparseMemory;
use crate::vsharp::{encode_linear, radv_word3};
use analysis::source::{IndexSource, Ptr};
use analysis::trace::{Descriptor, LdsClass, LdsContract, ShaderTrace};

/// The table pointer's user-data value and the guest address it reads.
const TABLE_UD: u32 = 0x1000;
const TABLE: u64 = 0x8000_0000_1000;
const VB: u64 = 0x8000_0010_0000;
/// 4 MiB of 32-byte records: what is left of an upload ring.
const RING_RECORDS: u32 = (4 << 20) / 32;

struct Fixture {
    trace: ShaderTrace,
    stage: Stage,
    /// The plan is told the caller initialises LDS contracts.
    honour_lds: bool,
    memory: SparseMemory,
    user_data: Vec<u32>,
}

impl Fixture {
    /// `trace` with descriptor k's words at TABLE + 16k.
    fn new(trace: ShaderTrace, descs: &[[u32; 4]], user_data: &[u32]) -> Fixture {
        let mut memory = SparseMemory::new();
        for (k, v) in descs.iter().enumerate() {
            memory.write_words(TABLE + 16 * k as u64, v);
        }
        Fixture {
            trace,
            stage: Stage::Ngg,
            honour_lds: false,
            memory,
            user_data: user_data.to_vec(),
        }
    }

    fn plan(&self) -> BindPlan {
        BindPlan::new(&self.trace, self.stage)
            .expect("plan")
            .honour_lds_init(self.honour_lds)
    }

    fn bind(&self, draw: &Draw<'_>) -> Result<Vec<BindRange>, BindError> {
        let plan = self.plan();
        let mut out = vec![BindRange::EMPTY; plan.len()];
        let n = plan.bind(draw, &self.user_data, &self.memory, &mut out)?;
        out.truncate(n);
        Ok(out)
    }

    fn baseline(&self) -> Vec<BindRange> {
        let plan = self.plan();
        let mut out = vec![BindRange::EMPTY; plan.len()];
        let n = plan
            .bind_baseline(&self.user_data, &self.memory, &mut out)
            .unwrap();
        out.truncate(n);
        out
    }
}

fn linear(stride: u32, records: u32) -> [u32; 4] {
    encode_linear(VB, stride, records, OobSelect::Structured)
}

/// The cube shader with its descriptor `v` and base vertex `base_vertex`.
fn cube(v: [u32; 4], base_vertex: u32) -> Fixture {
    Fixture::new(cube_trace(), &[v], &[TABLE_UD, base_vertex])
}

/// What one descriptor's range must be: (size, narrowed, reason); the base
/// is always the descriptor's.
type Want = (u64, bool, Reason);

/// Check `got` against `want`; Err describes the first difference.
fn matches(
    fx: &Fixture,
    got: &Result<Vec<BindRange>, BindError>,
    want: &[Want],
) -> Result<(), String> {
    let got = got.as_ref().map_err(|e| e.to_string())?;
    let baseline = fx.baseline();
    if got.len() != want.len() {
        return Err(format!("{} ranges, want {}", got.len(), want.len()));
    }
    for ((r, w), b) in got.iter().zip(want).zip(&baseline) {
        if (r.size, r.narrowed, r.reason) != *w || r.base != b.base {
            return Err(format!("{r:?}, want {w:?} at base {:#x}", b.base));
        }
        if r.end() > b.end() {
            return Err(format!("{r:?} ends past the baseline {b:?}"));
        }
    }
    Ok(())
}

/// Pin a rule: the case holds, and breaking the rule `broken_by` makes it
/// fail (or panic).
fn pin(fx: &Fixture, draw: Draw<'_>, want: &[Want], broken_by: u32) {
    if let Err(e) = matches(fx, &fx.bind(&draw), want) {
        panic!("rule does not hold for {draw:?}: {e}");
    }
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sab::with(broken_by, || matches(fx, &fx.bind(&draw), want).is_err())
    }));
    assert!(
        caught.unwrap_or(true),
        "negative control: the case still passes with rule {broken_by:#x} broken"
    );
}

#[test]
fn auto_draw_narrows_to_last_vertex_plus_base_vertex_d879_example() {
    // 36 vertices with base vertex 100 in a binding whose records reach the
    // end of a 4 MiB ring: records 100..=135.
    let fx = cube(linear(32, RING_RECORDS), 100);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(136 * 32, true, Reason::Narrowed)],
        sab::IGNORE_PLUS,
    );
    assert_eq!(fx.baseline()[0].size, 4 << 20);
}

#[test]
fn first_vertex_counts_towards_the_last_id() {
    // Ids 10..=45 plus base vertex 7: records 17..=52.
    let fx = cube(linear(32, RING_RECORDS), 7);
    pin(
        &fx,
        Draw::auto(10, 36, 1),
        &[(53 * 32, true, Reason::Narrowed)],
        sab::IGNORE_PLUS,
    );
}

#[test]
fn split_draw_runs_through_the_end_of_its_last_chunk() {
    let fx = cube(linear(32, RING_RECORDS), 4);
    let chunks = [(0, 18), (18, 30)];
    let draw = Draw::Auto {
        first_vertex: 0,
        vertex_count: 36,
        instance_count: 1,
        chunks: &chunks,
    };
    pin(
        &fx,
        draw,
        &[((47 + 4 + 1) * 32, true, Reason::Narrowed)],
        sab::IGNORE_CHUNKS,
    );
    // Empty chunks do not count; the highest chunk is the last one.
    let chunks = [(40, 8), (0, 18), (60, 0)];
    let draw = Draw::Auto {
        first_vertex: 0,
        vertex_count: 36,
        instance_count: 1,
        chunks: &chunks,
    };
    pin(
        &fx,
        draw,
        &[((47 + 4 + 1) * 32, true, Reason::Narrowed)],
        sab::IGNORE_CHUNKS,
    );
}

#[test]
fn instance_ids_run_from_zero_to_instance_count_minus_one() {
    // Per-vertex vec3 (stride 12) + per-instance 2×vec4 (stride 32), start
    // instance 5, 4 instances: instance records 5..=8.
    let fx = Fixture::new(
        instanced_trace(),
        &[linear(12, 100_000), linear(32, 100_000)],
        &[TABLE_UD, 0, 5],
    );
    pin(
        &fx,
        Draw::auto(0, 36, 4),
        &[
            (36 * 12, true, Reason::Narrowed),
            (9 * 32, true, Reason::Narrowed),
        ],
        sab::INSTANCE_AS_VERTEX,
    );
}

#[test]
fn last_record_is_capped_at_num_records_minus_one() {
    let fx = cube(linear(32, 20), 0);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(20 * 32, false, Reason::Capped)],
        sab::NO_CAP,
    );
    // Exactly reaching record N − 1 is also the baseline.
    let fx = cube(linear(32, 36), 0);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(36 * 32, false, Reason::Capped)],
        sab::NO_CAP | sab::NARROW_ANY_CLASS,
    );
}

#[test]
fn last_id_plus_word_past_32_bits_keeps_the_baseline() {
    let fx = cube(linear(32, RING_RECORDS), 0xffff_fff0);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(4 << 20, false, Reason::Wrap)],
        sab::NO_WRAP_CHECK,
    );
    // The ids themselves passing 32 bits.
    let fx = cube(linear(32, RING_RECORDS), 0);
    pin(
        &fx,
        Draw::auto(0xffff_fff0, 36, 1),
        &[(4 << 20, false, Reason::Wrap)],
        sab::NO_WRAP_CHECK,
    );
}

/// An indexed draw of 36 u16 indices whose scanned range is `indices`.
fn indexed(indices: IndexRange, base_vertex: i32, instance_count: u32) -> Draw<'static> {
    Draw::Indexed {
        index_buffer: IndexBuffer {
            addr: 0x8000_0020_0000,
            format: IndexFormat::U16,
            count: 36,
            first_index: 0,
        },
        base_vertex,
        restart: Some(0xffff),
        instance_count,
        indices,
    }
}

#[test]
fn indexed_draw_without_a_scanned_range_keeps_the_baseline_for_vertex_ids_only() {
    let fx = cube(linear(32, RING_RECORDS), 0);
    pin(
        &fx,
        indexed(IndexRange::Unknown, 0, 1),
        &[(4 << 20, false, Reason::IndexedDraw)],
        sab::IGNORE_INDEXED,
    );
    // Instance ids do not come from the index buffer: still narrowed.
    let fx = Fixture::new(
        instanced_trace(),
        &[linear(12, 1000), linear(32, 1000)],
        &[TABLE_UD, 0, 5],
    );
    pin(
        &fx,
        indexed(IndexRange::Unknown, 0, 4),
        &[
            (1000 * 12, false, Reason::IndexedDraw),
            (9 * 32, true, Reason::Narrowed),
        ],
        sab::INSTANCE_AS_VERTEX,
    );
}

#[test]
fn indexed_draw_narrows_to_its_largest_index_plus_base_vertex_and_added_word() {
    // Indices 3..=40, hardware base vertex 10, shader base vertex (ud1) 100:
    // records up to 150.
    let fx = cube(linear(32, RING_RECORDS), 100);
    pin(
        &fx,
        indexed(IndexRange::Span { min: 3, max: 40 }, 10, 1),
        &[(151 * 32, true, Reason::Narrowed)],
        sab::IGNORE_PLUS,
    );
    // The largest index, not the count, sets the end.
    let fx = cube(linear(32, RING_RECORDS), 0);
    pin(
        &fx,
        indexed(IndexRange::Span { min: 0, max: 500 }, 0, 1),
        &[(501 * 32, true, Reason::Narrowed)],
        sab::IGNORE_INDEXED,
    );
}

#[test]
fn a_negative_base_vertex_narrows_unless_it_wraps_some_indices() {
    let fx = cube(linear(32, RING_RECORDS), 0);
    // 50..=90 − 20: ids 30..=70.
    pin(
        &fx,
        indexed(IndexRange::Span { min: 50, max: 90 }, -20, 1),
        &[(71 * 32, true, Reason::Narrowed)],
        sab::IGNORE_INDEXED,
    );
    // 10..=90 − 20: ids 0xffff_fff6..=0xffff_ffff and 0..=70, two intervals.
    pin(
        &fx,
        indexed(IndexRange::Span { min: 10, max: 90 }, -20, 1),
        &[(4 << 20, false, Reason::Wrap)],
        sab::NO_WRAP_CHECK,
    );
    // Every id wraps downwards the same way: one interval near 2³².
    let fx = cube(linear(32, RING_RECORDS), 300);
    let r = fx.bind(&indexed(IndexRange::Span { min: 0, max: 5 }, -10, 1));
    // Ids 2³² − 10 ..= 2³² − 5, plus 300 in the shader: the 32-bit add wraps.
    assert_eq!(r.unwrap()[0].reason, Reason::Wrap);
}

#[test]
fn indexed_draw_of_only_restart_values_runs_no_lane() {
    let fx = cube(linear(32, 1000), 0);
    pin(
        &fx,
        indexed(IndexRange::Empty, 0, 1),
        &[(32000, false, Reason::ZeroCount)],
        sab::NO_ZERO_CHECK,
    );
}

/// The cube trace with its second access indexed by `index` and the
/// tracer's bound set to `bound`.
fn cube_second_access(index: IndexSource, bound: Option<IndexBound>) -> ShaderTrace {
    let mut t = cube_trace();
    t.accesses[1].index = Some(index);
    t.descriptors[0].bound = bound;
    t
}

#[test]
fn accesses_that_disagree_keep_the_baseline() {
    let other = IndexSource::IdPlus {
        id: Id::InstanceId,
        word: Word::ud(1),
    };
    let fx = Fixture::new(
        cube_second_access(other, None),
        &[linear(32, 1000)],
        &[TABLE_UD, 0],
    );
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(1000 * 32, false, Reason::AccessesDisagree)],
        sab::IGNORE_DISAGREE,
    );
    // A bound the accesses do not agree on is not trusted either.
    let claimed = cube_trace().descriptors[0].bound;
    let fx = Fixture::new(
        cube_second_access(other, claimed),
        &[linear(32, 1000)],
        &[TABLE_UD, 0],
    );
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(1000 * 32, false, Reason::AccessesDisagree)],
        sab::IGNORE_DISAGREE,
    );
}

/// The cube trace with its second access reading the index back from LDS
/// (cells 20 mod 28) and the tracer's bound carrying that contract.
fn cube_through_lds() -> ShaderTrace {
    let c = LdsContract {
        class: LdsClass {
            stride: 28,
            offset: 20,
        },
        requires_init: true,
    };
    let mut t = cube_trace();
    t.accesses[1].through_lds = Some(c);
    if let Some(b) = &mut t.descriptors[0].bound {
        b.through_lds = Some(c);
    }
    t
}

#[test]
fn a_bound_through_lds_narrows_only_when_the_caller_honours_the_contract() {
    // Without the declaration the baseline stays, with its own reason.
    let mut fx = Fixture::new(cube_through_lds(), &[linear(32, 1000)], &[TABLE_UD, 0]);
    assert!(fx.plan().needs_lds_init() && !fx.plan().honours_lds_init());
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(1000 * 32, false, Reason::LdsContract)],
        sab::IGNORE_LDS_CONTRACT,
    );
    // Declared: narrowed like a direct bound.
    fx.honour_lds = true;
    assert_eq!(
        fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0].reason,
        Reason::Narrowed
    );
    assert_eq!(fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0].size, 36 * 32);
    // A trace without contracts is unaffected by the declaration.
    let plain = Fixture::new(cube_trace(), &[linear(32, 1000)], &[TABLE_UD, 0]);
    assert!(!plain.plan().needs_lds_init());
    assert_eq!(
        plain.bind(&Draw::auto(0, 36, 1)).unwrap()[0].reason,
        Reason::Narrowed
    );
}

#[test]
fn a_contract_the_accesses_do_not_carry_is_not_trusted() {
    // The tracer's bound claims the LDS contract but no access carries
    // it; conversely an access carries one the bound lacks: both disagree.
    let mut t = cube_through_lds();
    t.accesses[1].through_lds = None;
    let mut fx = Fixture::new(t, &[linear(32, 1000)], &[TABLE_UD, 0]);
    fx.honour_lds = true;
    assert_eq!(
        fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0].reason,
        Reason::AccessesDisagree
    );
    let mut t = cube_through_lds();
    if let Some(b) = &mut t.descriptors[0].bound {
        b.through_lds = None;
    }
    let mut fx = Fixture::new(t, &[linear(32, 1000)], &[TABLE_UD, 0]);
    fx.honour_lds = true;
    assert_eq!(
        fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0].reason,
        Reason::AccessesDisagree
    );
}

#[test]
fn an_untraced_index_keeps_the_baseline() {
    let claimed = cube_trace().descriptors[0].bound;
    let fx = Fixture::new(
        cube_second_access(IndexSource::Unknown, claimed),
        &[linear(32, 1000)],
        &[TABLE_UD, 0],
    );
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(1000 * 32, false, Reason::NoIndexBound)],
        sab::IGNORE_DISAGREE,
    );
    let mut t = cube_trace();
    t.descriptors[0].bound = Some(IndexBound {
        id: Id::VertexId,
        plus: Some(Word::Unknown),
        through_lds: None,
    });
    for a in &mut t.accesses {
        a.index = Some(IndexSource::IdPlus {
            id: Id::VertexId,
            word: Word::Unknown,
        });
    }
    let fx = Fixture::new(t, &[linear(32, 1000)], &[TABLE_UD, 0]);
    assert_eq!(
        matches(
            &fx,
            &fx.bind(&Draw::auto(0, 36, 1)),
            &[(32000, false, Reason::AddedWordUntraced)]
        ),
        Ok(())
    );
}

#[test]
fn raw_and_unchecked_descriptors_keep_the_baseline() {
    let cases: [([u32; 4], Want); 2] = [
        (
            encode_linear(VB, 32, 4096, OobSelect::Raw),
            (4096, false, Reason::Raw),
        ),
        (
            encode_linear(VB, 32, 128, OobSelect::Disabled),
            (128 * 32, false, Reason::Unchecked),
        ),
    ];
    for (v, want) in cases {
        pin(
            &cube(v, 0),
            Draw::auto(0, 36, 1),
            &[want],
            sab::NARROW_ANY_CLASS | sab::IGNORE_STAGE,
        );
    }
    // Stride 0 is raw whatever OOB_SELECT says (the sabotage cannot narrow
    // it, so no control here: there is no record to narrow to).
    for oob in [OobSelect::Raw, OobSelect::Structured] {
        let raw0 = cube(encode_linear(VB, 0, 4096, oob), 0);
        assert_eq!(
            matches(
                &raw0,
                &raw0.bind(&Draw::auto(0, 36, 1)),
                &[(4096, false, Reason::Raw)]
            ),
            Ok(())
        );
    }
}

/// Stride 0 under OOB_SELECT 1 is checked by index only: every index below
/// num_records reads at the base, so the cube's widest access (offset 16,
/// 16 bytes) is reachable although num_records counts only 2 "bytes"
/// (found by the interpreter's soundness fuzzing).
#[test]
fn stride_zero_index_checked_descriptor_binds_its_widest_access() {
    let fx = cube(encode_linear(VB, 0, 2, OobSelect::Structured), 0);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(32, false, Reason::Raw)],
        sab::STRIDE0_AS_BYTES,
    );
    // Truly raw (OOB_SELECT 3): num_records bytes.
    let raw = cube(encode_linear(VB, 0, 2, OobSelect::Raw), 0);
    assert_eq!(
        matches(
            &raw,
            &raw.bind(&Draw::auto(0, 36, 1)),
            &[(2, false, Reason::Raw)]
        ),
        Ok(())
    );
}

#[test]
fn swizzled_add_tid_and_non_buffer_descriptors_keep_their_baselines() {
    let mut swz = linear(32, 13);
    swz[1] |= 1 << 31; // SWIZZLE_ENABLE, index stride 8: 13 records round up to 16
    let mut tid = linear(32, 100);
    tid[3] |= 1 << 23;
    let mut img = linear(32, 100);
    img[3] |= 2 << 30;
    let cases: [([u32; 4], Want); 3] = [
        (swz, (16 * 32, false, Reason::Swizzled)),
        (tid, (100 * 32, false, Reason::AddTid)),
        (img, (100 * 32, false, Reason::NotBuffer)),
    ];
    for (v, want) in cases {
        pin(
            &cube(v, 0),
            Draw::auto(0, 4, 1),
            &[want],
            sab::NARROW_ANY_CLASS,
        );
    }
}

/// The cube trace with its second access at `imm` reading `bytes`.
fn cube_second_access_at(imm: u32, bytes: u32) -> ShaderTrace {
    let mut t = cube_trace();
    t.accesses[1].imm_offset = imm;
    t.accesses[1].bytes = bytes;
    t
}

#[test]
fn an_access_reaching_past_the_stride_extends_the_last_record() {
    // Offset 24 + 16 bytes = 40 > stride 32.
    let fx = Fixture::new(
        cube_second_access_at(24, 16),
        &[linear(32, 100)],
        &[TABLE_UD, 0],
    );
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(35 * 32 + 40, true, Reason::Narrowed)],
        sab::NO_REACH,
    );
    assert_eq!(fx.baseline()[0].size, 99 * 32 + 40);
}

#[test]
fn oob_select_0_drops_accesses_that_start_past_the_stride() {
    // Offset 32 ≥ stride 32 is out of range under OOB_SELECT 0: only the
    // first access (0..16) reads, so records end at the stride.
    let v = encode_linear(VB, 32, 100, OobSelect::StructuredWithOffset);
    let fx = Fixture::new(cube_second_access_at(32, 16), &[v], &[TABLE_UD, 0]);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(36 * 32, true, Reason::Narrowed)],
        sab::OOB0_KEEPS_ALL,
    );
    assert_eq!(fx.baseline()[0].size, 100 * 32);
    // Under OOB_SELECT 1 the same access reads past the record.
    let fx = Fixture::new(
        cube_second_access_at(32, 16),
        &[linear(32, 100)],
        &[TABLE_UD, 0],
    );
    assert_eq!(
        fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0].size,
        35 * 32 + 48
    );
}

#[test]
fn vgpr_offsets_and_dynamic_soffsets_keep_the_baseline() {
    let mut t = cube_trace();
    t.accesses[1].offen = true;
    let fx = Fixture::new(t, &[linear(32, 100)], &[TABLE_UD, 0]);
    let r = fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0];
    assert_eq!(
        (r.size, r.narrowed, r.reason),
        (100 * 32, false, Reason::VgprOffset)
    );
    // Under OOB_SELECT 0 the VGPR offset is bounded by the stride check.
    let mut t = cube_trace();
    t.accesses[1].offen = true;
    let v = encode_linear(VB, 32, 100, OobSelect::StructuredWithOffset);
    let fx = Fixture::new(t, &[v], &[TABLE_UD, 0]);
    assert_eq!(fx.baseline()[0].size, 99 * 32 + 31 + 16);
    let mut t = cube_trace();
    t.accesses[0].soffset = Word::ud(3);
    let fx = Fixture::new(t, &[linear(32, 100)], &[TABLE_UD, 0, 0, 0]);
    let r = fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0];
    assert_eq!(
        (r.size, r.narrowed, r.reason),
        (100 * 32, false, Reason::DynamicSoffset)
    );
}

#[test]
fn zero_count_draws_keep_the_baseline() {
    let fx = cube(linear(32, 1000), 0);
    let empty_chunks = [(5, 0)];
    let draws = [
        Draw::auto(0, 0, 1),
        Draw::auto(7, 36, 0),
        Draw::Auto {
            first_vertex: 0,
            vertex_count: 36,
            instance_count: 1,
            chunks: &empty_chunks,
        },
        Draw::indexed(
            IndexBuffer {
                addr: 0,
                format: IndexFormat::U32,
                count: 0,
                first_index: 0,
            },
            1,
        ),
    ];
    for d in draws {
        pin(
            &fx,
            d,
            &[(32000, false, Reason::ZeroCount)],
            sab::NO_ZERO_CHECK,
        );
    }
}

#[test]
fn zero_records_give_an_empty_range_without_underflow() {
    let fx = cube(linear(32, 0), 0);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(0, false, Reason::NoRecords)],
        sab::NO_ZERO_CHECK,
    );
}

#[test]
fn non_vertex_stages_keep_the_baseline() {
    let mut fx = cube(linear(32, 1000), 0);
    fx.stage = Stage::Cs;
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(32000, false, Reason::NotVertexStage)],
        sab::IGNORE_STAGE,
    );
}

/// Lane by lane: the byte range the hardware reads for an auto draw
/// through a structured OOB_SELECT 1 descriptor (`None` if nothing).
fn fetched(
    trace: &ShaderTrace,
    desc: u16,
    v: &VSharp,
    ids: &[u32],
    word: u32,
) -> Option<(u64, u64)> {
    let mut lo = u64::MAX;
    let mut hi = 0;
    for &id in ids {
        let index = id.wrapping_add(word);
        if index >= v.num_records {
            continue;
        }
        for a in trace
            .accesses
            .iter()
            .filter(|a| a.descriptor == Some(DescId(desc)))
        {
            let start = v.base + index as u64 * v.stride as u64 + a.imm_offset as u64;
            lo = lo.min(start);
            hi = hi.max(start + a.bytes as u64);
        }
    }
    (hi > 0).then_some((lo, hi))
}

#[test]
fn narrowed_ranges_hold_exactly_the_records_a_lane_by_lane_model_fetches() {
    // A deterministic sweep over draws, base vertices and record counts.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as u32
    };
    for _ in 0..2000 {
        let records = next(300);
        let word = next(200);
        let first = next(100);
        let count = 1 + next(80);
        let fx = cube(linear(32, records), word);
        let r = fx.bind(&Draw::auto(first, count, 1)).unwrap()[0];
        let b = fx.baseline()[0];
        let v = VSharp::decode(linear(32, records));
        let ids: Vec<u32> = (first..first + count).collect();
        match fetched(&fx.trace, 0, &v, &ids, word) {
            Some((lo, hi)) => {
                assert!(
                    r.base <= lo && hi <= r.end(),
                    "{r:?} misses {lo:#x}..{hi:#x}"
                );
                if r.narrowed {
                    assert_eq!(r.end(), hi, "tightness 1.0 when not capped");
                }
            }
            None => assert!(!r.narrowed, "nothing fetched, yet narrowed: {r:?}"),
        }
        assert!(r.end() <= b.end());
    }
}

#[test]
fn unreadable_memory_names_the_address_and_the_word() {
    // The table pointer points at unmapped memory.
    let fx = Fixture::new(cube_trace(), &[linear(32, 10)], &[0x2000, 0]);
    assert_eq!(
        fx.bind(&Draw::auto(0, 3, 1)),
        Err(BindError::Unreadable {
            addr: 0x8000_0000_2000,
            role: WordRole::Descriptor {
                desc: DescId(0),
                word: 0
            }
        })
    );
    // The base vertex read from a table slot past the mapped words.
    let mut t = cube_trace();
    let plus = Word::TableWord {
        table: PtrId(0),
        byte_offset: 0x40,
    };
    t.descriptors[0].bound = Some(IndexBound {
        id: Id::VertexId,
        plus: Some(plus),
        through_lds: None,
    });
    for a in &mut t.accesses {
        a.index = Some(IndexSource::IdPlus {
            id: Id::VertexId,
            word: plus,
        });
    }
    let fx = Fixture::new(t, &[linear(32, 10)], &[TABLE_UD, 0]);
    let e = fx.bind(&Draw::auto(0, 3, 1)).unwrap_err();
    assert_eq!(
        e,
        BindError::Unreadable {
            addr: TABLE + 0x40,
            role: WordRole::AddedWord { desc: DescId(0) }
        }
    );
    assert_eq!(
        e.to_string(),
        "guest memory at 0x800000001040 cannot be read (the added index word of descriptor 0)"
    );
    // Too few user-data words.
    let fx = Fixture::new(cube_trace(), &[linear(32, 10)], &[TABLE_UD]);
    assert_eq!(
        fx.bind(&Draw::auto(0, 3, 1)).unwrap_err().to_string(),
        "the added index word of descriptor 0 is user-data word 1, but only 1 user-data words were given"
    );
}

#[test]
fn a_short_output_buffer_is_an_error() {
    let fx = cube(linear(32, 10), 0);
    let plan = fx.plan();
    let e = plan.bind(&Draw::auto(0, 3, 1), &fx.user_data, &fx.memory, &mut []);
    assert_eq!(e, Err(BindError::OutputTooSmall { needed: 1, got: 0 }));
}

#[test]
fn malformed_traces_are_plan_errors() {
    let mut t = cube_trace();
    t.descriptors[0].words[2] = Word::Unknown;
    assert_eq!(
        BindPlan::new(&t, Stage::Ngg).unwrap_err(),
        PlanError::UnknownWord {
            desc: DescId(0),
            word: 2
        }
    );
    let mut t = cube_trace();
    t.pointers[0] = Ptr {
        lo: Word::TableWord {
            table: PtrId(0),
            byte_offset: 0,
        },
        hi: Word::konst(0),
        add: 0,
        index: None,
    };
    assert_eq!(
        BindPlan::new(&t, Stage::Ngg).unwrap_err(),
        PlanError::PointerCycle { ptr: PtrId(0) }
    );
    let mut t = cube_trace();
    t.descriptors[0].words = table_words(PtrId(9), 0);
    assert!(matches!(
        BindPlan::new(&t, Stage::Ngg),
        Err(PlanError::DanglingPointer { .. })
    ));
}

#[test]
fn a_pointer_loaded_from_a_table_is_resolved_first() {
    // ud0 -> table A; A+8 holds the low half of table B; B holds the V#.
    let mut t = cube_trace();
    t.pointers.push(Ptr {
        lo: Word::TableWord {
            table: PtrId(0),
            byte_offset: 8,
        },
        hi: Word::konst(0x8000),
        add: 0x10,
        index: None,
    });
    t.descriptors[0].words = table_words(PtrId(1), 0);
    let mut memory = SparseMemory::new();
    memory.write_words(TABLE + 8, &[0x3000]);
    memory.write_words(0x8000_0000_3010, &linear(32, 1000));
    let fx = Fixture {
        trace: t,
        honour_lds: false,
        stage: Stage::Ngg,
        memory,
        user_data: vec![TABLE_UD, 0],
    };
    let r = fx.bind(&Draw::auto(0, 3, 1)).unwrap()[0];
    assert_eq!((r.base, r.size, r.reason), (VB, 96, Reason::Narrowed));
}

#[test]
fn descriptors_without_accesses_are_not_planned() {
    let mut t = cube_trace();
    t.descriptors.push(Descriptor {
        id: DescId(1),
        words: table_words(PtrId(0), 0x10),
        bound: None,
        reason: Some(analysis::trace::Unbound::NoIdxenAccess),
        accesses: vec![],
    });
    t.accesses.push(idxen_load(
        0x90,
        "buffer_load_dword",
        7,
        Id::VertexId,
        Word::ud(1),
        0,
        4,
    ));
    let plan = BindPlan::new(&t, Stage::Ngg).unwrap();
    assert_eq!(
        plan.entries().map(|e| e.descriptor).collect::<Vec<_>>(),
        vec![DescId(0)]
    );
}

// ---- corpus shaders -------------------------------------------------------

fn corpus_meta(name: &str) -> serde_json::Value {
    let p = format!(
        "{}/../corpus/radv/{name}/meta.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&p).expect("corpus meta.json")).unwrap()
}

/// The fixture's accesses are the entry's vertex fetches: same pcs, same
/// immediate offsets, same strides in the vertex-input state.
fn fixture_matches_corpus(name: &str, trace: &ShaderTrace) {
    let meta = corpus_meta(name);
    let fetches = meta["vertex_fetch_instructions"].as_array().unwrap();
    assert_eq!(fetches.len(), trace.accesses.len());
    for (f, a) in fetches.iter().zip(&trace.accesses) {
        assert_eq!(f["offset"].as_u64(), Some(a.pc as u64));
        let asm = f["asm"].as_str().unwrap();
        assert!(asm.starts_with(&a.opcode), "{asm}");
        let imm = asm
            .split("offset:")
            .nth(1)
            .map_or(0, |s| s.trim().parse::<u32>().unwrap());
        assert_eq!(imm, a.imm_offset, "{asm}");
    }
    assert_eq!(meta["base_vertex_sgpr"], "s9", "ud1 is the base vertex");
    assert_eq!(meta["vertex_buffers_sgpr"], "s8", "ud0 is the table");
}

#[test]
fn corpus_cube_binds_its_vertex_buffer_through_the_table_in_guest_memory() {
    fixture_matches_corpus("cube", &cube_trace());
    let meta = corpus_meta("cube");
    assert_eq!(meta["vertex_input"]["bindings"][0]["stride"], 32);
    // 1000 vertices bound, base vertex 64, a 36-vertex draw: records 64..=99.
    let fx = cube(linear(32, 1000), 64);
    pin(
        &fx,
        Draw::auto(0, 36, 1),
        &[(100 * 32, true, Reason::Narrowed)],
        sab::IGNORE_PLUS,
    );
    let r = fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0];
    assert_eq!(
        r.key(),
        BufferKey {
            base: VB,
            size: 3200
        }
    );
}

#[test]
fn corpus_instanced_binds_per_vertex_and_per_instance_buffers() {
    let t = instanced_trace();
    fixture_matches_corpus("instanced", &t);
    let meta = corpus_meta("instanced");
    assert_eq!(
        meta["start_instance_sgpr"], "s10",
        "ud2 is the start instance"
    );
    let b = &meta["vertex_input"]["bindings"];
    assert_eq!(
        (b[0]["stride"].as_u64(), b[1]["stride"].as_u64()),
        (Some(12), Some(32))
    );
    assert_eq!(b[1]["inputRate"], "INSTANCE");
    let fx = Fixture::new(t, &[linear(12, 5000), linear(32, 64)], &[TABLE_UD, 10, 2]);
    pin(
        &fx,
        Draw::auto(0, 24, 3),
        &[
            (34 * 12, true, Reason::Narrowed),
            (5 * 32, true, Reason::Narrowed),
        ],
        sab::INSTANCE_AS_VERTEX,
    );
    pin(
        &fx,
        Draw::auto(0, 24, 3),
        &[
            (34 * 12, true, Reason::Narrowed),
            (5 * 32, true, Reason::Narrowed),
        ],
        sab::IGNORE_PLUS,
    );
}

#[test]
fn radv_word3_is_a_structured_buffer() {
    let v = VSharp::decode([0, 32 << 16, 1, radv_word3(OobSelect::Structured)]);
    assert_eq!(v.class(), Class::Structured);
}

#[test]
fn fuzz_regression_oob_select_0_with_a_seven_byte_stride() {
    // From the first fuzz run (the harness's model lacked the OOB_SELECT 0
    // offset check; bind was right): stride 7, OOB_SELECT 0, a split draw.
    // The access at offset 16 ≥ 7 never reads; the one at 0 reads 16 bytes,
    // past its 7-byte record.
    let v = [1195835499, 1074200576, 3421443583, 12544];
    let vs = VSharp::decode(v);
    assert_eq!(
        (vs.stride, vs.oob_select),
        (7, OobSelect::StructuredWithOffset)
    );
    let mut memory = SparseMemory::new();
    let table = (0xffff_8000_0000_0000u64 | 2934255922) & ADDRESS_MASK;
    memory.write_words(table, &v);
    let fx = Fixture {
        trace: cube_trace(),
        honour_lds: false,
        stage: Stage::Ngg,
        memory,
        user_data: vec![2934255922, 555823410],
    };
    let chunks = [(690563369, 690589737), (822135593, 12288)];
    let draw = Draw::Auto {
        first_vertex: 808727039,
        vertex_count: 690563369,
        instance_count: 690563369,
        chunks: &chunks,
    };
    let last = 690563369u64 + 690589737 - 1 + 555823410;
    pin(
        &fx,
        draw,
        &[(last * 7 + 16, true, Reason::Narrowed)],
        sab::OOB0_KEEPS_ALL,
    );
}

#[test]
fn a_narrowed_range_ending_past_2_pow_48_keeps_the_baseline() {
    // A vertex buffer in the last 4 KiB of the 48-bit address space.
    let top = 1u64 << 48;
    let base = top - 4096;
    let v = encode_linear(base, 32, RING_RECORDS, OobSelect::Structured);
    // Records 0..=35 end at base + 1152, below 2^48: narrowed.
    let fx = cube(v, 0);
    let r = &fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0];
    assert_eq!(
        (r.base, r.size, r.reason),
        (base, 36 * 32, Reason::Narrowed)
    );
    // Base vertex 200: records up to 235 would end at base + 7552, past
    // 2^48, where the guest address wraps to 0: the baseline is kept.
    let fx = cube(v, 200);
    let r = &fx.bind(&Draw::auto(0, 36, 1)).unwrap()[0];
    assert!(!r.narrowed, "{r:?}");
    assert_eq!(r.reason, Reason::Wrap);
    assert_eq!((r.base, r.size), (base, fx.baseline()[0].size));
}
