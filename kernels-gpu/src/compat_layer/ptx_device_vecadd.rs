use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// `c[i] = a[i] + b[i]` for every `i < n`, written as this crate writes
    /// kernels: `ptx-device`'s global pointers (one `ld.global`/`st.global`
    /// each, unchecked) and an explicit count.
    ///
    /// **Demonstrates** the baseline the `cuda_std` version
    /// ([`cuda_std_vecadd`](super::cuda_std_vecadd)) is measured against:
    /// same algorithm, same launch, without slices or their bounds checks.
    ///
    /// **Indexing**: one element per thread, `i = blockIdx.x · blockDim.x +
    /// threadIdx.x`; threads past `n` do nothing.
    ///
    /// **Launch**: 1-D blocks of 256 threads, `ceil(n / 256)` blocks
    /// (`launchers::ptx_device_vecadd`).
    ///
    /// **Expected**: bound by DRAM (12 bytes per element), about the copy
    /// ceiling's bandwidth; no counterpart in the documents.
    ///
    /// # Safety
    /// `a`, `b` and `c` must each hold at least `n` `f32`s.
    pub unsafe fn ptx_device_vecadd(c: GlobalMutPtr<f32>, a: GlobalPtr<f32>, b: GlobalPtr<f32>, n: u32) {
        let i = block_idx_x() * block_dim_x() + thread_idx_x();
        if i < n {
            let i = i as isize;
            // SAFETY: i < n, inside all three buffers.
            unsafe { c.store(i, a.load(i) + b.load(i)) };
        }
    }
}
