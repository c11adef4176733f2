use super::timed_chain;
use crate::device::{GlobalMutPtr, GlobalPtr};

/// One link: the address stored at `link`.
///
/// # Safety
/// `link` is the address of a readable, 8-byte-aligned `u64`.
#[inline(always)]
unsafe fn follow(link: u64) -> u64 {
    // SAFETY: forwarded contract.
    unsafe { GlobalPtr::<u64>::from_raw(link as usize as *const u64).load_global() }
}

kernel! {
    /// The single-thread pointer chase: `p ← *p`, `warmup` steps untimed
    /// and `count` timed, starting at `start`. Every word of the ring holds
    /// the address of the next slot's word; the host lays the slots out as a
    /// random cyclic permutation (`reference::chase_successors`) with a stride
    /// of at least 128 bytes, so no two steps share a cache line and no
    /// stride pattern exists for a prefetcher.
    ///
    /// **Indexing**: none; the addresses come from memory, so the same kernel
    /// measures any memory the GPU can address: device memory, a peer GPU's,
    /// mapped host memory (it only takes a pointer).
    ///
    /// **Launch**: one block of one thread. **Outputs**: `out[0]` the final
    /// address, `out[1]` cycles, `out[2]` nanoseconds of the timed steps.
    ///
    /// **Expected**: the guide's 400–600 cycles for device memory (cc 1.x,
    /// uncached); today a staircase by working set: L1, L2, device memory and
    /// TLB misses beyond. To be measured.
    ///
    /// # Safety
    /// `start` and every address reachable from it in `warmup + count` steps
    /// are readable, 8-byte-aligned `u64`s (the host builds the ring);
    /// `out` holds `LATENCY_OUT_WORDS` words.
    pub unsafe fn pointer_chase(start: GlobalPtr<u64>, warmup: u32, count: u32, out: GlobalMutPtr<u64>) {
        let mut link = start.as_raw() as usize as u64;
        for _ in 0..warmup {
            // SAFETY: every reachable link is a readable u64 (caller's contract).
            link = unsafe { follow(link) };
        }
        // SAFETY: as above; out holds LATENCY_OUT_WORDS words.
        unsafe {
            timed_chain(out, || {
                for _ in 0..count {
                    link = follow(link);
                }
                link
            })
        }
    }
}
