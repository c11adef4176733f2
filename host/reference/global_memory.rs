/// What `offset_copy` (any width) does with `threads` threads: element
/// `t + offset` of `input` is copied to `output` for every `t < threads`;
/// nothing else changes.
pub fn offset_copy<T: Copy>(output: &mut [T], input: &[T], threads: usize, offset: usize) {
    let range = offset..offset + threads;
    output[range.clone()].copy_from_slice(&input[range]);
}

/// What `stride_copy` (any width) does with `threads` threads: element
/// `t * stride` is copied for every `t < threads`; nothing else changes.
pub fn stride_copy<T: Copy>(output: &mut [T], input: &[T], threads: usize, stride: usize) {
    for t in 0..threads {
        output[t * stride] = input[t * stride];
    }
}

/// What `shift_copy` does: `output[t] = input[t + shift]` for `t < threads`.
pub fn shift_copy<T: Copy>(output: &mut [T], input: &[T], threads: usize, shift: usize) {
    output[..threads].copy_from_slice(&input[shift..shift + threads]);
}

/// What `texture_shift_copy` does: `output[t]` is texel `t + shift` of a
/// texture over `input`, and a texel past its end reads as 0.
pub fn texture_shift_copy(output: &mut [f32], input: &[f32], threads: usize, shift: usize) {
    for (t, out) in output[..threads].iter_mut().enumerate() {
        *out = input.get(t + shift).copied().unwrap_or(0.0);
    }
}

/// What `vector_copy` and `cuMemcpyDtoD` do: the first `n` elements are copied.
pub fn copy_prefix<T: Copy>(output: &mut [T], input: &[T], n: usize, _unused: usize) {
    output[..n].copy_from_slice(&input[..n]);
}

/// What `permuted_copy` does at `key` (0..32): for `t < threads`,
/// `output[t]` is word `(l · (2·key + 1)) mod 32` XOR `key` of the 32-word
/// segment holding `t`, where `l = t mod 32`. Computed the slow way: each
/// segment's words in the order the lanes ask for them.
pub fn permuted_copy<T: Copy>(output: &mut [T], input: &[T], threads: usize, key: usize) {
    let multiplier = 2 * key + 1;
    for (segment, out) in output[..threads].chunks_mut(32).enumerate() {
        for (lane, word) in out.iter_mut().enumerate() {
            *word = input[segment * 32 + (((lane * multiplier) % 32) ^ key)];
        }
    }
}
