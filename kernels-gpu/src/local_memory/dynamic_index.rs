use super::scramble_rounds;
use crate::device::{GlobalMutPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// `scramble_rounds` with its indices rotated by the run-time `shift`:
    /// the compiler cannot tell which word an access touches, so the array
    /// stays in memory: a `.local` array read and written with
    /// `ld.local`/`st.local` (the guides' "arrays indexed dynamically").
    ///
    /// **Indexing**: as `local_array_registers`; with `shift = 0` the results
    /// are the same. **Launch**: any 1-D grid of 1-D blocks.
    ///
    /// **Expected**: slower than `local_array_registers` by the local-memory
    /// traffic (each thread's 256 bytes, cached in L1 while they fit). To be measured.
    ///
    /// # Safety
    /// `out` holds a word for every thread of the grid.
    pub unsafe fn local_array_dynamic(shift: u32, rounds: u32, out: GlobalMutPtr<u32>) {
        let thread = block_idx_x() * block_dim_x() + thread_idx_x();
        // SAFETY: one word per thread (caller's contract).
        unsafe { out.store(thread as isize, scramble_rounds::<true>(thread, shift, rounds)) };
    }
}
