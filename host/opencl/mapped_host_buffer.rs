//! Pinned host memory, the OpenCL way: a buffer allocated with
//! `CL_MEM_ALLOC_HOST_PTR` and mapped with `clEnqueueMapBuffer`. The OpenCL
//! Programming Guide (§3.1.1) and the whitepaper recommend it: on NVIDIA the
//! driver backs such a buffer with page-locked memory, so transfers from the
//! mapped pointer run by DMA at full PCIe speed and may overlap kernels, where
//! ordinary (pageable) memory is staged through a driver buffer.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ops::Range;
use std::ptr;

use cl3::command_queue::{
    enqueue_map_buffer, enqueue_unmap_mem_object, finish, release_command_queue, retain_command_queue,
};
use cl3::memory::{
    CL_MAP_READ, CL_MAP_WRITE, CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_WRITE, create_buffer, release_mem_object,
};
use cl3::types::{CL_BLOCKING, cl_command_queue, cl_mem};

use super::buffer::byte_size;
use super::error::{ClResult, ClStatusExt};
use super::{ClBuffer, ClContext, ClEvent, ClQueue, OpenClError};
use crate::gpu::DeviceCopy;

/// `len` elements of host memory the driver allocated for transfers
/// (`CL_MEM_ALLOC_HOST_PTR`), mapped for the host for the buffer's whole
/// life, zero-filled; unmapped and released on drop.
pub struct MappedHostBuffer<T: DeviceCopy> {
    mem: cl_mem,
    ptr: *mut T,
    len: usize,
    /// The queue that mapped it, retained for the unmap.
    queue: cl_command_queue,
    _elem: PhantomData<T>,
}

// SAFETY: the buffer owns its mapping; host access goes through &/&mut like a Vec,
// and OpenCL handles may be used from any thread.
unsafe impl<T: DeviceCopy> Send for MappedHostBuffer<T> {}
// SAFETY: as above.
unsafe impl<T: DeviceCopy> Sync for MappedHostBuffer<T> {}

impl<T: DeviceCopy> MappedHostBuffer<T> {
    /// Allocates and maps `len` elements (read and write), through `queue`.
    pub fn new(context: &ClContext, queue: &ClQueue, len: usize) -> ClResult<Self> {
        let bytes = byte_size::<T>(len, "mapped host memory")?;
        // SAFETY: no host pointer is passed, as CL_MEM_ALLOC_HOST_PTR requires.
        let mem = unsafe {
            create_buffer(
                context.raw(),
                CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                bytes,
                ptr::null_mut(),
            )
        }
        .during("clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)")?;
        let mut mapped: cl_mem = ptr::null_mut();
        // SAFETY: a blocking map of the whole, live buffer; `mapped` receives the host pointer.
        let map = unsafe {
            enqueue_map_buffer(
                queue.raw(),
                mem,
                CL_BLOCKING,
                CL_MAP_READ | CL_MAP_WRITE,
                0,
                bytes,
                &mut mapped,
                0,
                ptr::null(),
            )
        };
        let event = match map {
            Ok(event) => event,
            Err(code) => {
                // SAFETY: the buffer was created above and is not used again.
                let _ = unsafe { release_mem_object(mem) };
                return Err(OpenClError::Call {
                    call: "clEnqueueMapBuffer",
                    code,
                });
            }
        };
        drop(ClEvent::from_raw(event));
        // SAFETY: the queue is live; retained so the unmap in drop can use it.
        unsafe { retain_command_queue(queue.raw()) }.during("clRetainCommandQueue")?;
        let buffer = Self {
            mem,
            ptr: mapped.cast(),
            len,
            queue: queue.raw(),
            _elem: PhantomData,
        };
        if buffer.ptr.is_null() || !(buffer.ptr as usize).is_multiple_of(align_of::<T>()) {
            return Err(OpenClError::Invalid(format!(
                "clEnqueueMapBuffer returned a pointer ({:p}) not aligned for the element type",
                buffer.ptr
            )));
        }
        // SAFETY: the mapping holds `bytes` writable bytes; zero is a valid T (DeviceCopy).
        unsafe { ptr::write_bytes(buffer.ptr.cast::<u8>(), 0, bytes) };
        Ok(buffer)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[T] {
        // SAFETY: ptr maps len initialized elements for the life of self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as above, with exclusive access through &mut self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    fn check_range(&self, range: &Range<usize>, device_len: usize) -> ClResult<()> {
        if range.start > range.end || range.end > self.len || range.end > device_len {
            return Err(OpenClError::Invalid(format!(
                "transfer of elements {range:?} exceeds a buffer ({} host, {device_len} device)",
                self.len
            )));
        }
        Ok(())
    }

    /// `device[range] ← self[range]` (`clEnqueueWriteBuffer` from the mapped pointer), waiting for it.
    pub fn upload(&self, queue: &ClQueue, range: Range<usize>, device: &mut ClBuffer<T>) -> ClResult<()> {
        self.check_range(&range, device.len())?;
        device.write(queue, range.start, &self.as_slice()[range])
    }

    /// `self[range] ← device[range]` (`clEnqueueReadBuffer` into the mapped pointer), waiting for it.
    pub fn download(&mut self, queue: &ClQueue, range: Range<usize>, device: &ClBuffer<T>) -> ClResult<()> {
        self.check_range(&range, device.len())?;
        device.read(queue, range.start, &mut self.as_mut_slice()[range])
    }

    /// Enqueues `device[range] ← self[range]` and returns at once (DMA from pinned memory).
    ///
    /// # Safety
    /// Neither buffer may be written, nor `self` dropped, until `queue` has finished.
    pub unsafe fn upload_async(&self, queue: &ClQueue, range: Range<usize>, device: &mut ClBuffer<T>) -> ClResult<()> {
        self.check_range(&range, device.len())?;
        // SAFETY: forwarded contract; the slice lies inside the mapping.
        unsafe { device.write_async(queue, range.start, &self.as_slice()[range]) }
    }

    /// Enqueues `self[range] ← device[range]` and returns at once.
    ///
    /// # Safety
    /// No access to either buffer until `queue` has finished.
    pub unsafe fn download_async(
        &mut self,
        queue: &ClQueue,
        range: Range<usize>,
        device: &ClBuffer<T>,
    ) -> ClResult<()> {
        self.check_range(&range, device.len())?;
        // SAFETY: forwarded contract; the slice lies inside the mapping.
        unsafe { device.read_async(queue, range.start, &mut self.as_mut_slice()[range]) }
    }
}

impl<T: DeviceCopy> Drop for MappedHostBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: the pointer is this buffer's mapping, unmapped once; the finish waits for the unmap
        // (and for any transfer still reading the mapping) before the buffer and the queue are released.
        unsafe {
            if let Ok(event) = enqueue_unmap_mem_object(self.queue, self.mem, self.ptr.cast::<c_void>(), 0, ptr::null())
            {
                drop(ClEvent::from_raw(event));
            }
            let _ = finish(self.queue);
            let _ = release_mem_object(self.mem);
            let _ = release_command_queue(self.queue);
        }
    }
}
