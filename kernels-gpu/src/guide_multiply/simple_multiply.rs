use super::TILE_DIM;
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, thread_idx_x, thread_idx_y,
};

kernel! {
    /// Guide Listing 3.7 (`simpleMultiply`): `C = AB` straight from global memory.
    ///
    /// **Demonstrates** the unoptimized tile product: each thread reads a row
    /// of `A` (the same address for a whole warp: a broadcast, wasteful on
    /// cc 1.x) and a column of `B` (coalesced).
    ///
    /// **Indexing**: `row = blockIdx.y * blockDim.y + threadIdx.y`, `col =
    /// blockIdx.x * blockDim.x + threadIdx.x`; `c[row][col] = Σ_i a[row][i] · b[i][col]`.
    /// **Launch**: see the module docs; no shared memory.
    ///
    /// **Expected**: the guide's baseline (GTX 280: 8.7 GB/s effective); on
    /// current GPUs L1 serves the repeated `A` reads, so the gap to the
    /// shared-memory versions is much smaller.
    ///
    /// # Safety
    /// `a`: `M × TILE_DIM`, `b`: `TILE_DIM × n`, `c`: `M × n` floats, the grid as in the module docs.
    pub unsafe fn simple_multiply(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, n: i32) {
        let row = (block_idx_y() * block_dim_y() + thread_idx_y()) as i32;
        let col = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32;
        let mut sum = 0.0f32;
        // B's column is walked with a 64-bit index (`b[i * n + col]` strength-reduced, as nvcc does for C).
        let mut b_index = col as isize;
        for i in 0..TILE_DIM as isize {
            // SAFETY: row < M, col < n, i < TILE_DIM (launch contract).
            sum = unsafe { fma(a.load(row as isize * TILE_DIM as isize + i), b.load(b_index), sum) };
            b_index += n as isize;
        }
        // SAFETY: as above.
        unsafe { c.store((row * n + col) as isize, sum) };
    }
}
