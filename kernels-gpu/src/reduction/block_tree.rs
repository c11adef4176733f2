use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory, sync_threads, thread_idx_x,
};

kernel! {
    /// Block tree reduction in shared memory with sequential addressing (the
    /// CUDA samples' `reduce3`): each thread adds two elements while loading,
    /// then at step `s` (blockDim/2, blockDim/4, ...) thread `t < s` adds
    /// element `t + s` into `t`; thread 0 writes the block's partial sum.
    ///
    /// **Demonstrates** the conflict-free shared-memory tree: consecutive
    /// threads touch consecutive banks, and the active threads stay packed in
    /// the first warps, so whole warps retire instead of diverging.
    ///
    /// **Indexing**: block `b` covers elements `2·b·blockDim + t` and
    /// `2·b·blockDim + blockDim + t` (missing ones count 0); `partials[b]`.
    ///
    /// **Launch**: 1-D grid of `ceil(n / (2·blockDim))` blocks, one partial
    /// each; `blockDim.x` a power of two; `blockDim.x * 4` bytes of dynamic
    /// shared memory; `n <= i32::MAX`.
    ///
    /// **Expected**: on modern GPUs one element pair per thread keeps the
    /// loads in flight but pays `log2(blockDim)` barriers per 512 elements:
    /// below the copy ceiling (the samples' later versions unroll the last
    /// warp and loop over the grid for that reason). On an H100 (400 MiB,
    /// 2026-11-26): 1676 GB/s, 0.55 of [`reduce_grid_stride_shuffle`](super::reduce_grid_stride_shuffle)'s 3037
    /// (the CUDA C twin 1666, the OpenCL C twin 1513).
    ///
    /// # Safety
    /// `x` holds `n` floats, `partials` at least `gridDim.x`.
    pub unsafe fn reduce_block_tree(x: GlobalPtr<f32>, n: u32, partials: GlobalMutPtr<f32>) {
        let sums = dynamic_shared_memory::<f32>();
        let tid = thread_idx_x();
        let block = block_dim_x();
        let first = block_idx_x() * 2 * block + tid;
        // SAFETY: each load is guarded by `< n` (no overflow: n <= i32::MAX and the grid covers n once);
        // shared indices are < blockDim.x.
        unsafe {
            let mut sum = if first < n { x.load(first as isize) } else { 0.0 };
            if first + block < n {
                sum += x.load((first + block) as isize);
            }
            sums.store(tid as usize, sum);
            let mut stride = block / 2;
            while stride > 0 {
                sync_threads();
                if tid < stride {
                    let (a, b) = (tid as usize, (tid + stride) as usize);
                    sums.store(a, sums.load(a) + sums.load(b));
                }
                stride /= 2;
            }
            if tid == 0 {
                partials.store(block_idx_x() as isize, sums.load(0));
            }
        }
    }
}
