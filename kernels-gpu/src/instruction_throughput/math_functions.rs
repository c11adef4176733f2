//! The math-library advice of the Best Practices Guide §5.1.2–5.1.4, as
//! kernel pairs: the call it recommends against the one it warns about.
//!
//! * `x·x·x` against `pow(x, 3)` (a small integer power),
//! * `exp2(x)` and `exp10(x)` against `pow(2, x)` and `pow(10, x)`,
//! * `cbrt(x)` against `pow(x, 1/3)`,
//! * `sinpi(x)` against `sin(π·x)`,
//! * `sincos(x)` against separate `sin(x)` and `cos(x)`.
//!
//! The CUDA C twins (`host/cuda_c/math_functions.cu`) call CUDA's own
//! `powf`, `exp2f`, `exp10f`, `cbrtf`, `sinpif`, `sinf`, `cosf`,
//! `sincosf`, which is what the guide's words are about, and are also
//! compiled with `-use_fast_math`. The Rust kernels call the device layer,
//! which has no accurate `powf`: its `pow` is [`pow_fast`], CUDA's `__powf`
//! algorithm (what `-use_fast_math` makes of `powf`), its `exp10`
//! [`exp10_fast`] (`__exp10f`'s), its `exp2` the one `ex2.approx.f32`
//! (CUDA's `exp2f` is the same instruction); `cbrt`, `sinpi`, `sin`, `cos`
//! and `sincos` are accurate (1–1.6 ulp). Rust has no `-use_fast_math`:
//! the fast forms have to be called by name.
//!
//! Every round is `v ← a·f(v) + b` or `v ← f(v) + b` on each chain, a
//! contracting map (each chain settles at a fixed point), so the chains stay
//! finite for any number of rounds; the parameters are the host's
//! `suggested_params`. Chain `k` starts at `fma(k, step, start)`.
//!
//! **Indexing** and **launch** of every kernel here: as `f32_add_throughput`
//! (one full wave of 256-thread blocks, 8 chains per thread).

use crate::device::{GlobalMutPtr, cbrt, cos, ex2_approx, exp10_fast, fma, pow_fast, sin, sincos, sinpi};
use crate::instruction_throughput::chains::each_chain;

/// π rounded to `f32`, the factor of `sin(π·x)`.
const PI: f32 = core::f32::consts::PI;

chain_kernel! {
    /// **Demonstrates** a small integer power written as multiplications:
    /// `v ← a·(v·v·v) + b` (two multiplies and an FMA per chain per round).
    ///
    /// **Expected**: the FP32 pipe's rate over three instructions, about
    /// 40 per clock per SM on Hopper; several times [`pow_cube_throughput`].
    cube_mul_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(a, v * v * v, b))
    }
}

chain_kernel! {
    /// **Demonstrates** the same power through `pow`: `v ← a·pow(v, 3) + b`,
    /// with the device layer's `pow_fast` (two SFU instructions).
    ///
    /// **Expected**: below [`cube_mul_throughput`]; the CUDA C twin's `powf`
    /// (a log, an exp and their error compensation, about 40 instructions
    /// with a branch on special cases) far below.
    pow_cube_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(a, pow_fast(v, 3.0), b))
    }
}

chain_kernel! {
    /// **Demonstrates** `exp2(x)`: `v ← 2^v + b`, one `ex2.approx.f32`.
    ///
    /// **Expected**: the SFU rate, 16 per clock per SM on Hopper.
    exp2_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| ex2_approx(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `pow(2, x)`: `v ← pow(2, v) + b` with `pow_fast`,
    /// whose `lg2.approx(2)` LLVM may hoist out of the loop.
    ///
    /// **Expected**: about [`exp2_throughput`]'s rate in Rust; the twin's
    /// `powf(2, x)` several times slower than its `exp2f`.
    pow2_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| pow_fast(2.0, v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `exp10(x)`: `v ← 10^v + b` (`exp10_fast`: a multiply
    /// and one `ex2.approx.f32`).
    ///
    /// **Expected**: the SFU rate, 16 per clock per SM on Hopper.
    exp10_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| exp10_fast(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `pow(10, x)`: `v ← pow(10, v) + b` with `pow_fast`.
    ///
    /// **Expected**: as [`pow2_throughput`] against [`exp10_throughput`].
    pow10_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| pow_fast(10.0, v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `cbrt(x)`: `v ← cbrt(v) + b` (the device layer's
    /// cube root: about 25 FMAs and multiplies, no SFU).
    ///
    /// **Expected**: about 5 per clock per SM on Hopper's 128-wide FP32 pipe.
    cbrt_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| cbrt(v) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `pow(x, 1/3)`: `v ← pow(v, 1/3) + b` with `pow_fast`
    /// (two SFU instructions, 8 per clock per SM at most, and far less
    /// accurate than the cube root).
    ///
    /// **Expected**: in Rust about [`cbrt_throughput`]'s rate; the twin's
    /// `powf` several times slower than its `cbrtf`.
    pow_third_throughput(f32; start, step, _a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| pow_fast(v, 1.0 / 3.0) + b)
    }
}

chain_kernel! {
    /// **Demonstrates** `sinpi(x)`: `v ← a·sinpi(v) + b` (exact reduction
    /// by halves, one polynomial: about 15 FP32 instructions).
    ///
    /// **Expected**: faster than [`sin_pi_x_throughput`], whose reduction
    /// by π/2 costs more.
    sinpi_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(a, sinpi(v), b))
    }
}

chain_kernel! {
    /// **Demonstrates** `sin(π·x)`: `v ← a·sin(π·v) + b` with the device
    /// layer's sine (a multiply, then the Cody–Waite reduction).
    ///
    /// **Expected**: slower than [`sinpi_throughput`].
    sin_pi_x_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(a, sin(PI * v), b))
    }
}

chain_kernel! {
    /// **Demonstrates** `sincos(x)`: `v ← a·(sin v + cos v) + b` from one
    /// reduction.
    ///
    /// **Expected**: faster than [`sin_cos_throughput`] where the compiler
    /// does not merge that kernel's two reductions; rustc (LLVM) inlines both
    /// calls and may well merge them, so the pair may run alike.
    sincos_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| {
            let (s, c) = sincos(v);
            fma(a, s + c, b)
        })
    }
}

chain_kernel! {
    /// **Demonstrates** separate `sin(x)` and `cos(x)` calls:
    /// `v ← a·(sin v + cos v) + b`.
    ///
    /// **Expected**: as [`sincos_throughput`] or slower (see there).
    sin_cos_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(a, sin(v) + cos(v), b))
    }
}
