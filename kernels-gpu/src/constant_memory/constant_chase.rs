use super::timed_chase;
use crate::device::{GlobalMutPtr, constant_word};

kernel! {
    /// Walks the table in the module's `__constant__` array (see the module
    /// docs): each step is one `ld.const` (SASS `LDC`) whose address is the
    /// previous step's value.
    ///
    /// **Indexing**: lane `l` of every warp starts at word `l % distinct`.
    /// **Launch**: see the module docs. **Outputs**: `sums[thread]`,
    /// `spans[4 block..]` (`crate::block_span`).
    ///
    /// **Expected**: the guides: one address per warp as fast as a register,
    /// cost linear in the distinct addresses (cc 1.x counted them per
    /// half-warp). Today's figures to be measured.
    ///
    /// # Safety
    /// `1 <= distinct <= 32`; every word of the constant array reachable from
    /// words `0..distinct` is below `CONSTANT_WORDS` (the host uploads only
    /// such tables); `spans` holds `4 * gridDim.x` words, `sums` one per thread.
    pub unsafe fn constant_chase(distinct: u32, steps: u32, spans: GlobalMutPtr<u64>, sums: GlobalMutPtr<u32>) {
        // SAFETY: forwarded contract: every reachable word is inside the constant array.
        unsafe { timed_chase(distinct, steps, spans, sums, |word| constant_word(word)) }
    }
}
