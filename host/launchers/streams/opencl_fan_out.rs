use super::fan_out::check_fan;
use super::{FAN_BLOCK, FAN_ITERATIONS, FanOut, FanOutRunner, Lanes, opencl_fma_chain_of};
use crate::error::Result;
use crate::opencl::{ClBuffer, ClContext, ClQueue, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{HostClock, timed_launches};

/// The OpenCL C `fma_chain` fanned out over in-order queues of the OpenCL
/// device that is the GPU under test, one work-group per kernel, each sample
/// the host clock around the enqueues, a `clFlush` of every queue used (so
/// none waits for another's `clFinish` to be submitted) and a `clFinish` of
/// each (profiling events do not span queues).
pub struct OpenClFanOutRunner<'a> {
    twins: &'a OpenClTwins,
    queues: Vec<ClQueue>,
    data: ClBuffer<f32>,
}

impl<'a> OpenClFanOutRunner<'a> {
    /// The twins built in `context` (their program's), over up to `kernels` in-order queues of it,
    /// with a work-group's block of buffer each.
    pub fn new(context: &ClContext, twins: &'a OpenClTwins, kernels: usize) -> Result<Self> {
        let queues: Vec<ClQueue> = (0..kernels.max(1))
            .map(|_| ClQueue::new(context))
            .collect::<std::result::Result<_, _>>()?;
        let data = ClBuffer::<f32>::new(context, kernels * FAN_BLOCK)?;
        Ok(Self { twins, queues, data })
    }
}

impl FanOutRunner for OpenClFanOutRunner<'_> {
    fn implementation(&self) -> Implementation {
        Implementation::OpenClC
    }
    fn lanes(&self) -> Lanes {
        Lanes::InOrderQueues
    }
    fn clear(&mut self) -> Result<()> {
        self.data.fill(&self.queues[0], 0.0)?;
        Ok(self.queues[0].finish()?)
    }
    fn time(&mut self, fan: FanOut, settings: &RunSettings) -> Result<Vec<f64>> {
        check_fan(fan, self.queues.len(), self.data.len() / FAN_BLOCK)?;
        let Self { twins, queues, data } = self;
        let used = &queues[..fan.lanes];
        let mut enqueue = || -> Result<()> {
            for k in 0..fan.kernels {
                let queue = &used[k % used.len()];
                let block = k * FAN_BLOCK..(k + 1) * FAN_BLOCK;
                opencl_fma_chain_of(twins, queue, data, block, (FAN_ITERATIONS, 1))?;
            }
            used.iter().try_for_each(|queue| queue.flush())?;
            Ok(used.iter().try_for_each(|queue| queue.finish())?)
        };
        timed_launches(&mut HostClock, settings, &mut enqueue)
    }
    fn read(&mut self) -> Result<Vec<f32>> {
        Ok(self.data.to_host(&self.queues[0])?)
    }
}
