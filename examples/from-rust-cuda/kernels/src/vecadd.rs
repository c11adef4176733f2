use cuda_std::prelude::*;

/// `c[i] = a[i] + b[i]` for `i < a.len()`: Rust-CUDA's vector-add example, as
/// it is written there.
///
/// Indexing: one element per thread, `i = blockIdx.x · blockDim.x + threadIdx.x`.
/// Launch: any 1-D shape covering `a.len()`; arguments in `cust::launch!`
/// order: `a` pointer, `a` length, `b` pointer, `b` length, `c` pointer.
#[kernel]
#[allow(improper_ctypes_definitions, clippy::missing_safety_doc)]
pub unsafe fn vecadd(a: &[f32], b: &[f32], c: *mut f32) {
    let idx = thread::index_1d() as usize;
    if idx < a.len() {
        let elem = unsafe { &mut *c.add(idx) };
        *elem = a[idx] + b[idx];
    }
}
