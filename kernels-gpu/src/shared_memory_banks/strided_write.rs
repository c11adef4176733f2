use super::{BANK_TABLE_ELEMENTS, BankElement, ROUND_ACCESSES, fill_bank_table};
use crate::block_span::{record_block_span, span_start};
use crate::device::{
    F32x4, GlobalMutPtr, WARP_SIZE, block_dim_x, block_idx_x, dynamic_shared_memory, sync_threads, thread_idx_x,
};

/// The element field of the words the write kernels store: no table element
/// has it, so the table's sum tells written elements from untouched ones.
pub const WRITTEN_MARK: u32 = BANK_TABLE_ELEMENTS;

/// The write kernels' body for elements of `T`.
///
/// # Safety
/// As the kernels below.
#[inline(always)]
unsafe fn timed_write_rounds<T: BankElement>(
    stride: u32,
    rounds: u32,
    spans: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    let table = dynamic_shared_memory::<T>();
    // SAFETY: the launch has the table's shared memory (caller's contract).
    unsafe { fill_bank_table(table) };
    let mut base = thread_idx_x() % WARP_SIZE * stride;
    let start = span_start();
    for round in 0..rounds {
        // The same value for every element of a round: no arithmetic between the stores.
        let value = T::pattern(WRITTEN_MARK, round);
        let lane_elements = table.offset_elems(base as usize);
        for access in 0..ROUND_ACCESSES {
            // SAFETY: base + 32 * access <= 31 * 33 + 32 * 31 < BANK_TABLE_ELEMENTS (caller's contract).
            unsafe { lane_elements.store((ROUND_ACCESSES * access) as usize, value) };
        }
        // SAFETY: the salt element, filled with zeros, lies past the table.
        let salt = unsafe { table.load(BANK_TABLE_ELEMENTS as usize) };
        base += salt.first_word();
    }
    sync_threads();
    // SAFETY: BLOCK_SPAN_WORDS words per block (caller's contract).
    unsafe { record_block_span(spans, start) };
    // After the span: each thread sums its share of the table (elements
    // thread, thread + blockDim, ...); the block's shares add up to the
    // wrapping sum of every table word, which the host checks.
    let mut sum = 0u32;
    let mut element = thread_idx_x();
    while element < BANK_TABLE_ELEMENTS {
        // SAFETY: element < BANK_TABLE_ELEMENTS.
        sum = sum.wrapping_add(unsafe { table.load(element as usize) }.word_sum());
        element += block_dim_x();
    }
    let thread = block_idx_x() * block_dim_x() + thread_idx_x();
    // SAFETY: one checksum per thread (caller's contract).
    unsafe { checksums.store(thread as isize, sum) };
}

macro_rules! strided_write_kernel {
    ($name:ident, $elem:ty, $width:literal, $vector:literal) => {
        kernel! {
            #[doc = concat!("Writes shared memory in ", $width, "-byte elements (", $vector, "), lane `l` of every warp")]
            /// at elements `l * stride + 32 * j`, `j < 32`, `rounds` times over:
            /// the store side of `bank_read_*`. A round stores one value
            /// (`pattern(WRITTEN_MARK, round)`) everywhere, so lanes that
            /// collide on an element write the same thing.
            ///
            /// **Indexing**: as `bank_read_*`. Thread 0 of block `b` writes
            /// the block's span over the rounds (`crate::block_span`) to
            /// `spans[4b..4b + 4]`; afterwards thread `t` of the grid writes
            /// the wrapping sum of its share of the table's words (elements
            /// `t % blockDim.x + k * blockDim.x`) to `checksums[t]`: a
            /// block's shares add up to the whole table's sum (which
            /// elements were written, and with what).
            ///
            /// **Launch**: see the module docs; `stride <= 33`.
            ///
            /// **Expected**: as the reads: cycles proportional to
            /// `reference::conflict_degree` of the lane addresses. To be measured.
            ///
            /// # Safety
            /// `stride <= 33`; `bank_shared_bytes(size)` of dynamic shared
            /// memory; `spans` holds `4 * gridDim.x` words and `checksums`
            /// `gridDim.x * blockDim.x`.
            pub unsafe fn $name(stride: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
                // SAFETY: forwarded contract.
                unsafe { timed_write_rounds::<$elem>(stride, rounds, spans, checksums) }
            }
        }
    };
}

strided_write_kernel!(bank_write_b32, u32, "4", "`st.shared.b32`");
strided_write_kernel!(bank_write_b64, u64, "8", "`st.shared.b64`");
strided_write_kernel!(bank_write_b128, F32x4, "16", "`st.shared.v4.b32`");
