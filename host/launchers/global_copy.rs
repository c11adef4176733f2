use std::ffi::c_void;

use kernels_gpu::device::Dim3;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, LaunchShape};

fn invalid(kernel: &'static str, reason: String) -> Error {
    Error::InvalidLaunch { kernel, reason }
}

/// A 1-D grid of `threads` threads in blocks of [`COPY_BLOCK_THREADS`]; the
/// copy kernels have no tail guard, so `threads` must fill whole blocks.
fn copy_grid(kernel: &'static str, threads: u64) -> Result<LaunchShape> {
    let block = COPY_BLOCK_THREADS as u64;
    if threads == 0 || !threads.is_multiple_of(block) {
        return Err(invalid(
            kernel,
            format!("{threads} threads is not a positive multiple of the block size {block}"),
        ));
    }
    let blocks = threads / block;
    let grid_x = u32::try_from(blocks)
        .ok()
        .filter(|&b| b <= i32::MAX as u32)
        .ok_or_else(|| invalid(kernel, format!("{blocks} blocks exceed the grid limit")))?;
    Ok(LaunchShape {
        grid: Dim3::x(grid_x),
        block: Dim3::x(COPY_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Checks an `offset_copy` launch: thread `t` touches element `t + offset` of
/// both buffers, so `threads + offset` must fit in both and in an `i32` index.
pub fn offset_copy_shape(threads: u64, offset: i32, out_len: usize, in_len: usize) -> Result<LaunchShape> {
    const K: &str = "offset_copy";
    let shape = copy_grid(K, threads)?;
    if offset < 0 {
        return Err(invalid(
            K,
            format!("offset {offset} is negative: thread 0 would read before the buffer"),
        ));
    }
    let end = threads + offset as u64; // one past the last element touched
    if end - 1 > i32::MAX as u64 {
        return Err(invalid(
            K,
            format!("last index {} overflows the kernel's int index", end - 1),
        ));
    }
    let len = out_len.min(in_len) as u64;
    if end > len {
        return Err(invalid(
            K,
            format!(
                "{threads} threads at offset {offset} touch elements up to {}, but the buffers hold {out_len} (out) and {in_len} (in)",
                end - 1
            ),
        ));
    }
    Ok(shape)
}

/// Checks a `stride_copy` launch: thread `t` touches element `t * stride`, so
/// `(threads - 1) * stride` must be inside both buffers and fit an `i32` index.
pub fn stride_copy_shape(threads: u64, stride: i32, out_len: usize, in_len: usize) -> Result<LaunchShape> {
    const K: &str = "stride_copy";
    let shape = copy_grid(K, threads)?;
    if stride < 1 {
        return Err(invalid(K, format!("stride {stride} must be at least 1")));
    }
    let last = (threads - 1)
        .checked_mul(stride as u64)
        .filter(|&l| l <= i32::MAX as u64)
        .ok_or_else(|| {
            invalid(
                K,
                format!("{threads} threads at stride {stride} overflow the kernel's int index"),
            )
        })?;
    let len = out_len.min(in_len) as u64;
    if last >= len {
        return Err(invalid(
            K,
            format!(
                "{threads} threads at stride {stride} touch element {last}, but the buffers hold {out_len} (out) and {in_len} (in)"
            ),
        ));
    }
    Ok(shape)
}

/// Launches `offset_copy` on the suite's stream: `odata[t + offset] = idata[t + offset]` for `t < threads`.
pub fn offset_copy(
    gpu: &Gpu,
    odata: &mut DeviceBuffer<f32>,
    idata: &DeviceBuffer<f32>,
    threads: u64,
    offset: i32,
) -> Result<()> {
    let shape = offset_copy_shape(threads, offset, odata.len(), idata.len())?;
    let mut out = odata.as_global_mut();
    let mut inp = idata.as_global();
    let mut offset = offset;
    let mut params = [
        (&raw mut out).cast::<c_void>(),
        (&raw mut inp).cast::<c_void>(),
        (&raw mut offset).cast::<c_void>(),
    ];
    // SAFETY: parameters match `offset_copy(GlobalMutPtr<f32>, GlobalPtr<f32>, i32)`; the shape check proved all indices in bounds.
    unsafe { gpu.kernel("offset_copy")?.launch(gpu.stream(), shape, &mut params) }
}

/// Launches `stride_copy` on the suite's stream: `odata[t * stride] = idata[t * stride]` for `t < threads`.
pub fn stride_copy(
    gpu: &Gpu,
    odata: &mut DeviceBuffer<f32>,
    idata: &DeviceBuffer<f32>,
    threads: u64,
    stride: i32,
) -> Result<()> {
    let shape = stride_copy_shape(threads, stride, odata.len(), idata.len())?;
    let mut out = odata.as_global_mut();
    let mut inp = idata.as_global();
    let mut stride = stride;
    let mut params = [
        (&raw mut out).cast::<c_void>(),
        (&raw mut inp).cast::<c_void>(),
        (&raw mut stride).cast::<c_void>(),
    ];
    // SAFETY: parameters match `stride_copy(GlobalMutPtr<f32>, GlobalPtr<f32>, i32)`; the shape check proved all indices in bounds.
    unsafe { gpu.kernel("stride_copy")?.launch(gpu.stream(), shape, &mut params) }
}
