use super::timed_chase;
use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, dynamic_shared_memory, thread_idx_x};

kernel! {
    /// Copies the table's `words` words into shared memory, then walks it
    /// there: each step one `ld.shared` whose address is the previous step's
    /// value.
    ///
    /// **Indexing, outputs**: as `constant_chase`. **Launch**: as the module
    /// docs say, with `4 * words` bytes of dynamic shared memory.
    ///
    /// **Expected**: the table keeps each group in its own bank, so any
    /// number of distinct words up to 32 is one conflict-free request. To be
    /// measured.
    ///
    /// # Safety
    /// `1 <= distinct <= 32`, `distinct <= words`; `links` holds `words`
    /// words, each below `words`; `4 * words` bytes of dynamic shared memory;
    /// `spans` holds `4 * gridDim.x` words, `sums` one per thread.
    pub unsafe fn constant_chase_shared(
        links: GlobalPtr<u32>,
        words: u32,
        distinct: u32,
        steps: u32,
        spans: GlobalMutPtr<u64>,
        sums: GlobalMutPtr<u32>,
    ) {
        let table = dynamic_shared_memory::<u32>();
        let mut word = thread_idx_x();
        while word < words {
            // SAFETY: word < words: inside `links` and the shared copy.
            unsafe { table.store(word as usize, links.load(word as isize)) };
            word += block_dim_x();
        }
        // timed_chase's first barrier publishes the copy.
        // SAFETY: every link is below `words` (caller's contract), so every read stays in the copy.
        unsafe { timed_chase(distinct, steps, spans, sums, |word| table.load(word as usize)) }
    }
}
