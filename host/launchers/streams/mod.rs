//! The streams family (Best Practices Guide §3.1.2, the OpenCL whitepaper's
//! data transfers): the typed `fma_chain` launchers, the chunking of Listing
//! 3.3b ([`chunk_ranges`]), the staged copy-and-execute pipeline's runners, one
//! per programming model ([`StagedRunner`], chosen by [`staged_runners`]), and
//! the one-block kernels fanned out over streams or queues ([`FanOutRunner`],
//! chosen by [`fan_out_runners`]).

mod chunks;
mod cuda_fan_out;
mod cuda_runner;
mod fan_out;
mod opencl_fan_out;
mod opencl_runner;
mod runner;
mod staged_pipeline;

pub use chunks::chunk_ranges;
pub use cuda_fan_out::CudaFanOutRunner;
pub use cuda_runner::CudaStagedRunner;
pub use fan_out::{FAN_BLOCK, FAN_ITERATIONS, FAN_MARK, FanOut, FanOutRunner, FanStream, Lanes, fan_out_runners};
pub use opencl_fan_out::OpenClFanOutRunner;
pub use opencl_runner::OpenClStagedRunner;
pub use runner::{HostMemory, PipelineStep, StagedRunner, UploadOrder, staged_runners};
pub use staged_pipeline::StagedPipeline;

use std::ops::Range;

use cudarc::driver::CudaStream;
use kernels_gpu::device::{Dim3, GlobalMutPtr, KernelSignature};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;
use kernels_gpu::streams::fma_chain_params;

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::opencl::{ClBuffer, ClQueue, NdRange, OpenClTwins};
use crate::testbed::{DeviceUnderTest, Implementation, OpenClSide};

/// The OpenCL C twins of the streams family (`streams.cl`): kernels of the twins' program (gathered
/// with the other families' by [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = &["fma_chain"];

/// The PTX entries of the streams family: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["fma_chain"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: OPENCL_C_KERNELS,
    ..Family::NONE
};

/// Launches the Rust `fma_chain` on `data[range]` on `stream` (not
/// necessarily the suite's: the staged pipeline uses one stream per chunk).
pub fn fma_chain(
    dut: &DeviceUnderTest,
    stream: &CudaStream,
    data: &mut DeviceBuffer<f32>,
    range: Range<usize>,
    iterations: u32,
) -> Result<()> {
    fma_chain_of(dut, Implementation::Rust, stream, data, range, iterations)
}

/// Launches `implementation`'s `fma_chain` (Rust, or its CUDA C twin) on
/// `data[range]` on `stream`: at most one full wave of 256-thread blocks.
pub fn fma_chain_of(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    stream: &CudaStream,
    data: &mut DeviceBuffer<f32>,
    range: Range<usize>,
    iterations: u32,
) -> Result<()> {
    if range.start >= range.end || range.end > data.len() || range.len() > u32::MAX as usize {
        return Err(Error::InvalidLaunch {
            kernel: "fma_chain",
            reason: format!("elements {range:?} of a {}-element buffer", data.len()),
        });
    }
    let kernel = dut.typed_kernel(implementation, fma_chain_params::SIGNATURE)?;
    let blocks = (range.len() as u64)
        .div_ceil(COPY_BLOCK_THREADS as u64)
        .min(dut.full_wave_blocks(kernel.kernel(), COPY_BLOCK_THREADS)? as u64) as u32;
    let shape = LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    };
    let ptr = GlobalMutPtr::<f32>::from_raw((data.device_ptr() as usize as *mut f32).wrapping_add(range.start));
    // SAFETY: the range was checked against the buffer.
    unsafe { kernel.launch(stream, shape, (ptr, range.len() as u32, iterations)) }
}

/// Launches the OpenCL C `fma_chain` on `data[range]` on `queue` (one of the
/// staged pipeline's queues), with at most `wave_groups` work-groups of 256
/// (the Rust launch's one full wave, so both run the same grid).
pub fn opencl_fma_chain(
    side: &OpenClSide,
    queue: &ClQueue,
    data: &mut ClBuffer<f32>,
    range: Range<usize>,
    iterations: u32,
    wave_groups: u32,
) -> Result<()> {
    opencl_fma_chain_of(side.twins(), queue, data, range, (iterations, wave_groups))
}

/// [`opencl_fma_chain`] from `twins`' program: `(iterations, wave_groups)`.
pub(super) fn opencl_fma_chain_of(
    twins: &OpenClTwins,
    queue: &ClQueue,
    data: &mut ClBuffer<f32>,
    range: Range<usize>,
    (iterations, wave_groups): (u32, u32),
) -> Result<()> {
    if range.start >= range.end || range.end > data.len() || range.end > u32::MAX as usize {
        return Err(Error::InvalidLaunch {
            kernel: "fma_chain",
            reason: format!("elements {range:?} of a {}-element buffer", data.len()),
        });
    }
    let groups = (range.len() as u64)
        .div_ceil(COPY_BLOCK_THREADS as u64)
        .clamp(1, wave_groups.max(1) as u64);
    let nd = NdRange::groups_1d(groups as usize, COPY_BLOCK_THREADS as usize);
    let (offset, n) = (range.start as u32, range.len() as u32);
    // Not kernel_of: the OpenCL twin takes an element offset (a cl_mem cannot be offset) besides the Rust parameters.
    let kernel = twins.kernel(fma_chain_params::NAME)?;
    // SAFETY: matches fma_chain(float*, uint, uint, uint); offset + n <= len was checked above.
    unsafe { queue.launch(kernel, &nd, &[&*data, &offset, &n, &iterations])? };
    Ok(())
}
