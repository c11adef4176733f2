//! The array sum's OpenCL C twins (`host/opencl_c/reduction.cl`): the CUDA
//! launcher's checks ([`reduction_shape`]), the same work-groups and grids,
//! launched on an OpenCL queue. Both twins end in a __local-memory tree
//! (OpenCL C 1.2 has no shuffles).

use super::{ReductionKernel, reduction_shape};
use crate::error::Result;
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{ClBuffer, ClQueue, LocalMemory, OpenClTwins};

/// The OpenCL C twins of the array sum (`reduction.cl`): kernels of the twins' program (gathered with
/// the other families' by [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = super::PTX_ENTRIES;

/// Launches the twin of `kernel` over the first `n` elements of `x`, one
/// partial sum per work-group into `partials`; `wave_groups`: work-groups
/// that fill the device once (the grid-stride twin's grid).
pub fn reduce(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: ReductionKernel,
    (x, n): (&ClBuffer<f32>, u32),
    partials: &mut ClBuffer<f32>,
    wave_groups: u32,
) -> Result<()> {
    let shape = reduction_shape(kernel, n, (x.len(), partials.len()), wave_groups)?;
    let local = LocalMemory(shape.shared_bytes as usize);
    let twin = twins.kernel_of(kernel.signature())?;
    // SAFETY: (const float*, uint, float*, __local float*) is both twins' signature; the shape check proved x
    // holds n floats and partials one per work-group, and the __local size matches the work-group.
    unsafe { queue.launch(twin, &nd_range(&shape), &[x, &n, &*partials, &local])? };
    Ok(())
}
