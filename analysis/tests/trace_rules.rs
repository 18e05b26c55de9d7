//! One test per tracing rule, each with a near-identical negative control
//! that must come out unbound.
//!
//! The programs are `tests/programs/*.s` (LLVM syntax); their encodings are
//! in `tests/programs/encodings.tsv`, made by `tests/programs/assemble.sh`
//! with llvm-mc-19. The fixture tests below check that the data file still
//! matches the `.s` files and that isa's formatter prints every instruction
//! exactly as its `.s` line, so neither can go stale.
//!
//! Every program runs as an NGG vertex shader, wave64 (RADV's ABI: user
//! data from s8, vertex id v5, instance id v8, merged_wave_info s3).

use analysis::source::Word;
use analysis::trace::{trace_code, Descriptor, LdsClass, LdsContract, ShaderTrace, TraceConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// Program name → (instruction bytes, text), from encodings.tsv.
fn encodings() -> BTreeMap<String, Vec<(Vec<u8>, String)>> {
    let tsv = std::fs::read_to_string(dir().join("encodings.tsv")).expect("encodings.tsv");
    let mut out: BTreeMap<String, Vec<(Vec<u8>, String)>> = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad encodings.tsv line: {line}");
        let bytes = (0..f[2].len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&f[2][i..i + 2], 16).expect("hex"))
            .collect();
        out.entry(f[0].to_string())
            .or_default()
            .push((bytes, f[3].to_string()));
    }
    out
}

/// The instruction lines of a .s file (comments and blank lines dropped).
fn source_lines(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.s"))).expect(".s file");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn code(name: &str) -> Vec<u8> {
    let all = encodings();
    let prog = all
        .get(name)
        .unwrap_or_else(|| panic!("{name} is not in encodings.tsv; run assemble.sh"));
    prog.iter().flat_map(|(b, _)| b.iter().copied()).collect()
}

fn trace(name: &str) -> ShaderTrace {
    trace_code(&code(name), isa::Target::Gfx1030, &TraceConfig::ngg())
}

/// The descriptor named `source` (as the CLI prints it).
fn descriptor<'t>(t: &'t ShaderTrace, source: &str) -> &'t Descriptor {
    t.descriptors
        .iter()
        .find(|d| t.descriptor_source(d) == source)
        .unwrap_or_else(|| {
            let names: Vec<String> = t
                .descriptors
                .iter()
                .map(|d| t.descriptor_source(d))
                .collect();
            panic!("no descriptor {source}; have {names:?}\n{t:#?}")
        })
}

/// `Some("vertex_id + ud1")` for a bound descriptor.
fn bound(t: &ShaderTrace, source: &str) -> Option<String> {
    let d = descriptor(t, source);
    d.bound.map(|b| match b.plus {
        Some(w) => format!("{} + {}", b.id.name(), t.namer().word_string(w)),
        None => b.id.name().to_string(),
    })
}

fn reason(t: &ShaderTrace, source: &str) -> String {
    descriptor(t, source)
        .reason
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn assert_bound(name: &str, source: &str, expected: &str) {
    let t = trace(name);
    assert_eq!(
        bound(&t, source).as_deref(),
        Some(expected),
        "{name}: {source} should be bound by {expected}; reason: {}\n{t:#?}",
        reason(&t, source)
    );
}

/// Asserts the descriptor is unbound and returns its reason.
fn assert_unbound(name: &str, source: &str) -> String {
    let t = trace(name);
    assert_eq!(
        bound(&t, source),
        None,
        "{name}: {source} must come out unbound\n{t:#?}"
    );
    let r = reason(&t, source);
    assert!(
        !r.is_empty(),
        "{name}: an unbound descriptor needs a reason"
    );
    r
}

// ------------------------------------------------------------ fixtures

#[test]
fn encodings_match_the_assembly_sources() {
    let all = encodings();
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("programs dir")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "s").then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        all.keys().cloned().collect::<Vec<_>>(),
        "encodings.tsv and the .s files list different programs: run assemble.sh"
    );
    for name in &names {
        let texts: Vec<String> = all[name].iter().map(|(_, t)| t.clone()).collect();
        assert_eq!(
            texts,
            source_lines(name),
            "{name}.s changed since encodings.tsv was made: run assemble.sh"
        );
    }
}

