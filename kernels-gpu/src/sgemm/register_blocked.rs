//! The register-blocked SGEMM body shared by [`sgemm_register_blocked`] (f32
//! storage) and [`hgemm_f16_storage`] (binary16 storage): only the staging
//! loads differ, through [`Staged`]; and its block tiles ([`SgemmTile`]), each
//! a type ([`TileShape`]) the body is monomorphized for.
//!
//! [`sgemm_register_blocked`]: super::sgemm_register_blocked
//! [`hgemm_f16_storage`]: super::hgemm_f16_storage

use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, SharedPtr, block_idx_x, block_idx_y, block_idx_z, dynamic_shared_memory,
    f16_bits_to_f32, fma, grid_dim_z, sync_threads, thread_idx_x,
};

/// Threads per block (1-D) of the register-blocked kernels, every tile.
pub const SGEMM_THREADS: u32 = 256;
/// Rows of `C` per block of the 128 × 128 tile ([`SGEMM_TILE_128X128`]).
pub const SGEMM_BM: u32 = SGEMM_TILE_128X128.rows;
/// Columns of `C` per block of the 128 × 128 tile.
pub const SGEMM_BN: u32 = SGEMM_TILE_128X128.cols;
/// Depth (`k`) of the tiles of `A` and `B` staged per step, 128 × 128 tile.
pub const SGEMM_BK: u32 = SGEMM_TILE_128X128.depth;

/// One configuration of the register-blocked kernels: the block tile of `C`
/// (`rows × cols`, BM × BN), the depth of `k` staged per step (BK) and each
/// thread's register tile (`thread_rows × thread_cols`, TM × TN), always for
/// [`SGEMM_THREADS`] threads.
///
/// A thread's `TM` rows are one strip of 4 (`TM = 4`) or two strips of 4
/// half a block tile apart (`TM = 8`); its `TN` columns likewise. `A` is
/// staged by two threads a row (so `rows` is half the threads), each
/// loading one 4-float strip per 8 of depth; `B` by `cols / 4` threads a
/// row, one strip each per `4 · THREADS / cols` rows of depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgemmTile {
    /// Rows of `C` per block (BM).
    pub rows: u32,
    /// Columns of `C` per block (BN).
    pub cols: u32,
    /// Depth (`k`) of the `A` and `B` tiles staged per step (BK).
    pub depth: u32,
    /// Rows of `C` per thread (TM): 4 or 8.
    pub thread_rows: u32,
    /// Columns of `C` per thread (TN): 4 or 8.
    pub thread_cols: u32,
}

/// 128 × 128 × 8, 8 × 8 per thread: the most arithmetic per byte staged (64
/// FMAs per four `float4` shared loads), for problems with enough blocks.
pub const SGEMM_TILE_128X128: SgemmTile = SgemmTile {
    rows: 128,
    cols: 128,
    depth: 8,
    thread_rows: 8,
    thread_cols: 8,
};

/// 128 × 64 × 16, 8 × 4 per thread: twice the blocks of the 128 × 128 tile
/// for the same threads per block, so a 1024² `C` makes 128 blocks instead of
/// 64 (32 FMAs per three `float4` shared loads); `k` staged 16 deep so each
/// barrier still covers 512 FMAs a thread.
pub const SGEMM_TILE_128X64: SgemmTile = SgemmTile {
    rows: 128,
    cols: 64,
    depth: 16,
    thread_rows: 8,
    thread_cols: 4,
};

impl SgemmTile {
    /// Row length (floats) of the transposed `A` tile, `As[kk][row]`: the 4
    /// floats of padding make the transposing stores conflict-free (rows 4
    /// banks apart) and keep each row 16-byte aligned for `float4` reads.
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

    /// Whether an `m × n × k` product is made of whole tiles (the `_whole_tiles` entries' condition).
    pub const fn whole_tiles(self, m: u32, n: u32, k: u32) -> bool {
        m.is_multiple_of(self.rows) && n.is_multiple_of(self.cols) && k.is_multiple_of(self.depth)
    }

