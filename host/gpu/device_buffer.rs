use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{CudaContext, result, sys};
use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};

use super::Gpu;
use crate::error::{DriverResultExt, Error, Result};

/// Element types that may live in a [`DeviceBuffer`]: plain data for which
/// every bit pattern is a valid value, so bytes copied back from the GPU are sound.
///
/// # Safety
/// Implementors must be `Copy`, contain no padding and no pointers, and accept
/// any bit pattern.
pub unsafe trait DeviceCopy: Copy + Default + Send + Sync + 'static {}

// SAFETY: primitive numbers and arrays of them accept every bit pattern and have no padding.
unsafe impl DeviceCopy for f32 {}
// SAFETY: as above.
unsafe impl DeviceCopy for f64 {}
// SAFETY: as above.
unsafe impl DeviceCopy for u8 {}
// SAFETY: as above.
unsafe impl DeviceCopy for u16 {}
// SAFETY: as above.
unsafe impl DeviceCopy for u32 {}
// SAFETY: as above.
unsafe impl DeviceCopy for u64 {}
// SAFETY: as above.
unsafe impl DeviceCopy for i32 {}
// SAFETY: as above.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] where [T; N]: Default {}

/// `len` elements of `T` in device memory, freed on drop. The length always
/// travels with the pointer, so launchers can check every index against it.
pub struct DeviceBuffer<T: DeviceCopy> {
    ptr: sys::CUdeviceptr,
    len: usize,
    ctx: Arc<CudaContext>,
    _elem: PhantomData<T>,
}

impl<T: DeviceCopy> DeviceBuffer<T> {
    fn bytes_for(len: usize) -> Result<usize> {
        len.checked_mul(size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::InvalidInput(format!("cannot allocate a device buffer of {len} elements")))
    }

    /// Allocates `len` elements, contents unspecified (`cuMemAlloc`), after
    /// checking that the device has that much free memory.
    pub fn uninit(gpu: &Gpu, len: usize) -> Result<Self> {
        let bytes = Self::bytes_for(len)?;
        gpu.ensure_free_memory(bytes as u64)?;
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: plain allocation of a non-zero size on the bound context.
        let ptr = unsafe { result::malloc_sync(bytes) }.map_err(|source| match source.0 {
            sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => Error::OutOfDeviceMemory {
                needed_mib: (bytes as u64).div_ceil(1 << 20),
                free_mib: gpu.memory_info().map(|(f, _)| f as u64 >> 20).unwrap_or(0),
            },
            _ => Error::Driver {
                call: "cuMemAlloc",
                source,
            },
        })?;
        Ok(Self {
            ptr,
            len,
            ctx: gpu.context().clone(),
            _elem: PhantomData,
        })
    }

    /// Allocates a buffer holding a copy of `data`.
    pub fn from_host(gpu: &Gpu, data: &[T]) -> Result<Self> {
        let mut buffer = Self::uninit(gpu, data.len())?;
        buffer.copy_from_host(data)?;
        Ok(buffer)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn bytes(&self) -> usize {
        self.len * size_of::<T>()
    }

    /// The raw device address (for kernel parameters).
    pub fn device_ptr(&self) -> sys::CUdeviceptr {
        self.ptr
    }

    /// The buffer as a read-only kernel parameter.
    pub fn as_global(&self) -> GlobalPtr<T> {
        GlobalPtr::from_raw(self.ptr as usize as *const T)
    }

    /// The buffer as a writable kernel parameter.
    pub fn as_global_mut(&mut self) -> GlobalMutPtr<T> {
        GlobalMutPtr::from_raw(self.ptr as usize as *mut T)
    }

    /// Overwrites the whole buffer with `data` (same length).
    pub fn copy_from_host(&mut self, data: &[T]) -> Result<()> {
        if data.len() != self.len {
            return Err(Error::InvalidInput(format!(
                "copy of {} elements into a device buffer of {}",
                data.len(),
                self.len
            )));
        }
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: both sides hold exactly self.len elements of T.
        unsafe { result::memcpy_htod_sync(self.ptr, data) }.during("cuMemcpyHtoD")
    }

    /// Copies the whole buffer into `out` (same length).
    pub fn copy_to_host(&self, out: &mut [T]) -> Result<()> {
        if out.len() != self.len {
            return Err(Error::InvalidInput(format!(
                "copy of a device buffer of {} elements into {}",
                self.len,
                out.len()
            )));
        }
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: both sides hold exactly self.len elements; T accepts any bit pattern (DeviceCopy).
        unsafe { result::memcpy_dtoh_sync(out, self.ptr) }.during("cuMemcpyDtoH")
    }

    /// Copies the whole buffer into a new vector.
    pub fn to_host(&self) -> Result<Vec<T>> {
        let mut out = vec![T::default(); self.len];
        self.copy_to_host(&mut out)?;
        Ok(out)
    }

    /// Sets every byte to `value` (`cuMemsetD8`).
    pub fn fill_bytes(&mut self, value: u8) -> Result<()> {
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: writes exactly the allocation's bytes.
        unsafe { result::memset_d8_sync(self.ptr, value, self.bytes()) }.during("cuMemsetD8")
    }
}

impl DeviceBuffer<f32> {
    /// Sets every element to `value` (`cuMemsetD32`).
    pub fn fill(&mut self, value: f32) -> Result<()> {
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: writes exactly self.len 4-byte words of the allocation.
        unsafe { sys::cuMemsetD32_v2(self.ptr, value.to_bits(), self.len) }
            .result()
            .during("cuMemsetD32")
    }
}

impl<T: DeviceCopy> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed free only leaks device memory.
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: ptr was allocated by cuMemAlloc in this context and is freed once.
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}
