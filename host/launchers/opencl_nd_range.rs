//! CUDA launch shapes as OpenCL NDRanges: the OpenCL C twins launch exactly
//! the grids the CUDA launchers' pure `*_shape` checks compute.

use crate::gpu::LaunchShape;
use crate::opencl::{NdRange, OpenClDeviceInfo};

/// The NDRange of a CUDA launch shape: global size = grid × block in each
/// dimension (OpenCL counts work-items), local size = block. The dynamic
/// shared memory of the shape becomes a __local argument, set by each launcher.
pub fn nd_range(shape: &LaunchShape) -> NdRange {
    let (grid, block) = (shape.grid, shape.block);
    let dimensions = if grid.z > 1 || block.z > 1 {
        3
    } else if grid.y > 1 || block.y > 1 {
        2
    } else {
        1
    };
    let global = [
        grid.x as usize * block.x as usize,
        grid.y as usize * block.y as usize,
        grid.z as usize * block.z as usize,
    ];
    NdRange {
        dimensions,
        global,
        local: Some([block.x as usize, block.y as usize, block.z as usize]),
    }
}

/// Work-groups of `group_size` that fill the device once, estimated as
/// `compute units × 2048 / group_size` (2048 resident work-items per SM on
/// NVIDIA's sm_80/sm_90; OpenCL reports no occupancy). Where the OpenCL device
/// is a CUDA device, pass the CUDA side's `Gpu::full_wave_blocks` for the Rust
/// kernel instead, so the three implementations launch the same grid.
pub fn estimated_wave_groups(info: &OpenClDeviceInfo, group_size: u32) -> u32 {
    let per_unit = (2048 / group_size.max(1)).max(1);
    info.compute_units.max(1).saturating_mul(per_unit)
}
