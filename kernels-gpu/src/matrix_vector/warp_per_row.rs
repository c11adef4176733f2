use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, WARP_SIZE, block_dim_x, block_idx_x, dynamic_shared_memory, fma, grid_dim_x,
    sync_threads, thread_idx_x,
};
use crate::warp_sum::warp_sum;

/// The fewest `float4`s of a row one warp of [`matvec_warp_per_row`] reads
/// when several warps share the row: 256 (4 KB, eight loads per lane).
pub const MIN_WARP_PIECE_FLOAT4S: u32 = 256;

/// The most warps that share one row of [`matvec_warp_per_row`] (a 256-thread block's 8).
pub const MAX_WARPS_PER_ROW: u32 = 8;

/// How many warps of [`matvec_warp_per_row`] share a row `width` floats wide:
/// the largest of 8, 4, 2 whose pieces hold at least [`MIN_WARP_PIECE_FLOAT4S`]
/// `float4`s (`(width / 4) / warps >= 256`), else 1; always 1 when
/// `width % 4 != 0` (rows are then read as floats, one warp each).
///
/// 1 at width 1100 (275 `float4`s: one warp per row), 2 at 2048, 4 at 4096,
/// 8 at 8192. The one rule of the kernel, of its launch shape
/// (`host/launchers/matrix_vector`) and of its CUDA C and OpenCL C twins
/// (`warps_per_row` in `host/cuda_c/matrix_vector.cu` and
/// `host/opencl_c/matrix_vector.cl`).
pub const fn warps_per_row(width: u32) -> u32 {
    if width % 4 != 0 {
        return 1;
    }
    let mut warps = MAX_WARPS_PER_ROW;
    while warps > 1 && (width / 4) / warps < MIN_WARP_PIECE_FLOAT4S {
        warps /= 2;
    }
    warps
}

/// The warps that share each row in a block of `block_warps` warps:
/// [`warps_per_row`]`(width)`, halved until it divides `block_warps` (the
/// suite's blocks of 8 warps take it as it is). The block handles
/// `block_warps / parts` rows at a time.
pub const fn block_row_parts(width: u32, block_warps: u32) -> u32 {
    let mut parts = warps_per_row(width);
    while parts > 1 && !block_warps.is_multiple_of(parts) {
        parts /= 2;
    }
    parts
}

/// The launch of [`matvec_warp_per_row`] for rows `width` floats wide in
/// blocks of `block_threads` threads (a multiple of 32): the rows a block
/// handles at a time (`block_threads / 32 / `[`block_row_parts`]), and the
/// bytes of dynamic shared memory it needs (a float per warp where a row has
/// several warps, else none). The suite's launcher takes its grid
/// (`ceil(height / rows)`) and shared memory from here.
pub const fn warp_per_row_block(width: u32, block_threads: u32) -> (u32, u32) {
    let warps = block_threads / WARP_SIZE;
    let parts = block_row_parts(width, warps);
    let shared_bytes = if parts > 1 { warps * size_of::<f32>() as u32 } else { 0 };
    (warps / parts, shared_bytes)
}

/// The `float4`s `[begin, end)` of a row that piece `part` of `parts` covers,
/// for a row of `n4` `float4`s: pieces of `ceil(n4 / parts)` rounded up to a
/// multiple of 8 (128 bytes), the last ones shorter or empty.
#[inline(always)]
const fn piece(n4: u32, part: u32, parts: u32) -> (u32, u32) {
    let per = n4.div_ceil(parts).div_ceil(8) * 8;
    let begin = if part * per < n4 { part * per } else { n4 };
    let end = if begin + per < n4 { begin + per } else { n4 };
    (begin, end)
}

