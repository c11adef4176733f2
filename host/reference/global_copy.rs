/// What `offset_copy` does with `threads` threads: element `t + offset` of
/// `input` is copied to `output` for every `t < threads`; nothing else changes.
pub fn offset_copy(output: &mut [f32], input: &[f32], threads: usize, offset: usize) {
    let range = offset..offset + threads;
    output[range.clone()].copy_from_slice(&input[range]);
}

/// What `stride_copy` does with `threads` threads: element `t * stride` is
/// copied for every `t < threads`; nothing else changes.
pub fn stride_copy(output: &mut [f32], input: &[f32], threads: usize, stride: usize) {
    for t in 0..threads {
        output[t * stride] = input[t * stride];
    }
}
