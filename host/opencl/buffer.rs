//! Device memory: a typed OpenCL buffer that carries its length.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ops::Range;
use std::ptr;

use cl3::command_queue::{enqueue_fill_buffer, enqueue_read_buffer, enqueue_write_buffer};
use cl3::memory::{CL_MEM_READ_WRITE, create_buffer, release_mem_object};
use cl3::types::{CL_BLOCKING, CL_NON_BLOCKING, cl_mem};

use super::error::{ClResult, ClStatusExt};
use super::{ClContext, ClQueue, KernelArg, OpenClError};
use crate::gpu::DeviceCopy;

/// `len` elements of `T` in device memory (`clCreateBuffer`, read-write),
/// released on drop. The length travels with the handle so launchers can
/// check every index against it.
pub struct ClBuffer<T: DeviceCopy> {
    mem: cl_mem,
    len: usize,
    _elem: PhantomData<T>,
}

// SAFETY: memory objects may be used from any thread; access goes through &/&mut.
unsafe impl<T: DeviceCopy> Send for ClBuffer<T> {}
// SAFETY: as above.
unsafe impl<T: DeviceCopy> Sync for ClBuffer<T> {}

/// Bytes of `len` elements of `T`, refusing zero and overflow.
pub(crate) fn byte_size<T>(len: usize, what: &str) -> ClResult<usize> {
    len.checked_mul(size_of::<T>())
        .filter(|&bytes| bytes > 0)
        .ok_or_else(|| OpenClError::Invalid(format!("cannot allocate {len} elements of {what}")))
}

impl<T: DeviceCopy> ClBuffer<T> {
    /// `len` uninitialized elements.
    pub fn new(context: &ClContext, len: usize) -> ClResult<Self> {
        let bytes = byte_size::<T>(len, "device memory")?;
        let limit = context.device().info().max_allocation_bytes;
        if bytes as u64 > limit {
            return Err(OpenClError::Invalid(format!(
                "a buffer of {bytes} bytes exceeds the device's largest allocation ({limit} bytes)"
            )));
        }
        // SAFETY: no host pointer is passed, as CL_MEM_READ_WRITE alone requires.
        let mem = unsafe { create_buffer(context.raw(), CL_MEM_READ_WRITE, bytes, ptr::null_mut()) }
            .during("clCreateBuffer")?;
        Ok(Self {
            mem,
            len,
            _elem: PhantomData,
        })
    }

