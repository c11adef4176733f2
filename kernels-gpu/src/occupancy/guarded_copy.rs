use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// Copies `n` floats, one per thread, with a tail guard: threads past
    /// `n` (the rest of the last block, whatever the block size) do nothing.
    ///
    /// **Indexing**: `i = blockIdx.x * blockDim.x + threadIdx.x` (64-bit),
    /// `out[i] = inp[i]` for `i < n`.
    ///
    /// **Launch**: `ceil(n / block)` blocks of any size up to 1024 (a block
    /// size that is not a multiple of 32 leaves its last warp partly idle),
    /// with any dynamic shared memory (unused: it only limits the blocks
    /// resident on an SM).
    ///
    /// **Expected**: the guide: occupancy beyond about 50% rarely pays; block
    /// sizes that are not multiples of 32 waste the idle lanes of their last
    /// warp. A copy keeps many loads in flight per warp, so it needs fewer
    /// resident warps than a latency-bound kernel. To be measured.
    ///
    /// # Safety
    /// `out` and `inp` hold at least `n` floats.
    pub unsafe fn occupancy_copy(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: u64) {
        let i = block_idx_x() as u64 * block_dim_x() as u64 + thread_idx_x() as u64;
        if i < n {
            // SAFETY: i < n <= both lengths.
            unsafe { out.store(i as isize, inp.load(i as isize)) };
        }
    }
}
