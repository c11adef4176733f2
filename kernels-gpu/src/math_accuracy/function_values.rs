use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};
use crate::math_accuracy::MathFunction;

kernel! {
    /// Evaluates one function (`function`, a [`MathFunction`] discriminant)
    /// at each of `n` inputs: `out[i] = f(inp[i])`, for the host to measure
    /// its error in ulp against an `f64` reference (Best Practices Guide
    /// §5.1.4 and §7.2: what the fast intrinsics cost in accuracy).
    ///
    /// **Indexing**: one element per thread, `i = blockIdx.x · blockDim.x +
    /// threadIdx.x`; threads with `i ≥ n` do nothing. An unknown `function`
    /// writes NaN.
    ///
    /// **Launch**: 1-D, `ceil(n / 256)` blocks of 256 threads.
    ///
    /// **Expected**: not timed. The errors the PTX ISA documents for each
    /// instruction, and the accurate functions' stated bounds.
    ///
    /// # Safety
    /// `out` and `inp` must hold at least `n` elements
    /// (`launchers::function_values_shape` in the host crate checks this).
    pub unsafe fn math_function_values(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: u32, function: u32) {
        let i = block_idx_x() * block_dim_x() + thread_idx_x();
        if i < n {
            // SAFETY: i < n, within both buffers.
            let x = unsafe { inp.load(i as isize) };
            let y = match MathFunction::from_id(function) {
                Some(f) => f.evaluate(x),
                None => f32::NAN,
            };
            // SAFETY: as above.
            unsafe { out.store(i as isize, y) };
        }
    }
}
