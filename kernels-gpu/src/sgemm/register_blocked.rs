//! The register-blocked SGEMM body shared by [`sgemm_register_blocked`] (f32
//! storage) and [`hgemm_f16_storage`] (binary16 storage): only the staging
//! loads differ, through [`Staged`].
//!
//! [`sgemm_register_blocked`]: super::sgemm_register_blocked
//! [`hgemm_f16_storage`]: super::hgemm_f16_storage

use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, SharedPtr, block_idx_x, block_idx_y, dynamic_shared_memory, f16_bits_to_f32, fma,
    sync_threads, thread_idx_x,
};

/// Threads per block (1-D) of the register-blocked kernels.
pub const SGEMM_THREADS: u32 = 256;
/// Rows of `C` per block.
pub const SGEMM_BM: u32 = 128;
/// Columns of `C` per block.
pub const SGEMM_BN: u32 = 128;
/// Depth (`k`) of the tiles of `A` and `B` staged per step.
pub const SGEMM_BK: u32 = 8;

const THREADS: usize = SGEMM_THREADS as usize;
const BM: usize = SGEMM_BM as usize;
const BN: usize = SGEMM_BN as usize;
const BK: usize = SGEMM_BK as usize;
/// Outputs per thread: `TM × TN`, as two 4-row strips `BM / 2` apart times
/// two 4-column strips `BN / 2` apart.
const TM: usize = 8;
const TN: usize = 8;
/// Threads along a row of the block's thread grid (16 × 16 threads).
const THREAD_COLS: usize = BN / TN;
/// Row length (floats) of the transposed `A` tile, `As[kk][row]`: the 4
/// floats of padding make the transposing stores conflict-free (rows 4 banks
/// apart) and keep each row 16-byte aligned for `float4` reads.
const A_PITCH: usize = BM + 4;
/// Floats of one staged `A` tile, and of one `B` tile (`Bs[kk][col]`, unpadded).
const A_TILE: usize = BK * A_PITCH;
const B_TILE: usize = BK * BN;
/// Floats of one stage (an `A` tile, then a `B` tile); there are two stages.
const STAGE: usize = A_TILE + B_TILE;

// Each thread stages one 4-element strip of A and one of B per tile, and owns an 8 × 8 block of C.
const _: () = assert!(BM * BK == 4 * THREADS && BK * BN == 4 * THREADS);
// The unrolled loops below are written for BK = TM = TN = 8.
const _: () = assert!((BM / TM) * (BN / TN) == THREADS && TM == 8 && TN == 8 && BK == 8);
const _: () = assert!(A_TILE % 4 == 0 && STAGE % 4 == 0 && BK % 4 == 0);

/// Dynamic shared memory of the register-blocked kernels: two stages
/// (double buffering) of one transposed, padded `A` tile and one `B` tile, in `f32`.
pub const fn sgemm_shared_bytes() -> usize {
    2 * STAGE * size_of::<f32>()
}

/// An element type the kernels stage from global memory as `f32`.
pub(crate) trait Staged: Copy {
    /// Elements `index .. index + 4` widened to `f32`, in one vector load.
    ///
    /// # Safety
    /// The four elements lie inside the buffer, `index` is a multiple of 4 and
    /// the buffer is 16-byte aligned.
    unsafe fn load4(from: GlobalPtr<Self>, index: usize) -> [f32; 4];

    /// Element `index` widened to `f32`.
    ///
    /// # Safety
    /// `index` lies inside the buffer.
    unsafe fn load1(from: GlobalPtr<Self>, index: usize) -> f32;
}

impl Staged for f32 {
    #[inline(always)]
    unsafe fn load4(from: GlobalPtr<f32>, index: usize) -> [f32; 4] {
        // SAFETY: forwarded contract; a 4-aligned index into a 16-byte-aligned buffer is a whole float4.
        unsafe { from.cast::<F32x4>().load((index / 4) as isize).to_array() }
    }

    #[inline(always)]
    unsafe fn load1(from: GlobalPtr<f32>, index: usize) -> f32 {
        // SAFETY: forwarded contract.
        unsafe { from.load(index as isize) }
    }
}

/// IEEE binary16 bits, widened with [`f16_bits_to_f32`].
impl Staged for u16 {
    #[inline(always)]
    unsafe fn load4(from: GlobalPtr<u16>, index: usize) -> [f32; 4] {
        // SAFETY: forwarded contract; four halves at a 4-aligned index are one aligned 8-byte word.
        let word = unsafe { from.cast::<u64>().load((index / 4) as isize) };
        // Little-endian: element `index + i` is bits 16i..16i+16.
        [0, 1, 2, 3].map(|i| f16_bits_to_f32((word >> (16 * i)) as u16))
    }

