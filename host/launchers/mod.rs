//! Typed launchers: one function per kernel, taking device buffers (which
//! carry their lengths) and proving before the launch that every index the
//! kernel will compute stays inside them.
//!
//! The shape checks are pure functions (`*_shape`) so they are tested without a GPU.

mod diagnostics;
mod gemm;
mod global_copy;
mod guide_multiply;
mod matrix_vector;
mod nominal_shape;
mod overlap;
mod particles;

pub use diagnostics::spin_wait;
pub use gemm::{
    SgemmKernel, check_gemm_buffers, gemm_flops, hgemm_f16_storage, hgemm_f16_storage_shape, sgemm, sgemm_shape,
    whole_register_blocked_tiles,
};
pub use global_copy::{
    driver_copy, offset_copy, offset_copy_shape, shift_copy, shift_copy_shape, stride_copy, stride_copy_shape,
    texture_shift_copy, texture_shift_copy_shape, vector_copy, vector_copy_global,
};
pub use guide_multiply::{GuideMultiply, guide_multiply, guide_multiply_shape};
pub use matrix_vector::{MATVEC_BLOCK_THREADS, MatVecVersion, check_matvec_buffers, matvec, matvec_shape};
pub use nominal_shape::nominal_shape;
pub use overlap::fma_chain;
pub use particles::{particle_shape, particle_step, particle_step_global};
