//! Bounded memory for what a run observes: findings past `MAX_FINDINGS`
//! are counted, not kept, and a run that dropped any is never a fully
//! checked draw.

use analysis::trace::ShaderTrace;

use interp::{check_draw, DrawRun, Finding, Observations, MAX_FINDINGS};

fn unmapped(i: u64) -> Finding {
    Finding::Unmapped {
        pc: 0x40,
        wave: 0,
        addr: 0x1000 + 4 * i,
        len: 4,
    }
}

#[test]
fn findings_past_the_cap_are_counted_not_kept() {
    let mut obs = Observations::new();
    for i in 0..(MAX_FINDINGS as u64 + 10) {
        obs.find(unmapped(i));
    }
    assert_eq!(obs.findings.len(), MAX_FINDINGS);
    assert_eq!(obs.findings_dropped, 10);
    obs.clear();
    assert_eq!((obs.findings.len(), obs.findings_dropped), (0, 0));
}

#[test]
fn a_run_that_dropped_findings_is_not_checked_completely() {
    let mut run = DrawRun::default();
    let trace = ShaderTrace::default();
    assert!(check_draw(&run, &trace, &[]).undefined.is_empty());
    run.obs.findings_dropped = 3;
    let check = check_draw(&run, &trace, &[]);
    assert_eq!(check.undefined, vec![Finding::Truncated { dropped: 3 }]);
}
