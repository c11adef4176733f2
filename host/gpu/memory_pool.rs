use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{CudaStream, result, sys};

use super::device_allocation::{check_size, round_trip_word};
use super::{Gpu, Watchdog};
use crate::error::{DriverResultExt, Error, Result};

/// The device's default memory pool, the one `cuMemAllocAsync` draws from
/// (the stream-ordered allocator of CUDA 11.2), held with a release
/// threshold of our choosing: memory freed back to the pool stays there,
/// ready for the next allocation, until the pool holds more than the
/// threshold at a synchronization. On drop the previous threshold is put
/// back and the pool trimmed, so later work sees the driver's default.
pub struct MemoryPool {
    pool: sys::CUmemoryPool,
    previous_threshold: u64,
    stream: Arc<CudaStream>,
    watchdog: Arc<Watchdog>,
}

impl MemoryPool {
    /// Whether `gpu`'s device has stream-ordered memory pools
    /// (`CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED`).
    pub fn supported(gpu: &Gpu) -> Result<bool> {
        let supported = gpu
            .context()
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)
            .during("cuDeviceGetAttribute")?;
        Ok(supported != 0)
    }

    /// The default pool of `gpu`'s device, keeping up to `release_threshold`
    /// bytes (`u64::MAX`: everything) between synchronizations. An error
    /// where the device has no memory pools ([`MemoryPool::supported`]).
    pub fn default_for(gpu: &Gpu, release_threshold: u64) -> Result<Self> {
        if !Self::supported(gpu)? {
            return Err(Error::InvalidInput(format!(
                "{} has no stream-ordered memory pools (MEMORY_POOLS_SUPPORTED = 0)",
                gpu.info().name
            )));
        }
        let ctx = gpu.context();
        ctx.bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: the device handle comes from the live context.
        let pool =
            unsafe { result::device::get_default_mem_pool(ctx.cu_device()) }.during("cuDeviceGetDefaultMemPool")?;
        let attribute = sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
        let mut previous_threshold = 0u64;
        // SAFETY: the pool is the device's default (it lives as long as the context); the release threshold
        // attribute is a cuuint64_t.
        unsafe { result::mem_pool::get_attribute(pool, attribute, (&raw mut previous_threshold).cast::<c_void>()) }
            .during("cuMemPoolGetAttribute")?;
        let mut threshold = release_threshold;
        // SAFETY: as above.
        unsafe { result::mem_pool::set_attribute(pool, attribute, (&raw mut threshold).cast::<c_void>()) }
            .during("cuMemPoolSetAttribute")?;
        Ok(Self {
            pool,
            previous_threshold,
            stream: gpu.stream().clone(),
            watchdog: gpu.watchdog().clone(),
        })
    }

    /// `bytes` (at least 4, a multiple of 4) from the pool, ordered on the
    /// suite's stream (`cuMemAllocAsync`); usable by work on that stream, and
    /// freed on it (`cuMemFreeAsync`) when dropped.
    pub fn allocate(&self, bytes: usize) -> Result<PooledAllocation<'_>> {
        check_size(bytes)?;
        // SAFETY: the stream is live (held by self); the memory is only used on this stream
        // (round_trip_last_word) and freed on it once, on drop.
        let ptr = unsafe { result::malloc_async(self.stream.cu_stream(), bytes) }.during("cuMemAllocAsync")?;
        Ok(PooledAllocation { ptr, bytes, pool: self })
    }

    /// Bytes the pool holds from the device now (`CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT`).
    pub fn reserved_bytes(&self) -> Result<u64> {
        let mut bytes = 0u64;
        // SAFETY: a live pool; the attribute is a cuuint64_t.
        unsafe {
            result::mem_pool::get_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
                (&raw mut bytes).cast::<c_void>(),
            )
        }
        .during("cuMemPoolGetAttribute")?;
        Ok(bytes)
    }
}

impl Drop for MemoryPool {
    fn drop(&mut self) {
        // Every allocation borrowed self and is freed; wait for the frees, then hand the memory back.
        let _ = self
            .watchdog
            .wait_for_stream(&self.stream, "frees into the memory pool");
        let mut threshold = self.previous_threshold;
        // SAFETY: a live pool; the attribute is a cuuint64_t. Failures leave the pool as it was: nothing to undo.
        let _ = unsafe {
            result::mem_pool::set_attribute(
                self.pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                (&raw mut threshold).cast::<c_void>(),
            )
        };
        // SAFETY: as above; trimming only releases memory no allocation holds.
        let _ = unsafe { result::mem_pool::trim_to(self.pool, 0) };
    }
}

/// Bytes from a [`MemoryPool`], freed back to it in stream order on drop.
pub struct PooledAllocation<'pool> {
    ptr: sys::CUdeviceptr,
    bytes: usize,
    pool: &'pool MemoryPool,
}

impl PooledAllocation<'_> {
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Writes `value` into the allocation's last 32-bit word and reads it back,
    /// in order after the allocation on the suite's stream, waited for.
    pub fn round_trip_last_word(&self, value: u32) -> Result<u32> {
        round_trip_word(self.ptr, self.bytes, value, &self.pool.stream, &self.pool.watchdog)
    }
}

impl Drop for PooledAllocation<'_> {
    fn drop(&mut self) {
        // SAFETY: ptr came from cuMemAllocAsync on this stream and is freed once, in order after every use.
        let _ = unsafe { result::free_async(self.ptr, self.pool.stream.cu_stream()) };
    }
}
