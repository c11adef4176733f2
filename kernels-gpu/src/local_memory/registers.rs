use super::scramble_rounds;
use crate::device::{GlobalMutPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// `scramble_rounds` with every array index known at compile time: the
    /// array is promoted to registers (no `.local` in the PTX).
    ///
    /// **Indexing**: thread `t = blockIdx.x * blockDim.x + threadIdx.x`
    /// writes `out[t]`. **Launch**: any 1-D grid of 1-D blocks.
    ///
    /// **Expected**: the baseline for `local_array_dynamic` (same result
    /// with `shift = 0`): the guides' point is that local memory costs as
    /// much as global memory; on cached GPUs it costs L1/L2 traffic. To be measured.
    ///
    /// # Safety
    /// `out` holds a word for every thread of the grid.
    pub unsafe fn local_array_registers(rounds: u32, out: GlobalMutPtr<u32>) {
        let thread = block_idx_x() * block_dim_x() + thread_idx_x();
        // SAFETY: one word per thread (caller's contract).
        unsafe { out.store(thread as isize, scramble_rounds::<false>(thread, 0, rounds)) };
    }
}
