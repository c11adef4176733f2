/// Defines a kernel once for both targets.
///
/// ```
/// use ptx_device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, kernel, thread_idx_x};
///
/// kernel! {
///     /// Copies one element per thread.
///     ///
///     /// # Safety
///     /// Grid × block must not exceed either buffer's length.
///     pub unsafe fn copy(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>) {
///         let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as isize;
///         // SAFETY: i < grid × block, inside both buffers (the launch's contract).
///         unsafe { out.store(i, inp.load(i)) };
///     }
/// }
/// ```
///
/// * On `nvptx64` it expands to `#[unsafe(no_mangle)] pub unsafe extern
///   "ptx-kernel" fn`: a PTX `.visible .entry` named like the function, whose
///   parameters are `.param`s (a [`GlobalPtr`](crate::GlobalPtr) is a
///   `.param .u64`). The host finds it by that name (`cuModuleGetFunction`).
/// * On the host it expands to a plain `pub unsafe fn` with the same body,
///   which the [`emulator`](crate::emulator) calls once per emulated thread.
/// * On both it defines `name_params` (here `copy_params`), a zero-sized
///   marker implementing [`KernelSignature`](crate::KernelSignature): the
///   entry's name, the tuple of parameter types a launch passes, and each
///   parameter's name and PTX kind. Host launchers take the tuple, so the
///   compiler checks a launch's argument types and order; the marker emits no
///   PTX. Re-export it beside the kernel (`pub use copy::{copy, copy_params}`).
///
/// The kernel crate needs no feature gate of its own for this: the macro may
/// use the unstable `"ptx-kernel"` ABI on its behalf.
///
/// # Safety
///
/// Kernels are `unsafe` because the device side does not check bounds: the
/// host proves, before every launch, that each index stays inside the buffers
/// it was given (the emulator checks each access instead). Each kernel's
/// `# Safety` section states that contract. Parameters must be `Copy` types
/// the driver can pass by value (pointers, integers, floats, `#[repr(C)]`
/// structs of them), given in the order and sizes of the PTX `.param` list.
#[macro_export]
#[allow_internal_unstable(abi_ptx)]
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

        $crate::__pastey::paste! {
            #[doc = concat!("The parameter list of [`", stringify!($name), "`], for typed launches.")]
            #[allow(non_camel_case_types)]
            pub enum [<$name _params>] {}

            impl $crate::KernelSignature for [<$name _params>] {
                const NAME: &'static str = stringify!($name);
                type Args = ( $( $ty, )* );
                const PARAMS: &'static [$crate::Param] = &[
                    $( $crate::Param { name: stringify!($arg), kind: <$ty as $crate::KernelParam>::KIND } ),*
                ];
            }
        }
    };
}
