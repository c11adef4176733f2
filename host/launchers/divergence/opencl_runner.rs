use kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;

use super::ControlFlow;
use super::DivergenceRunner;
use super::opencl::{branch, divergent_paths};
use crate::error::Result;
use crate::opencl::{ClBuffer, ClContext, ClQueue, DIVERGENCE_UNROLL_OPTION, OpenClTwins, PRAGMA_UNROLL_EXTENSION};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{OpenClTimer, probe_ms, timed_launches};

/// The control-flow kernels' OpenCL C twins (`host/opencl_c/divergence.cl`)
/// on an OpenCL queue (the GPU under test's, in a run), timed by profiling
/// events on the in-order queue.
pub struct OpenClDivergenceRunner<'a> {
    queue: &'a ClQueue,
    twins: &'a OpenClTwins,
    groups: u32,
    out: ClBuffer<f32>,
}

impl<'a> OpenClDivergenceRunner<'a> {
    /// The twins built in `context` (their program's), launched on `queue` over
    /// `groups` work-groups (a run passes the Rust kernel's full wave: OpenCL
    /// reports no occupancy), with an output of one float per work-item.
    pub fn new(context: &ClContext, queue: &'a ClQueue, twins: &'a OpenClTwins, groups: u32) -> Result<Self> {
        let items = groups as usize * DIVERGENCE_BLOCK_THREADS as usize;
        Ok(Self {
            queue,
            twins,
            groups,
            out: ClBuffer::new(context, items)?,
        })
    }
}

/// Enqueues the twin of `what` on `queue` (the launchers check the shape).
fn enqueue(
    twins: &OpenClTwins,
    queue: &ClQueue,
    out: &mut ClBuffer<f32>,
    groups: u32,
    (what, iterations): (ControlFlow, u32),
) -> Result<()> {
    match what {
        ControlFlow::Paths(choice, paths) => divergent_paths(twins, queue, choice, out, paths, iterations, groups),
        ControlFlow::Branch(length, mask) => branch(twins, queue, length, out, mask, iterations, groups),
    }
}

impl DivergenceRunner for OpenClDivergenceRunner<'_> {
    fn implementation(&self) -> Implementation {
        Implementation::OpenClC
    }
    fn blocks(&self) -> u32 {
        self.groups
    }
    fn launch(&mut self, what: ControlFlow, iterations: u32) -> Result<()> {
        enqueue(self.twins, self.queue, &mut self.out, self.groups, (what, iterations))
    }
    fn probe_ms(&mut self, what: ControlFlow, iterations: u32) -> Result<f64> {
        let (twins, queue, out, groups) = (self.twins, self.queue, &mut self.out, self.groups);
        probe_ms(&mut OpenClTimer(queue), &mut || {
            enqueue(twins, queue, out, groups, (what, iterations))
        })
    }
    fn time(&mut self, what: ControlFlow, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>> {
        let (twins, queue, out, groups) = (self.twins, self.queue, &mut self.out, self.groups);
        timed_launches(&mut OpenClTimer(queue), settings, &mut || {
            enqueue(twins, queue, out, groups, (what, iterations))
        })
    }
    fn clear_output(&mut self) -> Result<()> {
        Ok(self.out.fill(self.queue, f32::NAN)?)
    }
    fn read_output(&self, threads: u32) -> Result<Vec<f32>> {
        let mut got = vec![0.0; threads as usize];
        self.out.read(self.queue, 0, &mut got)?;
        Ok(got)
    }
    fn setup(&self) -> Option<String> {
        let unrolled = self.twins.program().options().contains(DIVERGENCE_UNROLL_OPTION);
        Some(format!(
            "OpenCL C: each path's loop {} (no `nounroll` for ptxas in OpenCL C); timed by profiling events on the \
             in-order queue",
            if unrolled {
                format!("unrolled 8 times by `#pragma unroll 8` ({PRAGMA_UNROLL_EXTENSION})")
            } else {
                format!("a plain loop (the device has no {PRAGMA_UNROLL_EXTENSION})")
            }
        ))
    }
}