kernel! {
    /// Beyond the whitepaper: a warp per row (several warps per wide row),
    /// 128-bit loads, shuffle reduction — no shared memory and no block-wide
    /// barrier where a row has one warp.
    ///
    /// **Demonstrates** what the whitepaper's walk leads to on today's GPUs:
    /// Listings 4–7 spend a `__syncthreads` (or several) per row so 256
    /// threads can share one row; a warp can reduce on its own with
    /// `shfl.sync`, so each warp streams its rows independently and the
    /// kernel becomes a pure read of `M`. A wide row is split among
    /// [`warps_per_row`]`(width)` warps, each a contiguous piece of at least
    /// 4 KB: at one warp per row, 12800 rows of 32 KB are 2.02 rounds of the
    /// H100's 6336 resident warps (48 per SM), each warp a long serial stream,
    /// while 8 warps per row make 102400 short ones; a short row (1100
    /// floats) split into pieces loses (the table below), so it keeps one warp.
    ///
    /// **Indexing**: `parts` = [`block_row_parts`]`(width, blockDim.x / 32)`
    /// (= `warps_per_row(width)` for the suite's 8 warps). Each block handles
    /// `R = blockDim.x / 32 / parts` rows at a time: groups of rows
    /// `g = blockIdx.x, blockIdx.x + gridDim.x, ...`; warp `q` of the block
    /// works on row `g * R + q / parts`, piece `q % parts`: `float4`s
    /// `[p * per, min((p + 1) * per, width / 4))` with `per = ceil(width / 4 /
    /// parts)` rounded up to a multiple of 8. Lane `l` reads `float4`s
    /// `l, l + 32, ...` of its piece, four at a time (four loads in flight
    /// per lane), then one at a time; rows start 16-byte aligned when
    /// `width % 4 == 0`; else (always one warp per row) floats `l, l + 32, ...`.
    /// Each lane adds its products in order with FMAs (x, y, z, w of each
    /// `float4`), then `warp_sum`. With `parts == 1`, lane 0 stores the warp's
    /// sum and the warp goes on to row `+ gridDim.x * R` (no shared memory,
    /// no barrier). With `parts > 1`, lane 0 of warp `q` writes its sum to
    /// shared `pieces[q]`, a barrier, lane 0 of the row's first warp adds
    /// `pieces[q + 1], ..., pieces[q + parts - 1]` to `pieces[q]` in that order
    /// and stores the row, and a barrier before the next group (the loop over
    /// groups is the same for the whole block: warps past the last row read
    /// nothing but reach both barriers). The CUDA C and OpenCL C twins do the
    /// same in the same order (the CUDA C one bit for bit).
    ///
    /// **Launch**: 1-D, `blockDim.x` a multiple of 32; the suite uses 256
    /// threads and `ceil(height / (8 / warps_per_row(width)))` blocks, one
    /// group of rows per block (1 row per warp at width 1100, so that the block
    /// scheduler balances the rows: a grid of one full wave striding over the
    /// rows left a 12800-row matrix at 1.5 rows per warp, the second round ran
    /// half the warps), and `blockDim.x / 32 * 4` bytes of dynamic shared
    /// memory where `parts > 1` (none at `parts == 1`).
    ///
    /// **Expected**: close to the copy ceiling for the bytes of `M`, and ahead
    /// of cuBLAS SGEMV on both of the experiment's shapes. In the suite on an
    /// H100 (`docs/measured/h100-2026-11-26/streams-matvec`, GB/s, median of
    /// 11): 2915 at 60989 × 1100 (97.8% of the copy ceiling's 2980; SGEMV
    /// 2746) and 3087 at 12800 × 8192 (SGEMV 2877; the copy ceiling 2998
    /// counts a read and a write, this kernel only reads); the repeat run
    /// within 0.1%. One warp per row had given 2860–2890 at 12800 × 8192,
    /// where SGEMV and it traded places between runs: 12800 rows were two
    /// rounds of the 48 resident warps per SM and a last round of 128 rows.
    /// Why the pieces: `gpu-checks/matvec_variants.cu` on an H100
    /// (2026-11-26, GB/s, median of 9; `docs/measured/h100-2026-11-26/matvec-variants.txt`):
    ///
    /// | variant | 60989 × 1100 | 12800 × 8192 |
    /// |---|---|---|
    /// | 1 warp per row (this kernel at 1100) | 2915 | 2856 |
    /// | 2 warps per row | 2856 | 2964 |
    /// | 4 warps per row | 2558 | 3045 |
    /// | 8 warps per row (this kernel at 8192) | 1982 | 3096 |
    /// | cuBLAS SGEMV | 2724 | 2822 |
    /// | copy ceiling | 2974 | 2995 |
    ///
    /// # Safety
    /// `m`: `width * height` floats, `v`: `width`, `w`: `height`; `m` and `v`
    /// 16-byte aligned; `blockDim.x` a multiple of 32; where
    /// `block_row_parts(width, blockDim.x / 32) > 1`, at least
    /// `blockDim.x / 32 * 4` bytes of dynamic shared memory.
    pub unsafe fn matvec_warp_per_row(m: GlobalPtr<f32>, width: u32, height: u32, v: GlobalPtr<f32>, w: GlobalMutPtr<f32>) {
        let (warp, lane) = (thread_idx_x() / WARP_SIZE, thread_idx_x() % WARP_SIZE);
        let warps_per_block = block_dim_x() / WARP_SIZE;
        let parts = block_row_parts(width, warps_per_block);
        let (m4, v4): (GlobalPtr<F32x4>, GlobalPtr<F32x4>) = (m.cast(), v.cast());
        if parts == 1 {
            let mut y = block_idx_x() * warps_per_block + warp;
            let warps = grid_dim_x() * warps_per_block;
            while y < height {
                let row = y as isize * width as isize;
                let sum = if width % 4 == 0 {
                    // SAFETY: y < height; width % 4 == 0, so the row's width / 4 float4s are 16-byte aligned.
                    unsafe { float4_dot(m4, row / 4, v4, 0, lane, width / 4) }
                } else {
                    let mut sum = 0.0f32;
                    let mut x = lane;
                    while x < width {
                        // SAFETY: x < width, y < height.
                        sum = unsafe { fma(m.load(row + x as isize), v.load(x as isize), sum) };
                        x += WARP_SIZE;
                    }
                    sum
                };
                let total = warp_sum(sum);
                if lane == 0 {
                    // SAFETY: y < height.
                    unsafe { w.store(y as isize, total) };
                }
                y += warps;
            }
        } else {
            // parts > 1 only where width % 4 == 0 (warps_per_row): float4 pieces.
            let rows_per_block = warps_per_block / parts;
            let (part, n4) = (warp % parts, width / 4);
            let (begin, end) = piece(n4, part, parts);
            let pieces = dynamic_shared_memory::<f32>();
            let mut first = block_idx_x() * rows_per_block;
            while first < height {
                let y = first + warp / parts;
                let sum = if y < height {
                    // Indices from the piece's first float4 (not x from begin + lane to end): ptxas (sm_90)
                    // then keeps the kernel at 34 registers, 48 warps per SM at one warp per row.
                    let at = y as isize * n4 as isize + begin as isize;
                    // SAFETY: y < height; [begin, end) lies in the row's n4 float4s, 16-byte aligned.
                    warp_sum(unsafe { float4_dot(m4, at, v4, begin as isize, lane, end - begin) })
                } else {
                    0.0
                };
                // SAFETY: warp and, for the row's first warp (part == 0), warp + parts - 1 are below
                // blockDim.x / 32, the floats of shared memory the launch gives; the first barrier orders the
                // pieces' stores before their loads, the second the loads before the next group's stores.
                unsafe {
                    if lane == 0 {
                        pieces.store(warp as usize, sum);
                    }
                    sync_threads();
                    if lane == 0 && part == 0 && y < height {
                        let mut total = pieces.load(warp as usize);
                        for p in 1..parts {
                            total += pieces.load((warp + p) as usize);
                        }
                        w.store(y as isize, total);
                    }
                    sync_threads();
                }
                first += grid_dim_x() * rows_per_block;
            }
        }
    }
}

