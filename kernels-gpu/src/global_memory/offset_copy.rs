use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// Copies one `f32` per thread from `idata` to `odata`, both shifted by
    /// `offset` elements: the guide's Listing 3.5 (`offsetCopy`, §3.2.1.3).
    ///
    /// **Demonstrates** the cost of misaligned but sequential accesses: with
    /// `offset % 32 != 0` each warp's 128-byte request straddles two 128-byte
    /// segments.
    ///
    /// **Indexing**: `xid = blockIdx.x * blockDim.x + threadIdx.x + offset`;
    /// thread `t` copies element `t + offset`. No bounds check inside, as in the
    /// listing: the host launcher guarantees `grid * block + offset <= len` of
    /// both buffers.
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads).
    ///
    /// **Expected**: on cc 1.0 (8800 GTX) any offset not a multiple of 16 cost
    /// about 8x (74 to 7 GB/s); on cc 1.3 (GTX 280) 120 vs 70 GB/s. Since Fermi
    /// the L1/L2 caches and 32-byte sectors make misalignment cost only the
    /// extra sector per warp: a few percent to ~10% on current GPUs.
    ///
    /// # Safety
    /// `grid * block + offset` must not exceed the length of either buffer
    /// (`launchers::offset_copy_shape` in the host crate checks this).
    pub unsafe fn offset_copy(odata: GlobalMutPtr<f32>, idata: GlobalPtr<f32>, offset: i32) {
        let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32 + offset;
        // SAFETY: the launcher checked grid * block + offset <= len(odata), len(idata).
        unsafe { odata.store(xid as isize, idata.load(xid as isize)) };
    }
}