    #[inline(always)]
    unsafe fn load1(from: GlobalPtr<u16>, index: usize) -> f32 {
        // SAFETY: forwarded contract.
        f16_bits_to_f32(unsafe { from.load(index as isize) })
    }
}

/// Four consecutive elements of a row, `index` being that of the first: the
/// first sits at position `first` of a row of `len`; positions past `len`,
/// and the whole strip when `row_inside` is false, read as zeros without a
/// memory access. `vectorized` (uniform over the block) takes one vector load:
/// only when `len % 4 == 0` and `first % 4 == 0`, so the strip is either
/// entirely inside the row or entirely past it, and `index` is 4-aligned.
///
/// # Safety
/// Every position `< len` of a row with `row_inside` lies inside `from`'s buffer;
/// with `vectorized`, the conditions above and a 16-byte-aligned buffer.
#[inline(always)]
unsafe fn load_strip<E: Staged>(
    from: GlobalPtr<E>,
    index: usize,
    row_inside: bool,
    first: usize,
    len: usize,
    vectorized: bool,
) -> [f32; 4] {
    let mut strip = [0.0f32; 4];
    if vectorized {
        if row_inside && first < len {
            // SAFETY: the strip lies inside the row (first < len, both multiples of 4), index 4-aligned.
            strip = unsafe { E::load4(from, index) };
        }
    } else {
        unroll!(for j in 0..4 {
            if row_inside && first + j < len {
                // SAFETY: position first + j < len of a row inside the buffer.
                strip[j] = unsafe { E::load1(from, index + j) };
            }
        });
    }
    strip
}

