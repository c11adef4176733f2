use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, sys};
use kernels_gpu::device::GlobalMutPtr;

use super::{DeviceCopy, Gpu, Watchdog};
use crate::error::{DriverResultExt, Error, Result};

/// `cuGraphicsGLRegisterBuffer`, which cudarc does not bind: resolved by
/// name from the driver library cudarc has already opened.
type RegisterGlBuffer =
    unsafe extern "C" fn(resource: *mut sys::CUgraphicsResource, buffer: u32, flags: u32) -> sys::CUresult;

/// An OpenGL buffer object registered with CUDA (`cuGraphicsGLRegisterBuffer`),
/// unregistered on drop: the notes' `cudaGLRegisterBufferObject`, in the
/// driver API's current form.
///
/// Map it ([`map`](Self::map)) to get a device pointer to the buffer for
/// kernels; while mapped, OpenGL must not use the buffer; unmapping hands it
/// back to OpenGL, which then sees what the kernels wrote. Map and unmap are
/// ordered on the suite's stream.
pub struct GraphicsResource {
    resource: sys::CUgraphicsResource,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    watchdog: Arc<Watchdog>,
}

impl GraphicsResource {
    /// Registers GL buffer object `gl_buffer` for reading and writing by CUDA.
    ///
    /// # Safety
    /// `gl_buffer` must name a buffer object of the OpenGL context current on
    /// this thread, that context must run on `gpu`'s device, and the buffer
    /// and context must outlive the returned resource (drop it first).
    pub unsafe fn register_gl_buffer(gpu: &Gpu, gl_buffer: u32) -> Result<Self> {
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: a Gpu exists, so the driver library is loaded (culib only opens it once).
        let library = unsafe { sys::culib() };
        // SAFETY: the symbol has this C signature in every CUDA driver since 3.0.
        let register = unsafe { library.get::<RegisterGlBuffer>(b"cuGraphicsGLRegisterBuffer\0") }
            .map_err(|e| Error::Waived(format!("the CUDA driver has no cuGraphicsGLRegisterBuffer: {e}")))?;
        let mut resource: sys::CUgraphicsResource = std::ptr::null_mut();
        let flags = sys::CUgraphicsRegisterFlags::CU_GRAPHICS_REGISTER_FLAGS_NONE as u32;
        // SAFETY: the caller guarantees a live buffer of the current GL context on this device; out pointer valid.
        unsafe { register(&mut resource, gl_buffer, flags) }
            .result()
            .during("cuGraphicsGLRegisterBuffer")?;
        Ok(Self {
            resource,
            ctx: gpu.context().clone(),
            stream: gpu.stream().clone(),
            watchdog: gpu.watchdog().clone(),
        })
    }

    /// Maps the buffer for CUDA on the suite's stream (`cuGraphicsMapResources`)
    /// and returns its device address and size; it is unmapped when the
    /// mapping is dropped or [`unmap`](MappedGraphicsResource::unmap)ped.
    pub fn map(&mut self) -> Result<MappedGraphicsResource<'_>> {
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: one registered resource, mapped on a stream of its context.
        unsafe { sys::cuGraphicsMapResources(1, &mut self.resource, self.stream.cu_stream()) }
            .result()
            .during("cuGraphicsMapResources")?;
        let mut ptr: sys::CUdeviceptr = 0;
        let mut bytes: usize = 0;
        // SAFETY: the resource is mapped; both out pointers are valid.
        let pointer = unsafe { sys::cuGraphicsResourceGetMappedPointer_v2(&mut ptr, &mut bytes, self.resource) }
            .result()
            .during("cuGraphicsResourceGetMappedPointer");
        let mapped = MappedGraphicsResource {
            resource: self,
            ptr,
            bytes,
            unmapped: false,
        };
        pointer?; // on failure, dropping `mapped` unmaps
        Ok(mapped)
    }
}

impl Drop for GraphicsResource {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed unregister only leaks the registration.
        if !self.watchdog.overrun() && self.ctx.bind_to_thread().is_ok() {
            // SAFETY: registered by this struct, unmapped (a mapping borrows it mutably), unregistered once.
            let _ = unsafe { sys::cuGraphicsUnregisterResource(self.resource) };
        }
    }
}

/// A [`GraphicsResource`] mapped for CUDA: the GL buffer's device address and size.
pub struct MappedGraphicsResource<'a> {
    resource: &'a mut GraphicsResource,
    ptr: sys::CUdeviceptr,
    bytes: usize,
    unmapped: bool,
}

impl MappedGraphicsResource<'_> {
    pub fn device_ptr(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    /// Size of the buffer in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The buffer as a kernel parameter of `T`s, with how many whole `T`s it holds.
    pub fn as_global_mut<T: DeviceCopy>(&mut self) -> (GlobalMutPtr<T>, usize) {
        (
            GlobalMutPtr::from_raw(self.ptr as usize as *mut T),
            self.bytes / size_of::<T>(),
        )
    }

    /// Copies `data` to the start of the buffer, in stream order, and waits for it.
    pub fn copy_from_host<T: DeviceCopy>(&mut self, data: &[T]) -> Result<()> {
        if size_of_val(data) > self.bytes {
            return Err(Error::InvalidInput(format!(
                "{} bytes do not fit the mapped buffer of {}",
                size_of_val(data),
                self.bytes
            )));
        }
        let resource = &self.resource;
        resource.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the destination range lies inside the mapped buffer (checked); `data` outlives the copy (waited for).
        unsafe { cudarc::driver::result::memcpy_htod_async(self.ptr, data, resource.stream.cu_stream()) }
            .during("cuMemcpyHtoDAsync")?;
        resource
            .watchdog
            .wait_for_stream(&resource.stream, "a copy into a mapped GL buffer")
    }

    /// Hands the buffer back to OpenGL (`cuGraphicsUnmapResources` on the suite's stream).
    pub fn unmap(mut self) -> Result<()> {
        self.unmapped = true;
        self.unmap_now()
    }

    fn unmap_now(&mut self) -> Result<()> {
        let resource = &mut *self.resource;
        resource.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the resource is mapped (by the map that made self) and unmapped once.
        unsafe { sys::cuGraphicsUnmapResources(1, &mut resource.resource, resource.stream.cu_stream()) }
            .result()
            .during("cuGraphicsUnmapResources")
    }
}

impl Drop for MappedGraphicsResource<'_> {
    fn drop(&mut self) {
        if !self.unmapped && !self.resource.watchdog.overrun() {
            // Errors cannot be reported from drop; the explicit unmap() reports them.
            let _ = self.unmap_now();
        }
    }
}
