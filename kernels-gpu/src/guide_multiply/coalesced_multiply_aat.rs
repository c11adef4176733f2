use super::{SharedTile, TILE_DIM, TILE_FLOATS};
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, sync_threads, thread_idx_x,
    thread_idx_y,
};

/// The body shared by the unpadded and padded versions: `pitch` is the
/// transposed tile's row length (`TILE_DIM` or `TILE_DIM + 1`).
///
/// # Safety
/// As the kernels'.
#[inline(always)]
pub(super) unsafe fn multiply_aat_tiled(a: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: i32, pitch: usize) {
    let a_tile = SharedTile::at(0, TILE_DIM as usize);
    let transposed = SharedTile::at(TILE_FLOATS, pitch);
    let (tx, ty) = (thread_idx_x(), thread_idx_y());
    let row = (block_idx_y() * block_dim_y() + ty) as i32;
    let col = (block_idx_x() * block_dim_x() + tx) as i32;
    let t = TILE_DIM as i32;
    let mut sum = 0.0f32;
    // SAFETY: global indices < m * TILE_DIM (launch contract); tile indices < TILE_DIM.
    unsafe {
        a_tile.store(ty, tx, a.load((row * t + tx as i32) as isize));
        transposed.store(
            tx,
            ty,
            a.load(((block_idx_x() * block_dim_x() + ty) as i32 * t + tx as i32) as isize),
        );
        sync_threads();
        for i in 0..TILE_DIM {
            sum = fma(a_tile.load(ty, i), transposed.load(i, tx), sum);
        }
        c.store((row * m + col) as isize, sum);
    }
}

kernel! {
    /// Guide Listing 3.11 (`coalescedMultiply` for `C = AAᵀ`): the tile of
    /// `A` and a *transposed* tile of `A` are read coalesced into shared
    /// memory; the product reads the transposed tile by column.
    ///
    /// **Demonstrates** removing strided global access — at the cost of
    /// shared-memory bank conflicts: `transposedTile[i][tx]` is fine, but the
    /// store `transposedTile[tx][ty]` has the 32 threads of a warp hit one bank
    /// (`TILE_DIM`-float rows). `coalesced_multiply_aat_padded` fixes that.
    ///
    /// **Indexing**: as `simple_multiply_aat`. **Launch**: see the module docs;
    /// `tile_bytes(2, TILE_DIM)` of dynamic shared memory.
    ///
    /// **Expected**: GTX 280: 24.9 GB/s (vs 1.1 unoptimized). H100
    /// (M = 10240): 357 GB/s, 11.4x Listing 3.10; ncu counts 65.9 M shared
    /// store bank conflicts for 4.2 M store instructions at M = 8192 (about
    /// 16 extra wavefronts each), against 0.6 M for the padded tile.
    ///
    /// # Safety
    /// As `simple_multiply_aat`, and the shared memory above.
    pub unsafe fn coalesced_multiply_aat(a: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: i32) {
        // SAFETY: forwarded contract.
        unsafe { multiply_aat_tiled(a, c, m, TILE_DIM as usize) }
    }
}
