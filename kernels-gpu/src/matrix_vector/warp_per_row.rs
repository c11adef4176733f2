use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, WARP_SIZE, block_dim_x, block_idx_x, fma, grid_dim_x, thread_idx_x,
};
use crate::warp_sum::warp_sum;

kernel! {
    /// Beyond the whitepaper: one *warp* per row, 128-bit loads, shuffle
    /// reduction — no shared memory and no block-wide barrier at all.
    ///
    /// **Demonstrates** what the whitepaper's walk leads to on today's GPUs:
    /// Listings 4–7 spend a `__syncthreads` (or several) per row so 256
    /// threads can share one row; a warp can reduce on its own with
    /// `shfl.sync`, so each warp streams its rows independently and the
    /// kernel becomes a pure read of `M`.
    ///
    /// **Indexing**: warp `k` of the grid (`blockIdx.x * warps_per_block +
    /// threadIdx.x / 32`) handles rows `k, k + K, ...` (`K` = warps in the
    /// grid); lane `l` reads `float4`s `l, l + 32, ...` of the row when
    /// `width % 4 == 0` (rows then start 16-byte aligned), four at a time
    /// (four loads in flight per lane), else floats.
    ///
    /// **Launch**: 1-D, `blockDim.x` a multiple of 32; the suite uses 256
    /// threads and `ceil(height / 8)` blocks, one row per warp, so that the
    /// block scheduler balances the rows (a grid of one full wave striding over
    /// the rows left a 12800-row matrix at 1.5 rows per warp: the second round
    /// ran half the warps); no shared memory.
    ///
    /// **Expected**: close to the copy ceiling for the bytes of `M`. On an H100
    /// (the full run of 2026-11-26, `docs/measured/h100-2026-11-26/full`):
    /// 0.092 ms at 60989 × 1100 (2924 GB/s, 98.2% of the copy ceiling, ahead
    /// of cuBLAS SGEMV's 2753 GB/s) and 0.147 ms at 12800 × 8192 (2849 GB/s,
    /// 95.0%; SGEMV 2782 GB/s). At 12800 × 8192 it and SGEMV trade places
    /// between runs (2860 against 2877, 2889 against 2872 in two later runs):
    /// 12800 rows are 1.5 rounds of the GPU's resident warps, so the last
    /// round runs half of them.
    ///
    /// # Safety
    /// `m`: `width * height` floats, `v`: `width`, `w`: `height`; `m` and `v`
    /// 16-byte aligned; `blockDim.x` a multiple of 32.
    pub unsafe fn matvec_warp_per_row(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let lane = thread_idx_x() % WARP_SIZE;
        let warps_per_block = block_dim_x() / WARP_SIZE;
        let mut y = block_idx_x() * warps_per_block + thread_idx_x() / WARP_SIZE;
        let warps = grid_dim_x() * warps_per_block;
        let vectorized = width % 4 == 0;
        let (m4, v4): (GlobalPtr<F32x4>, GlobalPtr<F32x4>) = (m.cast(), v.cast());
        while y < height {
            let row = y as isize * width as isize;
            let mut sum = 0.0f32;
            if vectorized {
                let (row4, n4) = (row / 4, width / 4);
                let mut x = lane;
                // Four float4 loads of M in flight per lane before the FMAs need them (written out:
                // a loop over an array of loads stays a loop, indexed at run time, in LLVM's PTX).
                while x + 3 * WARP_SIZE < n4 {
                    let at = |k: u32| (x + k * WARP_SIZE) as isize;
                    // SAFETY: x + 96 < width / 4 and y < height: inside M and V, 16-byte aligned (width % 4 == 0).
                    let (a0, a1, a2, a3) = unsafe {
                        (m4.load(row4 + at(0)), m4.load(row4 + at(1)), m4.load(row4 + at(2)), m4.load(row4 + at(3)))
                    };
                    // SAFETY: as above.
                    let (b0, b1, b2, b3) = unsafe { (v4.load(at(0)), v4.load(at(1)), v4.load(at(2)), v4.load(at(3))) };
                    sum = dot4(a0.to_array(), b0.to_array(), sum);
                    sum = dot4(a1.to_array(), b1.to_array(), sum);
                    sum = dot4(a2.to_array(), b2.to_array(), sum);
                    sum = dot4(a3.to_array(), b3.to_array(), sum);
                    x += 4 * WARP_SIZE;
                }
                while x < n4 {
                    // SAFETY: x < width / 4 and y < height: inside M and V, 16-byte aligned (width % 4 == 0).
                    let (a, b) = unsafe { (m4.load(row4 + x as isize).to_array(), v4.load(x as isize).to_array()) };
                    sum = dot4(a, b, sum);
                    x += WARP_SIZE;
                }
            } else {
                let mut x = lane;
                while x < width {
                    // SAFETY: x < width, y < height.
                    sum = unsafe { fma(m.load(row + x as isize), v.load(x as isize), sum) };
                    x += WARP_SIZE;
                }
            }
            let total = warp_sum(sum);
            if lane == 0 {
                // SAFETY: y < height.
                unsafe { w.store(y as isize, total) };
            }
            y += warps;
        }
    }
}

/// `sum + a · b` over four lanes, one FMA each in order x, y, z, w (as the CUDA C and OpenCL C twins).
#[inline(always)]
fn dot4(a: [f32; 4], b: [f32; 4], sum: f32) -> f32 {
    fma(a[3], b[3], fma(a[2], b[2], fma(a[1], b[1], fma(a[0], b[0], sum))))
}
