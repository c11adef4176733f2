//! `FloatExt`: Rust-CUDA's extra float functions, all libdevice's but one.

use crate::refusal::{refused, sealed};

/// Rust-CUDA's `FloatExt`: `saturate` is offered; every other method maps
/// to a libdevice function there and is a compile-time error here.
pub trait FloatExt: Sized + Copy + PartialOrd + sealed::Sealed {
    /// `self` clamped to [0, 1] (NaN becomes 0, as CUDA's `__saturatef`).
    fn saturate(self) -> Self;
    refused! {
        cospi() -> Self;
        error_function() -> Self;
        complementary_error_function() -> Self;
        inv_complementary_error_function() -> Self;
        scaled_complementary_error_function() -> Self;
        frexp() -> (Self, i32);
        unbiased_exp() -> i32;
        j0() -> Self;
        j1() -> Self;
        jn(order: i32) -> Self;
        ldexp(exp: i32) -> Self;
        log_gamma() -> Self;
        log1p() -> Self;
        norm_cdf() -> Self;
        inv_norm_cdf() -> Self;
        rcbrt() -> Self;
        scale_by_n(exp: i32) -> Self;
        sincospi() -> (Self, Self);
        sinpi() -> Self;
        gamma() -> Self;
        y0() -> Self;
        y1() -> Self;
        yn(order: i32) -> Self;
    }
}

macro_rules! saturate {
    ($($float:ty),*) => {$(
        impl FloatExt for $float {
            #[inline(always)]
            fn saturate(self) -> $float {
                if self > 0.0 { if self < 1.0 { self } else { 1.0 } } else { 0.0 }
            }
        }
    )*};
}
saturate!(f32, f64);
