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
    /// ptxas meets it without spilling (`tests/ptx_checks.rs` checks each).
    pub architectures: &'static [(u32, u32)],
}

/// 256 threads, two blocks per SM: the 8 × 8 register tile in 128 registers.
/// Unbounded, ptxas gives these 157 registers (one block per SM); bounded,
/// only sm_90's ptxas fits them in 128 without spilling (sm_75–sm_89 spill
/// 20–36 bytes, sm_100 24–40, sm_120 52–80), so the bound is for sm_90 alone.
pub const LAUNCH_BOUNDS: &[LaunchBound] = &[
    LaunchBound {
        entry: "sgemm_register_blocked",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
    },
    LaunchBound {
        entry: "hgemm_f16_storage",
        max_threads: 256,
        min_blocks_per_sm: 2,
        architectures: &[(9, 0)],
    },
];
