use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::{
    GuideMultiply, MatVecVersion, SgemmKernel, guide_multiply_shape, hgemm_f16_storage_shape, matvec_shape,
    particle_shape, sgemm_shape,
};
use crate::gpu::LaunchShape;
use crate::particle_scene::{NOTES_GRID, ParticleSystem};

/// The block (threads, dynamic shared bytes) a kernel is launched with, for
/// reports of occupancy: taken from the launchers' own shape functions on a
/// small valid problem. Kernels without a family of their own (the copies,
/// `fma_chain`, `spin_wait`) use [`COPY_BLOCK_THREADS`] and no shared memory.
pub fn nominal_shape(kernel: &str) -> LaunchShape {
    // The whole-tile entries launch exactly like their guarded ones.
    let kernel = kernel.strip_suffix("_whole_tiles").unwrap_or(kernel);
    let one_block = || -> Option<LaunchShape> {
        if let Some(guide) = GuideMultiply::ALL.into_iter().find(|g| g.kernel() == kernel) {
            return guide_multiply_shape(guide, 32, 32, (32 * 32, 32 * 32, 32 * 32)).ok();
        }
        if let Some(general) = SgemmKernel::ALL.into_iter().find(|g| g.kernel() == kernel) {
            return sgemm_shape(general, (1, 1, 1), (1, 1, 1)).ok();
        }
        if let Some(system) = ParticleSystem::ALL.into_iter().find(|s| s.kernel() == kernel) {
            let grid = NOTES_GRID;
            return particle_shape(
                system.kernel(),
                grid,
                Dim3::xy(16, 16),
                grid.vertex_floats(),
                grid.state_floats(),
            )
            .ok();
        }
        if kernel == "hgemm_f16_storage" {
            return hgemm_f16_storage_shape((1, 1, 1), (1, 1, 1)).ok();
        }
        let version = MatVecVersion::ALL.into_iter().find(|v| v.kernel() == kernel)?;
        matvec_shape(version, 1, 1, (1, 1, 1), 1).ok()
    };
    one_block().unwrap_or(LaunchShape {
        grid: Dim3::x(1),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    })
}
