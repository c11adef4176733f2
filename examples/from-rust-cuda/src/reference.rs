//! What the kernels must compute, as plain loops.

/// `n` inputs with varied magnitudes and signs (exact in `f32`).
pub fn input(n: usize, seed: u32) -> Vec<f32> {
    (0..n as u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 20) as f32 - 2048.0) / 64.0)
        .collect()
}

/// `a + b`, element by element.
pub fn vecadd(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// The sum of each `block`-element slice, in `f64` (the kernels' orders of
/// addition differ; compare within [`sum_tolerance`]).
pub fn block_sums(x: &[f32], block: usize) -> Vec<f64> {
    x.chunks(block)
        .map(|chunk| chunk.iter().map(|&v| v as f64).sum())
        .collect()
}

/// How far an `f32` sum of `terms` values, added in any order, may be from
/// the exact sum: `terms` roundings of at most half an ulp of the largest
/// partial sum, bounded by the sum of magnitudes.
pub fn sum_tolerance(chunk: &[f32]) -> f64 {
    let magnitude: f64 = chunk.iter().map(|&v| (v as f64).abs()).sum();
    magnitude * chunk.len() as f64 * f32::EPSILON as f64
}

/// The transpose of a `height × width` row-major matrix.
pub fn transpose(input: &[f32], width: usize, height: usize) -> Vec<f32> {
    let mut out = vec![0.0; width * height];
    for y in 0..height {
        for x in 0..width {
            out[x * height + y] = input[y * width + x];
        }
    }
    out
}
