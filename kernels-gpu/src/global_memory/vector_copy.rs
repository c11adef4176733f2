use crate::device::{F32x4, GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, grid_dim_x, thread_idx_x};

/// Independent 16-byte loads each thread has in flight per loop trip.
pub const VECTOR_COPY_UNROLL: u64 = 4;

kernel! {
    /// Copies `n` `f32`s the way one should today: 128-bit vector accesses,
    /// a grid-stride loop, several independent loads in flight per thread,
    /// and a grid sized from the SM count rather than from `n`. This is the
    /// suite's copy ceiling written in Rust.
    ///
    /// **Indexing**: vector `v` (elements `4v..4v+4`) is handled by thread
    /// `v mod (grid * block)`. The main loop moves [`VECTOR_COPY_UNROLL`]
    /// vectors per trip, `grid * block` apart, so each warp still touches
    /// contiguous 512-byte runs; a remainder loop finishes the vectors, and the
    /// first `n mod 4` threads copy the trailing scalars.
    ///
    /// **Launch**: 1-D, `SMs × resident blocks per SM` blocks (one full wave)
    /// of 256 threads; any shape is correct.
    ///
    /// **Expected**: at or above the driver's `cuMemcpyDtoD` on the same
    /// buffers; no cc 1.x counterpart (the guide's copies move one `float`
    /// per thread).
    ///
    /// # Safety
    /// Both pointers must be 16-byte aligned and point to at least `n` `f32`s
    /// (`launchers::vector_copy` checks this).
    pub unsafe fn vector_copy(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: u64) {
        let out4: GlobalMutPtr<F32x4> = out.cast();
        let inp4: GlobalPtr<F32x4> = inp.cast();
        let vectors = n / 4;
        let threads = grid_dim_x() as u64 * block_dim_x() as u64;
        let first = block_idx_x() as u64 * block_dim_x() as u64 + thread_idx_x() as u64;
        let mut v = first;
        // SAFETY (all accesses below): every index is < vectors (or < n for scalars), checked by the loop bounds.
        while v + (VECTOR_COPY_UNROLL - 1) * threads < vectors {
            let a = unsafe { inp4.load(v as isize) };
            let b = unsafe { inp4.load((v + threads) as isize) };
            let c = unsafe { inp4.load((v + 2 * threads) as isize) };
            let d = unsafe { inp4.load((v + 3 * threads) as isize) };
            unsafe {
                out4.store(v as isize, a);
                out4.store((v + threads) as isize, b);
                out4.store((v + 2 * threads) as isize, c);
                out4.store((v + 3 * threads) as isize, d);
            }
            v += VECTOR_COPY_UNROLL * threads;
        }
        while v < vectors {
            unsafe { out4.store(v as isize, inp4.load(v as isize)) };
            v += threads;
        }
        if first < n % 4 {
            let i = (vectors * 4 + first) as isize;
            unsafe { out.store(i, inp.load(i)) };
        }
    }
}
