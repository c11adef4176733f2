use std::sync::Arc;

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, ThroughputKernel};

use super::runner::CompiledSass;
use super::{ChainLaunch, ChainValues, ThroughputOutputs, ThroughputRunner, throughput_wave_blocks};
use crate::error::{Error, Result};
use crate::gpu::Module;
use crate::ptx::with_launch_bounds;
use crate::run_settings::RunSettings;
use crate::sass::{architecture, assembled, environment_tools};
use crate::testbed::{DeviceUnderTest, FAST_MATH_OPTION, Implementation, compile_fast_math_twins};
use crate::timing::{CudaTimer, probe_ms, timed_launches};

/// Where a CUDA runner's kernels come from.
enum Kernels {
    /// An implementation the device loaded: the Rust PTX or the CUDA C twins.
    Loaded(Implementation),
    /// The CUDA C twins compiled alone with [`FAST_MATH_OPTION`], a module of the device's GPU.
    FastMath(Module),
}

/// One PTX set of the throughput kernels on the device's CUDA context and
/// stream, into output buffers of its own, timed by CUDA events.
pub struct CudaThroughputRunner<'a> {
    dut: &'a DeviceUnderTest,
    kernels: Kernels,
    outputs: Option<ThroughputOutputs>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaThroughputRunner<'a> {
    /// `implementation`'s kernels (loaded by the device), without outputs yet.
    pub fn loaded(dut: &'a DeviceUnderTest, implementation: Implementation) -> Result<Self> {
        Self::new(dut, Kernels::Loaded(implementation))
    }

    /// The CUDA C twins compiled by NVRTC with [`FAST_MATH_OPTION`], bounded
    /// like the suite's twins, loaded on the device, and their SASS (or why
    /// there is none); `Err` says why they did not compile or load.
    pub fn fast_math(dut: &'a DeviceUnderTest) -> std::result::Result<(Self, CompiledSass), String> {
        let cc = dut.info().architecture();
        let ptx = with_launch_bounds(&compile_fast_math_twins()?, cc);
        let module =
            Module::load(dut.gpu(), &ptx).map_err(|e| format!("the {FAST_MATH_OPTION} twins did not load: {e}"))?;
        let sass = match environment_tools() {
            Ok(tools) => assembled(&tools, &ptx, &architecture(cc), None),
            Err(waived) => Arc::new(Err(waived)),
        };
        let runner = Self::new(dut, Kernels::FastMath(module)).map_err(|e| e.to_string())?;
        Ok((runner, sass))
    }

    fn new(dut: &'a DeviceUnderTest, kernels: Kernels) -> Result<Self> {
        Ok(Self {
            dut,
            kernels,
            outputs: None,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }

    fn outputs(&self) -> Result<&ThroughputOutputs> {
        self.outputs.as_ref().ok_or_else(no_outputs)
    }
}

/// The error of a use before [`ThroughputRunner::allocate`].
pub(super) fn no_outputs() -> Error {
    Error::InvalidLaunch {
        kernel: "throughput kernels",
        reason: "no outputs yet: allocate them first".into(),
    }
}

/// Enqueues `launch` of `kernels` into `outputs` on the CUDA stream (the launchers check the shape).
fn enqueue(
    dut: &DeviceUnderTest,
    kernels: &Kernels,
    outputs: &mut ThroughputOutputs,
    launch: ChainLaunch,
) -> Result<()> {
    let ChainLaunch {
        kernel,
        params,
        iterations,
        blocks,
    } = launch;
    match kernels {
        Kernels::Loaded(i) => outputs.launch(dut, *i, kernel, params, iterations, blocks),
        Kernels::FastMath(module) => outputs.launch_in_module(dut.gpu(), module, kernel, params, (iterations, blocks)),
    }
}

impl ThroughputRunner for CudaThroughputRunner<'_> {
    fn implementation(&self) -> Implementation {
        match self.kernels {
            Kernels::Loaded(implementation) => implementation,
            Kernels::FastMath(_) => Implementation::CudaC,
        }
    }
    fn variant(&self) -> &'static str {
        match self.kernels {
            Kernels::Loaded(_) => "",
            Kernels::FastMath(_) => FAST_MATH_OPTION,
        }
    }
    fn wave_blocks(&self, kernel: ThroughputKernel) -> Result<u32> {
        match &self.kernels {
            Kernels::Loaded(i) => throughput_wave_blocks(self.dut, *i, kernel),
            Kernels::FastMath(module) => self
                .dut
                .full_wave_blocks(module.kernel(kernel.entry())?, THROUGHPUT_BLOCK_THREADS),
        }
    }
    fn allocate(&mut self, threads: u32) -> Result<()> {
        self.outputs = None;
        self.outputs = Some(ThroughputOutputs::new(self.dut.gpu(), threads)?);
        Ok(())
    }
    fn launch(&mut self, launch: ChainLaunch) -> Result<()> {
        let outputs = self.outputs.as_mut().ok_or_else(no_outputs)?;
        enqueue(self.dut, &self.kernels, outputs, launch)
    }
    fn probe_ms(&mut self, launch: ChainLaunch) -> Result<f64> {
        let Self {
            dut,
            kernels,
            outputs,
            timer,
        } = self;
        let outputs = outputs.as_mut().ok_or_else(no_outputs)?;
        probe_ms(timer, &mut || enqueue(dut, kernels, outputs, launch))
    }
    fn time(&mut self, launch: ChainLaunch, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            kernels,
            outputs,
            timer,
        } = self;
        let outputs = outputs.as_mut().ok_or_else(no_outputs)?;
        timed_launches(timer, settings, &mut || enqueue(dut, kernels, outputs, launch))
    }
    fn read_first_threads(&self, kernel: ThroughputKernel, blocks: u32, first: u32) -> Result<ChainValues> {
        self.outputs()?.read_first_threads(kernel, blocks, first)
    }
    fn read_all_f32(&self, blocks: u32) -> Result<Vec<f32>> {
        self.outputs()?.read_all_f32(blocks)
    }
}
