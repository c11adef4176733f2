//! The execution-configuration family (Best Practices Guide §4.4, OpenCL
//! Programming Guide §3.2): the streams family's `fma_chain` over a whole
//! array in a grid of a chosen shape ([`FmaChainGrid`]: exactly so many
//! blocks, grid-stride; one thread per element in blocks of a chosen size;
//! OpenCL's work-groups of the runtime's choice). The shape check
//! ([`fma_chain_shape`]), the typed CUDA launcher ([`fma_chain_in`]), the
//! OpenCL C twin's ([`opencl`]) and the family's runners, one per
//! programming model ([`FmaChainRunner`], chosen by [`fma_chain_runners`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaFmaChainRunner;
pub use opencl_runner::OpenClFmaChainRunner;
pub use runner::{FmaChainRunner, fma_chain_runners};

use kernels_gpu::device::{Dim3, KernelSignature};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;
use kernels_gpu::streams::fma_chain_params;

use super::block_grid::block_grid;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// How a launch of `fma_chain` over a whole array is shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FmaChainGrid {
    /// Exactly this many blocks (work-groups) of 256 threads, grid-stride:
    /// any grid covers every element (§4.4's grids).
    Blocks(u32),
    /// One thread (work-item) per element, in blocks (work-groups) of this
    /// many; the grid is rounded up and the kernel guards the tail.
    PerElement(u32),
    /// One work-item per element in work-groups whose size the OpenCL
    /// runtime chooses (a NULL `local_work_size`); CUDA has no such launch.
    RuntimeChosen,
}

/// Checks a CUDA launch of `fma_chain` over `n` elements shaped by `grid`.
pub fn fma_chain_shape(grid: FmaChainGrid, n: usize) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: "fma_chain",
        reason,
    };
    if n == 0 || n > u32::MAX as usize {
        return Err(invalid(format!("{grid:?} over a {n}-element buffer")));
    }
    match grid {
        FmaChainGrid::Blocks(blocks) => {
            if blocks == 0 || blocks > i32::MAX as u32 {
                return Err(invalid(format!("{blocks} blocks over a {n}-element buffer")));
            }
            Ok(LaunchShape {
                grid: Dim3::x(blocks),
                block: Dim3::x(COPY_BLOCK_THREADS),
                shared_bytes: 0,
            })
        }
        FmaChainGrid::PerElement(block_threads) => {
            let blocks = (n as u64).div_ceil(block_threads.max(1) as u64).min(u32::MAX as u64) as u32;
            block_grid("fma_chain", (block_threads, blocks), 1024, false)
        }
        FmaChainGrid::RuntimeChosen => Err(invalid(
            "CUDA has no block size of the runtime's choice: name one".into(),
        )),
    }
}

/// Launches `implementation`'s `fma_chain` (Rust, or its CUDA C twin) over
/// all of `data` on the suite's stream, shaped by `grid`.
pub fn fma_chain_in(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    data: &mut DeviceBuffer<f32>,
    iterations: u32,
    grid: FmaChainGrid,
) -> Result<()> {
    let shape = fma_chain_shape(grid, data.len())?;
    let kernel = dut.typed_kernel(implementation, fma_chain_params::SIGNATURE)?;
    let n = data.len() as u32;
    // SAFETY: the kernel touches elements below n = data.len() only (the shape check proved it fits a u32).
    unsafe { kernel.launch(dut.gpu().stream(), shape, (data.as_global_mut(), n, iterations)) }
}

#[cfg(test)]
mod tests {
    use super::{FmaChainGrid, fma_chain_shape};
    use crate::error::Error;

    #[test]
    fn the_shapes_cover_the_array_or_are_refused() {
        let grid = fma_chain_shape(FmaChainGrid::Blocks(66), 1 << 20).unwrap();
        assert_eq!((grid.grid.x, grid.block.x, grid.shared_bytes), (66, 256, 0));
        let per_element = fma_chain_shape(FmaChainGrid::PerElement(200), 1001).unwrap();
        assert_eq!(
            (per_element.grid.x, per_element.block.x),
            (6, 200),
            "the tail rounds up"
        );
        for (grid, n) in [
            (FmaChainGrid::Blocks(0), 16),
            (FmaChainGrid::Blocks(1 << 31), 16),
            (FmaChainGrid::Blocks(1), 0),
            (FmaChainGrid::PerElement(0), 16),
            (FmaChainGrid::PerElement(1025), 16),
            (FmaChainGrid::RuntimeChosen, 16),
        ] {
            assert!(
                matches!(fma_chain_shape(grid, n), Err(Error::InvalidLaunch { .. })),
                "{grid:?} over {n}"
            );
        }
    }
}
