//! Launch bounds for kernels whose register use needs them.
//!
//! CUDA C writes `__launch_bounds__(threads, blocks)`; Rust has no way to say
//! it, so the host adds the PTX directives `.maxntid threads, 1, 1` and
//! `.minnctapersm blocks` to these entries when it loads a module (the Rust
//! PTX and the CUDA C twins alike), on the GPUs each bound was tuned for.
//! Elsewhere the kernels load unbounded.

/// One entry's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchBound {
    pub entry: &'static str,
    /// `.maxntid`: the most threads a block of this entry may have.
    pub max_threads: u32,
    /// `.minnctapersm`: blocks that must fit on one SM at once.
    pub min_blocks_per_sm: u32,
    /// Compute capabilities `(major, minor)` the bound applies to: those where
    /// it was measured to pay (`tests/ptx_checks.rs` assembles each).
    pub architectures: &'static [(u32, u32)],
    /// Spill bytes (stores, and loads) ptxas may need under the bound on
    /// those architectures; `tests/ptx_checks.rs` fails past it.
    pub max_spill_bytes: u64,
}

/// 256 threads, two blocks per SM: the 8 × 8 register tile in 128 registers.
/// Unbounded, ptxas gives these about 157 registers (one block per SM);
/// bounded, only sm_90's ptxas fits the guarded entries in 128 without
/// spilling (sm_75–sm_89 spill 20–36 bytes, sm_100 24–40, sm_120 52–80), so
/// the bounds are for sm_90 alone, where they were measured to pay.
///
/// The whole-tile entries spilled on sm_90 while they skipped the prefetch
/// past the last tile under a branch (the `nvidia-cuda-nvcc` wheel's ptxas:
/// 40-52 bytes for the f32 entry, up to 40 for the f16 one; the CUDA 13.0
/// driver's JIT on an H100 and an H200: 40 and none): loop-invariant values
/// reloaded a few times per two tiles. Reloading the last tile instead, with
/// no branch in the loop, the wheel's ptxas fits both in 128 registers
/// without spilling, and `max_spill_bytes` holds them to it (what the JIT
/// does shows in the report's kernel table: local bytes per thread). The
/// 2x-unrolled tile loop paid even with the spills: 44.5 TFLOP/s at 4096³ on
/// an H100, against 41.2 for the spill-free guarded kernel and 38.2 for the
/// same entry unbounded.
///
/// The 128 × 64 entries (8 × 4 per thread) take the same bound: the guarded
/// one needs 117 registers, the whole-tile one 95 (ptxas 13, sm_90); the bound
/// keeps them at two blocks per SM wherever the grid has enough blocks.
pub const LAUNCH_BOUNDS: &[LaunchBound] = &[
    LaunchBound {
        entry: "sgemm_register_blocked",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "sgemm_register_blocked_whole_tiles",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "sgemm_register_blocked_128x64",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "sgemm_register_blocked_128x64_whole_tiles",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    // The guarded-edges entries: the whole-tile loop for blocks inside C, the guarded one for edge blocks,
    // in one kernel under one allocation (see register_blocked_guarded_edges).
    LaunchBound {
        entry: "sgemm_register_blocked_guarded_edges",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "sgemm_register_blocked_128x64_guarded_edges",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    // Split-K on the 128 × 64 tile: the guarded-edges body with the partial tile added into C; two
    // blocks per SM is what it is for (twice the warps of the unsplit grid at 1024³).
    LaunchBound {
        entry: "sgemm_register_blocked_128x64_split_k",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "hgemm_f16_storage",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LaunchBound {
        entry: "hgemm_f16_storage_whole_tiles",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    // The warp-tiled SGEMM, two blocks of 256 threads per SM as the register-blocked one. The whole-tile
    // entry fits in 127 registers without spilling (ptxas 13, sm_90); the guarded one, with its edge guards
    // and float-by-float loads, spills 44 bytes (its tile loop reloads one value per 512 FMAs): it runs only
    // where the shape is not made of whole tiles.
    LaunchBound {
        entry: "sgemm_warp_tiled",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 48,
    },
    LaunchBound {
        entry: "sgemm_warp_tiled_whole_tiles",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
        max_spill_bytes: 0,
    },
    LAUNCH_BOUND_FOR_SPILLS,
];

/// The bound that makes `local_array_spilled` spill (the guides' §3.2.3 /
/// §4.4: too few registers a thread send variables to local memory): 1024
/// threads a block and one block per SM leave 64 registers a thread, fewer
/// than the 64-word array and its loop need (unbounded: about 75). On every
/// architecture, since spilling is the point. ptxas (the `nvidia-cuda-nvcc`
/// wheel) spills 52–68 bytes and reloads 28–36 from sm_75 to sm_120;
/// `tests/ptx_checks.rs` holds it to spilling something, and to no more than
/// `max_spill_bytes`.
pub const LAUNCH_BOUND_FOR_SPILLS: LaunchBound = LaunchBound {
    entry: "local_array_spilled",
    max_threads: 1024,
    min_blocks_per_sm: 1,
    architectures: &[(7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0)],
    max_spill_bytes: 128,
};
