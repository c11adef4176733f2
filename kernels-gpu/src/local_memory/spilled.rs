use super::scramble_rounds;
use crate::device::{GlobalMutPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// `local_array_registers` under a tight launch bound
    /// (`launch_bounds.rs`: `.maxntid 1024`, `.minnctapersm 1`, so at most 64
    /// registers a thread): the 64-word array no longer fits, and ptxas
    /// spills part of it to local memory (`ld.local`/`st.local` in the SASS,
    /// not in the PTX; the spill bytes show in ptxas `-v` and in the
    /// kernel's `CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`).
    ///
    /// **Indexing**: as `local_array_registers` (same results). **Launch**:
    /// any 1-D grid of blocks of at most 1024 threads.
    ///
    /// **Expected**: between the registers and dynamic versions (only the
    /// spilled words go through memory). To be measured.
    ///
    /// # Safety
    /// `out` holds a word for every thread of the grid.
    pub unsafe fn local_array_spilled(rounds: u32, out: GlobalMutPtr<u32>) {
        let thread = block_idx_x() * block_dim_x() + thread_idx_x();
        // SAFETY: one word per thread (caller's contract).
        unsafe { out.store(thread as isize, scramble_rounds::<false>(thread, 0, rounds)) };
    }
}
