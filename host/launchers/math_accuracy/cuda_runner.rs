use kernels_gpu::math_accuracy::MathFunction;

use super::{MathAccuracyRunner, math_function_values};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX implementations' `math_function_values` (Rust, and its CUDA C
/// twin) on the device's CUDA context and stream.
pub struct CudaMathAccuracyRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    inputs: Option<DeviceBuffer<f32>>,
    out: Option<DeviceBuffer<f32>>,
}

impl<'a> CudaMathAccuracyRunner<'a> {
    /// The kernels of `implementations` (loaded by the device), without buffers yet.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Self {
        Self {
            dut,
            implementations,
            inputs: None,
            out: None,
        }
    }
}

/// The error of a use before [`MathAccuracyRunner::allocate`] or [`MathAccuracyRunner::load_inputs`].
fn missing(what: &str) -> Error {
    Error::InvalidLaunch {
        kernel: "math_function_values",
        reason: format!("no {what} yet"),
    }
}

impl MathAccuracyRunner for CudaMathAccuracyRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }
    fn allocate(&mut self, n: usize) -> Result<()> {
        self.out = None;
        self.out = Some(DeviceBuffer::uninit(self.dut.gpu(), n)?);
        Ok(())
    }
    fn load_inputs(&mut self, inputs: &[f32]) -> Result<()> {
        self.inputs = None;
        self.inputs = Some(DeviceBuffer::from_host(self.dut.gpu(), inputs)?);
        Ok(())
    }
    fn values(&mut self, implementation: Implementation, function: MathFunction, n: usize) -> Result<Vec<f32>> {
        let inputs = self.inputs.as_ref().ok_or_else(|| missing("inputs"))?;
        let out = self.out.as_mut().ok_or_else(|| missing("output"))?;
        out.fill(f32::NAN)?;
        math_function_values(self.dut, implementation, function, inputs, out, n)?;
        out.to_host()
    }
}
