//! `GpuFloat`: `f32`/`f64` math methods for `no_std` kernels (Rust-CUDA's
//! `cuda_std::GpuFloat`), computed by the device layer, never by libdevice.
//!
//! On the host, `x.sin()` and friends are `std`'s inherent methods (which
//! take precedence over a trait's); this trait's versions run on the GPU,
//! and on the host only when called through the trait (`GpuFloat::sin(x)`
//! or generic code). Bounds: `exp` is `ptx_device::exp`, CUDA's `expf`
//! algorithm around `ex2.approx` (2 ulp, as libdevice's `__nv_expf` that
//! Rust-CUDA calls); `sin` within 1.6 ulp of the exact result for every
//! finite `f32` (`ptx-device`'s exhaustive test), bit for bit alike on both
//! sides; `exp2` is `ex2.approx.f32`,
//! within 2 ulp (the bound CUDA documents for `exp2f`); `sqrt` and
//! `mul_add` are correctly rounded; the rounding functions are exact.
//!
//! A method that would need libdevice keeps its signature and is a
//! compile-time error that names it (see [`refusal::WithoutLibdevice`]).

use crate::refusal::{WithoutLibdevice, math, refused, sealed};

/// Math methods of `f32` and `f64` that work in `no_std` GPU code.
pub trait GpuFloat: Copy + PartialOrd + sealed::Sealed {
    /// The largest integer at most `self` (PTX `cvt.rmi`).
    fn floor(self) -> Self;
    /// The smallest integer at least `self` (`cvt.rpi`).
    fn ceil(self) -> Self;
    /// The nearest integer, halves away from zero (as `std`).
    fn round(self) -> Self;
    /// The integer part (`cvt.rzi`).
    fn trunc(self) -> Self;
    /// `self - self.trunc()`.
    fn fract(self) -> Self;
    /// The absolute value.
    fn abs(self) -> Self;
    /// 1 for positive values and +0, -1 for negative values and -0, NaN for NaN.
    fn signum(self) -> Self;
    /// `self`'s magnitude with `sign`'s sign.
    fn copysign(self, sign: Self) -> Self;
    /// `self · a + b` rounded once (`fma.rn`).
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// `self` to the integer power `n`, by repeated squaring (the algorithm
    /// of `std`'s `powi` on the host: compiler-rt's `__powisf2`), so the same
    /// roundings on both sides.
    fn powi(self, n: i32) -> Self;
    /// The correctly rounded square root (`sqrt.rn`).
    fn sqrt(self) -> Self;
    /// e^self (`f32`: `ptx_device::exp`, CUDA's `expf` algorithm, within 2 ulp).
    #[track_caller]
    fn exp(self) -> Self
    where
        Self: WithoutLibdevice<math::exp>,
    {
        unreachable!("refused at compile time")
    }
    /// 2^self (`f32`: `ex2.approx.f32`, within 2 ulp).
    #[track_caller]
    fn exp2(self) -> Self
    where
        Self: WithoutLibdevice<math::exp2>,
    {
        unreachable!("refused at compile time")
    }
    /// The sine (`f32`: `ptx_device::sin`, within 1.6 ulp for every finite input).
    #[track_caller]
    fn sin(self) -> Self
    where
        Self: WithoutLibdevice<math::sin>,
    {
        unreachable!("refused at compile time")
    }
    refused! {
        div_euclid(rhs: Self) -> Self;
        rem_euclid(rhs: Self) -> Self;
        powf(n: Self) -> Self;
        ln() -> Self;
        log(base: Self) -> Self;
        log2() -> Self;
        log10() -> Self;
        cbrt() -> Self;
        hypot(other: Self) -> Self;
        cos() -> Self;
        tan() -> Self;
        asin() -> Self;
        acos() -> Self;
        atan() -> Self;
        atan2(other: Self) -> Self;
        sin_cos() -> (Self, Self);
        exp_m1() -> Self;
        ln_1p() -> Self;
        sinh() -> Self;
        cosh() -> Self;
        tanh() -> Self;
        asinh() -> Self;
        acosh() -> Self;
        atanh() -> Self;
    }
}

macro_rules! exact_methods {
    ($float:ident, $fma:path, $sqrt:path) => {
        #[inline(always)]
        fn floor(self) -> $float {
            core::$float::math::floor(self)
        }
        #[inline(always)]
        fn ceil(self) -> $float {
            core::$float::math::ceil(self)
        }
        #[inline(always)]
        fn round(self) -> $float {
            core::$float::math::round(self)
        }
        #[inline(always)]
        fn trunc(self) -> $float {
            core::$float::math::trunc(self)
        }
        #[inline(always)]
        fn fract(self) -> $float {
            self - core::$float::math::trunc(self)
        }
        #[inline(always)]
        fn abs(self) -> $float {
            $float::abs(self)
        }
        #[inline(always)]
        fn signum(self) -> $float {
            $float::signum(self)
        }
        #[inline(always)]
        fn copysign(self, sign: $float) -> $float {
            $float::copysign(self, sign)
        }
        #[inline(always)]
        fn mul_add(self, a: $float, b: $float) -> $float {
            $fma(self, a, b)
        }
        #[inline(always)]
        fn powi(self, n: i32) -> $float {
            let (mut base, mut exponent, mut result) = (self, n, 1.0);
            loop {
                if exponent & 1 != 0 {
                    result *= base;
                }
                exponent /= 2;
                if exponent == 0 {
                    break;
                }
                base *= base;
            }
            if n < 0 { 1.0 / result } else { result }
        }
        #[inline(always)]
        fn sqrt(self) -> $float {
            $sqrt(self)
        }
    };
}

impl GpuFloat for f32 {
    exact_methods!(f32, ptx_device::fma, ptx_device::sqrt);

    #[inline(always)]
    fn exp(self) -> f32 {
        ptx_device::exp(self)
    }

    #[inline(always)]
    fn exp2(self) -> f32 {
        ptx_device::ex2_approx(self)
    }

    #[inline(always)]
    fn sin(self) -> f32 {
        ptx_device::sin(self)
    }
}

impl GpuFloat for f64 {
    exact_methods!(f64, ptx_device::fma_f64, core::f64::math::sqrt);
}
