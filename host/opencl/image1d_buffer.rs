//! A 1-D image over a buffer (`image1d_buffer_t`): OpenCL's form of a CUDA
//! texture over linear memory (`tex1Dfetch`), read in kernels with `read_imagef`.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr;

use cl3::memory::{CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_READ_ONLY, CL_R, create_image, release_mem_object};
use cl3::types::{cl_image_desc, cl_image_format, cl_mem};

use super::error::{ClResult, ClStatusExt};
use super::{ClBuffer, ClContext, KernelArg, OpenClError};

/// A read-only `CL_R`/`CL_FLOAT` image of `len` texels sharing the storage of
/// a `ClBuffer<f32>` (no copy), released on drop. It borrows the buffer, so
/// the buffer can be neither written through Rust nor dropped while the image lives.
pub struct Image1dBuffer<'a> {
    mem: cl_mem,
    texels: usize,
    _buffer: PhantomData<&'a ClBuffer<f32>>,
}

// SAFETY: image objects may be used from any thread; the image is immutable here.
unsafe impl Send for Image1dBuffer<'_> {}
// SAFETY: as above.
unsafe impl Sync for Image1dBuffer<'_> {}

impl<'a> Image1dBuffer<'a> {
    /// An image over all of `buffer`. Refused where the device has no image
    /// support, or where the buffer has more texels than an `image1d_buffer_t`
    /// may (`CL_DEVICE_IMAGE_MAX_BUFFER_SIZE`: 2^28 on an H100, 2^27 on PoCL).
    pub fn new(context: &ClContext, buffer: &'a ClBuffer<f32>) -> ClResult<Self> {
        let info = context.device().info();
        if !info.image_support {
            return Err(OpenClError::Invalid(format!(
                "{} has no image support",
                info.name.trim()
            )));
        }
        if buffer.len() > info.image1d_buffer_max_texels {
            return Err(OpenClError::Invalid(format!(
                "{} texels exceed the device's image1d_buffer limit of {}",
                buffer.len(),
                info.image1d_buffer_max_texels
            )));
        }
        let format = cl_image_format {
            image_channel_order: CL_R,
            image_channel_data_type: CL_FLOAT,
        };
        // SAFETY: cl_image_desc is a plain C struct; all-zero is its documented default for unused fields.
        let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
        desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
        desc.image_width = buffer.len();
        desc.buffer = buffer.raw();
        // SAFETY: format and desc are valid for the call; an image over a buffer takes no host pointer.
        let mem = unsafe { create_image(context.raw(), CL_MEM_READ_ONLY, &format, &desc, ptr::null_mut()) }
            .during("clCreateImage(CL_MEM_OBJECT_IMAGE1D_BUFFER)")?;
        Ok(Self {
            mem,
            texels: buffer.len(),
            _buffer: PhantomData,
        })
    }

    pub fn texels(&self) -> usize {
        self.texels
    }
}

impl Drop for Image1dBuffer<'_> {
    fn drop(&mut self) {
        // SAFETY: the image is owned by this value and released once.
        let _ = unsafe { release_mem_object(self.mem) };
    }
}

// SAFETY: an image argument is its cl_mem handle, passed by address.
unsafe impl KernelArg for Image1dBuffer<'_> {
    fn size_and_value(&self) -> (usize, *const c_void) {
        (size_of::<cl_mem>(), (&raw const self.mem).cast())
    }
}
