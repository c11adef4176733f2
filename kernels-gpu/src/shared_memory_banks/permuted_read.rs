use super::strided_read::timed_read_rounds;
use super::{PERMUTATION_MASK, ROUND_ACCESSES};
use crate::device::{GlobalMutPtr, WARP_SIZE, thread_idx_x};

/// The word of each 32-word row that lane `lane` reads in
/// [`bank_read_permuted`]: `(lane * multiplier) mod 32`, XOR
/// [`PERMUTATION_MASK`]. For an odd `multiplier` a permutation of the 32
/// words (a scrambled one for 13, say); an even one maps lanes together.
pub const fn permuted_lane_word(lane: u32, multiplier: u32) -> u32 {
    (lane.wrapping_mul(multiplier) % WARP_SIZE) ^ PERMUTATION_MASK
}

kernel! {
    /// Reads shared memory in 4-byte words, lane `l` of every warp at word
    /// [`permuted_lane_word`]`(l, multiplier) + 32 j`, `j < 32`, `rounds`
    /// times over: each request reads the 32 words of one 128-byte row in a
    /// scrambled order, the OpenCL guide's §3.1.2.5 "random permutation"
    /// (its Figure 3-5, right).
    ///
    /// **Indexing**: as `bank_read_b32` with the lane's first word from the
    /// permutation (checksums and spans the same).
    ///
    /// **Launch**: a 1-D grid of 1-D blocks, a multiple of 32 threads;
    /// `bank_shared_bytes(4)` of dynamic shared memory; any `multiplier`
    /// (odd for a permutation).
    ///
    /// **Expected**: a permutation puts the 32 lanes in 32 banks: as fast
    /// as stride 1, then and now (to be measured).
    ///
    /// # Safety
    /// `bank_shared_bytes(4)` of dynamic shared memory; `spans` holds
    /// `4 * gridDim.x` words and `checksums` `gridDim.x * blockDim.x`.
    pub unsafe fn bank_read_permuted(multiplier: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
        let start = permuted_lane_word(thread_idx_x() % WARP_SIZE, multiplier);
        // SAFETY: start < 32 and 31 + 32 * (ROUND_ACCESSES - 1) < BANK_TABLE_ELEMENTS; the rest forwarded.
        unsafe { timed_read_rounds::<u32, ROUND_ACCESSES>(start, rounds, spans, checksums) }
    }
}
