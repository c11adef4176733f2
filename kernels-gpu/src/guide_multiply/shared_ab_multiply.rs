use super::{SharedTile, TILE_DIM, TILE_FLOATS};
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, sync_threads, thread_idx_x,
    thread_idx_y,
};

kernel! {
    /// Guide Listing 3.9 (`sharedABMultiply`): tiles of both `A` and `B` in
    /// shared memory, each read once from global memory, coalesced.
    ///
    /// **Indexing**: as `simple_multiply`; `aTile[ty][tx] = a[row][tx]`,
    /// `bTile[ty][tx] = b[ty][col]`. **Launch**: see the module docs;
    /// `tile_bytes(2, TILE_DIM)` of dynamic shared memory.
    ///
    /// **Expected**: the guide's best `C = AB` (GTX 280: 29.7 GB/s). H100
    /// (M = N = 10240): 497 GB/s, 1.2x Listing 3.7: writing `C` bounds all
    /// three once `A` and `B` sit in L1/L2, so the shared-memory gains are
    /// far smaller than the guide's 3.4x.
    ///
    /// # Safety
    /// As `simple_multiply`, and the shared memory above.
    pub unsafe fn shared_ab_multiply(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, n: i32) {
        let a_tile = SharedTile::at(0, TILE_DIM as usize);
        let b_tile = SharedTile::at(TILE_FLOATS, TILE_DIM as usize);
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let row = (block_idx_y() * block_dim_y() + ty) as i32;
        let col = (block_idx_x() * block_dim_x() + tx) as i32;
        let mut sum = 0.0f32;
        // SAFETY: indices as in simple_multiply; tile indices < TILE_DIM.
        unsafe {
            a_tile.store(ty, tx, a.load((row * TILE_DIM as i32 + tx as i32) as isize));
            b_tile.store(ty, tx, b.load((ty as i32 * n + col) as isize));
            sync_threads();
            for i in 0..TILE_DIM {
                sum = fma(a_tile.load(ty, i), b_tile.load(i, tx), sum);
            }
            c.store((row * n + col) as isize, sum);
        }
    }
}
