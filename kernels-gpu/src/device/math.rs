/// Fused multiply-add `a * b + c` with a single rounding (PTX `fma.rn.f32`).
///
/// Written explicitly because LLVM, like nvcc with `-fmad=false`, does not
/// contract `a * b + c` into an FMA on its own for Rust code.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fma(a, b, c)
}

/// Fused multiply-add in double precision (PTX `fma.rn.f64`).
#[inline(always)]
pub fn fma_f64(a: f64, b: f64, c: f64) -> f64 {
    core::intrinsics::fma(a, b, c)
}
