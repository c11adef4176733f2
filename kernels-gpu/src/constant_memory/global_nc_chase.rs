use super::timed_chase;
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// Walks the same table in global memory through the read-only data
    /// cache: each step one `ld.global.nc` (`__ldg`) whose address is the
    /// previous step's value.
    ///
    /// **Indexing, launch, outputs**: as `constant_chase`.
    ///
    /// **Expected**: a warp's distinct addresses within one 128-byte line cost
    /// one request, so no growth with `distinct` beyond the extra sectors
    /// (the guides' cc 1.x had no such cache for global memory). To be measured.
    ///
    /// # Safety
    /// `1 <= distinct <= 32`; `links` holds every word reachable from words
    /// `0..distinct` and is not written during the launch; `spans` holds
    /// `4 * gridDim.x` words, `sums` one per thread.
    pub unsafe fn constant_chase_global_nc(
        links: GlobalPtr<u32>,
        distinct: u32,
        steps: u32,
        spans: GlobalMutPtr<u64>,
        sums: GlobalMutPtr<u32>,
    ) {
        // SAFETY: forwarded contract: every reachable word is inside `links`.
        unsafe { timed_chase(distinct, steps, spans, sums, |word| links.load_read_only(word as isize)) }
    }
}
