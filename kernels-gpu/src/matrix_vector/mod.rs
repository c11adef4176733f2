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

pub use block_serial_sum::{matvec_block_serial_sum, matvec_block_serial_sum_params};
pub use grid_stride_rows::{matvec_grid_stride_rows, matvec_grid_stride_rows_params};
pub use row_per_thread::{matvec_row_per_thread, matvec_row_per_thread_params};
pub use tree_interleaved::{matvec_tree_interleaved, matvec_tree_interleaved_params};
pub use tree_sequential::{matvec_tree_sequential, matvec_tree_sequential_params};
pub use warp_per_row::{
    MAX_WARPS_PER_ROW, MIN_WARP_PIECE_FLOAT4S, block_row_parts, matvec_warp_per_row, matvec_warp_per_row_params,
    warp_per_row_block, warps_per_row,
};
pub use warp_shuffle::{matvec_warp_shuffle, matvec_warp_shuffle_params};

use crate::device::{GlobalPtr, block_dim_x, fma, thread_idx_x};

/// Elements read per step of `row_dot`: 8 `f32`s, one 32-byte sector when
/// the row is 32-byte aligned.
pub const ROW_DOT_CHUNK: u32 = 8;

/// The whole dot product of row `y` with `v`, by one thread (Listings 2 and 3).
///
/// The loop reads [`ROW_DOT_CHUNK`] elements of the row and of `v` first, then
/// adds their products in column order. The result is bit-identical to the
/// plain `for x in 0..width { dot = fma(m[row + x], v[x], dot) }` (same FMAs,
/// same order); only the schedule differs. Written plainly, each compiler
/// unrolls and pipelines the loop its own way: rustc unrolled it ×8 with loads
/// and FMAs interleaved and ptxas pipelined that with about 7 elements of
/// look-ahead, which at 12800 × 8192 on an H100 (50 blocks for 132 SMs, so
/// latency-bound) ran at 0.936 of nvcc's build of the same loop. Written in
/// chunks (`x + 8 <= width`, a trip count LLVM does not unroll further), rustc
/// and nvcc both give ptxas one chunk per iteration; the CUDA C twin uses the
/// same chunks. Listing 2 then ran at 1.001-1.004 of its twin on both shapes
/// (H100). In Listing 3, ptxas issues only 11 of nvcc's 16 loads before the
/// first FMA (16 of rustc's), and the Rust build ran 1.05-1.14x faster.
///
/// # Safety
/// `m` holds at least `(y + 1) * width` floats and `v` at least `width`.
#[inline(always)]
pub(crate) unsafe fn row_dot(m: GlobalPtr<f32>, width: u32, y: u32, v: GlobalPtr<f32>) -> f32 {
    const CHUNK: usize = ROW_DOT_CHUNK as usize;
    let row = y as isize * width as isize;
    let mut dot = 0.0f32;
    let mut x = 0u32;
    while x + ROW_DOT_CHUNK <= width {
        let mut row_part = [0.0f32; CHUNK];
        let mut v_part = [0.0f32; CHUNK];
        for k in 0..CHUNK {
            let column = (x + k as u32) as isize;
            // SAFETY: column < x + CHUNK <= width and y < height (caller).
            unsafe {
                row_part[k] = m.load(row + column);
                v_part[k] = v.load(column);
            }
        }
        for k in 0..CHUNK {
            dot = fma(row_part[k], v_part[k], dot);
        }
        x += ROW_DOT_CHUNK;
    }
    while x < width {
        // SAFETY: x < width and y < height (caller).
        dot = unsafe { fma(m.load(row + x as isize), v.load(x as isize), dot) };
        x += 1;
    }
    dot
}

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