/// The body of the register-blocked kernels (see [`super::sgemm_register_blocked`]),
/// for one kind of problem. With `WHOLE_TILES` (`m`, `n` and `k` multiples of
/// `BM`, `BN` and `BK`) it has no guards, uses 128-bit accesses throughout and
/// runs two tiles per trip of its loop, so each stage's shared-memory offsets
/// are constants; otherwise every edge is guarded. The two are separate
/// entries because ptxas allocates registers per kernel: in one kernel, the
/// guarded path lost 10% at 4095³ (H100).
///
/// # Safety
/// `a`: `m * k`, `b`: `k * n` elements, `c`: `m * n` floats, all three
/// 16-byte aligned; blocks of [`SGEMM_THREADS`] threads, a grid of
/// `(ceil(n / BN), ceil(m / BM))`, [`sgemm_shared_bytes`] of dynamic shared
/// memory; with `WHOLE_TILES`, the multiples above.
#[inline(always)]
pub(crate) unsafe fn register_blocked<E: Staged, const WHOLE_TILES: bool>(
    a: GlobalPtr<E>,
    b: GlobalPtr<E>,
    c: GlobalMutPtr<f32>,
    m: u32,
    n: u32,
    k: u32,
) {
    let shared: SharedPtr<f32> = dynamic_shared_memory();
    let shared4: SharedPtr<F32x4> = dynamic_shared_memory();
    let tid = thread_idx_x() as usize;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let block_row = block_idx_y() as usize * BM;
    let block_col = block_idx_x() as usize * BN;
    // Row starts are 16-byte aligned only when the row length is a multiple of 4.
    let (vector_a, vector_b, vector_c) = (k % 4 == 0, n % 4 == 0, n % 4 == 0);

    // Staging: this thread loads A[block_row + a_row][k0 + a_k ..][..4] and B[k0 + b_k][block_col + b_col ..][..4].
    let (a_row, a_k) = (tid / (BK / 4), tid % (BK / 4) * 4);
    let (b_k, b_col) = (tid / (BN / 4), tid % (BN / 4) * 4);
    let a_row_inside = block_row + a_row < m;
    let fetch = |k0: usize| {
        let a_index = (block_row + a_row) * k + k0 + a_k;
        let b_index = (k0 + b_k) * n + block_col + b_col;
        // SAFETY: rows < m of A and rows < k of B, positions < k and < n: inside A and B (load_strip's guards).
        unsafe {
            if WHOLE_TILES {
                // Every tile lies inside A and B; only the prefetch past the last one loads nothing.
                if k0 < k {
                    (E::load4(a, a_index), E::load4(b, b_index))
                } else {
                    ([0.0; 4], [0.0; 4])
                }
            } else {
                (
                    load_strip(a, a_index, a_row_inside, k0 + a_k, k, vector_a),
                    load_strip(b, b_index, k0 + b_k < k, block_col + b_col, n, vector_b),
                )
            }
        }
    };
    let stage_tiles = |stage: usize, (a_strip, b_strip): ([f32; 4], [f32; 4])| {
        let base = stage * STAGE;
        // SAFETY: a_k + j < BK and a_row < BM, b_k < BK and b_col + 4 <= BN: inside the stage's tiles;
        // the B tile and b_col are 4-aligned.
        unsafe {
            unroll!(for j in 0..4 {
                shared.store(base + (a_k + j) * A_PITCH + a_row, a_strip[j]);
            });
            shared4.store((base + A_TILE + b_k * BN + b_col) / 4, F32x4::from_array(b_strip));
        }
    };

    // Compute: this thread owns rows {0..4, BM/2..BM/2+4} + 4·ty and columns {0..4, BN/2..BN/2+4} + 4·tx.
    let (tx, ty) = (tid % THREAD_COLS, tid / THREAD_COLS);
    let mut acc = [[0.0f32; TN]; TM];
    let multiply_stage = |stage: usize, acc: &mut [[f32; TN]; TM]| {
        let (a_base, b_base) = (stage * STAGE + 4 * ty, stage * STAGE + A_TILE + 4 * tx);
        unroll!(for kk in 0..8 {
            let (a_at, b_at) = (a_base + kk * A_PITCH, b_base + kk * BN);
            // SAFETY: 4·ty + BM/2 + 4 <= BM and 4·tx + BN/2 + 4 <= BN, kk < BK: inside the stage; all 4-aligned.
            let (a_lo, a_hi, b_lo, b_hi) = unsafe {
                (
                    shared4.load(a_at / 4).to_array(),
                    shared4.load((a_at + BM / 2) / 4).to_array(),
                    shared4.load(b_at / 4).to_array(),
                    shared4.load((b_at + BN / 2) / 4).to_array(),
                )
            };
            let a_frag = [a_lo[0], a_lo[1], a_lo[2], a_lo[3], a_hi[0], a_hi[1], a_hi[2], a_hi[3]];
            let b_frag = [b_lo[0], b_lo[1], b_lo[2], b_lo[3], b_hi[0], b_hi[1], b_hi[2], b_hi[3]];
            unroll!(for i in 0..8 {
                unroll!(for j in 0..8 {
                    acc[i][j] = fma(a_frag[i], b_frag[j], acc[i][j]);
                });
            });
        });
    };

    // Double buffering: while the block multiplies one stage, each thread's
    // loads for the next tile are in flight; they are written to the other
    // stage afterwards, and one barrier per tile separates the two.
    let tiles = k.div_ceil(BK);
    stage_tiles(0, fetch(0));
    sync_threads();
    if WHOLE_TILES {
        // Two tiles per trip, so each stage's shared-memory offsets are constants
        // (written out twice: through one closure called with stage 0 and 1,
        // LLVM merges the two calls back into one body with a run-time stage).
        let mut tile = 0;
        while tile < tiles {
            let next = fetch((tile + 1) * BK);
            multiply_stage(0, &mut acc);
            stage_tiles(1, next);
            sync_threads();
            if tile + 1 < tiles {
                let next = fetch((tile + 2) * BK);
                multiply_stage(1, &mut acc);
                stage_tiles(0, next);
                sync_threads();
            }
            tile += 2;
        }
    } else {
        for tile in 0..tiles {
            let stage = tile % 2;
            // Past the last tile every strip is outside A and B: zeros, no loads.
            let next = fetch((tile + 1) * BK);
            multiply_stage(stage, &mut acc);
            stage_tiles(1 - stage, next);
            sync_threads();
        }
    }

    unroll!(for i in 0..8 {
        let row = block_row + 4 * ty + i % 4 + (i / 4) * (BM / 2);
        unroll!(for half in 0..2 {
            let col = block_col + 4 * tx + half * (BN / 2);
            let values = [
                acc[i][4 * half],
                acc[i][4 * half + 1],
                acc[i][4 * half + 2],
                acc[i][4 * half + 3],
            ];
            let index = row * n + col;
            if WHOLE_TILES {
                // SAFETY: whole tiles: row < m, col + 4 <= n; index 4-aligned.
                unsafe { c.cast::<F32x4>().store((index / 4) as isize, F32x4::from_array(values)) };
            } else if vector_c {
                if row < m && col < n {
                    // SAFETY: row < m, col..col + 4 <= n (both multiples of 4): inside C; index 4-aligned.
                    unsafe { c.cast::<F32x4>().store((index / 4) as isize, F32x4::from_array(values)) };
                }
            } else {
                unroll!(for j in 0..4 {
                    if row < m && col + j < n {
                        // SAFETY: row < m, col + j < n: inside C.
                        unsafe { c.store((index + j) as isize, values[j]) };
                    }
                });
            }
        });
    });
}
