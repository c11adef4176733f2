//! Fused multiply-add and square root, correctly rounded on both targets.

/// Fused multiply-add `a * b + c` with a single rounding (PTX `fma.rn.f32`).
///
/// Written explicitly because LLVM, like nvcc with `-fmad=false`, does not
/// contract `a * b + c` into an FMA on its own for Rust code.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fma(a, b, c)
}

/// The correctly rounded square root (PTX `sqrt.rn.f32`, CUDA C's `sqrtf`
/// under the default `-prec-sqrt=true`), so GPU and CPU agree bit for bit.
#[inline(always)]
pub fn sqrt(x: f32) -> f32 {
    core::intrinsics::sqrt(x)
}

/// Fused multiply-add in double precision (PTX `fma.rn.f64`).
#[inline(always)]
pub fn fma_f64(a: f64, b: f64, c: f64) -> f64 {
    core::intrinsics::fma(a, b, c)
}
