//! Pointers into global (device) memory, as kernel parameters.
//!
//! Both types are `#[repr(transparent)]` over a raw pointer, so in PTX they are
//! plain `.param .u64` arguments and the host passes a `CUdeviceptr`. On the
//! GPU `load`/`store` are single `ld.global`/`st.global` instructions with no
//! bounds check; in the emulator every access is checked against the buffers
//! registered for the launch and a stray one is reported as a fault.

use core::marker::PhantomData;

/// A read-only pointer to `T`s in global memory (`const T*` in CUDA C).
#[repr(transparent)]
pub struct GlobalPtr<T> {
    ptr: *const T,
    _elem: PhantomData<T>,
}

/// A read-write pointer to `T`s in global memory (`T*` in CUDA C).
#[repr(transparent)]
pub struct GlobalMutPtr<T> {
    ptr: *mut T,
    _elem: PhantomData<T>,
}

// Manual impls: derive would demand `T: Clone`, which a pointer does not need.
impl<T> Clone for GlobalPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GlobalPtr<T> {}
impl<T> Clone for GlobalMutPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GlobalMutPtr<T> {}

// SAFETY: these are device addresses handed to every thread of a launch, as in CUDA;
// races between threads are the kernel's responsibility, as on the GPU.
unsafe impl<T> Send for GlobalPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for GlobalPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Send for GlobalMutPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for GlobalMutPtr<T> {}

impl<T: Copy> GlobalPtr<T> {
    /// Wraps a raw address (a device pointer, or a host address registered with the emulator).
    ///
    /// No instruction. Safe: the address is only used by the `unsafe` accessors.
    pub const fn from_raw(ptr: *const T) -> Self {
        Self {
            ptr,
            _elem: PhantomData,
        }
    }

    /// The raw address (no instruction).
    pub const fn as_raw(self) -> *const T {
        self.ptr
    }

    /// The same address viewed as `U`s (e.g. `f32` → [`F32x4`](crate::F32x4)).
    /// Accesses through the result must respect `U`'s alignment (the
    /// emulator reports a misaligned one). No instruction.
    pub const fn cast<U: Copy>(self) -> GlobalPtr<U> {
        GlobalPtr::from_raw(self.ptr.cast())
    }

    /// Reads element `index` (`p[index]` in CUDA C).
    ///
    /// PTX: one `ld.global` of `T`'s width (`ld.global.f32`, `ld.global.v4.f32`
    /// for [`F32x4`](crate::F32x4), ...), with the address `mad.wide`'d from
    /// the index. LLVM infers the global state space from a kernel parameter;
    /// for a pointer loaded from memory see [`load_global`](GlobalPtr::load_global).
    ///
    /// # Safety
    /// `index` must lie inside the buffer this pointer points into, and the
    /// element must be aligned for `T`.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load(self, index: isize) -> T {
        #[cfg(target_arch = "nvptx64")]
        {
            // SAFETY: the caller guarantees `index` is inside the buffer.
            unsafe { self.ptr.offset(index).read() }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_load(self.ptr, index)
        }
    }
}

impl GlobalPtr<u32> {
    /// Reads element `index` through the read-only data cache
    /// (`ld.global.nc.u32`, CUDA C's `__ldg`): for data that no thread writes
    /// during the launch.
    ///
    /// # Safety
    /// `index` must lie inside the buffer, and nothing may write the buffer
    /// while the kernel runs (the non-coherent path would not see it).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load_read_only(self, index: isize) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            let value: u32;
            // SAFETY: the caller guarantees `index` is inside a buffer that stays unwritten during the launch.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .u64 %address; cvta.to.global.u64 %address, {pointer}; ld.global.nc.u32 {value}, [%address]; }}",
                    pointer = in(reg64) self.ptr.offset(index),
                    value = out(reg32) value,
                    options(pure, readonly, nostack),
                );
            }
            value
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_load(self.ptr, index)
        }
    }
}

impl GlobalPtr<u64> {
    /// Reads the `u64` this pointer points at with an explicit
    /// `ld.global.u64`. [`load`](Self::load) is one as well when the pointer
    /// comes from a kernel parameter (LLVM infers the state space), but a
    /// pointer read from memory, like a pointer chase's next link, would get a
    /// generic `ld` (SASS `LD`, which first resolves the state space) instead
    /// of `LDG`.
    ///
    /// # Safety
    /// The pointer must point at a readable, 8-byte-aligned `u64` in memory
    /// the GPU addresses as global (device memory, a peer's, mapped host memory).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load_global(self) -> u64 {
        #[cfg(target_arch = "nvptx64")]
        {
            let value: u64;
            // SAFETY: the caller guarantees a readable u64 in the global window.
            unsafe {
                core::arch::asm!(
                    "ld.global.u64 {value}, [{pointer}];",
                    pointer = in(reg64) self.ptr,
                    value = out(reg64) value,
                    options(readonly, nostack),
                );
            }
            value
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_load(self.ptr, 0)
        }
    }
}

impl<T: Copy> GlobalMutPtr<T> {
    /// Wraps a raw address (a device pointer, or a host address registered with the emulator).
    ///
    /// No instruction. Safe: the address is only used by the `unsafe` accessors.
    pub const fn from_raw(ptr: *mut T) -> Self {
        Self {
            ptr,
            _elem: PhantomData,
        }
    }

    /// The raw address (no instruction).
    pub const fn as_raw(self) -> *mut T {
        self.ptr
    }

    /// The same address viewed as `U`s; accesses must respect `U`'s alignment. No instruction.
    pub const fn cast<U: Copy>(self) -> GlobalMutPtr<U> {
        GlobalMutPtr::from_raw(self.ptr.cast())
    }

    /// The same buffer, read-only (no instruction).
    pub const fn as_const(self) -> GlobalPtr<T> {
        GlobalPtr::from_raw(self.ptr)
    }

    /// Reads element `index`: as [`GlobalPtr::load`] (one `ld.global`).
    ///
    /// # Safety
    /// `index` must lie inside the buffer this pointer points into, and the
    /// element must be aligned for `T`.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load(self, index: isize) -> T {
        // SAFETY: forwarded contract.
        unsafe { self.as_const().load(index) }
    }

    /// Writes element `index` (`p[index] = value` in CUDA C).
    ///
    /// PTX: one `st.global` of `T`'s width (`st.global.v4.f32` for
    /// [`F32x4`](crate::F32x4)).
    ///
    /// # Safety
    /// `index` must lie inside the buffer this pointer points into, and the
    /// element must be aligned for `T`. Other threads writing or reading the
    /// same element in the same launch race, as in CUDA C.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store(self, index: isize, value: T) {
        #[cfg(target_arch = "nvptx64")]
        {
            // SAFETY: the caller guarantees `index` is inside the buffer.
            unsafe { self.ptr.offset(index).write(value) }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_store(self.ptr, index, value)
        }
    }
}
