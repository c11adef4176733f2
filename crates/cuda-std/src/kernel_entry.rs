//! What `#[kernel]`'s expansion stands on: the PTX entry, the parameter
//! check and the slice rebuilt from Rust-CUDA's (pointer, length) pair.

/// The `nvptx64` half of `#[kernel]`: a `.visible .entry` named like the
/// function. A macro of this crate so that the kernel crate needs no
/// `abi_ptx` feature gate of its own.
#[doc(hidden)]
#[macro_export]
#[allow_internal_unstable(abi_ptx)]
macro_rules! __kernel_entry {
    ([$($attr:tt)*] [$($vis:tt)*] $name:ident [$($parameter:tt)*] $body:block) => {
        $($attr)*
        #[unsafe(no_mangle)]
        $($vis)* unsafe extern "ptx-kernel" fn $name($($parameter)*) $body
    };
}

/// A type a kernel can take: the driver copies each parameter into every
/// thread, so it must be `Copy`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a #[kernel] parameter: kernel parameters must be `Copy`",
    label = "not `Copy`",
    note = "the driver copies every parameter into every thread of the launch; pass buffers as `&[T]` or `*mut T`, \
            values and `#[repr(C)]` structs of them by value (Rust-CUDA's rule as well)"
)]
pub trait KernelParameter {}

impl<T: Copy> KernelParameter for T {}

/// Compiles only for a [`KernelParameter`]; `#[kernel]` calls it for every parameter.
#[inline(always)]
pub const fn kernel_parameter<T: KernelParameter>() {}

/// The slice a `&[T]` kernel parameter arrived as: `length` elements at
/// `pointer` (an empty slice for length 0, whatever the pointer).
///
/// # Safety
/// For a non-zero `length`, `pointer` must point at `length` initialised,
/// aligned `T`s that nothing writes while the kernel runs.
#[inline(always)]
pub unsafe fn slice_parameter<'a, T>(pointer: *const T, length: usize) -> &'a [T] {
    if length == 0 {
        &[]
    } else {
        // SAFETY: the caller's contract (the launch passed one allocation's pointer and length).
        unsafe { core::slice::from_raw_parts(pointer, length) }
    }
}
