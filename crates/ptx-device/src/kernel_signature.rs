//! A kernel's parameter list as a type, for launches the compiler checks.
//!
//! [`kernel!`](crate::kernel!) gives every kernel `name` a marker type
//! `name_params` implementing [`KernelSignature`]: the PTX entry's name, the
//! tuple of its parameter types ([`KernelSignature::Args`]) and, for each
//! parameter, its name and PTX kind ([`KernelSignature::PARAMS`]). A host
//! launcher generic over the signature takes exactly that tuple, so a
//! reordered or mistyped argument is a compile error, and checks a PTX
//! module's `.param` list (a CUDA C or OpenCL C twin's) against `PARAMS`.
//!
//! ```
//! use ptx_device::{GlobalMutPtr, GlobalPtr, KernelArgs, KernelSignature, ParamKind, kernel};
//!
//! kernel! {
//!     /// Adds `a` to each of the first `n` elements.
//!     ///
//!     /// # Safety
//!     /// Both buffers hold `n` elements.
//!     pub unsafe fn add(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, a: f32, n: u32) {
//!         let _ = (out, inp, a, n);
//!     }
//! }
//!
//! assert_eq!(add_params::NAME, "add");
//! let kinds: Vec<ParamKind> = add_params::PARAMS.iter().map(|p| p.kind).collect();
//! assert_eq!(kinds, [ParamKind::Pointer, ParamKind::Pointer, ParamKind::F32, ParamKind::U32]);
//! // What a launch passes: a pointer to each argument, in the kernel's order.
//! let mut args: <add_params as KernelSignature>::Args =
//!     (GlobalMutPtr::from_raw(core::ptr::null_mut()), GlobalPtr::from_raw(core::ptr::null()), 2.0, 7);
//! args.with_param_pointers(|pointers| assert_eq!(pointers.len(), 4));
//! // The signature as a value, for a choice among kernels of one parameter list.
//! assert_eq!(add_params::SIGNATURE.name, "add");
//! ```

use core::ffi::c_void;
use core::fmt;
use core::marker::PhantomData;

use crate::{GlobalMutPtr, GlobalPtr, TextureObject};

/// The PTX type of one kernel parameter: what its `.param` declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `u32` (`unsigned int`): `.param .u32`.
    U32,
    /// `i32` (`int`): `.param .u32` or `.s32` (PTX parameters carry no sign).
    S32,
    /// `u64` or `usize` (`unsigned long long`, `size_t`): `.param .u64`.
    U64,
    /// `i64` (`long long`): `.param .u64` or `.s64`.
    S64,
    /// `f32` (`float`): `.param .f32`.
    F32,
    /// `f64` (`double`): `.param .f64`.
    F64,
    /// A [`GlobalPtr`] or [`GlobalMutPtr`] (`T*`): a 64-bit address, `.param .u64`.
    Pointer,
    /// A [`TextureObject`] (`cudaTextureObject_t`): a 64-bit handle, `.param .u64`.
    Texture,
}

impl ParamKind {
    /// Its size in bytes.
    pub const fn bytes(self) -> usize {
        match self {
            ParamKind::U32 | ParamKind::S32 | ParamKind::F32 => 4,
            _ => 8,
        }
    }

    /// Whether it is a floating-point value (`.f32`, `.f64`) rather than bits
    /// (an integer, an address or a handle).
    pub const fn is_float(self) -> bool {
        matches!(self, ParamKind::F32 | ParamKind::F64)
    }

    /// How the Rust kernel's PTX declares it, e.g. `".u32"`.
    pub const fn ptx_type(self) -> &'static str {
        match self {
            ParamKind::U32 | ParamKind::S32 => ".u32",
            ParamKind::F32 => ".f32",
            ParamKind::F64 => ".f64",
            _ => ".u64",
        }
    }
}

/// One parameter of a kernel: its name in the Rust source and its PTX kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The parameter's name in the kernel's signature.
    pub name: &'static str,
    /// Its PTX type.
    pub kind: ParamKind,
}

/// A type a kernel may take as a parameter: passed by value, as its PTX kind.
///
/// # Safety
/// The type's size and layout are those of [`KernelParam::KIND`]'s PTX type,
/// so the driver may copy it from a pointer to it.
pub unsafe trait KernelParam: Copy {
    /// Its PTX type.
    const KIND: ParamKind;
}

