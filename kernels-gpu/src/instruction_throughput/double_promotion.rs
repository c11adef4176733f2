//! The Best Practices Guide's §5.1.3/§7.2.3 hazard: a double-precision
//! constant in single-precision code. In C, `v * 1.02` with `float v`
//! silently promotes `v` to `double`, multiplies in double precision and
//! truncates back (`cvt.f64.f32`, `mul.f64`, `cvt.rn.f32.f64`); `v * 1.02f`
//! stays one `mul.f32`.
//!
//! Rust cannot do this silently: a literal takes its type from context, so
//! `1.02` next to an `f32` *is* an `f32`, and mixing `f32` with `f64` is a type
//! error until the code casts explicitly. The promoted kernel below has to
//! write the promotion out, `((v as f64) * 1.02) as f32`, which is what C
//! does behind the programmer's back.
//!
//! Each round multiplies every chain by the constant and then by the run-time
//! factor `a` (≈ 1/1.02, chosen by the host, to keep values bounded); chain
//! `k` starts at `fma(k, step, start)`. The two kernels' results differ
//! (1.02 is not an `f32`), and the host checks each against its own reference.

use crate::device::{GlobalMutPtr, fma};
use crate::instruction_throughput::chains::each_chain;

/// The constant of the Best Practices Guide's example (`a = a * 1.02`).
pub const PROMOTION_CONSTANT: f64 = 1.02;

chain_kernel! {
    /// **Demonstrates** single-precision code with a single-precision constant:
    /// `v ← (v · 1.02f32) · a` (two `mul.f32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: half [`f32_mul_throughput`](super::f32_mul_throughput)'s
    /// rate in rounds (two multiplies). To be measured.
    f32_literal_mul_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| (v * PROMOTION_CONSTANT as f32) * a)
    }
}

chain_kernel! {
    /// **Demonstrates** the cost of C's silent promotion, written out:
    /// `v ← (((v as f64) · 1.02) as f32) · a` (two conversions, one `mul.f64`
    /// and one `mul.f32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`.
    ///
    /// **Expected**: slower than [`f32_literal_mul_throughput`] by the two
    /// conversions, which run at a fraction of the FP32 rate, even on Hopper
    /// (FP64 at half rate); far slower on GPUs with 1/64-rate FP64. The
    /// guides: "particularly important on cc 2.x". To be measured.
    f64_promoted_mul_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| ((v as f64 * PROMOTION_CONSTANT) as f32) * a)
    }
}
