//! Integer division and modulo by a run-time divisor, against the shift and
//! mask that replace them when the divisor is a power of two (Best Practices
//! Guide §5.1.1, OpenCL Programming Guide §3.1.1.1).
//!
//! GPUs have no integer divide instruction: `div.u32`/`rem.u32` become a
//! sequence of instructions (a floating-point reciprocal of the divisor, then
//! a high multiply and corrections). Here the divisor is the same in every
//! round, so ptxas computes its reciprocal once, outside the loop, and each
//! division costs about ten integer instructions (sm_90); with a divisor
//! that changes, about twenty. With `n = 2^s`, `i / n` is `i >> s` and
//! `i % n` is `i & (n − 1)`, one instruction each; compilers make that
//! substitution themselves only when `n` is a compile-time constant, which
//! here it is not.
//!
//! Every round is `v ← (v op a) + b` on each chain (the add keeps values from
//! collapsing to 0); chain `k` starts at `start + k · step` (wrapping). With
//! `a = 2^s` for the division kernels and `a = s` for the shift and mask
//! kernels, each pair computes the same values.

use core::num::NonZeroU32;

use crate::device::GlobalMutPtr;
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** the cost of unsigned division by a run-time divisor:
    /// `v ← v / a + b` (one `div.u32` per chain per round, plus an add).
    /// A divisor of 0 divides by 1 instead (the launcher refuses it).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `u32` output.
    ///
    /// **Expected**: the guides call it "particularly costly": about ten
    /// integer instructions per division here, so several times below
    /// [`u32_shift_throughput`]. To be measured.
    u32_div_throughput(u32; start, step, a, b),
    seed: |k| start.wrapping_add(k.wrapping_mul(step)),
    round: |values| {
        let divisor = NonZeroU32::new(a).unwrap_or(NonZeroU32::MIN);
        each_chain(values, |v| (v / divisor).wrapping_add(b))
    }
}

chain_kernel! {
    /// **Demonstrates** the cost of unsigned modulo by a run-time divisor:
    /// `v ← v % a + b` (one `rem.u32` per chain per round, plus an add).
    /// A divisor of 0 divides by 1 instead (the launcher refuses it).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `u32` output.
    ///
    /// **Expected**: as [`u32_div_throughput`]. To be measured.
    u32_rem_throughput(u32; start, step, a, b),
    seed: |k| start.wrapping_add(k.wrapping_mul(step)),
    round: |values| {
        let divisor = NonZeroU32::new(a).unwrap_or(NonZeroU32::MIN);
        each_chain(values, |v| (v % divisor).wrapping_add(b))
    }
}

chain_kernel! {
    /// **Demonstrates** division by a power of two written as a shift:
    /// `v ← (v >> a) + b` (one `shr.b32` per chain per round, plus an add);
    /// the same values as [`u32_div_throughput`] with divisor `2^a`. `a` must be below 32.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `u32` output.
    ///
    /// **Expected**: shift and add at the integer pipe's rate (Hopper: 64
    /// per clock per SM each). To be measured.
    u32_shift_throughput(u32; start, step, a, b),
    seed: |k| start.wrapping_add(k.wrapping_mul(step)),
    round: |values| {
        each_chain(values, |v| (v >> a).wrapping_add(b))
    }
}

chain_kernel! {
    /// **Demonstrates** modulo by a power of two written as a mask:
    /// `v ← (v & (2^a − 1)) + b` (one `and.b32` per chain per round, plus an
    /// add); the same values as [`u32_rem_throughput`] with divisor `2^a`.
    /// `a` must be below 32.
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `u32` output.
    ///
    /// **Expected**: as [`u32_shift_throughput`]. To be measured.
    u32_mask_throughput(u32; start, step, a, b),
    seed: |k| start.wrapping_add(k.wrapping_mul(step)),
    round: |values| {
        let mask = (1u32 << a).wrapping_sub(1);
        each_chain(values, |v| (v & mask).wrapping_add(b))
    }
}
