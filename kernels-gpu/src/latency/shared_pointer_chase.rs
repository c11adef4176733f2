use super::timed_chain;
use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, dynamic_shared_memory, sync_threads, thread_idx_x};

kernel! {
    /// The pointer chase inside shared memory: the block copies the ring's
    /// `slots` links (`links[i]` = the slot after `i`) into shared memory,
    /// then thread 0 takes `warmup` untimed and `count` timed steps
    /// `p ← shared[p]` from slot `start`.
    ///
    /// **Indexing**: slot `i` is word `i` of the dynamic shared memory; each
    /// step is one `ld.shared` (and the shift that scales the index).
    ///
    /// **Launch**: one block (any size: its threads share the copy),
    /// `4 * slots` bytes of dynamic shared memory. **Outputs**: as
    /// `pointer_chase`, `out[0]` the final slot.
    ///
    /// **Expected**: the guide: shared memory's latency is roughly 100x
    /// lower than global memory's (uncached). To be measured.
    ///
    /// # Safety
    /// `links` holds `slots` words, each below `slots`; `start < slots`;
    /// `4 * slots` bytes of dynamic shared memory; `out` holds
    /// `LATENCY_OUT_WORDS` words.
    pub unsafe fn shared_pointer_chase(
        links: GlobalPtr<u32>,
        slots: u32,
        start: u32,
        warmup: u32,
        count: u32,
        out: GlobalMutPtr<u64>,
    ) {
        let ring = dynamic_shared_memory::<u32>();
        let mut slot = thread_idx_x();
        while slot < slots {
            // SAFETY: slot < slots: inside `links` and the shared copy.
            unsafe { ring.store(slot as usize, links.load(slot as isize)) };
            slot += block_dim_x();
        }
        sync_threads();
        if thread_idx_x() != 0 {
            return;
        }
        let mut slot = start;
        for _ in 0..warmup {
            // SAFETY: every link is below `slots` (caller's contract).
            slot = unsafe { ring.load(slot as usize) };
        }
        // SAFETY: as above; out holds LATENCY_OUT_WORDS words.
        unsafe {
            timed_chain(out, || {
                for _ in 0..count {
                    slot = ring.load(slot as usize);
                }
                slot as u64
            })
        }
    }
}