    /// The constraints the kernel body is written for (checked at compile time for each tile).
    const fn is_supported(self) -> bool {
        let threads = SGEMM_THREADS;
        (self.thread_rows == 4 || self.thread_rows == 8)
            && (self.thread_cols == 4 || self.thread_cols == 8)
            && (self.rows / self.thread_rows) * (self.cols / self.thread_cols) == threads
            && self.rows.is_multiple_of(self.thread_rows)
            && self.cols.is_multiple_of(self.thread_cols)
            // A: two threads a row, one strip per 8 of depth, at most two strips.
            && 2 * self.rows == threads
            && (self.depth == 8 || self.depth == 16)
            // B: cols / 4 threads a row, one or two strips.
            && threads.is_multiple_of(self.cols / 4)
            && (self.depth * self.cols).is_multiple_of(4 * threads)
            && (self.depth * self.cols) / (4 * threads) >= 1
            && (self.depth * self.cols) / (4 * threads) <= 2
            && self.a_pitch().is_multiple_of(4)
            && self.stage_floats().is_multiple_of(4)
    }
}

const _: () = assert!(SGEMM_TILE_128X128.is_supported() && SGEMM_TILE_128X64.is_supported());

/// Dynamic shared memory of the 128 × 128 register-blocked kernels
/// ([`SgemmTile::shared_bytes`] of [`SGEMM_TILE_128X128`]).
pub const fn sgemm_shared_bytes() -> usize {
    SGEMM_TILE_128X128.shared_bytes()
}

/// A tile as a type, so the kernel body is monomorphized per tile with its
/// sizes as constants (the CUDA C twin: a template parameter).
pub(crate) trait TileShape {
    const TILE: SgemmTile;
    const BM: usize = Self::TILE.rows as usize;
    const BN: usize = Self::TILE.cols as usize;
    const BK: usize = Self::TILE.depth as usize;
    const TM: usize = Self::TILE.thread_rows as usize;
    const TN: usize = Self::TILE.thread_cols as usize;
    const A_PITCH: usize = Self::TILE.a_pitch() as usize;
    /// Floats of one `A` tile; the `B` tile follows it.
    const A_TILE: usize = Self::BK * Self::A_PITCH;
    const STAGE: usize = Self::TILE.stage_floats() as usize;
    /// `A` strips a thread stages per step (one per 8 of depth).
    const A_STRIPS: usize = Self::BK / 8;
    /// Rows of the `B` tile one pass of the block stages, and the passes.
    const B_PASS_ROWS: usize = 4 * THREADS / Self::BN;
    const B_STRIPS: usize = Self::BK / Self::B_PASS_ROWS;
    /// Threads along a row of the block's thread grid.
    const THREAD_COLS: usize = Self::BN / Self::TN;
}

/// [`SGEMM_TILE_128X128`] as a type.
pub(crate) struct Tile128x128;
impl TileShape for Tile128x128 {
    const TILE: SgemmTile = SGEMM_TILE_128X128;
}

/// [`SGEMM_TILE_128X64`] as a type.
pub(crate) struct Tile128x64;
impl TileShape for Tile128x64 {
    const TILE: SgemmTile = SGEMM_TILE_128X64;
}

