//! What the control-flow kernels store, computed with plain loops.

use kernels_gpu::divergence::{
    BRANCH_CHAINS, LONG_ELSE, LONG_THEN, PATH_CHAINS, SHORT_OFFSET, SHORT_SCALE, branch_start, path_offset, path_start,
    takes_first_side,
};

/// How the paths kernels pick a thread's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathChoice {
    /// Lane `l` takes path `l mod paths` (`divergent_lane_paths`).
    ByLane,
    /// Warp `w` takes path `w mod paths` (`uniform_warp_paths`).
    ByWarp,
}

/// The path thread `thread` takes.
pub fn path_of(choice: PathChoice, thread: u32, paths: u32) -> u32 {
    match choice {
        PathChoice::ByLane => (thread % 32) % paths.max(1),
        PathChoice::ByWarp => (thread / 32) % paths.max(1),
    }
}

/// `out` of a paths kernel run by `threads` threads: each thread's four
/// chains go through `iterations` rounds of `x ← fma(x, 0.5, path_offset(path))`
/// and it stores their sum.
pub fn paths_reference(choice: PathChoice, threads: u32, paths: u32, iterations: u32) -> Vec<f32> {
    (0..threads)
        .map(|t| {
            let offset = path_offset(path_of(choice, t, paths));
            let mut sum = 0.0f32;
            for c in 0..PATH_CHAINS {
                let mut x = path_start(t, c);
                for _ in 0..iterations {
                    x = x.mul_add(0.5, offset);
                }
                sum = if c == 0 { x } else { sum + x };
            }
            sum
        })
        .collect()
}

/// Which side of the if/else the branch kernels have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchLength {
    /// `short_branch_predicated`: one instruction a side.
    Short,
    /// `long_branch_divergent`: eight FMAs a side.
    Long,
}

/// `out` of a branch kernel run by `threads` threads in blocks whose size is
/// a multiple of 32 (so lane = thread mod 32).
pub fn branch_reference(length: BranchLength, threads: u32, select_mask: u32, iterations: u32) -> Vec<f32> {
    let long = |x: f32, steps: &[(f32, f32)]| steps.iter().fold(x, |x, &(m, a)| x.mul_add(m, a));
    (0..threads)
        .map(|t| {
            let lane = t % 32;
            let mut sum = 0.0f32;
            for c in 0..BRANCH_CHAINS {
                let mut x = branch_start(t, c);
                for round in 0..iterations {
                    let first = takes_first_side(lane, round, select_mask);
                    x = match (length, first) {
                        (BranchLength::Short, true) => x * SHORT_SCALE,
                        (BranchLength::Short, false) => x + SHORT_OFFSET,
                        (BranchLength::Long, true) => long(x, &LONG_THEN),
                        (BranchLength::Long, false) => long(x, &LONG_ELSE),
                    };
                }
                sum = if c == 0 { x } else { sum + x };
            }
            sum
        })
        .collect()
}
