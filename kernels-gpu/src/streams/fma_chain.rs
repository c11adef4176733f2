use crate::device::{GlobalMutPtr, block_dim_x, block_idx_x, fma, grid_dim_x, thread_idx_x};

/// The affine map each iteration applies: `x ← x · A + B`.
pub const FMA_CHAIN_A: f32 = 0.999_9;
/// See [`FMA_CHAIN_A`].
pub const FMA_CHAIN_B: f32 = 0.001;

kernel! {
    /// Applies `x ← fma(x, A, B)` `iterations` times to each of `n` floats, in
    /// place: arithmetic whose run time the host tunes (through `iterations`)
    /// to match a transfer's, for the guide's copy/compute overlap experiments
    /// (§3.1.2, Listings 3.3a/3.3b).
    ///
    /// **Indexing**: grid-stride loop over elements; each element is read
    /// once, updated in registers, written once (coalesced).
    ///
    /// **Launch**: any 1-D grid (the suite: one full wave of 256-thread blocks).
    ///
    /// **Expected**: compute-bound for more than a few dozen iterations; run
    /// time linear in `iterations`.
    ///
    /// # Safety
    /// `data` must hold at least `n` floats.
    pub unsafe fn fma_chain(data: GlobalMutPtr<f32>, n: u32, iterations: u32) {
        let mut i = block_idx_x() * block_dim_x() + thread_idx_x();
        while i < n {
            // SAFETY: i < n.
            let mut x = unsafe { data.load(i as isize) };
            for _ in 0..iterations {
                x = fma(x, FMA_CHAIN_A, FMA_CHAIN_B);
            }
            // SAFETY: i < n.
            unsafe { data.store(i as isize, x) };
            i += grid_dim_x() * block_dim_x();
        }
    }
}
