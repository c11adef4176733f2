//! The array sum (NVIDIA's CUDA samples' `reduction`): the kernels'
//! signatures and shape check, the typed CUDA launcher ([`reduce`]), the
//! OpenCL C twins' launcher ([`opencl`]) and the family's runners, one per
//! programming model ([`ReductionRunner`], chosen by [`reduction_runners`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaReductionRunner;
pub use opencl_runner::OpenClReductionRunner;
pub use runner::{ReductionEntry, ReductionRunner, reduction_runners};

use kernels_gpu::device::{Dim3, GlobalMutPtr, GlobalPtr, KernelSignature, Signature};
use kernels_gpu::reduction::{
    REDUCTION_BLOCK_THREADS, TREE_ELEMENTS_PER_THREAD, reduce_block_tree_params, reduce_grid_stride_shuffle_params,
};
use serde::{Deserialize, Serialize};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the array sum: the module must define each (gathered with the other families'
/// by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["reduce_block_tree", "reduce_grid_stride_shuffle"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// Both kernels' parameters: the array, its length, one partial sum per block.
pub type ReductionArgs = (GlobalPtr<f32>, u32, GlobalMutPtr<f32>);

/// The two ways to sum the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReductionKernel {
    /// Two elements per thread, then a shared-memory tree (sequential addressing).
    BlockTree,
    /// A grid-stride sum per thread over one wave of blocks, then a warp-shuffle tree.
    GridStrideShuffle,
}

impl ReductionKernel {
    pub const ALL: [Self; 2] = [Self::BlockTree, Self::GridStrideShuffle];

    pub fn kernel(self) -> &'static str {
        self.signature().name
    }

    pub fn signature(self) -> Signature<ReductionArgs> {
        match self {
            Self::BlockTree => reduce_block_tree_params::SIGNATURE,
            Self::GridStrideShuffle => reduce_grid_stride_shuffle_params::SIGNATURE,
        }
    }

    /// The most blocks (and partial sums) either kernel launches for `n`
    /// elements: the partial sums a runner's buffer must hold.
    pub fn most_blocks(n: u32, wave_blocks: u32) -> u32 {
        Self::ALL
            .map(|k| k.blocks(n, wave_blocks))
            .into_iter()
            .max()
            .unwrap_or(1)
    }

    /// The number of blocks (and partial sums) it launches for `n` elements,
    /// `wave_blocks` being the blocks that fill the GPU once.
    pub fn blocks(self, n: u32, wave_blocks: u32) -> u32 {
        let per_block = REDUCTION_BLOCK_THREADS * TREE_ELEMENTS_PER_THREAD;
        match self {
            Self::BlockTree => n.div_ceil(per_block),
            Self::GridStrideShuffle => n.div_ceil(REDUCTION_BLOCK_THREADS).min(wave_blocks.max(1)),
        }
    }
}

/// The launch of `kernel` over `n` elements, after checking that `x` holds
/// them and `partials` one float per block: blocks of
/// [`REDUCTION_BLOCK_THREADS`], `4` bytes of shared memory per thread.
pub fn reduction_shape(
    kernel: ReductionKernel,
    n: u32,
    (x_len, partials_len): (usize, usize),
    wave_blocks: u32,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: kernel.kernel(),
        reason,
    };
    if n == 0 || n > i32::MAX as u32 {
        return Err(invalid(format!("{n} elements: the sum takes 1 to {} floats", i32::MAX)));
    }
    let blocks = kernel.blocks(n, wave_blocks);
    if x_len < n as usize || partials_len < blocks as usize {
        return Err(invalid(format!(
            "{n} elements on {blocks} blocks need x >= {n} and partials >= {blocks} floats; got {x_len}, {partials_len}"
        )));
    }
    Ok(LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(REDUCTION_BLOCK_THREADS),
        shared_bytes: REDUCTION_BLOCK_THREADS * 4,
    })
}

/// The shape an array-sum kernel is reported with (occupancy, resources):
/// its launch for one element; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let kernel = ReductionKernel::ALL.into_iter().find(|k| k.kernel() == entry)?;
    reduction_shape(kernel, 1, (1, 1), 1).ok()
}

/// Launches `kernel` over the first `n` elements of `x`, one partial sum per
/// block into `partials`; `wave_blocks`: blocks that fill the GPU once.
pub fn reduce(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: ReductionKernel,
    (x, n): (&DeviceBuffer<f32>, u32),
    partials: &mut DeviceBuffer<f32>,
    wave_blocks: u32,
) -> Result<()> {
    let typed = dut.typed_kernel(implementation, kernel.signature())?;
    let shape = reduction_shape(kernel, n, (x.len(), partials.len()), wave_blocks)?;
    // SAFETY: the shape check proved x holds n floats, partials one per block, and the shared memory
    // matches the block size.
    unsafe { typed.launch(dut.gpu().stream(), shape, (x.as_global(), n, partials.as_global_mut())) }
}
