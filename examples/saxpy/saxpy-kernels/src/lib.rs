//! The example's kernels, written once with `ptx_device::kernel!`: PTX entry
//! points on `nvptx64-nvidia-cuda`, plain functions the CPU emulator runs
//! everywhere else.
#![cfg_attr(target_arch = "nvptx64", no_std)]

pub mod block_sum;
pub mod saxpy;

pub use block_sum::{block_sum, block_sum_params};
pub use saxpy::{saxpy, saxpy_params};
