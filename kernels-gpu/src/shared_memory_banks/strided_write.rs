use super::{BANK_TABLE_ELEMENTS, BankElement, ROUND_ACCESSES, fill_bank_table};
use crate::device::{
    F32x4, GlobalMutPtr, WARP_SIZE, block_idx_x, clock64, dynamic_shared_memory, sync_threads, thread_idx_x,
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
    cycles: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    let table = dynamic_shared_memory::<T>();
    // SAFETY: the launch has the table's shared memory (caller's contract).
    unsafe { fill_bank_table(table) };
    let mut base = thread_idx_x() % WARP_SIZE * stride;
    let start = clock64();
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
    let end = clock64();
    if thread_idx_x() == 0 {
        // Untimed: the block's checksum is the wrapping sum of every table word.
        let mut sum = 0u32;
        for element in 0..BANK_TABLE_ELEMENTS {
            // SAFETY: element < BANK_TABLE_ELEMENTS.
            sum = sum.wrapping_add(unsafe { table.load(element as usize) }.word_sum());
        }
        // SAFETY: one cycle count and one checksum per block (caller's contract).
        unsafe {
            cycles.store(block_idx_x() as isize, end - start);
            checksums.store(block_idx_x() as isize, sum);
        }
    }
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
            /// the block's SM cycles over the rounds to `cycles[b]` and the
            /// wrapping sum of the whole table's words afterwards to
            /// `checksums[b]` (which elements were written, and with what).
            ///
            /// **Launch**: see the module docs; `stride <= 33`.
            ///
            /// **Expected**: as the reads: cycles proportional to
            /// `reference::conflict_degree` of the lane addresses. To be measured.
            ///
            /// # Safety
            /// `stride <= 33`; `bank_shared_bytes(size)` of dynamic shared
            /// memory; `cycles` and `checksums` hold `gridDim.x` words each.
            pub unsafe fn $name(stride: u32, rounds: u32, cycles: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
                // SAFETY: forwarded contract.
                unsafe { timed_write_rounds::<$elem>(stride, rounds, cycles, checksums) }
            }
        }
    };
}

strided_write_kernel!(bank_write_b32, u32, "4", "`st.shared.b32`");
strided_write_kernel!(bank_write_b64, u64, "8", "`st.shared.b64`");
strided_write_kernel!(bank_write_b128, F32x4, "16", "`st.shared.v4.b32`");
