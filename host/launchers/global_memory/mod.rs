//! The global-memory copies of the guide's §3.2.1 and §3.2.4: typed,
//! bounds-checked launchers ([`offset_copy`], [`stride_copy`], ...), the
//! family's one description ([`CopyKernel`]: kernel, thread count, CPU
//! reference, parameter range) and its runners, one per programming model,
//! that own their buffers ([`CopyRunner`], BabelStream's `Stream`).

mod copy_kernel;
mod cuda_runner;
pub mod opencl;
mod opencl_runner;

pub use copy_kernel::{CopyKernel, CopyReference, CopyRunner};
pub use cuda_runner::CudaCopyRunner;
pub use opencl_runner::OpenClCopyRunner;

use cudarc::driver::CudaStream;

use kernels_gpu::device::Dim3;
use kernels_gpu::device::{GlobalMutPtr, GlobalPtr, KernelSignature};
use kernels_gpu::global_memory::{
    COPY_BLOCK_THREADS, VECTOR_COPY_MAX_WAVES, permuted_copy_params, shift_copy_params, texture_shift_copy_params,
    vector_copy_params,
};

use super::family::Family;
use crate::copy_element::CopyElement;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape, TextureObject};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the global-memory copies: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "offset_copy",
    "stride_copy",
    "shift_copy",
    "texture_shift_copy",
    "permuted_copy",
    "offset_copy_f16",
    "offset_copy_f64",
    "offset_copy_f32x4",
    "stride_copy_f16",
    "stride_copy_f64",
    "stride_copy_f32x4",
    "vector_copy",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    ..Family::NONE
};

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

/// Checks a `shift_copy` launch: thread `t` writes `t` and reads `t + shift`.
pub fn shift_copy_shape(threads: u64, shift: i32, out_len: usize, in_len: usize) -> Result<LaunchShape> {
    const K: &str = "shift_copy";
    let shape = copy_grid(K, threads)?;
    if shift < 0 {
        return Err(invalid(
            K,
            format!("shift {shift} is negative: thread 0 would read before the buffer"),
        ));
    }
    let read_end = threads + shift as u64;
    if read_end - 1 > i32::MAX as u64 {
        return Err(invalid(
            K,
            format!("last index {} overflows the kernel's int index", read_end - 1),
        ));
    }
    if threads > out_len as u64 || read_end > in_len as u64 {
        return Err(invalid(
            K,
            format!(
                "{threads} threads at shift {shift} write {threads} of {out_len} elements and read up to element {} of {in_len}",
                read_end - 1
            ),
        ));
    }
    Ok(shape)
}

/// Checks a `permuted_copy` launch: thread `t` writes `t` and reads a word
/// of `t`'s own 32-word segment, so `threads` (whole blocks, hence whole
/// segments) must fit both buffers and an `i32`, and the key must be in 0..32.
pub fn permuted_copy_shape(threads: u64, key: i32, out_len: usize, in_len: usize) -> Result<LaunchShape> {
    const K: &str = "permuted_copy";
    let shape = copy_grid(K, threads)?;
    if !(0..32).contains(&key) {
        return Err(invalid(K, format!("key {key} is outside 0..32")));
    }
    if threads - 1 > i32::MAX as u64 {
        return Err(invalid(
            K,
            format!("last index {} overflows the kernel's int index", threads - 1),
        ));
    }
    let len = out_len.min(in_len) as u64;
    if threads > len {
        return Err(invalid(
            K,
            format!(
                "{threads} threads touch elements up to {}, but the buffers hold {out_len} (out) and {in_len} (in)",
                threads - 1
            ),
        ));
    }
    Ok(shape)
}

/// Checks a `texture_shift_copy` launch: thread `t` writes `t`; its fetch
/// of texel `t + shift` is always safe (past the end it reads 0) but the
/// index must fit an `int`.
pub fn texture_shift_copy_shape(threads: u64, shift: i32, out_len: usize) -> Result<LaunchShape> {
    const K: &str = "texture_shift_copy";
    let shape = copy_grid(K, threads)?;
    if shift < 0 || threads - 1 + shift as u64 > i32::MAX as u64 {
        return Err(invalid(
            K,
            format!("shift {shift} must be >= 0 and keep texel indices inside an int"),
        ));
    }
    if threads > out_len as u64 {
        return Err(invalid(
            K,
            format!("{threads} threads write past the {out_len}-element output"),
        ));
    }
    Ok(shape)
}

