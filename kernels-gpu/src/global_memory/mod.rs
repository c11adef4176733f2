//! Global-memory access patterns of the CUDA C Best Practices Guide, §3.2.1.
//!
//! Launch shape used by the suite: 1-D blocks of [`COPY_BLOCK_THREADS`]
//! threads, one element per thread, as in the guide's experiments.

mod element_width;
mod offset_copy;
mod permuted_copy;
mod shift_copy;
mod stride_copy;
mod texture_2d;
mod texture_shift_copy;
mod vector_copy;

pub use element_width::{
    offset_copy_f16, offset_copy_f16_params, offset_copy_f32x4, offset_copy_f32x4_params, offset_copy_f64,
    offset_copy_f64_params, stride_copy_f16, stride_copy_f16_params, stride_copy_f32x4, stride_copy_f32x4_params,
    stride_copy_f64, stride_copy_f64_params,
};
pub use offset_copy::{offset_copy, offset_copy_params};
pub use permuted_copy::{permuted_copy, permuted_copy_params, segment_permutation};
pub use shift_copy::{shift_copy, shift_copy_params};
pub use stride_copy::{stride_copy, stride_copy_params};
pub use texture_2d::{
    global_2d_tile_load, global_2d_tile_load_params, texture_2d_tile_sample, texture_2d_tile_sample_params, tile_texel,
};
pub use texture_shift_copy::{texture_shift_copy, texture_shift_copy_params};
pub use vector_copy::{VECTOR_COPY_MAX_WAVES, vector_copy, vector_copy_params};

/// Threads per block for the copy kernels (the guide's experiments use 1-D
/// blocks; 256 is a multiple of the warp size that reaches full occupancy on
/// every architecture from Turing on).
pub const COPY_BLOCK_THREADS: u32 = 256;
