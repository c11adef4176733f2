//! Barrier throughput (OpenCL Programming Guide §3.1.1.4): how many
//! `barrier()` / `__syncthreads()` an SM completes per clock when no thread
//! has to wait for another.
//!
//! Every thread of a block runs the same rounds, so each barrier finds the
//! block's warps arriving together: the kernel times the barrier itself, not
//! an imbalance between warps. The chains' adds are there so that the
//! kernel stores something checkable; integer adds are associative, so the
//! compiler may fold them into one `v + n·a` per chain, which leaves the loop
//! all barriers.

use crate::device::{GlobalMutPtr, sync_threads};
use crate::instruction_throughput::chains::each_chain;

chain_kernel! {
    /// **Demonstrates** the block-wide barrier's throughput: each round runs
    /// one `bar.sync 0` (`sync_threads`, CUDA C's `__syncthreads()`) per
    /// chain, 8 per thread per round, each followed by the chain's
    /// `v ← v + a` (wrapping). An operation is one thread passing one
    /// barrier, the guide's unit (its 8 per clock per SM is one warp's
    /// barrier every 4 clocks).
    ///
    /// **Indexing**: as `f32_add_throughput` (chain `k = thread · 8 + c`
    /// starts at `start + k · step`, wrapping); every thread of the block
    /// reaches every barrier.
    ///
    /// **Launch**: as `f32_add_throughput`, with `i32` output; one full wave
    /// of 256-thread blocks, so each barrier waits for 8 warps.
    ///
    /// **Expected**: the OpenCL guide: 8 per clock per SM on cc 1.x when no
    /// thread waits. The CUDA C Programming Guide's synchronization figure
    /// stops before cc 9.0 (16 per clock per SM for cc 7.x and 8.x, as we
    /// recall it), so Hopper's rate is measured here, not compared.
    bar_sync_throughput(i32; start, step, a, _b),
    seed: |k| start.wrapping_add((k as i32).wrapping_mul(step)),
    round: |values| {
        each_chain(values, |v| {
            sync_threads();
            v.wrapping_add(a)
        })
    }
}
