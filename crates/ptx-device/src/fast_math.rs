//! The GPU's fast approximations (the sine and cosine are in
//! [`fast_trig`](crate::fast_trig), with their measured error bounds): each function is one PTX `.approx`
//! instruction, which the special-function units (SFU, `MUFU` in SASS)
//! execute; CUDA C exposes them as `__sinf`, `__cosf`, `__log2f`, ... and
//! OpenCL as `native_sin`, `native_cos`, ... (Best Practices Guide §5.1.4,
//! OpenCL Programming Guide §3.1.1.1).
//!
//! The non-`.ftz` forms are used (subnormals are kept), as NVRTC compiles
//! `__sinf` without `-ftz`. The `MUFU` unit flushes subnormals, so ptxas
//! wraps it: for sm_90 (CUDA 13.5's ptxas) `sin`/`cos` become a multiply and
//! the `MUFU`; `ex2`, `lg2`, `rsqrt` a compare, one or two multiplies or adds
//! and the `MUFU`; `rcp` six instructions around it. Still one `MUFU` per
//! operation, and at 16 per clock per SM against 128 for the rest, the
//! `MUFU` sets the rate.
//!
//! In the emulator each function returns the exact value rounded once
//! (computed in `f64`, rounded to `f32`): a correctly rounded stand-in,
//! *not* a model of the hardware's error. Tests of emulated results must
//! therefore allow the documented error of each instruction, listed on each
//! function below (PTX ISA 9.1, "Floating Point Instructions").

/// One PTX instruction `op d, a;` on an `f32`, with the emulator's stand-in.
macro_rules! unary_approx {
    ($(#[$doc:meta])* $name:ident, $instruction:literal, |$x:ident| $emulated:expr) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name($x: f32) -> f32 {
            #[cfg(target_arch = "nvptx64")]
            {
                let out: f32;
                // SAFETY: a register-to-register arithmetic instruction; it touches no memory.
                unsafe {
                    core::arch::asm!(
                        concat!($instruction, " {out}, {x};"),
                        out = out(reg32) out,
                        x = in(reg32) $x,
                        options(pure, nomem, nostack),
                    );
                }
                out
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                $emulated
            }
        }
    };
}

unary_approx!(
    /// `ex2.approx.f32`: 2^x.
    ///
    /// Documented maximum error: 2 ulp over the full range.
    ex2_approx,
    "ex2.approx.f32",
    |x| (x as f64).exp2() as f32
);

unary_approx!(
    /// `ex2.approx.ftz.f32`: 2^x, with subnormal inputs and results flushed
    /// to zero. One `MUFU.EX2` in SASS: the non-`.ftz` form's wrapper for
    /// subnormal results ([`ex2_approx`]) is not there. CUDA's `expf` uses
    /// this form on a reduced argument, where no result is subnormal.
    ///
    /// Documented maximum error: 2 ulp over the full range (normal results).
    /// The emulator's stand-in rounds the exact value and then flushes a
    /// subnormal result to zero of the same sign.
    ex2_approx_ftz,
    "ex2.approx.ftz.f32",
    |x| {
        let y = (x as f64).exp2() as f32;
        if y.is_subnormal() { 0.0 } else { y }
    }
);

unary_approx!(
    /// `lg2.approx.f32` (CUDA C `__log2f`): log2(x).
    ///
    /// Documented maximum error: absolute 2^-22 for x in (0.5, 2), relative
    /// 2^-22 for other positive finite x.
    lg2_approx,
    "lg2.approx.f32",
    |x| (x as f64).log2() as f32
);

unary_approx!(
    /// `rcp.approx.f32`: 1/x.
    ///
    /// Documented maximum error: 1 ulp over the full range.
    rcp_approx,
    "rcp.approx.f32",
    |x| (1.0 / x as f64) as f32
);

unary_approx!(
    /// `rsqrt.approx.f32` (CUDA C `rsqrtf`'s instruction): 1/√x.
    ///
    /// Documented maximum relative error: 2^-22.9 over the positive finite range.
    rsqrt_approx,
    "rsqrt.approx.f32",
    |x| (1.0 / (x as f64).sqrt()) as f32
);

/// `div.approx.f32` (CUDA C `__fdividef`, OpenCL `native_divide`): a / b,
/// computed as a × rcp.approx(b).
///
/// Documented maximum error: 2 ulp for |b| in [2^-126, 2^126].
#[inline(always)]
pub fn div_approx(a: f32, b: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: f32;
        // SAFETY: a register-to-register arithmetic instruction; it touches no memory.
        unsafe {
            core::arch::asm!(
                "div.approx.f32 {out}, {a}, {b};",
                out = out(reg32) out,
                a = in(reg32) a,
                b = in(reg32) b,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        (a as f64 / b as f64) as f32
    }
}

/// e^x the way CUDA C's `__expf` computes it: `ex2.approx.f32(x · log2 e)`,
/// one multiply and one SFU instruction.
///
/// Error bound (derived here, not documented by NVIDIA): the product's
/// rounding and log2 e's rounding to `f32` each shift the exponent by at most
/// 2^-24 · |x · log2 e|, which changes e^x by at most |x| ulp each; with
/// `ex2.approx`'s 2 ulp, at most 2 + 2|x| ulp.
#[inline(always)]
pub fn exp_fast(x: f32) -> f32 {
    ex2_approx(x * core::f32::consts::LOG2_E)
}

/// x^y the way CUDA C's `__powf` computes it (and `powf` under
/// `-use_fast_math`): `ex2.approx(y · lg2.approx(x))`, two SFU instructions
/// and a multiply. For x > 0 only (a negative x gives NaN, zero −∞ · y).
///
/// Error (not documented by NVIDIA): `lg2.approx`'s absolute 2^-22 near
/// x = 1 and relative 2^-22 elsewhere, multiplied by |y|, shifts the exponent
/// by up to 2^-22 · |y · log2 x| (or 2^-22 · |y|), which is
/// 2^-22 · ln 2 · 2^24 ≈ 2.8 ulp of the result per unit of that size, on top
/// of `ex2.approx`'s 2 ulp: a few ulp for the small powers the suite takes.
#[inline(always)]
pub fn pow_fast(x: f32, y: f32) -> f32 {
    ex2_approx(y * lg2_approx(x))
}

/// log2 10 rounded to `f32`.
const LOG2_10: f32 = core::f32::consts::LOG2_10;

/// 10^x the way CUDA C's `__exp10f` computes it: `ex2.approx(x · log2 10)`,
/// a multiply and one SFU instruction.
///
/// Error bound (derived as [`exp_fast`]'s): the product's rounding and
/// log2 10's rounding each shift the exponent by at most 2^-24 · |x · log2 10|,
/// which changes 10^x by at most ln 10 · |x| ≈ 2.3|x| ulp each; with
/// `ex2.approx`'s 2 ulp, at most 2 + 4.7|x| ulp.
#[inline(always)]
pub fn exp10_fast(x: f32) -> f32 {
    ex2_approx(x * LOG2_10)
}
