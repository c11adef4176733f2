//! What the kernels must compute, as plain loops on the CPU.

/// `a · x[i] + y[i]` for every `i` (a multiply, then an add, as the kernel:
/// Rust does not fuse them into an FMA).
pub fn saxpy(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(&x, &y)| a * x + y).collect()
}

/// The sum of each `block`-element slice of `x` (the last one may be short),
/// added up in `f64` and rounded once: equal to the kernel's tree-order sum
/// whenever that is exact, as for the small integers and halves the example
/// and its tests use.
pub fn block_sums(x: &[f32], block: usize) -> Vec<f32> {
    x.chunks(block)
        .map(|chunk| chunk.iter().map(|&v| v as f64).sum::<f64>() as f32)
        .collect()
}

/// The example's input: small integers, so that every sum is exact in `f32`
/// whatever the order of the additions.
pub fn input(n: usize) -> (Vec<f32>, Vec<f32>) {
    let x = (0..n).map(|i| (i % 17) as f32 - 8.0).collect();
    let y = (0..n).map(|i| (i % 5) as f32).collect();
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_by_hand() {
        assert_eq!(saxpy(2.5, &[1.0, -2.0], &[0.5, 4.0]), [3.0, -1.0]);
        assert_eq!(block_sums(&[1.0, 2.0, 3.0, 4.0, 5.0], 2), [3.0, 7.0, 5.0]);
        let (x, y) = input(18);
        assert_eq!((x[0], x[16], x[17], y[4], y[5]), (-8.0, 8.0, -8.0, 4.0, 0.0));
    }
}
