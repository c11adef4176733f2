//! The sum of an `f32` array (NVIDIA's CUDA samples' `reduction`): two
//! kernels that each write one partial sum per block, which the host adds.
//!
//! Both read the array once, so on any GPU the better of them should approach
//! the copy ceiling for `n * 4` bytes read. Both need `blockDim.x * 4` bytes of
//! dynamic shared memory and a power-of-two `blockDim.x` that is a multiple
//! of 32 (the suite launches [`REDUCTION_BLOCK_THREADS`]).

mod block_tree;
mod grid_stride_shuffle;

pub use block_tree::{reduce_block_tree, reduce_block_tree_params};
pub use grid_stride_shuffle::{reduce_grid_stride_shuffle, reduce_grid_stride_shuffle_params};

/// Threads per block of both kernels: a power of two, a multiple of 32.
pub const REDUCTION_BLOCK_THREADS: u32 = 256;

/// Elements each thread of [`reduce_block_tree`] adds while loading (the
/// samples' "first add during load"): a block covers `2 * blockDim.x`.
pub const TREE_ELEMENTS_PER_THREAD: u32 = 2;
