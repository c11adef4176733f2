use std::ffi::c_void;
use std::ops::Range;

use cudarc::driver::CudaStream;
use kernels_gpu::device::{Dim3, GlobalMutPtr};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// Launches `fma_chain` on `data[range]` on `stream` (not necessarily the
/// suite's: the staged pipeline uses one stream per chunk).
pub fn fma_chain(
    dut: &DeviceUnderTest,
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
    let kernel = dut.kernel(Implementation::Rust, "fma_chain")?;
    let blocks = (range.len() as u64)
        .div_ceil(COPY_BLOCK_THREADS as u64)
        .min(dut.full_wave_blocks(kernel, COPY_BLOCK_THREADS)? as u64) as u32;
    let shape = LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    };
    let mut ptr = GlobalMutPtr::<f32>::from_raw((data.device_ptr() as usize as *mut f32).wrapping_add(range.start));
    let (mut n, mut iterations) = (range.len() as u32, iterations);
    let mut params = [
        (&raw mut ptr).cast::<c_void>(),
        (&raw mut n).cast::<c_void>(),
        (&raw mut iterations).cast::<c_void>(),
    ];
    // SAFETY: matches fma_chain(float*, uint, uint); the range was checked against the buffer.
    unsafe { kernel.launch(stream, shape, &mut params) }
}
