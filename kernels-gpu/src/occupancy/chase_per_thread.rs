use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// A latency-bound kernel: thread `t < threads` follows `count` links
    /// `p ← links[p]` of a ring of slots from slot `t` and writes where it
    /// ends to `out[t]`. Each load needs the one before, so a warp has one
    /// load in flight, and the SM's throughput is its resident warps divided
    /// by the memory latency (Little's law).
    ///
    /// **Indexing**: `t = blockIdx.x * blockDim.x + threadIdx.x`, guarded by
    /// `t < threads`; the ring (`links[i]` = the slot after `i`, a random
    /// cyclic permutation) decides every other address.
    ///
    /// **Launch**: `ceil(threads / block)` blocks of any size, with any
    /// dynamic shared memory (unused).
    ///
    /// **Expected**: throughput falls in proportion to resident blocks per
    /// SM, unlike the copy's, which saturates early. To be measured.
    ///
    /// # Safety
    /// `links` holds at least `threads` words, and every link is an index
    /// into it; `out` holds at least `threads` words.
    pub unsafe fn occupancy_chase(links: GlobalPtr<u32>, threads: u32, count: u32, out: GlobalMutPtr<u32>) {
        let t = block_idx_x() * block_dim_x() + thread_idx_x();
        if t < threads {
            let mut slot = t;
            for _ in 0..count {
                // SAFETY: slot is t < threads <= len(links), then a link, which is an index into links.
                slot = unsafe { links.load(slot as isize) };
            }
            // SAFETY: t < threads <= len(out).
            unsafe { out.store(t as isize, slot) };
        }
    }
}
