//! What the §6.3 loop-counter kernels do, as a plain loop.

/// Thread `t` of `threads` copies `inp[offset + t + stride·i]` to
/// `out[t + stride·i]` for `i` in `0..n`; other elements of `out` are left
/// as they are. Panics if an index is outside the slices.
pub fn strided_loop(out: &mut [f32], inp: &[f32], threads: u64, n: u64, offset: u64, stride: u64) {
    for t in 0..threads {
        for i in 0..n {
            let o = (t + stride * i) as usize;
            out[o] = inp[offset as usize + o];
        }
    }
}