/// Launches the offset copy for `T` (`offset_copy` for `f32`, `offset_copy_f16`, ...):
/// `odata[t + offset] = idata[t + offset]` for `t < threads`.
pub fn offset_copy<T: CopyElement>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<T>,
    idata: &DeviceBuffer<T>,
    threads: u64,
    offset: i32,
) -> Result<()> {
    let shape = offset_copy_shape(threads, offset, odata.len(), idata.len())?;
    let args = (odata.as_global_mut().cast(), idata.as_global().cast(), offset);
    // SAFETY: the shape check proved all indices in bounds.
    unsafe { dut.launch::<T::OffsetKernel>(implementation, shape, args) }
}

/// Launches the stride copy for `T`: `odata[t * stride] = idata[t * stride]` for `t < threads`.
pub fn stride_copy<T: CopyElement>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<T>,
    idata: &DeviceBuffer<T>,
    threads: u64,
    stride: i32,
) -> Result<()> {
    let shape = stride_copy_shape(threads, stride, odata.len(), idata.len())?;
    let args = (odata.as_global_mut().cast(), idata.as_global().cast(), stride);
    // SAFETY: the shape check proved all indices in bounds.
    unsafe { dut.launch::<T::StrideKernel>(implementation, shape, args) }
}

/// Launches `shift_copy`: `odata[t] = idata[t + shift]` for `t < threads`.
pub fn shift_copy(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<f32>,
    idata: &DeviceBuffer<f32>,
    threads: u64,
    shift: i32,
) -> Result<()> {
    let shape = shift_copy_shape(threads, shift, odata.len(), idata.len())?;
    let args = (odata.as_global_mut(), idata.as_global(), shift);
    // SAFETY: the shape check proved all indices in bounds.
    unsafe { dut.launch::<shift_copy_params>(implementation, shape, args) }
}

/// Launches `permuted_copy`: for `t < threads`, `odata[t]` = word
/// [`segment_permutation`](kernels_gpu::global_memory::segment_permutation)`(t mod 32, key)`
/// of `t`'s 32-word segment of `idata`.
pub fn permuted_copy(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<f32>,
    idata: &DeviceBuffer<f32>,
    threads: u64,
    key: i32,
) -> Result<()> {
    let shape = permuted_copy_shape(threads, key, odata.len(), idata.len())?;
    let args = (odata.as_global_mut(), idata.as_global(), key);
    // SAFETY: the shape check proved all indices in bounds.
    unsafe { dut.launch::<permuted_copy_params>(implementation, shape, args) }
}

/// Launches `texture_shift_copy`: `odata[t] = texel(t + shift)` for `t < threads`.
pub fn texture_shift_copy(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    odata: &mut DeviceBuffer<f32>,
    texture: &TextureObject<'_>,
    threads: u64,
    shift: i32,
) -> Result<()> {
    let shape = texture_shift_copy_shape(threads, shift, odata.len())?;
    let args = (odata.as_global_mut(), texture.handle(), shift);
    // SAFETY: writes proved in bounds; fetches past the texture read 0.
    unsafe { dut.launch::<texture_shift_copy_params>(implementation, shape, args) }
}

/// Launches `vector_copy` for the first `n` elements: about one vector per
/// thread, at most [`VECTOR_COPY_MAX_WAVES`] full waves of blocks.
pub fn vector_copy(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    out: &mut DeviceBuffer<f32>,
    inp: &DeviceBuffer<f32>,
    n: u64,
) -> Result<()> {
    let (out_len, in_len) = (out.len(), inp.len());
    vector_copy_global(
        dut,
        implementation,
        (out.as_global_mut(), out_len),
        (inp.as_global(), in_len),
        n,
    )
}

/// `vector_copy` between any device-visible memory, e.g. mapped host memory
/// (zero copy) or another GPU's memory under peer access: each pointer comes
/// with the number of floats it addresses. On the device's own stream.
pub fn vector_copy_global(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    out: (GlobalMutPtr<f32>, usize),
    inp: (GlobalPtr<f32>, usize),
    n: u64,
) -> Result<()> {
    vector_copy_global_on(dut, implementation, dut.gpu().stream(), out, inp, n)
}

/// [`vector_copy_global`] on `stream` (a stream of the same GPU), for copies
/// that run beside others (peer links in both directions at once).
pub fn vector_copy_global_on(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    stream: &CudaStream,
    out: (GlobalMutPtr<f32>, usize),
    inp: (GlobalPtr<f32>, usize),
    n: u64,
) -> Result<()> {
    let blocks = vector_copy_blocks(dut, implementation, n)?;
    vector_copy_global_grid(dut, implementation, stream, out, inp, n, (blocks, COPY_BLOCK_THREADS))
}

