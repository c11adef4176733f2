use super::strided_partial_dot;
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory, grid_dim_x, sync_threads, thread_idx_x,
};

kernel! {
    /// Whitepaper Listing 4: one block per row; each thread accumulates a
    /// strided share of the row (coalesced), stores it in shared memory, and
    /// thread 0 adds the `blockDim.x` partial sums one by one.
    ///
    /// **Demonstrates** coalescing through cooperation: a warp now reads 128
    /// contiguous bytes of the row. The serial sum by one thread is the next
    /// bottleneck.
    ///
    /// **Indexing**: block `b` handles rows `b, b + gridDim.x, ...`; thread `t`
    /// reads columns `t, t + blockDim.x, ...`.
    ///
    /// **Launch**: 1-D grid, `blockDim.x * 4` bytes of dynamic shared memory.
    ///
    /// **Expected**: 32.5 ms on the GTX 285 (2.6x over Listing 2). On an H100
    /// 0.180 ms at 60989 × 1100 (1495 GB/s: the serial sum of 256 partials,
    /// about 1000 cycles of dependent adds per row, dominates a 1100-wide row)
    /// and 0.204 ms at 12800 × 8192 (2056 GB/s). The CUDA C twin is 12% slower
    /// at 60989 × 1100 (H100 and H200) with the same occupancy; nvcc unrolls
    /// the strided loop 4x and the serial sum 4x with 128-bit shared loads,
    /// rustc the sum 16x with scalar ones, but matching either (in the twin)
    /// did not close the gap, so its cause is not pinned down.
    ///
    /// # Safety
    /// `m`: `width * height` floats, `v`: `width`, `w`: `height`; shared memory as above.
    pub unsafe fn matvec_block_serial_sum(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let partial = dynamic_shared_memory::<f32>();
        let tid = thread_idx_x();
        let mut y = block_idx_x();
        while y < height {
            // SAFETY: y < height; shared memory holds blockDim.x floats (launcher).
            unsafe {
                partial.store(tid as usize, strided_partial_dot(m, width, y, v));
                sync_threads();
                if tid == 0 {
                    let mut dot = 0.0f32;
                    for t in 0..block_dim_x() {
                        dot += partial.load(t as usize);
                    }
                    w.store(y as isize, dot);
                }
                sync_threads();
            }
            y += grid_dim_x();
        }
    }
}
