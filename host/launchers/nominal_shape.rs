use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::{
    compat_layer, constant_memory, guide_multiply, latency, local_memory, matrix_vector, occupancy, particles,
    reduction, sgemm, shared_memory_banks,
};
use crate::gpu::LaunchShape;

/// A kernel family's declaration of the shapes its entries are reported
/// with: `Some` for an entry of the family, `None` for any other.
type FamilyNominalShape = fn(&str) -> Option<LaunchShape>;

/// Every family that declares its nominal shapes, each beside its launcher:
/// a new family adds its `nominal_shape` there and one line here.
const FAMILIES: [FamilyNominalShape; 11] = [
    guide_multiply::nominal_shape,
    sgemm::nominal_shape,
    particles::nominal_shape,
    matrix_vector::nominal_shape,
    compat_layer::nominal_shape,
    shared_memory_banks::nominal_shape,
    constant_memory::nominal_shape,
    local_memory::nominal_shape,
    latency::nominal_shape,
    occupancy::nominal_shape,
    reduction::nominal_shape,
];

/// The block (threads, dynamic shared bytes) a kernel is launched with, for
/// reports of occupancy: taken from the launchers' own shape functions on a
/// small valid problem, as each family declares beside its launcher.
/// Kernels without a family of their own (the copies, `fma_chain`,
/// `spin_wait`) use [`COPY_BLOCK_THREADS`] and no shared memory.
pub fn nominal_shape(kernel: &str) -> LaunchShape {
    // The whole-tile entries launch exactly like their guarded ones.
    let kernel = kernel.strip_suffix("_whole_tiles").unwrap_or(kernel);
    FAMILIES
        .iter()
        .find_map(|family| family(kernel))
        .unwrap_or(LaunchShape {
            grid: Dim3::x(1),
            block: Dim3::x(COPY_BLOCK_THREADS),
            shared_bytes: 0,
        })
}
