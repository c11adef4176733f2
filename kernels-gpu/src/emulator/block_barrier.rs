//! `sync_threads` for the threads of one emulated block.

use std::panic::Location;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::BARRIER_TIMEOUT;
use super::fault::FaultKind;

#[derive(Default)]
struct State {
    /// Threads waiting at the current barrier.
    arrived: u32,
    /// Threads of the block that have returned from the kernel.
    exited: u32,
    /// Bumped each time a barrier completes.
    generation: u64,
    /// Call site of the barrier being waited at.
    site: Option<&'static Location<'static>>,
    /// Set when the launch is being abandoned; waiters leave at once.
    aborted: bool,
}

/// A barrier that knows how many threads the block has and which ones have left.
pub(crate) struct BlockBarrier {
    threads: u32,
    state: Mutex<State>,
    released: Condvar,
}

/// Why a thread could not pass the barrier.
pub(crate) enum BarrierError {
    /// The launch was abandoned because of a fault elsewhere.
    Aborted,
    /// This thread found the fault.
    Fault(FaultKind),
}

impl BlockBarrier {
    pub fn new(threads: u32) -> Self {
        Self {
            threads,
            state: Mutex::new(State::default()),
            released: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits until every thread of the block has arrived at `site`.
    pub fn wait(&self, site: &'static Location<'static>) -> Result<(), BarrierError> {
        let mut st = self.lock();
        if st.aborted {
            return Err(BarrierError::Aborted);
        }
        if st.exited > 0 {
            return Err(BarrierError::Fault(FaultKind::BarrierDeadlock {
                detail: format!(
                    "sync_threads at {site} is reached after {} thread(s) of the block returned; they never arrive",
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
        st.arrived += 1;
        if st.arrived == self.threads {
            st.arrived = 0;
            st.site = None;
            st.generation += 1;
            self.released.notify_all();
            return Ok(());
        }
        let generation = st.generation;
        loop {
            let (guard, timeout) = self
                .released
                .wait_timeout(st, BARRIER_TIMEOUT)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            st = guard;
            if st.generation != generation {
                return Ok(());
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

    /// Records that a thread returned from the kernel. A thread that returns
    /// while others wait at a barrier deadlocks them.
    pub fn thread_exit(&self) -> Result<(), FaultKind> {
        let mut st = self.lock();
        st.exited += 1;
        if st.arrived > 0 && !st.aborted {
            let site = st.site.map(|s| s.to_string()).unwrap_or_default();
            return Err(FaultKind::BarrierDeadlock {
                detail: format!(
                    "a thread returned while {} thread(s) of its block wait at sync_threads at {site}",
                    st.arrived
                ),
            });
        }
        Ok(())
    }

    /// Releases every waiter: the launch is being abandoned.
    pub fn abort(&self) {
        self.lock().aborted = true;
        self.released.notify_all();
    }

    /// Prepares the barrier for the next block (no thread may be inside it).
    pub fn reset_for_next_block(&self) {
        let mut st = self.lock();
        let aborted = st.aborted;
        *st = State {
            aborted,
            ..State::default()
        };
    }
}
