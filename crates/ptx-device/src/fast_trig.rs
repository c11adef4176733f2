//! Fast sine and cosine: the special-function unit's approximations
//! (CUDA C's `__sinf` / `__cosf`, PTX `sin.approx.f32` / `cos.approx.f32`).
//!
//! **Error on the GPU** (CUDA C Programming Guide, intrinsic functions
//! table): for `x` in `[-π, π]` the absolute error is at most `2^-21.41`
//! (`__sinf`) and `2^-21.19` (`__cosf`); outside that range it grows (the
//! hardware's range reduction is coarse), so callers keep the argument in
//! `[-π, π]`. Both functions are one MUFU instruction after a range
//! reduction, against tens of instructions for the accurate `sinf`.
//!
//! **In the emulator** they are the host's `f32::sin` / `f32::cos`, which
//! are accurate to about an ulp. CPU references that call the same host
//! functions therefore match the emulator exactly, and match the GPU within
//! [`FAST_SIN_MAX_ABS_ERROR`] / [`FAST_COS_MAX_ABS_ERROR`] (plus the host's
//! own ulp) for arguments in `[-π, π]`.

/// The largest absolute error of [`sin_approx`] on the GPU for `x` in `[-π, π]`: `2^-21.41`.
pub const FAST_SIN_MAX_ABS_ERROR: f32 = 3.589e-7;

/// The largest absolute error of [`cos_approx`] on the GPU for `x` in `[-π, π]`: `2^-21.19`.
pub const FAST_COS_MAX_ABS_ERROR: f32 = 4.180e-7;

/// `sin(x)` by the special-function unit (`__sinf`); see the module docs for its error.
#[inline(always)]
pub fn sin_approx(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: f32;
        // SAFETY: a register-to-register instruction; it touches no memory.
        unsafe {
            core::arch::asm!(
                "sin.approx.f32 {out}, {x};",
                out = out(reg32) out,
                x = in(reg32) x,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x.sin()
    }
}

/// `cos(x)` by the special-function unit (`__cosf`); see the module docs for its error.
#[inline(always)]
pub fn cos_approx(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: f32;
        // SAFETY: a register-to-register instruction; it touches no memory.
        unsafe {
            core::arch::asm!(
                "cos.approx.f32 {out}, {x};",
                out = out(reg32) out,
                x = in(reg32) x,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        x.cos()
    }
}
