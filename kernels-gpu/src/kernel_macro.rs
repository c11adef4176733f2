/// Defines a kernel once for both targets.
///
/// ```ignore
/// kernel! {
///     /// What the kernel demonstrates.
///     pub unsafe fn my_copy(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>) { ... }
/// }
/// ```
///
/// * On `nvptx64` it expands to `#[no_mangle] pub unsafe extern "ptx-kernel" fn`,
///   a PTX `.entry` named like the function.
/// * On the host it expands to a plain `pub unsafe fn` with the same body,
///   which the [`crate::emulator`] calls once per emulated thread.
///
/// Kernels are `unsafe` because the device side does not check bounds: the
/// host launcher proves, before every launch, that each index stays inside
/// the buffers it was given (the emulator checks each access instead).
macro_rules! kernel {
    (
        $(#[$attr:meta])*
        pub unsafe fn $name:ident ( $( $arg:ident : $ty:ty ),* $(,)? ) $body:block
    ) => {
        $(#[$attr])*
        #[cfg(target_arch = "nvptx64")]
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name( $( $arg : $ty ),* ) $body

        $(#[$attr])*
        #[cfg(not(target_arch = "nvptx64"))]
        pub unsafe fn $name( $( $arg : $ty ),* ) $body
    };
}
