//! The warp-tiled SGEMM body of [`sgemm_warp_tiled`] and its block tiles
//! ([`SgemmWarpTile`]): the register-blocked design with one more level of
//! tiling between the block and the thread, the warp.
//!
//! [`sgemm_warp_tiled`]: super::sgemm_warp_tiled

use super::register_blocked::load_strip;
use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, SharedPtr, block_idx_x, block_idx_y, dynamic_shared_memory, fma, sync_threads,
    thread_idx_x,
};

/// One configuration of the warp-tiled kernels: a block tile of `C`
/// (`rows × cols`, BM × BN), staged `depth` (BK) deep per step, cut into warp
/// tiles of `warp_rows × warp_cols` (WM × WN), one per warp. Each thread of a
/// warp owns 8 × 8 outputs: 2 × 2 sub-tiles of 4 × 4, the sub-tiles
/// `WM / 2` rows and `WN / 2` columns apart, so that the 32 lanes of a warp
/// cover one `WM / 2 × WN / 2` quarter of the warp tile with each sub-tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgemmWarpTile {
    /// Rows of `C` per block (BM).
    pub rows: u32,
    /// Columns of `C` per block (BN).
    pub cols: u32,
    /// Depth (`k`) of the `A` and `B` tiles staged per step (BK).
    pub depth: u32,
    /// Rows of `C` per warp (WM).
    pub warp_rows: u32,
    /// Columns of `C` per warp (WN).
    pub warp_cols: u32,
}

/// 128 × 128 × 16, warps of 64 × 32 (2 × 4 warps, 256 threads), 8 × 8 per
/// thread: 1024 FMAs a thread between barriers.
pub const SGEMM_WARP_TILE_128X128: SgemmWarpTile = SgemmWarpTile {
    rows: 128,
    cols: 128,
    depth: 16,
    warp_rows: 64,
    warp_cols: 32,
};

impl SgemmWarpTile {
    /// Threads per block: one warp per warp tile.
    pub const fn threads(self) -> u32 {
        32 * (self.rows / self.warp_rows) * (self.cols / self.warp_cols)
    }

    /// Row length (floats) of the transposed `A` tile, `As[kk][row]`: 4
    /// floats of padding make the transposing stores conflict-free (a warp
    /// writes 16 rows × 2 `k` strips, rows 4 banks apart) and keep each row
    /// 16-byte aligned for `float4` reads.
    pub const fn a_pitch(self) -> u32 {
        self.rows + 4
    }

    /// Floats of one stage: a transposed, padded `A` tile, then a `B` tile.
    pub const fn stage_floats(self) -> u32 {
        self.depth * self.a_pitch() + self.depth * self.cols
    }

    /// Dynamic shared memory of a block: two stages (double buffering), `f32`.
    pub const fn shared_bytes(self) -> usize {
        2 * self.stage_floats() as usize * size_of::<f32>()
    }

    /// The grid `(x, y)` for an `m × n` `C`: `(ceil(n / cols), ceil(m / rows))`.
    pub const fn grid(self, m: u32, n: u32) -> (u32, u32) {
        (n.div_ceil(self.cols), m.div_ceil(self.rows))
    }

    /// Whether an `m × n × k` product is made of whole tiles (the `_whole_tiles` entry's condition).
    pub const fn whole_tiles(self, m: u32, n: u32, k: u32) -> bool {
        m.is_multiple_of(self.rows) && n.is_multiple_of(self.cols) && k.is_multiple_of(self.depth)
    }

