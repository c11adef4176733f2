use kernels_gpu::reduction::REDUCTION_BLOCK_THREADS;

use super::{CudaReductionRunner, OpenClReductionRunner, ReductionKernel};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One kernel of the array sum in one implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReductionEntry {
    pub implementation: Implementation,
    pub kernel: ReductionKernel,
}

/// One programming model's side of the array sum, with its own array and
/// partial sums (BabelStream's `Stream`).
pub trait ReductionRunner {
    fn entries(&self) -> Vec<ReductionEntry>;
    /// Uploads the array (and sizes the partial sums for the largest grid).
    fn load(&mut self, x: &[f32]) -> Result<()>;
    /// Per-launch milliseconds of each sample ([`crate::timing::time_per_launch`]).
    fn time(&mut self, entry: &ReductionEntry, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The last launch's sum: its partial sums, read back and added in f64 on the host.
    fn read_sum(&mut self, entry: &ReductionEntry) -> Result<f64>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn reduction_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn ReductionRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, waived) = dut.ptx_implementations();
    let mut waived: Vec<(Implementation, String)> =
        waived.into_iter().map(|why| (Implementation::CudaC, why)).collect();
    let wave = {
        let rust = dut.kernel(Implementation::Rust, ReductionKernel::GridStrideShuffle.kernel())?;
        dut.full_wave_blocks(rust, REDUCTION_BLOCK_THREADS)?
    };
    let mut runners: Vec<Box<dyn ReductionRunner + '_>> =
        vec![Box::new(CudaReductionRunner::new(dut, implementations, wave)?)];
    match dut.opencl_or_waiver() {
        (Some(side), _) => runners.push(Box::new(OpenClReductionRunner::new(side, wave))),
        (None, Some(why)) => waived.push((Implementation::OpenClC, why)),
        (None, None) => {}
    }
    Ok((runners, waived))
}
