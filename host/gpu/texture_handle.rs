use std::sync::Arc;

use cudarc::driver::{CudaContext, sys};
use kernels_gpu::device::TextureObject as TextureHandle;

use super::Gpu;
use crate::error::{DriverResultExt, Result};

/// A texture object made by `cuTexObjectCreate` from a resource and a
/// texture descriptor, destroyed on drop: what [`super::TextureObject`]
/// (1-D, linear memory) and [`super::Texture2d`] (2-D, a CUDA array) hold.
/// Neither descriptor is kept; whatever the resource points at must outlive
/// this handle (its owners borrow it).
pub(super) struct CreatedTexture {
    handle: sys::CUtexObject,
    gpu_ctx: Arc<CudaContext>,
}

impl CreatedTexture {
    /// `cuTexObjectCreate(resource, texture)` in `gpu`'s context, with no view descriptor.
    pub(super) fn create(
        gpu: &Gpu,
        resource: &sys::CUDA_RESOURCE_DESC,
        texture: &sys::CUDA_TEXTURE_DESC,
    ) -> Result<Self> {
        let mut handle: sys::CUtexObject = 0;
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the descriptors are fully initialized and outlive the call; no view descriptor.
        unsafe { sys::cuTexObjectCreate(&mut handle, resource, texture, std::ptr::null()) }
            .result()
            .during("cuTexObjectCreate")?;
        Ok(Self {
            handle,
            gpu_ctx: gpu.context().clone(),
        })
    }

    /// The kernel parameter for this texture.
    pub(super) fn handle(&self) -> TextureHandle {
        TextureHandle(self.handle)
    }
}

impl Drop for CreatedTexture {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed destroy only leaks the handle.
        if self.gpu_ctx.bind_to_thread().is_ok() {
            // SAFETY: the handle was created by this struct and is destroyed once.
            let _ = unsafe { sys::cuTexObjectDestroy(self.handle) };
        }
    }
}
