use super::timed_chain;
use crate::device::{GlobalMutPtr, fma};

/// Dependent FMAs per trip of `fma_latency`'s loop (written out by the
/// compiler, so the loop's own instructions are a small share of the chain).
pub const FMA_LATENCY_UNROLL: u32 = 64;

kernel! {
    /// A chain of dependent FMAs: `x ← fma(x, multiplier, addend)`,
    /// `count * FMA_LATENCY_UNROLL` times, each needing the one before: the
    /// register read-after-write latency of the guide's §3.2.6 / §4.3.
    ///
    /// **Indexing**: none. **Launch**: one block of one thread.
    /// **Outputs**: `out[0]` the final `x`'s bits, `out[1]` cycles, `out[2]`
    /// nanoseconds.
    ///
    /// **Expected**: the guides: about 24 cycles (cc 1.x–2.x); since Volta
    /// about 4. To be measured.
    ///
    /// # Safety
    /// `out` holds `LATENCY_OUT_WORDS` words.
    pub unsafe fn fma_latency(x: f32, multiplier: f32, addend: f32, count: u32, out: GlobalMutPtr<u64>) {
        let mut x = x;
        // SAFETY: out holds LATENCY_OUT_WORDS words (caller's contract).
        unsafe {
            timed_chain(out, || {
                for _ in 0..count {
                    for _ in 0..FMA_LATENCY_UNROLL {
                        x = fma(x, multiplier, addend);
                    }
                }
                x.to_bits() as u64
            })
        }
    }
}
