//! CPU reference implementations: what each kernel must produce, written as
//! plain loops or slice copies over the thread index, independent of the
//! device layer.

mod divergence;
mod global_copy;
mod instruction_throughput;
mod loop_counters;
mod math_error_bound;
mod math_function_exact;
mod math_sweep;
mod matrix_multiply;
mod matrix_vector;
mod overlap;
mod ulp_error;

pub use divergence::{BranchLength, PathChoice, branch_reference, path_of, paths_reference};
pub use global_copy::{copy_prefix, offset_copy, shift_copy, stride_copy, texture_shift_copy};
pub use instruction_throughput::{
    chain_outputs, f16x2_fma_throughput_reference, f32_throughput_reference, f64_fma_throughput_reference,
    f64_to_f16_bits, fma_f16x2_reference, i32_throughput_reference, u32_throughput_reference,
};
pub use loop_counters::strided_loop;
pub use math_error_bound::{ErrorBound, cuda_library_bound, documented_bound};
pub use math_function_exact::math_function_exact;
pub use math_sweep::{ArgumentRange, Spacing, input_sweep, sweep_spacing};
pub use matrix_multiply::{gemm_error_bound, matmul, matmul_aat, matmul_element, matmul_mismatch};
pub use matrix_vector::{MATVEC_RELATIVE_TOLERANCE, matvec, matvec_mismatch};
pub use overlap::fma_chain;
pub use ulp_error::{ErrorStats, error_stats, f32_ulp_at, ulp_error};
