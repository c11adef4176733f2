//! Where a throughput series' code comes from, and measuring one point of it:
//! the Rust PTX and the CUDA C twins the device loaded, the twins compiled
//! once more with `-use_fast_math`, or the OpenCL C twins built with an
//! option. Shared by `math-functions` and `opencl-arithmetic`, which measure
//! `instructions`' throughput loops (one full wave, 8 chains per thread,
//! rounds calibrated to about [`TARGET_LAUNCH_MS`]) outside its kernel list.

use std::sync::Arc;

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::RunContext;
use super::calibrated_launches::{calibrate, timed_launches};
use super::chain_check::chain_mismatch;
use super::instructions::{ITERATIONS, PER_SM_PER_CLOCK, TARGET_LAUNCH_MS, range_key, throughput_point};
use super::throughput_sass::{self, SASS_CEILING};
use crate::error::Result;
use crate::gpu::Module;
use crate::launchers::{
    AnyChainParams, ChainValues, ThroughputOutputs, first_threads, opencl_throughput, suggested_params,
    throughput_wave_blocks,
};
use crate::opencl::{ClBuffer, ClQueue, OpenClTwins};
use crate::ptx::with_launch_bounds;
use crate::reference::ArgumentRange;
use crate::report::ceilings::fp32_lanes_per_sm;
use crate::report::{Bound, ExperimentResult, Point, Waiver};
use crate::sass::{SassModule, SassWaived, architecture, assembled, environment_tools};
use crate::testbed::{FAST_MATH_OPTION, Implementation, compile_fast_math_twins};
use crate::timing::SampleTimer;

/// The most rounds a launch may run.
const MAX_ITERATIONS: u32 = 1 << 24;
/// The threads whose chains every point checks against the CPU reference.
pub const CHECKED_THREADS: u32 = 64;
/// Every point is measured at small arguments.
pub const SMALL: ArgumentRange = ArgumentRange::Small;
/// Extra figure of each point: the FP32 lanes per SM, a ceiling on
/// operations per clock (no operation measured here issues less than one
/// instruction, and no pipe an SM has runs more than its FP32 lanes' worth).
pub const FP32_LANE_CEILING: &str = "op/clk/SM ceiling: FP32 lanes per SM";

/// The bounds every point's op/clk/SM is checked against: the FP32 lanes,
/// and for straight-line loops what the issue rates of their SASS allow.
pub fn throughput_bounds() -> Vec<Bound> {
    vec![
        Bound::stored(PER_SM_PER_CLOCK, FP32_LANE_CEILING),
        Bound::stored(PER_SM_PER_CLOCK, SASS_CEILING),
    ]
}

/// Where a series' PTX kernels come from.
#[derive(Clone, Copy)]
pub enum Code<'m> {
    /// An implementation the device loaded: the Rust PTX or the CUDA C twins.
    Loaded(Implementation),
    /// The CUDA C twins compiled with `-use_fast_math`.
    FastMath(&'m Module),
}

impl Code<'_> {
    pub fn label(self) -> String {
        match self {
            Self::Loaded(implementation) => implementation.label().into(),
            Self::FastMath(_) => format!("CUDA C {FAST_MATH_OPTION}"),
        }
    }

    pub fn implementation(self) -> Implementation {
        match self {
            Self::Loaded(implementation) => implementation,
            Self::FastMath(_) => Implementation::CudaC,
        }
    }

    /// The series variant: empty, or the compiler option.
    pub fn variant(self) -> &'static str {
        match self {
            Self::Loaded(_) => "",
            Self::FastMath(_) => FAST_MATH_OPTION,
        }
    }

    /// Blocks for one full wave of `kernel` in this code.
    pub fn wave_blocks(self, ctx: &RunContext<'_>, kernel: ThroughputKernel) -> Result<u32> {
        match self {
            Self::Loaded(i) => throughput_wave_blocks(ctx.device, i, kernel),
            Self::FastMath(module) => ctx
                .device
                .full_wave_blocks(module.kernel(kernel.entry())?, THROUGHPUT_BLOCK_THREADS),
        }
    }
}

/// The `-use_fast_math` twins loaded on the device and their SASS; `None`
/// (the reason recorded in `result`) where NVRTC or the CUDA C twins are not there.
pub fn fast_math_twins(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
) -> Option<(Module, Arc<std::result::Result<SassModule, SassWaived>>)> {
    if !ctx.device.selected().contains(Implementation::CudaC) {
        return None;
    }
    let cc = ctx.device.info().architecture();
    let loaded = compile_fast_math_twins().and_then(|ptx| {
        let ptx = with_launch_bounds(&ptx, cc);
        let module = Module::load(ctx.device.gpu(), &ptx)
            .map_err(|e| format!("the {FAST_MATH_OPTION} twins did not load: {e}"))?;
        let sass = match environment_tools() {
            Ok(tools) => assembled(&tools, &ptx, &architecture(cc), None),
            Err(waived) => Arc::new(Err(waived)),
        };
        Ok((module, sass))
    });
    loaded
        .map_err(|reason| {
            result.waived.push(Waiver {
                what: format!("CUDA C twins with {FAST_MATH_OPTION}"),
                reason,
            })
        })
        .ok()
}

