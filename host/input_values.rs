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
