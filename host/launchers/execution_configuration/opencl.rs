//! The OpenCL C twin of `fma_chain` (`host/opencl_c/streams.cl`) over a
//! whole array: the CUDA launcher's shapes ([`fma_chain_shape`]) as
//! NDRanges, and OpenCL's own launch with a NULL local size.

use kernels_gpu::device::KernelSignature;
use kernels_gpu::streams::fma_chain_params;

use super::{FmaChainGrid, fma_chain_shape};
use crate::error::{Error, Result};
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{ClBuffer, ClQueue, NdRange, OpenClTwins};

/// Launches the OpenCL C `fma_chain` over all of `data` on `queue` with one
/// work-item per element: work-groups of `local` work-items (the global size
/// rounded up to a multiple of it; the kernel guards the tail), or, with
/// `None`, exactly `data.len()` work-items in work-groups whose size the
/// runtime chooses (a NULL `local_work_size`: it must divide the global size).
pub fn opencl_fma_chain_per_item(
    twins: &OpenClTwins,
    queue: &ClQueue,
    data: &mut ClBuffer<f32>,
    iterations: u32,
    local: Option<usize>,
) -> Result<()> {
    let n = data.len();
    if n == 0 || n > u32::MAX as usize || local.is_some_and(|l| l == 0 || n.div_ceil(l) * l > u32::MAX as usize) {
        return Err(Error::InvalidLaunch {
            kernel: "fma_chain",
            reason: format!("one work-item per element of a {n}-element buffer in work-groups of {local:?}"),
        });
    }
    let range = match local {
        Some(local) => NdRange::groups_1d(n.div_ceil(local), local),
        None => NdRange::runtime_local_1d(n),
    };
    launch_over(twins, queue, data, iterations, &range)
}

/// Launches the OpenCL C `fma_chain` over all of `data` on `queue`, shaped by
/// `grid` (work-groups where CUDA has blocks).
pub fn opencl_fma_chain_in(
    twins: &OpenClTwins,
    queue: &ClQueue,
    data: &mut ClBuffer<f32>,
    iterations: u32,
    grid: FmaChainGrid,
) -> Result<()> {
    match grid {
        FmaChainGrid::Blocks(_) => {
            let range = nd_range(&fma_chain_shape(grid, data.len())?);
            launch_over(twins, queue, data, iterations, &range)
        }
        FmaChainGrid::PerElement(local) => {
            opencl_fma_chain_per_item(twins, queue, data, iterations, Some(local as usize))
        }
        FmaChainGrid::RuntimeChosen => opencl_fma_chain_per_item(twins, queue, data, iterations, None),
    }
}

/// Enqueues `fma_chain(data, 0, data.len(), iterations)` over `range`, once
/// `data.len()` is known to fit a `uint`.
fn launch_over(
    twins: &OpenClTwins,
    queue: &ClQueue,
    data: &mut ClBuffer<f32>,
    iterations: u32,
    range: &NdRange,
) -> Result<()> {
    let kernel = twins.kernel(fma_chain_params::NAME)?;
    let (offset, n) = (0u32, data.len() as u32);
    // SAFETY: matches fma_chain(float*, uint, uint, uint); the kernel touches elements below n = data.len() only.
    unsafe { queue.launch(kernel, range, &[&*data, &offset, &n, &iterations])? };
    Ok(())
}