/// One kernel's launches, whatever runs them.
pub trait ChainLaunch {
    fn kernel(&self) -> ThroughputKernel;
    /// Launches `iterations` rounds (asynchronously).
    fn launch(&mut self, iterations: u32) -> Result<()>;
    /// The chains of the first [`CHECKED_THREADS`] threads of the last launch (waits for it).
    fn first_chains(&mut self) -> Result<ChainValues>;
    /// Threads per launch.
    fn threads(&self) -> u32;
}

/// A PTX kernel's launches into shared output buffers.
pub struct PtxLaunch<'a, 'c> {
    pub ctx: &'a RunContext<'c>,
    pub outputs: &'a mut ThroughputOutputs,
    pub code: Code<'a>,
    pub kernel: ThroughputKernel,
    pub blocks: u32,
}

impl ChainLaunch for PtxLaunch<'_, '_> {
    fn kernel(&self) -> ThroughputKernel {
        self.kernel
    }
    fn launch(&mut self, iterations: u32) -> Result<()> {
        let params = suggested_params(self.kernel, SMALL);
        match self.code {
            Code::Loaded(i) => self
                .outputs
                .launch(self.ctx.device, i, self.kernel, params, iterations, self.blocks),
            Code::FastMath(module) => self.outputs.launch_in_module(
                self.ctx.device.gpu(),
                module,
                self.kernel,
                params,
                (iterations, self.blocks),
            ),
        }
    }
    fn first_chains(&mut self) -> Result<ChainValues> {
        self.outputs
            .read_first_threads(self.kernel, self.blocks, CHECKED_THREADS)
    }
    fn threads(&self) -> u32 {
        self.blocks * THROUGHPUT_BLOCK_THREADS
    }
}

/// An OpenCL C twin's launches.
pub struct OpenClLaunch<'a> {
    pub queue: &'a ClQueue,
    pub twins: &'a OpenClTwins,
    pub out: &'a mut ClBuffer<f32>,
    pub kernel: ThroughputKernel,
    pub groups: u32,
}

impl ChainLaunch for OpenClLaunch<'_> {
    fn kernel(&self) -> ThroughputKernel {
        self.kernel
    }
    fn launch(&mut self, iterations: u32) -> Result<()> {
        let AnyChainParams::F32(params) = suggested_params(self.kernel, SMALL) else {
            return Err(crate::error::Error::InvalidLaunch {
                kernel: self.kernel.entry(),
                reason: "only f32 kernels have OpenCL C twins".into(),
            });
        };
        opencl_throughput(
            self.queue,
            self.twins,
            self.kernel,
            self.out,
            params,
            (iterations, self.groups),
        )
    }
    fn first_chains(&mut self) -> Result<ChainValues> {
        let all = self.out.to_host(self.queue)?;
        Ok(ChainValues::F32(first_threads(&all, self.threads(), CHECKED_THREADS)))
    }
    fn threads(&self) -> u32 {
        self.groups * THROUGHPUT_BLOCK_THREADS
    }
}

/// One point: rounds calibrated, launches timed, the first threads' chains
/// checked against the CPU reference, per-clock figures beside the published
/// ones, and the steady loop's SASS figures where `sass` holds the kernel.
pub fn measure(
    ctx: &RunContext<'_>,
    timer: &mut dyn SampleTimer,
    launch: &mut dyn ChainLaunch,
    sass: Option<&SassModule>,
) -> Result<Option<Point>> {
    let info = ctx.device.info();
    let kernel = launch.kernel();
    let hardware = (info.multiprocessors, info.sm_clock_khz, info.compute_capability);
    let iterations = calibrate(timer, TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| launch.launch(n))?;
    let times = timed_launches(timer, ctx.settings, &mut || launch.launch(iterations))?;
    let got = launch.first_chains()?;
    let params = suggested_params(kernel, SMALL);
    let failure = chain_mismatch(kernel, SMALL, params, &got, CHECKED_THREADS, iterations);
    let per_thread = kernel.operations_per_round() as u64 * iterations as u64;
    let operations = launch.threads() as u64 * per_thread;
    debug_assert!(kernel.operations_per_round() as usize >= THROUGHPUT_CHAINS);
    let Some(mut point) = throughput_point(range_key(SMALL), kernel, (operations, &times), hardware, failure) else {
        return Ok(None);
    };
    point.set_extra(ITERATIONS, iterations as f64);
    if let Some(lanes) = fp32_lanes_per_sm(info.compute_capability) {
        point.set_extra(FP32_LANE_CEILING, lanes);
    }
    let found = sass
        .and_then(|m| m.function(kernel.entry()))
        .and_then(|f| throughput_sass::throughput_sass(f, kernel));
    if let Some(s) = found {
        let rate = point.extra.get(PER_SM_PER_CLOCK).copied();
        throughput_sass::record(&mut point, &s, rate, info.architecture());
    }
    Ok(Some(point))
}
