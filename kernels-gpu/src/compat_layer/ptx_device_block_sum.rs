use super::COMPAT_BLOCK_THREADS;
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory, sync_threads, thread_idx_x,
};

kernel! {
    /// `partial[b]` = the sum of block `b`'s 256 elements of `input` (past
    /// `n`: 0), written as this crate writes kernels: the tree of
    /// [`cuda_std_block_sum`](super::cuda_std_block_sum) (strides 128, 64,
    /// …, 1, a barrier between steps) over the launch's dynamic shared memory.
    ///
    /// **Demonstrates** the baseline of the `cuda_std` block sum: same
    /// algorithm, same order of additions (the same bits), `ptx-device`'s
    /// global pointers and shared memory instead of a slice and a
    /// `shared_array!`.
    ///
    /// **Indexing**: thread `t` of block `b` loads element `b · 256 + t`;
    /// thread 0 writes the block's sum.
    ///
    /// **Launch**: 1-D blocks of exactly 256 threads, `ceil(n / 256)`
    /// blocks, 1 KiB of dynamic shared memory (`launchers::ptx_device_block_sum`).
    ///
    /// **Expected**: as its `cuda_std` twin; no counterpart in the documents.
    ///
    /// # Safety
    /// `blockDim.x` must be 256 with 1 KiB of dynamic shared memory; `input`
    /// must hold `n` `f32`s and `partial` `gridDim.x`.
    pub unsafe fn ptx_device_block_sum(input: GlobalPtr<f32>, n: u32, partial: GlobalMutPtr<f32>) {
        let tile = dynamic_shared_memory::<f32>();
        let t = thread_idx_x();
        let i = block_idx_x() * block_dim_x() + t;
        let value = if i < n {
            // SAFETY: i < n.
            unsafe { input.load(i as isize) }
        } else {
            0.0
        };
        // SAFETY: t < 256, inside the 1 KiB tile.
        unsafe { tile.store(t as usize, value) };
        sync_threads();
        let mut stride = COMPAT_BLOCK_THREADS / 2;
        while stride > 0 {
            if t < stride {
                let (low, high) = (t as usize, (t + stride) as usize);
                // SAFETY: high < 256; the barrier below orders these writes before the next step's reads.
                unsafe { tile.store(low, tile.load(low) + tile.load(high)) };
            }
            sync_threads();
            stride /= 2;
        }
        if t == 0 {
            // SAFETY: partial holds gridDim.x elements; element 0 was written before the last barrier.
            unsafe { partial.store(block_idx_x() as isize, tile.load(0)) };
        }
    }
}
