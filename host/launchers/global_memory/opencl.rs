use kernels_gpu::device::KernelSignature;
use kernels_gpu::global_memory::{
    COPY_BLOCK_THREADS, VECTOR_COPY_MAX_WAVES, permuted_copy_params, shift_copy_params, texture_shift_copy_params,
    vector_copy_params,
};

use crate::copy_element::CopyElement;
use crate::error::{Error, Result};
use crate::launchers::opencl_nd_range::nd_range;
use crate::launchers::{
    offset_copy_shape, permuted_copy_shape, shift_copy_shape, stride_copy_shape, texture_shift_copy_shape,
};
use crate::opencl::{ClBuffer, ClQueue, Image1dBuffer, NdRange, OpenClTwins};

/// The OpenCL C twins of the global-memory copies (`global_memory.cl`): kernels of the twins'
/// program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = &[
    "offset_copy",
    "stride_copy",
    "shift_copy",
    "permuted_copy",
    "texture_shift_copy",
    "offset_copy_f16",
    "stride_copy_f16",
    "offset_copy_f64",
    "stride_copy_f64",
    "offset_copy_f32x4",
    "stride_copy_f32x4",
    "vector_copy",
];

/// Launches the OpenCL offset copy for `T` (`offset_copy`, `offset_copy_f16`, ...):
/// `odata[t + offset] = idata[t + offset]` for `t < threads`.
pub fn offset_copy<T: CopyElement>(
    twins: &OpenClTwins,
    queue: &ClQueue,
    odata: &mut ClBuffer<T>,
    idata: &ClBuffer<T>,
    threads: u64,
    offset: i32,
) -> Result<()> {
    let shape = offset_copy_shape(threads, offset, odata.len(), idata.len())?;
    let kernel = twins.kernel_of(T::OffsetKernel::SIGNATURE)?;
    // SAFETY: (T*, const T*, int) is every offset copy's signature; the shape check proved all indices in bounds.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[&*odata, idata, &offset])? };
    Ok(())
}

/// Launches the OpenCL stride copy for `T`: `odata[t * stride] = idata[t * stride]` for `t < threads`.
pub fn stride_copy<T: CopyElement>(
    twins: &OpenClTwins,
    queue: &ClQueue,
    odata: &mut ClBuffer<T>,
    idata: &ClBuffer<T>,
    threads: u64,
    stride: i32,
) -> Result<()> {
    let shape = stride_copy_shape(threads, stride, odata.len(), idata.len())?;
    let kernel = twins.kernel_of(T::StrideKernel::SIGNATURE)?;
    // SAFETY: (T*, const T*, int) is every stride copy's signature; the shape check proved all indices in bounds.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[&*odata, idata, &stride])? };
    Ok(())
}

/// Launches the OpenCL `shift_copy`: `odata[t] = idata[t + shift]` for `t < threads`.
pub fn shift_copy(
    twins: &OpenClTwins,
    queue: &ClQueue,
    odata: &mut ClBuffer<f32>,
    idata: &ClBuffer<f32>,
    threads: u64,
    shift: i32,
) -> Result<()> {
    let shape = shift_copy_shape(threads, shift, odata.len(), idata.len())?;
    let kernel = twins.kernel_of(shift_copy_params::SIGNATURE)?;
    // SAFETY: matches shift_copy(float*, const float*, int); the shape check proved all indices in bounds.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[&*odata, idata, &shift])? };
    Ok(())
}

/// Launches the OpenCL `permuted_copy`: each group of 32 work-items reads its
/// own 32-word segment in the order `key` scrambles, and writes it in order.
pub fn permuted_copy(
    twins: &OpenClTwins,
    queue: &ClQueue,
    odata: &mut ClBuffer<f32>,
    idata: &ClBuffer<f32>,
    threads: u64,
    key: i32,
) -> Result<()> {
    let shape = permuted_copy_shape(threads, key, odata.len(), idata.len())?;
    let kernel = twins.kernel_of(permuted_copy_params::SIGNATURE)?;
    // SAFETY: matches permuted_copy(float*, const float*, int); the shape check proved all indices in bounds.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[&*odata, idata, &key])? };
    Ok(())
}

/// Launches the OpenCL `texture_shift_copy`: `odata[t] = texel(t + shift)` for
/// `t < threads`, through an `image1d_buffer_t`; texels past the image read 0
/// (the kernel compares with the image's width, passed as its last argument).
pub fn texture_shift_copy(
    twins: &OpenClTwins,
    queue: &ClQueue,
    odata: &mut ClBuffer<f32>,
    texture: &Image1dBuffer<'_>,
    threads: u64,
    shift: i32,
) -> Result<()> {
    let shape = texture_shift_copy_shape(threads, shift, odata.len())?;
    // Images are at most CL_DEVICE_IMAGE_MAX_BUFFER_SIZE (2^27-2^28) texels: an int.
    let texels = i32::try_from(texture.texels()).unwrap_or(i32::MAX);
    // Not kernel_of: the OpenCL twin takes the texel count besides the Rust kernel's parameters.
    let kernel = twins.kernel(texture_shift_copy_params::NAME)?;
    // SAFETY: matches texture_shift_copy(float*, image1d_buffer_t, int, int); writes proved in bounds, reads
    // guarded in the kernel against the image's width.
    unsafe { queue.launch(kernel, &nd_range(&shape), &[&*odata, texture, &shift, &texels])? };
    Ok(())
}

/// Work-groups of `vector_copy` for `n` floats: about one `float4` per
/// work-item, at most [`VECTOR_COPY_MAX_WAVES`] waves of `wave_groups`, as on the CUDA side.
pub fn vector_copy_groups(n: u64, wave_groups: u32) -> u64 {
    let cap = (wave_groups.max(1) as u64 * VECTOR_COPY_MAX_WAVES as u64).min(i32::MAX as u64);
    (n / 4).div_ceil(COPY_BLOCK_THREADS as u64).clamp(1, cap)
}

/// Launches the OpenCL `vector_copy` of the first `n` floats, with
/// [`vector_copy_groups`] work-groups of 256 (`wave_groups`: work-groups that
/// fill the device once, see [`estimated_wave_groups`](super::estimated_wave_groups)).
pub fn vector_copy(
    twins: &OpenClTwins,
    queue: &ClQueue,
    out: &mut ClBuffer<f32>,
    inp: &ClBuffer<f32>,
    n: u64,
    wave_groups: u32,
) -> Result<()> {
    if n == 0 || n > out.len() as u64 || n > inp.len() as u64 {
        return Err(Error::InvalidLaunch {
            kernel: "vector_copy",
            reason: format!("{n} elements do not fit buffers of {} and {}", out.len(), inp.len()),
        });
    }
    let kernel = twins.kernel_of(vector_copy_params::SIGNATURE)?;
    let range = NdRange::groups_1d(vector_copy_groups(n, wave_groups) as usize, COPY_BLOCK_THREADS as usize);
    // SAFETY: matches vector_copy(float*, const float*, ulong); n is within both buffers, whose starts are
    // aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (>= 16 bytes for float4).
    unsafe { queue.launch(kernel, &range, &[&*out, inp, &n])? };
    Ok(())
}
