use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// Copies one `f32` per thread from `idata` to `odata` with a stride of
    /// `stride` elements between neighbouring threads: the guide's Listing 3.6
    /// (`strideCopy`, §3.2.1.4).
    ///
    /// **Demonstrates** wasted bandwidth of non-unit strides: a warp touches
    /// `min(32, stride)` times more memory segments than it uses.
    ///
    /// **Indexing**: `xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride`.
    /// No bounds check inside, as in the listing: the host launcher guarantees
    /// `(grid * block - 1) * stride < len` of both buffers.
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads).
    ///
    /// **Expected**: effective bandwidth falls roughly as `1/stride` until each
    /// thread's element sits in its own 32-byte sector (stride 8 for `f32`),
    /// then flattens near 1/8 of the unit-stride figure: each 4-byte element
    /// costs a 32-byte sector. On cc 1.0 any non-unit stride already cost 16
    /// transactions per half warp.
    ///
    /// # Safety
    /// `(grid * block - 1) * stride` must be an index inside both buffers and
    /// fit an `i32` (`launchers::stride_copy_shape` in the host crate checks this).
    pub unsafe fn stride_copy(odata: GlobalMutPtr<f32>, idata: GlobalPtr<f32>, stride: i32) {
        let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32 * stride;
        // SAFETY: the launcher checked (grid * block - 1) * stride < len(odata), len(idata).
        unsafe { odata.store(xid as isize, idata.load(xid as isize)) };
    }
}
