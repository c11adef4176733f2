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
        MathFunction::Exp2 => x.exp2(),
        MathFunction::Exp10 => 10f64.powf(x),
        MathFunction::Cbrt => x.cbrt(),
        MathFunction::Cos => x.cos(),
        MathFunction::Sinpi => sin_pi_exact(x),
    }
}

/// sin(πx) with the reduction x = n + r (|r| ≤ 1/2) done exactly first, so
/// that the zeros at integers stay zeros (π·x rounded in `f64` would not).
fn sin_pi_exact(x: f64) -> f64 {
    let n = x.round();
    let sign = if n % 2.0 == 0.0 { 1.0 } else { -1.0 };
    sign * (std::f64::consts::PI * (x - n)).sin()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_pi_keeps_its_zeros_and_signs() {
        assert_eq!(sin_pi_exact(3.0), 0.0);
        assert_eq!(sin_pi_exact(1e6), 0.0);
        assert!((sin_pi_exact(2.5) - 1.0).abs() < 1e-15);
        assert!((sin_pi_exact(-0.5) + 1.0).abs() < 1e-15);
        assert!((sin_pi_exact(1.25) + std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-15);
    }
}
