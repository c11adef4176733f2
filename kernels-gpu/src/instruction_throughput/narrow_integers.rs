//! Integer arithmetic narrower than 32 bits: multiply-add on `short` and
//! `char` values (Best Practices Guide §5.1.3 and OpenCL Programming Guide
//! §3.1.1.1: "functions operating on char or short whose operands generally
//! need to be converted to int" cost conversion instructions) and the 24-bit
//! multiply `mul24` (OpenCL guide §3.1.1.1: 8 per clock per SM on cc 1.x
//! against 2 for a 32-bit multiply, and slower than it on later
//! architectures).
//!
//! Each round mixes neighbouring chains as `i32_mad_throughput` does (see
//! `integer_arithmetic`), so that the three kernels and their 32-bit
//! counterparts differ only in the width of the arithmetic. The chains are
//! stored as `i32` (the narrow values sign-extended), and chain `k` starts
//! at `(start + k · step) | 1` (wrapping), as for the 32-bit multiply.

use crate::device::{GlobalMutPtr, mul24_lo};
use crate::instruction_throughput::integer_arithmetic::mix_neighbours;

chain_kernel! {
    /// **Demonstrates** 16-bit integer multiply-add: `v[c] ← v[c] · v[c+1] + a`
    /// computed in `i16` (wrapping) and sign-extended back to the `i32` chain,
    /// C's `short` arithmetic; what the compiler adds to the 32-bit `IMAD`
    /// (a sign extension or none) is the cost the guides name.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: cc 1.x paid conversions to `int`; on Hopper at most one
    /// extra integer instruction per operation beside the `IMAD`, so between
    /// the rate of `i32_mad_throughput` and half of it. To be measured.
    i16_mad_throughput(i32; start, step, a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)) | 1,
    round: |values| {
        mix_neighbours(values, |x, y| (x as i16).wrapping_mul(y as i16).wrapping_add(a as i16) as i32)
    }
}

chain_kernel! {
    /// **Demonstrates** 8-bit integer multiply-add: `v[c] ← v[c] · v[c+1] + a`
    /// computed in `i8` (wrapping) and sign-extended back to the `i32` chain,
    /// C's `char` arithmetic.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: as [`i16_mad_throughput`]. To be measured.
    i8_mad_throughput(i32; start, step, a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)) | 1,
    round: |values| {
        mix_neighbours(values, |x, y| (x as i8).wrapping_mul(y as i8).wrapping_add(a as i8) as i32)
    }
}

chain_kernel! {
    /// **Demonstrates** the 24-bit multiply: `v[c] ← mul24.lo(v[c], v[c+1])`
    /// (one `mul24.lo.s32` per chain per round: the low 32 bits of the
    /// product of the operands' low 24 bits, read as signed).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: cc 1.x 8 per clock per SM (4x `i32_mul_throughput`'s 2);
    /// Hopper has no 24-bit multiplier, so ptxas emulates it with 32-bit
    /// instructions (sign extensions and an `IMAD`): below
    /// `i32_mul_throughput`'s rate, as the OpenCL guide predicted. To be measured.
    mul24_throughput(i32; start, step, _a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)) | 1,
    round: |values| {
        mix_neighbours(values, mul24_lo)
    }
}
