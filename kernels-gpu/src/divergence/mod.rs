//! Control flow (Best Practices Guide chapter 6, OpenCL Programming Guide
//! §3.1.1.2): divergent paths within a warp against paths aligned with
//! warps, and a predicated if/else against a branching one.
//!
//! Since Volta (cc 7.0) each thread has its own program counter
//! (independent thread scheduling): the lanes of a diverged warp may
//! interleave their paths and need not reconverge where the code's branches
//! rejoin, unless a `__syncwarp()` or a `.sync` warp primitive says so. What
//! the guides describe still holds for cost: a warp issues one instruction
//! for one set of lanes at a time, so k distinct paths cost about k times one.

mod branch_predication;
mod path_divergence;

pub use branch_predication::{
    BRANCH_CHAINS, LONG_ELSE, LONG_SIDE_STEPS, LONG_THEN, SHORT_OFFSET, SHORT_SCALE, branch_start,
    long_branch_divergent, long_branch_divergent_params, short_branch_predicated, short_branch_predicated_params,
    takes_first_side,
};
pub use path_divergence::{
    MAX_PATHS, PATH_CHAINS, divergent_lane_paths, divergent_lane_paths_params, path_offset, path_start,
    uniform_warp_paths, uniform_warp_paths_params,
};

/// Threads per block for the divergence kernels.
pub const DIVERGENCE_BLOCK_THREADS: u32 = 256;
