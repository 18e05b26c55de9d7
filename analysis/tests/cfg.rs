//! Control-flow graphs of small SOPP programs, written as dwords.

use analysis::cfg::{Cfg, Cond, EdgeKind, Problem, Program, Terminator};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

const NOP: u32 = 0xbf80_0000;
const ENDPGM: u32 = 0xbf81_0000;
/// `s_mov_b32 s0, 0x12345678` (8 bytes with the literal).
const MOV_LIT: [u32; 2] = [0xbe80_03ff, 0x1234_5678];
const SETPC: u32 = 0xbe80_2000; // s_setpc_b64 s[0:1]
const SWAPPC: u32 = 0xbe80_2102; // s_swappc_b64 s[0:1], s[2:3]
const GETPC: u32 = 0xbe80_1f00; // s_getpc_b64 s[0:1]

fn sopp(op: u32, simm: i16) -> u32 {
    0xbf80_0000 | (op << 16) | simm as u16 as u32
}
fn branch(simm: i16) -> u32 {
    sopp(2, simm)
}
fn cbranch(cond: Cond, simm: i16) -> u32 {
    let op = match cond {
        Cond::Scc0 => 4,
        Cond::Scc1 => 5,
        Cond::Vccz => 6,
        Cond::Vccnz => 7,
        Cond::Execz => 8,
        Cond::Execnz => 9,
        Cond::Debug => 23,
    };
    sopp(op, simm)
}

fn build(words: &[u32]) -> (Program, Cfg) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let p = Program::decode(&bytes, isa::Target::Gfx1030);
    let c = Cfg::build(&p);
    (p, c)
}

/// (from block start, to block start, kind, exec_zero) for every edge.
fn edges(c: &Cfg) -> Vec<(u32, u32, EdgeKind, bool)> {
    let mut v: Vec<_> = c
        .graph
        .edge_references()
        .map(|e| {
            (
                c.graph[e.source()].start,
                c.graph[e.target()].start,
                e.weight().kind,
                e.weight().exec_zero,
            )
        })
        .collect();
    v.sort_by_key(|e| (e.0, e.1));
    v
}

fn starts(c: &Cfg) -> Vec<u32> {
    c.graph.node_indices().map(|n| c.graph[n].start).collect()
}

#[test]
fn straight_line_code_is_one_block_ending_the_program() {
    let (_, c) = build(&[NOP, NOP, ENDPGM]);
    assert_eq!(starts(&c), vec![0]);
    assert_eq!(c.graph[NodeIndex::new(0)].term, Terminator::End);
    assert!(c.problems.is_empty());
}

#[test]
fn diamond_has_four_blocks_and_the_entry_dominates_the_join() {
    // 0: cbranch_scc1 +2 -> 12; 4: nop; 8: branch +1 -> 16; 12: nop; 16: end
    let (_, c) = build(&[cbranch(Cond::Scc1, 2), NOP, branch(1), NOP, ENDPGM]);
    assert_eq!(starts(&c), vec![0, 4, 12, 16]);
    assert_eq!(
        edges(&c),
        vec![
            (0, 4, EdgeKind::Fall, false),
            (0, 12, EdgeKind::Taken, false),
            (4, 16, EdgeKind::Taken, false),
            (12, 16, EdgeKind::Fall, false),
        ]
    );
    let dom = c.dominators().expect("entry");
    let join = c.block_at(16).expect("block");
    assert_eq!(dom.immediate_dominator(join), Some(NodeIndex::new(0)));
    assert_eq!(c.block_at(8), Some(NodeIndex::new(1)));
}

#[test]
fn execz_taken_edge_and_execnz_fall_edge_have_no_active_lanes() {
    let (_, c) = build(&[
        cbranch(Cond::Execz, 1),
        NOP,
        cbranch(Cond::Execnz, -3),
        ENDPGM,
    ]);
    let e = edges(&c);
    assert!(e.contains(&(0, 8, EdgeKind::Taken, true)), "{e:?}");
    assert!(e.contains(&(0, 4, EdgeKind::Fall, false)), "{e:?}");
    assert!(e.contains(&(8, 0, EdgeKind::Taken, false)), "{e:?}");
    assert!(e.contains(&(8, 12, EdgeKind::Fall, true)), "{e:?}");
}

#[test]
fn backward_branch_makes_a_loop() {
    let (_, c) = build(&[NOP, cbranch(Cond::Scc0, -2), ENDPGM]);
    assert_eq!(starts(&c), vec![0, 8]);
    assert!(edges(&c).contains(&(0, 0, EdgeKind::Taken, false)));
}

#[test]
fn branch_outside_the_code_is_a_problem_not_an_edge() {
    let (_, c) = build(&[branch(10), ENDPGM]);
    assert_eq!(
        c.problems,
        vec![Problem::TargetOutside { pc: 0, target: 44 }]
    );
    assert_eq!(c.graph.edge_count(), 0);
    let (_, c) = build(&[branch(-3), ENDPGM]);
    assert_eq!(
        c.problems,
        vec![Problem::TargetOutside { pc: 0, target: -8 }]
    );
}

#[test]
fn branch_into_an_instruction_is_a_problem() {
    // 0: branch +1 -> 8, which is the literal of the s_mov at 4.
    let (_, c) = build(&[branch(1), MOV_LIT[0], MOV_LIT[1], ENDPGM]);
    assert_eq!(
        c.problems,
        vec![Problem::TargetInsideInstruction { pc: 0, target: 8 }]
    );
}

#[test]
fn setpc_ends_a_block_without_edges_and_swappc_returns() {
    let (_, c) = build(&[GETPC, SETPC, ENDPGM]);
    assert!(c.problems.contains(&Problem::Indirect {
        pc: 4,
        opcode: "s_setpc_b64"
    }));
    assert_eq!(c.graph.edge_count(), 0);
    let (_, c) = build(&[SWAPPC, ENDPGM]);
    assert_eq!(edges(&c), vec![(0, 4, EdgeKind::Fall, false)]);
    assert!(matches!(c.problems[0], Problem::Indirect { pc: 0, .. }));
}

#[test]
fn code_without_endpgm_runs_off_the_end() {
    let (_, c) = build(&[NOP, NOP]);
    assert_eq!(c.problems, vec![Problem::OffEnd { pc: 4 }]);
    assert_eq!(c.graph[NodeIndex::new(0)].term, Terminator::OffEnd);
}

#[test]
fn empty_code_has_no_entry() {
    let (p, c) = build(&[]);
    assert!(p.lines.is_empty());
    assert_eq!(c.entry, None);
    assert_eq!(c.problems, vec![Problem::Empty]);
    assert!(c.dominators().is_none());
}

#[test]
fn undecodable_words_are_problems_and_stay_in_their_block() {
    let (p, c) = build(&[NOP, 0xffff_ffff, ENDPGM]);
    assert_eq!(p.lines.len(), 3);
    assert!(matches!(c.problems[0], Problem::Undecodable { .. }));
    assert_eq!(starts(&c), vec![0]);
}

#[test]
fn dot_output_names_blocks_instructions_and_conditions() {
    let (p, c) = build(&[cbranch(Cond::Execz, 1), NOP, ENDPGM]);
    let mut s = String::new();
    c.write_dot(&p, &mut s).expect("dot");
    insta::assert_snapshot!(s);
}
