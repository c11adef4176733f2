use super::{SharedTile, TILE_DIM};
use crate::device::{
    GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, sync_threads, thread_idx_x,
    thread_idx_y,
};

kernel! {
    /// Guide Listing 3.8 (`coalescedMultiply`): the tile of `A` is read once,
    /// coalesced, into shared memory; `B` still comes from global memory.
    ///
    /// **Fix**: the guide omits the barrier after filling the tile because, at
    /// `TILE_DIM` = warp size, each row is written and read by one warp —
    /// warp-synchronous code that independent thread scheduling (Volta and
    /// later) no longer guarantees. A `sync_threads` makes it correct.
    ///
    /// **Indexing**: as `simple_multiply`; `aTile[ty][tx] = a[row][tx]`.
    /// **Launch**: see the module docs; `tile_bytes(1, TILE_DIM)` of dynamic shared memory.
    ///
    /// **Expected**: GTX 280: 14.3 GB/s (vs 8.7 for Listing 3.7). H100
    /// (M = N = 10240, compulsory bytes): 471 GB/s, 1.2x Listing 3.7. Its
    /// 1024-thread blocks sit on a register cliff: at ≤ 32 registers per
    /// thread two blocks fit on an SM, at 33+ only one. The Rust build uses
    /// 32; the CUDA C twin (NVRTC) 34, so it runs at 50% occupancy and
    /// 334 GB/s (Rust / CUDA C = 1.41).
    ///
    /// # Safety
    /// As `simple_multiply`, and the shared memory above.
    pub unsafe fn coalesced_multiply(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, n: i32) {
        let a_tile = SharedTile::at(0, TILE_DIM as usize);
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let row = (block_idx_y() * block_dim_y() + ty) as i32;
        let col = (block_idx_x() * block_dim_x() + tx) as i32;
        let mut sum = 0.0f32;
        // SAFETY: indices as in simple_multiply; tile indices < TILE_DIM.
        unsafe {
            a_tile.store(ty, tx, a.load((row * TILE_DIM as i32 + tx as i32) as isize));
            sync_threads();
            for i in 0..TILE_DIM {
                sum = fma(a_tile.load(ty, i), b.load((i as i32 * n + col) as isize), sum);
            }
            c.store((row * n + col) as isize, sum);
        }
    }
}
