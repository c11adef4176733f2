//! Transcendental functions: the SFU approximations against accurate
//! software versions (Best Practices Guide §5.1.4: `__sinf`/`__expf` against
//! `sinf`/`expf`, "about an order of magnitude slower" when the sine's
//! argument needs the slow reduction).
//!
//! Every round is `v ← f(v) + b` on each chain (one add per evaluation): with
//! `b` small the arguments stay small, with `b` large (e.g. 10^6 for the
//! sines) every evaluation gets a large argument, which the accurate sine
//! reduces by its Payne–Hanek path. Chain `k` starts at `fma(k, step, start)`.

use crate::device::{
    GlobalMutPtr, cos_approx, ex2_approx, exp, exp_accurate, exp_fast, fma, lg2_approx, sin, sin_approx,
};
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** `__sinf`: `v ← sin.approx(v) + b` (one
    /// `sin.approx.f32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 1 per clock per SM; Hopper 16 (SFU), the same for
    /// any argument (only the accuracy degrades). To be measured.
    sin_approx_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| sin_approx(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `__cosf`: `v ← cos.approx(v) + b`.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: as [`sin_approx_throughput`]. To be measured.
    cos_approx_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| cos_approx(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** the base-2 exponential instruction:
    /// `v ← ex2.approx(v) + b` (with b = −2, v settles near −1.69).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 1 per clock per SM (`native_exp`); Hopper 16. To be measured.
    ex2_approx_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| ex2_approx(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `__log2f`: `v ← lg2.approx(v) + b` (with b = 2 and
    /// starts near 4, v settles at 4).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: cc 1.x 2 per clock per SM (`native_log`); Hopper 16. To be measured.
    lg2_approx_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| lg2_approx(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `__expf`: `v ← ex2.approx(v · log2 e) + b` (a
    /// multiply and an SFU instruction per evaluation).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: about [`ex2_approx_throughput`]'s rate. To be measured.
    exp_fast_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| exp_fast(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** the device layer's sine (`sinf`'s counterpart,
    /// `sin`, ≤ 1.6 ulp): `v ← sin(v) + b`. With |b| ≤ 10^5 every argument
    /// takes the Cody–Waite path (22 SASS instructions for sm_90, FP32 and
    /// integer pipes only); with b = 10^6 the Payne–Hanek path (about 100,
    /// integer and one `f64` multiply).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: about 5x slower than [`sin_approx_throughput`] for small
    /// arguments (23 issued instructions per round and chain against its 3)
    /// and at least as fast as the CUDA C twin's `sinf` (about 24, two of them
    /// conversions); for large ones about 3x slower than for small, where
    /// the guides claim an order of magnitude for `sinf` (the H100 measured
    /// 10x for CUDA's). To be measured.
    sin_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| sin(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** the device layer's tighter exponential
    /// (`exp_accurate`, ≤ 1.05 ulp, FMAs only): `v ← exp_accurate(v) + b`
    /// (with b = −2, v settles near −1.84).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: a few times slower than [`exp_fast_throughput`] and
    /// [`exp_throughput`] (about 30 SASS instructions against 8 around one SFU
    /// instruction): what the tighter bound costs.
    exp_accurate_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| exp_accurate(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** the device layer's exponential (`expf`'s
    /// counterpart, `exp`: CUDA's `expf` algorithm, ≤ 2 ulp): `v ← exp(v) + b`
    /// (with b = −2, v settles near −1.84).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: eight SASS instructions per `exp`, one of them
    /// `MUFU.EX2`, plus the chain's add, which nvcc fuses with `expf`'s last
    /// multiply in the CUDA C twin (`-fmad=true`) and rustc does not: about
    /// 14 operations per clock per SM against the twin's 14.8 at the issue
    /// limit. To be measured.
    exp_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| exp(v) + b)
    }
}