// SAFETY (all impls): each type is a plain value of KIND's size; the pointer
// and texture types are #[repr(transparent)] over a 64-bit pointer or handle.
unsafe impl KernelParam for u32 {
    const KIND: ParamKind = ParamKind::U32;
}
unsafe impl KernelParam for i32 {
    const KIND: ParamKind = ParamKind::S32;
}
unsafe impl KernelParam for u64 {
    const KIND: ParamKind = ParamKind::U64;
}
unsafe impl KernelParam for usize {
    const KIND: ParamKind = ParamKind::U64;
}
unsafe impl KernelParam for i64 {
    const KIND: ParamKind = ParamKind::S64;
}
unsafe impl KernelParam for f32 {
    const KIND: ParamKind = ParamKind::F32;
}
unsafe impl KernelParam for f64 {
    const KIND: ParamKind = ParamKind::F64;
}
unsafe impl<T> KernelParam for GlobalPtr<T> {
    const KIND: ParamKind = ParamKind::Pointer;
}
unsafe impl<T> KernelParam for GlobalMutPtr<T> {
    const KIND: ParamKind = ParamKind::Pointer;
}
unsafe impl KernelParam for TextureObject {
    const KIND: ParamKind = ParamKind::Texture;
}

/// A kernel's parameter list, implemented by the marker type `name_params`
/// that [`kernel!`](crate::kernel!) defines beside kernel `name`.
pub trait KernelSignature {
    /// The PTX entry point's name (the kernel function's name).
    const NAME: &'static str;
    /// The parameters' types, in order, as a tuple: what a launch passes.
    type Args: KernelArgs;
    /// Each parameter's name and PTX kind, in order.
    const PARAMS: &'static [Param];
    /// The same as a value, typed by the argument tuple alone.
    const SIGNATURE: Signature<Self::Args> = Signature {
        name: Self::NAME,
        params: Self::PARAMS,
        args: PhantomData,
    };
}

/// A kernel's name and parameters as a value typed by its argument tuple `A`
/// ([`KernelSignature::SIGNATURE`]): how a launcher picks one of several
/// kernels with the same parameter list at run time (a `match` over an enum
/// of versions) and still has its launch's arguments checked by the compiler.
pub struct Signature<A> {
    /// The PTX entry point's name.
    pub name: &'static str,
    /// Each parameter's name and PTX kind, in order.
    pub params: &'static [Param],
    args: PhantomData<fn(A)>,
}

impl<A> Clone for Signature<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for Signature<A> {}

impl<A> fmt::Debug for Signature<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signature")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish()
    }
}

/// A tuple of kernel arguments, handed to the driver as a pointer to each.
pub trait KernelArgs {
    /// Calls `launch` with a pointer to each argument, in order: the
    /// `kernelParams` array of `cuLaunchKernel`, valid during the call.
    fn with_param_pointers<R>(&mut self, launch: impl FnOnce(&mut [*mut c_void]) -> R) -> R;
}

macro_rules! tuple_args {
    ($($arg:ident),*) => {
        impl<$($arg: KernelParam),*> KernelArgs for ($($arg,)*) {
            #[allow(non_snake_case)]
            fn with_param_pointers<R>(&mut self, launch: impl FnOnce(&mut [*mut c_void]) -> R) -> R {
                let ($($arg,)*) = self;
                launch(&mut [$(core::ptr::from_mut($arg).cast::<c_void>()),*])
            }
        }
    };
}

tuple_args!();
tuple_args!(A);
tuple_args!(A, B);
tuple_args!(A, B, C);
tuple_args!(A, B, C, D);
tuple_args!(A, B, C, D, E);
tuple_args!(A, B, C, D, E, F);
tuple_args!(A, B, C, D, E, F, G);
tuple_args!(A, B, C, D, E, F, G, H);
tuple_args!(A, B, C, D, E, F, G, H, I);
tuple_args!(A, B, C, D, E, F, G, H, I, J);
tuple_args!(A, B, C, D, E, F, G, H, I, J, K);
tuple_args!(A, B, C, D, E, F, G, H, I, J, K, L);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_point_at_each_argument_in_order() {
        let mut args = (1u32, 2.5f32, 3u64, -4i32);
        let seen = args.with_param_pointers(|pointers| {
            // SAFETY: the pointers point at the tuple's fields, of these types, in this order.
            unsafe {
                (
                    *pointers[0].cast::<u32>(),
                    *pointers[1].cast::<f32>(),
                    *pointers[2].cast::<u64>(),
                    *pointers[3].cast::<i32>(),
                )
            }
        });
        assert_eq!(seen, (1, 2.5, 3, -4));
    }

    #[test]
    fn kinds_have_their_ptx_sizes() {
        assert_eq!(<GlobalPtr<u16> as KernelParam>::KIND.bytes(), 8);
        assert_eq!(<i32 as KernelParam>::KIND.bytes(), 4);
        assert_eq!(<f64 as KernelParam>::KIND.ptx_type(), ".f64");
        assert!(!<TextureObject as KernelParam>::KIND.is_float());
        assert_eq!(size_of::<GlobalMutPtr<f32>>(), ParamKind::Pointer.bytes());
    }
}
