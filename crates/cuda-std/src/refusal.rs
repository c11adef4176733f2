//! How this crate refuses, at compile time, what it cannot offer.
//!
//! A refused function or method keeps its Rust-CUDA signature, with a
//! bound that nothing satisfies: calling it is a compile error whose message
//! (from these traits' `#[diagnostic::on_unimplemented]`) says why and what
//! to use instead. Nothing is implemented for these traits, on purpose.
//!
//! These do not compile (each also fails in a GPU build):
//!
//! ```compile_fail
//! // error: `f32` has no `cos` in ptx-cuda-std: Rust-CUDA takes it from libdevice, ...
//! let _ = cuda_std::GpuFloat::cos(1.0f32);
//! ```
//!
//! ```compile_fail
//! // error: `f64` has no `sin` in ptx-cuda-std ... (the device layer's sine is f32's)
//! let _ = cuda_std::GpuFloat::sin(1.0f64);
//! ```
//!
//! ```compile_fail
//! // error: the CPU emulator cannot know this (a host build)
//! let _ = cuda_std::mem::total_smem_size();
//! ```
//!
//! ```compile_fail
//! // error: a #[kernel] must be an `unsafe fn`: nothing on the GPU checks its indices, ...
//! #[cuda_std::kernel]
//! pub fn safe(out: *mut f32) {}
//! ```
//!
//! ```compile_fail
//! // error: a #[kernel] cannot take `&mut [T]`: every thread of the launch gets a copy ...
//! #[cuda_std::kernel]
//! pub unsafe fn mutable(out: &mut [f32]) {}
//! ```
//!
//! ```compile_fail
//! // error: `String` cannot be a #[kernel] parameter: kernel parameters must be `Copy`
//! #[cuda_std::kernel]
//! pub unsafe fn owned(name: String) {}
//! ```
//!
//! ```compile_fail
//! // error: #[address_space(shared)]: rustc's nvptx target places every `static` in global memory, ...
//! #[cuda_std::address_space(shared)]
//! static mut TILE: [f32; 256] = [0.0; 256];
//! ```
//!
//! while the offered ones do:
//!
//! ```
//! use cuda_std::GpuFloat;
//! assert_eq!(GpuFloat::sin(0.5f32), ptx_device::sin(0.5));
//! assert_eq!(GpuFloat::floor(-0.5f64), -1.0);
//! ```

/// Refuses, for the type `Self`, the math function `Function` (one of the
/// [`math`] markers) that Rust-CUDA takes from libdevice (`__nv_cosf`,
/// `__nv_pow`, ...). Implemented only for what the device layer computes
/// itself (`f32`'s `exp`, `exp2` and `sin`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `{Function}` in ptx-cuda-std: Rust-CUDA takes it from libdevice, which rustc's nvptx target does not link",
    label = "needs libdevice",
    note = "offered without libdevice: floor, ceil, round, trunc, fract, abs, signum, copysign, mul_add, powi, sqrt (f32 and \
            f64), exp, exp2 and sin (f32: ptx-device's exp and sine, ex2.approx), FloatExt::saturate",
    note = "ptx_device has fast approximations (cos_approx, sin_approx, lg2_approx, ex2_approx, rsqrt_approx) with \
            documented errors; float `%` is inexact on this target (a - trunc(a/b)*b), hence no div_euclid/rem_euclid"
)]
pub trait WithoutLibdevice<Function> {}

impl WithoutLibdevice<math::exp> for f32 {}
impl WithoutLibdevice<math::exp2> for f32 {}
impl WithoutLibdevice<math::sin> for f32 {}

/// One marker per math function, named after it, for [`WithoutLibdevice`]'s messages.
#[allow(non_camel_case_types)]
pub mod math {
    macro_rules! markers {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("The `", stringify!($name), "` function, in refusal messages.")]
            pub struct $name;
        )*};
    }
    markers!(
        div_euclid,
        rem_euclid,
        powf,
        exp,
        exp2,
        ln,
        log,
        log2,
        log10,
        cbrt,
        hypot,
        sin,
        cos,
        tan,
        asin,
        acos,
        atan,
        atan2,
        sin_cos,
        exp_m1,
        ln_1p,
        sinh,
        cosh,
        tanh,
        asinh,
        acosh,
        atanh,
        cospi,
        error_function,
        complementary_error_function,
        inv_complementary_error_function,
        scaled_complementary_error_function,
        frexp,
        unbiased_exp,
        j0,
        j1,
        jn,
        ldexp,
        log_gamma,
        log1p,
        norm_cdf,
        inv_norm_cdf,
        rcbrt,
        scale_by_n,
        sincospi,
        sinpi,
        gamma,
        y0,
        y1,
        yn,
    );
}

/// Refuses heap types and `format!` on the GPU.
#[diagnostic::on_unimplemented(
    message = "no heap on the GPU here: the PTX build links `core` only, not `alloc`",
    label = "Vec, Box, String, Rc and format! need `alloc`",
    note = "use fixed-size arrays, slices passed to the kernel, `shared_array!` or dynamic shared memory"
)]
pub trait NeedsHeap {
    /// Never defined: naming it is the error.
    type Unavailable;
}

/// Refuses what the emulator cannot know about a kernel's real GPU build.
#[diagnostic::on_unimplemented(
    message = "the CPU emulator cannot know this: it depends on how ptxas laid out the kernel",
    label = "GPU only",
    note = "total_smem_size counts the static shared memory ptxas allocated; in the emulator use dynamic_smem_size"
)]
pub trait KnownOnlyToTheGpu {}

/// The type the host-side refusals bound (see [`KnownOnlyToTheGpu`]).
pub struct Emulated;

/// Seals the float traits ([`GpuFloat`](crate::GpuFloat), [`FloatExt`](crate::FloatExt)): only `f32` and
/// `f64` implement them.
pub(crate) mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Trait methods refused at compile time because they need libdevice: each
/// keeps its signature and is bound by [`WithoutLibdevice`] on its
/// [`math`] marker, which nothing implements.
macro_rules! refused {
    ($($name:ident ( $($argument:ident : $ty:ty),* ) -> $output:ty;)*) => {$(
        #[doc = concat!("Refused at compile time: `", stringify!($name), "` needs libdevice.")]
        #[allow(unused_variables)]
        #[track_caller]
        fn $name(self $(, $argument: $ty)*) -> $output
        where
            Self: $crate::refusal::WithoutLibdevice<$crate::refusal::math::$name>,
        {
            unreachable!("refused at compile time")
        }
    )*};
}
pub(crate) use refused;
