//! Deterministic input values for the compute experiments and the self-test.

/// Value `i` of input stream `salt`: in [-0.5, 0.5), spread over 1000 levels
/// by a multiplicative hash, so no pattern a wrong index could reproduce
/// (neighbours differ, rows differ, streams with different salts differ).
pub fn matrix_value(i: usize, salt: usize) -> f32 {
    ((i as u64)
        .wrapping_mul(2_654_435_761)
        .wrapping_add(salt as u64 * 40_503)
        % 1000) as f32
        / 1000.0
        - 0.5
}

/// About one in [`SPARSE_ONES_PERIOD`] elements (chosen by a multiplicative
/// hash, at no fixed stride) is 1, the rest 0: an array whose sum f32 adds exactly in any order and any
/// grouping, as long as it holds fewer than `2^24 · SPARSE_ONES_PERIOD`
/// elements (every partial sum is then an integer below 2^24). A sum of it
/// must equal the count of ones, bit for bit: a dropped, doubled or misplaced
/// block shows, where a rounding tolerance over a large array would hide it.
pub fn sparse_ones(len: usize) -> Vec<f32> {
    (0..len)
        .map(|i| {
            // The hash's top 8 bits (a multiplicative hash's best mixed; its low bits repeat every 256).
            let top = ((i as u32).wrapping_mul(2_654_435_761) >> 24) as usize;
            if top == 0 { 1.0 } else { 0.0 }
        })
        .collect()
}

/// The mean period of [`sparse_ones`] (a one where the hash's top 8 bits are
/// 0): 8191 MiB of floats (2^31 elements, the suite's largest buffer) hold
/// about 2^23 ones, half the 2^24 that f32 counts exactly.
pub const SPARSE_ONES_PERIOD: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every partial sum of the largest buffer's ones stays an exact f32 integer.
    #[test]
    fn sparse_ones_stay_exact_in_f32_up_to_the_largest_buffer() {
        let largest = 8191usize << 20 >> 2; // 8191 MiB of f32
        assert!(2 * largest.div_ceil(SPARSE_ONES_PERIOD) <= 1 << 24);
        let x = sparse_ones(100_003);
        let ones = x.iter().filter(|&&v| v == 1.0).count();
        assert!(x.iter().all(|&v| v == 0.0 || v == 1.0));
        // The hash spreads the ones: about one in 256, at no fixed stride (some 256-element windows hold
        // none or two).
        assert!((300..=500).contains(&ones), "{ones}");
        assert!(x.windows(SPARSE_ONES_PERIOD).any(|w| w.iter().sum::<f32>() != 1.0));
    }
}
