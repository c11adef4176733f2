use super::cuda_runner::no_array;
use super::opencl::opencl_fma_chain_in;
use super::{FmaChainGrid, FmaChainRunner};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, ClContext, ClQueue, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{OpenClTimer, timed_launches};

/// The OpenCL C `fma_chain` (`host/opencl_c/streams.cl`) on an OpenCL queue
/// (the GPU under test's, in a run), timed by profiling events on the
/// in-order queue.
pub struct OpenClFmaChainRunner<'a> {
    context: &'a ClContext,
    queue: &'a ClQueue,
    twins: &'a OpenClTwins,
    data: Option<ClBuffer<f32>>,
}

impl<'a> OpenClFmaChainRunner<'a> {
    /// The twin built in `context` (its program's), launched on `queue`, without an array yet.
    pub fn new(context: &'a ClContext, queue: &'a ClQueue, twins: &'a OpenClTwins) -> Self {
        Self {
            context,
            queue,
            twins,
            data: None,
        }
    }

    fn data(&mut self) -> Result<&mut ClBuffer<f32>> {
        self.data.as_mut().ok_or_else(no_array)
    }
}

impl FmaChainRunner for OpenClFmaChainRunner<'_> {
    fn implementation(&self) -> Implementation {
        Implementation::OpenClC
    }
    fn allocate(&mut self, elements: usize) -> Result<()> {
        self.data = None;
        self.data = Some(ClBuffer::new(self.context, elements)?);
        Ok(())
    }
    fn write(&mut self, values: &[f32]) -> Result<()> {
        let queue = self.queue;
        let data = self.data()?;
        if values.len() != data.len() {
            return Err(Error::InvalidInput(format!(
                "{} values for an array of {}",
                values.len(),
                data.len()
            )));
        }
        Ok(data.write(queue, 0, values)?)
    }
    fn fill(&mut self, value: f32) -> Result<()> {
        let queue = self.queue;
        Ok(self.data()?.fill(queue, value)?)
    }
    fn launch(&mut self, grid: FmaChainGrid, iterations: u32) -> Result<()> {
        let (twins, queue) = (self.twins, self.queue);
        opencl_fma_chain_in(twins, queue, self.data()?, iterations, grid)
    }
    fn time(&mut self, grid: FmaChainGrid, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>> {
        let (twins, queue) = (self.twins, self.queue);
        let data = self.data()?;
        timed_launches(&mut OpenClTimer(queue), settings, &mut || {
            opencl_fma_chain_in(twins, queue, data, iterations, grid)
        })
    }
    fn read(&mut self) -> Result<Vec<f32>> {
        let queue = self.queue;
        Ok(self.data()?.to_host(queue)?)
    }
}
