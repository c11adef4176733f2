//! The local-memory kernels' OpenCL C twins (`host/opencl_c/local_memory.cl`):
//! the CUDA launcher's checks ([`local_array_shape`]), the same work-groups
//! and grid, launched on an OpenCL queue.

use kernels_gpu::device::KernelSignature;
use kernels_gpu::local_memory::{local_array_dynamic_params, local_array_registers_params};

use super::local_memory::{LocalArrayKernel, local_array_shape};
use super::opencl_nd_range::nd_range;
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, ClQueue, OpenClTwins};

/// The local-array kernels with an OpenCL C twin: `local_array_spilled` has
/// none (its spills come from a per-kernel launch bound, which OpenCL C cannot state).
pub const OPENCL_LOCAL_ARRAY_KERNELS: [LocalArrayKernel; 2] =
    [LocalArrayKernel::Registers, LocalArrayKernel::DynamicIndex];

/// Launches the OpenCL C twin of `kernel`: work-item `t` writes
/// `reference::local_array(t, shift, rounds)` to `out[t]`.
pub fn local_array(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: LocalArrayKernel,
    (shift, rounds): (u32, u32),
    (group_size, groups): (u32, u32),
    out: &mut ClBuffer<u32>,
) -> Result<()> {
    let shape = local_array_shape(kernel, shift, (group_size, groups), out.len())?;
    let range = nd_range(&shape);
    match kernel {
        LocalArrayKernel::DynamicIndex => {
            let twin = twins.kernel_of(local_array_dynamic_params::SIGNATURE)?;
            // SAFETY: (uint, uint, uint*) is the twin's signature (kernel_of checked it); one word per work-item.
            unsafe { queue.launch(twin, &range, &[&shift, &rounds, &*out])? };
        }
        LocalArrayKernel::Registers => {
            let twin = twins.kernel_of(local_array_registers_params::SIGNATURE)?;
            // SAFETY: (uint, uint*) is the twin's signature (kernel_of checked it); one word per work-item.
            unsafe { queue.launch(twin, &range, &[&rounds, &*out])? };
        }
        LocalArrayKernel::Spilled => {
            return Err(Error::MissingKernel(format!(
                "{} has no OpenCL C twin (OpenCL C has no per-kernel launch bound to make it spill)",
                kernel.kernel()
            )));
        }
    }
    Ok(())
}
