//! The math-accuracy family (Best Practices Guide §5.1.4): `math_function_values`,
//! one function evaluated once per input, one thread per input. The shape check
//! ([`function_values_shape`]), the typed launcher ([`math_function_values`]) and
//! the family's runner ([`MathAccuracyRunner`], chosen by [`math_accuracy_runners`]).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaMathAccuracyRunner;
pub use runner::{MathAccuracyRunner, math_accuracy_runners};

use kernels_gpu::device::{Dim3, KernelSignature};
use kernels_gpu::math_accuracy::{FUNCTION_VALUES_BLOCK_THREADS, MathFunction, math_function_values_params};

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

const KERNEL: &str = math_function_values_params::NAME;

/// Checks a `math_function_values` launch over `n` inputs: both buffers must
/// hold `n` floats, and `n` must be a positive `u32`. One thread per element,
/// in blocks of [`FUNCTION_VALUES_BLOCK_THREADS`].
pub fn function_values_shape(n: usize, out_len: usize, in_len: usize) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel: KERNEL, reason };
    if n == 0 || n > u32::MAX as usize {
        return Err(invalid(format!("{n} inputs is not a positive u32 count")));
    }
    if out_len < n || in_len < n {
        return Err(invalid(format!(
            "{n} inputs need {n} floats in and out; the buffers hold {in_len} (in) and {out_len} (out)"
        )));
    }
    let blocks = (n as u64).div_ceil(FUNCTION_VALUES_BLOCK_THREADS as u64);
    Ok(LaunchShape {
        grid: Dim3::x(blocks as u32),
        block: Dim3::x(FUNCTION_VALUES_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Launches `math_function_values`: `out[i] = function(inp[i])` for `i < n`.
pub fn math_function_values(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    function: MathFunction,
    inp: &DeviceBuffer<f32>,
    out: &mut DeviceBuffer<f32>,
    n: usize,
) -> Result<()> {
    let shape = function_values_shape(n, out.len(), inp.len())?;
    let args = (out.as_global_mut(), inp.as_global(), n as u32, function as u32);
    // SAFETY: the shape check proved both buffers hold n floats, and threads past n do nothing.
    unsafe { dut.launch::<math_function_values_params>(implementation, shape, args) }
}
