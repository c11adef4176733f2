//! The whitepaper's matrix-vector versions: the launcher and shape check,
//! and the family's runners, one per programming model ([`MatVecRunner`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaMatVecRunner;
pub use opencl_runner::OpenClMatVecRunner;
pub use runner::{MatVecEntry, MatVecRunner, matvec_runners};

use kernels_gpu::device::{Dim3, GlobalMutPtr, GlobalPtr, KernelSignature, Signature};
use kernels_gpu::matrix_vector::{
    matvec_block_serial_sum_params, matvec_grid_stride_rows_params, matvec_row_per_thread_params,
    matvec_tree_interleaved_params, matvec_tree_sequential_params, matvec_warp_per_row_params,
    matvec_warp_shuffle_params, warp_per_row_block,
};
use serde::{Deserialize, Serialize};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the matrix-vector versions: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "matvec_row_per_thread",
    "matvec_grid_stride_rows",
    "matvec_block_serial_sum",
    "matvec_tree_interleaved",
    "matvec_tree_sequential",
    "matvec_warp_shuffle",
    "matvec_warp_per_row",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// The parameters of every version: the matrix, its width and height, the vector and the result.
pub type MatVecArgs = (GlobalPtr<f32>, u32, u32, GlobalPtr<f32>, GlobalMutPtr<f32>);

/// Threads per block for every version (the whitepaper's work-group size: a
/// power of two and a multiple of the warp size, as Listings 5–7 need).
pub const MATVEC_BLOCK_THREADS: u32 = 256;

/// The whitepaper's seven `MatrixVectorMul` versions (Listing 1 is the CPU one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatVecVersion {
    RowPerThread,
    GridStrideRows,
    BlockSerialSum,
    TreeInterleaved,
    TreeSequential,
    WarpShuffle,
    /// Beyond the whitepaper: a warp per row (`warps_per_row(width)` warps per wide row), 128-bit loads, no
    /// block barrier where a row has one warp.
    WarpPerRow,
}

impl MatVecVersion {
    pub const ALL: [Self; 7] = [
        Self::RowPerThread,
        Self::GridStrideRows,
        Self::BlockSerialSum,
        Self::TreeInterleaved,
        Self::TreeSequential,
        Self::WarpShuffle,
        Self::WarpPerRow,
    ];

    pub fn kernel(self) -> &'static str {
        self.signature().name
    }

    /// Its kernel's signature: every version takes `(m, width, height, v, w)`.
    pub fn signature(self) -> Signature<MatVecArgs> {
        match self {
            Self::RowPerThread => matvec_row_per_thread_params::SIGNATURE,
            Self::GridStrideRows => matvec_grid_stride_rows_params::SIGNATURE,
            Self::BlockSerialSum => matvec_block_serial_sum_params::SIGNATURE,
            Self::TreeInterleaved => matvec_tree_interleaved_params::SIGNATURE,
            Self::TreeSequential => matvec_tree_sequential_params::SIGNATURE,
            Self::WarpShuffle => matvec_warp_shuffle_params::SIGNATURE,
            Self::WarpPerRow => matvec_warp_per_row_params::SIGNATURE,
        }
    }

    /// How reports name it: the whitepaper listing it reproduces.
    pub fn label(self) -> String {
        match self {
            Self::WarpPerRow => "warp per row (beyond the paper)".into(),
            other => format!("Listing {}", other.listing()),
        }
    }

    /// The whitepaper listing this version reproduces (8 for the version past it).
    pub fn listing(self) -> u32 {
        match self {
            Self::RowPerThread => 2,
            Self::GridStrideRows => 3,
            Self::BlockSerialSum => 4,
            Self::TreeInterleaved => 5,
            Self::TreeSequential => 6,
            Self::WarpShuffle => 7,
            Self::WarpPerRow => 8,
        }
    }
}

