//! The one tolerance rule for every product the suite checks (matrix-vector,
//! the guide's multiplies, SGEMM): the worst-case rounding error of an `f32`
//! dot product.

/// The worst-case relative error of an `f32` dot product of length `k`, in
/// any summation order, with or without FMA: `γ_k = k·u / (1 − k·u)` with
/// `u = 2⁻²⁴` (Higham, *Accuracy and Stability of Numerical Algorithms*,
/// §3.1), plus `u` for rounding the `f64` reference to `f32`. A result is
/// right when `|c − reference| ≤ dot_error_bound(k) · Σ|a·b|`: a bound no
/// correct kernel can exceed and a wrong index almost always does.
pub fn dot_error_bound(k: usize) -> f64 {
    let u = f64::powi(2.0, -24);
    let ku = k as f64 * u;
    ku / (1.0 - ku).max(f64::EPSILON) + u
}

#[cfg(test)]
mod tests {
    use super::dot_error_bound;

    #[test]
    fn the_bound_grows_with_the_length_like_k_times_the_unit_roundoff() {
        let u = f64::powi(2.0, -24);
        assert!((dot_error_bound(1) / (2.0 * u) - 1.0).abs() < 1e-6);
        let b = dot_error_bound(8192);
        assert!(b > 8192.0 * u && b < 8194.0 * u * 1.001, "{b}");
        assert!(dot_error_bound(usize::MAX).is_finite());
    }
}
