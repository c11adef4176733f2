use cuda_std::prelude::*;
use cuda_std::shared_array;

/// Threads per block of [`block_sum`]: the size of its shared array.
pub const BLOCK_SUM_THREADS: usize = 256;

/// `partial[b]` = the sum of block `b`'s `BLOCK_SUM_THREADS` elements of
/// `input` (those past its end count as zero): a tree reduction in a
/// `shared_array!`, halving the active threads at every step with a barrier
/// between steps.
///
/// Launch: blocks of exactly `BLOCK_SUM_THREADS` threads, `ceil(len / 256)`
/// blocks, no dynamic shared memory (the array is static: 1 KiB of `.shared`).
///
/// # Safety
/// `partial` must hold `gridDim.x` elements; `blockDim.x` must be `BLOCK_SUM_THREADS`.
#[kernel]
#[allow(improper_ctypes_definitions)]
pub unsafe fn block_sum(input: &[f32], partial: *mut f32) {
    let tile = shared_array![f32; BLOCK_SUM_THREADS];
    let t = thread::thread_idx_x() as usize;
    let i = thread::index_1d() as usize;
    unsafe { *tile.add(t) = if i < input.len() { input[i] } else { 0.0 } };
    thread::sync_threads();
    let mut stride = BLOCK_SUM_THREADS / 2;
    while stride > 0 {
        if t < stride {
            unsafe { *tile.add(t) += *tile.add(t + stride) };
        }
        thread::sync_threads();
        stride /= 2;
    }
    if t == 0 {
        unsafe { *partial.add(thread::block_idx_x() as usize) = *tile };
    }
}
