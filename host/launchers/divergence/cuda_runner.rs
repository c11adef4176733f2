use kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;

use super::{ControlFlow, DivergenceRunner, branch, divergent_paths};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, probe_ms, timed_launches};

/// The control-flow kernels of one PTX implementation (Rust, or its CUDA C
/// twins) on the device's CUDA context, timed by CUDA events.
pub struct CudaDivergenceRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementation: Implementation,
    blocks: u32,
    out: DeviceBuffer<f32>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaDivergenceRunner<'a> {
    /// `implementation`'s kernels over `blocks` blocks, with an output of one float per thread.
    pub fn new(dut: &'a DeviceUnderTest, implementation: Implementation, blocks: u32) -> Result<Self> {
        let threads = blocks as usize * DIVERGENCE_BLOCK_THREADS as usize;
        Ok(Self {
            dut,
            implementation,
            blocks,
            out: DeviceBuffer::<f32>::uninit(dut.gpu(), threads)?,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

/// Enqueues `what` by `implementation` on the CUDA stream (the launchers check the shape).
fn enqueue(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    out: &mut DeviceBuffer<f32>,
    blocks: u32,
    (what, iterations): (ControlFlow, u32),
) -> Result<()> {
    match what {
        ControlFlow::Paths(choice, paths) => {
            divergent_paths(dut, implementation, choice, out, paths, iterations, blocks)
        }
        ControlFlow::Branch(length, mask) => branch(dut, implementation, length, out, mask, iterations, blocks),
    }
}

impl DivergenceRunner for CudaDivergenceRunner<'_> {
    fn implementation(&self) -> Implementation {
        self.implementation
    }
    fn blocks(&self) -> u32 {
        self.blocks
    }
    fn launch(&mut self, what: ControlFlow, iterations: u32) -> Result<()> {
        enqueue(
            self.dut,
            self.implementation,
            &mut self.out,
            self.blocks,
            (what, iterations),
        )
    }
    fn probe_ms(&mut self, what: ControlFlow, iterations: u32) -> Result<f64> {
        let Self {
            dut,
            implementation,
            blocks,
            out,
            timer,
        } = self;
        probe_ms(timer, &mut || {
            enqueue(dut, *implementation, out, *blocks, (what, iterations))
        })
    }
    fn time(&mut self, what: ControlFlow, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            implementation,
            blocks,
            out,
            timer,
        } = self;
        timed_launches(timer, settings, &mut || {
            enqueue(dut, *implementation, out, *blocks, (what, iterations))
        })
    }
    fn clear_output(&mut self) -> Result<()> {
        self.out.fill(f32::NAN)
    }
    fn read_output(&self, threads: u32) -> Result<Vec<f32>> {
        let mut all = self.out.to_host()?;
        all.truncate(threads as usize);
        Ok(all)
    }
    fn setup(&self) -> Option<String> {
        None
    }
}
