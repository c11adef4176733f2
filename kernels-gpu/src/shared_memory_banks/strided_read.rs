use super::{BankElement, ROUND_ACCESSES, fill_bank_table};
use crate::block_span::{SpanStart, record_block_span, span_start};
use crate::device::{
    F32x4, GlobalMutPtr, WARP_SIZE, block_dim_x, block_idx_x, dynamic_shared_memory, sync_threads, thread_idx_x,
};

/// The read kernels' body, for elements of `T`, with `STEP` elements between
/// a round's accesses (32: the strided reads; 1: the tile column), the lane
/// starting at element `start` (`lane * stride` for the strided reads).
///
/// # Safety
/// The launch has `bank_shared_bytes(size_of::<T>())` of dynamic shared
/// memory; `start + STEP * (ROUND_ACCESSES - 1) < BANK_TABLE_ELEMENTS`;
/// `spans` holds `BLOCK_SPAN_WORDS` words per block and `checksums` one per thread of a 1-D grid.
#[inline(always)]
pub(crate) unsafe fn timed_read_rounds<T: BankElement, const STEP: u32>(
    start_element: u32,
    rounds: u32,
    spans: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    let table = dynamic_shared_memory::<T>();
    // SAFETY: the launch has the table's shared memory (caller's contract).
    unsafe { fill_bank_table(table) };
    let mut base = start_element;
    let mut sum = 0u32;
    let start = span_start();
    for _ in 0..rounds {
        // One base address a round; the accesses are constant offsets from it.
        let lane_elements = table.offset_elems(base as usize);
        // SAFETY (all loads): base == start_element and base + STEP * 31 < BANK_TABLE_ELEMENTS (caller's contract).
        let first = unsafe { lane_elements.load(0) };
        sum = sum.wrapping_add(first.word_sum());
        for access in 1..ROUND_ACCESSES {
            // SAFETY: as above.
            let element = unsafe { lane_elements.load((STEP * access) as usize) };
            sum = sum.wrapping_add(element.word_sum());
        }
        // Each element links to itself: the next round starts where this one did.
        base = first.first_word();
    }
    // SAFETY: forwarded contract.
    unsafe { finish_read_rounds(start, sum, spans, checksums) };
}

/// The end of every read kernel: waits for the block, records its span and
/// stores the thread's checksum.
///
/// # Safety
/// `spans` holds `BLOCK_SPAN_WORDS` words per block and `checksums` one per thread of a 1-D grid.
#[inline(always)]
pub(crate) unsafe fn finish_read_rounds(
    start: SpanStart,
    sum: u32,
    spans: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    sync_threads();
    // SAFETY: BLOCK_SPAN_WORDS words per block (caller's contract).
    unsafe { record_block_span(spans, start) };
    let thread = block_idx_x() * block_dim_x() + thread_idx_x();
    // SAFETY: one checksum per thread (caller's contract).
    unsafe { checksums.store(thread as isize, sum) };
}

/// Lane `threadIdx.x % 32`'s first element at `stride` elements a lane.
#[inline(always)]
pub(crate) fn lane_start(stride: u32) -> u32 {
    thread_idx_x() % WARP_SIZE * stride
}

macro_rules! strided_read_kernel {
    ($name:ident, $elem:ty, $width:literal, $vector:literal) => {
        kernel! {
            #[doc = concat!("Reads shared memory in ", $width, "-byte elements (", $vector, "), lane `l` of every warp")]
            /// at elements `l * stride + 32 * j`, `j < 32`, `rounds` times over
            /// (the module docs say how the rounds are kept): the guide's
            /// `shared[base + s * tid]` with a word stride of `stride` for
            /// 4-byte elements, and the OpenCL guide's 8- and 16-byte cases.
            ///
            /// **Indexing**: the lane (`threadIdx.x % 32`) alone picks the
            /// elements; every warp repeats the pattern. Thread `t` of the
            /// grid writes its wrapping sum of every word it read to
            /// `checksums[t]`; thread 0 of block `b` the block's span over
            /// the rounds (`crate::block_span`) to `spans[4b..4b + 4]`.
            ///
            /// **Launch**: see the module docs; `stride <= 33`.
            ///
            /// **Expected**: cycles proportional to the passes a warp request
            /// needs: `reference::conflict_degree` (the guides: an `n`-way
            /// conflict costs `n` times; cc 1.x served a half-warp per pass).
            /// Today's figures to be measured.
            ///
            /// # Safety
            /// `stride <= 33`; `bank_shared_bytes(size)` of dynamic shared
            /// memory; `spans` holds `4 * gridDim.x` words and `checksums`
            /// `gridDim.x * blockDim.x`.
            pub unsafe fn $name(stride: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
                // SAFETY: forwarded contract (31 * 33 + 32 * 31 < BANK_TABLE_ELEMENTS).
                unsafe { timed_read_rounds::<$elem, ROUND_ACCESSES>(lane_start(stride), rounds, spans, checksums) }
            }
        }
    };
}

strided_read_kernel!(bank_read_b32, u32, "4", "`ld.shared.b32`");
strided_read_kernel!(bank_read_b64, u64, "8", "`ld.shared.b64`");
strided_read_kernel!(bank_read_b128, F32x4, "16", "`ld.shared.v4.b32`");