    /// A buffer holding a copy of `data` (written through `queue`, which it waits for).
    pub fn from_host(context: &ClContext, queue: &ClQueue, data: &[T]) -> ClResult<Self> {
        let mut buffer = Self::new(context, data.len())?;
        buffer.write(queue, 0, data)?;
        Ok(buffer)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn raw(&self) -> cl_mem {
        self.mem
    }

    fn check_range(&self, range: &Range<usize>) -> ClResult<()> {
        if range.start > range.end || range.end > self.len {
            return Err(OpenClError::Invalid(format!(
                "elements {range:?} are outside a buffer of {}",
                self.len
            )));
        }
        Ok(())
    }

    /// `self[offset..offset + data.len()] ← data` from any host memory (an
    /// ordinary `Vec` is pageable memory: the driver stages it), waiting for the copy.
    pub fn write(&mut self, queue: &ClQueue, offset: usize, data: &[T]) -> ClResult<()> {
        let range = offset..offset.saturating_add(data.len());
        self.check_range(&range)?;
        // SAFETY: the range is inside the buffer and `data` holds its length; the write is blocking,
        // so `data` is not read after the call returns.
        let event = unsafe {
            enqueue_write_buffer(
                queue.raw(),
                self.mem,
                CL_BLOCKING,
                offset * size_of::<T>(),
                size_of_val(data),
                data.as_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .during("clEnqueueWriteBuffer")?;
        queue.record(event);
        Ok(())
    }

    /// `out ← self[offset..offset + out.len()]`, waiting for the copy.
    pub fn read(&self, queue: &ClQueue, offset: usize, out: &mut [T]) -> ClResult<()> {
        let range = offset..offset.saturating_add(out.len());
        self.check_range(&range)?;
        // SAFETY: the range is inside the buffer and `out` holds its length; the read is blocking.
        let event = unsafe {
            enqueue_read_buffer(
                queue.raw(),
                self.mem,
                CL_BLOCKING,
                offset * size_of::<T>(),
                size_of_val(out),
                out.as_mut_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .during("clEnqueueReadBuffer")?;
        queue.record(event);
        Ok(())
    }

    /// Enqueues `self[offset..] ← data` and returns at once.
    ///
    /// # Safety
    /// `data` must stay alive and unwritten until `queue` has finished the copy
    /// (`queue.finish()`), as with CUDA's asynchronous copies from pinned memory.
    pub unsafe fn write_async(&mut self, queue: &ClQueue, offset: usize, data: &[T]) -> ClResult<()> {
        let range = offset..offset.saturating_add(data.len());
        self.check_range(&range)?;
        // SAFETY: the range is inside the buffer; the caller keeps `data` alive until the copy completes.
        let event = unsafe {
            enqueue_write_buffer(
                queue.raw(),
                self.mem,
                CL_NON_BLOCKING,
                offset * size_of::<T>(),
                size_of_val(data),
                data.as_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .during("clEnqueueWriteBuffer")?;
        queue.record(event);
        Ok(())
    }

    /// Enqueues `out ← self[offset..]` and returns at once.
    ///
    /// # Safety
    /// `out` must stay alive and untouched until `queue` has finished the copy.
    pub unsafe fn read_async(&self, queue: &ClQueue, offset: usize, out: &mut [T]) -> ClResult<()> {
        let range = offset..offset.saturating_add(out.len());
        self.check_range(&range)?;
        // SAFETY: the range is inside the buffer; the caller keeps `out` alive until the copy completes.
        let event = unsafe {
            enqueue_read_buffer(
                queue.raw(),
                self.mem,
                CL_NON_BLOCKING,
                offset * size_of::<T>(),
                size_of_val(out),
                out.as_mut_ptr().cast::<c_void>(),
                0,
                ptr::null(),
            )
        }
        .during("clEnqueueReadBuffer")?;
        queue.record(event);
        Ok(())
    }

    /// The whole buffer, copied to a `Vec`.
    pub fn to_host(&self, queue: &ClQueue) -> ClResult<Vec<T>> {
        let mut out = vec![T::default(); self.len];
        self.read(queue, 0, &mut out)?;
        Ok(out)
    }

    /// Sets every element to `value` (`clEnqueueFillBuffer`), waiting for it.
    pub fn fill(&mut self, queue: &ClQueue, value: T) -> ClResult<()> {
        let pattern_bytes = size_of::<T>();
        if !pattern_bytes.is_power_of_two() || pattern_bytes > 128 {
            return Err(OpenClError::Invalid(format!(
                "clEnqueueFillBuffer takes patterns of 1 to 128 bytes, a power of two; not {pattern_bytes}"
            )));
        }
        // SAFETY: the pattern is one T read during the call; the size covers the whole buffer.
        let event = unsafe {
            enqueue_fill_buffer(
                queue.raw(),
                self.mem,
                (&raw const value).cast::<c_void>(),
                pattern_bytes,
                0,
                self.len * pattern_bytes,
                0,
                ptr::null(),
            )
        }
        .during("clEnqueueFillBuffer")?;
        queue.record(event);
        queue.finish()
    }
}

impl<T: DeviceCopy> Drop for ClBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: the buffer is owned by this value and released once; OpenCL keeps
        // it alive until the commands already enqueued on it have completed.
        let _ = unsafe { release_mem_object(self.mem) };
    }
}

// SAFETY: a buffer argument is its cl_mem handle, passed by address.
unsafe impl<T: DeviceCopy> KernelArg for ClBuffer<T> {
    fn size_and_value(&self) -> (usize, *const c_void) {
        (size_of::<cl_mem>(), (&raw const self.mem).cast())
    }
}
