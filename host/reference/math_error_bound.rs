//! The error each function is documented (or, for the suite's own accurate
//! functions, proved exhaustively) to stay within, to check measurements against.

use kernels_gpu::device::{CBRT_MAX_ULP, EXP_ACCURATE_MAX_ULP, EXP_MAX_ULP, SIN_MAX_ULP, SINPI_MAX_ULP};
use kernels_gpu::math_accuracy::MathFunction;

use super::math_sweep::ArgumentRange;
use super::ulp_error::ulp_error;

/// A bound on the error of one result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ErrorBound {
    /// At most this many ulp of the exact value.
    Ulp(f64),
    /// `|got − exact|` at most this.
    Absolute(f64),
    /// `|got − exact| / |exact|` at most this.
    Relative(f64),
    /// Within either: an absolute bound near a zero of the function, a relative one elsewhere
    /// (`lg2.approx`: absolute for arguments near 1, relative away from it).
    AbsoluteOrRelative { absolute: f64, relative: f64 },
    /// At most `constant + per_unit · |x|` ulp (the fast exponential's bound).
    UlpGrowing { constant: f64, per_unit: f64 },
    /// No bound is documented for these arguments.
    Unbounded,
}

impl ErrorBound {
    /// Whether `got`, computed for input `x`, is within the bound of `exact`.
    pub fn allows(self, x: f32, got: f32, exact: f64) -> bool {
        let difference = (got as f64 - exact).abs();
        match self {
            Self::Ulp(limit) => ulp_error(got, exact) <= limit,
            Self::Absolute(limit) => difference <= limit,
            Self::Relative(limit) => difference <= limit * exact.abs(),
            Self::AbsoluteOrRelative { absolute, relative } => {
                difference <= absolute || difference <= relative * exact.abs()
            }
            Self::UlpGrowing { constant, per_unit } => ulp_error(got, exact) <= constant + per_unit * (x as f64).abs(),
            Self::Unbounded => true,
        }
    }
}

/// The documented error of `function` over the sweep of `range`: the PTX
/// ISA's for the approximate instructions, the exhaustive bounds of the
/// device layer for the accurate functions (see `device::accurate_math`).
///
/// The PTX ISA gives ulp errors "from the correctly rounded result"; the
/// bounds here are against the exact value, so half an ulp more.
pub fn documented_bound(function: MathFunction, range: ArgumentRange) -> ErrorBound {
    use MathFunction::*;
    match (function, range) {
        // [-2π, 2π] covers the small sweep; the large one goes past 100π.
        (SinApprox | CosApprox, ArgumentRange::Small) => ErrorBound::Absolute(2f64.powf(-20.5)),
        (SinApprox | CosApprox, ArgumentRange::Large) => ErrorBound::Unbounded,
        (Ex2Approx | Exp2, _) => ErrorBound::Ulp(2.5),
        // ex2.approx's 2 ulp, plus the rounding of x · log2 10 (see `device::exp10_fast`).
        (Exp10, _) => ErrorBound::UlpGrowing {
            constant: 2.5,
            per_unit: 4.7,
        },
        (Cbrt, _) => ErrorBound::Ulp(CBRT_MAX_ULP),
        (Cos, _) => ErrorBound::Ulp(SIN_MAX_ULP),
        (Sinpi, _) => ErrorBound::Ulp(SINPI_MAX_ULP),
        (Lg2Approx, ArgumentRange::Small) => ErrorBound::Absolute(2f64.powi(-22)),
        // The large sweep also crosses 1, where the result is near 0 and only the absolute bound can hold.
        (Lg2Approx, ArgumentRange::Large) => ErrorBound::AbsoluteOrRelative {
            absolute: 2f64.powi(-22),
            relative: 2f64.powi(-22),
        },
        (RcpApprox, _) => ErrorBound::Ulp(1.5),
        (RsqrtApprox, _) => ErrorBound::Relative(2f64.powf(-22.9)),
        // ex2.approx's 2 ulp, plus the rounding of x · log2 e (see `device::exp_fast`).
        (ExpFast, _) => ErrorBound::UlpGrowing {
            constant: 2.5,
            per_unit: 2.0,
        },
        (Sin, _) => ErrorBound::Ulp(SIN_MAX_ULP),
        (ExpAccurate, _) => ErrorBound::Ulp(EXP_ACCURATE_MAX_ULP),
        // CUDA's 2 ulp for expf, whose instructions `device::exp` are (see `device::exp`).
        (Exp, _) => ErrorBound::Ulp(EXP_MAX_ULP),
    }
}

/// The bound for the CUDA C twins, which use NVIDIA's `sinf` and `expf`
/// for the accurate functions (2 ulp over the full range in the CUDA C
/// Programming Guide's table of single-precision functions, quoted from
/// memory; half an ulp added as above) and the same instructions as the Rust
/// kernels for the approximations.
///
/// For `exp2f`, `exp10f`, `cbrtf` and `cosf` the OpenCL guide's Table C-1
/// (Appendix B.1.1: 2, 2, 1 and 2 ulp over the full range, from the
/// correctly rounded result; half an ulp added); `sinpif` is in none of the
/// source documents' tables, so no bound.
pub fn cuda_library_bound(function: MathFunction, range: ArgumentRange) -> ErrorBound {
    match function {
        MathFunction::Sin | MathFunction::ExpAccurate | MathFunction::Exp => ErrorBound::Ulp(2.5),
        MathFunction::Exp2 | MathFunction::Exp10 | MathFunction::Cos => ErrorBound::Ulp(2.5),
        MathFunction::Cbrt => ErrorBound::Ulp(1.5),
        MathFunction::Sinpi => ErrorBound::Unbounded,
        _ => documented_bound(function, range),
    }
}
