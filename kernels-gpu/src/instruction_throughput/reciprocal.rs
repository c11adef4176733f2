//! Reciprocal, division and reciprocal square root: the approximate
//! single-instruction forms against the IEEE-rounded ones (OpenCL Programming
//! Guide §3.1.1.1: reciprocal 2, division 0.88, `native_divide` 1.6 and
//! reciprocal square root 2 operations per clock per SM on cc 1.x).
//!
//! Chain `k` starts at `fma(k, step, start)`; the host picks positive starts.

use crate::device::{GlobalMutPtr, div_approx, fma, rcp_approx, rsqrt_approx, sqrt};
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** the approximate reciprocal: `v ← rcp.approx(v)` (one
    /// `rcp.approx.f32`, a single SFU instruction, per chain per round; values
    /// alternate between v and about 1/v).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 2 per clock per SM; Hopper 16 (the SFU rate). To be measured.
    rcp_approx_throughput(f32; start, step, _a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, rcp_approx)
    }
}

chain_kernel! {
    /// **Demonstrates** the IEEE-rounded reciprocal: `v ← 1 / v` (rustc emits
    /// `rcp.rn.f32`: an SFU estimate refined by FMAs, with a slow path for
    /// extreme exponents).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: several times slower than [`rcp_approx_throughput`]. To be measured.
    rcp_rn_throughput(f32; start, step, _a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| 1.0 / v)
    }
}

chain_kernel! {
    /// **Demonstrates** IEEE-rounded division: `v ← a / v` (`div.rn.f32`, a
    /// multi-instruction sequence, like CUDA C's `/` without fast math).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 0.88 per clock per SM; today a few times below
    /// [`div_approx_throughput`]. To be measured.
    div_rn_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| a / v)
    }
}

chain_kernel! {
    /// **Demonstrates** the fast division `__fdividef` / `native_divide`:
    /// `v ← div.approx(a, v)` (`div.approx.f32`: a reciprocal and a multiply).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 1.6 per clock per SM; Hopper bounded by the SFU's
    /// 16. To be measured.
    div_approx_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| div_approx(a, v))
    }
}

chain_kernel! {
    /// **Demonstrates** the reciprocal square root the Best Practices Guide
    /// §5.1.2 asks for by name (`rsqrtf`): `v ← rsqrt.approx(v)` (one
    /// `rsqrt.approx.f32` per chain per round; values converge to 1).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 2 per clock per SM; Hopper 16 (SFU). To be measured.
    rsqrt_approx_throughput(f32; start, step, _a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, rsqrt_approx)
    }
}

chain_kernel! {
    /// **Demonstrates** what the Best Practices Guide §5.1.2 warns about:
    /// `v ← 1 / sqrt(v)` written out, IEEE-rounded (`sqrt.rn.f32` then
    /// `rcp.rn.f32`, CUDA C's `1.0f / sqrtf(x)` under the default
    /// `-prec-sqrt=true -prec-div=true`), which the compiler may not turn into
    /// `rsqrt.approx` because the results would differ. Values converge to 1.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: two IEEE sequences (each an SFU estimate refined by
    /// FMAs) against [`rsqrt_approx_throughput`]'s one SFU instruction, so a
    /// few times slower. To be measured.
    recip_sqrt_rn_throughput(f32; start, step, _a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| 1.0 / sqrt(v))
    }
}
