/// `W = M · V` for a row-major `height × width` matrix (the whitepaper's
/// Listing 1), accumulated in `f64`. Also returns, per row, `Σ |m| · |v|`,
/// the scale that bounds the rounding error of any `f32` summation order.
pub fn matvec(m: &[f32], width: usize, height: usize, v: &[f32]) -> (Vec<f32>, Vec<f64>) {
    let mut w = Vec::with_capacity(height);
    let mut scale = Vec::with_capacity(height);
    for row in m.chunks_exact(width).take(height) {
        let (mut dot, mut abs) = (0.0f64, 0.0f64);
        for (a, b) in row.iter().zip(v) {
            dot += *a as f64 * *b as f64;
            abs += (*a as f64 * *b as f64).abs();
        }
        w.push(dot as f32);
        scale.push(abs);
    }
    (w, scale)
}

use super::dot_error_bound;

/// The first row farther from the reference than [`dot_error_bound`]`(width)`
/// times the row's `Σ |m| · |v|` (the rule every product in the suite is held to), described.
pub fn matvec_mismatch(got: &[f32], expected: &[f32], scale: &[f64], width: usize) -> Option<String> {
    if got.len() != expected.len() {
        return Some(format!("{} rows, expected {}", got.len(), expected.len()));
    }
    let relative = dot_error_bound(width);
    got.iter()
        .zip(expected)
        .zip(scale)
        .enumerate()
        .find_map(|(y, ((g, e), s))| {
            let error = (*g as f64 - *e as f64).abs();
            let bound = relative * s + 1e-30;
            (error.is_nan() || error > bound)
                .then(|| format!("row {y} is {g} but the CPU reference says {e} (error {error:.3e} > {bound:.3e})"))
        })
}
