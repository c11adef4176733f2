//! The cost of the Rust-CUDA compatibility layer: two algorithms written
//! twice, once as a Rust-CUDA project writes them against `cuda_std`
//! (`crates/cuda-std`: `#[kernel]`, slices passed as pointer and length,
//! `thread::index_1d`, `shared_array!`) and once as the rest of this crate
//! is written, against `ptx-device`'s `kernel!` (raw global pointers and an
//! explicit count, dynamic shared memory). Same indexing, same launch shape,
//! same order of additions: the `cuda-std` experiment measures each pair on
//! the same buffers, so any gap is the layer's.
//!
//! Launch shape of all four: 1-D blocks of [`COMPAT_BLOCK_THREADS`] threads,
//! one element per thread, `ceil(n / 256)` blocks.

mod cuda_std_block_sum;
mod cuda_std_vecadd;
mod ptx_device_block_sum;
mod ptx_device_vecadd;

pub use cuda_std_block_sum::cuda_std_block_sum;
pub use cuda_std_vecadd::cuda_std_vecadd;
pub use ptx_device_block_sum::{ptx_device_block_sum, ptx_device_block_sum_params};
pub use ptx_device_vecadd::{ptx_device_vecadd, ptx_device_vecadd_params};

/// Threads per block of the four kernels: the size of the block sums' tile
/// (a power of two, for their halving tree).
pub const COMPAT_BLOCK_THREADS: u32 = 256;

/// [`COMPAT_BLOCK_THREADS`] as the `usize` a `shared_array!` length is.
const TILE: usize = COMPAT_BLOCK_THREADS as usize;
