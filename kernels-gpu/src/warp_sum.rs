//! Sums in registers with shuffles, shared by the kernels that finish a
//! reduction that way (matrix-vector, the array sum): over a warp's 32 lanes,
//! and over a block's warps.

use crate::device::{SharedPtr, WARP_SIZE, block_dim_x, shfl_down_sync, sync_threads, thread_idx_x};

/// Sum over the 32 lanes of a warp with `shfl.sync.down` (five steps, no
/// shared memory, no barrier); lane 0 holds the total. Every lane of the warp
/// must call it (full mask).
#[inline(always)]
pub fn warp_sum(mut value: f32) -> f32 {
    let mut offset = WARP_SIZE / 2;
    while offset > 0 {
        value += shfl_down_sync(value, offset);
        offset /= 2;
    }
    value
}

/// Sum over a block: each warp's [`warp_sum`], lane 0 of each writes it to
/// `warp_sums[warp]`, one barrier, and the first warp sums those. Thread 0
/// gets `Some(total)`, every other thread `None`. Every thread of the block
/// must call it. The caller owns a barrier before `warp_sums` is written again.
///
/// # Safety
/// `blockDim.x` is a multiple of 32, at most 1024, and `warp_sums` holds at
/// least `blockDim.x / 32` floats.
#[inline(always)]
pub unsafe fn block_sum(value: f32, warp_sums: SharedPtr<f32>) -> Option<f32> {
    let tid = thread_idx_x();
    let (warp, lane) = ((tid / WARP_SIZE) as usize, tid % WARP_SIZE);
    let warps = block_dim_x() / WARP_SIZE;
    let sum = warp_sum(value);
    // SAFETY: warp < blockDim.x / 32 <= the length of warp_sums.
    unsafe {
        if lane == 0 {
            warp_sums.store(warp, sum);
        }
        sync_threads();
        if warp != 0 {
            return None;
        }
        let first = if tid < warps { warp_sums.load(tid as usize) } else { 0.0 };
        let total = warp_sum(first);
        (tid == 0).then_some(total)
    }
}
