//! A block reduction: each block sums its slice of the input through shared
//! memory, halving the active threads at every step.

use ptx_device::thread_idx_x;
use ptx_device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory, kernel, sync_threads};

kernel! {
    /// `partial[b]` = the sum of `x[b · B .. (b + 1) · B]` (B = `blockDim.x`;
    /// elements past `n` count as zero).
    ///
    /// Indexing: thread `t` of block `b` loads `x[b · B + t]` into shared
    /// element `t`; then for `s = B/2, B/4, ..., 1` threads `t < s` add
    /// element `t + s` to element `t`, with a barrier after every step (no
    /// thread may read an element before its writer is done). Thread 0
    /// stores the result. Launch: `B` a power of two up to 1024,
    /// `ceil(n / B)` blocks, `4 · B` bytes of dynamic shared memory. Sum the
    /// partial sums on the host, or with a second launch over them.
    ///
    /// # Safety
    /// `n` must not exceed the length of `x`; `partial` must hold `gridDim.x`
    /// elements; `blockDim.x` must be a power of two and the launch must give
    /// `4 · blockDim.x` bytes of dynamic shared memory; `gridDim.x ·
    /// blockDim.x` must fit in a `u32`.
    pub unsafe fn block_sum(partial: GlobalMutPtr<f32>, x: GlobalPtr<f32>, n: u32) {
        let t = thread_idx_x();
        let i = block_idx_x() * block_dim_x() + t;
        let tile = dynamic_shared_memory::<f32>();
        // SAFETY: i < n ≤ x's length is checked; t < blockDim.x, the tile's length (launch contract).
        unsafe { tile.store(t as usize, if i < n { x.load(i as isize) } else { 0.0 }) };
        sync_threads();
        let mut stride = block_dim_x() / 2;
        while stride > 0 {
            if t < stride {
                let (t, s) = (t as usize, stride as usize);
                // SAFETY: t + s < blockDim.x, inside the tile.
                unsafe { tile.store(t, tile.load(t) + tile.load(t + s)) };
            }
            // Every thread of the block reaches it: `stride` is the same for all of them.
            sync_threads();
            stride /= 2;
        }
        if t == 0 {
            // SAFETY: blockIdx.x < gridDim.x ≤ partial's length (launch contract); element 0 is in the tile.
            unsafe { partial.store(block_idx_x() as isize, tile.load(0)) };
        }
    }
}
