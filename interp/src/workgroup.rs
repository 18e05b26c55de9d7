//! Several waves sharing one LDS, switching at `s_barrier`.

use crate::exec::{run_wave, Env, Observations};
use crate::memory::Lds;
use crate::record::InterpError;
use crate::wave::{Status, Wave};

/// Run the waves of one workgroup to completion over a shared LDS.
///
/// Waves run in order until each ends or waits at `s_barrier`; when every
/// wave that has not ended waits, they all go on. A wave that ends counts
/// as arrived at every later barrier (as the hardware's barrier counts
/// only live waves). Wave `i` is reported as `first_id + i`.
pub fn run_workgroup(
    env: &Env<'_>,
    waves: &mut [Wave],
    first_id: u32,
    lds: &mut Lds,
    obs: &mut Observations,
) -> Result<(), InterpError> {
    loop {
        for (i, w) in waves.iter_mut().enumerate() {
            if w.status() == Status::Running {
                run_wave(env, w, first_id + i as u32, lds, obs)?;
            }
        }
        // Every wave has ended or waits at the barrier: release the waiting.
        let mut waiting = false;
        for w in waves.iter_mut() {
            if w.status() == Status::Barrier {
                w.status = Status::Running;
                waiting = true;
            }
        }
        if !waiting {
            return Ok(());
        }
    }
}