/// Checks that `m` can hold a `height × width` matrix, `v` `width` floats and
/// `w` `height` (lengths in floats); `what` names the caller in the error.
pub fn check_matvec_buffers(
    what: &'static str,
    width: u32,
    height: u32,
    (m_len, v_len, w_len): (usize, usize, usize),
) -> Result<()> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel: what, reason };
    if width == 0 || height == 0 {
        return Err(invalid(format!("a {height} x {width} matrix is empty")));
    }
    if (m_len as u64) < width as u64 * height as u64 || v_len < width as usize || w_len < height as usize {
        return Err(invalid(format!(
            "a {height} x {width} product needs M >= {}, V >= {width}, W >= {height} floats; got {m_len}, {v_len}, {w_len}",
            width as u64 * height as u64
        )));
    }
    Ok(())
}

/// The launch shape of a version, after checking the buffers: `m` must hold
/// `width * height` floats, `v` `width`, `w` `height`. `wave_blocks` is the
/// number of blocks that fill the GPU once (grid-stride versions use at most that).
pub fn matvec_shape(
    version: MatVecVersion,
    width: u32,
    height: u32,
    (m_len, v_len, w_len): (usize, usize, usize),
    wave_blocks: u32,
) -> Result<LaunchShape> {
    check_matvec_buffers("matrix-vector", width, height, (m_len, v_len, w_len))?;
    let block = MATVEC_BLOCK_THREADS;
    let thread_blocks = height.div_ceil(block);
    let wave = wave_blocks.max(1);
    let (grid, shared_bytes) = match version {
        MatVecVersion::RowPerThread => (thread_blocks, 0),
        MatVecVersion::GridStrideRows => (thread_blocks.min(wave), 0),
        // One group of rows per block (a row per warp at width 1100, a row per block at 8192): the
        // block scheduler balances the rows (see the kernel's documentation).
        MatVecVersion::WarpPerRow => {
            let (rows_per_block, shared_bytes) = warp_per_row_block(width, block);
            (height.div_ceil(rows_per_block), shared_bytes)
        }
        _ => (height.min(wave), block * 4),
    };
    Ok(LaunchShape {
        grid: Dim3::x(grid),
        block: Dim3::x(block),
        shared_bytes,
    })
}

/// The shape a matrix-vector version is reported with (occupancy,
/// resources): its launch for a 1 × 1 matrix; `None` for an entry of
/// another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let version = MatVecVersion::ALL.into_iter().find(|v| v.kernel() == entry)?;
    matvec_shape(version, 1, 1, (1, 1, 1), 1).ok()
}

/// Launches one version: `w = m · v` for a row-major `height × width` matrix.
#[allow(clippy::too_many_arguments)]
pub fn matvec(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    version: MatVecVersion,
    m: &DeviceBuffer<f32>,
    width: u32,
    height: u32,
    v: &DeviceBuffer<f32>,
    w: &mut DeviceBuffer<f32>,
) -> Result<()> {
    matvec_with_grid(dut, implementation, version, (m, width, height), v, w, None)
}

/// [`matvec`] with the grid of the grid-stride and block-per-row versions
/// capped at `grid_cap` blocks (the whitepaper's 60 work-groups) instead of one full wave.
pub fn matvec_with_grid(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    version: MatVecVersion,
    (m, width, height): (&DeviceBuffer<f32>, u32, u32),
    v: &DeviceBuffer<f32>,
    w: &mut DeviceBuffer<f32>,
    grid_cap: Option<u32>,
) -> Result<()> {
    let kernel = dut.typed_kernel(implementation, version.signature())?;
    let wave = match grid_cap {
        Some(cap) => cap,
        None => dut.full_wave_blocks(kernel.kernel(), MATVEC_BLOCK_THREADS)?,
    };
    let shape = matvec_shape(version, width, height, (m.len(), v.len(), w.len()), wave)?;
    let args = (m.as_global(), width, height, v.as_global(), w.as_global_mut());
    // SAFETY: the shape check proved the buffers hold the matrix, vector and result, and the
    // shared memory matches the block size.
    unsafe { kernel.launch(dut.gpu().stream(), shape, args) }
}
