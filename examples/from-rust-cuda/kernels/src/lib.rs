//! Kernels as a Rust-CUDA project writes them: `use cuda_std::prelude::*`,
//! `#[kernel]`, slices and raw pointers, `thread::index_1d`, `shared_array!`,
//! warp shuffles. The only line Rust-CUDA's builder used to inject for us is
//! the first one.
#![cfg_attr(target_os = "cuda", no_std)]

mod block_sum;
mod transpose;
mod vecadd;
mod warp_sum;

pub use block_sum::{BLOCK_SUM_THREADS, block_sum};
pub use transpose::{TILE, transpose};
pub use vecadd::vecadd;
pub use warp_sum::warp_sum;
