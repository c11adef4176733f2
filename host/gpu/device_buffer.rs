use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, result, sys};
use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};

use super::{Gpu, Watchdog};
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
unsafe impl DeviceCopy for half::f16 {}
// SAFETY: four f32 lanes, no padding.
unsafe impl DeviceCopy for kernels_gpu::device::F32x4 {}
// SAFETY: as above.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] where [T; N]: Default {}

/// `len` elements of `T` in device memory, freed on drop. The length always
/// travels with the pointer, so launchers can check every index against it.
///
/// Every copy and fill is ordered on the suite's stream (the one kernels are
/// launched on), then waited for: the legacy synchronous `cuMemcpy`/`cuMemset`
/// calls run on the NULL stream, which does not wait for a non-blocking
/// stream, and would race with the kernels. The waits observe the GPU's
/// kernel time limit.
pub struct DeviceBuffer<T: DeviceCopy> {
    ptr: sys::CUdeviceptr,
    len: usize,
    stream: Arc<CudaStream>,
    ctx: Arc<CudaContext>,
    watchdog: Arc<Watchdog>,
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
            stream: gpu.stream().clone(),
            ctx: gpu.context().clone(),
            watchdog: gpu.watchdog().clone(),
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
        // SAFETY: both sides hold exactly self.len elements of T; `data` outlives the copy (synchronized below).
        unsafe { result::memcpy_htod_async(self.ptr, data, self.stream.cu_stream()) }.during("cuMemcpyHtoDAsync")?;
        self.watchdog
            .wait_for_stream(&self.stream, "a host-to-device copy and the GPU work queued before it")
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
        // SAFETY: both sides hold exactly self.len elements; T accepts any bit pattern (DeviceCopy);
        // `out` outlives the copy (synchronized below).
        unsafe { result::memcpy_dtoh_async(out, self.ptr, self.stream.cu_stream()) }.during("cuMemcpyDtoHAsync")?;
        self.watchdog
            .wait_for_stream(&self.stream, "a device-to-host copy and the GPU work queued before it")
    }

    /// Copies elements `start .. start + out.len()` of the buffer into `out`
    /// (a part of a buffer too large to read back whole).
    pub fn copy_range_to_host(&self, start: usize, out: &mut [T]) -> Result<()> {
        if start.checked_add(out.len()).is_none_or(|end| end > self.len) {
            return Err(Error::InvalidInput(format!(
                "copy of elements {start}..{start}+{} of a device buffer of {}",
                out.len(),
                self.len
            )));
        }
        if out.is_empty() {
            return Ok(());
        }
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        let src = self.ptr + (start * size_of::<T>()) as sys::CUdeviceptr;
        // SAFETY: the range lies inside the allocation (checked above); T accepts any bit pattern
        // (DeviceCopy); `out` outlives the copy (synchronized below).
        unsafe { result::memcpy_dtoh_async(out, src, self.stream.cu_stream()) }.during("cuMemcpyDtoHAsync")?;
        self.watchdog
            .wait_for_stream(&self.stream, "a device-to-host copy and the GPU work queued before it")
    }

    /// Copies the whole buffer into a new vector.
    pub fn to_host(&self) -> Result<Vec<T>> {
        let mut out = vec![T::default(); self.len];
        self.copy_to_host(&mut out)?;
        Ok(out)
    }

    /// Enqueues a copy of the first `count` elements of `src` into this buffer
    /// on the suite's stream (`cuMemcpyDtoDAsync`, the driver's own copy).
    pub fn copy_from_device_async(&mut self, src: &DeviceBuffer<T>, count: usize) -> Result<()> {
        if count > self.len || count > src.len {
            return Err(Error::InvalidInput(format!(
                "device copy of {count} elements between buffers of {} and {}",
                src.len, self.len
            )));
        }
        // SAFETY: both ranges lie inside live allocations of this context (checked above).
        unsafe { sys::cuMemcpyDtoDAsync_v2(self.ptr, src.ptr, count * size_of::<T>(), self.stream.cu_stream()) }
            .result()
            .during("cuMemcpyDtoDAsync")
    }

    /// Enqueues `self[..count] ← src[..count]` on `stream`, where `src` may
    /// live on another GPU (`cuMemcpyPeerAsync`: a direct copy over the link
    /// where peer access is possible, staged through host memory where not).
    ///
    /// # Safety
    /// Neither buffer may be dropped, nor `self` read, until `stream` has been
    /// synchronized (the copy runs asynchronously on a stream the buffers do not own).
    pub unsafe fn copy_from_peer_async(
        &mut self,
        src: &DeviceBuffer<T>,
        count: usize,
        stream: &CudaStream,
    ) -> Result<()> {
        // SAFETY: the caller's contract is this one's; `&mut self` leaves no other access to the range.
        unsafe { self.copy_range_from_peer_async(0, src, count, stream) }
    }

    /// Enqueues `self[start..start + count] ← src[start..start + count]` on
    /// `stream` (`cuMemcpyPeerAsync`), for copies split into parts that run at
    /// once on several streams, each part on its own range.
    ///
    /// # Safety
    /// As [`Self::copy_from_peer_async`]; and it writes through `&self`: no other
    /// access to `self[start..start + count]` may run until `stream` is synchronized.
    pub unsafe fn copy_range_from_peer_async(
        &self,
        start: usize,
        src: &DeviceBuffer<T>,
        count: usize,
        stream: &CudaStream,
    ) -> Result<()> {
        let end = start.checked_add(count).filter(|&e| e <= self.len && e <= src.len);
        if end.is_none() {
            return Err(Error::InvalidInput(format!(
                "peer copy of {count} elements from element {start} between buffers of {} and {}",
                src.len, self.len
            )));
        }
        let offset = (start * size_of::<T>()) as sys::CUdeviceptr;
        stream.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: both ranges lie inside live allocations of their contexts (checked above); the caller keeps
        // them alive and the destination range unshared until the stream is synchronized.
        unsafe {
            sys::cuMemcpyPeerAsync(
                self.ptr + offset,
                self.ctx.cu_ctx(),
                src.ptr + offset,
                src.ctx.cu_ctx(),
                count * size_of::<T>(),
                stream.cu_stream(),
            )
        }
        .result()
        .during("cuMemcpyPeerAsync")
    }

    /// Sets every byte to `value` (`cuMemsetD8Async` on the suite's stream).
    pub fn fill_bytes(&mut self, value: u8) -> Result<()> {
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: writes exactly the allocation's bytes, in stream order.
        unsafe { result::memset_d8_async(self.ptr, value, self.bytes(), self.stream.cu_stream()) }
            .during("cuMemsetD8Async")
    }
}

