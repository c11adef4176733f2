//! 32-bit integer add, multiply and multiply-add.
//!
//! Integer arithmetic is associative, so a chain `v ← v + a` repeated n times
//! would be folded by the compiler into `v + n·a`. Each round therefore mixes
//! neighbouring chains instead: `v[c] ← v[c] op v[(c + 1) mod 8]`, all from the
//! previous round's values, so the eight operations of a round are independent
//! of each other and no closed form exists. Values wrap (two's complement).
//! Chain `k` starts at `start + k · step` (wrapping); the multiplying kernels
//! set its lowest bit, so that products of odd numbers never collapse to 0.

use crate::device::GlobalMutPtr;
use crate::instruction_throughput::THROUGHPUT_CHAINS;

/// One round of `v[c] ← combine(v[c], v[(c + 1) mod 8])` with old values
/// throughout (destructured, so the values stay in registers).
#[inline(always)]
pub(crate) fn mix_neighbours(values: &mut [i32; THROUGHPUT_CHAINS], combine: impl Fn(i32, i32) -> i32) {
    let [v0, v1, v2, v3, v4, v5, v6, v7] = *values;
    *values = [
        combine(v0, v1),
        combine(v1, v2),
        combine(v2, v3),
        combine(v3, v4),
        combine(v4, v5),
        combine(v5, v6),
        combine(v6, v7),
        combine(v7, v0),
    ];
}

chain_kernel! {
    /// **Demonstrates** 32-bit integer add throughput: `v[c] ← v[c] + v[c+1]`
    /// (one `add.s32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: cc 1.x 8 per clock per SM; Hopper 64 per clock per SM in
    /// the integer pipe (ptxas may also issue adds as `IMAD` on the FMA pipe,
    /// so more is possible). To be measured.
    i32_add_throughput(i32; start, step, _a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)),
    round: |values| {
        mix_neighbours(values, i32::wrapping_add)
    }
}

chain_kernel! {
    /// **Demonstrates** 32-bit integer multiply throughput:
    /// `v[c] ← v[c] · v[c+1]` (low 32 bits; one `mul.lo.s32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: cc 1.x 2 per clock per SM (8 with `mul24`); Hopper 64
    /// (`IMAD`). To be measured.
    i32_mul_throughput(i32; start, step, _a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)) | 1,
    round: |values| {
        mix_neighbours(values, i32::wrapping_mul)
    }
}

chain_kernel! {
    /// **Demonstrates** 32-bit integer multiply-add throughput:
    /// `v[c] ← v[c] · v[c+1] + a` (one `mad.lo.s32` per chain per round).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `i32` output.
    ///
    /// **Expected**: Hopper 64 per clock per SM (`IMAD`), so twice the
    /// operations of [`i32_mul_throughput`] in the same time. To be measured.
    i32_mad_throughput(i32; start, step, a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)) | 1,
    round: |values| {
        mix_neighbours(values, |x, y| x.wrapping_mul(y).wrapping_add(a))
    }
}
