use std::ffi::c_void;

use kernels_gpu::device::Dim3;
use kernels_gpu::divergence::{DIVERGENCE_BLOCK_THREADS, MAX_PATHS};

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::reference::{BranchLength, PathChoice};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The kernel that runs `choice`'s paths.
pub fn paths_kernel(choice: PathChoice) -> &'static str {
    match choice {
        PathChoice::ByLane => "divergent_lane_paths",
        PathChoice::ByWarp => "uniform_warp_paths",
    }
}

/// The kernel with `length`'s if/else.
pub fn branch_kernel(length: BranchLength) -> &'static str {
    match length {
        BranchLength::Short => "short_branch_predicated",
        BranchLength::Long => "long_branch_divergent",
    }
}

/// Checks a control-flow launch of `blocks` blocks of
/// [`DIVERGENCE_BLOCK_THREADS`] (a multiple of the warp size, so lanes and
/// warps are those of the grid-wide thread index): one float out per thread.
pub fn divergence_shape(kernel: &'static str, blocks: u32, out_len: usize) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel, reason };
    if blocks == 0 || blocks > i32::MAX as u32 {
        return Err(invalid(format!("{blocks} blocks is not a valid 1-D grid")));
    }
    let threads = blocks as u64 * DIVERGENCE_BLOCK_THREADS as u64;
    if threads > u32::MAX as u64 {
        return Err(invalid(format!(
            "{threads} threads overflow the kernel's u32 thread index"
        )));
    }
    if (out_len as u64) < threads {
        return Err(invalid(format!(
            "{threads} threads store one float each; the output holds {out_len}"
        )));
    }
    Ok(LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(DIVERGENCE_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Launches `kernel(out, selector, iterations)` (every control-flow kernel's parameter list).
fn launch_control_flow(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: &'static str,
    out: &mut DeviceBuffer<f32>,
    (selector, iterations, blocks): (u32, u32, u32),
) -> Result<()> {
    let shape = divergence_shape(kernel, blocks, out.len())?;
    let function = dut.kernel(implementation, kernel)?;
    let (mut pointer, mut selector, mut iterations) = (out.as_global_mut(), selector, iterations);
    let mut args = [
        (&raw mut pointer).cast::<c_void>(),
        (&raw mut selector).cast::<c_void>(),
        (&raw mut iterations).cast::<c_void>(),
    ];
    // SAFETY: matches (float*, unsigned, unsigned); the shape check proved one float per thread fits.
    unsafe { function.launch(dut.gpu().stream(), shape, &mut args) }
}

/// Launches the paths kernel for `choice` with `paths` distinct paths (1 to
/// 32) of `iterations` rounds each, `blocks` blocks.
pub fn divergent_paths(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    choice: PathChoice,
    out: &mut DeviceBuffer<f32>,
    paths: u32,
    iterations: u32,
    blocks: u32,
) -> Result<()> {
    let kernel = paths_kernel(choice);
    if !(1..=MAX_PATHS).contains(&paths) {
        return Err(Error::InvalidLaunch {
            kernel,
            reason: format!("{paths} paths: between 1 and {MAX_PATHS}"),
        });
    }
    launch_control_flow(dut, implementation, kernel, out, (paths, iterations, blocks))
}

/// Launches the if/else kernel for `length`; `select_mask` picks the lanes
/// that take the first side (0: none, 1: half of every warp, alternating by round).
pub fn branch(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    length: BranchLength,
    out: &mut DeviceBuffer<f32>,
    select_mask: u32,
    iterations: u32,
    blocks: u32,
) -> Result<()> {
    launch_control_flow(
        dut,
        implementation,
        branch_kernel(length),
        out,
        (select_mask, iterations, blocks),
    )
}
