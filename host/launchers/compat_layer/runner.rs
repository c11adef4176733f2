use super::{CompatKernel, CudaCompatLayerRunner, KernelLayer};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::DeviceUnderTest;

/// One programming model's side of the compatibility-layer pairs: the two
/// inputs it was given and an output sized for one algorithm at a time, each
/// launch over every element of the inputs, timed by its own clock.
pub trait CompatLayerRunner {
    /// Sizes the output for `kernel` over the inputs (a sum per element for
    /// the vector add, one per block for the block sum), the last output freed first.
    fn size_output(&mut self, kernel: CompatKernel) -> Result<()>;
    /// Fills the output with NaN (so an element the launch skips fails the check).
    fn clear_output(&mut self) -> Result<()>;
    /// Per-launch milliseconds of each sample of `kernel` written against
    /// `layer`, into the output sized for it
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, kernel: CompatKernel, layer: KernelLayer, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The whole output, as the last launch left it.
    fn read_output(&self) -> Result<Vec<f32>>;
}

/// Every runner of the family on `dut`, each given the inputs `a` and `b`
/// (of the same length): the one place a programming model is added. Returns
/// the runners (CUDA's) and, for each series left out, what and why (none:
/// both layers are Rust on CUDA, and the pairs have no twins).
#[allow(clippy::type_complexity)]
pub fn compat_layer_runners<'a>(
    dut: &'a DeviceUnderTest,
    a: &[f32],
    b: &[f32],
) -> Result<(Vec<Box<dyn CompatLayerRunner + 'a>>, Vec<(String, String)>)> {
    let runners: Vec<Box<dyn CompatLayerRunner + 'a>> = vec![Box::new(CudaCompatLayerRunner::new(dut, a, b)?)];
    Ok((runners, Vec::new()))
}