#[test]
fn formatter_prints_every_program_line_as_written() {
    let fmt = isa::Formatter::new(isa::Target::Gfx1030);
    let mut bad = Vec::new();
    for (name, prog) in encodings() {
        for (bytes, text) in prog {
            let got = match isa::decode(&bytes, isa::Target::Gfx1030) {
                Ok(inst) => {
                    let mut s = String::new();
                    fmt.write(&inst, &mut s).expect("format");
                    assert_eq!(inst.len as usize, bytes.len(), "{name}: {text}: length");
                    s
                }
                Err(e) => format!("<{e}>"),
            };
            if got != text {
                bad.push(format!("{name}: `{text}` printed as `{got}`"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

// ------------------------------------------------------------ the rules

#[test]
fn d879_example_binds_vertex_id_plus_user_data_word() {
    assert_bound("d879_example", "ud12..ud15", "vertex_id + ud5");
}

#[test]
fn d879_example_without_vertex_lane_exec_is_unbound() {
    let r = assert_unbound("d879_example_without_vertex_lanes", "ud12..ud15");
    assert!(r.contains("lanes"), "{r}");
}

#[test]
fn copy_chain_keeps_id_word_and_descriptor() {
    assert_bound("copy_chain", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn copy_chain_broken_by_a_conversion_is_unbound() {
    let r = assert_unbound("copy_chain_broken", "ud12..ud15");
    assert!(r.contains("v_cvt_f32_u32"), "{r}");
}

#[test]
fn sgpr_copied_before_reuse_keeps_base_vertex() {
    assert_bound(
        "sgpr_reused_after_copy",
        "table(ud0)+0x0",
        "vertex_id + ud1",
    );
}

#[test]
fn sgpr_copied_the_wrong_way_is_unbound() {
    assert_unbound("sgpr_copied_the_wrong_way", "table(ud0)+0x0");
}

#[test]
fn branches_computing_the_same_index_stay_bound() {
    assert_bound("branches_agree", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn branches_with_different_words_are_unbound() {
    let r = assert_unbound("branches_disagree", "ud12..ud15");
    assert!(r.contains("paths"), "{r}");
}

#[test]
fn lds_read_into_another_register_keeps_the_index() {
    assert_bound("lds_write_only", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn lds_round_trip_at_one_address_is_followed_under_the_init_contract() {
    assert_bound("lds_round_trip", "ud12..ud15", "vertex_id + ud1");
    let t = trace("lds_round_trip");
    let b = descriptor(&t, "ud12..ud15").bound.expect("bound");
    assert_eq!(
        b.through_lds,
        Some(LdsContract {
            class: LdsClass {
                stride: 0,
                offset: 0
            },
            requires_init: true
        })
    );
}

/// The bound of `ud12..ud15` must go through LDS cells `20 mod 28`.
fn assert_lds_class_bound(name: &str) {
    assert_bound(name, "ud12..ud15", "vertex_id + ud1");
    let t = trace(name);
    let b = descriptor(&t, "ud12..ud15").bound.expect("bound");
    let c = b.through_lds.expect("an LDS contract");
    assert_eq!(
        c.class,
        LdsClass {
            stride: 28,
            offset: 20
        }
    );
    assert!(c.requires_init);
    let a = t.accesses.iter().find(|a| a.idxen).expect("access");
    assert_eq!(a.through_lds, Some(c), "the access carries the contract");
}

#[test]
fn lds_class_round_trip_is_bound_through_the_class() {
    assert_lds_class_bound("lds_class_round_trip");
}

#[test]
fn lds_class_write_of_another_value_keeps_the_binding_unbound() {
    let r = assert_unbound("lds_class_other_value", "ud12..ud15");
    assert!(
        r.contains("another value") && r.contains("ds_write_b32"),
        "{r}"
    );
    assert_eq!(
        descriptor(&trace("lds_class_other_value"), "ud12..ud15")
            .reason
            .as_ref()
            .map(|r| r.code()),
        Some("lds")
    );
}

#[test]
fn lds_class_write_at_an_unknown_address_keeps_the_binding_unbound() {
    let r = assert_unbound("lds_class_unknown_address", "ud12..ud15");
    assert!(r.contains("unknown address"), "{r}");
}

#[test]
fn lds_class_partial_overlap_keeps_the_binding_unbound() {
    let r = assert_unbound("lds_class_partial", "ud12..ud15");
    assert!(r.contains("in part") && r.contains("ds_write_b8"), "{r}");
}

#[test]
fn lds_class_mask_from_a_compare_outside_the_vertex_lanes_is_unbound() {
    let r = assert_unbound("lds_class_mask_outside_vertex_lanes", "ud12..ud15");
    assert!(r.contains("another value"), "{r}");
}

#[test]
fn an_sdwa_high_word_select_does_not_keep_the_operands_congruence() {
    // Low word: v10 = 28·(4·lane + 1) ≡ 28 (mod 112), so the second write
    // (byte 48 of a 112-byte record) misses the class 20 mod 112.
    let t = trace("lds_class_sdwa_low_word");
    let b = descriptor(&t, "ud12..ud15").bound.expect("bound");
    assert_eq!(
        b.through_lds.map(|c| (c.class.stride, c.class.offset)),
        Some((112, 20))
    );
    // High word: v10 = 0, and the write of another value lands in the class.
    let r = assert_unbound("lds_class_sdwa_high_word", "ud12..ud15");
    assert!(r.contains("another value"), "{r}");
}

#[test]
fn lds_class_address_that_may_wrap_is_unknown() {
    let r = assert_unbound("lds_class_wrap", "ud12..ud15");
    assert!(r.contains("unknown address"), "{r}");
}

#[test]
fn value_swapped_in_from_lds_is_unbound_and_named_as_lds() {
    let r = assert_unbound("lds_value_swapped_in", "ud12..ud15");
    assert!(r.contains("LDS") && r.contains("ds_read_b32"), "{r}");
}

#[test]
fn swap_of_other_registers_keeps_the_index() {
    assert_bound("swap_elsewhere", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn copy_under_every_lane_keeps_the_vertex_lane_layer() {
    assert_bound("copy_under_all_lanes", "ud12..ud15", "vertex_id + ud1");
    let r = assert_unbound("copy_under_all_lanes_read_by_all", "ud12..ud15");
    assert!(r.contains("lanes the hardware gave no vertex"), "{r}");
}

#[test]
fn swap_twice_puts_the_index_back() {
    // Swaps are followed (both registers move); the negative control is
    // `lds_value_swapped_in`, where one swap brings another value in.
    assert_bound("swap_twice", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn wide_writes_beside_the_index_keep_it() {
    assert_bound("wide_write_beside", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn wide_vgpr_write_clobbers_its_high_half() {
    assert_unbound("wide_write_clobbers_vgpr", "ud12..ud15");
}

#[test]
fn wide_sgpr_write_clobbers_its_high_half() {
    assert_unbound("wide_write_clobbers_sgpr", "ud12..ud15");
}

#[test]
fn masked_write_read_under_the_same_exec_is_bound() {
    assert_bound("masked_write_read_inside", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn masked_write_read_after_exec_restore_is_unbound() {
    let r = assert_unbound("masked_write_read_after_restore", "ud12..ud15");
    assert!(r.contains("exec"), "{r}");
}

#[test]
fn two_accesses_with_the_same_source_bind() {
    let t = trace("two_accesses_same_source");
    assert_eq!(descriptor(&t, "ud12..ud15").accesses.len(), 2);
    assert_bound("two_accesses_same_source", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn two_accesses_with_different_sources_are_unbound() {
    let r = assert_unbound("two_accesses_different_sources", "ud12..ud15");
    assert!(r.contains("disagree"), "{r}");
}

#[test]
fn same_slot_reloaded_is_one_descriptor() {
    let t = trace("same_slot_reloaded");
    assert_eq!(t.descriptors.len(), 1, "{t:#?}");
    assert_eq!(descriptor(&t, "table(ud0)+0x10").accesses.len(), 2);
    assert_bound("same_slot_reloaded", "table(ud0)+0x10", "vertex_id + ud1");
}

#[test]
fn same_slot_reloaded_and_indexed_differently_is_unbound() {
    let t = trace("same_slot_reloaded_other_index");
    assert_eq!(t.descriptors.len(), 1, "{t:#?}");
    let r = assert_unbound("same_slot_reloaded_other_index", "table(ud0)+0x10");
    assert!(r.contains("disagree"), "{r}");
}

#[test]
fn vop3_copy_and_readlane_keep_the_index() {
    assert_bound("copy_e64_and_readlane", "ud12..ud15", "vertex_id + ud1");
}

#[test]
fn sdwa_partial_write_forgets_the_register() {
    assert_unbound("sdwa_partial_write", "ud12..ud15");
}

#[test]
fn dpp_move_is_not_a_copy() {
    assert_unbound("dpp_copy", "ud12..ud15");
}

#[test]
fn writelane_target_is_forgotten() {
    assert_unbound("writelane_target", "ud12..ud15");
}

// ------------------------------------------------------------ exec model

fn trace_with(name: &str, config: TraceConfig) -> ShaderTrace {
    trace_code(&code(name), isa::Target::Gfx1030, &config)
}

#[test]
fn entry_vertex_id_under_vertex_lane_exec_binds() {
    assert_bound("bare_vertex_id", "table(ud0)+0x20", "vertex_id");
}

#[test]
fn exec_from_primitive_lane_bits_is_unbound() {
    let r = assert_unbound("bare_vertex_id_under_wrong_mask", "table(ud0)+0x20");
    assert!(r.contains("lanes"), "{r}");
}

#[test]
fn vertex_lane_exec_restored_from_its_copy_binds() {
    assert_bound("vertex_lanes_restored", "table(ud0)+0x0", "vertex_id");
}

#[test]
fn entry_id_read_with_every_lane_active_is_unbound() {
    let r = assert_unbound("vertex_lanes_not_restored", "table(ud0)+0x0");
    assert!(r.contains("lanes"), "{r}");
}

#[test]
fn wave32_prologue_binds_when_traced_as_wave32() {
    let config = TraceConfig {
        wave32: true,
        ..TraceConfig::ngg()
    };
    let t = trace_with("vertex_lanes_wave32", config);
    assert_eq!(bound(&t, "table(ud0)+0x0").as_deref(), Some("vertex_id"));
}

#[test]
fn wave32_prologue_traced_as_wave64_is_unbound() {
    let t = trace_with("vertex_lanes_wave32", TraceConfig::ngg());
    assert_eq!(bound(&t, "table(ud0)+0x0"), None);
}

#[test]
fn pointer_plus_constant_with_carry_is_traced() {
    assert_bound(
        "pointer_add",
        "table(ptr(ud0, ud1)+0x10)+0x20",
        "instance_id",
    );
}

#[test]
fn pointer_add_without_the_carry_is_not_a_pointer() {
    let t = trace("pointer_add_without_carry");
    assert!(t.descriptors.is_empty(), "{t:#?}");
    assert_eq!(t.accesses.len(), 1);
    assert_eq!(t.accesses[0].descriptor, None);
}

#[test]
fn pointer_high_half_plus_a_word_is_not_a_pointer() {
    let t = trace("pointer_add_two_words");
    assert!(t.descriptors.is_empty(), "{t:#?}");
}

#[test]
fn an_access_through_an_untraced_descriptor_unbinds_every_descriptor() {
    let r = assert_unbound("untraced_access_elsewhere", "ud12..ud15");
    assert!(r.contains("not traced"), "{r}");
}

#[test]
fn loop_narrowing_exec_terminates_inside_the_vertex_lanes() {
    assert_bound("narrowing_loop", "table(ud0)+0x0", "vertex_id");
}

#[test]
fn buffer_loaded_word_is_a_traced_descriptor_word() {
    let t = trace("user_data_descriptor_in_buffer");
    assert_eq!(
        bound(&t, "[buf(desc0)+0x30, ud5, ud6, ud7]").as_deref(),
        Some("vertex_id")
    );
    let ubo = descriptor(&t, "ud12..ud15");
    assert_eq!(ubo.reason, Some(analysis::trace::Unbound::NoIdxenAccess));
    assert_eq!(ubo.accesses.len(), 1);
}

#[test]
fn legacy_vs_starts_with_the_vertex_lanes() {
    let t = trace_with("legacy_vs_vertex_id", TraceConfig::legacy_vs());
    assert_eq!(bound(&t, "table(ud0)+0x0").as_deref(), Some("vertex_id"));
}

#[test]
fn legacy_vs_code_traced_as_ngg_is_unbound() {
    // Under the NGG ABI, v0 holds packed primitive vertex indices and the
    // table pointer is no user-data word.
    let t = trace_with("legacy_vs_vertex_id", TraceConfig::ngg());
    assert!(t.descriptors.iter().all(|d| d.bound.is_none()), "{t:#?}");
}

// ------------------------------------------------------------ test-only faults

#[test]
fn fault_switches_break_their_rule_and_default_options_change_nothing() {
    use analysis::trace::{trace_with, TraceFaults, TraceOptions};
    let with = |name: &str, faults: TraceFaults| {
        trace_with(
            &code(name),
            isa::Target::Gfx1030,
            &TraceConfig::ngg(),
            &TraceOptions { faults },
        )
    };
    assert_eq!(
        with("d879_example", TraceFaults::default()),
        trace("d879_example")
    );
    let t = with(
        "d879_example",
        TraceFaults {
            drop_plus_word: true,
            ..Default::default()
        },
    );
    assert_eq!(bound(&t, "ud12..ud15").as_deref(), Some("vertex_id"));
    let t = with(
        "lds_round_trip",
        TraceFaults {
            ignore_lds: true,
            ..Default::default()
        },
    );
    assert_eq!(bound(&t, "ud12..ud15").as_deref(), Some("vertex_id + ud1"));
}

#[test]
fn constant_data_reached_through_s_getpc_is_traced_and_keeps_the_trace_complete() {
    assert_bound("code_constants", "ud12..ud15", "vertex_id + ud5");
    let t = trace("code_constants");
    // s_getpc_b64 at 0x18 gives the address of 0x1c; s_add_u32 moves the
    // low half by 0x5c; the high half stays the s_getpc one.
    let d = descriptor(&t, "[code+0x78, code_hi+0x1c, 0x48, 0x31016fac]");
    assert!(
        d.reason.as_ref().is_some_and(|r| r.code() == "no-index"),
        "{d:?}"
    );
    // s_add_u32 + s_addc_u32 of 0 move both halves: a pointer into the code
    // whose table holds a descriptor.
    descriptor(&t, "table(ptr(code+0x144, code_hi+0x144))+0x10");
    assert!(t.notes.is_empty(), "{:?}", t.notes);
}

#[test]
fn a_code_address_changed_by_anything_but_an_add_is_untraced_and_unbinds_the_shader() {
    let r = assert_unbound("code_constants_clobbered", "ud12..ud15");
    assert!(r.contains("may go through any descriptor"), "{r}");
}

#[test]
fn a_descriptor_at_a_user_data_dependent_table_offset_is_traced_as_a_table_index() {
    // s_lshl_b32 s22, ud3, 4 + s_load_dwordx4 .., s[ud2 table], s22
    // offset:0x10: the table pointer carries the per-draw offset ud3·16.
    assert_bound("table_index", "table(ud2+ud3*0x10)+0x10", "vertex_id + ud5");
    let t = trace("table_index");
    assert!(t.notes.is_empty(), "{:?}", t.notes);
    let p = t
        .pointers
        .iter()
        .find(|p| p.index.is_some())
        .expect("indexed");
    let ix = p.index.unwrap();
    assert_eq!((ix.word, ix.scale, ix.offset), (Word::ud(3), 16, 0));
    // The trace JSON names it (`index` on the pointer).
    let json = serde_json::to_value(p).unwrap();
    assert_eq!(
        json["index"],
        serde_json::json!({"word": {"kind": "user_data", "k": 3}, "scale": 16, "offset": 0}),
        "{json}"
    );
}

#[test]
fn an_untraced_access_with_traced_base_words_leaves_the_other_bounds() {
    // Word 2 of the second descriptor is an s_min_u32 (no rule): the access
    // is untraced, but its base words are ud8/ud9, so the trace stays
    // complete and names them.
    assert_bound("untraced_alias", "ud12..ud15", "vertex_id + ud5");
    let t = trace("untraced_alias");
    assert!(t.notes.is_empty(), "{:?}", t.notes);
    let a = t
        .accesses
        .iter()
        .find(|a| a.descriptor.is_none())
        .expect("an untraced access");
    assert_eq!(a.untraced_base, Some([Word::ud(8), Word::ud(9)]));
}

#[test]
fn an_untraced_access_whose_base_is_untraced_still_unbinds_everything() {
    // code_constants_clobbered: the code address is changed by an
    // instruction without a rule, so the base itself is unknown.
    let t = trace("code_constants_clobbered");
    assert!(t
        .accesses
        .iter()
        .all(|a| a.descriptor.is_some() || a.untraced_base.is_none()));
    assert_unbound("code_constants_clobbered", "ud12..ud15");
}

#[test]
fn the_trace_json_names_the_table_index_and_the_untraced_base() {
    let j = analysis::report::trace_json(&trace("table_index"));
    assert_eq!(
        j["descriptors"][0]["table_index"],
        serde_json::json!({"word": "ud3", "scale": 16, "offset": 0})
    );
    assert_eq!(j["descriptors"][0]["source"], "table(ud2+ud3*0x10)+0x10");
    let j = analysis::report::trace_json(&trace("untraced_alias"));
    let a = j["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["descriptor"].is_null())
        .unwrap();
    assert_eq!(a["untraced_base"], serde_json::json!(["ud8", "ud9"]));
}
