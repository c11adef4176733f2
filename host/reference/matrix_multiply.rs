use super::dot_error_bound;

/// `C = A · B` for row-major `A` (`m × k`) and `B` (`k × n`), accumulated in
/// `f64`; also, per element, `Σ |a| · |b|`, the scale of any `f32` rounding
/// error. Rows are split over the CPU's cores.
pub fn matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> (Vec<f32>, Vec<f64>) {
    let mut c = vec![0.0f32; m * n];
    let mut scale = vec![0.0f64; m * n];
    if m == 0 || n == 0 {
        return (c, scale);
    }
    let workers = std::thread::available_parallelism().map_or(1, |w| w.get()).min(32);
    let rows_per_worker = m.div_ceil(workers);
    std::thread::scope(|scope| {
        for (chunk, (c_rows, scale_rows)) in c
            .chunks_mut(rows_per_worker * n)
            .zip(scale.chunks_mut(rows_per_worker * n))
            .enumerate()
        {
            scope.spawn(move || {
                for (r, (c_row, scale_row)) in c_rows.chunks_mut(n).zip(scale_rows.chunks_mut(n)).enumerate() {
                    let row = chunk * rows_per_worker + r;
                    for (col, (c_out, s_out)) in c_row.iter_mut().zip(scale_row.iter_mut()).enumerate() {
                        (*c_out, *s_out) = matmul_element(a, b, (k, n), row, col);
                    }
                }
            });
        }
    });
    (c, scale)
}

/// One element of `C = A · B` (see [`matmul`]): `(c[row][col], Σ |a·b|)`.
pub fn matmul_element(a: &[f32], b: &[f32], (k, n): (usize, usize), row: usize, col: usize) -> (f32, f64) {
    let (mut dot, mut abs) = (0.0f64, 0.0f64);
    for i in 0..k {
        let p = a[row * k + i] as f64 * b[i * n + col] as f64;
        dot += p;
        abs += p.abs();
    }
    (dot as f32, abs)
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

/// The first element of `got` farther from `expected` than
/// [`dot_error_bound`]`(k) · scale`, described; `None` when all are within.
pub fn matmul_mismatch(got: &[f32], expected: &[f32], scale: &[f64], k: usize, n: usize) -> Option<String> {
    if got.len() != expected.len() {
        return Some(format!("{} elements, expected {}", got.len(), expected.len()));
    }
    let relative = dot_error_bound(k);
    got.iter()
        .zip(expected)
        .zip(scale)
        .enumerate()
        .find_map(|(i, ((g, e), s))| {
            let error = (*g as f64 - *e as f64).abs();
            let bound = relative * s + 1e-30;
            (error.is_nan() || error > bound).then(|| {
                format!(
                    "C[{}][{}] is {g} but the CPU reference says {e} (error {error:.3e} > bound {bound:.3e})",
                    i / n.max(1),
                    i % n.max(1)
                )
            })
        })
}
