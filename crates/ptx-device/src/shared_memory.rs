//! Dynamic shared memory (`extern __shared__ T s[];` in CUDA C).

use core::marker::PhantomData;

/// A pointer to the block's dynamic shared memory, viewed as an array of `T`.
///
/// Its size is the `sharedMemBytes` of the launch. On the GPU the accessors
/// are plain `ld.shared`/`st.shared`; the emulator checks each index against
/// that size.
#[derive(Clone, Copy)]
pub struct SharedPtr<T> {
    ptr: *mut T,
    _elem: PhantomData<T>,
}

/// The block's dynamic shared memory as an array of `T`.
///
/// Every call returns the same base address: carve several arrays out of it
/// with [`SharedPtr::offset_elems`].
///
/// PTX: the address of the module's `.extern .shared .align N .b8 name[]`
/// array (N = `T`'s alignment), whose size the launch's `sharedMemBytes` sets.
/// Safe: only the accessors touch the memory.
#[inline(always)]
pub fn dynamic_shared_memory<T: Copy>() -> SharedPtr<T> {
    #[cfg(target_arch = "nvptx64")]
    let ptr = core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>();
    #[cfg(not(target_arch = "nvptx64"))]
    let ptr = crate::emulator::thread_context::shared_base::<T>();
    SharedPtr {
        ptr,
        _elem: PhantomData,
    }
}

impl<T: Copy> SharedPtr<T> {
    /// Reads element `index` (one `ld.shared` of `T`'s width).
    ///
    /// # Safety
    /// `index` must lie inside the launch's dynamic shared memory; an element
    /// another thread of the block writes must be separated from this read by
    /// a [`sync_threads`](crate::sync_threads).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load(self, index: usize) -> T {
        #[cfg(target_arch = "nvptx64")]
        {
            // SAFETY: the caller guarantees `index` is inside shared memory.
            unsafe { self.ptr.add(index).read() }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::shared_load(self.ptr, index)
        }
    }

    /// Writes element `index` (one `st.shared` of `T`'s width).
    ///
    /// # Safety
    /// `index` must lie inside the launch's dynamic shared memory; as for
    /// [`load`](Self::load), accesses of one element by several threads need a
    /// barrier between them.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store(self, index: usize, value: T) {
        #[cfg(target_arch = "nvptx64")]
        {
            // SAFETY: the caller guarantees `index` is inside shared memory.
            unsafe { self.ptr.add(index).write(value) }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::shared_store(self.ptr, index, value)
        }
    }

    /// The array that starts `count` elements further on (a second tile, say):
    /// address arithmetic only, checked at the accesses.
    #[inline(always)]
    pub fn offset_elems(self, count: usize) -> Self {
        SharedPtr {
            ptr: self.ptr.wrapping_add(count),
            _elem: PhantomData,
        }
    }
}
