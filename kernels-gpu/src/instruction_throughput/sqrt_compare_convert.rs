//! The OpenCL Programming Guide §3.1.1.1's other rates: the square root (one
//! per clock per SM on cc 1.x, half the reciprocal square root's 2, being a
//! reciprocal square root and a reciprocal), compare/min/max and type
//! conversions (8 per clock per SM, as many as single-precision adds).
//!
//! **Indexing** and **launch** of every kernel here: as `f32_add_throughput`
//! (one full wave of 256-thread blocks, 8 chains per thread; chain `k` starts
//! at `fma(k, step, start)`). The OpenCL C twins are in
//! `host/opencl_c/instruction_throughput.cl`, the CUDA C twins in
//! `host/cuda_c/sqrt_compare_convert.cu`.

use crate::device::{GlobalMutPtr, fma, sqrt};
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** the IEEE square root: `v ← sqrt(v) + b`
    /// (`sqrt.rn.f32`; with b = 1, v settles at the golden ratio squared).
    ///
    /// **Expected**: cc 1.x 1 per clock per SM (half `rsqrt`'s 2); sm_90
    /// builds it around one `MUFU.RSQ`, so about the SFU's 16 with the
    /// refinement's FMAs beside it.
    sqrt_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| sqrt(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** the minimum (compare and select): `v ← min(−v, a)`
    /// (`min.f32`, its negation an operand modifier; with a = 2 every chain
    /// alternates between ±its start).
    ///
    /// **Expected**: cc 1.x 8 per clock per SM (as an add); sm_90 runs
    /// `FMNMX` on the integer/logic pipe, 64 per clock per SM.
    fmin_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| (-v).min(a))
    }
}

chain_kernel! {
    /// **Demonstrates** type conversions: `v ← (−v → i32) → f32`, a
    /// float-to-integer conversion (round towards zero) and back: two
    /// conversions per chain per round, each counted as an operation. With
    /// starts k + 1.5 every chain alternates between ±(k + 1).
    ///
    /// Written with `to_int_unchecked`, C's `(int)x`: Rust's `as i32`
    /// saturates and maps NaN to 0, which costs two compares and three
    /// selects around every `cvt.rzi.s32.f32` (what the guide's rate
    /// describes is the conversion alone). Its contract, the chain values
    /// finite and below 2^31 in magnitude, holds for seeds below 2^30,
    /// which the host's launch check guarantees (at most 2^27 threads).
    ///
    /// **Expected**: cc 1.x 8 per clock per SM; sm_90 `F2I` and `I2FP`, 16
    /// per clock per SM for the first (the conversion pipe) and more for the second.
    convert_throughput(f32; start, step, _a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        // SAFETY (to_int_unchecked; chain_kernel! runs the round inside its unsafe block): every chain value is
        // ±(k + 1) or its start k + 1.5, finite and below 2^31 in magnitude for the seeds the launch check allows.
        each_chain(values, |v| (-v).to_int_unchecked::<i32>() as f32)
    }
}
