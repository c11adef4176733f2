use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, sys};
use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};
use serde::{Deserialize, Serialize};

use super::{DeviceBuffer, DeviceCopy, Gpu, Watchdog};
use crate::error::{DriverResultExt, Error, Result};

/// How host memory for transfers is allocated (the guide's §3.1.1–3.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HostMemoryKind {
    /// An ordinary `Vec`: the driver stages every copy through its own pinned buffer.
    Pageable,
    /// Page-locked (`cuMemHostAlloc`, portable): DMA straight from/to it, async copies.
    Pinned,
    /// Pinned and write-combined: fast for the GPU to read across PCIe, very
    /// slow for the CPU to read (no CPU caching) — only for data the CPU writes.
    WriteCombined,
    /// Pinned and mapped into the device address space (zero copy), where the
    /// device supports it (`canMapHostMemory`).
    Mapped,
}

impl HostMemoryKind {
    pub const ALL: [Self; 4] = [Self::Pageable, Self::Pinned, Self::WriteCombined, Self::Mapped];

    pub fn label(self) -> &'static str {
        match self {
            Self::Pageable => "pageable",
            Self::Pinned => "pinned",
            Self::WriteCombined => "write-combined",
            Self::Mapped => "mapped",
        }
    }
}

/// `len` elements of page-locked host memory (`cuMemHostAlloc`), freed on drop.
pub struct PinnedBuffer<T: DeviceCopy> {
    ptr: *mut T,
    len: usize,
    kind: HostMemoryKind,
    ctx: Arc<CudaContext>,
    watchdog: Arc<Watchdog>,
    _elem: PhantomData<T>,
}

// SAFETY: the buffer owns its allocation; access goes through &/&mut like a Vec.
unsafe impl<T: DeviceCopy> Send for PinnedBuffer<T> {}
// SAFETY: as above.
unsafe impl<T: DeviceCopy> Sync for PinnedBuffer<T> {}

impl<T: DeviceCopy> PinnedBuffer<T> {
    /// Allocates `len` elements of `kind` memory, zero-filled. `Pageable` is
    /// refused (use a `Vec`), and `Mapped` where the device cannot map host memory.
    pub fn new(gpu: &Gpu, len: usize, kind: HostMemoryKind) -> Result<Self> {
        let flags = sys::CU_MEMHOSTALLOC_PORTABLE
            | match kind {
                HostMemoryKind::Pageable => {
                    return Err(Error::InvalidInput(
                        "pageable memory is a Vec, not a PinnedBuffer".into(),
                    ));
                }
                HostMemoryKind::Pinned => 0,
                HostMemoryKind::WriteCombined => sys::CU_MEMHOSTALLOC_WRITECOMBINED,
                HostMemoryKind::Mapped => {
                    if !gpu.info().can_map_host_memory {
                        return Err(Error::InvalidInput(format!(
                            "{} cannot map host memory (canMapHostMemory = 0): zero copy is not available",
                            gpu.info().name
                        )));
                    }
                    sys::CU_MEMHOSTALLOC_DEVICEMAP
                }
            };
        let bytes = len
            .checked_mul(size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::InvalidInput(format!("cannot allocate {len} elements of host memory")))?;
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
        let mut ptr = std::ptr::null_mut();
        // SAFETY: writes one pointer; the size is non-zero.
        unsafe { sys::cuMemHostAlloc(&mut ptr, bytes, flags) }
            .result()
            .during("cuMemHostAlloc")?;
        let buffer = Self {
            ptr: ptr.cast(),
            len,
            kind,
            ctx: gpu.context().clone(),
            watchdog: gpu.watchdog().clone(),
            _elem: PhantomData,
        };
        // SAFETY: the allocation holds `bytes` writable bytes; zero is a valid T (DeviceCopy).
        unsafe { std::ptr::write_bytes(buffer.ptr.cast::<u8>(), 0, bytes) };
        Ok(buffer)
    }

