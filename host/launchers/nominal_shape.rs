use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::compat_layer::COMPAT_BLOCK_THREADS;
use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;
use kernels_gpu::sgemm::SGEMM_THREADS;

use super::{
    BANK_BLOCK_THREADS, BankKernel, CONSTANT_CHASE_BLOCK_THREADS, CONSTANT_CHASE_TABLE_WORDS, CompatKernel,
    ConstantSpace, GuideMultiply, LOCAL_ARRAY_BLOCK_THREADS, LocalArrayKernel, MatVecVersion, OCCUPANCY_BLOCK_THREADS,
    SHARED_CHASE_BLOCK_THREADS, SgemmKernel, bank_kernel_shape, block_sum_shape, constant_chase_shape,
    guide_multiply_shape, hgemm_f16_storage_shape, local_array_shape, matvec_shape, occupancy_chase_shape,
    occupancy_copy_shape, particle_shape, register_blocked_tile_of_entry, sgemm_shape, shared_pointer_chase_shape,
    vecadd_shape,
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
        if let Some(choice) = register_blocked_tile_of_entry(kernel) {
            let (x, y) = choice.tile.grid(1, 1);
            return Some(LaunchShape {
                grid: Dim3::xy(x, y),
                block: Dim3::x(SGEMM_THREADS),
                shared_bytes: choice.tile.shared_bytes() as u32,
            });
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
        if let Some(version) = MatVecVersion::ALL.into_iter().find(|v| v.kernel() == kernel) {
            return matvec_shape(version, 1, 1, (1, 1, 1), 1).ok();
        }
        if let Some((compat, layer)) = CompatKernel::of_entry(kernel) {
            let one_block = COMPAT_BLOCK_THREADS as usize;
            return match compat {
                CompatKernel::VectorAdd => vecadd_shape(layer, one_block as u64, (one_block, one_block, one_block)),
                CompatKernel::BlockSum => block_sum_shape(layer, one_block as u64, one_block, 1),
            }
            .ok();
        }
        memory_claims_shape(kernel)
    };
    one_block().unwrap_or(LaunchShape {
        grid: Dim3::x(1),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// The memory-claims kernels' blocks, as their experiments launch them: the
/// bank kernels with their table, the constant chases' full-SM blocks (the
/// shared one with its 1 KiB table), the local arrays, one thread for the
/// single-thread chains, the shared chase with a 32 KiB ring (its largest),
/// the occupancy kernels without the sweep's extra shared memory.
fn memory_claims_shape(kernel: &str) -> Option<LaunchShape> {
    if let Some(bank) = BankKernel::ALL
        .into_iter()
        .chain(BankKernel::GUIDE_CASES)
        .find(|b| b.kernel() == kernel)
    {
        return bank_kernel_shape(
            bank,
            1,
            BANK_BLOCK_THREADS,
            1,
            BLOCK_SPAN_WORDS,
            BANK_BLOCK_THREADS as usize,
        )
        .ok();
    }
    if let Some(space) = ConstantSpace::ALL.into_iter().find(|c| c.kernel() == kernel) {
        let threads = CONSTANT_CHASE_BLOCK_THREADS;
        return constant_chase_shape(
            space,
            CONSTANT_CHASE_TABLE_WORDS,
            1,
            (threads, 1),
            BLOCK_SPAN_WORDS,
            threads as usize,
        )
        .ok();
    }
    if let Some(local) = LocalArrayKernel::ALL.into_iter().find(|l| l.kernel() == kernel) {
        let threads = LOCAL_ARRAY_BLOCK_THREADS;
        return local_array_shape(local, 0, (threads, 1), threads as usize).ok();
    }
    let threads = OCCUPANCY_BLOCK_THREADS;
    match kernel {
        "pointer_chase" | "fma_latency" => Some(LaunchShape {
            grid: Dim3::x(1),
            block: Dim3::x(1),
            shared_bytes: 0,
        }),
        "shared_pointer_chase" => shared_pointer_chase_shape(8192, 0, SHARED_CHASE_BLOCK_THREADS, 32 << 10, 3).ok(),
        "occupancy_copy" => occupancy_copy_shape(threads as u64, threads, 0, threads as usize, threads as usize).ok(),
        "occupancy_chase" => occupancy_chase_shape(threads, threads, 0, threads as usize, threads as usize).ok(),
        _ => None,
    }
}
