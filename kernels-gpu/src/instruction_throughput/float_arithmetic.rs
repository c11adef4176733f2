//! Basic floating-point arithmetic: `f32` add, multiply and FMA, `f64` FMA.
//!
//! Chain `k` starts at `fma(k, step, start)` (`f32` or `f64` as the kernel).

use crate::device::{GlobalMutPtr, fma, fma_f64};
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** single-precision add throughput: each round `v ← v + a`
    /// on every chain (one `add.f32` each; not reassociated, so never folded).
    ///
    /// **Indexing**: one thread per grid slot; chain `c` of thread `t` ends at
    /// `out[c · threads + t]` (see the module `chains`).
    ///
    /// **Launch**: any 1-D grid; the suite uses blocks of
    /// `THROUGHPUT_BLOCK_THREADS` and enough of them to fill every SM.
    ///
    /// **Expected**: OpenCL Programming Guide §3.1.1.1 (cc 1.x): 8 per clock
    /// per SM; Hopper: 128 per clock per SM (4 × 32 FP32 lanes). To be measured.
    f32_add_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| v + a)
    }
}

chain_kernel! {
    /// **Demonstrates** single-precision multiply throughput: `v ← v · a`
    /// (one `mul.f32` per chain per round; `a` near 1 keeps values finite).
    ///
    /// **Indexing** and **launch**: as [`f32_add_throughput`].
    ///
    /// **Expected**: cc 1.x 8, Hopper 128 per clock per SM. To be measured.
    f32_mul_throughput(f32; start, step, a, _b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| v * a)
    }
}

chain_kernel! {
    /// **Demonstrates** single-precision FMA throughput: `v ← fma(v, a, b)`
    /// (one `fma.rn.f32` per chain per round, two flops).
    ///
    /// **Indexing** and **launch**: as [`f32_add_throughput`].
    ///
    /// **Expected**: cc 1.x 8 (`mad`), Hopper 128 per clock per SM, the
    /// GPU's peak FP32 rate. To be measured.
    f32_fma_throughput(f32; start, step, a, b),
    seed: |k| fma(k as f32, step, start),
    round: |values| {
        each_chain(values, |v| fma(v, a, b))
    }
}

chain_kernel! {
    /// **Demonstrates** double-precision FMA throughput: `v ← fma(v, a, b)`
    /// in `f64` (one `fma.rn.f64` per chain per round).
    ///
    /// **Indexing** and **launch**: as [`f32_add_throughput`], with `f64` output.
    ///
    /// **Expected**: the guides' cc 1.3 had one FP64 unit per SM (1 per
    /// clock); Hopper (H100/H200) 64 per clock per SM, half the FP32 rate
    /// (consumer GPUs: 1/64). To be measured.
    f64_fma_throughput(f64; start, step, a, b),
    seed: |k| fma_f64(k as f64, step, start),
    round: |values| {
        each_chain(values, |v| fma_f64(v, a, b))
    }
}
