//! The control-flow kernels' OpenCL C twins (`host/opencl_c/divergence.cl`):
//! the CUDA launchers' checks ([`divergence_shape`]), the same work-groups of
//! `DIVERGENCE_BLOCK_THREADS` and grid, launched on an OpenCL queue.

use kernels_gpu::device::Signature;

use super::{ControlFlowArgs, branch_signature, checked_paths_signature, divergence_shape};
use crate::error::Result;
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{ClBuffer, ClQueue, OpenClTwins};
use crate::reference::{BranchLength, PathChoice};

/// The OpenCL C twins of the control-flow kernels (`divergence.cl`): kernels of the twins' program
/// (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = &[
    "divergent_lane_paths",
    "uniform_warp_paths",
    "short_branch_predicated",
    "long_branch_divergent",
];

/// Launches the twin of `kernel(out, selector, iterations)` on `groups` work-groups.
fn launch_control_flow(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: Signature<ControlFlowArgs>,
    out: &mut ClBuffer<f32>,
    (selector, iterations, groups): (u32, u32, u32),
) -> Result<()> {
    let shape = divergence_shape(kernel.name, groups, out.len())?;
    let twin = twins.kernel_of(kernel)?;
    // SAFETY: (float*, uint, uint) is every control-flow twin's signature (kernel_of checked it); the shape
    // check proved one float per work-item fits `out`.
    unsafe { queue.launch(twin, &nd_range(&shape), &[&*out, &selector, &iterations])? };
    Ok(())
}

/// Launches the OpenCL C paths kernel for `choice` with `paths` distinct
/// paths (1 to 32) of `iterations` rounds each, `groups` work-groups.
pub fn divergent_paths(
    twins: &OpenClTwins,
    queue: &ClQueue,
    choice: PathChoice,
    out: &mut ClBuffer<f32>,
    paths: u32,
    iterations: u32,
    groups: u32,
) -> Result<()> {
    let kernel = checked_paths_signature(choice, paths)?;
    launch_control_flow(twins, queue, kernel, out, (paths, iterations, groups))
}

/// Launches the OpenCL C if/else kernel for `length` (`select_mask` as the
/// CUDA launcher [`branch`](super::branch) takes it), `groups` work-groups.
pub fn branch(
    twins: &OpenClTwins,
    queue: &ClQueue,
    length: BranchLength,
    out: &mut ClBuffer<f32>,
    select_mask: u32,
    iterations: u32,
    groups: u32,
) -> Result<()> {
    launch_control_flow(
        twins,
        queue,
        branch_signature(length),
        out,
        (select_mask, iterations, groups),
    )
}
