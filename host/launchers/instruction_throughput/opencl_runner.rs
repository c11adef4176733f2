use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::cuda_runner::no_outputs;
use super::{AnyChainParams, ChainLaunch, ChainValues, ThroughputRunner, first_threads, opencl_throughput};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, ClContext, ClQueue, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{OpenClTimer, probe_ms, timed_launches};

/// The OpenCL C twins of the `f32` throughput kernels
/// (`host/opencl_c/instruction_throughput.cl`) built with one option, on an
/// OpenCL queue (the GPU under test's), into an output of their own, timed by
/// profiling events on the in-order queue.
pub struct OpenClThroughputRunner<'a> {
    rust_waves: RustWaves<'a>,
    context: &'a ClContext,
    queue: &'a ClQueue,
    twins: OpenClTwins,
    option: &'static str,
    out: Option<ClBuffer<f32>>,
}

/// The blocks of one full wave of a Rust kernel on the GPU under test, which
/// its OpenCL C twin launches as work-groups (OpenCL reports no occupancy).
pub type RustWaves<'a> = Box<dyn Fn(ThroughputKernel) -> Result<u32> + 'a>;

impl<'a> OpenClThroughputRunner<'a> {
    /// `twins` ([`build_throughput_twins`](super::build_throughput_twins) with
    /// `option`, in `context`), launched on `queue` in the waves `rust_waves`
    /// gives, without an output yet.
    pub fn new(
        (context, queue): (&'a ClContext, &'a ClQueue),
        twins: OpenClTwins,
        option: &'static str,
        rust_waves: RustWaves<'a>,
    ) -> Self {
        Self {
            rust_waves,
            context,
            queue,
            twins,
            option,
            out: None,
        }
    }
}

/// Enqueues `launch` of the `f32` twin into `out` (the launcher checks the shape).
fn enqueue(queue: &ClQueue, twins: &OpenClTwins, out: &mut ClBuffer<f32>, launch: ChainLaunch) -> Result<()> {
    let AnyChainParams::F32(params) = launch.params else {
        return Err(Error::InvalidLaunch {
            kernel: launch.kernel.entry(),
            reason: "only f32 kernels have OpenCL C twins".into(),
        });
    };
    opencl_throughput(
        queue,
        twins,
        launch.kernel,
        out,
        params,
        (launch.iterations, launch.blocks),
    )
}

impl ThroughputRunner for OpenClThroughputRunner<'_> {
    fn implementation(&self) -> Implementation {
        Implementation::OpenClC
    }
    fn variant(&self) -> &'static str {
        self.option
    }
    fn wave_blocks(&self, kernel: ThroughputKernel) -> Result<u32> {
        (self.rust_waves)(kernel)
    }
    fn allocate(&mut self, threads: u32) -> Result<()> {
        self.out = None;
        self.out = Some(ClBuffer::new(self.context, threads as usize * THROUGHPUT_CHAINS)?);
        Ok(())
    }
    fn launch(&mut self, launch: ChainLaunch) -> Result<()> {
        let out = self.out.as_mut().ok_or_else(no_outputs)?;
        enqueue(self.queue, &self.twins, out, launch)
    }
    fn probe_ms(&mut self, launch: ChainLaunch) -> Result<f64> {
        let (queue, twins) = (self.queue, &self.twins);
        let out = self.out.as_mut().ok_or_else(no_outputs)?;
        probe_ms(&mut OpenClTimer(queue), &mut || enqueue(queue, twins, out, launch))
    }
    fn time(&mut self, launch: ChainLaunch, settings: &RunSettings) -> Result<Vec<f64>> {
        let (queue, twins) = (self.queue, &self.twins);
        let out = self.out.as_mut().ok_or_else(no_outputs)?;
        timed_launches(&mut OpenClTimer(queue), settings, &mut || {
            enqueue(queue, twins, out, launch)
        })
    }
    fn read_first_threads(&self, kernel: ThroughputKernel, blocks: u32, first: u32) -> Result<ChainValues> {
        let out = self.out.as_ref().ok_or_else(no_outputs)?;
        let launched = blocks.saturating_mul(THROUGHPUT_BLOCK_THREADS);
        if (launched as usize).saturating_mul(THROUGHPUT_CHAINS) > out.len() || first > launched {
            return Err(Error::InvalidLaunch {
                kernel: kernel.entry(),
                reason: format!(
                    "cannot read {first} threads of a launch of {launched} threads from an output of {}",
                    out.len()
                ),
            });
        }
        let all = out.to_host(self.queue)?;
        Ok(ChainValues::F32(first_threads(&all, launched, first)))
    }
    fn read_all_f32(&self, blocks: u32) -> Result<Vec<f32>> {
        let out = self.out.as_ref().ok_or_else(no_outputs)?;
        let len = THROUGHPUT_CHAINS * blocks.saturating_mul(THROUGHPUT_BLOCK_THREADS) as usize;
        let mut all = out.to_host(self.queue)?;
        if all.len() < len {
            return Err(Error::InvalidLaunch {
                kernel: "f32 throughput kernels",
                reason: format!("{blocks} blocks store {len} values; the buffer holds {}", all.len()),
            });
        }
        all.truncate(len);
        Ok(all)
    }
}
