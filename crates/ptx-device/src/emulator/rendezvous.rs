//! A meeting point for a fixed group of emulated threads: the block at
//! `sync_threads`, or the lanes of a warp at a `shfl.sync`.
//!
//! It knows how many threads the group has and which have returned, so it
//! reports, instead of hanging: a thread that returns while others wait, a
//! meeting reached after some threads returned (both deadlock on the GPU),
//! threads waiting at different call sites (divergence), and a meeting that
//! does not complete within [`BARRIER_TIMEOUT`].

use std::panic::Location;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::BARRIER_TIMEOUT;
use super::fault::FaultKind;

/// Lanes of a warp: the most values one meeting carries.
pub(crate) const LANES: usize = 32;

/// Why a thread could not pass the meeting point.
pub(crate) enum BarrierError {
    /// The launch was abandoned because of a fault elsewhere.
    Aborted,
    /// This thread found the fault.
    Fault(FaultKind),
}

struct State {
    /// Values of the threads that have arrived at the current meeting (warps only).
    pending: [u32; LANES],
    arrived: u32,
    exited: u32,
    /// Bumped each time a meeting completes.
    generation: u64,
    /// The values of the last completed meeting.
    published: [u32; LANES],
    /// Call site of the meeting being waited at.
    site: Option<&'static Location<'static>>,
    /// Set when the launch is being abandoned; waiters leave at once.
    aborted: bool,
}

impl State {
    fn new(aborted: bool) -> Self {
        Self {
            pending: [0; LANES],
            arrived: 0,
            exited: 0,
            generation: 0,
            published: [0; LANES],
            site: None,
            aborted,
        }
    }
}

/// The meeting point of one block (`sync_threads`) or one warp (shuffles).
pub(crate) struct Rendezvous {
    members: u32,
    /// "thread(s) of the block" or "lane(s) of the warp", for messages.
    who: &'static str,
    /// "sync_threads" or "shuffle", for messages.
    what: &'static str,
    state: Mutex<State>,
    done: Condvar,
}

impl Rendezvous {
    /// The barrier of a block of `threads` threads.
    pub fn block(threads: u32) -> Self {
        Self::new(threads, "thread(s) of the block", "sync_threads")
    }

    /// The shuffle meeting of a warp of `lanes` lanes (the last warp of a block may be partial).
    pub fn warp(lanes: u32) -> Self {
        Self::new(lanes, "lane(s) of the warp", "shuffle")
    }

    fn new(members: u32, who: &'static str, what: &'static str) -> Self {
        Self {
            members,
            who,
            what,
            state: Mutex::new(State::new(false)),
            done: Condvar::new(),
        }
    }

    pub fn members(&self) -> u32 {
        self.members
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Arrives at the meeting at `site`, contributing `value` in `slot`
    /// (ignored for block barriers), and returns every slot's value once all
    /// members have arrived.
    pub fn meet(&self, slot: u32, value: u32, site: &'static Location<'static>) -> Result<[u32; LANES], BarrierError> {
        let mut st = self.lock();
        if st.aborted {
            return Err(BarrierError::Aborted);
        }
        if st.exited > 0 {
            return Err(BarrierError::Fault(FaultKind::BarrierDeadlock {
                detail: format!(
                    "{} at {site} is reached after {} {} returned; they never arrive",
                    self.what, st.exited, self.who
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
        if let Some(pending) = st.pending.get_mut(slot as usize) {
            *pending = value;
        }
        st.arrived += 1;
        if st.arrived == self.members {
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
                // No later meeting can complete before this member arrives at it.
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

    /// Records that a member returned from the kernel; members waiting at a
    /// meeting are then deadlocked.
    pub fn member_exit(&self) -> Result<(), FaultKind> {
        let mut st = self.lock();
        st.exited += 1;
        if st.arrived > 0 && !st.aborted {
            let site = st.site.map(|s| s.to_string()).unwrap_or_default();
            return Err(FaultKind::BarrierDeadlock {
                detail: format!(
                    "a member returned while {} {} wait at {} at {site}",
                    st.arrived, self.who, self.what
                ),
            });
        }
        Ok(())
    }

    /// Releases every waiter: the launch is being abandoned.
    pub fn abort(&self) {
        self.lock().aborted = true;
        self.done.notify_all();
    }

    /// Prepares for the next block (no member may be inside).
    pub fn reset_for_next_block(&self) {
        let mut st = self.lock();
        *st = State::new(st.aborted);
    }
}
