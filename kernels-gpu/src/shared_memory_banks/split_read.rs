use super::strided_read::{finish_read_rounds, lane_start};
use super::{ROUND_ACCESSES, SPLIT_HALF_WORDS, fill_bank_table};
use crate::block_span::span_start;
use crate::device::{GlobalMutPtr, dynamic_shared_memory};

kernel! {
    /// Reads 64-bit values stored as two 32-bit halves in two arrays, the
    /// OpenCL guide's §3.1.2.5 way around the 2-way conflict of a `double`
    /// array (`shared_lo[base + tid]`, `shared_hi[base + tid]`): lane `l`
    /// reads `lo[l * stride + 32 j]` and `hi[l * stride + 32 j]`, `j < 32`,
    /// `rounds` times over: two `ld.shared.b32` per value where
    /// `bank_read_b64` makes one `ld.shared.b64`.
    ///
    /// **Indexing**: `lo` is words `0..SPLIT_HALF_WORDS` of the table, `hi`
    /// the next `SPLIT_HALF_WORDS`; every word holds its own index, and the
    /// next round's base is the first `lo` word read. Checksums (the
    /// wrapping sum of both halves of every value a thread read) and spans
    /// as `bank_read_b32`.
    ///
    /// **Launch**: a 1-D grid of 1-D blocks, a multiple of 32 threads;
    /// `bank_shared_bytes(4)` of dynamic shared memory; `stride <= 1`.
    ///
    /// **Expected**: the guide: it may not help, and will do worse on
    /// later GPUs. Today a warp's 64-bit load takes two passes and the two
    /// 32-bit loads one each: the same time per value (to be measured).
    ///
    /// # Safety
    /// `stride <= 1`; `bank_shared_bytes(4)` of dynamic shared memory;
    /// `spans` holds `4 * gridDim.x` words and `checksums` `gridDim.x * blockDim.x`.
    pub unsafe fn bank_read_split_b64(stride: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
        let table = dynamic_shared_memory::<u32>();
        // SAFETY: the launch has the table's shared memory (caller's contract).
        unsafe { fill_bank_table(table) };
        let mut base = lane_start(stride);
        let mut sum = 0u32;
        let start = span_start();
        for _ in 0..rounds {
            let lo = table.offset_elems(base as usize);
            let hi = lo.offset_elems(SPLIT_HALF_WORDS as usize);
            // SAFETY (all loads): base <= 31 and 31 + 32 * 31 < SPLIT_HALF_WORDS: inside lo and hi.
            let first = unsafe { lo.load(0) };
            sum = sum.wrapping_add(first).wrapping_add(unsafe { hi.load(0) });
            for access in 1..ROUND_ACCESSES {
                let at = (32 * access) as usize;
                // SAFETY: as above.
                sum = sum.wrapping_add(unsafe { lo.load(at) }).wrapping_add(unsafe { hi.load(at) });
            }
            base = first;
        }
        // SAFETY: forwarded contract.
        unsafe { finish_read_rounds(start, sum, spans, checksums) };
    }
}
