//! `W = M · V` for a `height × width` row-major matrix `M`: the seven
//! versions of NVIDIA's "OpenCL Programming for the CUDA Architecture"
//! whitepaper (Listings 2–7), in Rust, with the fixes its listings need on
//! today's hardware, and one step past them (`matvec_warp_per_row`).
//!
//! Every version: `m` holds `width * height` floats, `v` holds `width`, `w`
//! receives `height`; products are accumulated with FMA (as CUDA C compilers
//! contract `sum += a * b`). The block-based versions need
//! `block_threads * 4` bytes of dynamic shared memory.
//!
//! The kernel is bandwidth-bound: `M` is read once, so on any GPU the best
//! version should approach the copy ceiling for `width * height * 4` bytes.

mod block_serial_sum;
mod grid_stride_rows;
mod row_per_thread;
mod tree_interleaved;
mod tree_sequential;
mod warp_per_row;
mod warp_shuffle;

pub use block_serial_sum::matvec_block_serial_sum;
pub use grid_stride_rows::matvec_grid_stride_rows;
pub use row_per_thread::matvec_row_per_thread;
pub use tree_interleaved::matvec_tree_interleaved;
pub use tree_sequential::matvec_tree_sequential;
pub use warp_per_row::matvec_warp_per_row;
pub use warp_shuffle::matvec_warp_shuffle;

use crate::device::{GlobalPtr, block_dim_x, fma, thread_idx_x};

/// This thread's share of row `y`'s dot product: elements `x = tid, tid + blockDim, ...`
/// (coalesced: neighbouring threads read neighbouring elements).
///
/// # Safety
/// `m` holds at least `(y + 1) * width` floats and `v` at least `width`.
#[inline(always)]
pub(crate) unsafe fn strided_partial_dot(m: GlobalPtr<f32>, width: u32, y: u32, v: GlobalPtr<f32>) -> f32 {
    let row = y as isize * width as isize;
    let mut sum = 0.0f32;
    let mut x = thread_idx_x();
    while x < width {
        // SAFETY: x < width and y < height (caller), so both indices are in bounds.
        sum = unsafe { fma(m.load(row + x as isize), v.load(x as isize), sum) };
        x += block_dim_x();
    }
    sum
}