    pub fn kind(&self) -> HostMemoryKind {
        self.kind
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[T] {
        // SAFETY: ptr holds len initialized elements for the life of self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as above, with exclusive access through &mut self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// The device-side address of mapped memory (`cuMemHostGetDevicePointer`), for zero-copy kernels.
    pub fn device_ptr(&self) -> Result<sys::CUdeviceptr> {
        if self.kind != HostMemoryKind::Mapped {
            return Err(Error::InvalidInput(format!(
                "{} memory is not mapped into the device",
                self.kind.label()
            )));
        }
        let mut dptr: sys::CUdeviceptr = 0;
        // SAFETY: the pointer was allocated with CU_MEMHOSTALLOC_DEVICEMAP in this context.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dptr, self.ptr.cast(), 0) }
            .result()
            .during("cuMemHostGetDevicePointer")?;
        Ok(dptr)
    }

    /// The mapped memory as a read-only kernel parameter (zero copy).
    pub fn as_global(&self) -> Result<GlobalPtr<T>> {
        Ok(GlobalPtr::from_raw(self.device_ptr()? as usize as *const T))
    }

    /// The mapped memory as a writable kernel parameter (zero copy).
    pub fn as_global_mut(&mut self) -> Result<GlobalMutPtr<T>> {
        Ok(GlobalMutPtr::from_raw(self.device_ptr()? as usize as *mut T))
    }

    fn check_range(&self, range: &Range<usize>, device_len: usize) -> Result<()> {
        if range.start > range.end || range.end > self.len || range.end > device_len {
            return Err(Error::InvalidInput(format!(
                "transfer of elements {range:?} exceeds a buffer ({} host, {device_len} device)",
                self.len
            )));
        }
        Ok(())
    }

    /// Enqueues `device[range] ← self[range]` on `stream` (DMA by a copy engine).
    ///
    /// # Safety
    /// Neither buffer may be written, nor `self` dropped, until `stream` has
    /// been synchronized (the copy runs asynchronously).
    pub unsafe fn upload_async(
        &self,
        range: Range<usize>,
        device: &mut DeviceBuffer<T>,
        stream: &CudaStream,
    ) -> Result<()> {
        self.check_range(&range, device.len())?;
        let offset = (range.start * size_of::<T>()) as u64;
        // SAFETY: both ranges are inside live allocations (checked); the caller keeps them alive until synchronization.
        unsafe {
            sys::cuMemcpyHtoDAsync_v2(
                device.device_ptr() + offset,
                self.ptr.add(range.start).cast(),
                range.len() * size_of::<T>(),
                stream.cu_stream(),
            )
        }
        .result()
        .during("cuMemcpyHtoDAsync")
    }

    /// Enqueues `self[range] ← device[range]` on `stream`.
    ///
    /// # Safety
    /// As [`upload_async`](Self::upload_async): no access to either buffer until `stream` is synchronized.
    pub unsafe fn download_async(
        &mut self,
        range: Range<usize>,
        device: &DeviceBuffer<T>,
        stream: &CudaStream,
    ) -> Result<()> {
        self.check_range(&range, device.len())?;
        let offset = (range.start * size_of::<T>()) as u64;
        // SAFETY: as above.
        unsafe {
            sys::cuMemcpyDtoHAsync_v2(
                self.ptr.add(range.start).cast(),
                device.device_ptr() + offset,
                range.len() * size_of::<T>(),
                stream.cu_stream(),
            )
        }
        .result()
        .during("cuMemcpyDtoHAsync")
    }
}

impl<T: DeviceCopy> Drop for PinnedBuffer<T> {
    fn drop(&mut self) {
        // Errors cannot be reported from drop; a failed free only leaks the pinned pages.
        // Past a time-out cuMemFreeHost would wait for the running kernel: leak instead.
        if !self.watchdog.overrun() && self.ctx.bind_to_thread().is_ok() {
            // SAFETY: allocated by cuMemHostAlloc in this context, freed once.
            let _ = unsafe { sys::cuMemFreeHost(self.ptr.cast()) };
        }
    }
}
