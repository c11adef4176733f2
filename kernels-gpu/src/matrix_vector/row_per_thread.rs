use super::row_dot;
use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// Whitepaper Listing 2: one thread per row, each walking its whole row.
    ///
    /// **Demonstrates** the naive mapping: neighbouring threads read addresses
    /// `width * 4` bytes apart, so every load of a warp touches 32 different
    /// sectors (uncoalesced), and only `height` threads exist.
    ///
    /// **Indexing**: `y = blockIdx.x * blockDim.x + threadIdx.x`; the listing
    /// has no guard, so a grid rounded up to whole blocks read past `M`: the
    /// `y < height` check is the fix. The row is walked by [`row_dot`](super::row_dot)
    /// in 8-element chunks, loads first (same sum, steadier code generation).
    ///
    /// **Launch**: `ceil(height / block)` blocks of `block` threads, no shared memory.
    ///
    /// **Expected**: the slowest version on the GTX 285 (83.2 ms). On an H100
    /// the L1 cache keeps each thread's sector for its next 7 reads, so at the
    /// whitepaper's 60989 × 1100 it takes 0.162 ms (1662 GB/s), close to
    /// Listings 4-7; at 12800 × 8192 only 12800 threads exist (50 blocks for
    /// 132 SMs) and it falls to 1.10 ms (380 GB/s), 5.5x slower than Listing 7.
    ///
    /// # Safety
    /// `m`: `width * height` floats, `v`: `width`, `w`: `height`.
    pub unsafe fn matvec_row_per_thread(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let y = block_idx_x() * block_dim_x() + thread_idx_x();
        if y >= height {
            return;
        }
        // SAFETY: y < height; m, v sized by the launcher.
        let dot = unsafe { row_dot(m, width, y, v) };
        // SAFETY: y < height.
        unsafe { w.store(y as isize, dot) };
    }
}
