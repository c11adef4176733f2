//! General matrix multiply `C = A · B` (SGEMM): the OpenCL Programming
//! Guide's tiled example (§2.5) made general, and the register-blocked design
//! that high-performance GPU SGEMMs use, in `f32` and with half-float storage.
//!
//! All kernels: row-major `A` (`m × k`), `B` (`k × n`) and `C` (`m × n`),
//! any `m, n, k ≥ 1` — not only multiples of the tile: the tiles at the
//! matrix edges load zeros for entries outside `A` or `B` (which add nothing
//! to the dot products) and store only the entries inside `C`. Products are
//! accumulated in `f32` with FMA, in increasing `k` order within each thread;
//! the split-K entry sums each span of `k` so, and adds the spans' partial
//! sums into `C` atomically (see its docs for the order of those additions).
//!
//! Every kernel reads each of its global-memory operands through one base
//! pointer and needs `m * k`, `k * n` and `m * n` elements in `A`, `B` and
//! `C`; the register-blocked kernels also need the three base pointers 16-byte
//! aligned (as `cuMemAlloc` gives). The launch shape of each is in its docs.

/// `for $i in 0..N $body` with the loop unrolled in the source, for `N` of
/// 2, 4 or 8 (`$i` is a constant `usize` in each copy of `$body`); or
/// `for $i in 0..LIMIT, at most N $body` for a `LIMIT` known only after
/// monomorphization (a tile's associated constant, at most 2, 4, 8 or 16): `N`
/// copies, each behind `if i < LIMIT`, which folds away — CUDA C's
/// `#pragma unroll` over a template parameter.
///
/// Rust has no `#pragma unroll`, and LLVM's size heuristic (like ptxas) keeps
/// a loop of 64 FMAs rolled; worse, an accumulator array indexed by a loop
/// counter cannot live in registers and goes to local memory. Register-blocked
/// kernels therefore unroll every loop that indexes their register arrays.
macro_rules! unroll {
    (for $i:ident in 0..2 $body:block) => {
        unroll!(@copies $i [0 1] $body)
    };
    (for $i:ident in 0..4 $body:block) => {
        unroll!(@copies $i [0 1 2 3] $body)
    };
    (for $i:ident in 0..8 $body:block) => {
        unroll!(@copies $i [0 1 2 3 4 5 6 7] $body)
    };
    (for $i:ident in 0..$limit:expr, at most 2 $body:block) => {
        unroll!(@bounded $i ($limit) [0 1] $body)
    };
    (for $i:ident in 0..$limit:expr, at most 4 $body:block) => {
        unroll!(@bounded $i ($limit) [0 1 2 3] $body)
    };
    (for $i:ident in 0..$limit:expr, at most 8 $body:block) => {
        unroll!(@bounded $i ($limit) [0 1 2 3 4 5 6 7] $body)
    };
    (for $i:ident in 0..$limit:expr, at most 16 $body:block) => {
        unroll!(@bounded $i ($limit) [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15] $body)
    };
    (@copies $i:ident [$($n:literal)*] $body:block) => {
        $({
            let $i: usize = $n;
            $body
        })*
    };
    (@bounded $i:ident $limit:tt [$($n:literal)*] $body:block) => {
        $(if $n < $limit {
            let $i: usize = $n;
            $body
        })*
    };
}

mod hgemm_f16_storage;
mod naive_sgemm;
mod register_blocked;
mod sgemm_register_blocked;
mod sgemm_register_blocked_split_k;
mod sgemm_warp_tiled;
mod tiled_sgemm;
mod warp_tiled;

pub use hgemm_f16_storage::{
    hgemm_f16_storage, hgemm_f16_storage_params, hgemm_f16_storage_whole_tiles, hgemm_f16_storage_whole_tiles_params,
};
pub use naive_sgemm::{naive_sgemm, naive_sgemm_params};
pub use register_blocked::{
    SGEMM_BK, SGEMM_BM, SGEMM_BN, SGEMM_THREADS, SGEMM_TILE_128X64, SGEMM_TILE_128X128, SgemmTile, sgemm_shared_bytes,
    split_k_span,
};
pub use sgemm_register_blocked::{
    sgemm_register_blocked, sgemm_register_blocked_128x64, sgemm_register_blocked_128x64_guarded_edges,
    sgemm_register_blocked_128x64_guarded_edges_params, sgemm_register_blocked_128x64_params,
    sgemm_register_blocked_128x64_whole_tiles, sgemm_register_blocked_128x64_whole_tiles_params,
    sgemm_register_blocked_guarded_edges, sgemm_register_blocked_guarded_edges_params, sgemm_register_blocked_params,
    sgemm_register_blocked_whole_tiles, sgemm_register_blocked_whole_tiles_params,
};
pub use sgemm_register_blocked_split_k::{
    sgemm_register_blocked_128x64_split_k, sgemm_register_blocked_128x64_split_k_params,
};
pub use sgemm_warp_tiled::{
    sgemm_warp_tiled, sgemm_warp_tiled_params, sgemm_warp_tiled_whole_tiles, sgemm_warp_tiled_whole_tiles_params,
};
pub use tiled_sgemm::{TILED_SGEMM_TILE, tiled_sgemm, tiled_sgemm_params, tiled_sgemm_shared_bytes};
pub use warp_tiled::{SGEMM_WARP_TILE_128X128, SgemmWarpTile};
