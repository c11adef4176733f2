//! The error measure of the math functions' host tests.

/// |got − exact| in ulp of the exact value (the `f32` spacing at its magnitude).
pub fn ulp_error(got: f32, exact: f64) -> f64 {
    if got as f64 == exact {
        return 0.0;
    }
    let magnitude = exact.abs().max(f32::MIN_POSITIVE as f64);
    let ulp = 2f64.powi(magnitude.log2().floor() as i32 - 23);
    (got as f64 - exact).abs() / ulp
}
