use cudarc::driver::sys;

use super::Gpu;
use crate::error::{DriverResultExt, Error, Result};

/// A 2-D CUDA array of one-channel `f32` texels (`cuArrayCreate`), freed on
/// drop: the opaque, block-linear (2-D tiled) storage that the guide's
/// `tex2D` fetches read through a texture ([`Texture2d`](super::Texture2d)).
pub struct CudaArray2d {
    handle: sys::CUarray,
    width: usize,
    height: usize,
    gpu_ctx: std::sync::Arc<cudarc::driver::CudaContext>,
}

impl CudaArray2d {
    /// An array of `width × height` texels holding `texels` (row-major,
    /// texel `(x, y)` at `texels[y * width + x]`). The size must fit the
    /// GPU's 2-D texture limits and `texels` must hold exactly `width × height`.
    pub fn from_host(gpu: &Gpu, texels: &[f32], width: usize, height: usize) -> Result<Self> {
        if width == 0 || height == 0 || width.checked_mul(height) != Some(texels.len()) {
            return Err(Error::InvalidInput(format!(
                "a {width} x {height} array cannot hold {} texels",
                texels.len()
            )));
        }
        let attribute = |a| gpu.context().attribute(a).during("cuDeviceGetAttribute");
        let max_width = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH)? as usize;
        let max_height = attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT)? as usize;
        if width > max_width || height > max_height {
            return Err(Error::InvalidInput(format!(
                "a 2-D texture holds at most {max_width} x {max_height} texels on this GPU, not {width} x {height}"
            )));
        }
        let descriptor = sys::CUDA_ARRAY_DESCRIPTOR {
            Width: width,
            Height: height,
            Format: sys::CUarray_format::CU_AD_FORMAT_FLOAT,
            NumChannels: 1,
        };
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
        let mut handle: sys::CUarray = std::ptr::null_mut();
        // SAFETY: the descriptor is fully initialized and outlives the call.
        unsafe { sys::cuArrayCreate_v2(&mut handle, &descriptor) }
            .result()
            .during("cuArrayCreate")?;
        let array = Self {
            handle,
            width,
            height,
            gpu_ctx: gpu.context().clone(),
        };
        let row_bytes = width * std::mem::size_of::<f32>();
        // Every field spelled out: CUmemorytype has no zero value, so an all-zero struct is invalid Rust.
        let copy = sys::CUDA_MEMCPY2D {
            srcXInBytes: 0,
            srcY: 0,
            srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_HOST,
            srcHost: texels.as_ptr().cast(),
            srcDevice: 0,
            srcArray: std::ptr::null_mut(),
            srcPitch: row_bytes,
            dstXInBytes: 0,
            dstY: 0,
            dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_ARRAY,
            dstHost: std::ptr::null_mut(),
            dstDevice: 0,
            dstArray: array.handle,
            dstPitch: 0,
            WidthInBytes: row_bytes,
            Height: height,
        };
        // SAFETY: the source holds height rows of row_bytes; the array was created with that extent.
        unsafe { sys::cuMemcpy2D_v2(&copy) }.result().during("cuMemcpy2D")?;
        Ok(array)
    }

    /// Texels a row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    pub(super) fn handle(&self) -> sys::CUarray {
        self.handle
    }
}

impl Drop for CudaArray2d {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed destroy only leaks the array.
        if self.gpu_ctx.bind_to_thread().is_ok() {
            // SAFETY: the handle was created by this struct and is destroyed once; textures borrowing it are gone.
            let _ = unsafe { sys::cuArrayDestroy(self.handle) };
        }
    }
}