    /// The constraints the body is written for (checked at compile time per tile).
    const fn is_supported(self) -> bool {
        let threads = self.threads();
        // A warp's lanes: (WM / 2) / 4 rows of lanes × (WN / 2) / 4 columns of lanes = 32.
        self.rows.is_multiple_of(self.warp_rows)
            && self.cols.is_multiple_of(self.warp_cols)
            && (self.warp_rows / 8) * (self.warp_cols / 8) == 32
            && self.warp_rows.is_multiple_of(8)
            && self.warp_cols.is_multiple_of(8)
            // A is staged in pairs of k strips, two threads a row: BK a multiple of 8,
            // and each pass of the block covers whole pairs of rows.
            && self.depth.is_multiple_of(8)
            && (self.rows * self.depth).is_multiple_of(4 * threads)
            && (2 * self.rows).is_multiple_of(threads)
            // B: cols / 4 threads a row, whole rows per pass.
            && (self.depth * self.cols).is_multiple_of(4 * threads)
            && threads.is_multiple_of(self.cols / 4)
            && self.stage_floats().is_multiple_of(4)
    }
}

const _: () = assert!(SGEMM_WARP_TILE_128X128.is_supported());

/// A warp tile as a type, so the body is monomorphized with its sizes as constants.
pub(crate) trait WarpTileShape {
    const TILE: SgemmWarpTile;
    const BM: usize = Self::TILE.rows as usize;
    const BN: usize = Self::TILE.cols as usize;
    const BK: usize = Self::TILE.depth as usize;
    const WM: usize = Self::TILE.warp_rows as usize;
    const WN: usize = Self::TILE.warp_cols as usize;
    const THREADS: usize = Self::TILE.threads() as usize;
    const A_PITCH: usize = Self::TILE.a_pitch() as usize;
    /// Floats of one `A` tile; the `B` tile follows it.
    const A_TILE: usize = Self::BK * Self::A_PITCH;
    const STAGE: usize = Self::TILE.stage_floats() as usize;
    /// `float4` strips of `A`, and of `B`, a thread stages per tile (as many of each).
    const LOADS: usize = Self::BM * Self::BK / (4 * Self::THREADS);
    /// k steps per slice of staging (one strip of `A` and one of `B` a thread).
    const STEPS: usize = Self::BK / Self::LOADS;
    /// Lanes along a row of a warp's sub-tile (the rest go down its rows).
    const LANE_COLS: usize = Self::WN / 8;
    /// Warps along a row of the block tile.
    const WARP_COLS: usize = Self::BN / Self::WN;
}

/// [`SGEMM_WARP_TILE_128X128`] as a type.
pub(crate) struct WarpTile128x128;
impl WarpTileShape for WarpTile128x128 {
    const TILE: SgemmWarpTile = SGEMM_WARP_TILE_128X128;
}

