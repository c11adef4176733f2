use kernels_gpu::math_accuracy::MathFunction;

use super::CudaMathAccuracyRunner;
use crate::error::Result;
use crate::launchers::twin_waivers::twin_waivers;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One programming model's side of the math-accuracy family: inputs and an
/// output of its own, each function evaluated once per input by each of its
/// implementations.
pub trait MathAccuracyRunner {
    /// The implementations whose kernels it launches.
    fn implementations(&self) -> &[Implementation];
    /// Makes the output: `n` floats (replaces any earlier one).
    fn allocate(&mut self, n: usize) -> Result<()>;
    /// Copies `inputs` to the device (replaces any earlier ones).
    fn load_inputs(&mut self, inputs: &[f32]) -> Result<()>;
    /// `function` of the first `n` inputs by `implementation`, into an output
    /// filled with NaN first (so an input the kernel skips fails the check); waits for it.
    fn values(&mut self, implementation: Implementation, function: MathFunction, n: usize) -> Result<Vec<f32>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (the PTX implementations': Rust, and CUDA C
/// where its twins loaded) and, for each selected set of twins left out, what
/// and why. The family has no OpenCL C twins.
#[allow(clippy::type_complexity)]
pub fn math_accuracy_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn MathAccuracyRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, cuda_c_waived) = dut.ptx_implementations();
    let runner = CudaMathAccuracyRunner::new(dut, implementations);
    Ok((vec![Box::new(runner)], twin_waivers(cuda_c_waived, None)))
}
