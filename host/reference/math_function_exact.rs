//! The exact values the accuracy measurements compare with: each device
//! function's mathematical value in `f64` (the C library's `sin`, `exp`,
//! `exp2`, `log2`, ...: accurate to well under an `f64` ulp, so within about
//! 10^-9 of an `f32` ulp).

use kernels_gpu::math_accuracy::MathFunction;

/// f(x) in double precision, for the function `function` computes in single.
pub fn math_function_exact(function: MathFunction, x: f64) -> f64 {
    match function {
        MathFunction::SinApprox | MathFunction::Sin => x.sin(),
        MathFunction::CosApprox => x.cos(),
        MathFunction::Ex2Approx => x.exp2(),
        MathFunction::Lg2Approx => x.log2(),
        MathFunction::RcpApprox => 1.0 / x,
        MathFunction::RsqrtApprox => 1.0 / x.sqrt(),
        MathFunction::ExpFast | MathFunction::Exp | MathFunction::ExpAccurate => x.exp(),
    }
}
