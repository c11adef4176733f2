//! Latencies: the Best Practices Guide's "400 to 600 clock cycles" of
//! global-memory latency (§5.2), shared memory's latency "roughly 100x
//! lower" (§3.2.2), and the "approximately 24 cycles" of a register
//! read-after-write dependency (§3.2.6, §4.3).
//!
//! Each kernel is one thread making a chain of dependent operations, so
//! nothing overlaps and the elapsed time divided by the chain's length is one
//! operation's latency: `p ← *p` through a ring of links for memory (the host
//! builds the ring as a random cyclic permutation, so caches see no pattern
//! and prefetchers none to follow), `x ← fma(x, a, b)` for arithmetic.
//!
//! **Outputs** (`out`, three `u64`s): the chain's final value (so its loads
//! cannot be removed, and the host checks it), the SM cycles (`clock64`) and
//! the nanoseconds (`%globaltimer`) the timed steps took. A chain may first
//! take untimed `warmup` steps (to bring a small ring into the caches).
//!
//! **Launch**: one block of one thread (the shared-memory chase: one block of
//! any size, whose threads copy the ring in; thread 0 chases).

mod fma_latency;
mod pointer_chase;
mod shared_pointer_chase;

pub use fma_latency::{FMA_LATENCY_UNROLL, fma_latency, fma_latency_params};
pub use pointer_chase::{pointer_chase, pointer_chase_params};
pub use shared_pointer_chase::{shared_pointer_chase, shared_pointer_chase_params};

use crate::device::{GlobalMutPtr, clock64, global_timer_ns};

/// Words a latency kernel writes to `out`: the final value, cycles, nanoseconds.
pub const LATENCY_OUT_WORDS: usize = 3;

/// Runs `steps(count)` between readings of both clocks and writes the
/// outputs. The final value is stored before the closing readings: the store
/// waits for the chain's last result, so the clocks cannot be read early.
///
/// # Safety
/// `out` holds `LATENCY_OUT_WORDS` words; `steps` is safe to run.
#[inline(always)]
pub(crate) unsafe fn timed_chain(out: GlobalMutPtr<u64>, steps: impl FnOnce() -> u64) {
    let start_ns = global_timer_ns();
    let start = clock64();
    let last = steps();
    // SAFETY: out holds LATENCY_OUT_WORDS words (caller's contract).
    unsafe { out.store(0, last) };
    let end = clock64();
    let end_ns = global_timer_ns();
    // SAFETY: as above.
    unsafe {
        out.store(1, end - start);
        out.store(2, end_ns - start_ns);
    }
}