const THREADS: usize = SGEMM_THREADS as usize;

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
        // (A pointer to element `index`, then one float4 there: `index / 4` in float4s would cost
        // a shift and a mask per load, since LLVM cannot see that `index` is a multiple of 4.)
        unsafe {
            GlobalPtr::from_raw(from.as_raw().add(index))
                .cast::<F32x4>()
                .load(0)
                .to_array()
        }
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
        let word = unsafe { GlobalPtr::from_raw(from.as_raw().add(index)).cast::<u64>().load(0) };
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
pub(super) unsafe fn load_strip<E: Staged>(
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

/// What the register-blocked body may assume of a block's edges: a type per
/// case, so that the body is monomorphized for each (the CUDA C twin: a
/// template parameter). Only [`Guarded`] is correct for every block.
pub(crate) trait Edges {
    /// Every load and store guarded, one `k` tile per trip of the loop (any block of any shape).
    const GUARDED: bool;
    /// The unguarded loads are `float4`s (rows 16-byte aligned); otherwise float by float.
    const VECTOR: bool;
    /// `k` is a multiple of `BK`: no partial last `k` tile.
    const WHOLE_K: bool;
}

/// Any block of any shape: every edge guarded.
pub(crate) struct Guarded;
impl Edges for Guarded {
    const GUARDED: bool = true;
    const VECTOR: bool = false;
    const WHOLE_K: bool = false;
}

/// `m`, `n` and `k` multiples of the tile's `BM`, `BN` and `BK`: no guards, `float4` throughout.
pub(crate) struct WholeTiles;
impl Edges for WholeTiles {
    const GUARDED: bool = false;
    const VECTOR: bool = true;
    const WHOLE_K: bool = true;
}

/// A block wholly inside `C` (its `BM` rows below `m`, its `BN` columns
/// below `n`) of any `k`: the whole `k` tiles unguarded (`float4` loads with
/// `VECTOR`, which needs `k % 4 == 0` and `n % 4 == 0`; float by float
/// otherwise), then the partial last `k` tile, if any, guarded in `k` only.
pub(crate) struct Inside<const VECTOR: bool>;
impl<const VECTOR: bool> Edges for Inside<VECTOR> {
    const GUARDED: bool = false;
    const VECTOR: bool = VECTOR;
    const WHOLE_K: bool = false;
}

/// How a block writes its tile of `C`: a type per case, so that the body is
/// monomorphized for each (as [`Edges`]).
pub(crate) trait Output {
    /// Split-K: block `z` of a grid `gridDim.z` deep multiplies only its own
    /// span of the `k` tiles ([`split_k_span`]) and adds its partial tile
    /// into `C` with `red.global.add.f32`; otherwise the block multiplies the
    /// whole of `k` and stores its tile.
    const SPLIT_K: bool;
}

/// The block's tile over all of `k`, stored into `C` (`C = A · B`).
pub(crate) struct StoreTile;
impl Output for StoreTile {
    const SPLIT_K: bool = false;
}

/// Split-K: the block's partial tile over its span of `k`, added into `C`,
/// which the host has zeroed first (`C += A[:, span] · B[span, :]`).
pub(crate) struct AddPartialTile;
impl Output for AddPartialTile {
    const SPLIT_K: bool = true;
}

/// The span `begin..end` of `k` that split `split` of `splits` multiplies: the
/// `ceil(k / depth)` tiles of `depth` are dealt out in contiguous runs of
/// `ceil(tiles / splits)`, so every span starts at a multiple of `depth` and
/// only the last nonempty one may end in a partial tile (at `k`); splits past
/// the last tile get an empty span (`begin == end == k`). With two splits and
/// `k` of at least two tiles, neither span is empty.
#[inline(always)]
pub const fn split_k_span(k: usize, depth: usize, split: usize, splits: usize) -> (usize, usize) {
    let per_split = k.div_ceil(depth).div_ceil(splits) * depth;
    let begin = if split * per_split < k { split * per_split } else { k };
    let end = if begin + per_split < k { begin + per_split } else { k };
    (begin, end)
}

/// The body of the register-blocked kernels (see [`super::sgemm_register_blocked`]),
/// for one tile `T`, one case of edges `X` and one way `O` of writing `C`. With [`WholeTiles`] and
/// [`Inside`] it has no guards in its loop, and runs two tiles per trip, so
/// each stage's shared-memory offsets are constants; with [`Guarded`] every
/// edge is guarded and the stage is a run-time offset. The cases are
/// separate entries, or separate blocks of one ([`register_blocked_guarded_edges`]),
/// because ptxas allocates registers per kernel: in one kernel with a
/// run-time choice, the guarded path lost 10% at 4095³ (H100).
///
/// # Safety
/// `a`: `m * k`, `b`: `k * n` elements, `c`: `m * n` floats, all three
/// 16-byte aligned; blocks of [`SGEMM_THREADS`] threads, a grid of
/// [`SgemmTile::grid`], [`SgemmTile::shared_bytes`] of dynamic shared
/// memory (both of `T::TILE`); with [`WholeTiles`], the multiples it names;
/// with [`Inside`], this block wholly inside `C`, and with `Inside<true>`
/// `k` and `n` multiples of 4. With [`AddPartialTile`], a grid of any depth
/// (`gridDim.z` splits of `k`) and `C` set before the launch to what the
/// partials add to (zeros for `C = A · B`); with [`StoreTile`], a depth of 1.
#[inline(always)]
pub(crate) unsafe fn register_blocked<E: Staged, T: TileShape, X: Edges, O: Output>(
    a: GlobalPtr<E>,
    b: GlobalPtr<E>,
    c: GlobalMutPtr<f32>,
    m: u32,
    n: u32,
    k: u32,
) {
    const { assert!(T::TILE.is_supported()) };
    let shared: SharedPtr<f32> = dynamic_shared_memory();
    let shared4: SharedPtr<F32x4> = dynamic_shared_memory();
    let tid = thread_idx_x() as usize;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let block_row = block_idx_y() as usize * T::BM;
    let block_col = block_idx_x() as usize * T::BN;
    // Row starts are 16-byte aligned only when the row length is a multiple of 4.
    let (vector_a, vector_b, vector_c) = (k % 4 == 0, n % 4 == 0, n % 4 == 0);
    // The part of k this block multiplies: all of it, or (split-K) its split's span. `k` stays
    // A's row length; `k_end` bounds the loads. `k_begin` is a multiple of BK, and `k_end` either k
    // or a multiple of BK, so the float4 conditions on k (vector_a) still hold at both ends.
    let (k_begin, k_end) = if O::SPLIT_K {
        split_k_span(k, T::BK, block_idx_z() as usize, grid_dim_z() as usize)
    } else {
        (0, k)
    };

    // Staging: this thread loads A[block_row + a_row][k0 + a_k + 8·s ..][..4] for each A strip s,
    // and B[k0 + b_k + B_PASS_ROWS·s][block_col + b_col ..][..4] for each B strip s.
    let (a_row, a_k) = (tid / 2, tid % 2 * 4);
    let (b_k, b_col) = (tid / (T::BN / 4), tid % (T::BN / 4) * 4);
    let a_row_inside = block_row + a_row < m;
    // The unguarded loads' per-thread starts, A[block_row + a_row][a_k] and B[b_k][block_col + b_col],
    // so that each tile's loads are one offset from them (measured on an H100: 1.3% faster at
    // 2048³ than indexing from A's and B's bases each tile). Formed with wrapping arithmetic for every
    // block; only the unguarded cases read through them, where the caller's contract puts them inside.
    let a_thread = GlobalPtr::from_raw(a.as_raw().wrapping_add((block_row + a_row) * k + a_k));
    let b_thread = GlobalPtr::from_raw(b.as_raw().wrapping_add(b_k * n + block_col + b_col));
    // Every strip of the tile at k0: guarded (load_strip's guards) with `guarded`;
    // otherwise the tile lies inside A and B (the caller's contract), loaded as
    // float4s with X::VECTOR, float by float without.
    let strips = |k0: usize, guarded: bool| {
        let (mut a_strips, mut b_strips) = ([[0.0f32; 4]; 2], [[0.0f32; 4]; 2]);
        unroll!(for s in 0..T::A_STRIPS, at most 2 {
            let a_at = k0 + a_k + 8 * s;
            let a_index = (block_row + a_row) * k + a_at;
            // SAFETY: guarded: rows < m of A, positions < k_end <= k (load_strip's guards); unguarded:
            // the caller keeps the row below m and k0 + BK <= k_end, and X::VECTOR only where k % 4 == 0.
            a_strips[s] = unsafe {
                if guarded {
                    load_strip(a, a_index, a_row_inside, a_at, k_end, vector_a)
                } else if X::VECTOR {
                    E::load4(a_thread, k0 + 8 * s)
                } else {
                    [0, 1, 2, 3].map(|j| E::load1(a_thread, k0 + 8 * s + j))
                }
            };
        });
        unroll!(for s in 0..T::B_STRIPS, at most 2 {
            let b_at = k0 + b_k + T::B_PASS_ROWS * s;
            let b_index = b_at * n + block_col + b_col;
            // SAFETY: guarded: rows < k_end <= k of B, positions < n (load_strip's guards); unguarded:
            // the caller keeps k0 + BK <= k_end and the block's columns below n, and X::VECTOR only
            // where n % 4 == 0.
            b_strips[s] = unsafe {
                if guarded {
                    load_strip(b, b_index, b_at < k_end, block_col + b_col, n, vector_b)
                } else if X::VECTOR {
                    E::load4(b_thread, (k0 + T::B_PASS_ROWS * s) * n)
                } else {
                    [0, 1, 2, 3].map(|j| E::load1(b_thread, (k0 + T::B_PASS_ROWS * s) * n + j))
                }
            };
        });
        (a_strips, b_strips)
    };
    // The tile loops' loads: guarded in the Guarded case only. (One closure with the
    // choice fixed: the guarded loop then compiles as it did before the other cases
    // existed; called with a run-time-looking flag, LLVM reshuffled it and ptxas
    // spilled 16 bytes in sgemm_register_blocked, 44 in hgemm_f16_storage.)
    let fetch = |k0: usize| strips(k0, X::GUARDED);
    let stage_tiles = |stage: usize, (a_strips, b_strips): ([[f32; 4]; 2], [[f32; 4]; 2])| {
        let base = stage * T::STAGE;
        // SAFETY: a_k + 8·s + j < BK and a_row < BM, b_k + B_PASS_ROWS·s < BK and b_col + 4 <= BN:
        // inside the stage's tiles; the B tile and b_col are 4-aligned.
        unsafe {
            unroll!(for s in 0..T::A_STRIPS, at most 2 {
                unroll!(for j in 0..4 {
                    shared.store(base + (a_k + 8 * s + j) * T::A_PITCH + a_row, a_strips[s][j]);
                });
            });
            unroll!(for s in 0..T::B_STRIPS, at most 2 {
                // In float4s: every term a multiple of 4 floats (b_col too).
                let at = (base + T::A_TILE + (b_k + T::B_PASS_ROWS * s) * T::BN) / 4 + b_col / 4;
                shared4.store(at, F32x4::from_array(b_strips[s]));
            });
        }
    };

    // Compute: this thread owns rows 4·ty + {0..4} (and + BM/2 when TM = 8)
    // and columns 4·tx + {0..4} (and + BN/2 when TN = 8) of the block's tile.
    let (tx, ty) = (tid % T::THREAD_COLS, tid / T::THREAD_COLS);
    // Sized for the largest register tile; a smaller tile's unused entries are never touched and fold away.
    let mut acc = [[0.0f32; 8]; 8];
    type Fragments = ([f32; 8], [f32; 8]);
    // One k step's fragments: the TM floats of A's column `kk` and the TN of B's row `kk` that this
    // thread multiplies, read from `stage`.
    let fragments = |stage: usize, kk: usize| {
        // Indices in float4s, each a per-thread base plus constants (every term a multiple of 4
        // floats), so that each load's address is one register plus an immediate offset.
        let (a_at, b_at) = (
            (stage * T::STAGE + kk * T::A_PITCH) / 4 + ty,
            (stage * T::STAGE + T::A_TILE + kk * T::BN) / 4 + tx,
        );
        let (mut a_frag, mut b_frag) = ([0.0f32; 8], [0.0f32; 8]);
        unroll!(for s in 0..T::TM / 4, at most 2 {
            // SAFETY: 4·ty + s·BM/2 + 4 <= BM, kk < BK: inside the stage's A tile.
            let strip = unsafe { shared4.load(a_at + s * T::BM / 8).to_array() };
            unroll!(for j in 0..4 {
                a_frag[4 * s + j] = strip[j];
            });
        });
        unroll!(for s in 0..T::TN / 4, at most 2 {
            // SAFETY: 4·tx + s·BN/2 + 4 <= BN, kk < BK: inside the stage's B tile.
            let strip = unsafe { shared4.load(b_at + s * T::BN / 8).to_array() };
            unroll!(for j in 0..4 {
                b_frag[4 * s + j] = strip[j];
            });
        });
        (a_frag, b_frag)
    };
    // One k step's TM × TN FMAs.
    let fma_step = |(a_frag, b_frag): Fragments, acc: &mut [[f32; 8]; 8]| {
        unroll!(for i in 0..T::TM, at most 8 {
            unroll!(for j in 0..T::TN, at most 8 {
                acc[i][j] = fma(a_frag[i], b_frag[j], acc[i][j]);
            });
        });
    };
    // A stage's first BK − 1 k steps, given the first step's fragments: each step's FMAs are issued after
    // the next step's fragments are requested, so no FMA waits on a shared-memory load. Returns the last
    // step's fragments; the caller runs that step's FMAs after it has staged the next tile, passed the
    // barrier and requested the next stage's first fragments, so that they hide that load too.
    let multiply_stage = |stage: usize, first: Fragments, acc: &mut [[f32; 8]; 8]| {
        let mut current = first;
        unroll!(for kk in 0..T::BK, at most 16 {
            if kk + 1 < T::BK {
                let next = fragments(stage, kk + 1);
                fma_step(current, acc);
                current = next;
            }
        });
        current
    };

    // Double buffering, twice: while the block multiplies one stage, each thread's
    // loads for the next tile are in flight, written to the other stage before its last
    // k step, and one barrier per tile separates the two; and in registers, the
    // fragments of each k step are read during the step before, across the barrier too.
    // One tile: fetch the tile at `next_k0` into registers, multiply `stage` but its last k step,
    // store the fetched tile into the other stage, pass the barrier, request the other stage's
    // first fragments, and run the last k step's FMAs; evaluates to those first fragments. (A
    // macro, not a closure: LLVM kept a closure called from four places out of line, its
    // arrays on the stack.)
    macro_rules! step {
        ($stage:expr, $next_k0:expr, $first:expr) => {{
            let stage: usize = $stage;
            let next = fetch($next_k0);
            let last = multiply_stage(stage, $first, &mut acc);
            stage_tiles(1 - stage, next);
            sync_threads();
            let following = fragments(1 - stage, 0);
            fma_step(last, &mut acc);
            following
        }};
    }
    if X::GUARDED {
        let tiles = (k_end - k_begin).div_ceil(T::BK);
        stage_tiles(0, fetch(k_begin));
        sync_threads();
        let mut first = fragments(0, 0);
        for tile in 0..tiles {
            // Past the last tile every strip is outside A and B (or past the span): zeros, no loads.
            first = step!(tile % 2, k_begin + (tile + 1) * T::BK, first);
        }
    } else {
        // The whole k tiles, two per trip with the stages as constants, so that every
        // shared-memory address is a register plus an immediate; an odd count runs its
        // first tile alone, from stage 1, so that the pairs after it run stages 0 and 1
        // (measured on an H100: a loop of pairs while `tile + 1 < tiles` followed by an odd
        // last tile ran 2.5% slower at 2048³). Every tile lies inside A and B; the prefetch
        // past the last tile loads the last one again (never multiplied), so no branch
        // skips loads: skipping them cost 40 bytes of spills (ptxas 13, sm_90), and a
        // choice between a load and zeros became a load through a generic pointer to
        // either A/B or a stack array of zeros. The counters are `u32` (`k` is).
        let tiles = ((k_end - k_begin) / T::BK) as u32;
        let k0 = |tile: u32| k_begin + tile as usize * T::BK;
        let last_tile = tiles.saturating_sub(1);
        // Whole tiles have at least one k tile, but a split's span may be empty.
        if (X::WHOLE_K && !O::SPLIT_K) || tiles > 0 {
            let (mut first, mut tile);
            if tiles % 2 == 1 {
                stage_tiles(1, fetch(k_begin));
                sync_threads();
                first = step!(1, k0(1.min(last_tile)), fragments(1, 0));
                tile = 1;
            } else {
                stage_tiles(0, fetch(k_begin));
                sync_threads();
                first = fragments(0, 0);
                tile = 0;
            }
            while tile < tiles {
                first = step!(0, k0(tile + 1), first);
                first = step!(1, k0((tile + 2).min(last_tile)), first);
                tile += 2;
            }
            let _ = first;
        }
        if !X::WHOLE_K && !(k_end - k_begin).is_multiple_of(T::BK) {
            // The partial last k tile, guarded (zeros past k), not overlapped with
            // anything. The loop's last step (stage 1) read stage 0's first fragments
            // after its barrier, so a barrier comes first.
            sync_threads();
            stage_tiles(0, strips(k_begin + tiles as usize * T::BK, true));
            sync_threads();
            let last = multiply_stage(0, fragments(0, 0), &mut acc);
            fma_step(last, &mut acc);
        }
    }

    unroll!(for i in 0..T::TM, at most 8 {
        let row = block_row + 4 * ty + i % 4 + (i / 4) * (T::BM / 2);
        unroll!(for half in 0..T::TN / 4, at most 2 {
            let col = block_col + 4 * tx + half * (T::BN / 2);
            let values = [
                acc[i][4 * half],
                acc[i][4 * half + 1],
                acc[i][4 * half + 2],
                acc[i][4 * half + 3],
            ];
            let index = row * n + col;
            if O::SPLIT_K {
                // One red.global.add.f32 per element: the other splits add into the same elements.
                unroll!(for j in 0..4 {
                    if !X::GUARDED || (row < m && col + j < n) {
                        // SAFETY: row < m, col + j < n, checked here or (unguarded cases) by the caller's contract.
                        unsafe { c.red_add((index + j) as isize, values[j]) };
                    }
                });
            } else if X::WHOLE_K {
                // SAFETY: whole tiles: row < m, col + 4 <= n; index 4-aligned.
                unsafe { c.cast::<F32x4>().store((index / 4) as isize, F32x4::from_array(values)) };
            } else if !X::GUARDED {
                // A block inside C: row < m and col + 4 <= n.
                if vector_c {
                    // SAFETY: inside C (above); n and col multiples of 4: index 4-aligned.
                    unsafe { c.cast::<F32x4>().store((index / 4) as isize, F32x4::from_array(values)) };
                } else {
                    unroll!(for j in 0..4 {
                        // SAFETY: inside C (above).
                        unsafe { c.store((index + j) as isize, values[j]) };
                    });
                }
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

/// The body of the `_guarded_edges` entries: each block checks whether it
/// lies wholly inside `C`; if so it runs [`Inside`] (whole `k` tiles without
/// guards, two per trip, `float4`s where `k` and `n` are multiples of 4), and
/// otherwise [`Guarded`]. The test is uniform over the block, so no warp
/// diverges; ptxas allocates registers for the kernel as a whole, so the
/// three paths share one allocation. Under the sm_90 launch bound it fits all
/// three in 128 registers without spills, and each loop's SASS is close to
/// that of its own entry: the inside loops 1129 instructions per two tiles
/// with `float4`s (the whole-tile entry's 1131), the guarded loop 645 a tile
/// (its entry's 659) (ptxas 13; the figures per entry are in
/// [`super::sgemm_register_blocked_guarded_edges`]).
///
/// # Safety
/// As [`register_blocked`] with [`Guarded`] and `O`.
#[inline(always)]
pub(crate) unsafe fn register_blocked_guarded_edges<E: Staged, T: TileShape, O: Output>(
    a: GlobalPtr<E>,
    b: GlobalPtr<E>,
    c: GlobalMutPtr<f32>,
    m: u32,
    n: u32,
    k: u32,
) {
    let (m_, n_) = (m as usize, n as usize);
    let rows_end = (block_idx_y() as usize + 1) * T::BM;
    let cols_end = (block_idx_x() as usize + 1) * T::BN;
    // SAFETY (all three): forwarded contract; Inside only for a block inside C, Inside<true>
    // only where k and n are multiples of 4.
    unsafe {
        if rows_end <= m_ && cols_end <= n_ {
            if k % 4 == 0 && n % 4 == 0 {
                register_blocked::<E, T, Inside<true>, O>(a, b, c, m, n, k)
            } else {
                register_blocked::<E, T, Inside<false>, O>(a, b, c, m, n, k)
            }
        } else {
            register_blocked::<E, T, Guarded, O>(a, b, c, m, n, k)
        }
    }
}
