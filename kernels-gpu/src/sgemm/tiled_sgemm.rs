use crate::device::{
    GlobalMutPtr, GlobalPtr, SharedPtr, block_idx_x, block_idx_y, dynamic_shared_memory, fma, sync_threads,
    thread_idx_x, thread_idx_y,
};

/// Tile edge of [`tiled_sgemm`]: 16, the guide's `BLOCK_SIZE`. A 16 × 16
/// block is 256 threads, so several blocks fit on an SM (a 32 × 32 tile
/// would need 1024-thread blocks, one or two per SM), and each tile holds
/// 2 KiB of shared memory per operand.
pub const TILED_SGEMM_TILE: u32 = 16;

const TILE: usize = TILED_SGEMM_TILE as usize;

/// Dynamic shared memory of [`tiled_sgemm`]: one `TILE × TILE` tile of `A`
/// and one of `B`, in `f32`.
pub const fn tiled_sgemm_shared_bytes() -> usize {
    2 * TILE * TILE * size_of::<f32>()
}

/// `tile[row][col]` of a `TILE × TILE` row-major tile.
#[inline(always)]
fn at(row: usize, col: usize) -> usize {
    row * TILE + col
}

kernel! {
    /// The OpenCL Programming Guide's shared-memory matrix multiply (§2.5,
    /// `BLOCK_SIZE` 16), generalized to any `m`, `n`, `k`.
    ///
    /// **Demonstrates** tiling through shared memory: each block walks a row
    /// of `TILE × TILE` tiles of `A` and the matching column of tiles of `B`,
    /// the block's threads load one element of each tile (coalesced) and every
    /// element is then read `TILE` times from shared memory, so global traffic
    /// falls `TILE`-fold against one dot product per thread from global
    /// memory. Unlike the guide's listing, edge tiles are guarded: entries
    /// outside `A` or `B` are loaded as zeros and only entries inside `C` are stored.
    ///
    /// **Indexing**: `row = blockIdx.y * TILE + threadIdx.y`, `col = blockIdx.x *
    /// TILE + threadIdx.x`; for tile `t`, `aTile[ty][tx] = a[row][t·TILE + tx]`,
    /// `bTile[ty][tx] = b[t·TILE + ty][col]`; `c[row][col] = Σ_i a[row][i] · b[i][col]`.
    ///
    /// **Launch**: blocks of `(TILE, TILE)` threads (`x` → column), a grid of
    /// `(ceil(n / TILE), ceil(m / TILE))`, [`tiled_sgemm_shared_bytes`] of dynamic shared memory.
    ///
    /// **Expected**: two shared-memory loads per FMA make it bound by
    /// shared-memory bandwidth, not arithmetic: a small fraction of FP32 peak
    /// and several times below cuBLAS, but well above an untiled kernel.
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n`, `c`: `m * n` floats; the launch shape above.
    pub unsafe fn tiled_sgemm(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        let a_tile: SharedPtr<f32> = dynamic_shared_memory();
        let b_tile = a_tile.offset_elems(TILE * TILE);
        let (tx, ty) = (thread_idx_x() as usize, thread_idx_y() as usize);
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let row = block_idx_y() as usize * TILE + ty;
        let col = block_idx_x() as usize * TILE + tx;
        let mut sum = 0.0f32;
        for first in (0..k).step_by(TILE) {
            let (a_col, b_row) = (first + tx, first + ty);
            // SAFETY: row < m and a_col < k: inside A.
            let a_value = if row < m && a_col < k { unsafe { a.load((row * k + a_col) as isize) } } else { 0.0 };
            // SAFETY: b_row < k and col < n: inside B.
            let b_value = if b_row < k && col < n { unsafe { b.load((b_row * n + col) as isize) } } else { 0.0 };
            // SAFETY: tx, ty < TILE: inside the two tiles of shared memory.
            unsafe {
                a_tile.store(at(ty, tx), a_value);
                b_tile.store(at(ty, tx), b_value);
            }
            sync_threads();
            for i in 0..TILE {
                // SAFETY: ty, tx, i < TILE.
                sum = unsafe { fma(a_tile.load(at(ty, i)), b_tile.load(at(i, tx)), sum) };
            }
            sync_threads();
        }
        if row < m && col < n {
            // SAFETY: row < m, col < n: inside C.
            unsafe { c.store((row * n + col) as isize, sum) };
        }
    }
}
