//! Helpers shared by the emulator tests.

use kernels_gpu::device::F32x4;

/// Storage for `len` floats, 16-byte aligned (as `cuMemAlloc` gives, which
/// the float4 kernels need), element `i` set to `value(i)`. View it with
/// `F32x4::as_floats(_mut)`; the padding past `len` is zero.
pub fn aligned_floats(len: usize, value: impl Fn(usize) -> f32) -> Vec<F32x4> {
    let mut store = vec![F32x4::default(); len.div_ceil(4)];
    for (i, x) in F32x4::as_floats_mut(&mut store).iter_mut().take(len).enumerate() {
        *x = value(i);
    }
    store
}
