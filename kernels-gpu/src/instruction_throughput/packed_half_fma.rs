//! Packed half-precision FMA: two binary16 FMAs per instruction.

use crate::device::{GlobalMutPtr, fma_f16x2};
use crate::instruction_throughput::chains::each_chain;

/// Chain seeds repeat with this period, so that every start stays a small
/// number of binary16 ulps above `start`.
pub const F16X2_SEED_PERIOD: u32 = 1024;

chain_kernel! {
    /// **Demonstrates** packed half-precision FMA throughput: `v ← fma(v, a, b)`
    /// on two binary16 lanes at once (one `fma.rn.f16x2` per chain per round,
    /// two FMAs). Operands are binary16 pairs packed in a `u32` (low lane in
    /// bits 0–15); chain `k` starts at the bit pattern
    /// `start + (k mod F16X2_SEED_PERIOD) · step` (integer arithmetic on the
    /// packed bits: with `step = 0x0001_0001` each lane is k ulps above start's).
    ///
    /// **Indexing** and **launch**: as `f32_add_throughput`, with `u32` output.
    ///
    /// **Expected**: not in the guides (no half-precision arithmetic before
    /// cc 5.3). Hopper: 256 binary16 FMAs per clock per SM (128 `f16x2`
    /// instructions' worth), twice the FP32 rate. To be measured.
    f16x2_fma_throughput(u32; start, step, a, b),
    seed: |k| start.wrapping_add((k % F16X2_SEED_PERIOD).wrapping_mul(step)),
    round: |values| {
        each_chain(values, |v| fma_f16x2(v, a, b))
    }
}
