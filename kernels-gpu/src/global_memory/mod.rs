//! Global-memory access patterns of the CUDA C Best Practices Guide, §3.2.1.
//!
//! Launch shape used by the suite: 1-D blocks of [`COPY_BLOCK_THREADS`]
//! threads, one element per thread, as in the guide's experiments.

mod offset_copy;
mod stride_copy;

pub use offset_copy::offset_copy;
pub use stride_copy::stride_copy;

/// Threads per block for the copy kernels (the guide's experiments use 1-D
/// blocks; 256 is a multiple of the warp size that reaches full occupancy on
/// every architecture from Turing on).
pub const COPY_BLOCK_THREADS: u32 = 256;
