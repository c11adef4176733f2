use crate::device::{GlobalMutPtr, GlobalPtr, block_idx_x, block_idx_y, fma, thread_idx_x, thread_idx_y};

use super::TILED_SGEMM_TILE;

kernel! {
    /// The OpenCL Programming Guide's first matrix multiply (§2.5, Figure
    /// 2-4), without shared memory, generalized to any `m`, `n`, `k`: the
    /// baseline the guide's tiled kernel ([`super::tiled_sgemm`]) improves on.
    ///
    /// **Demonstrates** what tiling saves: each thread reads a whole row of
    /// `A` and a whole column of `B` from global memory for its one element
    /// of `C`, so `A` is read `n` times and `B` `m` times (the tiled kernel:
    /// `n / 16` and `m / 16` times).
    ///
    /// **Indexing**: `row = blockIdx.y * 16 + threadIdx.y`, `col = blockIdx.x *
    /// 16 + threadIdx.x`; `c[row][col] = Σ_i a[row][i] · b[i][col]` in
    /// increasing `i` with FMA (the tiled kernel's order, so both give the
    /// same bits); threads outside `C` do nothing.
    ///
    /// **Launch**: the tiled kernel's: blocks of `(16, 16)` threads (`x` →
    /// column), a grid of `(ceil(n / 16), ceil(m / 16))`; no shared memory.
    ///
    /// **Expected**: the guide gives no figure; today the L1 and L2 caches
    /// catch much of the re-reading, so the tiled kernel's gain is smaller
    /// than its 16-fold cut in global reads (to be measured).
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n`, `c`: `m * n` floats.
    pub unsafe fn naive_sgemm(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        let tile = TILED_SGEMM_TILE as usize;
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let row = block_idx_y() as usize * tile + thread_idx_y() as usize;
        let col = block_idx_x() as usize * tile + thread_idx_x() as usize;
        if row < m && col < n {
            let mut sum = 0.0f32;
            for i in 0..k {
                // SAFETY: row < m, col < n, i < k: inside A and B.
                sum = unsafe { fma(a.load((row * k + i) as isize), b.load((i * n + col) as isize), sum) };
            }
            // SAFETY: row < m, col < n: inside C.
            unsafe { c.store((row * n + col) as isize, sum) };
        }
    }
}
