use cuda_std::prelude::*;

/// `c[i] = a[i] + b[i]` for every `i < a.len()`: Rust-CUDA's vector-add
/// example as it is written there, built through `cuda_std` (this crate's
/// compatibility layer on `ptx-device`).
///
/// **Demonstrates** what Rust-CUDA's kernel ABI costs, if anything: each
/// `&[f32]` arrives as two parameters (pointer, `usize` length) and is
/// rebuilt into a slice, so `a[idx]` and `b[idx]` are bounds-checked (a
/// miss traps); `c` is a raw pointer written in an `unsafe` block. Its twin
/// [`ptx_device_vecadd`](super::ptx_device_vecadd) is the same algorithm with
/// unchecked global pointers.
///
/// **Indexing**: one element per thread, `idx = blockIdx.x · blockDim.x +
/// threadIdx.x` (`thread::index_1d`), threads past `a.len()` do nothing.
///
/// **Launch**: 1-D blocks of 256 threads, `ceil(n / 256)` blocks; parameters
/// in `cust::launch!` order: `a` pointer, `a` length, `b` pointer, `b`
/// length, `c` pointer (`launchers::cuda_std_vecadd`).
///
/// **Expected**: bound by DRAM (12 bytes per element), on par with its twin;
/// the documents have no counterpart (the `cuda-std` experiment reports
/// both and their ratio).
///
/// # Safety
/// `a` and `b` must be the (pointer, length) of live device allocations with
/// `b.len() >= a.len()` (else the check of `b[idx]` traps), and `c` must
/// point at `a.len()` writable `f32`s that no other thread touches.
#[kernel]
pub unsafe fn cuda_std_vecadd(a: &[f32], b: &[f32], c: *mut f32) {
    let idx = thread::index_1d() as usize;
    if idx < a.len() {
        // SAFETY: idx < a.len(), and c holds a.len() elements (the launch's contract).
        let elem = unsafe { &mut *c.add(idx) };
        *elem = a[idx] + b[idx];
    }
}
