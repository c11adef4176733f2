use super::row_dot;
use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, grid_dim_x, thread_idx_x};

kernel! {
    /// Whitepaper Listing 3: one thread per row, rows distributed by a
    /// grid-stride loop, so the grid size no longer depends on `height`.
    ///
    /// **Demonstrates** decoupling the launch from the data size; the accesses
    /// are as uncoalesced as Listing 2's.
    ///
    /// **Indexing**: thread `g` handles rows `g, g + G, ...` (`G` = threads in
    /// the grid), each with [`row_dot`](super::row_dot) as in Listing 2.
    ///
    /// **Launch**: any 1-D grid (the suite: one full wave from the SM count).
    ///
    /// **Expected**: about Listing 2's time (82.2 ms on the GTX 285; on an
    /// H100 0.162 ms at 60989 × 1100 and 1.10 ms at 12800 × 8192, as Listing 2).
    /// This one is touchy in CUDA C: nvcc 13.0's build ran 0.158 ms or 0.184 ms
    /// at 60989 × 1100 depending on whether it unrolled the chunk loop, because
    /// with too few warps per SM the time is set by how many loads each thread
    /// has in flight.
    ///
    /// # Safety
    /// `m`: `width * height` floats, `v`: `width`, `w`: `height`.
    pub unsafe fn matvec_grid_stride_rows(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let mut y = block_idx_x() * block_dim_x() + thread_idx_x();
        while y < height {
            // SAFETY: y < height; m, v sized by the launcher.
            let dot = unsafe { row_dot(m, width, y, v) };
            // SAFETY: y < height.
            unsafe { w.store(y as isize, dot) };
            y += grid_dim_x() * block_dim_x();
        }
    }
}
