//! Register exchange among the lanes of one emulated warp (`shfl.sync`).

use std::panic::Location;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::BARRIER_TIMEOUT;
use super::block_barrier::BarrierError;
use super::fault::FaultKind;

const LANES: usize = 32;

struct State {
    /// Values of the lanes that have arrived at the current exchange.
    pending: [u32; LANES],
    arrived: u32,
    exited: u32,
    generation: u64,
    /// The values of the last completed exchange.
    published: [u32; LANES],
    site: Option<&'static Location<'static>>,
    aborted: bool,
}

impl State {
    fn new() -> Self {
        Self {
            pending: [0; LANES],
            arrived: 0,
            exited: 0,
            generation: 0,
            published: [0; LANES],
            site: None,
            aborted: false,
        }
    }
}

/// One warp's shuffle rendezvous: every lane of the warp must take part.
pub(crate) struct WarpExchange {
    lanes: u32,
    state: Mutex<State>,
    done: Condvar,
}

impl WarpExchange {
    pub fn new(lanes: u32) -> Self {
        Self {
            lanes,
            state: Mutex::new(State::new()),
            done: Condvar::new(),
        }
    }

    pub fn lanes(&self) -> u32 {
        self.lanes
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Publishes `value` for `lane` and returns every lane's value once all have arrived.
    pub fn exchange(
        &self,
        lane: u32,
        value: u32,
        site: &'static Location<'static>,
    ) -> Result<[u32; LANES], BarrierError> {
        let mut st = self.lock();
        if st.aborted {
            return Err(BarrierError::Aborted);
        }
        if st.exited > 0 {
            return Err(BarrierError::Fault(FaultKind::BarrierDeadlock {
                detail: format!(
                    "shuffle at {site} is reached after {} lane(s) of the warp returned; a full-mask shfl.sync needs every lane",
                    st.exited
                ),
            }));
        }
        match st.site {
            Some(first) if first != site => {
                return Err(BarrierError::Fault(FaultKind::BarrierDivergence {
                    first: first.to_string(),
                    second: site.to_string(),
                }));
            }
            _ => st.site = Some(site),
        }
        st.pending[lane as usize] = value;
        st.arrived += 1;
        if st.arrived == self.lanes {
            st.published = st.pending;
            st.arrived = 0;
            st.site = None;
            st.generation += 1;
            self.done.notify_all();
            return Ok(st.published);
        }
        let generation = st.generation;
        loop {
            let (guard, timeout) = self
                .done
                .wait_timeout(st, BARRIER_TIMEOUT)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            st = guard;
            if st.generation != generation {
                // Nobody can complete another exchange before this lane arrives at it.
                return Ok(st.published);
            }
            if st.aborted {
                return Err(BarrierError::Aborted);
            }
            if timeout.timed_out() {
                return Err(BarrierError::Fault(FaultKind::BarrierTimeout {
                    site: site.to_string(),
                }));
            }
        }
    }

    /// Records that a lane returned; lanes waiting at a shuffle are then deadlocked.
    pub fn thread_exit(&self) -> Result<(), FaultKind> {
        let mut st = self.lock();
        st.exited += 1;
        if st.arrived > 0 && !st.aborted {
            let site = st.site.map(|s| s.to_string()).unwrap_or_default();
            return Err(FaultKind::BarrierDeadlock {
                detail: format!(
                    "a lane returned while {} lane(s) of its warp wait at a shuffle at {site}",
                    st.arrived
                ),
            });
        }
        Ok(())
    }

    pub fn abort(&self) {
        self.lock().aborted = true;
        self.done.notify_all();
    }

    pub fn reset_for_next_block(&self) {
        let mut st = self.lock();
        let aborted = st.aborted;
        *st = State::new();
        st.aborted = aborted;
    }
}
