use super::TILE_DIM;
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, thread_idx_x, thread_idx_y,
};

kernel! {
    /// Guide Listing 3.10 (`simpleMultiply` for `C = AAᵀ`): `c[row][col] =
    /// Σ_i a[row][i] · a[col][i]`, straight from global memory.
    ///
    /// **Demonstrates** strided access: for a warp, `a[col][i]` walks down a
    /// column — addresses `TILE_DIM * 4` bytes apart, one sector per thread.
    ///
    /// **Indexing**: as `simple_multiply`, with `M` for both dimensions of `C`.
    /// **Launch**: see the module docs; no shared memory.
    ///
    /// **Expected**: GTX 280: 1.1 GB/s; still the slowest today: H100
    /// (M = 10240) 31 GB/s, 11–16x behind the shared-memory versions.
    ///
    /// # Safety
    /// `a`: `m × TILE_DIM`, `c`: `m × m` floats, the grid as in the module docs.
    pub unsafe fn simple_multiply_aat(a: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: i32) {
        let row = (block_idx_y() * block_dim_y() + thread_idx_y()) as i32;
        let col = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32;
        let t = TILE_DIM as i32;
        let mut sum = 0.0f32;
        for i in 0..t {
            // SAFETY: row, col < m, i < TILE_DIM (launch contract).
            sum = unsafe { fma(a.load((row * t + i) as isize), a.load((col * t + i) as isize), sum) };
        }
        // SAFETY: as above.
        unsafe { c.store((row * m + col) as isize, sum) };
    }
}
