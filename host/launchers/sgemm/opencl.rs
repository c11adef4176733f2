use kernels_gpu::device::KernelSignature;
use kernels_gpu::sgemm::{naive_sgemm_params, tiled_sgemm_params};

use crate::error::Result;
use crate::launchers::opencl_nd_range::nd_range;
use crate::launchers::{SgemmKernel, sgemm_shape};
use crate::opencl::{ClBuffer, ClQueue, OpenClTwins};

/// The OpenCL C twins of the general multiplies (`matrix_multiply.cl`): kernels of the twins'
/// program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = &["naive_sgemm", "tiled_sgemm"];

/// `C = A · B` (row-major, any shape) with the OpenCL `tiled_sgemm`: work-groups
/// of 16 × 16, `(ceil(n / 16), ceil(m / 16))` of them, as the CUDA launcher's
/// [`sgemm_shape`] gives; the tiles are __local arrays of the kernel.
pub fn tiled_sgemm(
    twins: &OpenClTwins,
    queue: &ClQueue,
    a: &ClBuffer<f32>,
    b: &ClBuffer<f32>,
    c: &mut ClBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    opencl_sgemm(twins, queue, SgemmKernel::Tiled, (a, b, c), dims)
}

/// `C = A · B` with one of the OpenCL guide's §2.5 kernels (`naive_sgemm`,
/// `tiled_sgemm`): the NDRange of the CUDA launcher's [`sgemm_shape`].
/// `SgemmKernel::RegisterBlocked`, `WarpTiled` and `RegisterBlockedSplitK`
/// have no OpenCL C twin: an error. (Split-K would need more than the
/// register-blocked kernel: OpenCL 1.2 has no float atomic add, which an
/// `atomic_cmpxchg` loop on the bits would stand in for.)
pub fn opencl_sgemm(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: SgemmKernel,
    (a, b, c): (&ClBuffer<f32>, &ClBuffer<f32>, &mut ClBuffer<f32>),
    (m, n, k): (u32, u32, u32),
) -> Result<()> {
    let shape = sgemm_shape(kernel, (m, n, k), (a.len(), b.len(), c.len()))?;
    let kernel = match kernel {
        SgemmKernel::Naive => twins.kernel_of(naive_sgemm_params::SIGNATURE)?,
        SgemmKernel::Tiled => twins.kernel_of(tiled_sgemm_params::SIGNATURE)?,
        SgemmKernel::RegisterBlocked | SgemmKernel::WarpTiled | SgemmKernel::RegisterBlockedSplitK => {
            return Err(crate::error::Error::InvalidInput(format!(
                "{} has no OpenCL C twin",
                kernel.kernel()
            )));
        }
    };
    // SAFETY: both match (const float*, const float*, float*, uint, uint, uint); the check proved
    // A, B and C hold m·k, k·n and m·n floats, and the kernels guard their edges.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[a, b, &*c, &m, &n, &k])? };
    Ok(())
}
