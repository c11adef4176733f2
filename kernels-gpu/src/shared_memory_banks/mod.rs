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
mod strided_read;
mod strided_write;
mod tile_column_read;

pub use bank_element::{BankElement, bank_word};
pub use strided_read::{
    bank_read_b32, bank_read_b32_params, bank_read_b64, bank_read_b64_params, bank_read_b128, bank_read_b128_params,
};
pub use strided_write::{
    WRITTEN_MARK, bank_write_b32, bank_write_b32_params, bank_write_b64, bank_write_b64_params, bank_write_b128,
    bank_write_b128_params,
};
pub use tile_column_read::{bank_tile_column_read, bank_tile_column_read_params};

use crate::device::{SharedPtr, block_dim_x, sync_threads, thread_idx_x};

/// Elements in the shared table (2048: room for stride 33 over 32 rounds' accesses).
pub const BANK_TABLE_ELEMENTS: u32 = 2048;

/// Accesses per lane per round, 32 elements apart.
pub const ROUND_ACCESSES: u32 = 32;

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
