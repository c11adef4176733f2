use super::{ConstantSpace, CudaChaseRunner, OpenClChaseRunner};
use crate::error::Result;
use crate::launchers::TimedLaunches;
use crate::launchers::twin_waivers::twin_waivers;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One launch of a constant-memory chase: where the table is read, the
/// distinct addresses per warp request, the steps a lane takes, and the
/// grid (threads per block or work-group, and blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChaseCase {
    pub space: ConstantSpace,
    pub distinct: u32,
    pub steps: u32,
    pub block_threads: u32,
    pub blocks: u32,
}

impl ChaseCase {
    /// Threads (work-items) of the launch: one sum each.
    pub fn threads(&self) -> u32 {
        self.blocks * self.block_threads
    }
}

/// What timing a chase measured: with the blocks' own clocks where the
/// implementation has them, or the events' time alone.
pub enum ChaseTiming {
    /// Each block's `clock64` span of every launch, beside the events' time (Rust, CUDA C).
    Clocked(TimedLaunches<u64>),
    /// Milliseconds per launch of each sample, from the events alone (OpenCL C has no `clock64`).
    Events(Vec<f64>),
}

/// One programming model's side of the constant-memory family, with its own
/// table and sums (BabelStream's `Stream`).
pub trait ChaseRunner {
    /// The implementations this runner measures.
    fn implementations(&self) -> &[Implementation];
    /// Whether its kernels record their blocks' clock spans ([`ChaseTiming::Clocked`]).
    fn records_spans(&self) -> bool;
    /// Blocks of `block_threads` threads of `space`'s chase (over the family's
    /// 1 KiB table) that fit an SM at once, at least 1.
    fn blocks_per_sm(&self, implementation: Implementation, space: ConstantSpace, block_threads: u32) -> Result<u32>;
    /// Uploads the table (checked) and sizes the outputs for launches of up
    /// to `most`: (threads, blocks), in timing runs with `settings`.
    fn prepare(&mut self, links: &[u32], most: (u32, u32), settings: &RunSettings) -> Result<()>;
    fn fill_sums(&mut self, value: u32) -> Result<()>;
    /// A timing run of `case` ([`crate::timing::time_per_launch`]), its sums left for [`read_sums`](Self::read_sums).
    fn time(&mut self, implementation: Implementation, case: &ChaseCase, settings: &RunSettings)
    -> Result<ChaseTiming>;
    /// Every thread's sum of the last run, in thread order (the whole buffer).
    fn read_sums(&mut self) -> Result<Vec<u32>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (the PTX implementations' first) and, for each
/// selected set of twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn constant_chase_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn ChaseRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, cuda_c_waived) = dut.ptx_implementations();
    let (side, opencl_waived) = dut.opencl_or_waiver();
    let mut runners: Vec<Box<dyn ChaseRunner + '_>> = vec![Box::new(CudaChaseRunner::new(dut, implementations)?)];
    if let Some(side) = side {
        runners.push(Box::new(OpenClChaseRunner::new(dut, side)));
    }
    Ok((runners, twin_waivers(cuda_c_waived, opencl_waived)))
}
