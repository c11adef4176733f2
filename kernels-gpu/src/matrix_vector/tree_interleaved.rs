use super::strided_partial_dot;
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory, grid_dim_x, sync_threads, thread_idx_x,
};

kernel! {
    /// Whitepaper Listing 5: Listing 4 with a tree reduction in shared memory,
    /// interleaved addressing: at step `s` (1, 2, 4, ...) thread `t` adds
    /// element `2st + s` into `2st`.
    ///
    /// **Demonstrates** parallel reduction, and the shared-memory bank
    /// conflicts of interleaved addressing (`2st` hits the same bank for
    /// several threads of a warp).
    ///
    /// **Indexing, launch**: as Listing 4; `blockDim.x` must be a power of two.
    ///
    /// **Expected**: 12.1 ms on the GTX 285 (6.9x over Listing 2). On an H100
    /// 0.175 ms at 60989 × 1100 (1532 GB/s) and 0.202 ms at 12800 × 8192.
    ///
    /// # Safety
    /// As Listing 4, and `blockDim.x` a power of two.
    pub unsafe fn matvec_tree_interleaved(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let partial = dynamic_shared_memory::<f32>();
        // 32-bit index arithmetic, as in the listing: 64-bit multiplies in the reduction loop cost time.
        let tid = thread_idx_x();
        let n = block_dim_x();
        let mut y = block_idx_x();
        while y < height {
            // SAFETY: y < height; every shared index is < n (power of two, launcher-checked).
            unsafe {
                partial.store(tid as usize, strided_partial_dot(m, width, y, v));
                let mut stride = 1;
                while stride < n {
                    sync_threads();
                    let index = 2 * stride * tid;
                    if index < n {
                        let (a, b) = (index as usize, (index + stride) as usize);
                        partial.store(a, partial.load(a) + partial.load(b));
                    }
                    stride *= 2;
                }
                if tid == 0 {
                    w.store(y as isize, partial.load(0));
                }
                sync_threads();
            }
            y += grid_dim_x();
        }
    }
}
