use super::strided_read::{lane_start, timed_read_rounds};
use crate::device::GlobalMutPtr;

kernel! {
    /// Reads the columns of a `[32][pitch]` tile of 4-byte words: lane `l`
    /// reads row `l`, columns `0..32`, `rounds` times over. This is how the
    /// guide's `C = AAᵀ` kernel reads its transposed tile (§3.2.2.3): with
    /// `pitch = 32` a column lies in one bank (32-way conflicts), with the
    /// padded `pitch = 33` in 32 different banks.
    ///
    /// **Indexing**: element `l * pitch + c` for column `c`; outputs as
    /// `bank_read_b32` (per-thread checksums, per-block spans).
    ///
    /// **Launch**: see the module docs; `pitch <= 64`;
    /// `bank_shared_bytes(4)` of dynamic shared memory.
    ///
    /// **Expected**: pitch 32 about as slow as `bank_read_b32` at stride 32,
    /// pitch 33 as fast as stride 1 (to be measured).
    ///
    /// # Safety
    /// As `bank_read_b32`, with `pitch <= 64` in place of the stride bound.
    pub unsafe fn bank_tile_column_read(pitch: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
        // SAFETY: forwarded contract (31 * 64 + 31 < BANK_TABLE_ELEMENTS).
        unsafe { timed_read_rounds::<u32, 1>(lane_start(pitch), rounds, spans, checksums) }
    }
}
