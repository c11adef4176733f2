//! SAXPY: `y = a · x + y`, the "hello world" of GPU kernels.

use ptx_device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, kernel, thread_idx_x};

kernel! {
    /// `y[i] = a · x[i] + y[i]` for every `i < n`, one element per thread.
    ///
    /// Indexing: `i = blockIdx.x · blockDim.x + threadIdx.x`; threads with
    /// `i ≥ n` (the last block's tail) do nothing. Launch: any block size,
    /// `ceil(n / block)` blocks, no shared memory. Consecutive threads touch
    /// consecutive floats, so each warp's loads and stores are coalesced.
    ///
    /// # Safety
    /// `n` must not exceed the length of `x` or of `y`, and
    /// `gridDim.x · blockDim.x` must fit in a `u32`.
    pub unsafe fn saxpy(y: GlobalMutPtr<f32>, x: GlobalPtr<f32>, a: f32, n: u32) {
        let i = block_idx_x() * block_dim_x() + thread_idx_x();
        if i < n {
            let i = i as isize;
            // SAFETY: i < n ≤ both lengths (the launch's contract).
            unsafe { y.store(i, a * x.load(i) + y.load(i)) };
        }
    }
}
