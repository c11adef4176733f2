//! Branch predication (Best Practices Guide §6.2, OpenCL Programming Guide
//! §3.1.1.2): an if/else short enough that the compiler evaluates both sides
//! and selects (`selp` in PTX, no branch, so no divergence), against one long
//! enough that it must branch.
//!
//! Both kernels run `iterations` rounds on [`BRANCH_CHAINS`] values; in round
//! `i` lane `l` takes the first side when `(l ^ i) & select_mask != 0`.
//! `select_mask = 0` sends every lane the same way; `select_mask = 1` splits
//! every warp in half, alternating by round. (The condition depends on the
//! round so that the compiler cannot move it out of the loop.) Chain `c` of
//! grid-wide thread `t` starts at `(t · BRANCH_CHAINS + c) / 1024`, and the
//! thread stores the sum of its chains (in order) at `out[t]`.

use crate::device::{GlobalMutPtr, WARP_SIZE, block_dim_x, block_idx_x, fma, thread_idx_x};

/// Independent values per thread.
pub const BRANCH_CHAINS: usize = 4;

/// The short sides: `x · 0.75` or `x + 0.25`.
pub const SHORT_SCALE: f32 = 0.75;
pub const SHORT_OFFSET: f32 = 0.25;

/// The long sides: [`LONG_SIDE_STEPS`] dependent FMAs `x ← fma(x, m, a)`,
/// with the (m, a) pairs of [`LONG_THEN`] or [`LONG_ELSE`].
pub const LONG_SIDE_STEPS: usize = 8;
pub const LONG_THEN: [(f32, f32); LONG_SIDE_STEPS] = [
    (0.5, 0.125),
    (0.75, 0.25),
    (0.5, 0.375),
    (0.75, 0.5),
    (0.5, 0.625),
    (0.75, 0.75),
    (0.5, 0.875),
    (0.75, 1.0),
];
pub const LONG_ELSE: [(f32, f32); LONG_SIDE_STEPS] = [
    (0.625, -0.125),
    (0.875, 0.0625),
    (0.625, -0.25),
    (0.875, 0.1875),
    (0.625, -0.375),
    (0.875, 0.3125),
    (0.625, -0.5),
    (0.875, 0.4375),
];

/// Whether lane `lane` takes the first side in round `round`.
#[inline(always)]
pub const fn takes_first_side(lane: u32, round: u32, select_mask: u32) -> bool {
    (lane ^ round) & select_mask != 0
}

/// The starting value of chain `chain` of grid-wide thread `thread`.
pub const fn branch_start(thread: u32, chain: usize) -> f32 {
    (thread as usize * BRANCH_CHAINS + chain) as f32 / 1024.0
}

/// One long side: the listed FMAs, written out.
#[inline(always)]
fn long_side(x: f32, steps: &[(f32, f32); LONG_SIDE_STEPS]) -> f32 {
    let [s0, s1, s2, s3, s4, s5, s6, s7] = *steps;
    let x = fma(x, s0.0, s0.1);
    let x = fma(x, s1.0, s1.1);
    let x = fma(x, s2.0, s2.1);
    let x = fma(x, s3.0, s3.1);
    let x = fma(x, s4.0, s4.1);
    let x = fma(x, s5.0, s5.1);
    let x = fma(x, s6.0, s6.1);
    fma(x, s7.0, s7.1)
}

/// The shared skeleton: `side(first, x)` on every chain, every round.
///
/// # Safety
/// `out` must hold `gridDim.x · blockDim.x` floats.
#[inline(always)]
unsafe fn branch_kernel(out: GlobalMutPtr<f32>, select_mask: u32, iterations: u32, side: impl Fn(bool, f32) -> f32) {
    let thread = block_idx_x() * block_dim_x() + thread_idx_x();
    let lane = thread_idx_x() % WARP_SIZE;
    let mut x = [
        branch_start(thread, 0),
        branch_start(thread, 1),
        branch_start(thread, 2),
        branch_start(thread, 3),
    ];
    for round in 0..iterations {
        let first = takes_first_side(lane, round, select_mask);
        let [x0, x1, x2, x3] = x;
        x = [side(first, x0), side(first, x1), side(first, x2), side(first, x3)];
    }
    let [x0, x1, x2, x3] = x;
    // SAFETY: thread < gridDim.x · blockDim.x, the caller's length.
    unsafe { out.store(thread as isize, x0 + x1 + x2 + x3) };
}

kernel! {
    /// **Demonstrates** predication: `x ← if first { x · 0.75 } else { x + 0.25 }`
    /// is two instructions per side, so the compiler computes both and
    /// selects (`selp.f32`): no branch, and no divergence whatever `select_mask`.
    ///
    /// **Indexing**: grid-wide thread `t` stores one float at `out[t]`.
    ///
    /// **Launch**: 1-D, blocks of `DIVERGENCE_BLOCK_THREADS`, enough to fill the GPU.
    ///
    /// **Expected**: the same time for `select_mask` 0 and 1. The guides:
    /// the compiler predicates when a side has at most 4 instructions (7 if
    /// it expects divergence). To be measured.
    ///
    /// # Safety
    /// `out` must hold `gridDim.x · blockDim.x` floats
    /// (`launchers::divergence_shape` in the host crate checks this).
    pub unsafe fn short_branch_predicated(out: GlobalMutPtr<f32>, select_mask: u32, iterations: u32) {
        // SAFETY: forwarded to the caller.
        unsafe {
            branch_kernel(out, select_mask, iterations, |first, x| {
                if first { x * SHORT_SCALE } else { x + SHORT_OFFSET }
            })
        };
    }
}

kernel! {
    /// **Demonstrates** a branch the compiler must keep: each side is eight
    /// dependent FMAs per chain, so the PTX branches (`@%p bra`) and a warp
    /// whose lanes disagree runs both sides, one after the other.
    ///
    /// **Indexing**: as [`short_branch_predicated`].
    ///
    /// **Launch**: as [`short_branch_predicated`].
    ///
    /// **Expected**: `select_mask = 1` (half of each warp each way) about
    /// twice the time of `select_mask = 0`. To be measured.
    ///
    /// # Safety
    /// As [`short_branch_predicated`].
    pub unsafe fn long_branch_divergent(out: GlobalMutPtr<f32>, select_mask: u32, iterations: u32) {
        // SAFETY: forwarded to the caller.
        unsafe {
            branch_kernel(out, select_mask, iterations, |first, x| {
                if first { long_side(x, &LONG_THEN) } else { long_side(x, &LONG_ELSE) }
            })
        };
    }
}
