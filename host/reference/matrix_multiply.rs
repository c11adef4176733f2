/// `C = A · B` for row-major `A` (`m × k`) and `B` (`k × n`), accumulated in
/// `f64`; also, per element, `Σ |a| · |b|`, the scale of any `f32` rounding error.
pub fn matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> (Vec<f32>, Vec<f64>) {
    let mut c = vec![0.0f32; m * n];
    let mut scale = vec![0.0f64; m * n];
    for row in 0..m {
        for col in 0..n {
            let (mut dot, mut abs) = (0.0f64, 0.0f64);
            for i in 0..k {
                let p = a[row * k + i] as f64 * b[i * n + col] as f64;
                dot += p;
                abs += p.abs();
            }
            c[row * n + col] = dot as f32;
            scale[row * n + col] = abs;
        }
    }
    (c, scale)
}

/// `C = A · Aᵀ` for row-major `A` (`m × k`).
pub fn matmul_aat(a: &[f32], m: usize, k: usize) -> (Vec<f32>, Vec<f64>) {
    let mut transposed = vec![0.0f32; k * m];
    for row in 0..m {
        for i in 0..k {
            transposed[i * m + row] = a[row * k + i];
        }
    }
    matmul(a, &transposed, m, k, m)
}
