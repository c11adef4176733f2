use super::TILE_DIM;
use super::coalesced_multiply_aat::multiply_aat_tiled;
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// Guide §3.2.2.3 (`transposedTile[TILE_DIM][TILE_DIM+1]`): Listing 3.11
    /// with the transposed tile padded by one column, so a column of it spans
    /// all 32 banks and the transposing store is conflict-free.
    ///
    /// **Indexing**: as `coalesced_multiply_aat`. **Launch**: see the module
    /// docs; `tile_bytes(1, TILE_DIM) + tile_bytes(1, TILE_DIM + 1)` of dynamic shared memory.
    ///
    /// **Expected**: GTX 280: 30.4 GB/s, comparable to the best `C = AB`.
    /// H100 (M = 10240): 502 GB/s, 1.40x the unpadded tile (357 GB/s) and on
    /// par with the best `C = AB` (497 GB/s): the bank-conflict effect is as
    /// visible today as on cc 1.x (ncu: 0.6 M store conflicts vs 65.9 M at M = 8192).
    ///
    /// # Safety
    /// As `simple_multiply_aat`, and the shared memory above.
    pub unsafe fn coalesced_multiply_aat_padded(a: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: i32) {
        // SAFETY: forwarded contract.
        unsafe { multiply_aat_tiled(a, c, m, TILE_DIM as usize + 1) }
    }
}