/// One lane's sum over `float4`s `x, x + 32, ... < end` of a piece of a row:
/// `m4[m_at + x]` with `v4[v_at + x]` (`m_at`: the piece's first `float4` in
/// `M`, `v_at`: in `V`), four loads of `M` in flight, then the rest one at a
/// time; FMAs in column order.
///
/// # Safety
/// `m4[m_at + end - 1]` and `v4[v_at + end - 1]` exist (when `x < end`).
#[inline(always)]
unsafe fn float4_dot(
    m4: GlobalPtr<F32x4>,
    m_at: isize,
    v4: GlobalPtr<F32x4>,
    v_at: isize,
    mut x: u32,
    end: u32,
) -> f32 {
    let mut sum = 0.0f32;
    // Four float4 loads of M in flight per lane before the FMAs need them (written out:
    // a loop over an array of loads stays a loop, indexed at run time, in LLVM's PTX).
    while x + 3 * WARP_SIZE < end {
        let at = |k: u32| (x + k * WARP_SIZE) as isize;
        // SAFETY: x + 96 < end (caller: inside the piece of M and V), 16-byte aligned.
        let (a0, a1, a2, a3) = unsafe {
            (
                m4.load(m_at + at(0)),
                m4.load(m_at + at(1)),
                m4.load(m_at + at(2)),
                m4.load(m_at + at(3)),
            )
        };
        // SAFETY: as above.
        let (b0, b1, b2, b3) = unsafe {
            (
                v4.load(v_at + at(0)),
                v4.load(v_at + at(1)),
                v4.load(v_at + at(2)),
                v4.load(v_at + at(3)),
            )
        };
        sum = dot4(a0.to_array(), b0.to_array(), sum);
        sum = dot4(a1.to_array(), b1.to_array(), sum);
        sum = dot4(a2.to_array(), b2.to_array(), sum);
        sum = dot4(a3.to_array(), b3.to_array(), sum);
        x += 4 * WARP_SIZE;
    }
    while x < end {
        // SAFETY: x < end (caller: inside the piece of M and V), 16-byte aligned.
        let (a, b) = unsafe {
            (
                m4.load(m_at + x as isize).to_array(),
                v4.load(v_at + x as isize).to_array(),
            )
        };
        sum = dot4(a, b, sum);
        x += WARP_SIZE;
    }
    sum
}

/// `sum + a · b` over four lanes, one FMA each in order x, y, z, w (as the CUDA C and OpenCL C twins).
#[inline(always)]
fn dot4(a: [f32; 4], b: [f32; 4], sum: f32) -> f32 {
    fma(a[3], b[3], fma(a[2], b[2], fma(a[1], b[1], fma(a[0], b[0], sum))))
}
