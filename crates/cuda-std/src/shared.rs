//! Shared memory: arrays declared in the kernel (`shared_array!`) and the
//! launch's dynamic shared memory (Rust-CUDA's `cuda_std::shared`).
//!
//! Both are real `.shared` memory: one instance per block, on chip. A
//! `shared_array!` is a module-scope PTX declaration
//! (`.shared .align A .b8 name[bytes];`, written by `global_asm!`, as
//! `ptx-device` writes its `.const` array), whose address the kernel takes
//! with one `mov`; the pointer is then re-based on the dynamic shared
//! memory's symbol so that LLVM knows it points into shared memory and
//! emits `ld.shared`/`st.shared`, not generic loads.

/// A `*mut T` to `len` elements of `T` in shared memory, one array per block,
/// uninitialised (Rust-CUDA's `shared_array![T; len]`).
///
/// Each `shared_array!` in the source is one array: calling it again (in a
/// loop, or from a function called twice) yields the same array; two
/// invocations are two arrays. `len` is a constant expression, and it and
/// `T` must be nameable at module level (literals, constants and types
/// declared outside functions), because the declaration is module-scope
/// PTX; a constant declared inside the kernel is not found.
///
/// ```
/// use cuda_std::prelude::*;
/// use cuda_std::shared_array;
///
/// const BLOCK: usize = 64;
///
/// /// Reverses each block's 64 elements of `d` through shared memory.
/// #[kernel]
/// pub unsafe fn reverse_blocks(d: *mut i32) {
///     let s = shared_array![i32; BLOCK];
///     let t = thread::thread_idx_x() as usize;
///     let base = thread::block_idx_x() as usize * BLOCK;
///     unsafe { *s.add(t) = *d.add(base + t) };
///     thread::sync_threads();
///     unsafe { *d.add(base + t) = *s.add(BLOCK - 1 - t) };
/// }
///
/// fn main() {
///     use cuda_std::emulator::{Dim3, HostPointer, LaunchConfig, launch};
///     let mut data: Vec<i32> = (0..256).collect();
///     let d = HostPointer::new(data.as_mut_ptr());
///     // SAFETY: 4 blocks of 64 threads over 256 elements.
///     launch(LaunchConfig::new(Dim3::x(4), Dim3::x(64), 0), || unsafe { reverse_blocks(d.get()) }).unwrap();
///     assert_eq!((data[0], data[63], data[64], data[255]), (63, 0, 127, 192));
/// }
/// ```
///
/// # Safety
///
/// Using the pointer is `unsafe`, as in Rust-CUDA: stay inside `len`
/// elements, write before reading (the contents are undefined at the start
/// of each block; the emulator fills them with `0xFF` bytes), and separate
/// one thread's write from another's read with
/// [`sync_threads`](crate::thread::sync_threads).
#[macro_export]
macro_rules! shared_array {
    ($array_type:ty; $len:expr) => {
        $crate::__private::unique_shared_symbol!($crate::__shared_array_at { $array_type; $len })
    };
}

/// The body of [`shared_array!`], given its unique PTX name and module name.
#[doc(hidden)]
#[macro_export]
#[allow_internal_unstable(asm_experimental_arch)]
macro_rules! __shared_array_at {
    ($symbol:literal, $module:ident, $array_type:ty; $len:expr) => {{
        #[allow(non_snake_case)]
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            #[cfg(target_arch = "nvptx64")]
            ::core::arch::global_asm!(
                ::core::concat!(".shared .align {align} .b8 ", $symbol, "[{bytes}];"),
                align = const $crate::__private::shared_align::<$array_type>(),
                bytes = const $crate::__private::shared_bytes::<$array_type>($len),
            );
            #[cfg(not(target_arch = "nvptx64"))]
            pub(super) const BYTES: usize = $crate::__private::shared_bytes::<$array_type>($len);
        }
        #[cfg(target_arch = "nvptx64")]
        let pointer: *mut $array_type = {
            let generic: usize;
            // SAFETY: takes the address of the array declared above; touches no memory.
            unsafe {
                ::core::arch::asm!(
                    ::core::concat!("mov.u64 {address}, ", $symbol, "; cvta.shared.u64 {address}, {address};"),
                    address = out(reg64) generic,
                    options(pure, nomem, nostack),
                )
            };
            $crate::__private::shared_window(generic).cast::<$array_type>()
        };
        #[cfg(not(target_arch = "nvptx64"))]
        let pointer: *mut $array_type = {
            static SITE: u8 = 0;
            $crate::__private::host_shared_array(&SITE, $module::BYTES, ::core::mem::align_of::<$array_type>())
                .cast::<$array_type>()
        };
        pointer
    }};
}

/// Bytes of a `shared_array![T; len]`; a compile-time error for zero bytes.
#[doc(hidden)]
pub const fn shared_bytes<T>(len: usize) -> usize {
    let bytes = core::mem::size_of::<T>().checked_mul(len);
    match bytes {
        Some(0) => panic!("shared_array! of zero bytes: PTX has no empty .shared arrays"),
        Some(bytes) => bytes,
        None => panic!("shared_array! larger than the address space"),
    }
}

/// Alignment of a `shared_array![T; len]`.
#[doc(hidden)]
pub const fn shared_align<T>() -> usize {
    core::mem::align_of::<T>()
}

/// The generic address of a `.shared` variable, re-based on the dynamic
/// shared memory's symbol: the same address, which LLVM now knows lies in
/// shared memory (three integer instructions, hoisted out of loops).
#[cfg(target_arch = "nvptx64")]
#[doc(hidden)]
#[inline(always)]
pub fn shared_window(generic_address: usize) -> *mut u8 {
    let base = core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<u8>();
    base.wrapping_add(generic_address.wrapping_sub(base as usize))
}

/// The emulated block's array for the `shared_array!` at `site`.
#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
#[track_caller]
pub fn host_shared_array(site: &'static u8, bytes: usize, align: usize) -> *mut u8 {
    crate::emulator::block_memory::static_array(site as *const u8 as usize, bytes, align)
}

/// The launch's dynamic shared memory (its size is the launch's
/// `sharedMemBytes`), as `*mut T`, 16-byte aligned, uninitialised; every call
/// returns the same address (PTX: the module's `.extern .shared` array).
#[inline(always)]
pub fn dynamic_shared_mem<T>() -> *mut T {
    #[cfg(target_arch = "nvptx64")]
    {
        core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<u128>().cast()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::block_memory::dynamic().cast()
    }
}
