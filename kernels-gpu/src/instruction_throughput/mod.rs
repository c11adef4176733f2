//! Instruction throughput: one kernel per operation, each a loop of
//! independent dependency chains (OpenCL Programming Guide §3.1.1, Best
//! Practices Guide chapter 5).
//!
//! Every kernel has the parameter list `(out, start, step, a, b, iterations)`
//! (element type per kernel), runs [`THROUGHPUT_CHAINS`] chains per thread for
//! `iterations` rounds and stores each chain's final value (see `chains`), so
//! a thread performs `THROUGHPUT_CHAINS · iterations` of the measured
//! operation. Operations per second per SM, divided by the clock, compare
//! directly with the guides' "operations per clock cycle per multiprocessor".

#[macro_use]
pub(crate) mod chains;
mod barrier;
mod double_promotion;
mod float_arithmetic;
mod integer_arithmetic;
mod integer_division;
mod math_functions;
mod narrow_integers;
mod packed_half_fma;
mod reciprocal;
mod special_functions;
mod sqrt_compare_convert;
mod throughput_kernel;

pub use barrier::{bar_sync_throughput, bar_sync_throughput_params};
pub use chains::{THROUGHPUT_CHAINS, chain_output_index, chain_seed};
pub use double_promotion::{
    PROMOTION_CONSTANT, f32_literal_mul_throughput, f32_literal_mul_throughput_params, f64_promoted_mul_throughput,
    f64_promoted_mul_throughput_params,
};
pub use float_arithmetic::{
    f32_add_throughput, f32_add_throughput_params, f32_fma_throughput, f32_fma_throughput_params, f32_mul_throughput,
    f32_mul_throughput_params, f64_fma_throughput, f64_fma_throughput_params,
};
pub use integer_arithmetic::{
    i32_add_throughput, i32_add_throughput_params, i32_mad_throughput, i32_mad_throughput_params, i32_mul_throughput,
    i32_mul_throughput_params,
};
pub use integer_division::{
    u32_div_throughput, u32_div_throughput_params, u32_mask_throughput, u32_mask_throughput_params, u32_rem_throughput,
    u32_rem_throughput_params, u32_shift_throughput, u32_shift_throughput_params,
};
pub use math_functions::{
    cbrt_throughput, cbrt_throughput_params, cube_mul_throughput, cube_mul_throughput_params, exp2_throughput,
    exp2_throughput_params, exp10_throughput, exp10_throughput_params, pow_cube_throughput, pow_cube_throughput_params,
    pow_third_throughput, pow_third_throughput_params, pow2_throughput, pow2_throughput_params, pow10_throughput,
    pow10_throughput_params, sin_cos_throughput, sin_cos_throughput_params, sin_pi_x_throughput,
    sin_pi_x_throughput_params, sincos_throughput, sincos_throughput_params, sinpi_throughput, sinpi_throughput_params,
};
pub use narrow_integers::{
    i8_mad_throughput, i8_mad_throughput_params, i16_mad_throughput, i16_mad_throughput_params, mul24_throughput,
    mul24_throughput_params,
};
pub use packed_half_fma::{F16X2_SEED_PERIOD, f16x2_fma_throughput, f16x2_fma_throughput_params};
pub use reciprocal::{
    div_approx_throughput, div_approx_throughput_params, div_rn_throughput, div_rn_throughput_params,
    rcp_approx_throughput, rcp_approx_throughput_params, rcp_rn_throughput, rcp_rn_throughput_params,
    recip_sqrt_rn_throughput, recip_sqrt_rn_throughput_params, rsqrt_approx_throughput, rsqrt_approx_throughput_params,
};
pub use special_functions::{
    cos_approx_throughput, cos_approx_throughput_params, ex2_approx_throughput, ex2_approx_throughput_params,
    exp_accurate_throughput, exp_accurate_throughput_params, exp_fast_throughput, exp_fast_throughput_params,
    exp_throughput, exp_throughput_params, lg2_approx_throughput, lg2_approx_throughput_params, sin_approx_throughput,
    sin_approx_throughput_params, sin_throughput, sin_throughput_params,
};
pub use sqrt_compare_convert::{
    convert_throughput, convert_throughput_params, fmin_throughput, fmin_throughput_params, sqrt_throughput,
    sqrt_throughput_params,
};
pub use throughput_kernel::{ChainElement, ChainParams, ThroughputKernel};

/// Threads per block for the throughput kernels: a multiple of the warp size
/// that lets every architecture from Turing on hold full occupancy.
pub const THROUGHPUT_BLOCK_THREADS: u32 = 256;
