//! Errors of single-precision results in ulp (units in the last place),
//! measured against a double-precision reference: the accuracy half of the
//! Best Practices Guide §5.1.4 trade-off.

/// The spacing of `f32` numbers at the magnitude of `exact`: 2^(e − 23) for
/// an exact value in [2^e, 2^(e+1)), and 2^-149 (the subnormal spacing) below
/// the smallest normal `f32`. The ulp of ±∞ and NaN is NaN.
pub fn f32_ulp_at(exact: f64) -> f64 {
    if !exact.is_finite() {
        return f64::NAN;
    }
    let magnitude = exact.abs();
    if magnitude < f32::MIN_POSITIVE as f64 {
        return 2f64.powi(-149);
    }
    // floor(log2 |exact|) from the exponent field: exact for every finite f64 in range.
    let exponent = ((magnitude.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    2f64.powi(exponent - 23)
}

/// `|got − exact|` in ulp of `exact` ([`f32_ulp_at`]). Equal values (also
/// equal infinities) are 0 ulp apart; a NaN on either side, or an infinity
/// against a finite value, is infinitely many.
pub fn ulp_error(got: f32, exact: f64) -> f64 {
    let got = got as f64;
    if got == exact {
        return 0.0;
    }
    if got.is_nan() || exact.is_nan() || got.is_infinite() || exact.is_infinite() {
        return f64::INFINITY;
    }
    (got - exact).abs() / f32_ulp_at(exact)
}

/// Error statistics of one function over a sweep of inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorStats {
    /// Inputs measured.
    pub count: usize,
    /// Largest error in ulp.
    pub max_ulp: f64,
    /// Mean error in ulp.
    pub mean_ulp: f64,
    /// Largest absolute error `|got − exact|`.
    pub max_abs: f64,
    /// Largest relative error `|got − exact| / |exact|` (over inputs with `exact ≠ 0`).
    pub max_rel: f64,
    /// The input with the largest ulp error.
    pub worst_input: f32,
}

/// [`ErrorStats`] of `got[i]` against `exact(inputs[i] as f64)`, for
/// `inputs.len()` values (`got` must be as long). `None` for an empty sweep.
pub fn error_stats(inputs: &[f32], got: &[f32], exact: impl Fn(f64) -> f64) -> Option<ErrorStats> {
    assert_eq!(inputs.len(), got.len(), "one result per input");
    let mut stats = ErrorStats {
        count: 0,
        max_ulp: 0.0,
        mean_ulp: 0.0,
        max_abs: 0.0,
        max_rel: 0.0,
        worst_input: *inputs.first()?,
    };
    let mut sum_ulp = 0.0;
    for (&x, &y) in inputs.iter().zip(got) {
        let reference = exact(x as f64);
        let ulps = ulp_error(y, reference);
        let absolute = match ulps {
            0.0 => 0.0,
            u if u.is_infinite() => f64::INFINITY,
            _ => (y as f64 - reference).abs(),
        };
        stats.count += 1;
        sum_ulp += ulps;
        if ulps > stats.max_ulp {
            stats.max_ulp = ulps;
            stats.worst_input = x;
        }
        stats.max_abs = stats.max_abs.max(absolute);
        if reference != 0.0 && reference.is_finite() {
            stats.max_rel = stats.max_rel.max(absolute / reference.abs());
        }
    }
    stats.mean_ulp = sum_ulp / stats.count as f64;
    Some(stats)
}
