//! Shared-memory bank conflicts: the Best Practices Guide's §3.2.2.1 and the
//! OpenCL guide's §3.1.2.5.
//!
//! Shared memory is 32 banks of 4-byte words (16 banks on the guides' cc 1.x
//! GPUs); a warp's request that puts several distinct words in one bank is
//! split into that many conflict-free passes, and lanes reading one word
//! share it (broadcast). The kernels here make every warp of a block issue
//! the same lane pattern many times, so the block's elapsed SM cycles
//! (`clock64`) grow with the number of passes each request needs
//! (`reference::conflict_degree` on the host predicts it).
//!
//! **The table**: `BANK_TABLE_ELEMENTS` elements of 4, 8 or 16 bytes at the
//! start of the dynamic shared memory, word `i` of element `e` holding
//! [`bank_word`]`(e, i, 0)`; one more element past it holds the write
//! kernels' zero "salt". Every block fills it before timing.
//!
//! **Lane pattern**: lane `l` (of every warp) starts at element `l * stride`
//! and a round makes `ROUND_ACCESSES` accesses, 32 elements apart (a
//! multiple of 128 bytes, so each access sees the banks as the first does).
//! Stride 0 is the broadcast (every lane one element). The tile-column
//! kernel instead reads columns `0..32` of a `[32][pitch]` tile, row = lane.
//!
//! **The OpenCL guide's other cases** (§3.1.2.5), same outputs and launch:
//! 1- and 2-byte elements (`bank_read_b8/b16`, their own table of
//! `NARROW_TABLE_BYTES`), structs read member by member
//! (`bank_read_struct2/3`), 64-bit values split into two arrays of 32-bit
//! halves (`bank_read_split_b64`) and a scrambled permutation of each row's
//! 32 words (`bank_read_permuted`).
//!
//! **Keeping the accesses**: a round's 32 loads are independent (they
//! overlap, as throughput needs), but the next round's addresses come from
//! the value its first load returned (each element links to itself), so the
//! compiler can neither hoist nor merge rounds. Write rounds add a salt read
//! from shared memory (zero, which the compiler cannot know) to their base:
//! one load of the element's width a round besides the 32 stores. It goes
//! through the table's own `SharedPtr<T>`: a `dynamic_shared_memory::<u32>()`
//! view is another PTX symbol, which LLVM takes for memory the stores cannot
//! touch, and it hoisted the load out of the loop.
//!
//! **Launch**: a 1-D grid of 1-D blocks whose size is a multiple of 32 (at
//! most 1024); [`bank_shared_bytes`] of dynamic shared memory. Thread 0 of
//! each block writes the block's span between the barriers around the timed
//! rounds ([`crate::block_span`]: start and end cycles, SM, nanoseconds); the
//! host turns the spans of the blocks that shared an SM into that SM's time
//! per warp request and checks it against the events' time.

mod bank_element;
mod narrow_read;
mod permuted_read;
mod split_read;
mod strided_read;
mod strided_write;
mod struct_read;
mod tile_column_read;

pub use bank_element::{BankElement, bank_word};
pub use narrow_read::{NarrowElement, bank_read_b8, bank_read_b8_params, bank_read_b16, bank_read_b16_params};
pub use permuted_read::{bank_read_permuted, bank_read_permuted_params, permuted_lane_word};
pub use split_read::{bank_read_split_b64, bank_read_split_b64_params};
pub use strided_read::{
    bank_read_b32, bank_read_b32_params, bank_read_b64, bank_read_b64_params, bank_read_b128, bank_read_b128_params,
};
pub use strided_write::{
    WRITTEN_MARK, bank_write_b32, bank_write_b32_params, bank_write_b64, bank_write_b64_params, bank_write_b128,
    bank_write_b128_params,
};
pub use struct_read::{bank_read_struct2, bank_read_struct2_params, bank_read_struct3, bank_read_struct3_params};
pub use tile_column_read::{bank_tile_column_read, bank_tile_column_read_params};

use crate::device::{SharedPtr, block_dim_x, sync_threads, thread_idx_x};

/// Elements in the shared table (2048: room for stride 33 over 32 rounds' accesses).
pub const BANK_TABLE_ELEMENTS: u32 = 2048;

/// Accesses per lane per round, 32 elements apart.
pub const ROUND_ACCESSES: u32 = 32;

/// Bytes of the narrow reads' table (`bank_read_b8`, `bank_read_b16`): their
/// dynamic shared memory. 8 KiB: room for stride 8 over 32 accesses 128 bytes apart.
pub const NARROW_TABLE_BYTES: u32 = 4 * BANK_TABLE_ELEMENTS;

/// Struct reads per lane per round in `bank_read_struct2/3` (each one load a
/// member): 16, so that 32 three-word structs apart stay inside the table.
pub const STRUCT_ROUND_ACCESSES: u32 = 16;

/// Words of each half-array of `bank_read_split_b64` (the table's first and second halves).
pub const SPLIT_HALF_WORDS: u32 = BANK_TABLE_ELEMENTS / 2;

/// What [`permuted_lane_word`] XORs the lane's word with (a fixed scramble).
pub const PERMUTATION_MASK: u32 = 21;

/// Bytes of dynamic shared memory the bank kernels need for elements of
/// `element_bytes`: the table and the salt element past it.
pub const fn bank_shared_bytes(element_bytes: usize) -> usize {
    (BANK_TABLE_ELEMENTS as usize + 1) * element_bytes
}

/// Fills the table (elements `thread, thread + blockDim, ...`) with the
/// round-0 pattern, and the salt element with zeros, then waits for the block.
///
/// # Safety
/// The launch has `bank_shared_bytes(size_of::<T>())` of dynamic shared memory.
#[inline(always)]
pub(crate) unsafe fn fill_bank_table<T: BankElement>(table: SharedPtr<T>) {
    let mut element = thread_idx_x();
    while element < BANK_TABLE_ELEMENTS {
        // SAFETY: element < BANK_TABLE_ELEMENTS, inside the launch's shared memory.
        unsafe { table.store(element as usize, T::pattern(element, 0)) };
        element += block_dim_x();
    }
    if thread_idx_x() == 0 {
        // SAFETY: the salt element is the last of bank_shared_bytes.
        unsafe { table.store(BANK_TABLE_ELEMENTS as usize, T::ZERO) };
    }
    sync_threads();
}