/// The grid `vector_copy` is launched with by default: a block of [`COPY_BLOCK_THREADS`] per
/// 4 × 256 elements, at most [`VECTOR_COPY_MAX_WAVES`] full waves of blocks.
pub fn vector_copy_blocks(dut: &DeviceUnderTest, implementation: Implementation, n: u64) -> Result<u32> {
    let kernel = dut.typed_kernel(implementation, vector_copy_params::SIGNATURE)?;
    let cap = dut.full_wave_blocks(kernel.kernel(), COPY_BLOCK_THREADS)? as u64 * VECTOR_COPY_MAX_WAVES as u64;
    Ok((n / 4)
        .div_ceil(COPY_BLOCK_THREADS as u64)
        .clamp(1, cap.min(i32::MAX as u64)) as u32)
}

/// `vector_copy` of `n` elements on `stream` with a grid of `blocks` blocks of `threads` threads
/// (`peer-copy-limits` sweeps these); the grid-stride loop covers any grid.
pub fn vector_copy_global_grid(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    stream: &CudaStream,
    (out, out_len): (GlobalMutPtr<f32>, usize),
    (inp, in_len): (GlobalPtr<f32>, usize),
    n: u64,
    (blocks, threads): (u32, u32),
) -> Result<()> {
    const K: &str = "vector_copy";
    if n == 0 || n > out_len as u64 || n > in_len as u64 {
        return Err(invalid(
            K,
            format!("{n} elements do not fit buffers of {out_len} and {in_len}"),
        ));
    }
    if out.as_raw() as usize % 16 != 0 || inp.as_raw() as usize % 16 != 0 {
        return Err(invalid(K, "buffers must be 16-byte aligned for float4 accesses".into()));
    }
    if blocks == 0 || blocks > i32::MAX as u32 || threads == 0 || threads > 1024 || threads % 32 != 0 {
        return Err(invalid(
            K,
            format!(
                "{blocks} blocks of {threads} threads: want 1 or more blocks of 32 to 1024 threads, a multiple of 32"
            ),
        ));
    }
    let kernel = dut.typed_kernel(implementation, vector_copy_params::SIGNATURE)?;
    let shape = LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(threads),
        shared_bytes: 0,
    };
    // SAFETY: n is within both ranges, which are 16-byte aligned; the pointers are device-visible
    // from this GPU (the caller's buffers or mappings); the grid-stride loop stays below n for any grid.
    unsafe { kernel.launch(stream, shape, (out, inp, n)) }
}

/// The driver's device-to-device copy of the first `n` elements, on the suite's stream.
pub fn driver_copy<T: CopyElement>(out: &mut DeviceBuffer<T>, inp: &DeviceBuffer<T>, n: u64) -> Result<()> {
    out.copy_from_device_async(inp, n as usize)
}

/// Every runner of the copy family on `dut` with buffers of `len` elements:
/// the one place a programming model is added to the family. Returns the
/// runners and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn copy_runners<'a, T: CopyElement + 'static>(
    dut: &'a DeviceUnderTest,
    len: usize,
) -> Result<(Vec<Box<dyn CopyRunner<T> + 'a>>, Vec<(Implementation, String)>)> {
    let (mut cuda, waived) = dut.ptx_implementations();
    let mut waived: Vec<(Implementation, String)> =
        waived.into_iter().map(|why| (Implementation::CudaC, why)).collect();
    if dut.copy_engine_selected() {
        cuda.push(Implementation::CopyEngine);
    }
    let mut runners: Vec<Box<dyn CopyRunner<T> + 'a>> = vec![Box::new(CudaCopyRunner::new(dut, cuda, len)?)];
    match dut.opencl_or_waiver() {
        (Some(side), _) => {
            // The same grid as the Rust vector_copy: one wave of its blocks on this GPU.
            let rust = dut.kernel(Implementation::Rust, "vector_copy")?;
            let wave = dut.full_wave_blocks(rust, COPY_BLOCK_THREADS)?;
            runners.push(Box::new(OpenClCopyRunner::new(side, len, wave)?));
        }
        (None, Some(why)) => waived.push((Implementation::OpenClC, why)),
        (None, None) => {}
    }
    Ok((runners, waived))
}
