use std::sync::Arc;

use cudarc::driver::{CudaStream, result, sys};

use super::{Gpu, Watchdog};
use crate::error::{DriverResultExt, Error, Result};

/// Raw device bytes from `cuMemAlloc`, freed with `cuMemFree` on drop: one
/// allocation and nothing else (no free-memory query, no context switch), so
/// that timing an allocate/free pair times the driver's allocator alone.
/// [`super::DeviceBuffer`] is the typed buffer the rest of the suite uses.
///
/// The context must be current on the calling thread ([`DeviceAllocation::bind`]).
pub struct DeviceAllocation {
    ptr: sys::CUdeviceptr,
    bytes: usize,
    stream: Arc<CudaStream>,
    watchdog: Arc<Watchdog>,
}

impl DeviceAllocation {
    /// Makes `gpu`'s context current on this thread, once before a series of allocations.
    pub fn bind(gpu: &Gpu) -> Result<()> {
        gpu.context().bind_to_thread().during("cuCtxSetCurrent")
    }

    /// `bytes` (at least 4, a multiple of 4) from `cuMemAlloc`, on the context
    /// bound to this thread by [`DeviceAllocation::bind`].
    pub fn new(gpu: &Gpu, bytes: usize) -> Result<Self> {
        check_size(bytes)?;
        // SAFETY: plain allocation of a non-zero size on the bound context; freed once, on drop.
        let ptr = unsafe { result::malloc_sync(bytes) }.during("cuMemAlloc")?;
        Ok(Self {
            ptr,
            bytes,
            stream: gpu.stream().clone(),
            watchdog: gpu.watchdog().clone(),
        })
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The device address `cuMemAlloc` returned (for alignment checks; never dereferenced on the host).
    pub fn address(&self) -> u64 {
        self.ptr
    }

    /// Writes `value` into the allocation's last 32-bit word and reads it back
    /// (two 4-byte copies on the suite's stream, waited for): proof that the
    /// memory is real and mapped.
    pub fn round_trip_last_word(&self, value: u32) -> Result<u32> {
        round_trip_word(self.ptr, self.bytes, value, &self.stream, &self.watchdog)
    }
}

impl Drop for DeviceAllocation {
    fn drop(&mut self) {
        // SAFETY: ptr came from cuMemAlloc and is freed exactly once; the copies that used it were waited for.
        // A failure here (a lost context) leaves nothing to clean up.
        let _ = unsafe { result::free_sync(self.ptr) };
    }
}

/// A valid size for an allocation that holds a last word: at least 4 bytes, a multiple of 4.
pub(super) fn check_size(bytes: usize) -> Result<()> {
    if bytes < 4 || bytes % 4 != 0 {
        return Err(Error::InvalidInput(format!(
            "cannot allocate {bytes} bytes: an allocation must hold whole 32-bit words, at least one"
        )));
    }
    Ok(())
}

/// Writes `value` to the last 32-bit word of the `bytes` at `ptr` and reads it
/// back, both on `stream`, then waits (at most the kernel time limit).
pub(super) fn round_trip_word(
    ptr: sys::CUdeviceptr,
    bytes: usize,
    value: u32,
    stream: &CudaStream,
    watchdog: &Watchdog,
) -> Result<u32> {
    let last = ptr + (bytes - 4) as sys::CUdeviceptr;
    let sent = [value];
    let mut back = [0u32];
    // SAFETY: `last` is the final word of a live allocation of `bytes` ≥ 4 (check_size); both host arrays
    // outlive the copies, which are waited for before they go out of scope.
    unsafe { result::memcpy_htod_async(last, &sent, stream.cu_stream()) }.during("cuMemcpyHtoDAsync")?;
    // SAFETY: as above; u32 accepts any bit pattern.
    unsafe { result::memcpy_dtoh_async(&mut back, last, stream.cu_stream()) }.during("cuMemcpyDtoHAsync")?;
    watchdog.wait_for_stream(stream, "a 4-byte copy into a fresh allocation and back")?;
    Ok(back[0])
}
