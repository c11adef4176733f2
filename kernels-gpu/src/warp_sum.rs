//! The sum over a warp's 32 lanes in registers, shared by the kernels that
//! finish a reduction with shuffles (matrix-vector, the array sum).

use crate::device::{WARP_SIZE, shfl_down_sync};

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
