use crate::error::Result;
use crate::launchers::{MatVecVersion, matvec_shape};
use crate::opencl::{ClBuffer, ClQueue, LocalMemory, NdRange, OpenClTwins};

use crate::launchers::opencl_nd_range::nd_range;

/// The OpenCL C twins of the matrix-vector versions (`matrix_vector.cl`): kernels of the twins'
/// program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)), one under each Rust version's
/// entry name.
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = super::PTX_ENTRIES;

/// The NDRange of a matrix-vector version and its __local argument, after the
/// CUDA launcher's checks ([`matvec_shape`]): the same work-groups of 256 and
/// grids (the warp-per-row version's from `warps_per_row(width)`, as in CUDA);
/// Listings 4-7 take `256 * 4` bytes of __local memory as their last argument,
/// and so does the warp-per-row version in both builds: without sub-groups its
/// per-warp reductions go through __local memory, with sub-groups the pieces
/// of a row shared by several sub-groups do (a float per sub-group).
pub fn matvec_launch(
    version: MatVecVersion,
    width: u32,
    height: u32,
    lens: (usize, usize, usize),
    wave_groups: u32,
) -> Result<(NdRange, Option<LocalMemory>)> {
    let shape = matvec_shape(version, width, height, lens, wave_groups)?;
    let local = match version {
        MatVecVersion::RowPerThread | MatVecVersion::GridStrideRows => None,
        MatVecVersion::WarpPerRow => Some(LocalMemory(shape.block.x as usize * size_of::<f32>())),
        MatVecVersion::BlockSerialSum
        | MatVecVersion::TreeInterleaved
        | MatVecVersion::TreeSequential
        | MatVecVersion::WarpShuffle => Some(LocalMemory(shape.shared_bytes as usize)),
    };
    Ok((nd_range(&shape), local))
}

/// Launches one OpenCL version: `w = m · v` for a row-major `height × width`
/// matrix. `wave_groups`: work-groups that fill the device once (the grid of the
/// grid-stride versions).
#[allow(clippy::too_many_arguments)]
pub fn matvec(
    twins: &OpenClTwins,
    queue: &ClQueue,
    version: MatVecVersion,
    m: &ClBuffer<f32>,
    width: u32,
    height: u32,
    v: &ClBuffer<f32>,
    w: &mut ClBuffer<f32>,
    wave_groups: u32,
) -> Result<()> {
    let (range, local) = matvec_launch(version, width, height, (m.len(), v.len(), w.len()), wave_groups)?;
    let kernel = twins.kernel_of(version.signature())?;
    // SAFETY: (const float*, uint, uint, const float*, float*[, __local float*]) is every version's signature
    // in both builds (sub-groups or not), the __local argument where matvec_launch gives one; the shape check proved the buffers hold the
    // matrix, vector and result, and the __local size matches the work-group.
    unsafe {
        match &local {
            Some(local) => queue.launch(kernel, &range, &[m, &width, &height, v, &*w, local])?,
            None => queue.launch(kernel, &range, &[m, &width, &height, v, &*w])?,
        }
    };
    Ok(())
}
