/// Fused multiply-add `a * b + c` with a single rounding (PTX `fma.rn.f32`).
///
/// Written explicitly because LLVM, like nvcc with `-fmad=false`, does not
/// contract `a * b + c` into an FMA on its own for Rust code.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fma(a, b, c)
}
