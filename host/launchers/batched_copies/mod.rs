//! The batched-copies family (Best Practices Guide §3.1): one host buffer
//! copied to the device whole or in many smaller pieces, one runner per
//! programming model ([`PieceCopyRunner`], chosen by [`piece_copy_runners`];
//! CUDA's copy engines from pinned memory, no OpenCL twin yet).

mod cuda_runner;
mod runner;

pub use cuda_runner::{CUDA_PINNED_PIECES, CudaPieceCopyRunner};
pub use runner::{PieceCopies, PieceCopyRunner, piece_copy_runners};
