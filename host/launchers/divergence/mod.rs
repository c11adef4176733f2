//! The control-flow family (Best Practices Guide §6.1–6.2, OpenCL
//! Programming Guide §3.1.1.2): the kernels' signatures and shape check, the
//! typed CUDA launchers ([`divergent_paths`], [`branch`]), the OpenCL C
//! twins' launchers ([`opencl`]) and the family's runners, one per
//! programming model ([`DivergenceRunner`], chosen by [`divergence_runners`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaDivergenceRunner;
pub use opencl_runner::OpenClDivergenceRunner;
pub use runner::{ControlFlow, DivergenceRunner, divergence_runners};

use kernels_gpu::device::{Dim3, GlobalMutPtr, KernelSignature, Signature};
use kernels_gpu::divergence::{
    DIVERGENCE_BLOCK_THREADS, MAX_PATHS, divergent_lane_paths_params, long_branch_divergent_params,
    short_branch_predicated_params, uniform_warp_paths_params,
};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::reference::{BranchLength, PathChoice};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    ..Family::NONE
};

/// The kernel that runs `choice`'s paths.
pub fn paths_kernel(choice: PathChoice) -> &'static str {
    paths_signature(choice).name
}

/// The signature of the kernel that runs `choice`'s paths.
pub(super) fn paths_signature(choice: PathChoice) -> Signature<ControlFlowArgs> {
    match choice {
        PathChoice::ByLane => divergent_lane_paths_params::SIGNATURE,
        PathChoice::ByWarp => uniform_warp_paths_params::SIGNATURE,
    }
}

/// The kernel with `length`'s if/else.
pub fn branch_kernel(length: BranchLength) -> &'static str {
    branch_signature(length).name
}

/// The signature of the kernel with `length`'s if/else.
pub(super) fn branch_signature(length: BranchLength) -> Signature<ControlFlowArgs> {
    match length {
        BranchLength::Short => short_branch_predicated_params::SIGNATURE,
        BranchLength::Long => long_branch_divergent_params::SIGNATURE,
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

/// Every control-flow kernel's parameter list: `(out, selector, iterations)`.
pub(super) type ControlFlowArgs = (GlobalMutPtr<f32>, u32, u32);

/// Launches `kernel(out, selector, iterations)`.
fn launch_control_flow(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: Signature<ControlFlowArgs>,
    out: &mut DeviceBuffer<f32>,
    (selector, iterations, blocks): (u32, u32, u32),
) -> Result<()> {
    let shape = divergence_shape(kernel.name, blocks, out.len())?;
    let args = (out.as_global_mut(), selector, iterations);
    // SAFETY: the shape check proved one float per thread fits.
    unsafe { dut.launch_signature(implementation, kernel, shape, args) }
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
    let kernel = checked_paths_signature(choice, paths)?;
    launch_control_flow(dut, implementation, kernel, out, (paths, iterations, blocks))
}

/// The paths kernel for `choice`, once `paths` is known to be 1 to
/// [`MAX_PATHS`] (its CUDA C and OpenCL C launchers check the same).
pub(super) fn checked_paths_signature(choice: PathChoice, paths: u32) -> Result<Signature<ControlFlowArgs>> {
    let kernel = paths_signature(choice);
    if !(1..=MAX_PATHS).contains(&paths) {
        return Err(Error::InvalidLaunch {
            kernel: kernel.name,
            reason: format!("{paths} paths: between 1 and {MAX_PATHS}"),
        });
    }
    Ok(kernel)
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
        branch_signature(length),
        out,
        (select_mask, iterations, blocks),
    )
}