/// The body of the warp-tiled kernels (see [`super::sgemm_warp_tiled`]) for
/// one tile `T`. With `WHOLE_TILES` (`m`, `n`, `k` multiples of `BM`, `BN`,
/// `BK`) it has no guards and uses 128-bit global accesses throughout;
/// otherwise every edge is guarded and unaligned rows are read float by float.
///
/// # Safety
/// `a`: `m * k`, `b`: `k * n` elements, `c`: `m * n` floats, all three
/// 16-byte aligned; blocks of [`SgemmWarpTile::threads`] threads, a grid of
/// [`SgemmWarpTile::grid`], [`SgemmWarpTile::shared_bytes`] of dynamic
/// shared memory (all of `T::TILE`); with `WHOLE_TILES`, the multiples above.
#[inline(always)]
pub(crate) unsafe fn warp_tiled<T: WarpTileShape, const WHOLE_TILES: bool>(
    a: GlobalPtr<f32>,
    b: GlobalPtr<f32>,
    c: GlobalMutPtr<f32>,
    m: u32,
    n: u32,
    k: u32,
) {
    const { assert!(T::TILE.is_supported()) };
    // As many strips of B as of A (a square block tile), staged in LOADS equal slices.
    const { assert!(T::LOADS <= 4 && T::BM == T::BN && T::BK % T::LOADS == 0) };
    let shared: SharedPtr<f32> = dynamic_shared_memory();
    let shared4: SharedPtr<F32x4> = dynamic_shared_memory();
    // `% THREADS` (free: a power of two, and the launch has THREADS threads)
    // tells LLVM `tid < THREADS`, so each strip's position folds into the first's plus a constant.
    let tid = thread_idx_x() as usize;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let block_row = block_idx_y() as usize * T::BM;
    let block_col = block_idx_x() as usize * T::BN;
    // Row starts are 16-byte aligned only when the row length is a multiple of 4.
    let (vector_a, vector_b, vector_c) = (k % 4 == 0, n % 4 == 0, n % 4 == 0);

    // Staging. A: strip q = tid + THREADS·s of the tile (4 floats of one row)
    // is row (q / 2) % BM, k offset 4·(q % 2) + 8·(q / 2BM): two threads a
    // row, so a warp stores 16 rows × 2 strips into the transposed tile, each
    // store instruction 32 distinct banks. B: strip q is k row q / (BN / 4),
    // columns 4·(q % (BN / 4)) ..: a row of B per BN / 4 threads.
    let a_row = |s: usize| ((tid + T::THREADS * s) / 2) % T::BM;
    let a_k = |s: usize| 4 * (tid % 2) + 8 * ((tid + T::THREADS * s) / (2 * T::BM));
    let b_k = |s: usize| (tid + T::THREADS * s) / (T::BN / 4);
    let b_col = 4 * (tid % (T::BN / 4));
    // Strip s of A, and of B, of the tile at depth k0: four floats, zeros outside A or B.
    let a_strip = |s: usize, k0: usize| {
        let (row, at) = (block_row + a_row(s), k0 + a_k(s));
        if WHOLE_TILES {
            // In float4s: k and a_k(s) are multiples of 4, so the division is exact.
            let index4 = row * (k / 4) + at / 4;
            // SAFETY: whole tiles: row < m and at + 4 <= k0 + BK <= k (the caller's k0); inside A, 16-byte aligned.
            unsafe { a.cast::<F32x4>().load(index4 as isize).to_array() }
        } else {
            // SAFETY: load_strip reads only positions < k of rows < m: inside A.
            unsafe { load_strip(a, row * k + at, row < m, at, k, vector_a) }
        }
    };
    let b_strip = |s: usize, k0: usize| {
        let at = k0 + b_k(s);
        if WHOLE_TILES {
            let index4 = at * (n / 4) + (block_col + b_col) / 4;
            // SAFETY: whole tiles: at < k0 + BK <= k and block_col + b_col + 4 <= n; inside B, 16-byte aligned.
            unsafe { b.cast::<F32x4>().load(index4 as isize).to_array() }
        } else {
            // SAFETY: load_strip reads only positions < n of rows < k: inside B.
            unsafe { load_strip(b, at * n + block_col + b_col, at < k, block_col + b_col, n, vector_b) }
        }
    };
    // Writes strip s of A (transposed) and of B into the stage at `base` (0 or STAGE).
    let stage_strips = |base: usize, s: usize, (a_values, b_values): ([f32; 4], [f32; 4])| {
        // SAFETY: a_k(s) + j < BK and a_row(s) < BM, b_k(s) < BK and b_col + 4 <= BN:
        // inside the stage's tiles; the B tile and b_col are 4-aligned.
        unsafe {
            unroll!(for j in 0..4 {
                shared.store(base + (a_k(s) + j) * T::A_PITCH + a_row(s), a_values[j]);
            });
            let at = base + T::A_TILE + b_k(s) * T::BN + b_col;
            shared4.store(at / 4, F32x4::from_array(b_values));
        }
    };

    // Compute: warp w owns the WM × WN warp tile (w / WARP_COLS, w % WARP_COLS)
    // of the block's; lane l its rows 4·(l / LANE_COLS) + {0..4} + {0, WM/2}
    // and columns 4·(l % LANE_COLS) + {0..4} + {0, WN/2}. Per k step a warp
    // reads 8 contiguous float4s of A (each broadcast to LANE_COLS lanes) and
    // LANE_COLS of B per sub-tile: one shared-memory wavefront each.
    let (warp, lane) = (tid / 32, tid % 32);
    let row_in_block = (warp / T::WARP_COLS) * T::WM + 4 * (lane / T::LANE_COLS);
    let col_in_block = (warp % T::WARP_COLS) * T::WN + 4 * (lane % T::LANE_COLS);
    let mut acc = [[0.0f32; 8]; 8];
    // The k steps `first .. first + STEPS` of the stage at `base`, STEPS = BK / LOADS.
    let multiply_steps = |base: usize, first: usize, acc: &mut [[f32; 8]; 8]| {
        let (a_base, b_base) = (base + row_in_block, base + T::A_TILE + col_in_block);
        unroll!(for step in 0..T::STEPS, at most 16 {
            let kk = first + step;
            let (a_at, b_at) = (a_base + kk * T::A_PITCH, b_base + kk * T::BN);
            let (mut a_frag, mut b_frag) = ([0.0f32; 8], [0.0f32; 8]);
            unroll!(for s in 0..2 {
                // SAFETY: row_in_block + s·WM/2 + 4 <= BM, kk < BK: inside the stage's A tile; 4-aligned.
                let strip = unsafe { shared4.load((a_at + s * T::WM / 2) / 4).to_array() };
                unroll!(for j in 0..4 {
                    a_frag[4 * s + j] = strip[j];
                });
                // SAFETY: col_in_block + s·WN/2 + 4 <= BN, kk < BK: inside the stage's B tile; 4-aligned.
                let strip = unsafe { shared4.load((b_at + s * T::WN / 2) / 4).to_array() };
                unroll!(for j in 0..4 {
                    b_frag[4 * s + j] = strip[j];
                });
            });
            unroll!(for i in 0..8 {
                unroll!(for j in 0..8 {
                    acc[i][j] = fma(a_frag[i], b_frag[j], acc[i][j]);
                });
            });
        });
    };

    // Double buffering: the next tile is staged in LOADS slices, each slice's
    // loads (one float4 of A and one of B a thread) issued before BK / LOADS
    // k steps of this tile's FMAs and stored into the other stage after them,
    // so only one slice's 8 floats are live across the FMAs; one barrier per
    // tile. The stage offsets alternate between 0 and STAGE at run time, so
    // every shared access is one register plus a constant, and the tile loop
    // is not unrolled.
    let tiles = k.div_ceil(T::BK) as u32;
    unroll!(for s in 0..T::LOADS, at most 4 {
        stage_strips(0, s, (a_strip(s, 0), b_strip(s, 0)));
    });
    sync_threads();
    let mut read = 0;
    if WHOLE_TILES {
        // Every tile but the last prefetches the next one; the last only
        // multiplies (peeled: no clamped or skipped prefetch, so the global
        // addresses advance by a constant each trip).
        for tile in 1..tiles {
            let (k0, write) = (tile as usize * T::BK, T::STAGE - read);
            unroll!(for s in 0..T::LOADS, at most 4 {
                let strips = (a_strip(s, k0), b_strip(s, k0));
                multiply_steps(read, s * T::STEPS, &mut acc);
                stage_strips(write, s, strips);
            });
            sync_threads();
            read = write;
        }
        unroll!(for s in 0..T::LOADS, at most 4 {
            multiply_steps(read, s * T::STEPS, &mut acc);
        });
    } else {
        // Past the last tile every strip is outside A and B: zeros, no loads
        // (a peeled last tile here costs ptxas hundreds of bytes of spills).
        for tile in 1..=tiles {
            let (k0, write) = (tile as usize * T::BK, T::STAGE - read);
            unroll!(for s in 0..T::LOADS, at most 4 {
                let strips = (a_strip(s, k0), b_strip(s, k0));
                multiply_steps(read, s * T::STEPS, &mut acc);
                stage_strips(write, s, strips);
            });
            sync_threads();
            read = write;
        }
    }

    unroll!(for i in 0..8 {
        let row = block_row + row_in_block + i % 4 + (i / 4) * (T::WM / 2);
        unroll!(for half in 0..2 {
            let col = block_col + col_in_block + half * (T::WN / 2);
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
