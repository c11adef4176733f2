use std::marker::PhantomData;

use cudarc::driver::sys;
use kernels_gpu::device::TextureObject as TextureHandle;

use super::texture_handle::CreatedTexture;
use super::{DeviceBuffer, Gpu};
use crate::error::{DriverResultExt, Error, Result};

/// A 1-D texture object over a device buffer of `f32` (`cuTexObjectCreate`
/// on linear memory), destroyed on drop.
///
/// The modern form of the guide's `texture<float> texRef` bound with
/// `cudaBindTexture`: point sampling, integer texel coordinates
/// (`tex1Dfetch`), one `float` channel. It borrows the buffer, so the buffer
/// cannot be freed while the texture exists.
pub struct TextureObject<'buffer> {
    texture: CreatedTexture,
    _buffer: PhantomData<&'buffer DeviceBuffer<f32>>,
}

impl<'buffer> TextureObject<'buffer> {
    /// Creates a texture over all of `buffer`.
    pub fn over(gpu: &Gpu, buffer: &'buffer DeviceBuffer<f32>) -> Result<Self> {
        let max_texels = gpu
            .context()
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH)
            .during("cuDeviceGetAttribute")? as usize;
        if buffer.len() > max_texels {
            return Err(Error::InvalidInput(format!(
                "a 1-D linear texture holds at most {max_texels} texels on this GPU, the buffer has {}; use a smaller --size-mib",
                buffer.len()
            )));
        }
        // SAFETY: all-zero is a valid bit pattern for these plain C structs (null handles, zero enums).
        let mut resource: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        resource.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_LINEAR;
        resource.res.linear = sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_3 {
            devPtr: buffer.device_ptr(),
            format: sys::CUarray_format::CU_AD_FORMAT_FLOAT,
            numChannels: 1,
            sizeInBytes: buffer.bytes(),
        };
        // SAFETY: as above; zero means clamp addressing, point filtering, element-type reads.
        let texture: sys::CUDA_TEXTURE_DESC = unsafe { std::mem::zeroed() };
        Ok(Self {
            texture: CreatedTexture::create(gpu, &resource, &texture)?,
            _buffer: PhantomData,
        })
    }

    /// The kernel parameter for this texture.
    pub fn handle(&self) -> TextureHandle {
        self.texture.handle()
    }
}
