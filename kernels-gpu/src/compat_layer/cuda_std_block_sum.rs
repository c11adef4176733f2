use cuda_std::prelude::*;
use cuda_std::shared_array;

use super::TILE;

/// `partial[b]` = the sum of block `b`'s 256 elements of `input` (elements
/// past its end count as 0): a tree reduction in a `shared_array!` tile,
/// halving the active threads at each step with a barrier between steps
/// (strides 128, 64, …, 1), as a Rust-CUDA project writes it.
///
/// **Demonstrates** `cuda_std`'s shared memory (a module-scope `.shared`
/// array, 1 KiB, reached with `ld.shared`/`st.shared`) and its slice
/// parameter against [`ptx_device_block_sum`](super::ptx_device_block_sum),
/// the same tree over `ptx-device`'s dynamic shared memory.
///
/// **Indexing**: thread `t` of block `b` loads element `b · 256 + t`
/// (`thread::index_1d`); thread 0 writes the block's sum. The additions
/// happen in a fixed order, so the host reproduces every sum bit for bit.
///
/// **Launch**: 1-D blocks of exactly 256 threads, `ceil(n / 256)` blocks,
/// no dynamic shared memory; parameters in `cust::launch!` order: `input`
/// pointer, `input` length, `partial` pointer (`launchers::cuda_std_block_sum`).
///
/// **Expected**: close to DRAM bandwidth (4 bytes read per element, 4
/// written per block) where enough blocks are resident to hide the eight
/// barriers; no counterpart in the documents.
///
/// # Safety
/// `blockDim.x` must be 256; `input` must be the (pointer, length) of a live
/// device allocation and `partial` must hold `gridDim.x` `f32`s.
#[kernel]
pub unsafe fn cuda_std_block_sum(input: &[f32], partial: *mut f32) {
    let tile = shared_array![f32; TILE];
    let t = thread::thread_idx_x() as usize;
    let i = thread::index_1d() as usize;
    // SAFETY: t < 256 = the tile's length (blockDim.x is 256).
    unsafe { *tile.add(t) = if i < input.len() { input[i] } else { 0.0 } };
    thread::sync_threads();
    let mut stride = TILE / 2;
    while stride > 0 {
        if t < stride {
            // SAFETY: t + stride < 256; the barrier below orders these writes before the next step's reads.
            unsafe { *tile.add(t) += *tile.add(t + stride) };
        }
        thread::sync_threads();
        stride /= 2;
    }
    if t == 0 {
        // SAFETY: partial holds gridDim.x elements; the tile's element 0 was written before the last barrier.
        unsafe { *partial.add(thread::block_idx_x() as usize) = *tile };
    }
}
