//! k distinct code paths of equal length, chosen per lane or per warp (Best
//! Practices Guide §6.1, OpenCL Programming Guide §3.1.1.2).
//!
//! Path `p` (0 ≤ p < 32) runs `iterations` rounds of
//! `x[c] ← fma(x[c], ½, (p + 1)/256)` on [`PATH_CHAINS`] values: the same
//! work on every path, with constants that make the paths different code
//! (each is its own loop in the PTX, marked by an empty `asm` comment with the
//! path number, which also keeps the compiler from merging them). Chain `c`
//! of grid-wide thread `t` starts at `(t · PATH_CHAINS + c) / 1024`, and the
//! thread stores the sum `x[0] + x[1] + x[2] + x[3]` (in that order) at `out[t]`.
//!
//! Each path's loop carries PTX's `.pragma "nounroll"`: rustc unrolls it 8
//! times and ptxas then leaves it alone. Without it ptxas unrolled each path
//! again to about 2 KB of SASS (4104 instructions for the 32 paths, against
//! 1800 with it), and with 32 paths chosen per warp every SM sub-partition
//! ran 8 of them at once: the instruction cache, not divergence, then decided
//! the warp-aligned time, which came out 1.25x one path in one run on an H100
//! and 1.00x in the next.

use crate::device::{GlobalMutPtr, WARP_SIZE, block_dim_x, block_idx_x, fma, thread_idx_x};

/// Independent values each path updates (enough that a warp's issue rate,
/// not its latency, bounds a path).
pub const PATH_CHAINS: usize = 4;

/// The most distinct paths: one per lane of a warp.
pub const MAX_PATHS: u32 = WARP_SIZE;

/// The multiplier every path applies.
const PATH_SCALE: f32 = 0.5;

/// The addend of path `path`: (path + 1) / 256, exact in `f32`.
pub const fn path_offset(path: u32) -> f32 {
    (path + 1) as f32 / 256.0
}

/// The starting value of chain `chain` of grid-wide thread `thread`.
pub const fn path_start(thread: u32, chain: usize) -> f32 {
    (thread as usize * PATH_CHAINS + chain) as f32 / 1024.0
}

/// Path `P`'s rounds on `x`, preceded by a marker naming the path.
#[inline(always)]
fn run_path<const P: u32>(mut x: [f32; PATH_CHAINS], iterations: u32) -> [f32; PATH_CHAINS] {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a PTX comment: no instruction, no register, no memory.
    unsafe {
        core::arch::asm!("// divergence path {p}", p = const P, options(nomem, nostack, preserves_flags));
    }
    let offset = path_offset(P);
    for _ in 0..iterations {
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: a PTX directive: no instruction, no register, no memory.
        unsafe {
            core::arch::asm!(".pragma \"nounroll\";", options(nomem, nostack, preserves_flags));
        }
        let [x0, x1, x2, x3] = x;
        x = [
            fma(x0, PATH_SCALE, offset),
            fma(x1, PATH_SCALE, offset),
            fma(x2, PATH_SCALE, offset),
            fma(x3, PATH_SCALE, offset),
        ];
    }
    x
}

/// Runs path `path` (below [`MAX_PATHS`]); another value leaves `x` unchanged.
#[inline(always)]
fn run_selected_path(path: u32, x: [f32; PATH_CHAINS], iterations: u32) -> [f32; PATH_CHAINS] {
    macro_rules! paths {
        ($($p:literal)*) => {
            match path {
                $($p => run_path::<$p>(x, iterations),)*
                _ => x,
            }
        };
    }
    paths!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
}

/// The shared body: path `path` for this thread, then its store.
///
/// # Safety
/// `out` must hold `gridDim.x · blockDim.x` floats.
#[inline(always)]
unsafe fn paths_kernel(out: GlobalMutPtr<f32>, thread: u32, path: u32, iterations: u32) {
    let start = [
        path_start(thread, 0),
        path_start(thread, 1),
        path_start(thread, 2),
        path_start(thread, 3),
    ];
    let [x0, x1, x2, x3] = run_selected_path(path, start, iterations);
    // SAFETY: thread < gridDim.x · blockDim.x, the caller's length.
    unsafe { out.store(thread as isize, x0 + x1 + x2 + x3) };
}

kernel! {
    /// **Demonstrates** divergence within a warp: lane `l` takes path
    /// `l mod paths`, so each warp holds `paths` distinct paths that it must
    /// run one after another (`paths` = 1, 2, 4, …, 32).
    ///
    /// **Indexing**: grid-wide thread `t` (lane `t mod 32`) computes its path
    /// and stores one float at `out[t]`.
    ///
    /// **Launch**: 1-D, blocks of `DIVERGENCE_BLOCK_THREADS`, enough to fill
    /// the GPU; `paths` between 1 and 32.
    ///
    /// **Expected**: time proportional to `paths` (each path is the same
    /// work, serialized). With Volta's independent thread scheduling the
    /// paths may interleave rather than run strictly one after another, but a
    /// warp still issues one path's instruction at a time, so the total is
    /// the same. The guides give no figure. To be measured.
    ///
    /// # Safety
    /// `out` must hold `gridDim.x · blockDim.x` floats
    /// (`launchers::divergence_shape` in the host crate checks this).
    pub unsafe fn divergent_lane_paths(out: GlobalMutPtr<f32>, paths: u32, iterations: u32) {
        let thread = block_idx_x() * block_dim_x() + thread_idx_x();
        let path = (thread % WARP_SIZE) % paths.max(1);
        // SAFETY: forwarded to the caller.
        unsafe { paths_kernel(out, thread, path, iterations) };
    }
}

kernel! {
    /// **Demonstrates** the guides' remedy: the same `paths` paths, chosen by
    /// warp (`warp mod paths`, warp = t / 32), so every warp runs a single
    /// path and none diverges ("the controlling condition is perfectly
    /// aligned with the warps").
    ///
    /// **Indexing**: as [`divergent_lane_paths`].
    ///
    /// **Launch**: as [`divergent_lane_paths`].
    ///
    /// **Expected**: the same time for every `paths`, equal to
    /// [`divergent_lane_paths`] with one path. To be measured.
    ///
    /// # Safety
    /// As [`divergent_lane_paths`].
    pub unsafe fn uniform_warp_paths(out: GlobalMutPtr<f32>, paths: u32, iterations: u32) {
        let thread = block_idx_x() * block_dim_x() + thread_idx_x();
        let path = (thread / WARP_SIZE) % paths.max(1);
        // SAFETY: forwarded to the caller.
        unsafe { paths_kernel(out, thread, path, iterations) };
    }
}
