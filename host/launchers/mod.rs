//! Typed launchers: one function per kernel, taking device buffers (which
//! carry their lengths) and proving before the launch that every index the
//! kernel will compute stays inside them.
//!
//! The shape checks are pure functions (`*_shape`) so they are tested without a GPU.

mod diagnostics;
mod divergence;
mod gemm;
mod global_copy;
mod guide_multiply;
mod instruction_throughput;
mod loop_counters;
mod math_accuracy;
mod matrix_vector;
mod nominal_shape;
mod overlap;
mod throughput_params;
mod throughput_table;

pub use diagnostics::spin_wait;
pub use divergence::{branch, branch_kernel, divergence_shape, divergent_paths, paths_kernel};
pub use gemm::{
    SgemmKernel, check_gemm_buffers, gemm_flops, hgemm_f16_storage, hgemm_f16_storage_shape, sgemm, sgemm_shape,
    whole_register_blocked_tiles,
};
pub use global_copy::{
    driver_copy, offset_copy, offset_copy_shape, shift_copy, shift_copy_shape, stride_copy, stride_copy_shape,
    texture_shift_copy, texture_shift_copy_shape, vector_copy, vector_copy_global,
};
pub use guide_multiply::{GuideMultiply, guide_multiply, guide_multiply_shape};
pub use instruction_throughput::{ChainValue, throughput, throughput_shape, throughput_wave_blocks};
pub use loop_counters::{LoopCounter, loop_counter, loop_counter_shape};
pub use math_accuracy::{function_values_shape, math_function_values};
pub use matrix_vector::{MATVEC_BLOCK_THREADS, MatVecVersion, check_matvec_buffers, matvec, matvec_shape};
pub use nominal_shape::nominal_shape;
pub use overlap::fma_chain;
pub use throughput_params::{AnyChainParams, suggested_params};
pub use throughput_table::{ThroughputRow, hopper_peak_per_sm_per_clock, throughput_table};
