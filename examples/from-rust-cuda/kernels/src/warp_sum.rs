use cuda_std::prelude::*;
use cuda_std::shared_array;
use cuda_std::warp;

/// `partial[b]` = the sum of block `b`'s `blockDim.x` elements of `input`
/// (past its end: zero), by warp shuffles: each warp adds its 32 values
/// with `shfl.sync.down` at offsets 16, 8, 4, 2, 1, lane 0 of each warp
/// leaves the warp's sum in a 32-slot `shared_array!`, and the first warp
/// adds those the same way.
///
/// Launch: `blockDim.x` a multiple of 32 up to 1024, `ceil(len / blockDim.x)`
/// blocks. The sums are added in a different order than [`block_sum`]'s.
///
/// # Safety
/// `partial` must hold `gridDim.x` elements; `blockDim.x` must be a multiple of 32.
#[kernel]
#[allow(improper_ctypes_definitions)]
pub unsafe fn warp_sum(input: &[f32], partial: *mut f32) {
    let warp_sums = shared_array![f32; 32];
    let i = thread::index_1d() as usize;
    let (lane, warp_id) = (thread::thread_idx_x() % 32, thread::thread_idx_x() / 32);
    let mut sum = if i < input.len() { input[i] } else { 0.0 };
    let mut offset = 16;
    while offset > 0 {
        sum += unsafe { warp::warp_shuffle_down(u32::MAX, sum, offset, 32).0 };
        offset /= 2;
    }
    if lane == 0 {
        unsafe { *warp_sums.add(warp_id as usize) = sum };
    }
    thread::sync_threads();
    if warp_id == 0 {
        let warps = thread::block_dim_x() / 32;
        let mut sum = if lane < warps {
            unsafe { *warp_sums.add(lane as usize) }
        } else {
            0.0
        };
        let mut offset = 16;
        while offset > 0 {
            sum += unsafe { warp::warp_shuffle_down(u32::MAX, sum, offset, 32).0 };
            offset /= 2;
        }
        if lane == 0 {
            unsafe { *partial.add(thread::block_idx_x() as usize) = sum };
        }
    }
}
