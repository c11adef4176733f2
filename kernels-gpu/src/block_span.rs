//! A block's timed span, as the host needs it to turn `clock64` readings into
//! an SM's time: the start and end cycle counts, the SM the block ran on and
//! the nanoseconds between the two readings.
//!
//! One block's own `end - start` is not the SM's time when several blocks
//! share the SM: the warp schedulers need not run them side by side, so each
//! block's window can be shorter than the SM's busy time (blocks of the
//! bank-conflict kernels measured 0.31 clocks per warp request this way,
//! three times faster than shared memory can serve). The host instead takes,
//! per SM, the earliest start and the latest end of the blocks that ran there
//! (cycle counters of one SM are comparable; of two SMs they are not), and
//! checks that span against the events' time with the clock rate the
//! nanosecond readings give.
//!
//! **Layout**: block `b` writes [`BLOCK_SPAN_WORDS`] words at
//! `spans[BLOCK_SPAN_WORDS * b ..]`: start cycles, end cycles, SM index,
//! elapsed nanoseconds (`%globaltimer`).

use crate::device::{GlobalMutPtr, block_idx_x, clock64, global_timer_ns, sm_id, thread_idx_x};

/// Words each block writes.
pub const BLOCK_SPAN_WORDS: usize = 4;

/// The readings at the start of a block's timed span.
#[derive(Clone, Copy)]
pub struct SpanStart {
    cycles: u64,
    ns: u64,
}

/// Reads the SM's cycle counter and the global timer: the start of a span.
/// Take it right after a barrier, so that it is the block's common start.
#[inline(always)]
pub fn span_start() -> SpanStart {
    SpanStart {
        cycles: clock64(),
        ns: global_timer_ns(),
    }
}

/// Ends the span (after a barrier) and has thread 0 write the block's words.
///
/// # Safety
/// `spans` holds `BLOCK_SPAN_WORDS * gridDim.x` words.
#[inline(always)]
pub unsafe fn record_block_span(spans: GlobalMutPtr<u64>, start: SpanStart) {
    let end = clock64();
    let end_ns = global_timer_ns();
    if thread_idx_x() == 0 {
        let base = (BLOCK_SPAN_WORDS * block_idx_x() as usize) as isize;
        // SAFETY: base + 3 < BLOCK_SPAN_WORDS * gridDim.x (caller's contract).
        unsafe {
            spans.store(base, start.cycles);
            spans.store(base + 1, end);
            spans.store(base + 2, sm_id() as u64);
            spans.store(base + 3, end_ns.wrapping_sub(start.ns));
        }
    }
}
