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
    /// **Expected**: the slowest version everywhere (83.2 ms on the GTX 285);
    /// caches help today, but most of each fetched sector is wasted.
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
