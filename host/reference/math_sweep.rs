//! The inputs over which each function's accuracy is measured: a fixed,
//! deterministic sweep of small and of large arguments.

use kernels_gpu::math_accuracy::MathFunction;

/// Which arguments a sweep covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgumentRange {
    /// Where the fast approximations are documented to be good: sine and
    /// cosine on [−π, π], 2^x on [−10, 10], log2 on [0.5, 2), e^x on
    /// [−10, 10], 1/x and 1/√x on [1, 4).
    Small,
    /// Beyond: sine and cosine on ±[10^2, 10^6] (where `sin.approx` is
    /// only documented to 100π, and the accurate sine switches to its
    /// Payne–Hanek path past 2^17), 2^x on [−126, 127], log2 on
    /// [2^-100, 2^100], e^x on [−87, 88], 1/x and 1/√x on [2^-100, 2^100].
    Large,
}

impl ArgumentRange {
    pub const ALL: [Self; 2] = [Self::Small, Self::Large];

    pub fn label(self) -> &'static str {
        match self {
            Self::Small => "small arguments",
            Self::Large => "large arguments",
        }
    }
}

/// How the points of a sweep are spread over its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spacing {
    /// Evenly spaced between the bounds.
    Linear { low: f64, high: f64 },
    /// Evenly spaced in log2 between the bounds (both > 0), then given both signs.
    LogSymmetric { low: f64, high: f64 },
    /// Evenly spaced in log2 between the bounds (both > 0), positive only.
    Log { low: f64, high: f64 },
}

/// The interval of `function`'s sweep over `range` (see [`ArgumentRange`]).
pub fn sweep_spacing(function: MathFunction, range: ArgumentRange) -> Spacing {
    use MathFunction::*;
    use std::f64::consts::PI;
    match (function, range) {
        (SinApprox | CosApprox | Sin | Cos, ArgumentRange::Small) => Spacing::Linear { low: -PI, high: PI },
        (SinApprox | CosApprox | Sin | Cos | Sinpi, ArgumentRange::Large) => {
            Spacing::LogSymmetric { low: 1e2, high: 1e6 }
        }
        (Sinpi, ArgumentRange::Small) => Spacing::Linear { low: -1.0, high: 1.0 },
        (Exp10, ArgumentRange::Small) => Spacing::Linear { low: -3.0, high: 3.0 },
        (Exp10, ArgumentRange::Large) => Spacing::Linear { low: -37.0, high: 38.0 },
        (Cbrt, ArgumentRange::Small) => Spacing::LogSymmetric { low: 0.125, high: 8.0 },
        (Cbrt, ArgumentRange::Large) => Spacing::LogSymmetric {
            low: 2f64.powi(-120),
            high: 2f64.powi(120),
        },
        (Ex2Approx | Exp2, ArgumentRange::Small) => Spacing::Linear { low: -10.0, high: 10.0 },
        (Ex2Approx | Exp2, ArgumentRange::Large) => Spacing::Linear {
            low: -126.0,
            high: 127.0,
        },
        (Lg2Approx, ArgumentRange::Small) => Spacing::Linear { low: 0.5, high: 2.0 },
        (Lg2Approx | RcpApprox | RsqrtApprox, ArgumentRange::Large) => Spacing::Log {
            low: 2f64.powi(-100),
            high: 2f64.powi(100),
        },
        (RcpApprox | RsqrtApprox, ArgumentRange::Small) => Spacing::Linear { low: 1.0, high: 4.0 },
        (ExpFast | Exp | ExpAccurate, ArgumentRange::Small) => Spacing::Linear { low: -10.0, high: 10.0 },
        (ExpFast | Exp | ExpAccurate, ArgumentRange::Large) => Spacing::Linear { low: -87.0, high: 88.0 },
    }
}

/// `count` inputs for `function` over `range`: point `i` of [`sweep_spacing`]'s
/// interval, `i` in `0..count` (the upper bound excluded), rounded to `f32`.
/// For a symmetric log sweep, odd points are negated. Deterministic: the same
/// sweep on every run and machine.
pub fn input_sweep(function: MathFunction, range: ArgumentRange, count: usize) -> Vec<f32> {
    let at = |i: usize| i as f64 / count as f64;
    let log_point = |low: f64, high: f64, t: f64| (low.log2() + t * (high.log2() - low.log2())).exp2();
    (0..count)
        .map(|i| match sweep_spacing(function, range) {
            Spacing::Linear { low, high } => (low + at(i) * (high - low)) as f32,
            Spacing::Log { low, high } => log_point(low, high, at(i)) as f32,
            Spacing::LogSymmetric { low, high } => {
                let magnitude = log_point(low, high, at(i)) as f32;
                if i % 2 == 1 { -magnitude } else { magnitude }
            }
        })
        .collect()
}