impl<T: DeviceCopy> DeviceBuffer<T> {
    /// Sets every element to `value` (in stream order). Uses `cuMemsetD32`/`D16` when the
    /// element is a repetition of one 4- or 2-byte word, else an upload.
    pub fn fill(&mut self, value: T) -> Result<()> {
        // SAFETY: T is plain data without padding (DeviceCopy), so its bytes may be read.
        let bytes = unsafe { std::slice::from_raw_parts((&raw const value).cast::<u8>(), size_of::<T>()) };
        self.ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        if bytes.len() % 4 == 0 && bytes.chunks(4).all(|c| c == &bytes[..4]) {
            let word = u32::from_ne_bytes(bytes[..4].try_into().expect("4 bytes"));
            // SAFETY: writes exactly the allocation's bytes as 4-byte words, in stream order.
            return unsafe { sys::cuMemsetD32Async(self.ptr, word, self.bytes() / 4, self.stream.cu_stream()) }
                .result()
                .during("cuMemsetD32Async");
        }
        if bytes.len() % 2 == 0 && bytes.chunks(2).all(|c| c == &bytes[..2]) {
            let half_word = u16::from_ne_bytes(bytes[..2].try_into().expect("2 bytes"));
            // SAFETY: writes exactly the allocation's bytes as 2-byte words, in stream order.
            return unsafe { sys::cuMemsetD16Async(self.ptr, half_word, self.bytes() / 2, self.stream.cu_stream()) }
                .result()
                .during("cuMemsetD16Async");
        }
        self.copy_from_host(&vec![value; self.len])
    }
}

impl<T: DeviceCopy> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed free only leaks device memory.
        // Past a time-out cuMemFree would wait for the running kernel: leak instead.
        if !self.watchdog.overrun() && self.ctx.bind_to_thread().is_ok() {
            // SAFETY: ptr was allocated by cuMemAlloc in this context and is freed once.
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}
